/* ClassEval (FudanSELab/ClassEval): one JSON array of task objects; the program is
 * `solution_code`, the tests are the unittest source `test` with the classes `test_classes`. */
#include "src/bench/upstream_format.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"
#include "src/bench/pyjson.h"

/* ------------------------------------------------------------------ ClassEval */

static bool gb_classeval__record(GbUpImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *solution, *test, *class_name;
    if (!gb_up_str(rec, "task_id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up_str(rec, "solution_code", &solution, err) || !gb_up_str(rec, "test", &test, err) ||
        !gb_up_str(rec, "class_name", &class_name, err))
        return false;
    json_t *classes = json_object_get(rec, "test_classes");
    if (!classes) {
        gb_error_set(err, "missing field \"test_classes\"");
        return false;
    }
    if (!json_is_array(classes) || json_array_size(classes) == 0) {
        gb_error_set(err, "field \"test_classes\" must be a non-empty array of strings");
        return false;
    }
    for (size_t i = 0; i < json_array_size(classes); i++) {
        json_t *c = json_array_get(classes, i);
        if (!json_is_string(c)) {
            gb_error_set(err, "field \"test_classes[%zu]\" must be a string, got %s", i, gb_json_type_name(c));
            return false;
        }
        gb_array_push(&t->test_classes, gb_strdup(json_string_value(c)));
    }
    t->source = gb_strdup(solution);
    t->entry_point = gb_strdup(class_name);
    t->kind = GB_TESTS_UNITTEST;
    t->test_code = gb_strdup(test);
    return true;
}

void gb_classeval_import(GbUpImport *im, const char *data, size_t len, size_t *n_records)
{
    bool blank = true;
    for (size_t i = 0; i < len && blank; i++) blank = strchr(" \t\r\n", data[i]) != NULL;
    if (blank) return; /* reported by the caller as an empty file */
    size_t bad;
    if (!gb_utf8_valid(data, len, &bad)) {
        size_t line = 1;
        for (size_t i = 0; i < bad; i++) line += data[i] == '\n';
        gb_diag_add(im->diag, "%s:%zu: task (unknown id): invalid UTF-8: byte 0x%02x", im->path, line,
                    (unsigned char)data[bad]);
        return;
    }
    json_error_t jerr;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        gb_diag_add(im->diag, "%s:%d: task (unknown id): malformed JSON at column %d: %s", im->path, jerr.line,
                    jerr.column, jerr.text);
        return;
    }
    if (!json_is_array(root)) {
        gb_diag_add(im->diag, "%s:1: task (unknown id): a ClassEval file must be a JSON array of tasks, got %s",
                    im->path, gb_json_type_name(root));
        json_decref(root);
        return;
    }
    GbJsonSpanArray spans = {0};
    gb_json_spans(data, len, &spans);
    size_t line = 1, pos = 0;
    for (size_t i = 0; i < json_array_size(root); i++) {
        size_t start = i < spans.len ? spans.items[i].start : pos;
        for (; pos < start; pos++) line += data[pos] == '\n';
        (*n_records)++;
        gb_up_accept(im, json_array_get(root, i), line, gb_classeval__record);
    }
    gb_array_free(&spans);
    json_decref(root);
}

bool gb_classeval_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err)
{
    (void)meta;
    (void)ex;
    if (t->kind != GB_TESTS_UNITTEST || !t->entry_point) {
        gb_error_set(err, "a ClassEval task needs unittest tests and an entry point (the class name)");
        return false;
    }
    json_t *classes = json_array();
    for (size_t i = 0; i < t->test_classes.len; i++)
        json_array_append_new(classes, json_string(t->test_classes.items[i]));
    json_object_set_new(rec, "task_id", json_string(t->id));
    json_object_set_new(rec, "test", json_string(t->test_code));
    json_object_set_new(rec, "solution_code", json_string(t->source));
    json_object_set_new(rec, "class_name", json_string(t->entry_point));
    json_object_set_new(rec, "test_classes", classes);
    return true;
}
