#include "src/cli/evolve_run.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "nsga2/evolve.h"
#include "operators/api_call.h"
#include "operators/naming.h"
#include "src/base/gzip.h"
#include "src/base/journal.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "src/python/pyparse.h"
#include "src/report/summary.h"

/* ---- Options ---- */

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
                  "wall-clock budget per task (default none; makes output timing-dependent)"),
    GB_CLI_DOUBLE("breed", 0, O, breed, "F", 1e-9, 1, "0.2",
                  "fraction of the ranked population that breeds (at least one)"),
    GB_CLI_LONG("max-parents", 0, O, max_parents, "K", 0, 1000000, "4",
                "at most K parents per generation (0 = no cap)"),
    GB_CLI_LONG("accept", 0, O, accept, "N", 0, 1000000, "4",
                "children that join the population per generation: the children are measured, ranked\n"
                "with the population (NSGA-II) and validated best first, 4 at a time, until N passed\n"
                "(0 = validate every child, the published tool's way)"),
    GB_CLI_STRING("objective", 0, O, objective, "balanced|rc", "balanced",
                  "what selection and the final pick maximise besides RR: balanced = mean over C1..C7 of\n"
                  "sqrt(min(1, C_i/CT_i)), so the first steps in a dimension count most and no single\n"
                  "dimension carries the score; rc = RC itself (the published tool). RC is reported either way"),
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
    GB_CLI_DOUBLE("cost-ratio", 0, O, cost_ratio, "R", 1, 1e6, "4",
                  "the equivalence gate rejects a child whose CPU or wall time on the larger inputs\n"
                  "exceeds R x the original's (+ 0.02 s CPU / 0.25 s wall per input)"),
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

/* ---- The run ---- */

/* Library versions of the interpreter, as a JSON object (owned) or NULL. */
static char *gb_evolve__python_versions(const char *python)
{
    char *cmd =
        gb_asprintf("'%s' -c 'import json,sys\nv={\"version\":sys.version.split()[0]}\nfor m in "
                    "(\"numpy\",\"scipy\",\"sklearn\",\"cryptography\",\"dateutil\",\"pylint\"):\n try:\n  "
                    "v[m]=__import__(m).__version__\n except Exception: v[m]=None\nprint(json.dumps(v))' 2>/dev/null",
                    python);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) return NULL;
    GbStr s;
    gb_str_init(&s);
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) gb_str_append_n(&s, buf, n);
    int rc = pclose(p);
    if (rc != 0 || s.len == 0) {
        gb_str_destroy(&s);
        return NULL;
    }
    return gb_str_take(&s);
}

/* The earlier versions of the benchmark (--away-from, versions): GbEvolveConfig.away. */
typedef struct {
    GbBench *benches;
    size_t n;
} GbEvolveAway;

static size_t gb_evolve__away_lookup(void *arg, const GbTask *task, GbProgram *out, size_t cap)
{
    const GbEvolveAway *a = arg;
    size_t n = 0;
    for (size_t j = 0; j < a->n && n < cap; j++) {
        long k = gb_bench_find(&a->benches[j], task->id);
        if (k >= 0) gb_program_from_task(&out[n++], &a->benches[j].tasks.items[k]);
    }
    return n;
}

/* Read the earlier versions: run->away, then the comma-separated opt->away_from. */
static bool gb_evolve__away_load(const GbEvolveRun *run, GbEvolveAway *a)
{
    GbArray(char *) paths = {0};
    for (size_t i = 0; i < run->n_away; i++) gb_array_push(&paths, gb_strdup(run->away[i]));
    if (run->opt->away_from) {
        char *copy = gb_strdup(run->opt->away_from);
        for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
            if (*tok) gb_array_push(&paths, gb_strdup(tok));
        free(copy);
    }
    bool ok = true;
    a->benches = gb_calloc(paths.len ? paths.len : 1, sizeof *a->benches);
    a->n = 0;
    for (size_t i = 0; i < paths.len; i++) {
        const char *out[] = {paths.items[i]};
        if (gb_cli_refuse_output(run->cmd, run->output, out, 1)) {
            ok = false;
            break;
        }
        gb_bench_init(&a->benches[a->n]);
        size_t bad = 0;
        if (!gb_cli_read_bench(paths.items[i], &a->benches[a->n], NULL, &bad) || bad) {
            fprintf(stderr, "genebench %s: cannot use %s as an earlier version (--away-from)\n", run->cmd,
                    paths.items[i]);
            gb_bench_destroy(&a->benches[a->n]);
            ok = false;
            break;
        }
        a->n++;
    }
    for (size_t i = 0; i < paths.len; i++) free(paths.items[i]);
    gb_array_free(&paths);
    return ok;
}

