#include "src/doc/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_read.h"

static const char *const gb_compare__words[GB_COMPARE_COUNT + 1] = {"agree",   "disagree", "slower", "noinput",
                                                                    "missing", "error",    NULL};

const char *gb_compare_status_word(GbCompareStatus s)
{
    return gb_compare__words[s];
}

static bool gb_compare__has_run(GbCompareStatus s)
{
    return s == GB_COMPARE_AGREE || s == GB_COMPARE_DISAGREE || s == GB_COMPARE_SLOWER;
}

static void gb_compare__count(GbStr *s, const char *key, size_t v, bool *first)
{
    gb_json_key(s, key, first);
    gb_json_number(s, (double)v);
}

static void gb_compare__task(GbStr *s, const GbCompareDocTask *x)
{
    bool first = true;
    gb_str_append(s, "{");
    gb_json_key(s, "id", &first);
    gb_json_string(s, x->id);
    gb_json_key(s, "status", &first);
    gb_json_string(s, gb_compare__words[x->status]);
    gb_compare__count(s, "derived", x->derived, &first);
    gb_compare__count(s, "inputs", x->inputs, &first);
    gb_compare__count(s, "large", x->large, &first);
    if (gb_compare__has_run(x->status)) {
        gb_compare__count(s, "agreed", x->agreed, &first);
        gb_compare__count(s, "checked", x->checked, &first);
        const char *keys[] = {"cost_a_s", "cost_b_s", "wall_a_s", "wall_b_s"};
        const double v[] = {x->cost_a_s, x->cost_b_s, x->wall_a_s, x->wall_b_s};
        for (int k = 0; k < 4; k++) {
            gb_json_key(s, keys[k], &first);
            gb_json_number(s, v[k]);
        }
        if (x->probe_failed) {
            gb_json_key(s, "probe_failed", &first);
            gb_json_string(s, x->probe_failed);
        }
        if (x->has_first) {
            gb_json_key(s, "first", &first);
            bool f2 = true;
            gb_str_append(s, "{");
            gb_json_key(s, "index", &f2);
            gb_json_number(s, (double)x->first_index);
            gb_json_key(s, "input", &f2);
            gb_json_string(s, x->first_input);
            gb_json_key(s, "a", &f2);
            gb_json_string(s, x->first_a);
            gb_json_key(s, "b", &f2);
            gb_json_string(s, x->first_b);
            gb_str_append(s, "}");
        }
        if (x->branches > 0) {
            gb_json_key(s, "coverage", &first);
            bool f2 = true;
            gb_str_append(s, "{");
            gb_compare__count(s, "branches", x->branches, &f2);
            gb_compare__count(s, "covered", x->covered, &f2);
            gb_compare__count(s, "before", x->covered_before, &f2);
            gb_json_key(s, "uncovered", &f2);
            gb_json_string(s, x->uncovered ? x->uncovered : "");
            gb_str_append(s, "}");
        }
    }
    if (x->error) {
        gb_json_key(s, "error", &first);
        gb_json_string(s, x->error);
    }
    gb_str_append(s, "}");
}

void gb_compare_doc_write(GbStr *out, const GbCompareDoc *doc)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_json_key(out, "a", &first);
    gb_json_string(out, doc->a);
    gb_json_key(out, "b", &first);
    gb_json_string(out, doc->b);
    gb_json_key(out, "seed", &first);
    gb_json_number(out, doc->seed);
    gb_json_key(out, "tasks", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < doc->tasks.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_compare__task(out, &doc->tasks.items[i]);
    }
    gb_str_append(out, "]");
    gb_json_key(out, "summary", &first);
    bool f2 = true;
    gb_str_append(out, "{");
    gb_compare__count(out, "tasks", doc->tasks.len, &f2);
    gb_compare__count(out, "with_inputs", doc->with_inputs, &f2);
    gb_compare__count(out, "inputs", doc->inputs, &f2);
    gb_compare__count(out, "inputs_checked", doc->inputs_checked, &f2);
    gb_compare__count(out, "inputs_agreed", doc->inputs_agreed, &f2);
    for (int k = 0; k < GB_COMPARE_COUNT; k++) gb_compare__count(out, gb_compare__words[k], doc->count[k], &f2);
    gb_str_append(out, "}}\n");
}

