/* breaks.json: writer and parser (breaks.h). */
#include "src/doc/breaks.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

static void gb_breaks_doc__levels_destroy(GbBreaksDocLevels *l)
{
    for (size_t i = 0; i < l->len; i++) free(l->items[i].file);
    gb_array_free(l);
}

void gb_breaks_doc_destroy(GbBreaksDoc *doc)
{
    if (!doc) return;
    gb_breaks_doc__levels_destroy(&doc->levels);
    for (size_t i = 0; i < doc->by_format.len; i++) {
        free(doc->by_format.items[i].format);
        gb_breaks_doc__levels_destroy(&doc->by_format.items[i].levels);
    }
    gb_array_free(&doc->by_format);
    for (size_t i = 0; i < doc->items.len; i++) {
        free(doc->items.items[i].task);
        free(doc->items.items[i].item);
        free(doc->items.items[i].verdicts);
        free(doc->items.items[i].operators);
    }
    gb_array_free(&doc->items);
    for (size_t i = 0; i < doc->operators.len; i++) free(doc->operators.items[i].op);
    gb_array_free(&doc->operators);
    free(doc->logistic_tokens.points_at);
    free(doc->logistic_lines.points_at);
    free(doc->points_at);
    memset(doc, 0, sizeof *doc);
}

/* ---- Writing ---- */

static void gb_breaks_doc__ci(GbStr *o, double lo, double hi, bool *f)
{
    gb_json_key(o, "ci95", f);
    gb_str_append(o, "[");
    gb_json_number(o, lo);
    gb_str_append(o, ", ");
    gb_json_number(o, hi);
    gb_str_append(o, "]");
}

static const char *const gb_breaks_doc__level_means[] = {"mean_rc", "mean_rr", "mean_tokens", "mean_lines",
                                                         "mean_rung"};

static void gb_breaks_doc__level(GbStr *o, const GbBreaksDocLevel *L)
{
    bool f = true;
    gb_str_append(o, "{");
    gb_json_key(o, "version", &f);
    gb_json_integer(o, L->version);
    if (L->file) {
        gb_json_key(o, "file", &f);
        gb_json_string(o, L->file);
    }
    gb_json_key(o, "items", &f);
    gb_json_integer(o, L->items);
    gb_json_key(o, "pass_at_1", &f);
    gb_json_number(o, L->pass_at_1);
    gb_breaks_doc__ci(o, L->lo, L->hi, &f);
    double vals[] = {L->mean_rc, L->mean_rr, L->mean_tokens, L->mean_lines, L->mean_rung};
    for (int k = 0; k < 5; k++) {
        gb_json_key(o, gb_breaks_doc__level_means[k], &f);
        gb_json_number(o, vals[k]);
    }
    gb_str_append(o, "}");
}

static void gb_breaks_doc__item(GbStr *o, const GbBreaksDocItem *it)
{
    bool f = true;
    gb_json_key(o, "task", &f);
    gb_json_string(o, it->task);
    gb_json_key(o, "item", &f);
    gb_json_string(o, it->item);
    gb_json_key(o, "verdicts", &f);
    gb_json_string(o, it->verdicts);
    gb_json_key(o, "breaking_version", &f);
    if (!it->breaking_version) {
        gb_str_append(o, "null");
        return;
    }
    gb_json_integer(o, it->breaking_version);
    gb_json_key(o, "rungs", &f);
    gb_str_appendf(o, "[%ld, %ld]", it->rung_from, it->rung_to);
    gb_json_key(o, "operators", &f);
    gb_json_string(o, it->operators ? it->operators : "");
}

static void gb_breaks_doc__op(GbStr *o, const GbBreaksDocOp *op)
{
    bool f = true;
    gb_json_key(o, "op", &f);
    gb_json_string(o, op->op);
    gb_json_key(o, "applied", &f);
    gb_json_integer(o, op->applied);
    gb_json_key(o, "breaking", &f);
    gb_json_integer(o, op->breaking);
    gb_json_key(o, "rate", &f);
    gb_json_number(o, op->rate);
    gb_breaks_doc__ci(o, op->lo, op->hi, &f);
    gb_str_append(o, "}");
}

static const char *const gb_breaks_doc__coef_keys[] = {"beta", "se", "z", NULL};

