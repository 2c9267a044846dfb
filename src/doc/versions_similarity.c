#include "src/doc/versions_similarity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_read.h"

/* The measures' keys, once: the public array, the keys of a summary and of a task are made from it. */
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field) key,
#define GB_VSIM__MEASURE_KEYS GB_SIM_MEASURE_LIST
const char *const gb_vsim_measure_keys[GB_VSIM_MEASURES] = {GB_VSIM__MEASURE_KEYS};
static const char *const gb_vsim__summary_keys[] = {GB_VSIM__MEASURE_KEYS NULL};
static const char *const gb_vsim__task_keys[] = {"id", GB_VSIM__MEASURE_KEYS NULL};
#undef GB_SIM_MEASURE

static const char *const gb_vsim__stat_keys[] = {"mean", "median", "q1", "q3", "min", "max", NULL};

static void gb_vsim__stats(GbStr *out, const GbVsimStats *s)
{
    const double v[] = {s->mean, s->median, s->q1, s->q3, s->min, s->max};
    bool first = true;
    gb_str_append(out, "{");
    for (size_t i = 0; gb_vsim__stat_keys[i]; i++) {
        gb_json_key(out, gb_vsim__stat_keys[i], &first);
        gb_json_number(out, v[i]);
    }
    gb_str_append(out, "}");
}

static void gb_vsim__pair(GbStr *out, const GbVsimPair *p)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_json_key(out, "a", &first);
    gb_json_string(out, p->a);
    gb_json_key(out, "b", &first);
    gb_json_string(out, p->b);
    gb_json_key(out, "per_task", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < p->per_task.len; i++) {
        const GbVsimTask *t = &p->per_task.items[i];
        bool f2 = true;
        if (i) gb_str_append(out, ",");
        gb_str_append(out, "{");
        gb_json_key(out, "id", &f2);
        gb_json_string(out, t->id);
        for (size_t m = 0; m < GB_VSIM_MEASURES; m++) {
            gb_json_key(out, gb_vsim_measure_keys[m], &f2);
            gb_json_number(out, t->v[m]);
        }
        gb_str_append(out, "}");
    }
    gb_str_append(out, "]");
    gb_json_key(out, "summary", &first);
    bool f3 = true;
    gb_str_append(out, "{");
    for (size_t m = 0; m < GB_VSIM_MEASURES; m++) {
        gb_json_key(out, gb_vsim_measure_keys[m], &f3);
        gb_vsim__stats(out, &p->summary[m]);
    }
    gb_str_append(out, "}}");
}

static void gb_vsim__nnmr(GbStr *out, const GbVsimNnmr *n)
{
    char *k1 = gb_asprintf("original_to_%s", n->label), *k2 = gb_asprintf("%s_to_original", n->label),
         *k3 = gb_asprintf("graded_%s", n->label);
    bool first = false; /* after "embedding_source" */
    gb_json_key(out, k1, &first);
    gb_json_number(out, n->o2h);
    gb_json_key(out, k2, &first);
    gb_json_number(out, n->h2o);
    gb_json_key(out, k3, &first);
    bool f2 = true;
    gb_str_append(out, "{");
    gb_json_key(out, "mean_rank_orig_to_hard", &f2);
    gb_json_number(out, n->mean_rank_o2h);
    gb_json_key(out, "mean_rank_hard_to_orig", &f2);
    gb_json_number(out, n->mean_rank_h2o);
    gb_json_key(out, "displacement_median", &f2);
    gb_json_number(out, n->displacement_median);
    gb_json_key(out, "displacement_mean", &f2);
    gb_json_number(out, n->displacement_mean);
    gb_json_key(out, "displacement_at_least_1", &f2);
    gb_str_appendf(out, "%zu}", n->displaced);
    free(k1);
    free(k2);
    free(k3);
}

void gb_vsim_doc_write(GbStr *out, const GbVsimDoc *doc)
{
    gb_str_append(out, "{\"tokenizer\":");
    gb_json_string(out, doc->tokenizer);
    gb_str_append(out, ",\"pairs\":[");
    for (size_t i = 0; i < doc->pairs.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_vsim__pair(out, &doc->pairs.items[i]);
    }
    gb_str_append(out, "],\"nnmr\":{");
    if (doc->has_embedding) {
        gb_str_append(out, "\"embedding\":");
        gb_json_string(out, doc->embedding);
        gb_str_append(out, ",\"embedding_source\":");
        gb_str_append(out, doc->embedding_source ? doc->embedding_source : "{}");
        for (size_t i = 0; i < doc->nnmr.len; i++) gb_vsim__nnmr(out, &doc->nnmr.items[i]);
    }
    gb_str_append(out, "}}\n");
}

