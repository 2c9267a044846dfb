#include "fitness/fitness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/metrics_internal.h"
#include "src/python/pyparse.h"

static const char *const gb_fitness__keys[GB_METRIC_COUNT] = {
#define GB_METRIC(id, key, kind, short, label) key,
    GB_METRIC_LIST
#undef GB_METRIC
};

static const char *const gb_fitness__labels[GB_METRIC_COUNT] = {
#define GB_METRIC(id, key, kind, short, label) label,
    GB_METRIC_LIST
#undef GB_METRIC
};

const char *gb_metric_key(GbMetricId id)
{
    return id < GB_METRIC_COUNT ? gb_fitness__keys[id] : "?";
}

const char *gb_metric_label(GbMetricId id)
{
    return id < GB_METRIC_COUNT ? gb_fitness__labels[id] : "?";
}

/* Dotted module name of a program module path: "pkg/util.py" -> "pkg.util",
 * "pkg/__init__.py" -> "pkg". Owned string. */
static char *gb_fitness__dotted(const char *path)
{
    size_t n = strlen(path);
    if (n > 3 && strcmp(path + n - 3, ".py") == 0) n -= 3;
    char *s = gb_strndup(path, n);
    for (char *p = s; *p; p++)
        if (*p == '/') *p = '.';
    size_t m = strlen(s);
    if (m >= 9 && strcmp(s + m - 9, ".__init__") == 0) s[m - 9] = '\0';
    return s;
}

typedef struct {
    const char *path;
    const char *src;
    size_t len;
} GbFitnessModule;

static bool gb_fitness__measure(const GbFitnessModule *mods, size_t n, TSParser *parser, const GbMetricsOptions *opts,
                                GbMetrics *out, GbMetricsDetail *detail, GbError *err)
{
    memset(out, 0, sizeof *out);
    if (detail) memset(detail, 0, sizeof *detail);
    GbPyView *views = gb_calloc(n ? n : 1, sizeof *views);
    size_t built = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        size_t bad;
        if (!gb_utf8_valid(mods[i].src, mods[i].len, &bad)) {
            gb_error_set(err, "%s: not valid UTF-8 (byte %zu)", mods[i].path, bad);
            ok = false;
            break;
        }
        TSTree *tree = gb_parse(parser, mods[i].src, mods[i].len);
        unsigned row = 0, col = 0;
        if (!tree || gb_tree_has_error(tree, &row, &col)) {
            gb_error_set(err, "%s:%u:%u: syntax error", mods[i].path, row + 1, col + 1);
            if (tree) ts_tree_delete(tree);
            ok = false;
            break;
        }
        gb_pyview_build(&views[i], tree, mods[i].src, mods[i].len);
        ts_tree_delete(tree);
        built++;
    }
    if (ok) {
        size_t n_extra = opts ? opts->n_own_packages : 0;
        char **own = gb_malloc((n + n_extra + 1) * sizeof *own);
        for (size_t i = 0; i < n; i++) own[i] = gb_fitness__dotted(mods[i].path);
        for (size_t i = 0; i < n_extra; i++) own[n + i] = gb_strdup(opts->own_packages[i]);
        GbMeasured m = {.views = views, .n = n, .own = (const char *const *)own, .n_own = n + n_extra};
        GbTokenizer tk;
        gb_tokenizer_init(&tk);
        out->v[GB_METRIC_C1] = gb_cfg_c1(&m, detail);
        gb_complexity_measure(&m, out, detail);
        gb_readability_measure(&m, &tk, out);
        gb_tokenizer_destroy(&tk);
        for (size_t i = 0; i < n + n_extra; i++) free(own[i]);
        free(own);
    }
    for (size_t i = 0; i < built; i++) gb_pyview_destroy(&views[i]);
    free(views);
    return ok;
}

