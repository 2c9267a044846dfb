#include "src/doc/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_read.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

void gb_check_doc_write_task(GbStr *out, const GbCheckDocTask *t)
{
    gb_str_append(out, "{\"id\":");
    gb_json_string(out, t->id);
    gb_str_append(out, ",\"kind\":");
    gb_json_string(out, t->kind);
    gb_str_append(out, ",\"status\":");
    gb_json_string(out, t->status);
    gb_str_append(out, ",\"failed_test\":");
    gb_json_string(out, t->failed_test);
    gb_str_append(out, ",\"failed_tests\":[");
    for (size_t i = 0; i < t->failed_tests.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_json_string(out, t->failed_tests.items[i]);
    }
    gb_str_append(out, "],\"exc_type\":");
    gb_json_string(out, t->exc_type);
    gb_str_append(out, ",\"exc_message\":");
    gb_json_string(out, t->exc_message);
    gb_str_appendf(out, ",\"signal\":%d,\"tests_run\":%d,\"wall_s\":", t->signal, t->tests_run);
    gb_json_fixed(out, t->wall_s, 4);
    gb_str_appendf(out, ",\"peak_rss_kb\":%ld,\"stdout\":", t->peak_rss_kb);
    gb_json_string(out, t->out);
    gb_str_append(out, ",\"stderr\":");
    gb_json_string(out, t->err);
    if (t->lint) {
        if (t->pylint_error) {
            gb_str_append(out, ",\"pylint\":null,\"pylint_error\":");
            gb_json_string(out, t->pylint_error);
        } else {
            gb_str_append(out, ",\"pylint\":");
            gb_json_fixed(out, t->pylint, 4);
        }
    }
    gb_str_append(out, "}\n");
}

void gb_check_doc_write_summary(GbStr *out, const GbCheckDocSummary *s)
{
    gb_str_append(out, "{\"summary\":{\"file\":");
    gb_json_string(out, s->file);
    gb_str_appendf(out,
                   ",\"tasks\":%zu,\"passed\":%zu,\"failed\":%zu,\"timeout\":%zu,\"crash\":%zu,\"error\":%zu,"
                   "\"bad_lines\":%zu,\"sandbox\":",
                   s->tasks, s->passed, s->failed, s->timeout, s->crash, s->error, s->bad_lines);
    gb_json_string(out, s->sandbox);
    gb_str_append(out, ",\"python\":");
    gb_json_string(out, s->python);
    gb_str_append(out, ",\"python_version\":");
    gb_json_string(out, s->python_version);
    gb_str_appendf(out, ",\"workers\":%d,\"start_s\":", s->workers);
    gb_json_fixed(out, s->start_s, 3);
    gb_str_append(out, ",\"run_s\":");
    gb_json_fixed(out, s->run_s, 3);
    gb_str_append(out, ",\"remap\":");
    gb_json_string(out, s->remap);
    gb_str_append(out, "}}\n");
}

void gb_check_doc_write(GbStr *out, const GbCheckDoc *doc)
{
    for (size_t i = 0; i < doc->tasks.len; i++) gb_check_doc_write_task(out, &doc->tasks.items[i]);
    gb_check_doc_write_summary(out, &doc->summary);
}

static void gb_check_doc__task_destroy(GbCheckDocTask *t)
{
    free((char *)t->id);
    free((char *)t->kind);
    free((char *)t->status);
    free((char *)t->failed_test);
    for (size_t i = 0; i < t->failed_tests.len; i++) free((char *)t->failed_tests.items[i]);
    gb_array_free(&t->failed_tests);
    free((char *)t->exc_type);
    free((char *)t->exc_message);
    free((char *)t->out);
    free((char *)t->err);
    free((char *)t->pylint_error);
}

