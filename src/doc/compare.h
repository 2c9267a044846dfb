#pragma once
/* The report of `genebench compare A B -o REPORT.json`: for every task of A, whether B's program
 * agrees with A's on derived inputs, and the counts. This module is its only writer and its only
 * parser. Numbers are written by src/base/json_write.h gb_json_number. Thread-safe. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* A task's verdict, in the order of the summary's counts. */
typedef enum {
    GB_COMPARE_AGREE,
    GB_COMPARE_DISAGREE,
    GB_COMPARE_SLOWER,
    GB_COMPARE_NOINPUT,
    GB_COMPARE_MISSING,
    GB_COMPARE_ERROR,
    GB_COMPARE_COUNT
} GbCompareStatus;
/* "agree", "disagree", "slower", "noinput", "missing", "error" (static). */
const char *gb_compare_status_word(GbCompareStatus s);

/* One task. Strings are borrowed when a command fills it, owned after gb_compare_doc_parse. */
typedef struct {
    const char *id;
    GbCompareStatus status;
    size_t derived, inputs, large;
    /* agree, disagree and slower carry the run on the inputs: */
    size_t agreed, checked;
    double cost_a_s, cost_b_s, wall_a_s, wall_b_s;
    const char *probe_failed; /* NULL: absent */
    bool has_first;           /* the first disagreement: */
    long first_index;
    const char *first_input, *first_a, *first_b;
    /* "coverage" (with the search; branches 0: absent): the original's branch outcomes, those
     * the kept inputs reach, those the derived inputs alone reach, the ones left ("12f 20x") */
    size_t branches, covered, covered_before;
    const char *uncovered;
    const char *error; /* NULL: absent */
} GbCompareDocTask;

typedef struct {
    const char *a, *b;
    double seed;
    GbArray(GbCompareDocTask) tasks;
    size_t with_inputs, inputs, inputs_checked, inputs_agreed;
    size_t count[GB_COMPARE_COUNT];
} GbCompareDoc;

/* Append the document (one line and its newline); the summary's "tasks" is tasks.len. */
void gb_compare_doc_write(GbStr *out, const GbCompareDoc *doc);
/* Parse a report into doc (caller storage, initialised here; destroy it in both cases). Refuses
 * malformed JSON, a missing, mistyped or unknown key, an unknown status, run keys on a task
 * whose status has no run, and a summary whose counts do not match its tasks. */
bool gb_compare_doc_parse(const char *text, const char *name, GbCompareDoc *doc, GbError *err);
/* Free what gb_compare_doc_parse allocated. */
void gb_compare_doc_destroy(GbCompareDoc *doc);
