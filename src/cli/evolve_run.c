#include "src/cli/evolve_run.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nsga2/evolve.h"
#include "operators/api_call.h"
#include "operators/naming.h"
#include "src/base/gzip.h"
#include "src/base/sha256.h"
#include "src/base/journal.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "src/python/pyparse.h"
#include "src/report/summary.h"
#include "src/runner/library_list.h"

/* The third-party libraries (src/runner/library_list.h) as Python string literals, each
 * followed by a comma. */
#define GB_LIBRARY(name, imports, package, worker) #name ","
static const char gb_evolve__libraries[] = GB_LIBRARY_LIST;
#undef GB_LIBRARY

/* Library versions of the interpreter, as a JSON object (owned) or NULL. */
static char *gb_evolve__python_versions(const char *python)
{
    char *cmd = gb_asprintf("'%s' -c 'import json,sys\nv={\"version\":sys.version.split()[0]}\nfor m in "
                            "(%s\"pylint\"):\n try:\n  "
                            "v[m]=__import__(m).__version__\n except Exception: v[m]=None\nprint(json.dumps(v))' "
                            "2>/dev/null",
                            python, gb_evolve__libraries);
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
                        cfg->away_target,
                        run->command_line,
                        run->input,
                        NULL,
                        NULL};
    char sha[65] = "", date[32];
    size_t ilen;
    GbError ierr = {0};
    char *idata = run->command_line ? gb_read_file(run->input, &ilen, &ierr) : NULL;
    if (idata) gb_sha256_hex(idata, ilen, sha);
    free(idata);
    gb_cli_utc_date(date);
    facts.input_sha256 = sha;
    facts.date = date;
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

/* Everything one run holds (gb_evolve_benchmark), released by gb_evolve__state_destroy. The
 * engine's configuration points into it, so it stays where it was declared. */
typedef struct {
    long jobs;
    GbEvolveConfig cfg;
    GbNamingConfig naming;
    GbHttpClient *naming_client; /* owned, NULL without --llm-url */
    GbThresholds thr;
    bool have_thr, have_journal, locked;
    GbBench bench, done;
    GbArray(size_t) todo;
    size_t in_shard, bad_inputs;
    GbJournal journal;
    GbPool *pool;
    GbCliLock lock;
    GbCliSignals sig;
    volatile sig_atomic_t stop;
    GbEvolveAway away;
    GbEvolveSlots slots;
    bool tty;
    double t_pool; /* when the pool started */
} GbEvolveState;

/* The option checks before anything is read, and the number of jobs. Returns GB_EXIT_OK or the
 * usage error (printed). */
static int gb_evolve__check_usage(const GbEvolveRun *run, long *jobs)
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
    *jobs = o->jobs;
    if (*jobs < 1) *jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (*jobs < 1) *jobs = 1;
    return GB_EXIT_OK;
}

/* The engine's configuration from the options (the thresholds, earlier versions and pool come
 * later). False on a usage error (printed). */
