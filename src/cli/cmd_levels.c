/* genebench levels: an evolve output as graded benchmarks of the same tasks, one per level of
 * complexity along each pick's lineage (src/bench/lineage.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fitness/fitness.h"
#include "src/base/json_write.h"
#include "src/bench/lineage.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/doc/levels.h"
#include "src/python/pyparse.h"

typedef struct {
    const char *output;
    int by;
    long k;
    double size_budget;
} GbLevelsOptions;

static const char *const gb_levels__by_choices[] = {"rungs", "rc", "size", NULL};

static const GbCliOption gb_levels__options[] = {
    GB_CLI_STRING("output", 'o', GbLevelsOptions, output, "DIR", NULL, "directory to write the level files into"),
    GB_CLI_ENUM("by", 0, GbLevelsOptions, by, "HOW", gb_levels__by_choices, "rungs",
                "grade by rungs (equal steps along each lineage), rc (common RC targets) or size\n"
                "(growing token budgets up to --size-budget)"),
    GB_CLI_LONG("k", 'k', GbLevelsOptions, k, "K", 1, 100, "4", "levels above the original (level 0)"),
    GB_CLI_DOUBLE("size-budget", 0, GbLevelsOptions, size_budget, "N", 1.0, 1000.0, NULL,
                  "also write level_size.jsonl: per task the highest-RC rung within N x the original's\n"
                  "tokens (with --by size: the largest budget, default 2)"),
    GB_CLI_END,
};

static const GbCliExit gb_levels__exits[] = {
    {0, "every level written"},
    {1, "the input had bad lines, a lineage could not be rebuilt, or a write failed"},
    {2, "usage error"},
    {0, NULL},
};

static const GbCliCommand gb_levels__cmd = {
    .name = "levels",
    .synopsis = "OUT.jsonl -o DIR [--by rungs|rc|size] [-k K] [--size-budget N]",
    .about = "  Turn an evolve output into K+1 benchmarks of the same tasks at graded complexity,\n"
             "  DIR/level_0.jsonl (the originals) .. DIR/level_K.jsonl, each task's program being one rung of\n"
             "  its pick's lineage (\"genebench.lineage\": every rung passed every gate of evolve). Each file\n"
             "  is an ordinary hardened benchmark: its \"genebench\" record describes the rung (after = the\n"
             "  rung's scores, operators, edits and lineage cut at the rung, no front; the naming only on the\n"
             "  pick's own rung) and a top-level \"level\" field says which level and rung it is. `check`,\n"
             "  `compare`, `export` and `eval` read it unchanged. DIR/levels.json lists per level the mean RC,\n"
             "  RR, tokens, lines and rung. Every rung is rebuilt from the original by its patches; the last\n"
             "  rung must equal the task's program, or the task is reported and left out.\n"
             "  Tasks without a lineage (unchanged, original fails, error) appear unchanged in every level.\n",
    .options = gb_levels__options,
    .min_args = 1,
    .max_args = 1,
    .exits = gb_levels__exits,
};

/* Per-level sums for levels.json. */
typedef struct {
    double rc, rr, tokens, lines, rung;
    long n;
} GbLevelSums;

static long gb_levels__lines(const GbProgram *p)
{
    long n = 0;
    for (size_t m = 0; m < p->modules.len; m++) {
        const char *s = p->modules.items[m].source;
        size_t len = strlen(s);
        for (size_t i = 0; i < len; i++) n += s[i] == '\n';
        if (len > 0 && s[len - 1] != '\n') n++;
    }
    return n;
}