void gb_check_doc_destroy(GbCheckDoc *doc)
{
    if (!doc) return;
    for (size_t i = 0; i < doc->tasks.len; i++) gb_check_doc__task_destroy(&doc->tasks.items[i]);
    gb_array_free(&doc->tasks);
    GbCheckDocSummary *s = &doc->summary;
    free((char *)s->file);
    free((char *)s->sandbox);
    free((char *)s->python);
    free((char *)s->python_version);
    free((char *)s->remap);
    memset(doc, 0, sizeof *doc);
}

/* A string key into a const char * field (the document owns the copy). */
static bool gb_check_doc__str(const json_t *o, const char *key, bool nullable, const char *where, const char **out,
                              GbError *err)
{
    char *s = NULL;
    bool ok = gb_doc_read_string(o, key, nullable, where, &s, err);
    *out = s;
    return ok;
}

static bool gb_check_doc__int(const json_t *o, const char *key, const char *where, long long min, long long *out,
                              GbError *err)
{
    if (!gb_doc_read_integer(o, key, where, out, err)) return false;
    if (*out < min) {
        gb_error_set(err, "%s: \"%s\" must be at least %lld, not %lld", where, key, min, *out);
        return false;
    }
    return true;
}

static bool gb_check_doc__known(const char *word, const char *key, const char *(*name)(int), int n, const char *where,
                                GbError *err)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name(i), word) == 0) return true;
    gb_error_set(err, "%s: \"%s\" is \"%s\", which genebench check does not write", where, key, word);
    return false;
}

static const char *gb_check_doc__status_name(int i)
{
    return gb_run_status_name((GbRunStatus)i);
}

static const char *gb_check_doc__kind_name(int i)
{
    return gb_test_kind_name((GbTestKind)i);
}

static bool gb_check_doc__task(const json_t *o, const char *where, GbCheckDocTask *t, GbError *err)
{
    static const char *const keys[] = {
        "id",        "kind",   "status",      "failed_test", "failed_tests", "exc_type", "exc_message",  "signal",
        "tests_run", "wall_s", "peak_rss_kb", "stdout",      "stderr",       "pylint",   "pylint_error", NULL};
    if (!gb_doc_only_keys(o, keys, where, err)) return false;
    long long v;
    if (!gb_check_doc__str(o, "id", false, where, &t->id, err) ||
        !gb_check_doc__str(o, "kind", false, where, &t->kind, err) ||
        !gb_check_doc__known(t->kind, "kind", gb_check_doc__kind_name, GB_TESTS_STDIO + 1, where, err) ||
        !gb_check_doc__str(o, "status", false, where, &t->status, err) ||
        !gb_check_doc__known(t->status, "status", gb_check_doc__status_name, GB_RUN_ERROR + 1, where, err) ||
        !gb_check_doc__str(o, "failed_test", true, where, &t->failed_test, err))
        return false;
    const json_t *ft = gb_doc_read_typed(o, "failed_tests", JSON_ARRAY, where, err);
    if (!ft) return false;
    for (size_t i = 0; i < json_array_size(ft); i++) {
        const json_t *x = json_array_get(ft, i);
        if (!json_is_string(x)) {
            gb_error_set(err, "%s: \"failed_tests\"[%zu] must be a string", where, i);
            return false;
        }
        gb_array_push(&t->failed_tests, gb_strndup(json_string_value(x), json_string_length(x)));
    }
    if (!gb_check_doc__str(o, "exc_type", true, where, &t->exc_type, err) ||
        !gb_check_doc__str(o, "exc_message", true, where, &t->exc_message, err))
        return false;
    if (!gb_check_doc__int(o, "signal", where, 0, &v, err)) return false;
    t->signal = (int)v;
    if (!gb_check_doc__int(o, "tests_run", where, 0, &v, err)) return false;
    t->tests_run = (int)v;
    if (!gb_doc_read_number(o, "wall_s", false, where, &t->wall_s, err)) return false;
    if (!gb_check_doc__int(o, "peak_rss_kb", where, -1, &v, err)) return false;
    t->peak_rss_kb = (long)v;
    if (!gb_check_doc__str(o, "stdout", false, where, &t->out, err) ||
        !gb_check_doc__str(o, "stderr", false, where, &t->err, err))
        return false;
    t->lint = json_object_get(o, "pylint") != NULL;
    if (!t->lint) {
        if (json_object_get(o, "pylint_error")) {
            gb_error_set(err, "%s: \"pylint_error\" without \"pylint\"", where);
            return false;
        }
        return true;
    }
    if (json_is_null(json_object_get(o, "pylint")))
        return gb_check_doc__str(o, "pylint_error", false, where, &t->pylint_error, err);
    if (json_object_get(o, "pylint_error")) {
        gb_error_set(err, "%s: \"pylint_error\" with a \"pylint\" score", where);
        return false;
    }
    return gb_doc_read_number(o, "pylint", false, where, &t->pylint, err);
}

