/* The output of `genebench similarity --json`: writer and parser (similarity.h). */
#include "src/doc/similarity.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"
#include "src/python/tokensim.h"

void gb_sim_doc_destroy(GbSimDoc *doc)
{
    if (!doc) return;
    free(doc->reference);
    free(doc->prediction);
    for (size_t i = 0; i < doc->tasks.len; i++) free(doc->tasks.items[i].id);
    gb_array_free(&doc->tasks);
    gb_doc_strings_destroy(&doc->only_in_reference);
    gb_doc_strings_destroy(&doc->only_in_prediction);
    memset(doc, 0, sizeof *doc);
}

static void gb_sim_doc__task(GbStr *out, const GbSimDocTask *t)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_doc_put_string(out, "id", t->id, &first);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        gb_doc_put_number(out, gb_sim_measure_info((GbSimMeasure)m)->command_key, t->v[m], &first);
    }
    gb_doc_put_bool(out, "dataflow_defined", t->dataflow_defined, &first);
    gb_doc_put_bool(out, "dataflow_truncated", t->dataflow_truncated, &first);
    gb_str_append(out, "}");
}

void gb_sim_doc_write(GbStr *out, const GbSimDoc *doc)
{
    bool first = true, f2 = true;
    gb_str_append(out, "{");
    gb_doc_put_string(out, "reference", doc->reference, &first);
    gb_doc_put_string(out, "prediction", doc->prediction, &first);
    gb_json_key(out, "codebleu", &first);
    gb_str_append(out, "{");
    gb_doc_put_string(out, "behaviour", GB_SIM_DOC_BEHAVIOUR, &f2);
    gb_json_key(out, "weights", &f2);
    gb_str_append(out, "[");
    for (int i = 0; i < 4; i++) {
        if (i) gb_str_append(out, ",");
        gb_json_general(out, doc->weights[i], 6);
    }
    gb_str_append(out, "]");
    gb_doc_put_bool(out, "strict_dataflow", doc->strict_dataflow, &f2);
    gb_doc_put_string(out, "ngram_tokenizer", GB_SIM_DOC_NGRAM_TOKENIZER, &f2);
    gb_doc_put_string(out, "grammar", GB_SIM_DOC_GRAMMAR, &f2);
    gb_str_append(out, "}");
    gb_doc_put_string(out, "token_tokenizer", GB_TOKENIZER_NAME, &first);
    gb_json_key(out, "tasks", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < doc->tasks.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_sim_doc__task(out, &doc->tasks.items[i]);
    }
    gb_str_append(out, "]");
    gb_json_key(out, "summary", &first);
    gb_str_append(out, "{");
    f2 = true;
    gb_doc_put_count(out, "n", doc->tasks.len, &f2);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        gb_json_key(out, gb_sim_measure_info((GbSimMeasure)m)->command_key, &f2);
        gb_doc_write_stats(out, &doc->summary[m]);
    }
    gb_str_append(out, "}");
    gb_json_key(out, "corpus", &first);
    gb_str_append(out, "{");
    f2 = true;
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        const GbSimMeasureInfo *info = gb_sim_measure_info((GbSimMeasure)m);
        if (!info->corpus) continue;
        gb_doc_put_number(out, info->command_key, doc->corpus[m], &f2);
    }
    gb_str_append(out, "}");
    gb_json_key(out, "only_in_reference", &first);
    gb_doc_write_strings(out, doc->only_in_reference.items, doc->only_in_reference.len);
    gb_json_key(out, "only_in_prediction", &first);
    gb_doc_write_strings(out, doc->only_in_prediction.items, doc->only_in_prediction.len);
    gb_str_append(out, "}\n");
}

static void gb_sim_doc__parse_codebleu(GbDocReader *c, const json_t *o, GbSimDoc *doc)
{
    static const char *const keys[] = {"behaviour", "weights", "strict_dataflow", "ngram_tokenizer", "grammar", NULL};
    const char *w = "codebleu.";
    const json_t *cb = gb_doc_get(c, o, "", "codebleu", JSON_OBJECT, "an object");
    gb_doc_keys(c, cb, w, keys);
    gb_doc_constant(c, cb, w, "behaviour", GB_SIM_DOC_BEHAVIOUR);
    const json_t *wt = gb_doc_get(c, cb, w, "weights", JSON_ARRAY, "a list");
    if (c->ok && json_array_size(wt) != 4) gb_doc_fail(c, "\"codebleu.weights\": expected 4 numbers");
    for (size_t i = 0; c->ok && i < 4; i++) {
        const json_t *v = json_array_get(wt, i);
        if (!json_is_number(v))
            gb_doc_fail(c, "\"codebleu.weights[%zu]\": expected a number", i);
        else
            doc->weights[i] = json_number_value(v);
    }
    gb_doc_bool(c, cb, w, "strict_dataflow", &doc->strict_dataflow);
    gb_doc_constant(c, cb, w, "ngram_tokenizer", GB_SIM_DOC_NGRAM_TOKENIZER);
    gb_doc_constant(c, cb, w, "grammar", GB_SIM_DOC_GRAMMAR);
}

