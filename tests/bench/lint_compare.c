/* Do lint sessions score like fresh lints? (src/runner/runner.h: gb_lint_session_lint against
 * gb_pool_lint.) The evolution lints every child of a task in one session, where astroid
 * keeps the library modules parsed by earlier lints; this tool measures whether that ever
 * changes a score.
 *
 *   lint_compare [-j N] [-c] BENCH.jsonl [MORE.jsonl ...]
 *
 * The files are versions of one benchmark (e.g. the import and `genebench evolve` outputs);
 * for each task of the first file, in one session, it lints the task's program from every
 * file that has the task, in file order, then lints each of them again in a fresh fork
 * (gb_pool_lint), and with -c also with the pylint command itself (a new interpreter per
 * program, the same options; it prints the score with two decimals, so the session's score
 * is compared printed the same way, negative scores as 0). The lint worker warms up as
 * genebench's commands have it do (gb_api_warm_program), so the first tasks' sessions are
 * forked during the second stage of its warm-up and build what they lack themselves, the
 * later ones from the warm image. Prints every disagreement and a summary line. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gb_config.h"
#include "operators/api_call.h"
#include "src/runner/runner.h"
#include "src/bench/task_io.h"
#include "src/runner/library_list.h"

/* The third-party libraries (src/runner/library_list.h), comma-separated with a comma after the
 * last. */
#define GB_LIBRARY(name, imports, package, worker) name ","
static const char gb_lint_compare__libraries[] = GB_LIBRARY_LIST;
#undef GB_LIBRARY

/* The rule of src/runner/harness_lint.py's libraries_opaque for the pylint command (run by its
 * --init-hook): astroid never parses a module of the third-party libraries. GB_LIBRARY keeps
 * this definition for the hook's uses below. */
#define GB_LIBRARY(name, imports, package, worker) "'" name "', "
#define GB_LINT_OPAQUE_HOOK                                                                                            \
    "import astroid.manager as m, astroid.exceptions as e\n"                                                           \
    "f = m.AstroidManager.ast_from_module_name\n"                                                                      \
    "def g(self, name, *a, f=f, e=e, **k):\n"                                                                          \
    "    if isinstance(name, str) and name.partition('.')[0] in "                                                      \
    "(" GB_LIBRARY_LIST "):\n"                                                                                         \
    "        raise e.AstroidImportError('opaque')\n"                                                                   \
    "    return f(self, name, *a, **k)\n"                                                                              \
    "m.AstroidManager.ast_from_module_name = g\n"

/* Score printed by `python3 -m pylint` on the program (10 when it prints none: no
 * statement), or NAN when it could not run. */
static double pylint_cli(const GbProgram *prog)
{
    char dir[] = "/tmp/gb-lint-compare-XXXXXX";
    if (!mkdtemp(dir)) return NAN;
    GbStr cmd;
    gb_str_init(&cmd);
    gb_str_appendf(&cmd,
                   "cd %s && %s -m pylint --rcfile=/dev/null --persistent=n --jobs=1 --score=y --reports=n "
                   "--disable=missing-module-docstring,missing-class-docstring,missing-function-docstring "
                   "--ignored-modules=%.*s --init-hook=\"%s\"",
                   dir, GB_DEFAULT_PYTHON, (int)(sizeof gb_lint_compare__libraries - 2), gb_lint_compare__libraries,
                   GB_LINT_OPAQUE_HOOK);
    bool ok = true;
    for (size_t i = 0; i < prog->modules.len && ok; i++) {
        const GbFile *m = &prog->modules.items[i];
        char *path = gb_asprintf("%s/%s", dir, m->path);
        for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
            *slash = '\0';
            mkdir(path, 0700);
            *slash = '/';
        }
        FILE *f = fopen(path, "w");
        ok = f && fputs(m->source, f) >= 0;
        if (f) fclose(f);
        free(path);
        gb_str_appendf(&cmd, " '%s'", m->path);
    }
    gb_str_append(&cmd, " 2>/dev/null");
    double score = NAN;
    FILE *p = ok ? popen(cmd.data, "r") : NULL;
    if (p) {
        char line[4096];
        score = 10.0;
        while (fgets(line, sizeof line, p)) {
            const char *at = strstr(line, "rated at ");
            if (at) score = strtod(at + 9, NULL);
        }
        pclose(p);
        if (score < 0) score = 0;
        if (score > 10) score = 10;
    }
    GbStr rm;
    gb_str_init(&rm);
    gb_str_appendf(&rm, "rm -rf '%s'", dir);
    if (system(rm.data) != 0) fprintf(stderr, "lint_compare: cannot remove %s\n", dir);
    gb_str_destroy(&rm);
    gb_str_destroy(&cmd);
    return score;
}

