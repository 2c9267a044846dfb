/* HumanEval (openai/human-eval): JSONL records {task_id, prompt, canonical_solution, test,
 * entry_point}; the program is prompt + canonical_solution, the tests `test` + check(ENTRY). */
#include "src/bench/upstream_format.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"
#include "src/python/pyparse.h"

/* ------------------------------------------------------------------ HumanEval */

static char *gb_humaneval__test(const char *test, const char *entry)
{
    return gb_asprintf("%s\ncheck(%s)\n", test, entry);
}

static bool gb_humaneval__record(GbUpImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *prompt, *solution, *test, *entry;
    if (!gb_up_str(rec, "task_id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up_str(rec, "prompt", &prompt, err) || !gb_up_str(rec, "canonical_solution", &solution, err) ||
        !gb_up_str(rec, "test", &test, err) || !gb_up_str(rec, "entry_point", &entry, err))
        return false;
    t->source = gb_asprintf("%s%s", prompt, solution);
    t->entry_point = gb_strdup(entry);
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_humaneval__test(test, entry);
    return true;
}
/* ------------------------------------------------------------------ HumanEval prompt split */

static TSNode gb_humaneval__function_named(TSNode root, const char *src, const char *name)
{
    TSNode found = {0};
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (strcmp(ts_node_type(c), "decorated_definition") == 0) c = ts_node_child_by_field_name(c, "definition", 10);
        if (ts_node_is_null(c) || strcmp(ts_node_type(c), "function_definition") != 0) continue;
        TSNode id = ts_node_child_by_field_name(c, "name", 4);
        if (!ts_node_is_null(id) && gb_node_text_eq(id, src, name)) found = c; /* the last definition wins */
    }
    return found;
}

bool gb_humaneval_prompt_end(const char *source, const char *entry, TSParser *parser, size_t *end)
{
    size_t len = strlen(source);
    TSTree *tree = gb_parse(parser, source, len);
    TSNode fn = gb_humaneval__function_named(ts_tree_root_node(tree), source, entry);
    if (ts_node_is_null(fn)) {
        ts_tree_delete(tree);
        return false;
    }
    size_t cut = 0;
    uint32_t n = ts_node_child_count(fn);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_child(fn, i);
        if (strcmp(ts_node_type(c), ":") == 0) cut = ts_node_end_byte(c);
    }
    TSNode body = ts_node_child_by_field_name(fn, "body", 4);
    if (!ts_node_is_null(body) && ts_node_named_child_count(body) > 0) {
        TSNode first = ts_node_named_child(body, 0);
        if (strcmp(ts_node_type(first), "expression_statement") == 0 && ts_node_named_child_count(first) == 1) {
            const char *t = ts_node_type(ts_node_named_child(first, 0));
            if (strcmp(t, "string") == 0 || strcmp(t, "concatenated_string") == 0) cut = ts_node_end_byte(first);
        }
    }
    ts_tree_delete(tree);
    /* finish the line when nothing but blanks or a comment follows */
    size_t i = cut;
    while (i < len && (source[i] == ' ' || source[i] == '\t')) i++;
    if (i < len && source[i] == '#')
        while (i < len && source[i] != '\n') i++;
    if (i < len && source[i] == '\r') i++;
    if (i >= len)
        cut = len;
    else if (source[i] == '\n')
        cut = i + 1;
    *end = cut;
    return true;
}

bool gb_humaneval_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err)
{
    (void)meta;
    const char *prompt, *solution, *test;
    if (!gb_up_str(rec, "prompt", &prompt, err) || !gb_up_str(rec, "canonical_solution", &solution, err) ||
        !gb_up_str(rec, "test", &test, err))
        return false;
    if (!t->entry_point) {
        gb_error_set(err, "a HumanEval task needs an entry point");
        return false;
    }
    if (t->kind != GB_TESTS_ASSERT) {
        gb_error_set(err, "a HumanEval task needs assert tests, got %s", gb_test_kind_name(t->kind));
        return false;
    }
    size_t plen = strlen(prompt);
    if (!(strncmp(t->source, prompt, plen) == 0 && strcmp(t->source + plen, solution) == 0)) {
        size_t cut;
        if (!gb_humaneval_prompt_end(t->source, t->entry_point, ex->parser, &cut)) {
            gb_error_set(err, "the program has no top-level function %s to split into prompt and solution",
                         t->entry_point);
            return false;
        }
        json_object_set_new(rec, "prompt", json_stringn(t->source, cut));
        json_object_set_new(rec, "canonical_solution", json_string(t->source + cut));
    }
    char *suffix = gb_asprintf("\ncheck(%s)\n", t->entry_point);
    size_t cl = strlen(t->test_code), sl = strlen(suffix);
    bool ok = cl >= sl && strcmp(t->test_code + cl - sl, suffix) == 0;
    if (ok)
        json_object_set_new(rec, "test", json_stringn(t->test_code, cl - sl));
    else
        gb_error_set(err, "tests.code does not end with \"check(%s)\": HumanEval cannot hold these tests",
                     t->entry_point);
    free(suffix);
    if (!ok) return false;
    json_object_set_new(rec, "task_id", json_string(t->id));
    json_object_set_new(rec, "entry_point", json_string(t->entry_point));
    return true;
}

void gb_humaneval_import(GbUpImport *im, const char *data, size_t len, size_t *n_records)
{
    gb_up_jsonl(im, data, len, gb_humaneval__record, n_records);
}