static bool gb_check_doc__summary(const json_t *line, const char *where, GbCheckDocSummary *s, GbError *err)
{
    static const char *const top[] = {"summary", NULL};
    if (!gb_doc_only_keys(line, top, where, err)) return false;
    const json_t *o = gb_doc_read_typed(line, "summary", JSON_OBJECT, where, err);
    if (!o) return false;
    static const char *const keys[] = {"file",    "tasks",     "passed",  "failed", "timeout",        "crash",
                                       "error",   "bad_lines", "sandbox", "python", "python_version", "workers",
                                       "start_s", "run_s",     "remap",   NULL};
    if (!gb_doc_only_keys(o, keys, where, err)) return false;
    const char *const counts[] = {"tasks", "passed", "failed", "timeout", "crash", "error", "bad_lines"};
    size_t *dest[] = {&s->tasks, &s->passed, &s->failed, &s->timeout, &s->crash, &s->error, &s->bad_lines};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        long long v;
        if (!gb_check_doc__int(o, counts[i], where, 0, &v, err)) return false;
        *dest[i] = (size_t)v;
    }
    long long w;
    if (!gb_check_doc__str(o, "file", false, where, &s->file, err) ||
        !gb_check_doc__str(o, "sandbox", false, where, &s->sandbox, err) ||
        !gb_check_doc__str(o, "python", false, where, &s->python, err) ||
        !gb_check_doc__str(o, "python_version", false, where, &s->python_version, err) ||
        !gb_check_doc__int(o, "workers", where, 0, &w, err) ||
        !gb_doc_read_number(o, "start_s", false, where, &s->start_s, err) ||
        !gb_doc_read_number(o, "run_s", false, where, &s->run_s, err) ||
        !gb_check_doc__str(o, "remap", false, where, &s->remap, err))
        return false;
    s->workers = (int)w;
    return true;
}

bool gb_check_doc_parse(const char *text, GbCheckDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool have_summary = false;
    size_t line_no = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line_no++;
        char where[64];
        snprintf(where, sizeof where, "line %zu", line_no);
        if (have_summary) {
            gb_error_set(err, "%s: a line after the summary line", where);
            return false;
        }
        json_t *o = gb_doc_load(p, n, where, err);
        if (!o) return false;
        bool ok;
        if (!json_is_object(o)) {
            gb_error_set(err, "%s: not a JSON object", where);
            ok = false;
        } else if (json_object_get(o, "summary")) {
            ok = gb_check_doc__summary(o, where, &doc->summary, err);
            have_summary = true;
        } else {
            GbCheckDocTask t;
            memset(&t, 0, sizeof t);
            ok = gb_check_doc__task(o, where, &t, err);
            gb_array_push(&doc->tasks, t);
        }
        json_decref(o);
        if (!ok) return false;
        p = nl ? nl + 1 : p + n;
    }
    if (!have_summary) {
        gb_error_set(err, "no summary line (the output of genebench check --json ends with {\"summary\": ...})");
        return false;
    }
    return true;
}