void gb_compare_doc_destroy(GbCompareDoc *doc)
{
    if (!doc) return;
    free((char *)doc->a);
    free((char *)doc->b);
    for (size_t i = 0; i < doc->tasks.len; i++) {
        GbCompareDocTask *t = &doc->tasks.items[i];
        free((char *)t->id);
        free((char *)t->probe_failed);
        free((char *)t->first_input);
        free((char *)t->first_a);
        free((char *)t->first_b);
        free((char *)t->uncovered);
        free((char *)t->error);
    }
    gb_array_free(&doc->tasks);
    memset(doc, 0, sizeof *doc);
}

static bool gb_compare__str(const json_t *o, const char *key, bool optional, const char *where, const char **out,
                            GbError *err)
{
    *out = NULL;
    if (optional && !json_object_get(o, key)) return true;
    char *s = NULL;
    bool ok = gb_doc_read_string(o, key, false, where, &s, err);
    *out = s;
    return ok;
}

static bool gb_compare__size(const json_t *o, const char *key, const char *where, size_t *out, GbError *err)
{
    long long v = 0;
    if (!gb_doc_read_integer(o, key, where, &v, err)) return false;
    if (v < 0) {
        gb_error_set(err, "%s: \"%s\" must not be negative", where, key);
        return false;
    }
    *out = (size_t)v;
    return true;
}

static bool gb_compare__parse_task(const json_t *o, const char *where, GbCompareDocTask *x, GbError *err)
{
    static const char *const keys[] = {"id",      "status",   "derived",  "inputs",   "large",    "agreed",
                                       "checked", "cost_a_s", "cost_b_s", "wall_a_s", "wall_b_s", "probe_failed",
                                       "first",   "error",    "coverage", NULL};
    if (!json_is_object(o)) {
        gb_error_set(err, "%s: must be an object", where);
        return false;
    }
    const char *status = NULL;
    bool ok = gb_doc_only_keys(o, keys, where, err) && gb_compare__str(o, "id", false, where, &x->id, err) &&
              gb_compare__str(o, "status", false, where, &status, err);
    if (ok) {
        int k = 0;
        while (k < GB_COMPARE_COUNT && strcmp(gb_compare__words[k], status) != 0) k++;
        if (k == GB_COMPARE_COUNT) {
            gb_error_set(err, "%s: \"status\" is \"%s\", which genebench compare does not write", where, status);
            ok = false;
        }
        x->status = (GbCompareStatus)k;
    }
    free((char *)status);
    ok = ok && gb_compare__size(o, "derived", where, &x->derived, err) &&
         gb_compare__size(o, "inputs", where, &x->inputs, err) && gb_compare__size(o, "large", where, &x->large, err) &&
         gb_compare__str(o, "error", true, where, &x->error, err);
    if (!ok) return false;
    if (!gb_compare__has_run(x->status)) {
        static const char *const bare[] = {"id", "status", "derived", "inputs", "large", "error", NULL};
        char *w = gb_asprintf("%s (status %s)", where, gb_compare__words[x->status]);
        ok = gb_doc_only_keys(o, bare, w, err);
        free(w);
        return ok;
    }
    ok = gb_compare__size(o, "agreed", where, &x->agreed, err) &&
         gb_compare__size(o, "checked", where, &x->checked, err) &&
         gb_doc_read_number(o, "cost_a_s", true, where, &x->cost_a_s, err) &&
         gb_doc_read_number(o, "cost_b_s", true, where, &x->cost_b_s, err) &&
         gb_doc_read_number(o, "wall_a_s", true, where, &x->wall_a_s, err) &&
         gb_doc_read_number(o, "wall_b_s", true, where, &x->wall_b_s, err) &&
         gb_compare__str(o, "probe_failed", true, where, &x->probe_failed, err);
    if (ok && json_object_get(o, "coverage")) {
        const json_t *c = gb_doc_read_typed(o, "coverage", JSON_OBJECT, where, err);
        static const char *const ckeys[] = {"branches", "covered", "before", "uncovered", NULL};
        char *w = gb_asprintf("%s \"coverage\"", where);
        ok = c && gb_doc_only_keys(c, ckeys, w, err) && gb_compare__size(c, "branches", w, &x->branches, err) &&
             gb_compare__size(c, "covered", w, &x->covered, err) &&
             gb_compare__size(c, "before", w, &x->covered_before, err) &&
             gb_compare__str(c, "uncovered", false, w, &x->uncovered, err);
        free(w);
    }
    if (!ok || !json_object_get(o, "first")) return ok;
    const json_t *f = gb_doc_read_typed(o, "first", JSON_OBJECT, where, err);
    if (!f) return false;
    static const char *const fkeys[] = {"index", "input", "a", "b", NULL};
    char *w = gb_asprintf("%s \"first\"", where);
    long long idx = 0;
    x->has_first = true;
    ok = gb_doc_only_keys(f, fkeys, w, err) && gb_doc_read_integer(f, "index", w, &idx, err) &&
         gb_compare__str(f, "input", false, w, &x->first_input, err) &&
         gb_compare__str(f, "a", false, w, &x->first_a, err) && gb_compare__str(f, "b", false, w, &x->first_b, err);
    x->first_index = (long)idx;
    free(w);
    return ok;
}