int main(int argc, char **argv)
{
    int jobs = 2, c;
    bool cli = false;
    while ((c = getopt(argc, argv, "j:c")) != -1) {
        if (c == 'j')
            jobs = atoi(optarg);
        else if (c == 'c')
            cli = true;
        else
            return 2;
    }
    if (optind >= argc || jobs < 1) {
        fprintf(stderr, "usage: lint_compare [-j N] [-c] BENCH.jsonl [MORE.jsonl ...]\n");
        return 2;
    }
    int nfiles = argc - optind;
    GbBench *benches = calloc((size_t)nfiles, sizeof *benches);
    for (int f = 0; f < nfiles; f++) {
        GbDiag diag;
        gb_diag_init(&diag);
        gb_bench_init(&benches[f]);
        if (!gb_bench_read(argv[optind + f], &benches[f], &diag) || diag.messages.len) {
            for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
            return 1;
        }
        gb_diag_destroy(&diag);
    }
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    cfg.lint = true;
    cfg.timeout_s = 60;
    char *warm = gb_api_warm_program();
    cfg.lint_warm = warm;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) {
        fprintf(stderr, "lint_compare: %s\n", err.msg);
        return 1;
    }
    const GbBench *first = &benches[0];
    long programs = 0, equal = 0, differing = 0, failed = 0, cli_equal = 0, cli_differing = 0, partial = 0;
    double largest = 0, t_session = 0, t_fresh = 0;
#pragma omp parallel for num_threads(jobs) schedule(dynamic, 1) default(none) shared(first, benches, nfiles, pool, cli) \
    reduction(+ : programs, equal, differing, failed, t_session, t_fresh, cli_equal, cli_differing, partial) reduction(max : largest)
    for (size_t i = 0; i < first->tasks.len; i++) {
        const char *id = first->tasks.items[i].id;
        GbProgram progs[16];
        int n = 0;
        for (int f = 0; f < nfiles && n < 16; f++) {
            long k = gb_bench_find(&benches[f], id);
            if (k >= 0) gb_program_from_task(&progs[n++], &benches[f].tasks.items[k]);
        }
        double s[16], r[16];
        bool ok_s[16], ok_r[16];
        GbError e = {{0}};
        double t0 = gb_now();
        GbLintSession *ls = gb_lint_session_new(pool);
        for (int k = 0; k < n; k++) {
            ok_s[k] = gb_lint_session_lint(ls, &progs[k], &s[k], &e);
            if (k == 0 && gb_lint_session_partial(ls)) partial++;
        }
        gb_lint_session_delete(ls);
        double t1 = gb_now();
        for (int k = 0; k < n; k++) ok_r[k] = gb_pool_lint(pool, &progs[k], &r[k], &e);
        t_fresh += gb_now() - t1;
        t_session += t1 - t0;
        for (int k = 0; k < n; k++) {
            programs++;
            if (!ok_s[k] || !ok_r[k]) {
                failed++;
#pragma omp critical(gb_lint_compare_out)
                printf("%s (file %d): lint failed: session %s, fresh %s\n", id, k + 1, ok_s[k] ? "ok" : "failed",
                       ok_r[k] ? "ok" : "failed");
            } else if (s[k] == r[k]) {
                equal++;
            } else {
                differing++;
                if (fabs(s[k] - r[k]) > largest) largest = fabs(s[k] - r[k]);
#pragma omp critical(gb_lint_compare_out)
                printf("%s (file %d): session %.4f, fresh %.4f\n", id, k + 1, s[k], r[k]);
            }
            if (cli && ok_s[k]) {
                double p = pylint_cli(&progs[k]);
                char mine[32], theirs[32];
                snprintf(mine, sizeof mine, "%.2f", s[k]);
                snprintf(theirs, sizeof theirs, "%.2f", p);
                if (!isnan(p) && strcmp(mine, theirs) == 0) {
                    cli_equal++;
                } else {
                    cli_differing++;
#pragma omp critical(gb_lint_compare_out)
                    printf("%s (file %d): session %.4f, pylint command %.2f\n", id, k + 1, s[k], p);
                }
            }
            gb_program_destroy(&progs[k]);
        }
    }
    printf("programs %ld, equal %ld, differing %ld, failed %ld, largest difference %.4f; "
           "lint time (wall, summed over threads): session %.1f s, fresh fork %.1f s; "
           "sessions forked during pylint's warm-up %ld of %zu\n",
           programs, equal, differing, failed, largest, t_session, t_fresh, partial, first->tasks.len);
    if (cli) printf("pylint command: equal (as printed, 2 decimals) %ld, differing %ld\n", cli_equal, cli_differing);
    gb_pool_delete(pool);
    free(warm);
    for (int f = 0; f < nfiles; f++) gb_bench_destroy(&benches[f]);
    free(benches);
    return differing || failed || cli_differing ? 1 : 0;
}