bool gb_metrics_compute_ex(const GbProgram *prog, TSParser *parser, const GbMetricsOptions *opts, GbMetrics *out,
                           GbMetricsDetail *detail, GbError *err)
{
    size_t n = prog->modules.len;
    GbFitnessModule *mods = gb_malloc((n ? n : 1) * sizeof *mods);
    for (size_t i = 0; i < n; i++) {
        mods[i].path = prog->modules.items[i].path;
        mods[i].src = prog->modules.items[i].source ? prog->modules.items[i].source : "";
        mods[i].len = strlen(mods[i].src);
    }
    bool ok = gb_fitness__measure(mods, n, parser, opts, out, detail, err);
    free(mods);
    return ok;
}

bool gb_metrics_compute(const GbProgram *prog, TSParser *parser, GbMetrics *out, GbError *err)
{
    return gb_metrics_compute_ex(prog, parser, NULL, out, NULL, err);
}

bool gb_metrics_compute_source(const char *path, const char *src, size_t len, TSParser *parser,
                               const GbMetricsOptions *opts, GbMetrics *out, GbMetricsDetail *detail, GbError *err)
{
    GbFitnessModule mod = {.path = path, .src = src, .len = len};
    return gb_fitness__measure(&mod, 1, parser, opts, out, detail, err);
}

/* ---------------------------------------------------------------- fitness */

double gb_fitness_rc(const GbMetrics *m, const GbThresholds *t)
{
    double sum = 0.0;
    int k = 0;
    for (int i = 0; i < GB_N_COMPLEXITY; i++) {
        if (t->ct[i] <= 0.0) continue;
        double r = m->v[i] / t->ct[i];
        sum += r < 1.0 ? r : 1.0;
        k++;
    }
    return k ? sum / k : 0.0;
}

double gb_fitness_rc_balanced(const GbMetrics *m, const GbThresholds *t)
{
    double sum = 0.0;
    int k = 0;
    for (int i = 0; i < GB_N_COMPLEXITY; i++) {
        if (t->ct[i] <= 0.0) continue;
        double r = m->v[i] / t->ct[i];
        sum += sqrt(r < 1.0 ? (r > 0.0 ? r : 0.0) : 1.0);
        k++;
    }
    return k ? sum / k : 0.0;
}

double gb_fitness_rr(const GbMetrics *m, const GbThresholds *t)
{
    double sum = 0.0;
    int k = 0;
    for (int j = 0; j < GB_N_READABILITY; j++) {
        if (t->rt[j] <= 0.0) continue;
        double r = 1.0 - m->v[GB_N_COMPLEXITY + j] / t->rt[j];
        sum += r > 0.0 ? r : 0.0;
        k++;
    }
    return k ? sum / k : 0.0;
}

int gb_fitness_exceeds(const GbMetrics *m, const GbThresholds *t)
{
    for (int j = 0; j < GB_N_READABILITY; j++)
        if (m->v[GB_N_COMPLEXITY + j] > t->rt[j]) return j;
    return -1;
}

static double gb_fitness__round4(double x)
{
    return round(x * 10000.0) / 10000.0;
}

double gb_fitness_rc_ref(const GbMetrics *m, const GbThresholds *t)
{
    double sum = 0.0;
    int k = 0;
    for (int i = 0; i < GB_N_COMPLEXITY; i++) {
        if (t->ct[i] == 0.0) continue;
        sum += m->v[i] / t->ct[i];
        k++;
    }
    return k ? gb_fitness__round4(sum / k) : 0.0;
}

double gb_fitness_rr_ref(const GbMetrics *m, const GbThresholds *t)
{
    double sum = 0.0;
    int k = 0;
    for (int j = 0; j < GB_N_READABILITY; j++) {
        if (t->rt[j] == 0.0) continue;
        sum += 1.0 - m->v[GB_N_COMPLEXITY + j] / t->rt[j];
        k++;
    }
    return k ? gb_fitness__round4(sum / k) : 0.0;
}
