#include "src/bench/task_io.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/gzip.h"
#include "src/model/pinned.h"
#include "src/model/program.h"
#include "src/bench/pyjson.h"
#include "src/bench/upstream.h"
#include "src/python/pyparse.h"

void gb_diag_init(GbDiag *d)
{
    memset(d, 0, sizeof *d);
}

void gb_diag_destroy(GbDiag *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->messages.len; i++) free(d->messages.items[i]);
    gb_array_free(&d->messages);
}

void gb_diag_add(GbDiag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb_array_push(&d->messages, gb_vasprintf(fmt, ap));
    va_end(ap);
}

/* A required or optional string member; *out gets an owned copy. */
static bool gb_task_io__string(const json_t *obj, const char *where, const char *key, bool required, bool nullable,
                               char **out, GbError *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v || (nullable && json_is_null(v))) {
        if (required && !v) {
            gb_error_set(err, "missing field \"%s%s\"", where, key);
            return false;
        }
        *out = NULL;
        return true;
    }
    if (!json_is_string(v)) {
        gb_error_set(err, "field \"%s%s\" must be a string%s, got %s", where, key, nullable ? " or null" : "",
                     gb_json_type_name(v));
        return false;
    }
    *out = gb_strndup(json_string_value(v), json_string_length(v));
    return true;
}

static bool gb_task_io__tests(const json_t *tests, GbTask *t, GbError *err)
{
    if (!json_is_object(tests)) {
        gb_error_set(err, "field \"tests\" must be an object, got %s", gb_json_type_name(tests));
        return false;
    }
    char *kind = NULL;
    if (!gb_task_io__string(tests, "tests.", "kind", true, false, &kind, err)) return false;
    const char *allowed[3];
    size_t n_allowed = 0;
    if (strcmp(kind, "assert") == 0) {
        t->kind = GB_TESTS_ASSERT;
        allowed[n_allowed++] = "code";
    } else if (strcmp(kind, "unittest") == 0) {
        t->kind = GB_TESTS_UNITTEST;
        allowed[n_allowed++] = "code";
        allowed[n_allowed++] = "classes";
    } else if (strcmp(kind, "stdio") == 0) {
        t->kind = GB_TESTS_STDIO;
        allowed[n_allowed++] = "cases";
    } else {
        gb_error_set(err, "field \"tests.kind\" must be \"assert\", \"unittest\" or \"stdio\", got \"%s\"", kind);
        free(kind);
        return false;
    }
    free(kind);
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)tests, key, val)
    {
        bool known = strcmp(key, "kind") == 0;
        for (size_t i = 0; i < n_allowed; i++) known = known || strcmp(key, allowed[i]) == 0;
        if (!known) {
            gb_error_set(err, "unknown field \"tests.%s\" for tests of kind \"%s\"", key, gb_test_kind_name(t->kind));
            return false;
        }
    }
    if (t->kind != GB_TESTS_STDIO) {
        if (!gb_task_io__string(tests, "tests.", "code", true, false, &t->test_code, err)) return false;
        if (t->test_code[0] == '\0') {
            gb_error_set(err, "field \"tests.code\" is empty");
            return false;
        }
    }
    if (t->kind == GB_TESTS_UNITTEST) {
        json_t *classes = json_object_get(tests, "classes");
        if (!classes) {
            gb_error_set(err, "missing field \"tests.classes\"");
            return false;
        }
        if (!json_is_array(classes)) {
            gb_error_set(err, "field \"tests.classes\" must be an array of strings, got %s",
                         gb_json_type_name(classes));
            return false;
        }
        if (json_array_size(classes) == 0) {
            gb_error_set(err, "field \"tests.classes\" is empty: no test class to run");
            return false;
        }
        for (size_t i = 0; i < json_array_size(classes); i++) {
            json_t *c = json_array_get(classes, i);
            if (!json_is_string(c)) {
                gb_error_set(err, "field \"tests.classes[%zu]\" must be a string, got %s", i, gb_json_type_name(c));
                return false;
            }
            gb_array_push(&t->test_classes, gb_strdup(json_string_value(c)));
        }
    }
    if (t->kind == GB_TESTS_STDIO) {
        json_t *cases = json_object_get(tests, "cases");
        if (!cases) {
            gb_error_set(err, "missing field \"tests.cases\"");
            return false;
        }
        if (!json_is_array(cases)) {
            gb_error_set(err, "field \"tests.cases\" must be an array, got %s", gb_json_type_name(cases));
            return false;
        }
        if (json_array_size(cases) == 0) {
            gb_error_set(err, "field \"tests.cases\" is empty: no test case to run");
            return false;
        }
        for (size_t i = 0; i < json_array_size(cases); i++) {
            json_t *c = json_array_get(cases, i);
            char where[64];
            snprintf(where, sizeof where, "tests.cases[%zu].", i);
            if (!json_is_object(c)) {
                gb_error_set(err, "field \"tests.cases[%zu]\" must be an object, got %s", i, gb_json_type_name(c));
                return false;
            }
            GbStdioCase sc = {NULL, NULL};
            if (!gb_task_io__string(c, where, "stdin", true, false, &sc.stdin_text, err)) return false;
            if (!gb_task_io__string(c, where, "stdout", true, false, &sc.stdout_text, err)) {
                free(sc.stdin_text);
                return false;
            }
            gb_array_push(&t->cases, sc);
        }
    }
    return true;
}

