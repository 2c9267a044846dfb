#pragma once
/* The evolution of a whole benchmark, as `genebench evolve` runs it: read, evolve every task
 * (in parallel, each finished task appended to the output journal at once), then rewrite the
 * output in input order and write the run summary. `evolve` calls it once, `versions` once per
 * seed. In src/cli because it reads and writes benchmarks (src/bench) and summaries
 * (src/report), which nsga2 must not know. */
#include <stdbool.h>

#include "operators/operator.h"
#include "src/cli/cli.h"

/* --ops: the enabled operators. */
typedef struct {
    bool given;
    bool on[GB_OP_COUNT];
} GbEvolveOps;

/* --shard K/N. */
typedef struct {
    long k, n;
} GbEvolveShard;

/* The evolution options both `evolve` and `versions` take (gb_evolve_options). */
typedef struct {
    long generations;
    double time_budget;
    double breed;
    long max_parents;
    long accept;
    const char *objective;  /* "balanced" or "rc" */
    long jobs;              /* 0: number of CPUs */
    long workers;           /* 0: same as jobs */
    const char *thresholds; /* NULL: gb_thresholds_default_path() */
    bool no_lint, keep_front, resume, quiet, no_naming;
    bool no_harness_rules; /* ignore the upstream harness's execution rules (src/model/task.h) */
    bool no_equiv;         /* no equivalence gate (nsga2/equiv.h) */
    long equiv_inputs;     /* derived inputs per task */
    long equiv_search;     /* rounds of the search for inputs that reach the original's branches */
    double cost_ratio;     /* the equivalence gate's cost bound R */
    GbEvolveOps ops;
    GbEvolveShard shard;
    const char *python;
    double timeout;
    double progress_every; /* seconds between progress lines when stderr is not a terminal */
    const char *llm_url, *llm_model;
    const char *away_from; /* comma-separated earlier versions to evolve away from, or NULL */
    double away_target;    /* the token Jaccard to them that is different enough */
} GbEvolveOptions;

/* Their option table (destinations relative to a GbEvolveOptions). */
extern const GbCliOption gb_evolve_options[];

/* One run. Everything is borrowed. */
typedef struct {
    const char *cmd;     /* for messages: "evolve" */
    const char *input;   /* canonical benchmark */
    const char *output;  /* hardened benchmark (journal while running) */
    const char *summary; /* NULL: OUTPUT.summary.json (.jsonl replaced) */
    unsigned long long seed;
    const GbEvolveOptions *opt;
    /* earlier versions to evolve away from, besides opt->away_from (versions: the seeds before) */
    char *const *away;
    size_t n_away;
    const char *command_line; /* recorded in the summary's provenance; NULL: no provenance */
} GbEvolveRun;

/* Run it, with messages and the progress line on stderr. Refuses (GB_EXIT_USAGE) an output that
 * is the input and bad option combinations; refuses (GB_EXIT_FAIL) when another run holds the
 * output's lock. Returns the exit code: 0 every task evolved, 1 some task failed / bad input
 * lines / an I/O error, 2 usage error, 130 interrupted (the finished tasks stay in the output;
 * --resume continues). */
int gb_evolve_benchmark(const GbEvolveRun *run);