void gb_vsim_doc_release(GbVsimDoc *doc)
{
    for (size_t i = 0; i < doc->pairs.len; i++) gb_array_free(&doc->pairs.items[i].per_task);
    gb_array_free(&doc->pairs);
    gb_array_free(&doc->nnmr);
}

void gb_vsim_doc_destroy(GbVsimDoc *doc)
{
    if (!doc) return;
    free((char *)doc->tokenizer);
    for (size_t i = 0; i < doc->pairs.len; i++) {
        GbVsimPair *p = &doc->pairs.items[i];
        free((char *)p->a);
        free((char *)p->b);
        for (size_t t = 0; t < p->per_task.len; t++) free((char *)p->per_task.items[t].id);
    }
    free((char *)doc->embedding);
    free((char *)doc->embedding_source);
    for (size_t i = 0; i < doc->nnmr.len; i++) free((char *)doc->nnmr.items[i].label);
    gb_vsim_doc_release(doc);
    memset(doc, 0, sizeof *doc);
}

static bool gb_vsim__str(const json_t *o, const char *key, const char *where, const char **out, GbError *err)
{
    char *s = NULL;
    bool ok = gb_doc_read_string(o, key, false, where, &s, err);
    *out = s;
    return ok;
}

static bool gb_vsim__measures(const json_t *o, const char *where, double *v, GbError *err)
{
    for (size_t m = 0; m < GB_VSIM_MEASURES; m++)
        if (!gb_doc_read_number(o, gb_vsim_measure_keys[m], true, where, &v[m], err)) return false;
    return true;
}

static bool gb_vsim__parse_pair(const json_t *o, const char *where, GbVsimPair *p, GbError *err)
{
    static const char *const keys[] = {"a", "b", "per_task", "summary", NULL};
    if (!json_is_object(o)) {
        gb_error_set(err, "%s: must be an object", where);
        return false;
    }
    if (!gb_doc_only_keys(o, keys, where, err) || !gb_vsim__str(o, "a", where, &p->a, err) ||
        !gb_vsim__str(o, "b", where, &p->b, err))
        return false;
    const json_t *per = gb_doc_read_typed(o, "per_task", JSON_ARRAY, where, err);
    if (!per) return false;
    for (size_t i = 0; i < json_array_size(per); i++) {
        char w[1024];
        snprintf(w, sizeof w, "%s \"per_task\"[%zu]", where, i);
        const json_t *t = json_array_get(per, i);
        GbVsimTask x = {0};
        bool ok = json_is_object(t);
        if (!ok) gb_error_set(err, "%s: must be an object", w);
        ok = ok && gb_doc_only_keys(t, gb_vsim__task_keys, w, err) && gb_vsim__str(t, "id", w, &x.id, err) &&
             gb_vsim__measures(t, w, x.v, err);
        gb_array_push(&p->per_task, x);
        if (!ok) return false;
    }
    const json_t *sum = gb_doc_read_typed(o, "summary", JSON_OBJECT, where, err);
    if (!sum || !gb_doc_only_keys(sum, gb_vsim__summary_keys, where, err)) return false;
    for (size_t m = 0; m < GB_VSIM_MEASURES; m++) {
        char w[1024];
        snprintf(w, sizeof w, "%s \"summary\"", where);
        const json_t *s = gb_doc_read_typed(sum, gb_vsim_measure_keys[m], JSON_OBJECT, w, err);
        if (!s) return false;
        snprintf(w, sizeof w, "%s \"summary\".\"%s\"", where, gb_vsim_measure_keys[m]);
        GbVsimStats *st = &p->summary[m];
        double *dest[] = {&st->mean, &st->median, &st->q1, &st->q3, &st->min, &st->max};
        if (!gb_doc_only_keys(s, gb_vsim__stat_keys, w, err)) return false;
        for (size_t k = 0; gb_vsim__stat_keys[k]; k++)
            if (!gb_doc_read_number(s, gb_vsim__stat_keys[k], true, w, dest[k], err)) return false;
    }
    return true;
}

/* "nnmr": {"embedding", "embedding_source", then per version "original_to_<L>", "<L>_to_original",
 * "graded_<L>"}, or {} when no embedding was made. */