static bool gb_evolve__configure(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    GbEvolveConfig *cfg = &S->cfg;
    gb_evolve_config_defaults(cfg);
    cfg->seed = run->seed;
    cfg->generations = (int)o->generations;
    cfg->time_budget = o->time_budget;
    cfg->breed = o->breed;
    cfg->max_parents = (int)o->max_parents;
    cfg->accept = (int)o->accept;
    if (o->objective && strcmp(o->objective, "balanced") != 0 && strcmp(o->objective, "rc") != 0) {
        fprintf(stderr, "genebench %s: --objective expects balanced or rc, not '%s'\n", run->cmd, o->objective);
        return false;
    }
    cfg->balanced = o->objective && strcmp(o->objective, "balanced") == 0;
    cfg->lint = !o->no_lint;
    cfg->keep_front = o->keep_front;
    cfg->equiv = !o->no_equiv;
    cfg->equiv_cfg.inputs = (int)o->equiv_inputs;
    cfg->equiv_cfg.search = (int)o->equiv_search;
    cfg->equiv_cfg.cost_ratio = o->cost_ratio * GB_EQUIV_GATE_MARGIN;
    cfg->equiv_cfg.cost_slack_s *= GB_EQUIV_GATE_MARGIN;
    cfg->equiv_cfg.large_slack_s *= GB_EQUIV_GATE_MARGIN;
    cfg->equiv_cfg.wall_slack_s *= GB_EQUIV_GATE_MARGIN;
    if (o->ops.given) memcpy(cfg->ops, o->ops.on, sizeof cfg->ops);
    gb_naming_config_default(&S->naming);
    if (o->llm_url) S->naming.url = o->llm_url;
    if (o->llm_model) S->naming.model = o->llm_model;
    if (!o->no_naming) {
        S->naming.api_key = getenv("GENEBENCH_API_KEY");
        S->naming.seed = (long)(cfg->seed & 0x7fffffff);
        cfg->naming = gb_naming_apply_fn;
        cfg->naming_arg = &S->naming;
        if (S->naming.url && *S->naming.url) {
            /* one client for every naming request: its budget is the naming step's overall cap
             * (a URL it refuses leaves the client NULL: each request then reports the error) */
            GbError err;
            S->naming_client = gb_naming_client_new(&S->naming, &err);
            S->naming.client = S->naming_client;
        }
    }
    return true;
}

/* The thresholds, the output's lock, the input and the earlier versions. False on an error
 * (printed). */
static bool gb_evolve__read_inputs(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    GbError err;
    const char *thr_path = o->thresholds ? o->thresholds : gb_thresholds_default_path();
    if (!gb_thresholds_load(thr_path, &S->thr, &err)) {
        fprintf(stderr, "genebench %s: %s\n", run->cmd, err.msg);
        return false;
    }
    S->have_thr = true;
    S->cfg.thresholds = &S->thr;
    S->cfg.thresholds_name = thr_path;
    /* Before touching the output: a second run on it would move the first one's journal aside. */
    if (!gb_cli_lock(&S->lock, run->cmd, run->output)) return false;
    S->locked = true;
    if (!gb_cli_read_bench(run->input, &S->bench, NULL, &S->bad_inputs)) return false;
    for (size_t i = 0; o->no_harness_rules && i < S->bench.tasks.len; i++)
        S->bench.tasks.items[i].harness = GB_HARNESS_NONE;
    if (!gb_evolve__away_load(run, &S->away)) return false;
    if (S->away.n) {
        S->cfg.away = gb_evolve__away_lookup;
        S->cfg.away_arg = &S->away;
        S->cfg.away_target = o->away_target;
    }
    return true;
}

/* The tasks to do (the shard's, less those already in the output with --resume) and the
 * output's journal. False on an error (printed). */
static bool gb_evolve__plan(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    GbError err;
    if (o->resume && access(run->output, F_OK) == 0) {
        GbJournal probe;
        /* An output written as gzip at the end of a run (-o X.gz) takes appended lines again as
         * plain text; the end of this run compresses it again. */
        if (!gb_gunzip_file_in_place(run->output, &err) ||
            !gb_journal_open(&probe, run->output, true, &err)) { /* drops a torn last line */
            fprintf(stderr, "genebench %s: %s\n", run->cmd, err.msg);
            return false;
        }
        gb_journal_close(&probe);
        GbDiag d2;
        gb_diag_init(&d2);
        gb_bench_read(run->output, &S->done, &d2);
        for (size_t i = 0; i < d2.messages.len; i++) fprintf(stderr, "%s (ignored)\n", d2.messages.items[i]);
        gb_diag_destroy(&d2);
    }
    for (size_t i = 0; i < S->bench.tasks.len; i++) {
        if ((long)(i % (size_t)o->shard.n) != o->shard.k - 1) continue;
        S->in_shard++;
        if (gb_bench_find(&S->done, S->bench.tasks.items[i].id) >= 0) continue;
        gb_array_push(&S->todo, i);
    }
    if (!gb_journal_open(&S->journal, run->output, o->resume, &err)) {
        fprintf(stderr, "genebench %s: %s\n", run->cmd, err.msg);
        return false;
    }
    S->have_journal = true;
    return true;
}