/* Task t at rung g of its record r: program, record and "level" field rewritten. */
static bool gb_levels__task(const GbTask *t, const GbRecord *r, size_t g, const char *level_json, TSParser *parser,
                            GbTask *out, GbLevelSums *sums, GbError *err)
{
    gb_task_copy(out, t);
    GbRecord cut;
    gb_record_init(&cut);
    GbProgram prog;
    bool ok = gb_lineage_rung_program(r, g, &prog, err);
    GbMetrics m;
    if (ok && !gb_metrics_compute(&prog, parser, &m, err)) ok = false;
    if (ok && g == r->lineage.len) {
        char *a = gb_program_concat(&prog);
        GbProgram pick;
        gb_program_from_task(&pick, t);
        char *b = gb_program_concat(&pick);
        if (strcmp(a, b) != 0) {
            gb_error_set(err, "the rebuilt last rung differs from the task's program");
            ok = false;
        }
        free(a);
        free(b);
        gb_program_destroy(&pick);
    }
    if (ok) {
        GbError perr;
        char *gj = gb_record_genebench_json(r), *oj = gb_record_original_json(r);
        ok = gb_record_parse(gj, oj, &cut, &perr);
        free(gj);
        free(oj);
        if (!ok) gb_error_set(err, "%s", perr.msg);
    }
    if (ok) {
        GbRungScore s = gb_lineage_rung_score(r, g);
        cut.after.rc = s.rc;
        cut.after.rr = s.rr;
        for (int i = 0; i < GB_METRIC_COUNT; i++) cut.after.metrics[i] = m.v[i];
        if (g < r->lineage.len) {
            if (cut.has_status) cut.status = g == 0 ? GB_EVOLVED_UNCHANGED : GB_EVOLVED_HARDENED;
            while (cut.operators.len > g) {
                GbRecordStep *st = &cut.operators.items[--cut.operators.len];
                free(st->op);
                free(st->name);
                free(st->site);
            }
            size_t ne = g == 0 ? 0 : (size_t)(r->lineage.items[g - 1].edits < 0 ? 0 : r->lineage.items[g - 1].edits);
            while (cut.edits.len > ne) {
                GbApplied *a = &cut.edits.items[--cut.edits.len];
                free(a->op);
                free(a->site_key);
                free(a->module);
            }
            while (cut.lineage.len > g) gb_record_rung_destroy(&cut.lineage.items[--cut.lineage.len]);
            if (cut.has_naming) {
                free(cut.naming_mode);
                cut.naming_mode = NULL;
                gb_rename_list_destroy(&cut.renamed);
                cut.has_naming = false;
            }
        }
        for (size_t i = 0; i < cut.front.len; i++) {
            GbRecordFrontMember *fm = &cut.front.items[i];
            for (size_t k = 0; k < fm->operators.len; k++) free(fm->operators.items[k]);
            gb_array_free(&fm->operators);
            free(fm->source);
        }
        gb_array_free(&cut.front);
        cut.has_front = false;
        gb_program_to_task(&prog, out);
        gb_record_attach(out, &cut);
        gb_task_set_field(out, "level", level_json);
        sums->rc += s.rc;
        sums->rr += s.rr;
        sums->tokens += m.v[GB_METRIC_R1];
        sums->lines += (double)gb_levels__lines(&prog);
        sums->rung += (double)g;
        sums->n++;
    }
    gb_program_destroy(&prog);
    gb_record_destroy(&cut);
    return ok;
}

static void gb_levels__summary(GbLevelsDoc *doc, const char *name, const char *file, const GbLevelSums *s)
{
    double n = s->n ? (double)s->n : NAN;
    GbLevelsDocLevel l = {gb_strdup(name), gb_strdup(file), s->n,         s->rc / n,
                          s->rr / n,       s->tokens / n,   s->lines / n, s->rung / n};
    gb_array_push(&doc->levels, l);
    printf("%-6s %-18s %5ld  %8.4f %8.4f %9.1f %8.1f %6.2f\n", name, file, s->n, s->rc / n, s->rr / n, s->tokens / n,
           s->lines / n, s->rung / n);
}

/* One level file: every task at the rung pick(r) chooses (within >= 0: size-matched). */
static bool gb_levels__write(const GbBench *in, GbRecord *recs, const bool *has, const char *dir, const char *name,
                             GbLevelsBy by, size_t i, size_t k, double lo, double hi, double budget, double within,
                             TSParser *parser, GbLevelsDoc *summary)
{
    GbBench out;
    gb_bench_init(&out);
    GbLevelSums sums = {0};
    bool ok = true;
    for (size_t t = 0; t < in->tasks.len; t++) {
        const GbTask *task = &in->tasks.items[t];
        GbTask nt;
        if (!has[t]) {
            gb_task_copy(&nt, task);
            gb_array_push(&out.tasks, nt);
            continue;
        }
        const GbRecord *r = &recs[t];
        size_t g = within > 0 ? gb_levels_pick_within(r, within) : gb_levels_pick(r, by, i, k, lo, hi, budget);
        GbStr lj;
        gb_str_init(&lj);
        bool f = true;
        gb_str_append(&lj, "{");
        gb_json_key(&lj, "level", &f);
        gb_json_string(&lj, name);
        gb_json_key(&lj, "by", &f);
        gb_json_string(&lj, within > 0 ? "size_matched" : gb_levels_by_name(by));
        if (within > 0) {
            gb_json_key(&lj, "budget", &f);
            gb_json_number(&lj, within);
        }
        gb_json_key(&lj, "rung", &f);
        gb_json_integer(&lj, (long long)g);
        gb_json_key(&lj, "rungs", &f);
        gb_json_integer(&lj, (long long)r->lineage.len);
        gb_str_append(&lj, "}");
        GbError err;
        if (gb_levels__task(task, r, g, lj.data, parser, &nt, &sums, &err)) {
            gb_array_push(&out.tasks, nt);
        } else {
            fprintf(stderr, "genebench levels: task %s, rung %zu: %s\n", task->id, g, err.msg);
            gb_task_destroy(&nt);
            ok = false;
        }
        gb_str_destroy(&lj);
    }
    char file[64], path[4096];
    snprintf(file, sizeof file, "level_%s.jsonl", name);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    GbError err;
    if (!gb_bench_write(path, &out, &err)) {
        fprintf(stderr, "genebench levels: %s: %s\n", path, err.msg);
        ok = false;
    }
    gb_levels__summary(summary, name, file, &sums);
    gb_bench_destroy(&out);
    return ok;
}