static bool gb_compare__parse_summary(const json_t *s, const char *where, GbCompareDoc *doc, GbError *err)
{
    static const char *const keys[] = {"tasks",    "with_inputs", "inputs",  "inputs_checked", "inputs_agreed", "agree",
                                       "disagree", "slower",      "noinput", "missing",        "error",         NULL};
    size_t tasks = 0;
    if (!gb_doc_only_keys(s, keys, where, err) || !gb_compare__size(s, "tasks", where, &tasks, err) ||
        !gb_compare__size(s, "with_inputs", where, &doc->with_inputs, err) ||
        !gb_compare__size(s, "inputs", where, &doc->inputs, err) ||
        !gb_compare__size(s, "inputs_checked", where, &doc->inputs_checked, err) ||
        !gb_compare__size(s, "inputs_agreed", where, &doc->inputs_agreed, err))
        return false;
    size_t seen[GB_COMPARE_COUNT] = {0};
    for (size_t i = 0; i < doc->tasks.len; i++) seen[doc->tasks.items[i].status]++;
    for (int k = 0; k < GB_COMPARE_COUNT; k++) {
        if (!gb_compare__size(s, gb_compare__words[k], where, &doc->count[k], err)) return false;
        if (doc->count[k] != seen[k]) {
            gb_error_set(err, "%s: \"%s\" is %zu but %zu tasks have that status", where, gb_compare__words[k],
                         doc->count[k], seen[k]);
            return false;
        }
    }
    if (tasks != doc->tasks.len) {
        gb_error_set(err, "%s: \"tasks\" is %zu but the list has %zu", where, tasks, doc->tasks.len);
        return false;
    }
    return true;
}

bool gb_compare_doc_parse(const char *text, const char *name, GbCompareDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    json_t *root = gb_doc_load(text, strlen(text), name, err);
    if (!root) return false;
    static const char *const keys[] = {"a", "b", "seed", "tasks", "summary", NULL};
    bool ok = json_is_object(root);
    if (!ok) gb_error_set(err, "%s: not a JSON object", name);
    ok = ok && gb_doc_only_keys(root, keys, name, err) && gb_compare__str(root, "a", false, name, &doc->a, err) &&
         gb_compare__str(root, "b", false, name, &doc->b, err) &&
         gb_doc_read_number(root, "seed", false, name, &doc->seed, err);
    const json_t *tasks = ok ? gb_doc_read_typed(root, "tasks", JSON_ARRAY, name, err) : NULL;
    ok = ok && tasks;
    for (size_t i = 0; ok && i < json_array_size(tasks); i++) {
        char *where = gb_asprintf("%s: \"tasks\"[%zu]", name, i);
        GbCompareDocTask x;
        memset(&x, 0, sizeof x);
        ok = gb_compare__parse_task(json_array_get(tasks, i), where, &x, err);
        gb_array_push(&doc->tasks, x);
        free(where);
    }
    const json_t *sum = ok ? gb_doc_read_typed(root, "summary", JSON_OBJECT, name, err) : NULL;
    if (ok && sum) {
        char *where = gb_asprintf("%s: \"summary\"", name);
        ok = gb_compare__parse_summary(sum, where, doc, err);
        free(where);
    } else {
        ok = false;
    }
    json_decref(root);
    return ok;
}
