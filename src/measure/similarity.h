#pragma once
/* Pairwise similarity of two benchmarks whose tasks are matched by id: per task CodeBLEU
 * (src/measure/codebleu.h; B's program is the prediction, A's the reference, as GeneBench calls
 * calc_codebleu([original], [transformed])) with its four components, cosine of token counts
 * and Jaccard of token sets (src/python/tokensim.h). Programs with several modules are compared as
 * gb_program_concat() output (main module first, then helpers by path).
 * Also summaries (mean, median, quartiles) and small JSON helpers for the commands.
 * Thread-safety: gb_similarity_compare runs its own OpenMP loop (one parser per thread);
 * the report is plain data. */
#include <stdbool.h>
#include <stddef.h>

#include "src/doc/sim_measure_list.h"
#include "src/measure/codebleu.h"
#include "src/model/task.h"
#include "src/base/util.h"

typedef struct {
    size_t n;
    double mean, median, q1, q3, min, max;
} GbSummary;

/* Summary of v[0..n) (v is not modified). Quartiles and median by linear interpolation
 * between order statistics (numpy's default): position q * (n - 1). All 0 when n == 0. */
void gb_summary_compute(const double *v, size_t n, GbSummary *s);

typedef struct {
    const char *id; /* borrowed from benchmark A */
    GbCodeBleuScore codebleu;
    double cosine, jaccard;
    bool df_truncated; /* a side's data-flow walk hit the work budget (its graph counts as empty) */
} GbSimTask;

/* The value of measure m (src/doc/sim_measure_list.h) for task t. */
double gb_sim_task_value(const GbSimTask *t, GbSimMeasure m);

typedef struct {
    GbArray(GbSimTask) tasks;     /* matched tasks in A's order */
    GbArray(const char *) only_a; /* ids present only in A (borrowed) */
    GbArray(const char *) only_b; /* ids present only in B (borrowed) */
    GbCodeBleuScore corpus;       /* calc_codebleu over all matched pairs at once (micro-average) */
} GbSimReport;

/* Compare A (reference) with B (prediction). threads <= 0: OpenMP's default. The report
 * borrows ids from a and b: keep them alive while using it. */
void gb_similarity_compare(const GbBench *a, const GbBench *b, const GbCodeBleuOptions *o, int threads,
                           GbSimReport *out);
void gb_sim_report_destroy(GbSimReport *r);
