#pragma once
/* Complexity C1–C7, readability R1–R14, and the fitness RC/RR (DESIGN.md §5). All metric
 * functions are pure and thread-safe given one TSParser per thread. */
#include <stdbool.h>

#include <tree_sitter/api.h>

#include "fitness/metric_list.h"
#include "src/program.h"
#include "src/util.h"

typedef enum {
#define GB_METRIC(id, key, kind, label) GB_METRIC_##id,
    GB_METRIC_LIST
#undef GB_METRIC
        GB_METRIC_COUNT
} GbMetricId;

#define GB_N_COMPLEXITY 7
#define GB_N_READABILITY 14

typedef struct {
    double v[GB_METRIC_COUNT]; /* raw values, in metric_list.h order: C1..C7 then R1..R14 */
} GbMetrics;

typedef struct {
    double ct[GB_N_COMPLEXITY];  /* complexity targets CT_i */
    double rt[GB_N_READABILITY]; /* readability thresholds RT_j */
    char *name;                  /* owned: file it came from */
} GbThresholds;

/* Metric key (e.g. "C1", "num_tokens") and human label. */
const char *gb_metric_key(GbMetricId id);
const char *gb_metric_label(GbMetricId id);

/* Compute all 21 metrics of a program (all modules measured as a whole). Returns false
 * with err naming the module and the first syntax error position when a module does not parse. */
bool gb_metrics_compute(const GbProgram *prog, TSParser *parser, GbMetrics *out, GbError *err);

/* Load thresholds from a JSON file (corpora/*.json). */
bool gb_thresholds_load(const char *path, GbThresholds *out, GbError *err);
/* The default thresholds file (the calibrated one) as a path. */
const char *gb_thresholds_default_path(void);
void gb_thresholds_destroy(GbThresholds *t);

/* RC = mean_i min(1, C_i/CT_i); RR = mean_j max(0, 1 - R_j/RT_j) (paper Eq. 1–2). */
double gb_fitness_rc(const GbMetrics *m, const GbThresholds *t);
double gb_fitness_rr(const GbMetrics *m, const GbThresholds *t);
/* Index of the first readability metric with R_j > RT_j (0..13), or -1 when none exceeds. */
int gb_fitness_exceeds(const GbMetrics *m, const GbThresholds *t);
