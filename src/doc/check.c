#include "src/doc/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"
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
    if (t->apart_failure) {
        gb_str_append(out, ",\"apart_failure\":");
        gb_json_string(out, t->apart_failure);
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
    gb_str_appendf(out, ",\"together\":%zu}}\n", s->together);
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
    free((char *)t->apart_failure);
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
static void gb_check_doc__str(GbDocReader *c, const json_t *o, const char *key, bool nullable, const char **out)
{
    char *s = NULL;
    gb_doc_string(c, o, "", key, nullable, &s);
    *out = s;
}

static long gb_check_doc__int(GbDocReader *c, const json_t *o, const char *key, long min)
{
    long v = min;
    gb_doc_long(c, o, "", key, &v);
    if (c->ok && v < min) gb_doc_fail(c, "\"%s\": expected at least %ld, not %ld", key, min, v);
    return v;
}

static void gb_check_doc__known(GbDocReader *c, const char *word, const char *key, const char *(*name)(int), int n)
{
    if (!c->ok) return;
    for (int i = 0; i < n; i++)
        if (strcmp(name(i), word) == 0) return;
    gb_doc_fail(c, "\"%s\" is \"%s\", which genebench check does not write", key, word);
}

static const char *gb_check_doc__status_name(int i)
{
    return gb_run_status_name((GbRunStatus)i);
}

static const char *gb_check_doc__kind_name(int i)
{
    return gb_test_kind_name((GbTestKind)i);
}

static void gb_check_doc__task(GbDocReader *c, const json_t *o, GbCheckDocTask *t)
{
    static const char *const keys[] = {
        "id",        "kind",   "status",      "failed_test", "failed_tests", "exc_type", "exc_message",  "signal",
        "tests_run", "wall_s", "peak_rss_kb", "stdout",      "stderr",       "pylint",   "pylint_error", "apart_failure", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_check_doc__str(c, o, "id", false, &t->id);
    gb_check_doc__str(c, o, "kind", false, &t->kind);
    gb_check_doc__known(c, t->kind, "kind", gb_check_doc__kind_name, GB_TESTS_STDIO + 1);
    gb_check_doc__str(c, o, "status", false, &t->status);
    gb_check_doc__known(c, t->status, "status", gb_check_doc__status_name, GB_RUN_ERROR + 1);
    gb_check_doc__str(c, o, "failed_test", true, &t->failed_test);
    const json_t *ft = gb_doc_get(c, o, "", "failed_tests", JSON_ARRAY, "an array");
    for (size_t i = 0; c->ok && i < json_array_size(ft); i++) {
        const json_t *x = json_array_get(ft, i);
        if (!json_is_string(x))
            gb_doc_fail(c, "\"failed_tests\"[%zu]: expected a string", i);
        else
            gb_array_push(&t->failed_tests, gb_strndup(json_string_value(x), json_string_length(x)));
    }
    gb_check_doc__str(c, o, "exc_type", true, &t->exc_type);
    gb_check_doc__str(c, o, "exc_message", true, &t->exc_message);
    t->signal = (int)gb_check_doc__int(c, o, "signal", 0);
    t->tests_run = (int)gb_check_doc__int(c, o, "tests_run", 0);
    gb_doc_real(c, o, "", "wall_s", &t->wall_s);
    t->peak_rss_kb = gb_check_doc__int(c, o, "peak_rss_kb", -1);
    gb_check_doc__str(c, o, "stdout", false, &t->out);
    gb_check_doc__str(c, o, "stderr", false, &t->err);
    if (!c->ok) return;
    t->lint = json_object_get(o, "pylint") != NULL;
    if (!t->lint) {
        if (json_object_get(o, "pylint_error")) gb_doc_fail(c, "\"pylint_error\" without \"pylint\"");
    } else if (json_is_null(json_object_get(o, "pylint"))) {
        gb_check_doc__str(c, o, "pylint_error", false, &t->pylint_error);
    } else if (json_object_get(o, "pylint_error")) {
        gb_doc_fail(c, "\"pylint_error\" with a \"pylint\" score");
    } else {
        gb_doc_real(c, o, "", "pylint", &t->pylint);
    }
    if (json_object_get(o, "apart_failure")) gb_check_doc__str(c, o, "apart_failure", false, &t->apart_failure);
}

static void gb_check_doc__summary(GbDocReader *c, const json_t *line, GbCheckDocSummary *s)
{
    static const char *const top[] = {"summary", NULL};
    gb_doc_keys(c, line, "", top);
    const json_t *o = gb_doc_get(c, line, "", "summary", JSON_OBJECT, "an object");
    static const char *const keys[] = {"file",    "tasks",     "passed",  "failed", "timeout",        "crash",
                                       "error",   "bad_lines", "sandbox", "python", "python_version", "workers",
                                       "start_s", "run_s",     "remap",   "together",       NULL};
    gb_doc_keys(c, o, "summary.", keys);
    const char *const counts[] = {"tasks", "passed", "failed", "timeout", "crash", "error", "bad_lines"};
    size_t *dest[] = {&s->tasks, &s->passed, &s->failed, &s->timeout, &s->crash, &s->error, &s->bad_lines};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) gb_doc_size(c, o, "summary.", counts[i], dest[i]);
    char *str = NULL;
    const char *const strs[] = {"file", "sandbox", "python", "python_version"};
    const char **sdest[] = {&s->file, &s->sandbox, &s->python, &s->python_version};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        str = NULL;
        gb_doc_string(c, o, "summary.", strs[i], false, &str);
        *sdest[i] = str;
    }
    size_t workers = 0;
    gb_doc_size(c, o, "summary.", "workers", &workers);
    s->workers = (int)workers;
    gb_doc_real(c, o, "summary.", "start_s", &s->start_s);
    gb_doc_real(c, o, "summary.", "run_s", &s->run_s);
    str = NULL;
    gb_doc_string(c, o, "summary.", "remap", false, &str);
    s->remap = str;
    if (json_object_get(o, "together")) gb_doc_size(c, o, "summary.", "together", &s->together);
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
        GbDocReader c = {.name = where, .err = err, .ok = true};
        if (have_summary) {
            gb_doc_fail(&c, "a line after the summary line");
            return false;
        }
        json_t *o = gb_doc_parse(&c, p, n);
        if (o && !json_is_object(o)) {
            gb_doc_fail(&c, "not a JSON object");
        } else if (o && json_object_get(o, "summary")) {
            gb_check_doc__summary(&c, o, &doc->summary);
            have_summary = true;
        } else if (o) {
            GbCheckDocTask t;
            memset(&t, 0, sizeof t);
            gb_check_doc__task(&c, o, &t);
            gb_array_push(&doc->tasks, t);
        }
        json_decref(o);
        if (!c.ok) return false;
        p = nl ? nl + 1 : p + n;
    }
    if (!have_summary) {
        gb_error_set(err, "no summary line (the output of genebench check --json ends with {\"summary\": ...})");
        return false;
    }
    return true;
}