/* With a time budget and lint: wait for pylint's warm-up before any task's clock starts. */
static void gb_evolve__await_lint_warm(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    if (!(S->cfg.lint && S->cfg.time_budget > 0 && S->todo.len > 0)) return;
    /* A time budget is for evolving: the first tasks must not spend theirs while pylint
     * warms up (about 2.5 s), so wait for the end of the warm-up here, before any
     * task's clock. */
    double tw = gb_now();
    GbError lerr;
    if (!gb_pool_lint_await_warm(S->pool, &lerr) && !o->quiet)
        fprintf(stderr, "genebench %s: warning: waiting for pylint's warm-up failed: %s\n", run->cmd, lerr.msg);
    if (S->tty)
        fprintf(stderr, "\r\033[K[0/%zu] pylint warmed up in %.1fs", S->todo.len, gb_now() - tw);
    else if (!o->quiet)
        fprintf(stderr, "genebench %s: pylint warmed up in %.1fs (time budgets start now)\n", run->cmd, gb_now() - tw);
}

/* The signal handlers, the first progress lines and the worker pool, with the validation slots.
 * False when the pool cannot start (printed; the signal handlers are stopped again). */
static bool gb_evolve__start(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    const char *cmd = run->cmd;
    /* Ctrl-C / SIGTERM only set the flag the engine polls between offspring: the pool keeps
     * running the tests in progress, so a task is either finished or left for --resume, never
     * half-judged. Started before the pool: it starts its workers from OpenMP threads, which
     * stay alive and must not take the signals themselves. */
    gb_cli_signals_start(&S->sig, NULL, &S->stop);
    size_t already = S->in_shard - S->todo.len;
    S->tty = !o->quiet && isatty(STDERR_FILENO);
    /* The first line before the workers start (they take seconds to import their libraries). */
    if (!o->quiet)
        fprintf(stderr, "genebench %s: %zu tasks to do (%zu already done), %ld jobs, seed %llu\n", cmd, S->todo.len,
                already, S->jobs, (unsigned long long)S->cfg.seed);
    if (S->tty) fprintf(stderr, "[0/%zu] starting the workers", S->todo.len);
    S->t_pool = gb_now();
    GbPoolConfig pcfg;
    gb_pool_config_defaults(&pcfg);
    pcfg.python = o->python;
    pcfg.workers = (int)(o->workers ? o->workers : S->jobs);
    pcfg.timeout_s = o->timeout;
    pcfg.lint = S->cfg.lint;
    /* the tests gate judges genebench's own offspring of the benchmark's program, not answers
     * written against the verdict: their tests run in the program's process under the seal, at
     * half the cost of a judge apart (src/runner/README.md, "What a test run can trust") */
    pcfg.tests_in_program = true;
    /* every validating thread (a task's own, or a helper on a borrowed slot: at most `jobs` in
     * all, nsga2/evolve.h) holds one lint session; the one lint worker serves them all, each
     * session in a process of its own, so pylint warms up once for any -j */
    /* the pool waits for the import sets of the tasks to do only; the others start meanwhile
     * (an offspring may import a library none of the originals does) */
    for (size_t i = 0; i < S->todo.len; i++) gb_pool_config_need(&pcfg, &S->bench.tasks.items[S->todo.items[i]]);
    pcfg.spawn_rest = true;
    char *warm = S->cfg.lint ? gb_api_warm_program() : NULL;
    pcfg.lint_warm = warm;
    S->pool = gb_cli_pool_new(cmd, &pcfg);
    free(warm);
    if (!S->pool) {
        if (S->tty) fprintf(stderr, "\n");
        gb_cli_signals_stop(&S->sig);
        return false;
    }
    S->cfg.pool = S->pool;
    S->cfg.stop = &S->stop;
    /* Validation threads: -j in all (a task thread and the helpers it borrows when fewer
     * tasks than -j are running); each holds a lint session on the shared lint worker. */
    gb_evolve_slots_init(&S->slots, (int)S->jobs);
    S->cfg.slots = &S->slots;
    gb_evolve__await_lint_warm(run, S);
    return true;
}