bool gb_task_file_path_ok(const char *path)
{
    if (!path[0] || path[0] == '/' || strcmp(path, GB_MAIN_MODULE) == 0) return false;
    const char *p = path;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0 || (n == 2 && p[0] == '.' && p[1] == '.') || (n == 1 && p[0] == '.')) return false;
        p += n;
        if (*p == '/') p++;
    }
    return true;
}

static bool gb_task_io__parse(const char *line, GbTask *t, bool *had_pinned, GbError *err)
{
    gb_task_init(t);
    *had_pinned = false;
    size_t len = strlen(line);
    size_t bad;
    if (!gb_utf8_valid(line, len, &bad)) {
        gb_error_set(err, "invalid UTF-8: byte 0x%02x at column %zu", (unsigned char)line[bad], bad + 1);
        return false;
    }
    json_error_t jerr;
    json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        gb_error_set(err, "malformed JSON at column %d: %s", jerr.column, jerr.text);
        return false;
    }
    bool ok = false;
    if (!json_is_object(root)) {
        gb_error_set(err, "a task must be a JSON object, got %s", gb_json_type_name(root));
        goto done;
    }
    if (!gb_task_io__string(root, "", "id", true, false, &t->id, err)) goto done;
    if (t->id[0] == '\0') {
        gb_error_set(err, "field \"id\" is empty");
        goto done;
    }
    if (!gb_task_io__string(root, "", "source", true, false, &t->source, err)) goto done;
    if (!gb_task_io__string(root, "", "entry_point", false, true, &t->entry_point, err)) goto done;
    json_t *tests = json_object_get(root, "tests");
    if (!tests) {
        gb_error_set(err, "missing field \"tests\"");
        goto done;
    }
    if (!gb_task_io__tests(tests, t, err)) goto done;

    json_t *files = json_object_get(root, "extra_files");
    if (files && !json_is_object(files)) {
        gb_error_set(err, "field \"extra_files\" must be an object {path: source}, got %s", gb_json_type_name(files));
        goto done;
    }
    if (files) {
        const char *path;
        json_t *src;
        json_object_foreach(files, path, src)
        {
            if (!json_is_string(src)) {
                gb_error_set(err, "field \"extra_files.%s\" must be a string, got %s", path, gb_json_type_name(src));
                goto done;
            }
            if (!gb_task_file_path_ok(path)) {
                gb_error_set(err, "field \"extra_files\": \"%s\" is not a relative module path", path);
                goto done;
            }
            gb_task_set_file(t, path, json_string_value(src));
        }
    }
    json_t *pinned = json_object_get(root, "pinned");
    if (pinned) {
        if (!json_is_array(pinned)) {
            gb_error_set(err, "field \"pinned\" must be an array of strings, got %s", gb_json_type_name(pinned));
            goto done;
        }
        for (size_t i = 0; i < json_array_size(pinned); i++) {
            json_t *p = json_array_get(pinned, i);
            if (!json_is_string(p)) {
                gb_error_set(err, "field \"pinned[%zu]\" must be a string, got %s", i, gb_json_type_name(p));
                goto done;
            }
            gb_array_push(&t->pinned, gb_strdup(json_string_value(p)));
        }
        *had_pinned = true;
    }
    json_t *meta = json_object_get(root, "meta");
    if (meta && !json_is_object(meta)) {
        gb_error_set(err, "field \"meta\" must be an object, got %s", gb_json_type_name(meta));
        goto done;
    }

    /* meta and unknown fields keep their original text: jansson iterates members in the
     * order it read them, which is the textual order of the spans. */
    GbJsonSpanArray spans = {0};
    gb_json_spans(line, len, &spans);
    if (spans.len != json_object_size(root)) {
        gb_array_free(&spans);
        gb_error_set(err, "internal error: member count mismatch");
        goto done;
    }
    size_t i = 0;
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val)
    {
        GbJsonSpan s = spans.items[i++];
        char *raw = gb_strndup(line + s.start, s.end - s.start);
        if (strcmp(key, "meta") == 0) {
            free(t->meta_json);
            t->meta_json = raw;
        } else if (strcmp(key, "id") && strcmp(key, "source") && strcmp(key, "entry_point") && strcmp(key, "tests") &&
                   strcmp(key, "extra_files") && strcmp(key, "pinned")) {
            GbField f = {gb_strdup(key), raw};
            gb_array_push(&t->fields, f);
        } else {
            free(raw);
        }
    }
    gb_array_free(&spans);
    ok = true;
