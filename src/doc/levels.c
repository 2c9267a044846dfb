/* levels.json: writer and parser (levels.h). */
#include "src/doc/levels.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

void gb_levels_doc_destroy(GbLevelsDoc *doc)
{
    if (!doc) return;
    free(doc->input);
    free(doc->by);
    gb_array_free(&doc->rc_targets);
    for (size_t i = 0; i < doc->levels.len; i++) {
        free(doc->levels.items[i].level);
        free(doc->levels.items[i].file);
    }
    gb_array_free(&doc->levels);
    memset(doc, 0, sizeof *doc);
}

static void gb_levels_doc__level(GbStr *o, const GbLevelsDocLevel *l)
{
    bool f = true;
    gb_str_append(o, "{");
    gb_json_key(o, "level", &f);
    gb_json_string(o, l->level);
    gb_json_key(o, "file", &f);
    gb_json_string(o, l->file);
    gb_json_key(o, "tasks", &f);
    gb_json_integer(o, l->tasks);
    gb_json_key(o, "mean_rc", &f);
    gb_json_number(o, l->mean_rc);
    gb_json_key(o, "mean_rr", &f);
    gb_json_number(o, l->mean_rr);
    gb_json_key(o, "mean_tokens", &f);
    gb_json_number(o, l->mean_tokens);
    gb_json_key(o, "mean_lines", &f);
    gb_json_number(o, l->mean_lines);
    gb_json_key(o, "mean_rung", &f);
    gb_json_number(o, l->mean_rung);
    gb_str_append(o, "}");
}

void gb_levels_doc_write(GbStr *out, const GbLevelsDoc *doc)
{
    bool f = true;
    gb_str_append(out, "{");
    gb_json_key(out, "input", &f);
    gb_json_string(out, doc->input);
    gb_json_key(out, "by", &f);
    gb_json_string(out, doc->by);
    gb_json_key(out, "k", &f);
    gb_json_integer(out, doc->k);
    gb_json_key(out, "rc_targets", &f);
    gb_str_append(out, "[");
    for (size_t i = 0; i < doc->rc_targets.len; i++) {
        if (i) gb_str_append(out, ", ");
        gb_json_number(out, doc->rc_targets.items[i]);
    }
    gb_str_append(out, "]");
    gb_json_key(out, "size_budget", &f);
    gb_json_number(out, doc->size_budget);
    gb_json_key(out, "levels", &f);
    gb_str_append(out, "[");
    for (size_t i = 0; i < doc->levels.len; i++) {
        gb_str_append(out, i ? ",\n    " : "\n    ");
        gb_levels_doc__level(out, &doc->levels.items[i]);
    }
    gb_str_append(out, "\n  ]}\n");
}

static void gb_levels_doc__parse_level(GbDocReader *c, const json_t *o, size_t i, GbLevelsDocLevel *l)
{
    static const char *const keys[] = {"level",       "file",       "tasks",     "mean_rc", "mean_rr",
                                       "mean_tokens", "mean_lines", "mean_rung", NULL};
    char *w = gb_asprintf("levels[%zu].", i);
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"levels[%zu]\": expected an object", i);
    gb_doc_keys(c, o, w, keys);
    gb_doc_string(c, o, w, "level", false, &l->level);
    gb_doc_string(c, o, w, "file", false, &l->file);
    gb_doc_long(c, o, w, "tasks", &l->tasks);
    gb_doc_rate(c, o, w, "mean_rc", &l->mean_rc);
    gb_doc_rate(c, o, w, "mean_rr", &l->mean_rr);
    gb_doc_rate(c, o, w, "mean_tokens", &l->mean_tokens);
    gb_doc_rate(c, o, w, "mean_lines", &l->mean_lines);
    gb_doc_rate(c, o, w, "mean_rung", &l->mean_rung);
    free(w);
}

static void gb_levels_doc__parse(GbDocReader *c, const json_t *o, void *arg)
{
    GbLevelsDoc *doc = arg;
    static const char *const keys[] = {"input", "by", "k", "rc_targets", "size_budget", "levels", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_doc_string(c, o, "", "input", false, &doc->input);
    gb_doc_string(c, o, "", "by", false, &doc->by);
    gb_doc_long(c, o, "", "k", &doc->k);
    const json_t *targets = gb_doc_get(c, o, "", "rc_targets", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(targets); i++) {
        const json_t *t = json_array_get(targets, i);
        if (!json_is_number(t) && !json_is_null(t)) gb_doc_fail(c, "\"rc_targets[%zu]\": expected a number or null", i);
        gb_array_push(&doc->rc_targets, json_is_number(t) ? json_number_value(t) : NAN);
    }
    gb_doc_rate(c, o, "", "size_budget", &doc->size_budget);
    const json_t *levels = gb_doc_get(c, o, "", "levels", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(levels); i++) {
        GbLevelsDocLevel l = {0};
        gb_levels_doc__parse_level(c, json_array_get(levels, i), i, &l);
        gb_array_push(&doc->levels, l);
    }
}

bool gb_levels_doc_parse(const char *text, size_t len, const char *name, GbLevelsDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = gb_doc_parse_object(text, len, name, err, gb_levels_doc__parse, doc);
    if (!ok) gb_levels_doc_destroy(doc);
    return ok;
}