/* Evolve the tasks to do; then stop the signal handlers, the pool and the journal. Returns
 * the exit code. */
static int gb_evolve__evolve(const GbEvolveRun *run, GbEvolveState *S)
{
    const GbEvolveOptions *o = run->opt;
    const char *cmd = run->cmd;
    GbEvolveLoop L = {.bench = &S->bench,
                      .cfg = &S->cfg,
                      .journal = &S->journal,
                      .todo = S->todo.items,
                      .ntodo = S->todo.len,
                      .tty = S->tty,
                      .log_every = !o->quiet && !isatty(STDERR_FILENO) ? o->progress_every : 0,
                      .t0 = gb_now(),
                      .stop = &S->stop,
                      .cmd = cmd};
    const char *lint_note = S->cfg.lint ? " (pylint warms up meanwhile)" : "";
    if (S->tty)
        fprintf(stderr, "\r\033[K[0/%zu] workers started in %.1fs, evolving%s", S->todo.len, L.t0 - S->t_pool,
                lint_note);
    else if (!o->quiet)
        fprintf(stderr, "genebench %s: workers started in %.1fs, evolving%s\n", cmd, L.t0 - S->t_pool, lint_note);
    gb_evolve__loop(&L, (int)S->jobs);
    double elapsed = gb_now() - L.t0;
    if (L.tty) fprintf(stderr, "\n");
    gb_cli_signals_stop(&S->sig);
    gb_pool_delete(S->pool);
    S->pool = NULL;
    gb_journal_close(&S->journal);
    S->have_journal = false;

    int rc;
    if (S->stop && !L.write_error) {
        fprintf(stderr,
                "genebench %s: interrupted; %zu finished tasks are in %s. Continue with the same command plus "
                "--resume.\n",
                cmd, L.finished + (S->in_shard - S->todo.len), run->output);
        rc = 130;
    } else if (!L.write_error) {
        rc = gb_evolve__finish(run, &S->bench, &S->cfg, &L, elapsed);
    } else {
        rc = GB_EXIT_FAIL;
    }
    if (L.failed || S->bad_inputs) rc = rc ? rc : GB_EXIT_FAIL;
    return rc;
}

static void gb_evolve__state_destroy(GbEvolveState *S)
{
    if (S->have_journal) gb_journal_close(&S->journal);
    gb_pool_delete(S->pool);
    if (S->locked) gb_cli_unlock(&S->lock);
    gb_array_free(&S->todo);
    gb_bench_destroy(&S->done);
    gb_bench_destroy(&S->bench);
    gb_evolve__away_destroy(&S->away);
    if (S->have_thr) gb_thresholds_destroy(&S->thr);
    gb_http_client_delete(S->naming_client);
}

int gb_evolve_benchmark(const GbEvolveRun *run)
{
    long jobs = 1;
    int rc = gb_evolve__check_usage(run, &jobs);
    if (rc != GB_EXIT_OK) return rc;
    GbEvolveState S;
    memset(&S, 0, sizeof S);
    S.jobs = jobs;
    S.lock = (GbCliLock){-1, NULL};
    if (!gb_evolve__configure(run, &S)) return GB_EXIT_USAGE;
    gb_bench_init(&S.bench);
    gb_bench_init(&S.done);
    if (gb_evolve__read_inputs(run, &S) && gb_evolve__plan(run, &S) && gb_evolve__start(run, &S))
        rc = gb_evolve__evolve(run, &S);
    else
        rc = GB_EXIT_FAIL;
    gb_evolve__state_destroy(&S);
    return rc;
}