static void gb_breaks_doc__fit(GbStr *o, const GbBreaksDocFit *r, const char *size_name)
{
    const char *names[3] = {"intercept", "rc", size_name};
    bool f = true;
    gb_str_append(o, "{");
    for (int k = 0; k < 3; k++) {
        gb_json_key(o, names[k], &f);
        bool g = true;
        double v[3] = {r->beta[k], r->se[k], r->z[k]};
        gb_str_append(o, "{");
        for (int j = 0; j < 3; j++) {
            gb_json_key(o, gb_breaks_doc__coef_keys[j], &g);
            gb_json_number(o, v[j]);
        }
        gb_str_append(o, "}");
    }
    gb_json_key(o, "points_at", &f);
    gb_json_string(o, r->points_at);
    gb_str_append(o, "}");
}

static void gb_breaks_doc__pairs(GbStr *o, const GbBreaksDocPairs *m)
{
    bool f = true;
    gb_str_append(o, "{");
    gb_json_key(o, "failures", &f);
    gb_json_integer(o, m->failures);
    gb_json_key(o, "pairs", &f);
    gb_json_integer(o, m->pairs);
    gb_json_key(o, "higher_failed", &f);
    gb_json_integer(o, m->higher_failed);
    gb_json_key(o, "rate", &f);
    gb_json_number(o, m->rate);
    gb_breaks_doc__ci(o, m->lo, m->hi, &f);
    gb_json_key(o, "p", &f);
    gb_json_number(o, m->p);
    gb_json_key(o, "mean_gap", &f);
    gb_json_number(o, m->mean_gap);
    gb_str_append(o, "}");
}

static void gb_breaks_doc__write_levels(GbStr *o, const GbBreaksDoc *doc)
{
    gb_str_append(o, "{\"levels\": [");
    for (size_t v = 0; v < doc->levels.len; v++) {
        gb_str_append(o, v ? ",\n  " : "\n  ");
        gb_breaks_doc__level(o, &doc->levels.items[v]);
    }
    gb_str_append(o, "\n],\n\"by_format\": {");
    for (size_t k = 0; k < doc->by_format.len; k++) {
        const GbBreaksDocFormat *F = &doc->by_format.items[k];
        gb_str_append(o, k ? ",\n  " : "\n  ");
        gb_json_string(o, F->format);
        gb_str_append(o, ": [");
        for (size_t v = 0; v < F->levels.len; v++) {
            if (v) gb_str_append(o, ", ");
            gb_breaks_doc__level(o, &F->levels.items[v]);
        }
        gb_str_append(o, "]");
    }
    gb_str_append(o, "\n},\n\"items\": [");
    for (size_t i = 0; i < doc->items.len; i++) {
        gb_str_append(o, i ? ",\n  {" : "\n  {");
        gb_breaks_doc__item(o, &doc->items.items[i]);
        gb_str_append(o, "}");
    }
    gb_str_append(o, "\n],\n\"operators\": [");
    for (size_t i = 0; i < doc->operators.len; i++) {
        gb_str_append(o, i ? ",\n  {" : "\n  {");
        gb_breaks_doc__op(o, &doc->operators.items[i]);
    }
}

void gb_breaks_doc_write(GbStr *o, const GbBreaksDoc *doc)
{
    gb_breaks_doc__write_levels(o, doc);
    gb_str_append(o, "\n],\n\"rank_test\": {");
    bool f = true;
    gb_json_key(o, "success_to_failure", &f);
    gb_json_integer(o, doc->success_to_failure);
    gb_json_key(o, "success_to_success", &f);
    gb_json_integer(o, doc->success_to_success);
    gb_json_key(o, "median_rc_failure", &f);
    gb_json_number(o, doc->median_rc_failure);
    gb_json_key(o, "median_rc_success", &f);
    gb_json_number(o, doc->median_rc_success);
    gb_json_key(o, "u", &f);
    gb_json_number(o, doc->u);
    gb_json_key(o, "p", &f);
    gb_json_number(o, doc->p);
    gb_str_append(o, "},\n\"complexity_vs_size\": {");
    f = true;
    gb_json_key(o, "n", &f);
    gb_json_integer(o, doc->n);
    gb_json_key(o, "ridge", &f);
    gb_json_number(o, doc->ridge);
    gb_json_key(o, "logistic_tokens", &f);
    gb_breaks_doc__fit(o, &doc->logistic_tokens, "log_tokens");
    gb_json_key(o, "logistic_lines", &f);
    gb_breaks_doc__fit(o, &doc->logistic_lines, "log_lines");
    const char *keys[] = {"auc_rc", "auc_log_tokens", "auc_lines", "size_tolerance", "rc_tolerance"};
    double vals[] = {doc->auc_rc, doc->auc_log_tokens, doc->auc_lines, doc->size_tolerance, doc->rc_tolerance};
    for (int k = 0; k < 5; k++) {
        gb_json_key(o, keys[k], &f);
        gb_json_number(o, vals[k]);
    }
    gb_json_key(o, "rc_at_equal_size", &f);
    gb_breaks_doc__pairs(o, &doc->rc_at_equal_size);
    gb_json_key(o, "lines_at_equal_rc", &f);
    gb_breaks_doc__pairs(o, &doc->lines_at_equal_rc);
    gb_json_key(o, "points_at", &f);
    gb_json_string(o, doc->points_at);
    gb_str_append(o, "}}\n");
}

