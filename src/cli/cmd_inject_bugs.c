/* genebench inject-bugs: the same bugs in an original benchmark and its hardened version, as
 * program-repair tasks (src/inject/inject.h). */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/inject/inject.h"
#include "src/doc/inject_bugs.h"
#include "src/runner/runner.h"
#include "src/bench/task_io.h"

#define GB_INJECT_STR_(x) #x
#define GB_INJECT_STR(x) GB_INJECT_STR_(x)

/* --order N or A..B. */
typedef struct {
    int lo, hi;
} GbInjectOrders;

static bool gb_inject_bugs__orders(const char *spec, void *dest, char *msg, size_t size)
{
    GbInjectOrders *o = dest;
    char *end = NULL;
    long a = strtol(spec, &end, 10), b = a;
    bool ok = end != spec;
    if (ok && strncmp(end, "..", 2) == 0) {
        const char *rest = end + 2;
        b = strtol(rest, &end, 10);
        ok = end != rest;
    }
    if (!ok || *end || a < 1 || b < a || b > GB_INJECT_MAX_ORDER) {
        snprintf(msg, size, "expects N or A..B within 1..%d", GB_INJECT_MAX_ORDER);
        return false;
    }
    o->lo = (int)a;
    o->hi = (int)b;
    return true;
}

/* --seed: any unsigned 64-bit integer. */
static bool gb_inject_bugs__seed(const char *value, void *dest, char *msg, size_t size)
{
    char *end = NULL;
    errno = 0;
    unsigned long long s = strtoull(value, &end, 10);
    if (!*value || *value == '-' || *end || errno) {
        snprintf(msg, size, "expects a non-negative integer");
        return false;
    }
    *(unsigned long long *)dest = s;
    return true;
}

typedef struct {
    const char *output, *hard_output, *python;
    GbInjectOrders orders;
    unsigned long long seed;
    long max_per_task, max_attempts, jobs;
    double timeout;
} GbInjectBugsOptions;