static void gb_evolve__away_destroy(GbEvolveAway *a)
{
    for (size_t i = 0; i < a->n; i++) gb_bench_destroy(&a->benches[i]);
    free(a->benches);
    memset(a, 0, sizeof *a);
}

/* What the parallel loop shares. */
typedef struct {
    const GbBench *bench;
    const GbEvolveConfig *cfg;
    GbJournal *journal;
    const size_t *todo;
    size_t ntodo;
    bool tty;
    double log_every; /* > 0: progress lines for a log when stderr is not a terminal */
    double t0, last_log;
    volatile sig_atomic_t *stop;
    const char *cmd;
    /* written under the critical section */
    size_t finished, failed;
    GbEvolveStats total;
    bool write_error;
} GbEvolveLoop;

static void gb_evolve__loop(GbEvolveLoop *L, int jobs)
{
#pragma omp parallel num_threads(jobs) default(none) shared(L, stderr)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 1)
        for (size_t t = 0; t < L->ntodo; t++) {
            if (*L->stop) continue;
            size_t idx = L->todo[t];
            GbEvolveResult res;
            gb_evolve_task(L->cfg, &L->bench->tasks.items[idx], idx, parser, &res);
#pragma omp critical(gb_evolve_journal)
            {
                if (!res.interrupted) {
                    gb_record_attach(&res.out, &res.record);
                    char *line = gb_task_to_json(&res.out);
                    GbError werr;
                    if (!gb_journal_append(L->journal, line, &werr)) {
                        fprintf(stderr, "genebench %s: %s\n", L->cmd, werr.msg);
                        L->write_error = true;
                        *L->stop = 1;
                    }
                    free(line);
                    L->finished++;
                    if (res.status == GB_EVOLVED_ORIGINAL_FAILS || res.status == GB_EVOLVED_ERROR) {
                        L->failed++;
                        fprintf(stderr, "%sgenebench %s: line %zu: %s\n", L->tty ? "\r\033[K" : "", L->cmd,
                                L->bench->tasks.items[idx].line, res.error);
                    }
                }
                gb_evolve_stats_add(&L->total, &res.stats);
                double now = gb_now();
                bool log_line = !res.interrupted && L->log_every > 0 &&
                                (L->finished == 1 || L->finished == L->ntodo || now - L->last_log >= L->log_every);
                if (L->tty || log_line) {
                    double el = now - L->t0;
                    char rejected[32 * GB_GATE_COUNT];
                    size_t used = 0;
                    for (int g = 0; g < GB_GATE_COUNT; g++) {
                        long n = 0;
                        for (int o = 0; o < GB_OP_COUNT; o++) n += L->total.rejected[o][g];
                        used += (size_t)snprintf(rejected + used, sizeof rejected - used, " %s %ld",
                                                 gb_gate_label((GbGate)g), n);
                    }
                    double eta = L->finished ? el / (double)L->finished * (double)(L->ntodo - L->finished) : 0;
                    double rate = el > 0 ? (double)L->total.validated / el : 0;
                    if (L->tty)
                        fprintf(stderr,
                                "\r\033[K[%zu/%zu] %s RC %.3f->%.3f | %.1f offspring/s | rejected%s | ETA %.0fs",
                                L->finished, L->ntodo, res.out.id, res.rc_before, res.rc_after, rate, rejected, eta);
                    else {
                        /* One whole line with a clock, for log files and Slurm output. */
                        fprintf(stderr,
                                "genebench %s: %.0fs: %zu/%zu tasks done (%zu failed), %ld offspring validated, "
                                "%.1f offspring/s, rejected%s, ETA %.0fs\n",
                                L->cmd, el, L->finished, L->ntodo, L->failed, L->total.validated, rate, rejected, eta);
                        L->last_log = now;
                    }
                }
            }
            gb_evolve_result_destroy(&res);
        }
        ts_parser_delete(parser);
    }
}

/* OUT.summary.json, or OUT.jsonl -> OUT.summary.json. Owned. */
static char *gb_evolve__summary_path(const char *out_path)
{
    size_t l = strlen(out_path);
    return l > 6 && strcmp(out_path + l - 6, ".jsonl") == 0 ? gb_asprintf("%.*s.summary.json", (int)(l - 6), out_path)
                                                            : gb_asprintf("%s.summary.json", out_path);
}

