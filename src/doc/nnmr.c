/* The output of `genebench nnmr --json`: writer and parser (nnmr.h). */
#include "src/doc/nnmr.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

void gb_nnmr_doc_destroy(GbNnmrDoc *doc)
{
    if (!doc) return;
    free(doc->original);
    free(doc->hardened);
    free(doc->embedding);
    free(doc->embedding_source);
    for (size_t i = 0; i < doc->tasks.len; i++) {
        GbNnmrDocTask *t = &doc->tasks.items[i];
        free(t->id);
        free(t->nearest_hard_of_orig);
        free(t->nearest_orig_of_hard);
    }
    gb_array_free(&doc->tasks);
    gb_doc_strings_destroy(&doc->only_in_original);
    gb_doc_strings_destroy(&doc->only_in_hardened);
    memset(doc, 0, sizeof *doc);
}

static void gb_nnmr_doc__task(GbStr *out, const GbNnmrDocTask *t)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_doc_put_string(out, "id", t->id, &first);
    gb_doc_put_number(out, "counterpart_cosine", t->counterpart_cosine, &first);
    gb_doc_put_string(out, "nearest_hard_of_orig", t->nearest_hard_of_orig, &first);
    gb_doc_put_string(out, "nearest_orig_of_hard", t->nearest_orig_of_hard, &first);
    gb_doc_put_count(out, "rank_orig_to_hard", t->rank_orig_to_hard, &first);
    gb_doc_put_count(out, "rank_hard_to_orig", t->rank_hard_to_orig, &first);
    gb_doc_put_number(out, "displacement", t->displacement, &first);
    gb_str_append(out, "}");
}

void gb_nnmr_doc_write(GbStr *out, const GbNnmrDoc *doc)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_doc_put_string(out, "original", doc->original, &first);
    gb_doc_put_string(out, "hardened", doc->hardened, &first);
    gb_doc_put_count(out, "n", doc->n, &first);
    gb_doc_put_string(out, "metric", GB_NNMR_DOC_METRIC, &first);
    gb_doc_put_string(out, "gallery", GB_NNMR_DOC_GALLERY, &first);
    gb_doc_put_string(out, "ties", GB_NNMR_DOC_TIES, &first);
    gb_doc_put_string(out, "embedding", doc->embedding, &first);
    gb_json_key(out, "embedding_source", &first);
    gb_str_append(out, doc->embedding_source ? doc->embedding_source : "{}");
    gb_doc_put_number(out, "nnmr_orig_to_hard", doc->nnmr_orig_to_hard, &first);
    gb_doc_put_count(out, "misses_orig_to_hard", doc->misses_orig_to_hard, &first);
    gb_doc_put_number(out, "nnmr_hard_to_orig", doc->nnmr_hard_to_orig, &first);
    gb_doc_put_count(out, "misses_hard_to_orig", doc->misses_hard_to_orig, &first);
    gb_doc_put_number(out, "mean_rank_orig_to_hard", doc->mean_rank_orig_to_hard, &first);
    gb_doc_put_number(out, "mean_rank_hard_to_orig", doc->mean_rank_hard_to_orig, &first);
    gb_json_key(out, "displacement", &first);
    bool f2 = true;
    gb_str_append(out, "{");
    gb_doc_put_number(out, "median", doc->displacement_median, &f2);
    gb_doc_put_number(out, "mean", doc->displacement_mean, &f2);
    gb_doc_put_count(out, "at_least_1", doc->displaced, &f2);
    gb_str_append(out, "}");
    gb_json_key(out, "counterpart_cosine", &first);
    f2 = true;
    gb_str_append(out, "{");
    gb_doc_put_number(out, "mean", doc->counterpart_cosine_mean, &f2);
    gb_doc_put_number(out, "median", doc->counterpart_cosine_median, &f2);
    gb_str_append(out, "}");
    gb_json_key(out, "tasks", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < doc->tasks.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_nnmr_doc__task(out, &doc->tasks.items[i]);
    }
    gb_str_append(out, "]");
    gb_json_key(out, "only_in_original", &first);
    gb_doc_write_strings(out, doc->only_in_original.items, doc->only_in_original.len);
    gb_json_key(out, "only_in_hardened", &first);
    gb_doc_write_strings(out, doc->only_in_hardened.items, doc->only_in_hardened.len);
    gb_str_append(out, "}\n");
}