#define O GbInjectBugsOptions
static const GbCliOption gb_inject_bugs__options[] = {
    GB_CLI_STRING("output", 'o', O, output, "OUT", NULL,
                  "mutant tasks (JSONL, written atomically) and OUT.summary.json"),
    GB_CLI_PARSE("order", 0, O, orders, "SPEC", gb_inject_bugs__orders, "1..3",
                 "mutant orders: N or A..B with 1 <= A <= B <= " GB_INJECT_STR(GB_INJECT_MAX_ORDER)),
    GB_CLI_PARSE("seed", 0, O, seed, "S", gb_inject_bugs__seed, "1",
                 "seed of the candidate streams; same seed, same output"),
    GB_CLI_LONG("max-per-task", 0, O, max_per_task, "N", 1, 100000, "5", "mutants kept per task and order"),
    GB_CLI_LONG("max-attempts", 0, O, max_attempts, "N", 1, 1000000, "40", "candidates run per task and order"),
    GB_CLI_STRING("hardened-output", 0, O, hard_output, "H", NULL,
                  "also write the mutants with the buggy HARDENED program as source (and\n"
                  "\"original_buggy\"), for exporting the hardened repair benchmark"),
    GB_CLI_STRING("python", 0, O, python, "PATH", GB_DEFAULT_PYTHON, "interpreter that runs the programs"),
    GB_CLI_LONG("jobs", 'j', O, jobs, "N", 1, 1024, NULL,
                "worker processes and parallel tasks (default: number of CPUs)"),
    GB_CLI_DOUBLE("timeout", 0, O, timeout, "S", 0.1, 86400, "5", "wall-clock and CPU limit per test run in seconds"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_inject_bugs__exits[] = {
    {0, "every task was processed"},
    {1, "some task was skipped (its original or hardened program fails the tests), unmatched or bad, or a\n"
        "       file could not be read or written"},
    {2, "usage error (bad option or value, an output is one of the inputs)"},
    {130, "interrupted by Ctrl-C (128 + the signal: 143 for SIGTERM); nothing is written"},
    {0, NULL},
};

static const GbCliCommand gb_inject_bugs__cmd = {
    .name = "inject-bugs",
    .synopsis = "ORIG.jsonl HARD.jsonl -o OUT.jsonl [--order 1..3] [--seed S]\n"
                "                             [--max-per-task N] [--max-attempts N] [--hardened-output H.jsonl]\n"
                "                             [--python PATH] [-j N] [--timeout S]",
    .about = "  Inject the same bugs into each original program (ORIG.jsonl, canonical) and its hardened version\n"
             "  (HARD.jsonl, written by `genebench evolve`; tasks are matched by id). Mutation sites (arith,\n"
             "  compare, condition, return, constant) are found in the original and kept only where the\n"
             "  hardening left them intact: each site's byte range is mapped through the hardened task's edit\n"
             "  history (\"genebench\".\"edits\") and must hold the same text and operator node in the hardened\n"
             "  program. Mutants of each order combine that many distinct shared sites; both versions are\n"
             "  mutated and run against the original tests, and a mutant is kept only when both fail with the\n"
             "  same failing-test set. Equivalent (no test fails), divergent (the versions fail differently)\n"
             "  and timed-out mutants are counted and dropped.\n"
             "\n"
             "  OUT.jsonl gets one canonical task per kept mutant: id \"<id>#bug-<order>-<n>\", the buggy\n"
             "  original as source, \"hardened_buggy\" {source, extra_files}, \"mutations\", \"failing_tests\",\n"
             "  \"order\" and \"bug\" (how each version failed); tests, entry point, pinned names and meta are the\n"
             "  original task's, so `genebench export` writes them as upstream-shaped repair tasks.\n"
             "  OUT.summary.json (and stdout) get the summary per order: tasks with >= 1 valid mutant, mutants\n"
             "  kept, equivalent, divergent, timed out.\n",
    .options = gb_inject_bugs__options,
    .min_args = 2,
    .max_args = 2,
    .args_error = "need ORIG.jsonl, HARD.jsonl and -o OUT.jsonl",
    .exits = gb_inject_bugs__exits,
};

/* Totals per order over all processed tasks. */
typedef struct {
    size_t tasks_with_mutant, exhausted;
    size_t outcome[GB_MUTANT_OUTCOME_COUNT];
    size_t unusable, duplicate;
} GbInjectTotals;

/* One run: the inputs, the results and their totals. */
typedef struct {
    const char *orig_path, *hard_path;
    GbInjectConfig cfg;
    GbPoolConfig pcfg;
    GbBench orig, hard;
    size_t n;
    long *pair; /* pair[i]: the hardened task of orig task i, -1: none */
    size_t unmatched, bad;
    GbInjectResult *res;
    double secs;
    GbInjectTotals tot[GB_INJECT_MAX_ORDER + 1];
    GbSharedStats sites;
    size_t processed, skipped, errors, kept_all;
    GbBench out, hout; /* the mutants with the buggy original / hardened program as source */
} GbInjectRun;

/* Pair the tasks by id, in the original benchmark's order; each unmatched one on stderr. */
static void gb_inject_bugs__pair(GbInjectRun *R)
{
    R->n = R->orig.tasks.len;
    R->pair = gb_malloc(R->n * sizeof *R->pair);
    for (size_t i = 0; i < R->n; i++) {
        R->pair[i] = gb_bench_find(&R->hard, R->orig.tasks.items[i].id);
        if (R->pair[i] < 0) {
            fprintf(stderr, "%s:%zu: task %s: no task with this id in %s\n", R->orig_path, R->orig.tasks.items[i].line,
                    R->orig.tasks.items[i].id, R->hard_path);
            R->unmatched++;
        }
    }
    for (size_t i = 0; i < R->hard.tasks.len; i++)
        if (gb_bench_find(&R->orig, R->hard.tasks.items[i].id) < 0) {
            fprintf(stderr, "%s:%zu: task %s: no task with this id in %s\n", R->hard_path, R->hard.tasks.items[i].line,
                    R->hard.tasks.items[i].id, R->orig_path);
            R->unmatched++;
        }
}

/* Inject into every pair in parallel. Returns the exit code: GB_CLI_CONTINUE when done,
 * GB_EXIT_FAIL when the pool did not start, 128 + signal when interrupted. */
static int gb_inject_bugs__run(GbInjectRun *R)
{
    GbCliSignals sig;
    gb_cli_signals_start(&sig, NULL, NULL);
    double t0 = gb_now();
    /* the programs run are the benchmark's own and genebench's mutants of them, not answers:
     * their tests stay in their process, under the seal, as evolve's (src/runner/README.md) */
    R->pcfg.tests_in_program = true;
    R->cfg.pool = gb_cli_pool_new("inject-bugs", &R->pcfg);
    if (!R->cfg.pool) {
        gb_cli_signals_stop(&sig);
        return GB_EXIT_FAIL;
    }
    sig.pool = R->cfg.pool;
    R->res = gb_calloc(R->n, sizeof *R->res);
    int threads = R->pcfg.workers > 0 ? R->pcfg.workers : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    const GbInjectConfig *cfgp = &R->cfg;
    const GbBench *ob = &R->orig, *hb = &R->hard;
    const long *pair = R->pair;
    GbInjectResult *res = R->res;
    size_t n = R->n;
#pragma omp parallel for num_threads(threads) schedule(dynamic) default(none) shared(cfgp, ob, hb, pair, res, n)
    for (size_t i = 0; i < n; i++) {
        if (pair[i] < 0) continue;
        gb_inject_task(cfgp, &ob->tasks.items[i], &hb->tasks.items[pair[i]], &res[i]);
    }
    R->secs = gb_now() - t0;
    gb_cli_signals_stop(&sig);
    gb_pool_delete(R->cfg.pool);
    R->cfg.pool = NULL;
    if (sig.signo) {
        fprintf(stderr, "genebench inject-bugs: interrupted by signal %d; nothing written\n", (int)sig.signo);
        return 128 + sig.signo;
    }
    return GB_CLI_CONTINUE;
}

/* Per task: one line on stdout, problems on stderr; the totals; the kept mutants move to
 * R->out / R->hout. */
static void gb_inject_bugs__tally(GbInjectRun *R)
{
    const GbInjectConfig *cfg = &R->cfg;
    for (size_t i = 0; i < R->n; i++) {
        if (R->pair[i] < 0) continue;
        const GbTask *ht = &R->hard.tasks.items[R->pair[i]];
        GbInjectResult *r = &R->res[i];
        if (r->status != GB_INJECT_OK) {
            fprintf(stderr, "%s:%zu: task %s: %s\n", R->hard_path, ht->line, ht->id, r->message);
            if (r->status == GB_INJECT_SKIPPED)
                R->skipped++;
            else
                R->errors++;
            printf("%-8s %s: %s\n", r->status == GB_INJECT_SKIPPED ? "SKIPPED" : "ERROR", ht->id, r->message);
            continue;
        }
        R->processed++;
        R->sites.found += r->sites.found;
        R->sites.unmapped += r->sites.unmapped;
        R->sites.moved += r->sites.moved;
        R->sites.no_variant += r->sites.no_variant;
        R->sites.shared += r->sites.shared;
        printf("%-8s %s: %zu/%zu sites shared", "OK", ht->id, r->sites.shared, r->sites.found);
        for (int k = cfg->order_min; k <= cfg->order_max; k++) {
            const GbInjectOrderStats *o = &r->orders[k];
            GbInjectTotals *t = &R->tot[k];
            printf("; order %d: %zu kept", k, o->outcome[GB_MUTANT_KEPT]);
            size_t dropped = 0;
            for (int x = 1; x < GB_MUTANT_OUTCOME_COUNT; x++) dropped += o->outcome[x];
            if (dropped) printf(" of %zu", dropped + o->outcome[GB_MUTANT_KEPT]);
            t->tasks_with_mutant += o->outcome[GB_MUTANT_KEPT] > 0;
            t->exhausted += o->exhausted;
            t->unusable += o->unusable;
            t->duplicate += o->duplicate;
            for (int x = 0; x < GB_MUTANT_OUTCOME_COUNT; x++) t->outcome[x] += o->outcome[x];
        }
        printf("\n");
        for (size_t m = 0; m < r->mutants.len; m++) {
            gb_array_push(&R->out.tasks, r->mutants.items[m]);
            gb_array_push(&R->hout.tasks, r->hardened.items[m]);
        }
        R->kept_all += r->mutants.len;
        /* ownership moved to out / hout */
        r->mutants.len = 0;
        r->hardened.len = 0;
    }
}

/* The summary: the table on stdout, the document (src/doc/inject_bugs.h) into s. */
static void gb_inject_bugs__summary(const GbInjectRun *R, GbStr *s)
{
    const GbInjectConfig *cfg = &R->cfg;
    GbInjectBugsDoc doc = {.version = gb_strdup(GB_VERSION),
                           .original = gb_strdup(R->orig_path),
                           .hardened = gb_strdup(R->hard_path),
                           .python = gb_strdup(R->pcfg.python ? R->pcfg.python : GB_DEFAULT_PYTHON),
                           .seed = (unsigned long long)cfg->seed,
                           .order_min = cfg->order_min,
                           .order_max = cfg->order_max,
                           .max_per_task = cfg->max_per_task,
                           .max_attempts = cfg->max_attempts,
                           .timeout_s = R->pcfg.timeout_s,
                           .tasks = R->n,
                           .processed = R->processed,
                           .skipped = R->skipped,
                           .errors = R->errors,
                           .unmatched = R->unmatched,
                           .bad_lines = R->bad,
                           .mutants = R->kept_all,
                           .sites_found = R->sites.found,
                           .sites_shared = R->sites.shared,
                           .sites_unmapped = R->sites.unmapped,
                           .sites_moved = R->sites.moved,
                           .sites_no_common_variant = R->sites.no_variant,
                           .time_s = R->secs};
    printf("\n%s + %s: %zu tasks, %zu processed, %zu skipped, %zu errors, %zu unmatched; %zu/%zu sites shared; "
           "%zu mutants in %.1fs\n",
           R->orig_path, R->hard_path, R->n, R->processed, R->skipped, R->errors, R->unmatched, R->sites.shared,
           R->sites.found, R->kept_all, R->secs);
    printf("  order  tasks>=1  share   kept  equivalent  divergent  timeout  crash  error  unusable  duplicate\n");
    for (int k = cfg->order_min; k <= cfg->order_max; k++) {
        const GbInjectTotals *t = &R->tot[k];
        GbInjectBugsOrder o = {.tasks_with_mutant = t->tasks_with_mutant,
                               .share = R->processed ? (double)t->tasks_with_mutant / (double)R->processed : 0,
                               .unusable = t->unusable,
                               .has_duplicate = true,
                               .duplicate = t->duplicate,
                               .tasks_exhausted = t->exhausted};
        memcpy(o.outcome, t->outcome, sizeof o.outcome);
        gb_array_push(&doc.orders, o);
        printf("  %5d  %8zu  %5.1f%%  %5zu  %10zu  %9zu  %7zu  %5zu  %5zu  %8zu  %9zu\n", k, o.tasks_with_mutant,
               100 * o.share, o.outcome[GB_MUTANT_KEPT], o.outcome[GB_MUTANT_EQUIVALENT],
               o.outcome[GB_MUTANT_DIVERGENT], o.outcome[GB_MUTANT_TIMEOUT], o.outcome[GB_MUTANT_CRASH],
               o.outcome[GB_MUTANT_ERROR], o.unusable, o.duplicate);
    }
    gb_inject_bugs_doc_write(s, &doc);
    gb_inject_bugs_doc_destroy(&doc);
}

static void gb_inject_bugs__destroy(GbInjectRun *R)
{
    if (R->res)
        for (size_t i = 0; i < R->n; i++) gb_inject_result_destroy(&R->res[i]);
    free(R->res);
    free(R->pair);
    gb_bench_destroy(&R->out);
    gb_bench_destroy(&R->hout);
    gb_bench_destroy(&R->orig);
    gb_bench_destroy(&R->hard);
}

int gb_cmd_inject_bugs(int argc, char **argv)
{
    /* parse */
    GbInjectBugsOptions o = {0};
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_inject_bugs__cmd, argc, argv, &o, &args);
    if (rc != GB_CLI_CONTINUE) return rc;
    if (!o.output) {
        fprintf(stderr, "genebench inject-bugs: need ORIG.jsonl, HARD.jsonl and -o OUT.jsonl\n");
        gb_cli_usage(&gb_inject_bugs__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    GbInjectRun R = {.orig_path = args.items[0], .hard_path = args.items[1]};
    char *summary_path = gb_asprintf("%s.summary.json", o.output);
    const char *inputs[] = {R.orig_path, R.hard_path};
    if (gb_cli_refuse_output("inject-bugs", o.output, inputs, 2) ||
        gb_cli_refuse_output("inject-bugs", summary_path, inputs, 2) ||
        gb_cli_refuse_output("inject-bugs", o.hard_output, inputs, 2)) {
        free(summary_path);
        return GB_EXIT_USAGE;
    }
    gb_inject_config_defaults(&R.cfg);
    R.cfg.order_min = o.orders.lo;
    R.cfg.order_max = o.orders.hi;
    R.cfg.seed = o.seed;
    R.cfg.max_per_task = (size_t)o.max_per_task;
    R.cfg.max_attempts = (size_t)o.max_attempts;
    gb_pool_config_defaults(&R.pcfg);
    R.pcfg.python = o.python;
    R.pcfg.timeout_s = o.timeout;
    R.pcfg.cpu_s = o.timeout;
    if (o.jobs > 0) R.pcfg.workers = (int)o.jobs;
    gb_bench_init(&R.orig);
    gb_bench_init(&R.hard);
    gb_bench_init(&R.out);
    gb_bench_init(&R.hout);

    /* load */
    bool readable =
        gb_cli_read_bench(R.orig_path, &R.orig, NULL, &R.bad) & gb_cli_read_bench(R.hard_path, &R.hard, NULL, &R.bad);
    if (!readable || R.orig.tasks.len == 0) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    gb_inject_bugs__pair(&R);

    /* run */
    rc = gb_inject_bugs__run(&R);
    if (rc != GB_CLI_CONTINUE) goto out;
    gb_inject_bugs__tally(&R);

    /* write */
    GbStr s;
    gb_str_init(&s);
    gb_inject_bugs__summary(&R, &s);
    GbError err = {{0}};
    rc = GB_EXIT_OK;
    if (!gb_bench_write(o.output, &R.out, &err) || !gb_write_file_atomic(summary_path, s.data, s.len, &err) ||
        (o.hard_output && !gb_bench_write(o.hard_output, &R.hout, &err))) {
        fprintf(stderr, "genebench inject-bugs: %s\n", err.msg);
        rc = GB_EXIT_FAIL;
    } else if (R.skipped || R.errors || R.unmatched || R.bad) {
        rc = GB_EXIT_FAIL;
    }
    gb_str_destroy(&s);
out:
    gb_inject_bugs__destroy(&R);
    free(summary_path);
    return rc;
}
