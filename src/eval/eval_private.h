#pragma once
/* What the files of an evaluation run share: the run's state. eval.c runs it, eval_items.c builds
 * its items and the versions' tasks, eval_summarize.c computes and writes its summary. Private to
 * src/eval/. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/eval/eval.h"
#include "src/eval/plus.h"
#include "src/eval/task_type.h"
#include "src/python/pyparse.h"

/* What the items of an input kind are (task_type.h). */
typedef struct {
    bool per_assert;                 /* one item per literal assert; else one per task that is usable */
    bool (*usable)(const GbTask *t); /* one item per task: whether the task has one */
    const char *without;             /* the summary's words for the tasks left out */
    const char *none;                /* the error when no task of the original has an item */
} GbEvalInputInfo;

typedef struct {
    char *id;        /* owned: task id, or "task#k" when the task has several items */
    size_t task;     /* index in versions[0] */
    GbEvalPair pair; /* borrowed from the pairs array */
} GbEvalItem;

typedef struct {
    size_t item, version;
    long sample;
    const GbTask *task; /* the version's task (its program and the tests), borrowed */
    char *prompt;
    char hash[65];
} GbEvalJob;

typedef GbArray(GbTask *) GbEvalOwnedTasks; /* BUGS: the hardened views, owned */

typedef struct {
    const GbEvalConfig *cfg;
    const GbEvalTaskType *type;
    const GbEvalInputInfo *input;
    GbHttpClient *http;
    GbPool *pool;
    const GbEvalVersion *versions;
    size_t nv, nitems, without; /* without: tasks of the original with no item */
    size_t before_dedup;        /* items before the duplicates were dropped */
    GbEvalItem *items;
    GbEvalPairs *pairs; /* [task of the original]: its asserts (GB_EVAL_IN_ASSERTS) */
    GbEvalJob *jobs;
    size_t nslots, njobs, next, done, cached, failed_io, kept;
    unsigned char *verdict;   /* [version][item][sample] */
    unsigned char *truncated; /* [version][item][sample]: the reply was cut at the token limit */
    unsigned char *plus;      /* [version][item][sample]: repair on the derived inputs too (GB_V_NONE: none) */
    GbEvalPlus **refs;        /* [item]: the bug's reference results (repair; NULL: none) */
    size_t nrefs;             /* items with a reference */
    size_t together;          /* repair items whose tests do not split (gb_eval_split_fit) */
    char **hashes;            /* [version][item][sample]: the prompt's sha256 (NULL: the version has no such task) */
    char **prompts;           /* [version][item][sample]: the prompt, at sample 0 only */
    const GbTask **views;     /* [version][item]: the task a version shows and runs (NULL: none) */
    GbEvalOwnedTasks owned_views;
    char *params_json;
    FILE *out;
    double t0, last_progress;
    long requests0; /* the client's requests before the run (the pre-flight's) */
    bool budget_hit;
    bool stop_errors;      /* stopped by cfg->max_same_errors identical request errors */
    char last_error[256];  /* the last request error, for counting identical ones */
    long same_errors;      /* identical request errors in a row */
    GbArray(char *) shown; /* the distinct request errors said on cfg->warn (owned) */
    pthread_mutex_t mu;
} GbEvalRun;

static inline size_t gb_eval__slot(const GbEvalRun *r, size_t v, size_t item, long s)
{
    return (v * r->nitems + item) * (size_t)r->cfg->samples + (size_t)s;
}

/* The requests of the run's samples (retries included). */
static inline long gb_eval__requests(const GbEvalRun *r)
{
    return r->http ? gb_http_client_requests(r->http) - r->requests0 : 0;
}

/* The sample (prompt and what scores it) of item for task, a version's task (eval.c). */
GbEvalSample gb_eval_sample(const GbEvalRun *r, TSParser *parser, const GbTask *task, size_t item);
/* The items of the original (r->items, r->nitems, r->without, r->before_dedup), deduplicated. */
void gb_eval_items(GbEvalRun *r, TSParser *parser);
/* The task each version shows for each item (r->views). False with err when a version cannot
 * be matched. */
bool gb_eval_views(GbEvalRun *r, GbError *err);
/* Repair answers are judged apart from their program (harness_judge.py), except for a task whose
 * tests do not split: the reference of its buggy original (the bug reverted, plus.h) fails apart
 * and passes with the tests in its own process. Every version's view of such an item gets
 * GbTask.tests_together, so that its answers are judged the second way (under the seal), and the
 * item is counted in r->together. */
void gb_eval_split_fit(GbEvalRun *r);
/* The summary (through src/doc/eval_summary.h) and the text for the terminal, both owned. */
void gb_eval_summarize(GbEvalRun *r, size_t ntasks_without, size_t kept, char **json_out, char **text_out);