/* ---- Parsing ---- */

static void gb_breaks_doc__read_ci(GbDocReader *c, const json_t *o, const char *w, double *lo, double *hi)
{
    const json_t *ci = gb_doc_get(c, o, w, "ci95", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < 2; i++) {
        const json_t *x = json_array_get(ci, i);
        if (json_array_size(ci) != 2 || !(json_is_number(x) || json_is_null(x)))
            gb_doc_fail(c, "\"%sci95\": expected two numbers", w);
        else
            *(i ? hi : lo) = json_is_number(x) ? json_number_value(x) : NAN;
    }
}

static void gb_breaks_doc__read_level(GbDocReader *c, const json_t *o, const char *w, bool with_file,
                                      GbBreaksDocLevel *L)
{
    static const char *const keys[] = {"version", "file",        "items",      "pass_at_1", "ci95", "mean_rc",
                                       "mean_rr", "mean_tokens", "mean_lines", "mean_rung", NULL};
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"%s\": expected an object", w);
    gb_doc_keys(c, o, w, keys);
    if (!with_file && c->ok && json_object_get(o, "file")) gb_doc_fail(c, "\"%sfile\": unknown key", w);
    gb_doc_long(c, o, w, "version", &L->version);
    if (with_file) gb_doc_string(c, o, w, "file", false, &L->file);
    gb_doc_long(c, o, w, "items", &L->items);
    gb_doc_rate(c, o, w, "pass_at_1", &L->pass_at_1);
    gb_breaks_doc__read_ci(c, o, w, &L->lo, &L->hi);
    double *vals[] = {&L->mean_rc, &L->mean_rr, &L->mean_tokens, &L->mean_lines, &L->mean_rung};
    for (int k = 0; k < 5; k++) gb_doc_rate(c, o, w, gb_breaks_doc__level_means[k], vals[k]);
}

static void gb_breaks_doc__read_levels(GbDocReader *c, const json_t *list, const char *where, bool with_file,
                                       GbBreaksDocLevels *out)
{
    for (size_t i = 0; c->ok && i < json_array_size(list); i++) {
        GbBreaksDocLevel L = {0};
        char *w = gb_asprintf("%s[%zu].", where, i);
        gb_breaks_doc__read_level(c, json_array_get(list, i), w, with_file, &L);
        free(w);
        gb_array_push(out, L);
    }
}

static void gb_breaks_doc__read_item(GbDocReader *c, const json_t *o, size_t i, GbBreaksDocItem *it)
{
    static const char *const keys[] = {"task", "item", "verdicts", "breaking_version", "rungs", "operators", NULL};
    char *w = gb_asprintf("items[%zu].", i);
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"items[%zu]\": expected an object", i);
    gb_doc_keys(c, o, w, keys);
    gb_doc_string(c, o, w, "task", false, &it->task);
    gb_doc_string(c, o, w, "item", false, &it->item);
    gb_doc_string(c, o, w, "verdicts", false, &it->verdicts);
    const json_t *bv = c->ok ? json_object_get(o, "breaking_version") : NULL;
    if (c->ok && !json_is_null(bv)) {
        gb_doc_long(c, o, w, "breaking_version", &it->breaking_version);
        const json_t *r = gb_doc_get(c, o, w, "rungs", JSON_ARRAY, "a list");
        if (c->ok && (json_array_size(r) != 2 || !json_is_integer(json_array_get(r, 0)) ||
                      !json_is_integer(json_array_get(r, 1))))
            gb_doc_fail(c, "\"%srungs\": expected two integers", w);
        if (c->ok) {
            it->rung_from = (long)json_integer_value(json_array_get(r, 0));
            it->rung_to = (long)json_integer_value(json_array_get(r, 1));
        }
        gb_doc_string(c, o, w, "operators", false, &it->operators);
        if (c->ok && it->breaking_version <= 0) gb_doc_fail(c, "\"%sbreaking_version\": expected at least 1", w);
    } else if (c->ok && (json_object_get(o, "rungs") || json_object_get(o, "operators"))) {
        gb_doc_fail(c, "\"%srungs\": only with a breaking version", w);
    }
    free(w);
}