done:
    json_decref(root);
    if (!ok) {
        /* keep the id (when it was read) so the caller can name the task */
        char *id = t->id;
        t->id = NULL;
        gb_task_destroy(t);
        gb_task_init(t);
        t->id = id;
    }
    return ok;
}

bool gb_task_from_json(const char *line, GbTask *t, GbError *err)
{
    bool had_pinned;
    return gb_task_io__parse(line, t, &had_pinned, err);
}

/* Compact JSON text that is safe on one line: re-serialise text that spans lines. */
static void gb_task_io__append_raw(GbStr *out, const char *json)
{
    if (!strpbrk(json, "\n\r")) {
        gb_str_append(out, json);
        return;
    }
    json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
    if (!v) {
        /* raw values come from parsed input or from gb_task_set_field's contract */
        gb_str_append(out, "null");
        return;
    }
    char *c = gb_json_compact(v);
    gb_str_append(out, c);
    free(c);
    json_decref(v);
}

char *gb_task_to_json(const GbTask *t)
{
    json_t *root = json_object();
    json_object_set_new(root, "id", json_string(t->id ? t->id : ""));
    json_object_set_new(root, "source", json_string(t->source ? t->source : ""));
    json_object_set_new(root, "entry_point", t->entry_point ? json_string(t->entry_point) : json_null());
    json_t *tests = json_object();
    json_object_set_new(tests, "kind", json_string(gb_test_kind_name(t->kind)));
    if (t->kind != GB_TESTS_STDIO) json_object_set_new(tests, "code", json_string(t->test_code ? t->test_code : ""));
    if (t->kind == GB_TESTS_UNITTEST) {
        json_t *classes = json_array();
        for (size_t i = 0; i < t->test_classes.len; i++)
            json_array_append_new(classes, json_string(t->test_classes.items[i]));
        json_object_set_new(tests, "classes", classes);
    }
    if (t->kind == GB_TESTS_STDIO) {
        json_t *cases = json_array();
        for (size_t i = 0; i < t->cases.len; i++) {
            json_t *c = json_object();
            json_object_set_new(c, "stdin", json_string(t->cases.items[i].stdin_text));
            json_object_set_new(c, "stdout", json_string(t->cases.items[i].stdout_text));
            json_array_append_new(cases, c);
        }
        json_object_set_new(tests, "cases", cases);
    }
    json_object_set_new(root, "tests", tests);
    json_t *files = json_object();
    for (size_t i = 0; i < t->extra_files.len; i++)
        json_object_set_new(files, t->extra_files.items[i].path, json_string(t->extra_files.items[i].source));
    json_object_set_new(root, "extra_files", files);
    json_t *pinned = json_array();
    for (size_t i = 0; i < t->pinned.len; i++) json_array_append_new(pinned, json_string(t->pinned.items[i]));
    json_object_set_new(root, "pinned", pinned);

    GbStr out;
    gb_str_init(&out);
    char *head = gb_json_compact(root);
    json_decref(root);
    gb_str_append_n(&out, head, strlen(head) - 1); /* without the closing brace */
    free(head);
    gb_str_append(&out, ",\"meta\":");
    gb_task_io__append_raw(&out, t->meta_json ? t->meta_json : "{}");
    for (size_t i = 0; i < t->fields.len; i++) {
        json_t *k = json_string(t->fields.items[i].key);
        char *kj = gb_json_compact(k);
        json_decref(k);
        gb_str_appendf(&out, ",%s:", kj);
        free(kj);
        gb_task_io__append_raw(&out, t->fields.items[i].json);
    }
    gb_str_append(&out, "}");
    return gb_str_take(&out);
}

