#include "src/measure/similarity.h"

#include <assert.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/model/program.h"
#include "src/python/pyparse.h"
#include "src/python/tokensim.h"

static int gb_sim__cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double gb_sim__quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    if (lo + 1 >= n) return sorted[n - 1];
    double frac = pos - (double)lo;
    return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

void gb_summary_compute(const double *v, size_t n, GbSummary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0) return;
    double *c = gb_malloc(n * sizeof *c), sum = 0;
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, gb_sim__cmp_double);
    for (size_t i = 0; i < n; i++) sum += c[i];
    s->mean = sum / (double)n;
    s->min = c[0];
    s->max = c[n - 1];
    s->q1 = gb_sim__quantile(c, n, 0.25);
    s->median = gb_sim__quantile(c, n, 0.5);
    s->q3 = gb_sim__quantile(c, n, 0.75);
    free(c);
}

double gb_sim_task_value(const GbSimTask *t, GbSimMeasure m)
{
    switch (m) {
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field)                                                     \
    case GB_SIM_##id:                                                                                                  \
        return t->field;
        GB_SIM_MEASURE_LIST
#undef GB_SIM_MEASURE
    case GB_SIM_MEASURE_COUNT:
        break;
    }
    assert(!"a similarity measure out of range");
    return 0;
}

typedef struct {
    size_t ia, ib;
    GbCodeBleuStats stats;
} GbSim__Pair;

void gb_similarity_compare(const GbBench *a, const GbBench *b, const GbCodeBleuOptions *o, int threads,
                           GbSimReport *out)
{
    memset(out, 0, sizeof *out);
    GbArray(GbSim__Pair) pairs = {0};
    for (size_t i = 0; i < a->tasks.len; i++) {
        long j = gb_bench_find(b, a->tasks.items[i].id);
        if (j < 0) {
            gb_array_push(&out->only_a, a->tasks.items[i].id);
            continue;
        }
        GbSim__Pair p;
        memset(&p, 0, sizeof p);
        p.ia = i;
        p.ib = (size_t)j;
        gb_array_push(&pairs, p);
    }
    for (size_t j = 0; j < b->tasks.len; j++)
        if (gb_bench_find(a, b->tasks.items[j].id) < 0) gb_array_push(&out->only_b, b->tasks.items[j].id);

    size_t n = pairs.len;
    GbSimTask *res = gb_calloc(n ? n : 1, sizeof *res);
    GbSim__Pair *pp = pairs.items;
    if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads) default(none) shared(a, b, o, n, res, pp)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 4)
        for (size_t k = 0; k < n; k++) {
            GbProgram pa, pb;
            gb_program_from_task(&pa, &a->tasks.items[pp[k].ia]);
            gb_program_from_task(&pb, &b->tasks.items[pp[k].ib]);
            char *ta = gb_program_concat(&pa), *tb = gb_program_concat(&pb);
            GbCodeBleuDoc *ref = gb_codebleu_doc_new(parser, ta), *hyp = gb_codebleu_doc_new(parser, tb);
            const GbCodeBleuDoc *refs[1] = {ref};
            gb_codebleu_stats_add(&pp[k].stats, parser, hyp, refs, 1);
            gb_codebleu_score(&pp[k].stats, o, &res[k].codebleu);
            res[k].df_truncated = gb_codebleu_doc_dataflow_truncated(ref) || gb_codebleu_doc_dataflow_truncated(hyp);
            GbTokenBag ba, bb;
            gb_token_bag_init(&ba, parser, ta, strlen(ta));
            gb_token_bag_init(&bb, parser, tb, strlen(tb));
            res[k].cosine = gb_token_cosine(&ba, &bb);
            res[k].jaccard = gb_token_jaccard(&ba, &bb);
            res[k].id = a->tasks.items[pp[k].ia].id;
            gb_token_bag_destroy(&ba);
            gb_token_bag_destroy(&bb);
            gb_codebleu_doc_delete(ref);
            gb_codebleu_doc_delete(hyp);
            free(ta);
            free(tb);
            gb_program_destroy(&pa);
            gb_program_destroy(&pb);
        }
        ts_parser_delete(parser);
    }
    /* Corpus statistics summed in task order, so the result does not depend on threads. */
    GbCodeBleuStats total;
    memset(&total, 0, sizeof total);
    for (size_t k = 0; k < n; k++) {
        gb_codebleu_stats_merge(&total, &pp[k].stats);
        gb_array_push(&out->tasks, res[k]);
    }
    gb_codebleu_score(&total, o, &out->corpus);
    free(res);
    gb_array_free(&pairs);
}

void gb_sim_report_destroy(GbSimReport *r)
{
    gb_array_free(&r->tasks);
    gb_array_free(&r->only_a);
    gb_array_free(&r->only_b);
}