static void gb_breaks_doc__read_op(GbDocReader *c, const json_t *o, size_t i, GbBreaksDocOp *op)
{
    static const char *const keys[] = {"op", "applied", "breaking", "rate", "ci95", NULL};
    char *w = gb_asprintf("operators[%zu].", i);
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"operators[%zu]\": expected an object", i);
    gb_doc_keys(c, o, w, keys);
    gb_doc_string(c, o, w, "op", false, &op->op);
    gb_doc_long(c, o, w, "applied", &op->applied);
    gb_doc_long(c, o, w, "breaking", &op->breaking);
    gb_doc_rate(c, o, w, "rate", &op->rate);
    gb_breaks_doc__read_ci(c, o, w, &op->lo, &op->hi);
    free(w);
}

static void gb_breaks_doc__read_fit(GbDocReader *c, const json_t *o, const char *key, const char *size_name,
                                    GbBreaksDocFit *r)
{
    const char *keys[] = {"intercept", "rc", size_name, "points_at", NULL};
    const json_t *fit = gb_doc_get(c, o, "complexity_vs_size.", key, JSON_OBJECT, "an object");
    char *w = gb_asprintf("complexity_vs_size.%s.", key);
    gb_doc_keys(c, fit, w, keys);
    for (int k = 0; k < 3; k++) {
        const json_t *coef = gb_doc_get(c, fit, w, keys[k], JSON_OBJECT, "an object");
        char *wk = gb_asprintf("%s%s.", w, keys[k]);
        gb_doc_keys(c, coef, wk, gb_breaks_doc__coef_keys);
        gb_doc_rate(c, coef, wk, "beta", &r->beta[k]);
        gb_doc_rate(c, coef, wk, "se", &r->se[k]);
        gb_doc_rate(c, coef, wk, "z", &r->z[k]);
        free(wk);
    }
    gb_doc_string(c, fit, w, "points_at", false, &r->points_at);
    free(w);
}

static void gb_breaks_doc__read_pairs(GbDocReader *c, const json_t *o, const char *key, GbBreaksDocPairs *m)
{
    static const char *const keys[] = {"failures", "pairs", "higher_failed", "rate", "ci95", "p", "mean_gap", NULL};
    const json_t *p = gb_doc_get(c, o, "complexity_vs_size.", key, JSON_OBJECT, "an object");
    char *w = gb_asprintf("complexity_vs_size.%s.", key);
    gb_doc_keys(c, p, w, keys);
    gb_doc_long(c, p, w, "failures", &m->failures);
    gb_doc_long(c, p, w, "pairs", &m->pairs);
    gb_doc_long(c, p, w, "higher_failed", &m->higher_failed);
    gb_doc_rate(c, p, w, "rate", &m->rate);
    gb_breaks_doc__read_ci(c, p, w, &m->lo, &m->hi);
    gb_doc_rate(c, p, w, "p", &m->p);
    gb_doc_rate(c, p, w, "mean_gap", &m->mean_gap);
    free(w);
}

