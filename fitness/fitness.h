#pragma once
/* Complexity C1–C7, readability R1–R14, and the fitness RC/RR. All metric
 * functions are pure and thread-safe given one TSParser per thread. */
#include <stdbool.h>

#include <tree_sitter/api.h>

#include "fitness/metric_list.h"
#include "src/model/program.h"
#include "src/base/util.h"

typedef enum {
#define GB_METRIC(id, key, kind, short, label) GB_METRIC_##id,
    GB_METRIC_LIST
#undef GB_METRIC
        GB_METRIC_COUNT
} GbMetricId;

/* How many rows of each kind the list has (complexity rows first, then readability). */
enum {
#define GB_METRIC(id, key, kind, short, label) +((kind) == 'C')
    GB_N_COMPLEXITY = 0 GB_METRIC_LIST,
#undef GB_METRIC
#define GB_METRIC(id, key, kind, short, label) +((kind) == 'R')
    GB_N_READABILITY = 0 GB_METRIC_LIST,
#undef GB_METRIC
};
_Static_assert(GB_N_COMPLEXITY + GB_N_READABILITY == GB_METRIC_COUNT, "every metric is 'C' or 'R'");

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

/* Compute all GB_METRIC_COUNT metrics of a program (all modules measured as a whole). Returns false
 * with err naming the module and the first syntax error position when a module does not parse. */
bool gb_metrics_compute(const GbProgram *prog, TSParser *parser, GbMetrics *out, GbError *err);

/* Load thresholds from a JSON file (corpora/NAME.json). */
bool gb_thresholds_load(const char *path, GbThresholds *out, GbError *err);
/* The default thresholds file (the calibrated one) as a path. */
const char *gb_thresholds_default_path(void);
void gb_thresholds_destroy(GbThresholds *t);

/* RC = mean_i min(1, C_i/CT_i); RR = mean_j max(0, 1 - R_j/RT_j) (paper Eq. 1–2). */
double gb_fitness_rc(const GbMetrics *m, const GbThresholds *t);

/* The balanced complexity score that `evolve --objective balanced` selects by: the mean over the C_i with
 * CT_i > 0 of sqrt(min(1, C_i / CT_i)). Like RC it is 0 for no complexity and 1 when every C_i
 * reaches its threshold, but a dimension's first steps count most (raising a C_i from 0 to 1
 * of CT_i = 16 adds as much as raising another from 4 to 9.5), so no single dimension carries
 * the score. Deviation: the reference has no such score. */
double gb_fitness_rc_balanced(const GbMetrics *m, const GbThresholds *t);
double gb_fitness_rr(const GbMetrics *m, const GbThresholds *t);
/* Index of the first readability metric with R_j > RT_j (0..13), or -1 when none exceeds. */
int gb_fitness_exceeds(const GbMetrics *m, const GbThresholds *t);

/* ---- Additions by the fitness module (append-only) ---- */

/* Counts behind some metrics, for diagnostics and the cross-checks. */
typedef struct {
    unsigned cfg_nodes, cfg_edges, cfg_components; /* C1 = edges - nodes + 2 * components */
    unsigned calls_stdlib, calls_third_party;      /* C5 = calls_stdlib + calls_third_party */
} GbMetricsDetail;

typedef struct {
    /* Extra dotted module names that belong to the program (their calls count as C6), e.g. the
     * top-level package of a file measured by calibrate. Borrowed; may be NULL. */
    const char *const *own_packages;
    size_t n_own_packages;
} GbMetricsOptions;

/* gb_metrics_compute with options (may be NULL) and an optional detail (may be NULL). */
bool gb_metrics_compute_ex(const GbProgram *prog, TSParser *parser, const GbMetricsOptions *opts, GbMetrics *out,
                           GbMetricsDetail *detail, GbError *err);
/* Metrics of one source file measured alone (as a one-module program); path names the file in
 * error messages ("PATH:LINE:COL: syntax error"). */
bool gb_metrics_compute_source(const char *path, const char *src, size_t len, TSParser *parser,
                               const GbMetricsOptions *opts, GbMetrics *out, GbMetricsDetail *detail, GbError *err);

/* The reference implementation's uncapped variants, rounded to 4 decimals (as it stored them):
 * RC_ref = mean_i C_i/CT_i, RR_ref = mean_j (1 - R_j/RT_j), over the metrics whose threshold is
 * not zero. Used to cross-check against the reference's logged values. */
double gb_fitness_rc_ref(const GbMetrics *m, const GbThresholds *t);
double gb_fitness_rr_ref(const GbMetrics *m, const GbThresholds *t);

/* Names accepted by gb_thresholds_load besides file paths: "builtin:paper" and
 * "builtin:calibrated" (also plain "paper" / "calibrated"), the copies of corpora/paper.json and
 * corpora/calibrated.json embedded at build time. gb_thresholds_default_path() returns
 * "builtin:calibrated". */
#define GB_THRESHOLDS_BUILTIN_PREFIX "builtin:"
/* Load thresholds from JSON text (name is used in messages and stored in out->name). */
bool gb_thresholds_parse(const char *name, const char *json, size_t len, GbThresholds *out, GbError *err);
