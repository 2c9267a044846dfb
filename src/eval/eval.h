#pragma once
/* genebench eval: output / input prediction, program repair and Python -> Java translation by a
 * model behind an OpenAI-compatible server, on a benchmark (version 0, the original) and hardened
 * versions of it (1..), scored in the sandboxed runner, with pass@k, the paired comparison and
 * the relative drop (stats.h).
 *
 * Items and versions. output / input: one item per `assert CALL(literals) == literal` of the
 * original's tests (answer.h); the prompt shows the version's program and the original's call,
 * the reply is extracted and checked (answer.h), then the scoring assert runs with the version's
 * program. translate: one item per stdio task; the reply's Java is compiled and run on the
 * task's cases (java.h). In both, versions are the files, tasks paired by id. repair: the files
 * are inject-bugs output, one item per bug of versions[0]; version 0 shows the buggy original
 * ("source"), version v >= 1 the buggy hardened program ("hardened_buggy") of the bug of
 * versions[v]'s file whose buggy original is the same program (the same bug); the caller passes
 * the first file twice (as versions 0 and 1). The prompt has the failing test as the sandbox
 * reports it (the buggy program runs once per item and version before the prompts are made), the
 * reply's program runs against the task's tests (repair.h).
 *
 * Work: one sample = (item, version, sample index). Samples run on `concurrency` threads; each
 * reply is cached in cache_dir (file <sha256>.json, the key being sha256 of the model, prompt,
 * sampling parameters and sample index), so a re-run asks the server nothing it was asked
 * before. Every sample is appended to the results file as soon as it is scored, one JSON line:
 *   {"task","item","version","file","sample","model","prompt_sha256","raw","extracted",
 *    "verdict","error","cached","finish_reason","prompt_tokens","completion_tokens",
 *    "latency_ms","truncated"}
 * (truncated: the reply was cut at the token limit, finish_reason "length"; such samples keep
 * their verdict, are counted apart in the summary's "truncation", and the drop is given again
 * without the items that have one).
 * verdict: pass | fail | timeout | crash (from the runner's status only) | invalid (the answer
 * was refused before running) | error (no reply from the server, or the runner failed: not
 * scored, redone by a resumed run). With resume, the results file's lines with the same item,
 * version, sample, model and prompt hash and a verdict other than error are kept and not redone.
 *
 * Answers from elsewhere: with answers set, no server is asked; sample (item, version, s) gets
 * the answer of that line of the answers file (offline.h), and the results and summary are
 * those a server giving the same replies would produce (cached false, latency null).
 *
 * Thread-safety: gb_eval_run starts and joins its own threads; the pool and HTTP client it is
 * given must be thread-safe (they are). */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/base/http.h"
#include "src/doc/eval_summary.h"
#include "src/base/util.h"
#include "src/eval/answer.h"
#include "src/eval/java.h"
#include "src/eval/task_list.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

/* The version of the prompts (recorded in the summary's provenance). */
#define GB_EVAL_PROMPT_VERSION "genebench-eval-1"

/* The task types, in the order of src/eval/task_list.h. */
typedef enum {
#define GB_EVAL_TASK(ID, name, help) GB_EVAL_TASK_##ID,
    GB_EVAL_TASK_LIST
#undef GB_EVAL_TASK
        GB_EVAL_TASK_COUNT
} GbEvalTask;

/* Their names (the values of --task), NULL-terminated. */
extern const char *const gb_eval_task_names[GB_EVAL_TASK_COUNT + 1];

typedef struct {
    const char *model; /* sent as "model" */
    GbEvalTask task;
    long samples;             /* per item and version, >= 1 */
    GbChatParams params;      /* params.seed >= 0: sample s is sent with seed + s */
    const char *cache_dir;    /* NULL: no cache */
    const char *results_path; /* NULL: no per-sample file */
    bool resume;              /* keep the finished samples of results_path */
    long concurrency;         /* threads asking the server / running answers, >= 1 */
    double time_budget_s;     /* <= 0: none; else no sample is started after it */
    const long *ks;           /* the k of pass@k */
    size_t nk;
    long resamples; /* bootstrap resamples */
    unsigned long boot_seed;
    FILE *progress;                      /* progress line with ETA; NULL: none */
    volatile sig_atomic_t *stop;         /* set by Ctrl-C; may be NULL */
    const GbJavaConfig *java;            /* translate: the JDK and its limits */
    GbLlmApi api;                        /* chat, or completions (base models: a plain prompt, stop sequences) */
    const char *system;                  /* chat: the system message; NULL: none */
    const struct GbEvalAnswers *answers; /* borrowed; non-NULL: score these instead of asking */
    long max_same_errors;                /* stop after this many identical request errors in a row (<= 0: never) */
    bool progress_lines;                 /* progress as whole lines (stderr not a terminal) */
    FILE *warn;                          /* the first distinct request errors, the truncation count; NULL: none */
    const GbEvalProvenance *provenance;  /* borrowed, copied into the summary; may be NULL */
    FILE *prompts_out;                   /* non-NULL: write every sample's prompt there (offline.h) and ask nothing */
    long context;                        /* the server's context in tokens (> 0: warn about prompts that may not fit) */
} GbEvalConfig;

typedef struct {
    const char *path;     /* borrowed: the file it was read from */
    const GbBench *bench; /* borrowed */
} GbEvalVersion;

/* With cfg->prompts_out, gb_eval_run writes the prompts, returns true with *summary_json and
 * *text NULL, and asks nothing. */
/* Run the evaluation of versions[0] (the original) and versions[1..nv) (repair: see above). On success (even when
 * stopped by the time budget or Ctrl-C: the summary says so) *summary_json and *text get the
 * summary (owned) and *errors the number of samples whose verdict is error. False with err on an error that stops the
 * run (results file not writable, no item in the original). */
bool gb_eval_run(const GbEvalConfig *cfg, GbHttpClient *http, GbPool *pool, const GbEvalVersion *versions, size_t nv,
                 char **summary_json, char **text, size_t *errors, GbError *err);

/* The default wall-clock (and CPU) limit of one scoring run of a task type, in seconds. */
double gb_eval_task_run_timeout(GbEvalTask task);
/* Whether a task type runs Java (GbEvalConfig.java must then name a JDK). */
bool gb_eval_task_needs_java(GbEvalTask task);

/* The versions of an evaluation of task over files paths[0..nfiles) read into benches (all
 * borrowed): one per file, or, for repair, the first file twice (see above). The array is owned;
 * *nv gets its length. */
GbEvalVersion *gb_eval_versions_new(GbEvalTask task, char *const *paths, const GbBench *benches, size_t nfiles,
                                    size_t *nv);