static void gb_breaks_doc__read_tests(GbDocReader *c, const json_t *o, GbBreaksDoc *doc)
{
    static const char *const rkeys[] = {
        "success_to_failure", "success_to_success", "median_rc_failure", "median_rc_success", "u", "p", NULL};
    const json_t *r = gb_doc_get(c, o, "", "rank_test", JSON_OBJECT, "an object");
    gb_doc_keys(c, r, "rank_test.", rkeys);
    gb_doc_long(c, r, "rank_test.", "success_to_failure", &doc->success_to_failure);
    gb_doc_long(c, r, "rank_test.", "success_to_success", &doc->success_to_success);
    gb_doc_rate(c, r, "rank_test.", "median_rc_failure", &doc->median_rc_failure);
    gb_doc_rate(c, r, "rank_test.", "median_rc_success", &doc->median_rc_success);
    gb_doc_rate(c, r, "rank_test.", "u", &doc->u);
    gb_doc_rate(c, r, "rank_test.", "p", &doc->p);
    static const char *const skeys[] = {"n",
                                        "ridge",
                                        "logistic_tokens",
                                        "logistic_lines",
                                        "auc_rc",
                                        "auc_log_tokens",
                                        "auc_lines",
                                        "size_tolerance",
                                        "rc_tolerance",
                                        "rc_at_equal_size",
                                        "lines_at_equal_rc",
                                        "points_at",
                                        NULL};
    const char *w = "complexity_vs_size.";
    const json_t *s = gb_doc_get(c, o, "", "complexity_vs_size", JSON_OBJECT, "an object");
    gb_doc_keys(c, s, w, skeys);
    gb_doc_long(c, s, w, "n", &doc->n);
    gb_doc_rate(c, s, w, "ridge", &doc->ridge);
    gb_breaks_doc__read_fit(c, s, "logistic_tokens", "log_tokens", &doc->logistic_tokens);
    gb_breaks_doc__read_fit(c, s, "logistic_lines", "log_lines", &doc->logistic_lines);
    gb_doc_rate(c, s, w, "auc_rc", &doc->auc_rc);
    gb_doc_rate(c, s, w, "auc_log_tokens", &doc->auc_log_tokens);
    gb_doc_rate(c, s, w, "auc_lines", &doc->auc_lines);
    gb_doc_rate(c, s, w, "size_tolerance", &doc->size_tolerance);
    gb_doc_rate(c, s, w, "rc_tolerance", &doc->rc_tolerance);
    gb_breaks_doc__read_pairs(c, s, "rc_at_equal_size", &doc->rc_at_equal_size);
    gb_breaks_doc__read_pairs(c, s, "lines_at_equal_rc", &doc->lines_at_equal_rc);
    gb_doc_string(c, s, w, "points_at", false, &doc->points_at);
}

static void gb_breaks_doc__parse(GbDocReader *c, const json_t *o, void *arg)
{
    GbBreaksDoc *doc = arg;
    static const char *const keys[] = {"levels",    "by_format",          "items", "operators",
                                       "rank_test", "complexity_vs_size", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_breaks_doc__read_levels(c, gb_doc_get(c, o, "", "levels", JSON_ARRAY, "a list"), "levels", true, &doc->levels);
    const json_t *bf = gb_doc_get(c, o, "", "by_format", JSON_OBJECT, "an object");
    const char *fmt;
    json_t *list;
    json_object_foreach((json_t *)bf, fmt, list)
    {
        if (!c->ok) break;
        GbBreaksDocFormat F = {gb_strdup(fmt), {0}};
        char *w = gb_asprintf("by_format.%s", fmt);
        if (!json_is_array(list)) gb_doc_fail(c, "\"%s\": expected a list", w);
        gb_breaks_doc__read_levels(c, list, w, false, &F.levels);
        free(w);
        gb_array_push(&doc->by_format, F);
    }
    const json_t *items = gb_doc_get(c, o, "", "items", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(items); i++) {
        GbBreaksDocItem it = {0};
        gb_breaks_doc__read_item(c, json_array_get(items, i), i, &it);
        gb_array_push(&doc->items, it);
    }
    const json_t *ops = gb_doc_get(c, o, "", "operators", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(ops); i++) {
        GbBreaksDocOp op = {0};
        gb_breaks_doc__read_op(c, json_array_get(ops, i), i, &op);
        gb_array_push(&doc->operators, op);
    }
    gb_breaks_doc__read_tests(c, o, doc);
}

bool gb_breaks_doc_parse(const char *text, size_t len, const char *name, GbBreaksDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = gb_doc_parse_object(text, len, name, err, gb_breaks_doc__parse, doc);
    if (!ok) gb_breaks_doc_destroy(doc);
    return ok;
}