static void gb_sim_doc__parse_task(GbDocReader *c, const json_t *o, size_t i, GbSimDocTask *t)
{
    const char *keys[GB_SIM_MEASURE_COUNT + 4] = {"id"};
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) keys[1 + m] = gb_sim_measure_info((GbSimMeasure)m)->command_key;
    keys[GB_SIM_MEASURE_COUNT + 1] = "dataflow_defined";
    keys[GB_SIM_MEASURE_COUNT + 2] = "dataflow_truncated";
    keys[GB_SIM_MEASURE_COUNT + 3] = NULL;
    char *w = gb_asprintf("tasks[%zu].", i);
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"tasks[%zu]\": expected an object", i);
    gb_doc_keys(c, o, w, keys);
    gb_doc_string(c, o, w, "id", false, &t->id);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) gb_doc_rate(c, o, w, keys[1 + m], &t->v[m]);
    gb_doc_bool(c, o, w, "dataflow_defined", &t->dataflow_defined);
    gb_doc_bool(c, o, w, "dataflow_truncated", &t->dataflow_truncated);
    free(w);
}

static void gb_sim_doc__parse(GbDocReader *c, const json_t *o, void *arg)
{
    GbSimDoc *doc = arg;
    static const char *const keys[] = {"reference", "prediction", "codebleu",          "token_tokenizer",    "tasks",
                                       "summary",   "corpus",     "only_in_reference", "only_in_prediction", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_doc_string(c, o, "", "reference", false, &doc->reference);
    gb_doc_string(c, o, "", "prediction", false, &doc->prediction);
    gb_sim_doc__parse_codebleu(c, o, doc);
    gb_doc_constant(c, o, "", "token_tokenizer", GB_TOKENIZER_NAME);
    const json_t *tasks = gb_doc_get(c, o, "", "tasks", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(tasks); i++) {
        GbSimDocTask t = {0};
        gb_sim_doc__parse_task(c, json_array_get(tasks, i), i, &t);
        gb_array_push(&doc->tasks, t);
    }
    const char *skeys[GB_SIM_MEASURE_COUNT + 2] = {"n"};
    const char *ckeys[GB_SIM_MEASURE_COUNT + 1] = {0};
    size_t nc = 0;
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        const GbSimMeasureInfo *info = gb_sim_measure_info((GbSimMeasure)m);
        skeys[1 + m] = info->command_key;
        if (info->corpus) ckeys[nc++] = info->command_key;
    }
    skeys[GB_SIM_MEASURE_COUNT + 1] = NULL;
    const json_t *sum = gb_doc_get(c, o, "", "summary", JSON_OBJECT, "an object");
    gb_doc_keys(c, sum, "summary.", skeys);
    size_t n = 0;
    gb_doc_size(c, sum, "summary.", "n", &n);
    if (c->ok && n != doc->tasks.len)
        gb_doc_fail(c, "\"summary.n\" is %zu but \"tasks\" has %zu entries", n, doc->tasks.len);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) gb_doc_stats(c, sum, "summary.", skeys[1 + m], &doc->summary[m]);
    const json_t *corpus = gb_doc_get(c, o, "", "corpus", JSON_OBJECT, "an object");
    gb_doc_keys(c, corpus, "corpus.", ckeys);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        const GbSimMeasureInfo *info = gb_sim_measure_info((GbSimMeasure)m);
        if (info->corpus) gb_doc_rate(c, corpus, "corpus.", info->command_key, &doc->corpus[m]);
    }
    gb_doc_strings(c, o, "", "only_in_reference", &doc->only_in_reference);
    gb_doc_strings(c, o, "", "only_in_prediction", &doc->only_in_prediction);
}

bool gb_sim_doc_parse(const char *text, size_t len, const char *name, GbSimDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = gb_doc_parse_object(text, len, name, err, gb_sim_doc__parse, doc);
    if (!ok) gb_sim_doc_destroy(doc);
    return ok;
}
