/* gb_test_harden: a small, fast stand-in for `genebench evolve` used by the inject-bugs tests
 * (tests/e2e/e2e_inject_bugs.sh), so they need no fitness thresholds and run in seconds.
 *
 *   gb_test_harden IN.jsonl OUT.jsonl [--steps N] [--seed S] [--python PATH] [-j N]
 *
 * Per task it applies up to N operators (operators/operator.h, through gb_op_apply): each
 * step draws one operator that has sites, then one of its sites, from a PCG32 stream keyed on
 * (seed, task id hash, step), and keeps the result only when the task's tests still pass
 * (src/runner/runner.h). No fitness, no selection: it only has to produce programs hardened by the
 * real operators, with their real edit history. Tasks run in parallel (-j); the output does
 * not depend on it. Each output task is written in evolve's format (nsga2/record.h, through
 * src/bench/record.h): the hardened program as source/extra_files, "original" and a "genebench"
 * record with index, seed, status, operators (codes only) and edits. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "operators/operator.h"
#include "src/python/pyparse.h"
#include "src/base/rng.h"
#include "src/runner/runner.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"

/* Harden one task in place of out (a copy of t with the evolve fields). */
static void harden(GbPool *pool, const GbTask *t, size_t index, unsigned long long seed, int steps, TSParser *parser,
                   GbTask *out)
{
    GbProgram orig, prog;
    gb_program_from_task(&orig, t);
    gb_program_from_task(&prog, t);
    GbRunResult rr;
    GbError err = {{0}};
    gb_pool_run(pool, t, NULL, &rr, &err);
    bool passes = rr.status == GB_RUN_PASS;
    gb_run_result_destroy(&rr);

    GbArray(const char *) applied = {0};
    if (passes) {
        uint64_t th = gb_hash64(t->id, strlen(t->id), 0);
        for (int step = 0; step < steps; step++) {
            GbOpContext ctx;
            gb_op_ctx_init(&ctx, &prog, t, parser);
            GbRng rng;
            gb_rng_init_keyed(&rng, seed, th, (uint64_t)step, 0);
            GbSiteList sites[GB_OP_COUNT];
            int with_sites[GB_OP_COUNT], nops = 0;
            for (int o = 0; o < GB_OP_COUNT; o++) {
                gb_site_list_init(&sites[o]);
                gb_op_find_sites(&ctx, gb_operator((GbOperatorId)o), &sites[o]);
                if (sites[o].len) with_sites[nops++] = o;
            }
            if (nops) {
                int o = with_sites[gb_rng_bounded(&rng, (uint32_t)nops)];
                const GbSite *site = &sites[o].items[gb_rng_bounded(&rng, (uint32_t)sites[o].len)];
                GbProgram backup;
                gb_program_copy(&backup, &prog);
                bool keep = gb_op_apply(&ctx, gb_operator((GbOperatorId)o), site, &rng, &err) == GB_APPLY_OK;
                if (keep) {
                    gb_pool_run(pool, t, &prog, &rr, &err);
                    keep = rr.status == GB_RUN_PASS;
                    gb_run_result_destroy(&rr);
                }
                if (keep) {
                    gb_array_push(&applied, gb_operator((GbOperatorId)o)->code);
                    gb_program_destroy(&backup);
                } else {
                    gb_program_destroy(&prog);
                    prog = backup;
                }
            }
            for (int o = 0; o < GB_OP_COUNT; o++) gb_site_list_destroy(&sites[o]);
            gb_op_ctx_destroy(&ctx);
        }
    }

    gb_task_copy(out, t);
    gb_program_to_task(&prog, out);
    GbRecord rec;
    gb_record_init(&rec);
    rec.index = (long)index;
    rec.seed = seed;
    rec.has_seed = true;
    rec.status = !passes ? GB_EVOLVED_ORIGINAL_FAILS : applied.len ? GB_EVOLVED_HARDENED : GB_EVOLVED_UNCHANGED;
    rec.has_status = true;
    for (size_t i = 0; i < applied.len; i++) {
        GbRecordStep st = {gb_strdup(applied.items[i]), NULL, NULL, NAN};
        gb_array_push(&rec.operators, st);
    }
    rec.has_operators = rec.has_edits = true;
    for (size_t i = 0; i < prog.history.len; i++) {
        const GbApplied *h = &prog.history.items[i];
        GbApplied a = {gb_strdup(h->op), gb_strdup(""), gb_strdup(h->module), h->start, h->old_end, h->new_end};
        gb_array_push(&rec.edits, a);
    }
    gb_record_set_original(&rec, t);
    gb_record_attach(out, &rec);
    gb_record_destroy(&rec);
    gb_array_free(&applied);
    gb_program_destroy(&orig);
    gb_program_destroy(&prog);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"steps", required_argument, NULL, 's'},
                                         {"seed", required_argument, NULL, 'S'},
                                         {"python", required_argument, NULL, 'p'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {NULL, 0, NULL, 0}};
    int steps = 4, c;
    unsigned long long seed = 1;
    GbPoolConfig pcfg;
    gb_pool_config_defaults(&pcfg);
    while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            steps = atoi(optarg);
            break;
        case 'S':
            seed = strtoull(optarg, NULL, 10);
            break;
        case 'p':
            pcfg.python = optarg;
            break;
        case 'j':
            pcfg.workers = atoi(optarg);
            break;
        default:
            fprintf(stderr, "usage: gb_test_harden IN.jsonl OUT.jsonl [--steps N] [--seed S]\n");
            return 2;
        }
    }
    if (optind != argc - 2) {
        fprintf(stderr, "usage: gb_test_harden IN.jsonl OUT.jsonl [--steps N] [--seed S]\n");
        return 2;
    }
    GbBench in, out;
    gb_bench_init(&in);
    gb_bench_init(&out);
    GbDiag diag;
    gb_diag_init(&diag);
    bool ok = gb_bench_read(argv[optind], &in, &diag);
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    gb_diag_destroy(&diag);
    if (!ok) return 1;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&pcfg, &err);
    if (!pool) {
        fprintf(stderr, "gb_test_harden: %s\n", err.msg);
        return 1;
    }
    /* Tasks in parallel (one parser per thread); the output keeps the input order. */
    size_t n = in.tasks.len, hardened = 0;
    GbTask *done = gb_calloc(n ? n : 1, sizeof *done);
    GbBench *inp = &in;
    int threads = pcfg.workers > 0 ? pcfg.workers : 1;
#pragma omp parallel num_threads(threads) default(none) shared(inp, done, n, pool, seed, steps)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic)
        for (size_t i = 0; i < n; i++) harden(pool, &inp->tasks.items[i], i, seed, steps, parser, &done[i]);
        ts_parser_delete(parser);
    }
    for (size_t i = 0; i < n; i++) {
        GbRecord rec;
        if (gb_record_read(&done[i], &rec, &err) && rec.status == GB_EVOLVED_HARDENED) hardened++;
        gb_record_destroy(&rec);
        gb_array_push(&out.tasks, done[i]);
    }
    free(done);
    gb_pool_delete(pool);
    ok = gb_bench_write(argv[optind + 1], &out, &err);
    if (!ok)
        fprintf(stderr, "gb_test_harden: %s\n", err.msg);
    else
        printf("%zu tasks, %zu hardened\n", in.tasks.len, hardened);
    gb_bench_destroy(&in);
    gb_bench_destroy(&out);
    return ok ? 0 : 1;
}
