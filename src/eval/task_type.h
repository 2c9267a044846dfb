#pragma once
/* What a task type of genebench eval is made of (one row of src/eval/task_list.h, implemented
 * by src/eval/task_<name>.c): the kind of item it asks about, the prompt of an item for a
 * version, how the answer is taken out of a reply, and how that answer is scored in the sandbox.
 * Internal to src/eval/ (the run, eval.c, dispatches through these tables; commands use eval.h).
 * Every function of a table is called on the run's worker threads: it uses only the sample's
 * parser (the calling thread's) and the thread-safe pool. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/eval/answer.h"
#include "src/eval/eval.h"
#include "src/doc/eval_verdict.h"
#include "src/eval/java.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

/* What an item is, and so which tasks of the original have one and what the versions are:
 *   ASSERTS      one item per `assert CALL(literals) == literal` of the task's tests (answer.h);
 *                versions are the files, a version's task found by id;
 *   STDIO_TASKS  one item per task with stdio tests; versions as ASSERTS;
 *   BUGS         one item per bug of inject-bugs output (a task with "hardened_buggy"); version 0
 *                is the first file's buggy original, version v the buggy hardened program of the
 *                same bug in file v (eval.h). */
typedef enum { GB_EVAL_IN_ASSERTS, GB_EVAL_IN_STDIO_TASKS, GB_EVAL_IN_BUGS } GbEvalInputKind;

/* One item as one version shows it; all borrowed. */
typedef struct {
    TSParser *parser;                  /* the calling thread's */
    GbPool *pool;                      /* runs the answers */
    const GbJavaConfig *java;          /* the JDK and its limits (types with .java) */
    const GbTask *task;                /* the version's task: the program shown and run, its tests */
    const char *entry;                 /* the original's entry point, else "f" */
    const GbEvalPair *pair;            /* GB_EVAL_IN_ASSERTS: the item's assert; else NULL */
    GbEvalPromptStyle style;           /* output and input: whose prompt and extraction */
    const struct GbEvalTemplate *tmpl; /* NULL: the type's own prompt (or style's) */
} GbEvalSample;

/* An answer taken out of a reply. gb_eval_answer_destroy frees what is set. */
typedef struct {
    char *text;      /* owned, may be NULL: what was taken (the results' "extracted") */
    char *cls;       /* owned, may be NULL: the class to run (a Java answer) */
    GbTask *program; /* owned, may be NULL: the task with the reply's program in it */
} GbEvalAnswer;

void gb_eval_answer_destroy(GbEvalAnswer *a);

typedef struct {
    const char *title; /* the summary's words for it, e.g. "output prediction" */
    GbEvalInputKind input;
    double run_timeout_s; /* the default wall-clock (and CPU) limit of one scoring run */
    bool java;            /* needs a JDK (GbEvalConfig.java) */
    /* The prompt of s's item for s's version (owned); NULL with err when it cannot be made (the
     * run stops). */
    char *(*prompt)(const GbEvalSample *s, GbError *err);
    /* Take the answer out of reply into a (a->text set even when refused, if anything was
     * taken); false with the reason in why when it is refused before running (verdict invalid). */
    bool (*extract)(const GbEvalSample *s, const char *reply, GbEvalAnswer *a, char *why, size_t why_size);
    /* Run the answer; *error (owned, may stay NULL) says why it did not pass. */
    GbVerdict (*score)(const GbEvalSample *s, const GbEvalAnswer *a, char **error);
} GbEvalTaskType;

#define GB_EVAL_TASK(ID, name, help) extern const GbEvalTaskType gb_eval_task_##name;
GB_EVAL_TASK_LIST
#undef GB_EVAL_TASK

/* The table of a task type (static). */
const GbEvalTaskType *gb_eval_task_type(GbEvalTask task);

/* The verdict of a scoring run that returned (ok) or not, with *error (owned) set from the
 * runner's message (verdict error), or from the failure when it did not pass: "EXC: MESSAGE",
 * prefixed with "FAILED_TEST: " when with_test. */
GbVerdict gb_eval_verdict_of_run(bool ok, const GbRunResult *res, const GbError *e, bool with_test, char **error);

/* Output and input prediction (part): the prompt of s (owned) from its template, else in its
 * style; and the answer taken out of a reply as its style takes it (answer.h). */
char *gb_eval_prediction_prompt(const GbEvalSample *s, GbAnswerPart part);
bool gb_eval_prediction_extract(const GbEvalSample *s, GbAnswerPart part, const char *reply, GbEvalAnswer *a, char *why,
                                size_t why_size);

/* Run s's version's program against check_code (borrowed) as its only test, an assert test:
 * the verdict as gb_eval_verdict_of_run without the failed test. */
GbVerdict gb_eval_score_assert(const GbEvalSample *s, const char *check_code, char **error);
