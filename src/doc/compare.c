#include "src/doc/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

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

/* A string key into a const char * field (the document owns the copy); an optional key may be
 * absent (NULL). */
static void gb_compare__str(GbDocReader *c, const json_t *o, const char *where, const char *key, bool optional,
                            const char **out)
{
    *out = NULL;
    if (optional && !json_object_get(o, key)) return;
    char *s = NULL;
    gb_doc_string(c, o, where, key, false, &s);
    *out = s;
}

static void gb_compare__parse_first(GbDocReader *c, const json_t *o, const char *where, GbCompareDocTask *x)
{
    char *w = gb_asprintf("%sfirst.", where);
    const json_t *f = gb_doc_get(c, o, where, "first", JSON_OBJECT, "an object");
    static const char *const fkeys[] = {"index", "input", "a", "b", NULL};
    gb_doc_keys(c, f, w, fkeys);
    x->has_first = true;
    gb_doc_long(c, f, w, "index", &x->first_index);
    gb_compare__str(c, f, w, "input", false, &x->first_input);
    gb_compare__str(c, f, w, "a", false, &x->first_a);
    gb_compare__str(c, f, w, "b", false, &x->first_b);
    free(w);
}

/* "coverage": the original's branch outcomes; a document that has it says branches > 0. */
static void gb_compare__parse_coverage(GbDocReader *c, const json_t *o, const char *where, GbCompareDocTask *x)
{
    char *w = gb_asprintf("%scoverage.", where);
    const json_t *cv = gb_doc_get(c, o, where, "coverage", JSON_OBJECT, "an object");
    static const char *const ckeys[] = {"branches", "covered", "before", "uncovered", NULL};
    gb_doc_keys(c, cv, w, ckeys);
    gb_doc_size(c, cv, w, "branches", &x->branches);
    gb_doc_size(c, cv, w, "covered", &x->covered);
    gb_doc_size(c, cv, w, "before", &x->covered_before);
    gb_compare__str(c, cv, w, "uncovered", false, &x->uncovered);
    if (c->ok && x->branches == 0) gb_doc_fail(c, "\"%sbranches\": expected a count above 0", w);
    free(w);
}

static void gb_compare__parse_task(GbDocReader *c, const json_t *o, const char *where, GbCompareDocTask *x)
{
    static const char *const keys[] = {"id",      "status",   "derived",  "inputs",   "large",    "agreed",
                                       "checked", "cost_a_s", "cost_b_s", "wall_a_s", "wall_b_s", "probe_failed",
                                       "first",   "error",    "coverage", NULL};
    if (c->ok && !json_is_object(o)) gb_doc_fail(c, "\"%.*s\": expected an object", (int)strlen(where) - 1, where);
    gb_doc_keys(c, o, where, keys);
    gb_compare__str(c, o, where, "id", false, &x->id);
    const char *status = NULL;
    gb_doc_string_ref(c, o, where, "status", false, &status);
    if (c->ok) {
        int k = 0;
        while (k < GB_COMPARE_COUNT && strcmp(gb_compare__words[k], status) != 0) k++;
        if (k == GB_COMPARE_COUNT)
            gb_doc_fail(c, "\"%sstatus\" is \"%s\", which genebench compare does not write", where, status);
        x->status = (GbCompareStatus)k;
    }
    gb_doc_size(c, o, where, "derived", &x->derived);
    gb_doc_size(c, o, where, "inputs", &x->inputs);
    gb_doc_size(c, o, where, "large", &x->large);
    gb_compare__str(c, o, where, "error", true, &x->error);
    if (!c->ok) return;
    if (!gb_compare__has_run(x->status)) {
        static const char *const ran[] = {"agreed",   "checked",      "cost_a_s", "cost_b_s", "wall_a_s",
                                          "wall_b_s", "probe_failed", "first",    "coverage"};
        for (size_t i = 0; i < sizeof ran / sizeof *ran; i++)
            if (c->ok && json_object_get(o, ran[i]))
                gb_doc_fail(c, "\"%s%s\": unknown key for status %s", where, ran[i], gb_compare__words[x->status]);
        return;
    }
    gb_doc_size(c, o, where, "agreed", &x->agreed);
    gb_doc_size(c, o, where, "checked", &x->checked);
    gb_doc_rate(c, o, where, "cost_a_s", &x->cost_a_s);
    gb_doc_rate(c, o, where, "cost_b_s", &x->cost_b_s);
    gb_doc_rate(c, o, where, "wall_a_s", &x->wall_a_s);
    gb_doc_rate(c, o, where, "wall_b_s", &x->wall_b_s);
    gb_compare__str(c, o, where, "probe_failed", true, &x->probe_failed);
    if (c->ok && json_object_get(o, "first")) gb_compare__parse_first(c, o, where, x);
    if (c->ok && json_object_get(o, "coverage")) gb_compare__parse_coverage(c, o, where, x);
}