static bool gb_vsim__parse_nnmr(const json_t *o, const char *name, GbVsimDoc *doc, GbError *err)
{
    char where[512];
    snprintf(where, sizeof where, "%s: \"nnmr\"", name);
    if (json_object_size(o) == 0) return true;
    doc->has_embedding = true;
    char *emb = NULL;
    if (!gb_doc_read_string(o, "embedding", false, where, &emb, err)) return false;
    doc->embedding = emb;
    const json_t *src = gb_doc_read_typed(o, "embedding_source", JSON_OBJECT, where, err);
    if (!src) return false;
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "{");
    bool first = true;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)src, k, v)
    {
        gb_json_key(&s, k, &first);
        if (json_is_string(v)) {
            gb_json_string(&s, json_string_value(v));
        } else if (json_is_integer(v)) {
            gb_json_integer(&s, json_integer_value(v));
        } else {
            gb_error_set(err, "%s: \"embedding_source\".\"%s\" must be a string or an integer", where, k);
            gb_str_destroy(&s);
            return false;
        }
    }
    gb_str_append(&s, "}");
    doc->embedding_source = gb_str_take(&s);
    size_t expect = 2;
    json_object_foreach((json_t *)o, k, v)
    {
        if (strcmp(k, "embedding") == 0 || strcmp(k, "embedding_source") == 0) continue;
        if (strncmp(k, "original_to_", 12) != 0) {
            if (strstr(k, "_to_original") || strncmp(k, "graded_", 7) == 0) continue; /* checked with its version */
            gb_error_set(err, "%s: unknown key \"%s\"", where, k);
            return false;
        }
        GbVsimNnmr n = {.label = gb_strdup(k + 12)};
        gb_array_push(&doc->nnmr, n);
        GbVsimNnmr *x = &doc->nnmr.items[doc->nnmr.len - 1];
        char *k2 = gb_asprintf("%s_to_original", x->label), *k3 = gb_asprintf("graded_%s", x->label);
        const json_t *g = NULL;
        bool ok = gb_doc_read_number(o, k, true, where, &x->o2h, err) &&
                  gb_doc_read_number(o, k2, true, where, &x->h2o, err) &&
                  (g = gb_doc_read_typed(o, k3, JSON_OBJECT, where, err)) != NULL;
        if (ok) {
            static const char *const gkeys[] = {"mean_rank_orig_to_hard",  "mean_rank_hard_to_orig",
                                                "displacement_median",     "displacement_mean",
                                                "displacement_at_least_1", NULL};
            char *gw = gb_asprintf("%s.\"%s\"", where, k3);
            long long d = 0;
            ok = gb_doc_only_keys(g, gkeys, gw, err) &&
                 gb_doc_read_number(g, "mean_rank_orig_to_hard", true, gw, &x->mean_rank_o2h, err) &&
                 gb_doc_read_number(g, "mean_rank_hard_to_orig", true, gw, &x->mean_rank_h2o, err) &&
                 gb_doc_read_number(g, "displacement_median", true, gw, &x->displacement_median, err) &&
                 gb_doc_read_number(g, "displacement_mean", true, gw, &x->displacement_mean, err) &&
                 gb_doc_read_integer(g, "displacement_at_least_1", gw, &d, err);
            if (ok && d < 0) {
                gb_error_set(err, "%s: \"displacement_at_least_1\" must not be negative", gw);
                ok = false;
            }
            x->displaced = (size_t)d;
            free(gw);
        }
        free(k2);
        free(k3);
        if (!ok) return false;
        expect += 3;
    }
    if (json_object_size(o) != expect) {
        gb_error_set(err, "%s: a \"<L>_to_original\" or \"graded_<L>\" key without its \"original_to_<L>\"", where);
        return false;
    }
    return true;
}

bool gb_vsim_doc_parse(const char *text, const char *name, GbVsimDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    json_t *root = gb_doc_load(text, strlen(text), name, err);
    if (!root) return false;
    static const char *const keys[] = {"tokenizer", "pairs", "nnmr", NULL};
    bool ok = json_is_object(root);
    if (!ok) gb_error_set(err, "%s: not a JSON object", name);
    ok = ok && gb_doc_only_keys(root, keys, name, err) && gb_vsim__str(root, "tokenizer", name, &doc->tokenizer, err);
    const json_t *pairs = ok ? gb_doc_read_typed(root, "pairs", JSON_ARRAY, name, err) : NULL;
    ok = ok && pairs;
    for (size_t i = 0; ok && i < json_array_size(pairs); i++) {
        char where[512];
        snprintf(where, sizeof where, "%s: \"pairs\"[%zu]", name, i);
        GbVsimPair p;
        memset(&p, 0, sizeof p);
        ok = gb_vsim__parse_pair(json_array_get(pairs, i), where, &p, err);
        gb_array_push(&doc->pairs, p);
    }
    const json_t *nnmr = ok ? gb_doc_read_typed(root, "nnmr", JSON_OBJECT, name, err) : NULL;
    ok = ok && nnmr && gb_vsim__parse_nnmr(nnmr, name, doc, err);
    json_decref(root);
    return ok;
}