/* Best effort: the "id" of a line that did not parse, for the error message. Owned or NULL. */
static char *gb_task_io__guess_id(const char *line)
{
    const char *p = line;
    while ((p = strstr(p, "\"id\"")) != NULL) {
        const char *q = p + 4;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == ':') {
            q++;
            while (*q == ' ' || *q == '\t') q++;
            if (*q == '"') {
                const char *e = q + 1;
                while (*e && *e != '"' && *e != '\\' && (unsigned char)*e >= 0x20 && (unsigned char)*e < 0x80) e++;
                if (*e == '"' && e > q + 1) return gb_strndup(q + 1, (size_t)(e - q - 1));
            }
        }
        p += 4;
    }
    return NULL;
}

static bool gb_task_io__module_parses(TSParser *parser, const char *what, const char *src, GbError *err)
{
    unsigned row = 0, col = 0;
    if (gb_source_parses(parser, src, strlen(src), &row, &col)) return true;
    gb_error_set(err, "Python syntax error in %s at line %u, column %u", what, row + 1, col + 1);
    return false;
}

bool gb_task_check_syntax(const GbTask *t, TSParser *parser, GbError *err)
{
    if (!gb_task_io__module_parses(parser, "source (" GB_MAIN_MODULE ")", t->source, err)) return false;
    for (size_t i = 0; i < t->extra_files.len; i++) {
        char *what = gb_asprintf("extra file %s", t->extra_files.items[i].path);
        bool ok = gb_task_io__module_parses(parser, what, t->extra_files.items[i].source, err);
        free(what);
        if (!ok) return false;
    }
    if (t->kind != GB_TESTS_STDIO && t->test_code &&
        !gb_task_io__module_parses(parser, "tests.code", t->test_code, err))
        return false;
    return true;
}

/* An id becomes a file name on export (Avatar's Code/<id>.py) and a line in messages: no
 * control character (newline, NUL, ...), not absolute, no ".." component. A "/" inside is
 * allowed (HumanEval's "HumanEval/2"); exports to directories refuse it themselves. */
static bool gb_task_io__id_ok(const char *id, GbError *err)
{
    if (!id || !id[0]) {
        gb_error_set(err, "empty task id");
        return false;
    }
    for (const char *p = id; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            gb_error_set(err, "task id contains a control character (0x%02x at byte %zu)", (unsigned char)*p,
                         (size_t)(p - id));
            return false;
        }
    }
    if (id[0] == '/') {
        gb_error_set(err, "task id starts with \"/\"");
        return false;
    }
    for (const char *p = id; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            gb_error_set(err, "task id has a \"..\" path component");
            return false;
        }
        p += n;
        if (*p == '/') p++;
    }
    return true;
}