/* Rewrite the output in input order (atomically) and write the summary. */
static int gb_evolve__finish(const GbEvolveRun *run, const GbBench *bench, const GbEvolveConfig *cfg,
                             const GbEvolveLoop *L, double elapsed)
{
    const GbEvolveOptions *o = run->opt;
    int rc = GB_EXIT_OK;
    GbError err;
    GbBench all, ordered;
    gb_bench_init(&all);
    gb_bench_init(&ordered);
    gb_cli_read_bench(run->output, &all, NULL, NULL);
    for (size_t i = 0; i < bench->tasks.len; i++) {
        long k = gb_bench_find(&all, bench->tasks.items[i].id);
        if (k < 0) continue;
        GbTask copy;
        gb_task_copy(&copy, &all.tasks.items[k]);
        gb_array_push(&ordered.tasks, copy);
    }
    if (!gb_bench_write(run->output, &ordered, &err)) {
        fprintf(stderr, "genebench %s: %s\n", run->cmd, err.msg);
        rc = GB_EXIT_FAIL;
    }
    char *pyv = gb_evolve__python_versions(o->python);
    GbRunFacts facts = {cfg->seed,
                        cfg->generations,
                        cfg->time_budget,
                        cfg->breed,
                        cfg->thresholds_name,
                        cfg->lint,
                        elapsed,
                        L->total.validated,
                        o->python,
                        pyv,
                        cfg->accept,
                        cfg->balanced ? "balanced" : "rc",
                        cfg->away ? (int)((const GbEvolveAway *)cfg->away_arg)->n : 0,
                        cfg->away_target};
    char *summary = gb_summary_build(&ordered, &facts);
    char *spath = run->summary ? gb_strdup(run->summary) : gb_evolve__summary_path(run->output);
    if (!gb_write_file_atomic(spath, summary, strlen(summary), &err)) {
        fprintf(stderr, "genebench %s: %s\n", run->cmd, err.msg);
        rc = GB_EXIT_FAIL;
    }
    char *line = gb_summary_line(&ordered), *mlines = gb_summary_metric_lines(&ordered);
    if (!o->quiet)
        fprintf(stderr, "genebench %s: %s; %ld offspring validated in %.1fs (%.1f/s)\n%s%s  output %s\n  summary %s\n",
                run->cmd, line, L->total.validated, elapsed, elapsed > 0 ? (double)L->total.validated / elapsed : 0,
                *mlines ? "  mean complexity of the evolved tasks, before -> after:\n" : "", mlines, run->output,
                spath);
    free(mlines);
    free(line);
    free(summary);
    free(spath);
    free(pyv);
    gb_bench_destroy(&ordered);
    gb_bench_destroy(&all);
    return rc;
}

