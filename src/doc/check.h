#pragma once
/* The output of `genebench check --json`: one JSON object per task on its own line, then one line
 * {"summary": {...}}. This module is its only writer and its only parser. Strings written are
 * always valid UTF-8 (src/base/json_write.h: a byte of a program's output that is not UTF-8 is
 * written as U+FFFD). Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* One task's line. Strings may be NULL where the key may be null (failed_test, exc_type,
 * exc_message, pylint_error); filled by a command they are borrowed, filled by
 * gb_check_doc_parse they are owned by the document. */
typedef struct {
    const char *id;
    const char *kind;   /* src/model/task.h gb_test_kind_name */
    const char *status; /* src/runner/runner.h gb_run_status_name */
    const char *failed_test;
    GbArray(const char *) failed_tests;
    const char *exc_type, *exc_message;
    int signal, tests_run;
    double wall_s; /* written with 4 decimals */
    long peak_rss_kb;
    const char *out, *err; /* the program's stdout and stderr */
    bool lint;             /* the "pylint" key is present (check --lint) */
    double pylint;         /* with 4 decimals; only when lint and !pylint_error */
    const char *pylint_error;
    /* NULL, or how the task's program failed with its tests judged apart (harness_judge.py) when
     * it then passed with them in its own process: its tests do not split, and the line's
     * status is the second run's. The key "apart_failure" is written only when set. */
    const char *apart_failure;
} GbCheckDocTask;

/* The last line's "summary" object. */
typedef struct {
    const char *file;
    size_t tasks, passed, failed, timeout, crash, error, bad_lines;
    const char *sandbox, *python, *python_version;
    int workers;
    double start_s, run_s; /* with 3 decimals */
    const char *remap;
    size_t together; /* tasks with apart_failure set ("together"; 0 when an older output lacks it) */
} GbCheckDocSummary;

/* A whole parsed output: every string owned. */
typedef struct {
    GbArray(GbCheckDocTask) tasks;
    GbCheckDocSummary summary;
} GbCheckDoc;

/* Append one task's line (with its newline) to out. */
void gb_check_doc_write_task(GbStr *out, const GbCheckDocTask *t);
/* Append the summary line (with its newline) to out. */
void gb_check_doc_write_summary(GbStr *out, const GbCheckDocSummary *s);
/* The whole document: every task's line, then the summary line. */
void gb_check_doc_write(GbStr *out, const GbCheckDoc *doc);
/* Parse the text of a whole output into doc (caller storage, initialised here; destroy it in
 * both cases). Refuses, with "LINE N: what is wrong" in err, a line that is not a JSON object, a
 * missing or mistyped key, an unknown key, a status or kind that genebench does not write, and an
 * output without its summary line or with lines after it. */
bool gb_check_doc_parse(const char *text, GbCheckDoc *doc, GbError *err);
void gb_check_doc_destroy(GbCheckDoc *doc);