bool gb_bench_add_take(GbBench *b, GbTask *t, TSParser *parser, bool compute_pinned, const char *path, GbDiag *diag)
{
    GbError err;
    if (!gb_task_io__id_ok(t->id, &err)) {
        char *shown = gb_strdup(t->id ? t->id : "");
        for (char *p = shown; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
        gb_diag_add(diag, "%s:%zu: task %s: %s", path, t->line, shown, err.msg);
        free(shown);
        gb_task_destroy(t);
        return false;
    }
    if (!gb_task_check_syntax(t, parser, &err)) {
        gb_diag_add(diag, "%s:%zu: task %s: %s", path, t->line, t->id, err.msg);
        gb_task_destroy(t);
        return false;
    }
    long prev = gb_bench_find(b, t->id);
    if (prev >= 0) {
        gb_diag_add(diag, "%s:%zu: task %s: duplicate id (first on line %zu); this one is skipped", path, t->line,
                    t->id, b->tasks.items[prev].line);
        gb_task_destroy(t);
        return false;
    }
    if (compute_pinned) gb_task_compute_pinned(t, parser);
    free(t->harness_prelude);
    gb_upstream_harness(t->meta_json, &t->harness, &t->harness_prelude);
    gb_bench_add_task(b, t);
    return true;
}

bool gb_bench_read(const char *path, GbBench *out, GbDiag *diag)
{
    GbError err;
    size_t len = 0;
    char *data = gb_read_data_file(path, &len, &err);
    if (!data) {
        gb_diag_add(diag, "%s", err.msg);
        return false;
    }
    TSParser *parser = gb_parser_new();
    if (!parser) abort(); /* grammar/runtime ABI mismatch: a build error */
    size_t line_no = 0, n_lines = 0;
    char *p = data, *end = data + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) p += 3; /* a UTF-8 byte order mark */
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *start = p;
        size_t n = (size_t)((nl ? nl : end) - p);
        p = nl ? nl + 1 : end;
        line_no++;
        if (n > 0 && start[n - 1] == '\r') n--;
        bool blank = true;
        for (size_t i = 0; i < n && blank; i++) blank = start[i] == ' ' || start[i] == '\t';
        if (blank) continue;
        n_lines++;
        if (memchr(start, '\0', n)) {
            gb_diag_add(diag, "%s:%zu: task (unknown id): NUL byte in the line", path, line_no);
            continue;
        }
        char *line = gb_strndup(start, n);
        GbTask t;
        bool had_pinned = false;
        if (!gb_task_io__parse(line, &t, &had_pinned, &err)) {
            char *id = t.id ? gb_strdup(t.id) : gb_task_io__guess_id(line);
            gb_diag_add(diag, "%s:%zu: task %s: %s", path, line_no, id ? id : "(unknown id)", err.msg);
            free(id);
            gb_task_destroy(&t);
            free(line);
            continue;
        }
        free(line);
        t.line = line_no;
        gb_bench_add_take(out, &t, parser, !had_pinned, path, diag);
    }
    if (n_lines == 0) gb_diag_add(diag, "%s: empty file: no tasks", path);
    ts_parser_delete(parser);
    free(data);
    return true;
}

char *gb_bench_to_jsonl(const GbBench *b)
{
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < b->tasks.len; i++) {
        char *line = gb_task_to_json(&b->tasks.items[i]);
        gb_str_append(&s, line);
        gb_str_append(&s, "\n");
        free(line);
    }
    return gb_str_take(&s);
}

bool gb_bench_write(const char *path, const GbBench *b, GbError *err)
{
    char *text = gb_bench_to_jsonl(b);
    bool ok = gb_write_data_file_atomic(path, text, strlen(text), err);
    free(text);
    return ok;
}