static void gb_compare__parse_summary(GbDocReader *c, const json_t *s, GbCompareDoc *doc)
{
    static const char *const keys[] = {"tasks",    "with_inputs", "inputs",  "inputs_checked", "inputs_agreed", "agree",
                                       "disagree", "slower",      "noinput", "missing",        "error",         NULL};
    size_t tasks = 0;
    gb_doc_keys(c, s, "summary.", keys);
    gb_doc_size(c, s, "summary.", "tasks", &tasks);
    gb_doc_size(c, s, "summary.", "with_inputs", &doc->with_inputs);
    gb_doc_size(c, s, "summary.", "inputs", &doc->inputs);
    gb_doc_size(c, s, "summary.", "inputs_checked", &doc->inputs_checked);
    gb_doc_size(c, s, "summary.", "inputs_agreed", &doc->inputs_agreed);
    size_t seen[GB_COMPARE_COUNT] = {0};
    for (size_t i = 0; i < doc->tasks.len; i++) seen[doc->tasks.items[i].status]++;
    for (int k = 0; k < GB_COMPARE_COUNT && c->ok; k++) {
        gb_doc_size(c, s, "summary.", gb_compare__words[k], &doc->count[k]);
        if (c->ok && doc->count[k] != seen[k])
            gb_doc_fail(c, "\"summary.%s\" is %zu but %zu tasks have that status", gb_compare__words[k], doc->count[k],
                        seen[k]);
    }
    if (c->ok && tasks != doc->tasks.len)
        gb_doc_fail(c, "\"summary.tasks\" is %zu but the list has %zu", tasks, doc->tasks.len);
}

bool gb_compare_doc_parse(const char *text, const char *name, GbCompareDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    GbDocReader c = {.name = name, .err = err, .ok = true};
    json_t *root = gb_doc_parse(&c, text, strlen(text));
    if (!root) return false;
    static const char *const keys[] = {"a", "b", "seed", "tasks", "summary", NULL};
    if (!json_is_object(root)) gb_doc_fail(&c, "not a JSON object");
    gb_doc_keys(&c, root, "", keys);
    gb_compare__str(&c, root, "", "a", false, &doc->a);
    gb_compare__str(&c, root, "", "b", false, &doc->b);
    gb_doc_real(&c, root, "", "seed", &doc->seed);
    const json_t *tasks = gb_doc_get(&c, root, "", "tasks", JSON_ARRAY, "an array");
    for (size_t i = 0; c.ok && i < json_array_size(tasks); i++) {
        char *where = gb_asprintf("tasks[%zu].", i);
        GbCompareDocTask x;
        memset(&x, 0, sizeof x);
        gb_compare__parse_task(&c, json_array_get(tasks, i), where, &x);
        gb_array_push(&doc->tasks, x);
        free(where);
    }
    const json_t *sum = gb_doc_get(&c, root, "", "summary", JSON_OBJECT, "an object");
    if (sum) gb_compare__parse_summary(&c, sum, doc);
    json_decref(root);
    return c.ok;
}