int gb_cmd_levels(int argc, char **argv)
{
    GbLevelsOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_levels__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    if (!o.output) {
        fprintf(stderr, "genebench levels: -o DIR is required\n");
        gb_cli_usage(&gb_levels__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    if (mkdir(o.output, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "genebench levels: cannot create %s: %s\n", o.output, strerror(errno));
        return GB_EXIT_FAIL;
    }
    GbBench in;
    gb_bench_init(&in);
    size_t bad = 0;
    if (!gb_cli_read_bench(args.items[0], &in, "genebench levels: ", &bad)) {
        gb_bench_destroy(&in);
        return GB_EXIT_FAIL;
    }
    bool ok = bad == 0;
    GbRecord *recs = gb_malloc((in.tasks.len + 1) * sizeof *recs);
    bool *has = gb_malloc((in.tasks.len + 1) * sizeof *has);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t t = 0; t < in.tasks.len; t++) {
        GbError err;
        bool read = gb_record_read(&in.tasks.items[t], &recs[t], &err);
        has[t] = read && recs[t].has_lineage && recs[t].lineage.len && recs[t].original_source;
        if (!read && gb_record_present(&in.tasks.items[t])) {
            fprintf(stderr, "genebench levels: task %s: %s\n", in.tasks.items[t].id, err.msg);
            ok = false;
        }
        if (!has[t]) continue;
        lo = fmin(lo, recs[t].before.rc);
        for (size_t g = 1; g <= recs[t].lineage.len; g++) hi = fmax(hi, gb_lineage_rung_score(&recs[t], g).rc);
    }
    size_t k = (size_t)o.k;
    double budget = o.size_budget > 0 ? o.size_budget : 2.0;
    TSParser *parser = gb_parser_new();
    GbLevelsDoc summary = {
        gb_strdup(args.items[0]), gb_strdup(gb_levels_by_name((GbLevelsBy)o.by)), o.k, {0}, budget, {0}};
    for (size_t i = 0; i <= k; i++)
        gb_array_push(&summary.rc_targets, isfinite(lo) ? lo + (double)i * (hi - lo) / (double)k : NAN);
    printf("%-6s %-18s %5s  %8s %8s %9s %8s %6s\n", "level", "file", "tasks", "RC", "RR", "tokens", "lines", "rung");
    for (size_t i = 0; i <= k; i++) {
        char name[32];
        snprintf(name, sizeof name, "%zu", i);
        ok &= gb_levels__write(&in, recs, has, o.output, name, (GbLevelsBy)o.by, i, k, lo, hi, budget, 0, parser,
                               &summary);
    }
    if (o.size_budget > 0)
        ok &= gb_levels__write(&in, recs, has, o.output, "size", (GbLevelsBy)o.by, 0, k, lo, hi, budget, o.size_budget,
                               parser, &summary);
    GbStr text;
    gb_str_init(&text);
    gb_levels_doc_write(&text, &summary);
    char path[4096];
    snprintf(path, sizeof path, "%s/levels.json", o.output);
    ok &= gb_cli_write_output("levels", path, &text);
    gb_str_destroy(&text);
    gb_levels_doc_destroy(&summary);
    ts_parser_delete(parser);
    for (size_t t = 0; t < in.tasks.len; t++) gb_record_destroy(&recs[t]);
    free(recs);
    free(has);
    gb_bench_destroy(&in);
    return ok ? GB_EXIT_OK : GB_EXIT_FAIL;
}