int gb_evolve_benchmark(const GbEvolveRun *run)
{
    const GbEvolveOptions *o = run->opt;
    const char *cmd = run->cmd;
    if (o->generations == 0 && o->time_budget <= 0) {
        fprintf(stderr, "genebench %s: --generations 0 needs a --time-budget\n", cmd);
        return GB_EXIT_USAGE;
    }
    const char *inputs[] = {run->input};
    if (gb_cli_refuse_output(cmd, run->output, inputs, 1)) return GB_EXIT_USAGE;
    if (run->summary && gb_cli_refuse_output(cmd, run->summary, inputs, 1)) return GB_EXIT_USAGE;
    long jobs = o->jobs;
    if (jobs < 1) jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1) jobs = 1;

    GbEvolveConfig cfg;
    gb_evolve_config_defaults(&cfg);
    cfg.seed = run->seed;
    cfg.generations = (int)o->generations;
    cfg.time_budget = o->time_budget;
    cfg.breed = o->breed;
    cfg.max_parents = (int)o->max_parents;
    cfg.accept = (int)o->accept;
    if (o->objective && strcmp(o->objective, "balanced") != 0 && strcmp(o->objective, "rc") != 0) {
        fprintf(stderr, "genebench %s: --objective expects balanced or rc, not '%s'\n", cmd, o->objective);
        return GB_EXIT_USAGE;
    }
    cfg.balanced = !o->objective || strcmp(o->objective, "balanced") == 0;
    cfg.lint = !o->no_lint;
    cfg.keep_front = o->keep_front;
    cfg.equiv = !o->no_equiv;
    cfg.equiv_cfg.inputs = (int)o->equiv_inputs;
    cfg.equiv_cfg.cost_ratio = o->cost_ratio;
    if (o->ops.given) memcpy(cfg.ops, o->ops.on, sizeof cfg.ops);
    GbNamingConfig naming;
    gb_naming_config_default(&naming);
    if (o->llm_url) naming.url = o->llm_url;
    if (o->llm_model) naming.model = o->llm_model;
    if (!o->no_naming) {
        naming.api_key = getenv("GENEBENCH_API_KEY");
        naming.seed = (long)(cfg.seed & 0x7fffffff);
        cfg.naming = gb_naming_apply_fn;
        cfg.naming_arg = &naming;
    }

    /* Everything below is released at `out`. */
    int rc = GB_EXIT_OK;
    GbError err;
    bool have_thr = false, have_journal = false, locked = false;
    GbThresholds thr;
    GbBench bench, done;
    gb_bench_init(&bench);
    gb_bench_init(&done);
    GbArray(size_t) todo = {0};
    GbJournal journal;
    GbPool *pool = NULL;
    GbCliLock lock = {-1, NULL};
    GbCliSignals sig;
    volatile sig_atomic_t stop = 0;
    size_t bad_inputs = 0;
    GbEvolveAway away = {0};

    const char *thr_path = o->thresholds ? o->thresholds : gb_thresholds_default_path();
    if (!gb_thresholds_load(thr_path, &thr, &err)) {
        fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
        rc = GB_EXIT_FAIL;
        goto out;
    }
    have_thr = true;
    cfg.thresholds = &thr;
    cfg.thresholds_name = thr_path;
    /* Before touching the output: a second run on it would move the first one's journal aside. */
    if (!gb_cli_lock(&lock, cmd, run->output)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    locked = true;
    if (!gb_cli_read_bench(run->input, &bench, NULL, &bad_inputs)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    for (size_t i = 0; o->no_harness_rules && i < bench.tasks.len; i++) bench.tasks.items[i].harness = GB_HARNESS_NONE;
    if (!gb_evolve__away_load(run, &away)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    if (away.n) {
        cfg.away = gb_evolve__away_lookup;
        cfg.away_arg = &away;
        cfg.away_target = o->away_target;
    }

    /* Results already in the output (resume). */
    if (o->resume && access(run->output, F_OK) == 0) {
        GbJournal probe;
        /* An output written as gzip at the end of a run (-o X.gz) takes appended lines again as
         * plain text; the end of this run compresses it again. */
        if (!gb_gunzip_file_in_place(run->output, &err) ||
            !gb_journal_open(&probe, run->output, true, &err)) { /* drops a torn last line */
            fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
            rc = GB_EXIT_FAIL;
            goto out;
        }
        gb_journal_close(&probe);
        GbDiag d2;
        gb_diag_init(&d2);
        gb_bench_read(run->output, &done, &d2);
        for (size_t i = 0; i < d2.messages.len; i++) fprintf(stderr, "%s (ignored)\n", d2.messages.items[i]);
        gb_diag_destroy(&d2);
    }
    size_t in_shard = 0;
    for (size_t i = 0; i < bench.tasks.len; i++) {
        if ((long)(i % (size_t)o->shard.n) != o->shard.k - 1) continue;
        in_shard++;
        if (gb_bench_find(&done, bench.tasks.items[i].id) >= 0) continue;
        gb_array_push(&todo, i);
    }
    if (!gb_journal_open(&journal, run->output, o->resume, &err)) {
        fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
        rc = GB_EXIT_FAIL;
        goto out;
    }
    have_journal = true;

    /* Ctrl-C / SIGTERM only set the flag the engine polls between offspring: the pool keeps
     * running the tests in progress, so a task is either finished or left for --resume, never
     * half-judged. Started before the pool: it starts its workers from OpenMP threads, which
     * stay alive and must not take the signals themselves. */
    gb_cli_signals_start(&sig, NULL, &stop);
    size_t already = in_shard - todo.len;
    bool tty = !o->quiet && isatty(STDERR_FILENO);
    /* The first line before the workers start (they take seconds to import their libraries). */
    if (!o->quiet)
        fprintf(stderr, "genebench %s: %zu tasks to do (%zu already done), %ld jobs, seed %llu\n", cmd, todo.len,
                already, jobs, (unsigned long long)cfg.seed);
    if (tty) fprintf(stderr, "[0/%zu] starting the workers", todo.len);
    double t_pool = gb_now();
    GbPoolConfig pcfg;
    gb_pool_config_defaults(&pcfg);
    pcfg.python = o->python;
    pcfg.workers = (int)(o->workers ? o->workers : jobs);
    pcfg.timeout_s = o->timeout;
    pcfg.lint = cfg.lint;
    /* every validating thread (a task's own, or a helper on a borrowed slot: at most `jobs` in
     * all, nsga2/evolve.h) holds one lint session; the one lint worker serves them all, each
     * session in a process of its own, so pylint warms up once for any -j */
    /* the pool waits for the import sets of the tasks to do only; the others start meanwhile
     * (an offspring may import a library none of the originals does) */
    for (size_t i = 0; i < todo.len; i++) gb_pool_config_need(&pcfg, &bench.tasks.items[todo.items[i]]);
    pcfg.spawn_rest = true;
    char *warm = cfg.lint ? gb_api_warm_program() : NULL;
    pcfg.lint_warm = warm;
    pool = gb_cli_pool_new(cmd, &pcfg);
    free(warm);
    if (!pool) {
        if (tty) fprintf(stderr, "\n");
        gb_cli_signals_stop(&sig);
        rc = GB_EXIT_FAIL;
        goto out;
    }
    cfg.pool = pool;
    cfg.stop = &stop;
    /* Validation threads: -j in all (a task thread and the helpers it borrows when fewer
     * tasks than -j are running); each holds a lint session on the shared lint worker. */
    GbEvolveSlots slots;
    gb_evolve_slots_init(&slots, (int)jobs);
    cfg.slots = &slots;

    if (cfg.lint && cfg.time_budget > 0 && todo.len > 0) {
        /* A time budget is for evolving: the first tasks must not spend theirs while pylint
         * warms up (about 2.5 s), so wait for the end of the warm-up here, before any
         * task's clock. */
        double tw = gb_now();
        GbError lerr;
        if (!gb_pool_lint_await_warm(pool, &lerr) && !o->quiet)
            fprintf(stderr, "genebench %s: warning: waiting for pylint's warm-up failed: %s\n", cmd, lerr.msg);
        if (tty)
            fprintf(stderr, "\r\033[K[0/%zu] pylint warmed up in %.1fs", todo.len, gb_now() - tw);
        else if (!o->quiet)
            fprintf(stderr, "genebench %s: pylint warmed up in %.1fs (time budgets start now)\n", cmd, gb_now() - tw);
    }
    GbEvolveLoop L = {.bench = &bench,
                      .cfg = &cfg,
                      .journal = &journal,
                      .todo = todo.items,
                      .ntodo = todo.len,
                      .tty = tty,
                      .log_every = !o->quiet && !isatty(STDERR_FILENO) ? o->progress_every : 0,
                      .t0 = gb_now(),
                      .stop = &stop,
                      .cmd = cmd};
    const char *lint_note = cfg.lint ? " (pylint warms up meanwhile)" : "";
    if (tty)
        fprintf(stderr, "\r\033[K[0/%zu] workers started in %.1fs, evolving%s", todo.len, L.t0 - t_pool, lint_note);
    else if (!o->quiet)
        fprintf(stderr, "genebench %s: workers started in %.1fs, evolving%s\n", cmd, L.t0 - t_pool, lint_note);
    gb_evolve__loop(&L, (int)jobs);
    double elapsed = gb_now() - L.t0;
    if (L.tty) fprintf(stderr, "\n");
    gb_cli_signals_stop(&sig);
    gb_pool_delete(pool);
    pool = NULL;
    gb_journal_close(&journal);
    have_journal = false;

    if (stop && !L.write_error) {
        fprintf(stderr,
                "genebench %s: interrupted; %zu finished tasks are in %s. Continue with the same command plus "
                "--resume.\n",
                cmd, L.finished + already, run->output);
        rc = 130;
    } else if (!L.write_error) {
        rc = gb_evolve__finish(run, &bench, &cfg, &L, elapsed);
    } else {
        rc = GB_EXIT_FAIL;
    }
    if (L.failed || bad_inputs) rc = rc ? rc : GB_EXIT_FAIL;

out:
    if (have_journal) gb_journal_close(&journal);
    gb_pool_delete(pool);
    if (locked) gb_cli_unlock(&lock);
    gb_array_free(&todo);
    gb_bench_destroy(&done);
    gb_bench_destroy(&bench);
    gb_evolve__away_destroy(&away);
    if (have_thr) gb_thresholds_destroy(&thr);
    return rc;
}