static void gb_nnmr_doc__parse_task(GbDocReader *c, const json_t *o, size_t i, GbNnmrDocTask *t)
{
    static const char *const keys[] = {"id",
                                       "counterpart_cosine",
                                       "nearest_hard_of_orig",
                                       "nearest_orig_of_hard",
                                       "rank_orig_to_hard",
                                       "rank_hard_to_orig",
                                       "displacement",
                                       NULL};
    char *w = gb_asprintf("tasks[%zu].", i);
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"tasks[%zu]\": expected an object", i);
    gb_doc_keys(c, o, w, keys);
    gb_doc_string(c, o, w, "id", false, &t->id);
    gb_doc_rate(c, o, w, "counterpart_cosine", &t->counterpart_cosine);
    gb_doc_string(c, o, w, "nearest_hard_of_orig", false, &t->nearest_hard_of_orig);
    gb_doc_string(c, o, w, "nearest_orig_of_hard", false, &t->nearest_orig_of_hard);
    gb_doc_size(c, o, w, "rank_orig_to_hard", &t->rank_orig_to_hard);
    gb_doc_size(c, o, w, "rank_hard_to_orig", &t->rank_hard_to_orig);
    gb_doc_rate(c, o, w, "displacement", &t->displacement);
    free(w);
}

static void gb_nnmr_doc__parse(GbDocReader *c, const json_t *o, void *arg)
{
    GbNnmrDoc *doc = arg;
    static const char *const keys[] = {"original",
                                       "hardened",
                                       "n",
                                       "metric",
                                       "gallery",
                                       "ties",
                                       "embedding",
                                       "embedding_source",
                                       "nnmr_orig_to_hard",
                                       "misses_orig_to_hard",
                                       "nnmr_hard_to_orig",
                                       "misses_hard_to_orig",
                                       "mean_rank_orig_to_hard",
                                       "mean_rank_hard_to_orig",
                                       "displacement",
                                       "counterpart_cosine",
                                       "tasks",
                                       "only_in_original",
                                       "only_in_hardened",
                                       NULL};
    gb_doc_keys(c, o, "", keys);
    gb_doc_string(c, o, "", "original", false, &doc->original);
    gb_doc_string(c, o, "", "hardened", false, &doc->hardened);
    gb_doc_size(c, o, "", "n", &doc->n);
    gb_doc_constant(c, o, "", "metric", GB_NNMR_DOC_METRIC);
    gb_doc_constant(c, o, "", "gallery", GB_NNMR_DOC_GALLERY);
    gb_doc_constant(c, o, "", "ties", GB_NNMR_DOC_TIES);
    gb_doc_string(c, o, "", "embedding", false, &doc->embedding);
    gb_doc_flat_object(c, o, "", "embedding_source", &doc->embedding_source);
    gb_doc_rate(c, o, "", "nnmr_orig_to_hard", &doc->nnmr_orig_to_hard);
    gb_doc_size(c, o, "", "misses_orig_to_hard", &doc->misses_orig_to_hard);
    gb_doc_rate(c, o, "", "nnmr_hard_to_orig", &doc->nnmr_hard_to_orig);
    gb_doc_size(c, o, "", "misses_hard_to_orig", &doc->misses_hard_to_orig);
    gb_doc_rate(c, o, "", "mean_rank_orig_to_hard", &doc->mean_rank_orig_to_hard);
    gb_doc_rate(c, o, "", "mean_rank_hard_to_orig", &doc->mean_rank_hard_to_orig);
    static const char *const dkeys[] = {"median", "mean", "at_least_1", NULL};
    const json_t *d = gb_doc_get(c, o, "", "displacement", JSON_OBJECT, "an object");
    gb_doc_keys(c, d, "displacement.", dkeys);
    gb_doc_rate(c, d, "displacement.", "median", &doc->displacement_median);
    gb_doc_rate(c, d, "displacement.", "mean", &doc->displacement_mean);
    gb_doc_size(c, d, "displacement.", "at_least_1", &doc->displaced);
    static const char *const ckeys[] = {"mean", "median", NULL};
    const json_t *cc = gb_doc_get(c, o, "", "counterpart_cosine", JSON_OBJECT, "an object");
    gb_doc_keys(c, cc, "counterpart_cosine.", ckeys);
    gb_doc_rate(c, cc, "counterpart_cosine.", "mean", &doc->counterpart_cosine_mean);
    gb_doc_rate(c, cc, "counterpart_cosine.", "median", &doc->counterpart_cosine_median);
    const json_t *tasks = gb_doc_get(c, o, "", "tasks", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(tasks); i++) {
        GbNnmrDocTask t = {0};
        gb_nnmr_doc__parse_task(c, json_array_get(tasks, i), i, &t);
        gb_array_push(&doc->tasks, t);
    }
    if (c->ok && doc->tasks.len != doc->n)
        gb_doc_fail(c, "\"n\" is %zu but \"tasks\" has %zu entries", doc->n, doc->tasks.len);
    gb_doc_strings(c, o, "", "only_in_original", &doc->only_in_original);
    gb_doc_strings(c, o, "", "only_in_hardened", &doc->only_in_hardened);
}

bool gb_nnmr_doc_parse(const char *text, size_t len, const char *name, GbNnmrDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = gb_doc_parse_object(text, len, name, err, gb_nnmr_doc__parse, doc);
    if (!ok) gb_nnmr_doc_destroy(doc);
    return ok;
}
