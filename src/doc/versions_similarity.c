#include "src/doc/versions_similarity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

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

static void gb_vsim__str(GbDocReader *c, const json_t *o, const char *where, const char *key, const char **out)
{
    char *s = NULL;
    gb_doc_string(c, o, where, key, false, &s);
    *out = s;
}

static void gb_vsim__measures(GbDocReader *c, const json_t *o, const char *where, double *v)
{
    for (size_t m = 0; m < GB_VSIM_MEASURES; m++) gb_doc_rate(c, o, where, gb_vsim_measure_keys[m], &v[m]);
}

static void gb_vsim__parse_pair(GbDocReader *c, const json_t *o, const char *where, GbVsimPair *p)
{
    static const char *const keys[] = {"a", "b", "per_task", "summary", NULL};
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"%.*s\": expected an object", (int)strlen(where) - 1, where);
    gb_doc_keys(c, o, where, keys);
    gb_vsim__str(c, o, where, "a", &p->a);
    gb_vsim__str(c, o, where, "b", &p->b);
    const json_t *per = gb_doc_get(c, o, where, "per_task", JSON_ARRAY, "an array");
    for (size_t i = 0; c->ok && i < json_array_size(per); i++) {
        char *w = gb_asprintf("%sper_task[%zu].", where, i);
        const json_t *t = json_array_get(per, i);
        GbVsimTask x = {0};
        if (!json_is_object(t)) gb_doc_fail(c, "\"%.*s\": expected an object", (int)strlen(w) - 1, w);
        gb_doc_keys(c, t, w, gb_vsim__task_keys);
        gb_vsim__str(c, t, w, "id", &x.id);
        gb_vsim__measures(c, t, w, x.v);
        gb_array_push(&p->per_task, x);
        free(w);
    }
    char *sw = gb_asprintf("%ssummary.", where);
    const json_t *sum = gb_doc_get(c, o, where, "summary", JSON_OBJECT, "an object");
    gb_doc_keys(c, sum, sw, gb_vsim__summary_keys);
    for (size_t m = 0; c->ok && m < GB_VSIM_MEASURES; m++) {
        const json_t *s = gb_doc_get(c, sum, sw, gb_vsim_measure_keys[m], JSON_OBJECT, "an object");
        char *w = gb_asprintf("%s%s.", sw, gb_vsim_measure_keys[m]);
        GbVsimStats *st = &p->summary[m];
        double *dest[] = {&st->mean, &st->median, &st->q1, &st->q3, &st->min, &st->max};
        gb_doc_keys(c, s, w, gb_vsim__stat_keys);
        for (size_t k = 0; gb_vsim__stat_keys[k]; k++) gb_doc_rate(c, s, w, gb_vsim__stat_keys[k], dest[k]);
        free(w);
    }
    free(sw);
}

/* One version's three keys of "nnmr": "original_to_<L>", "<L>_to_original", "graded_<L>". */
static void gb_vsim__parse_nnmr_version(GbDocReader *c, const json_t *o, const char *k, GbVsimNnmr *x)
{
    char *k2 = gb_asprintf("%s_to_original", x->label), *k3 = gb_asprintf("graded_%s", x->label);
    gb_doc_rate(c, o, "nnmr.", k, &x->o2h);
    gb_doc_rate(c, o, "nnmr.", k2, &x->h2o);
    const json_t *g = gb_doc_get(c, o, "nnmr.", k3, JSON_OBJECT, "an object");
    static const char *const gkeys[] = {"mean_rank_orig_to_hard", "mean_rank_hard_to_orig",  "displacement_median",
                                        "displacement_mean",      "displacement_at_least_1", NULL};
    char *gw = gb_asprintf("nnmr.%s.", k3);
    gb_doc_keys(c, g, gw, gkeys);
    gb_doc_rate(c, g, gw, "mean_rank_orig_to_hard", &x->mean_rank_o2h);
    gb_doc_rate(c, g, gw, "mean_rank_hard_to_orig", &x->mean_rank_h2o);
    gb_doc_rate(c, g, gw, "displacement_median", &x->displacement_median);
    gb_doc_rate(c, g, gw, "displacement_mean", &x->displacement_mean);
    gb_doc_size(c, g, gw, "displacement_at_least_1", &x->displaced);
    free(gw);
    free(k2);
    free(k3);
}

/* "nnmr": {"embedding", "embedding_source", then per version "original_to_<L>", "<L>_to_original",
 * "graded_<L>"}, or {} when no embedding was made. */
static void gb_vsim__parse_nnmr(GbDocReader *c, const json_t *o, GbVsimDoc *doc)
{
    if (json_object_size(o) == 0) return;
    doc->has_embedding = true;
    gb_vsim__str(c, o, "nnmr.", "embedding", &doc->embedding);
    const json_t *src = gb_doc_get(c, o, "nnmr.", "embedding_source", JSON_OBJECT, "an object");
    if (!src) return;
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
            gb_doc_fail(c, "\"nnmr.embedding_source.%s\": expected a string or an integer", k);
            gb_str_destroy(&s);
            return;
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
            gb_doc_fail(c, "\"nnmr.%s\": unknown key", k);
            return;
        }
        GbVsimNnmr n = {.label = gb_strdup(k + 12)};
        gb_array_push(&doc->nnmr, n);
        gb_vsim__parse_nnmr_version(c, o, k, &doc->nnmr.items[doc->nnmr.len - 1]);
        if (!c->ok) return;
        expect += 3;
    }
    if (json_object_size(o) != expect)
        gb_doc_fail(c, "\"nnmr\": a \"<L>_to_original\" or \"graded_<L>\" key without its \"original_to_<L>\"");
}

bool gb_vsim_doc_parse(const char *text, const char *name, GbVsimDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    GbDocReader c = {.name = name, .err = err, .ok = true};
    json_t *root = gb_doc_parse(&c, text, strlen(text));
    if (!root) return false;
    static const char *const keys[] = {"tokenizer", "pairs", "nnmr", NULL};
    if (!json_is_object(root)) gb_doc_fail(&c, "not a JSON object");
    gb_doc_keys(&c, root, "", keys);
    gb_vsim__str(&c, root, "", "tokenizer", &doc->tokenizer);
    const json_t *pairs = gb_doc_get(&c, root, "", "pairs", JSON_ARRAY, "an array");
    for (size_t i = 0; c.ok && i < json_array_size(pairs); i++) {
        char where[64];
        snprintf(where, sizeof where, "pairs[%zu].", i);
        GbVsimPair p;
        memset(&p, 0, sizeof p);
        gb_vsim__parse_pair(&c, json_array_get(pairs, i), where, &p);
        gb_array_push(&doc->pairs, p);
    }
    const json_t *nnmr = gb_doc_get(&c, root, "", "nnmr", JSON_OBJECT, "an object");
    if (nnmr) gb_vsim__parse_nnmr(&c, nnmr, doc);
    json_decref(root);
    return c.ok;
}
