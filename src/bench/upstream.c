#include "src/bench/upstream.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/gzip.h"
#include "src/base/util.h"
#include "src/bench/pyjson.h"
#include "src/bench/upstream_format.h"
#include "src/python/pyparse.h"

/* The format table: one row per line of src/bench/format_list.h. */
typedef struct {
    const char *name;
    GbUpLayout layout;
    void (*import)(GbUpImport *im, const char *data, size_t len, size_t *n_records);
    bool (*export)(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err);
    GbHarnessRules rules; /* how the format's own harness runs a program */
    const char *purpose;  /* what a hardened record is for */
    const char *command;  /* how to run the upstream harness on an export */
} GbUpFormat;

static const GbUpFormat gb_up__formats[GB_UPSTREAM_COUNT] = {
#define GB_UPSTREAM_FORMAT(ID, snake, layout, rules, purpose, command)                                                 \
    [GB_UPSTREAM_##ID] = {#snake, layout, gb_##snake##_import, gb_##snake##_export, rules, purpose, command},
    GB_UPSTREAM_FORMAT_LIST
#undef GB_UPSTREAM_FORMAT
};

bool gb_upstream_from_name(const char *name, GbUpstream *out)
{
    for (size_t i = 0; i < GB_UPSTREAM_COUNT; i++) {
        if (strcmp(name, gb_up__formats[i].name) == 0) {
            *out = (GbUpstream)i;
            return true;
        }
    }
    return false;
}

const char *gb_upstream_name(GbUpstream format)
{
    return gb_up__formats[format].name;
}

const char *gb_upstream_purpose(GbUpstream format)
{
    return gb_up__formats[format].purpose;
}

const char *gb_upstream_command(GbUpstream format)
{
    return gb_up__formats[format].command;
}

void gb_upstream_harness(const char *meta_json, GbHarnessRules *rules, char **prelude)
{
    *rules = GB_HARNESS_NONE;
    *prelude = NULL;
    json_t *meta = meta_json ? json_loads(meta_json, 0, NULL) : NULL;
    json_t *format = json_object_get(meta, "format");
    GbUpstream f;
    if (json_is_string(format) && gb_upstream_from_name(json_string_value(format), &f)) {
        *rules = gb_up__formats[f].rules;
        json_t *imports = json_object_get(json_object_get(meta, "upstream"), "import_statement");
        if (*rules == GB_HARNESS_CLASSEVAL && json_is_array(imports)) {
            GbStr s;
            gb_str_init(&s);
            gb_str_append(&s, "");
            for (size_t i = 0; i < json_array_size(imports); i++) {
                json_t *line = json_array_get(imports, i);
                if (!json_is_string(line)) continue;
                if (i > 0) gb_str_append(&s, "\n");
                gb_str_append(&s, json_string_value(line));
            }
            *prelude = gb_str_take(&s);
        }
    }
    json_decref(meta);
}

/* ------------------------------------------------------------------ shared helpers */

/* A required string member of an upstream record (borrowed). */
bool gb_up_str(const json_t *rec, const char *key, const char **out, GbError *err)
{
    json_t *v = json_object_get(rec, key);
    if (!v) {
        gb_error_set(err, "missing field \"%s\"", key);
        return false;
    }
    if (!json_is_string(v)) {
        gb_error_set(err, "field \"%s\" must be a string, got %s", key, gb_json_type_name(v));
        return false;
    }
    if (strlen(json_string_value(v)) != json_string_length(v)) {
        gb_error_set(err, "field \"%s\" contains a NUL character", key);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

char *gb_up_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return gb_strdup(".");
    if (slash == path) return gb_strdup("/");
    return gb_strndup(path, (size_t)(slash - path));
}

const char *gb_up_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A path that stays inside the directory it is relative to. */
bool gb_up_relative_path_ok(const char *path)
{
    if (!path[0] || path[0] == '/') return false;
    const char *p = path;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0 || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
        p += n;
        if (*p == '/') p++;
    }
    return true;
}

/* Read a text file (UTF-8, no NUL) that belongs to a task. */
char *gb_up_read_text(const char *dir, const char *rel, GbError *err)
{
    char *path = gb_asprintf("%s/%s", dir, rel);
    size_t len = 0;
    char *text = gb_read_file(path, &len, err);
    if (text) {
        size_t bad;
        if (memchr(text, '\0', len)) {
            gb_error_set(err, "%s: contains a NUL byte", path);
            free(text);
            text = NULL;
        } else if (!gb_utf8_valid(text, len, &bad)) {
            gb_error_set(err, "%s: invalid UTF-8 at byte %zu", path, bad);
            free(text);
            text = NULL;
        }
    }
    free(path);
    return text;
}

void gb_up_accept(GbUpImport *im, json_t *rec, size_t line, GbUpRecordFn fn)
{
    GbTask t;
    gb_task_init(&t);
    t.line = line;
    GbError err = {{0}};
    if (!json_is_object(rec)) {
        gb_diag_add(im->diag, "%s:%zu: task (unknown id): a %s record must be a JSON object, got %s", im->path, line,
                    gb_upstream_name(im->format), gb_json_type_name(rec));
        gb_task_destroy(&t);
        return;
    }
    json_t *meta = json_object();
    json_object_set_new(meta, "format", json_string(gb_upstream_name(im->format)));
    if (!fn(im, rec, &t, meta, &err)) {
        gb_diag_add(im->diag, "%s:%zu: task %s: %s", im->path, line, t.id ? t.id : "(unknown id)", err.msg);
        json_decref(meta);
        gb_task_destroy(&t);
        return;
    }
    json_object_set(meta, "upstream", rec);
    free(t.meta_json);
    t.meta_json = gb_json_compact(meta);
    json_decref(meta);
    gb_bench_add_take(im->out, &t, im->parser, true, im->path, im->diag);
}

/* Each non-blank line of a JSONL file is one record. */
void gb_up_jsonl(GbUpImport *im, const char *data, size_t len, GbUpRecordFn fn, size_t *n_records)
{
    const char *p = data, *end = data + len;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) p += 3; /* a UTF-8 byte order mark */
    size_t line_no = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *start = p;
        size_t n = (size_t)((nl ? nl : end) - p);
        p = nl ? nl + 1 : end;
        line_no++;
        if (n > 0 && start[n - 1] == '\r') n--;
        bool blank = true;
        for (size_t i = 0; i < n && blank; i++) blank = start[i] == ' ' || start[i] == '\t';
        if (blank) continue;
        (*n_records)++;
        size_t bad;
        if (!gb_utf8_valid(start, n, &bad)) {
            gb_diag_add(im->diag, "%s:%zu: task (unknown id): invalid UTF-8: byte 0x%02x at column %zu", im->path,
                        line_no, (unsigned char)start[bad], bad + 1);
            continue;
        }
        json_error_t jerr;
        json_t *rec = json_loadb(start, n, JSON_REJECT_DUPLICATES, &jerr);
        if (!rec) {
            gb_diag_add(im->diag, "%s:%zu: task (unknown id): malformed JSON at column %d: %s", im->path, line_no,
                        jerr.column, jerr.text);
            continue;
        }
        gb_up_accept(im, rec, line_no, fn);
        json_decref(rec);
    }
}

bool gb_up_mkdirs(const char *dir, GbError *err)
{
    char *d = gb_strdup(dir);
    for (char *p = d + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(d, 0755) != 0 && errno != EEXIST) {
            gb_error_set(err, "%s: cannot create directory: %s", d, strerror(errno));
            free(d);
            return false;
        }
        *p = '/';
    }
    bool ok = mkdir(d, 0755) == 0 || errno == EEXIST;
    if (!ok) gb_error_set(err, "%s: cannot create directory: %s", d, strerror(errno));
    free(d);
    return ok;
}

/* ------------------------------------------------------------------ import */

bool gb_upstream_import(GbUpstream format, const char *path, GbBench *out, GbDiag *diag)
{
    GbError err;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (format != GB_UPSTREAM_AVATAR) {
            gb_diag_add(diag, "%s: is a directory; a %s benchmark is one file", path, gb_upstream_name(format));
            return false;
        }
        GbUpImport im = {format, path, gb_strdup(path), gb_parser_new(), out, diag, "avatar.jsonl"};
        if (!im.parser) abort(); /* grammar/runtime ABI mismatch: a build error */
        bool ok = gb_avatar_import_dir(&im);
        ts_parser_delete(im.parser);
        free(im.dir);
        return ok;
    }
    size_t len = 0;
    char *data = gb_read_data_file(path, &len, &err);
    if (!data) {
        gb_diag_add(diag, "%s", err.msg);
        return false;
    }
    GbUpImport im = {format, path, gb_up_dirname(path), gb_parser_new(), out, diag, NULL};
    if (!im.parser) abort(); /* grammar/runtime ABI mismatch: a build error */
    size_t n_records = 0, before = diag->messages.len;
    gb_up__formats[format].import(&im, data, len, &n_records);
    bool blank = true;
    for (size_t i = 0; i < len && blank; i++) blank = strchr(" \t\r\n", data[i]) != NULL;
    if (n_records == 0 && diag->messages.len == before)
        gb_diag_add(diag, blank ? "%s: empty file: no tasks" : "%s: empty task list: no tasks", path);
    ts_parser_delete(im.parser);
    free(im.dir);
    free(data);
    return true;
}

/* ------------------------------------------------------------------ export */

static json_t *gb_up__extra_files(const GbTask *t)
{
    json_t *files = json_object();
    for (size_t i = 0; i < t->extra_files.len; i++)
        json_object_set_new(files, t->extra_files.items[i].path, json_string(t->extra_files.items[i].source));
    return files;
}

/* The "genebench" key of an exported record that differs from upstream: what it is for and how
 * to run it (src/bench/README.md says the same). */
static json_t *gb_up__about(GbUpstream format)
{
    json_t *about = json_object();
    json_object_set_new(about, "hardened_by", json_string("genebench"));
    json_object_set_new(about, "purpose", json_string(gb_up__formats[format].purpose));
    json_object_set_new(about, "command", json_string(gb_up__formats[format].command));
    return about;
}

static void gb_up__export_task(GbUpExport *ex, const GbTask *t)
{
    GbError err = {{0}};
    json_t *meta = json_loads(t->meta_json ? t->meta_json : "{}", 0, NULL);
    json_t *format = meta ? json_object_get(meta, "format") : NULL;
    json_t *upstream = meta ? json_object_get(meta, "upstream") : NULL;
    const char *name = gb_upstream_name(ex->format);
    if (!json_is_string(format) || strcmp(json_string_value(format), name) != 0 || !json_is_object(upstream)) {
        gb_diag_add(ex->diag, "%s:%zu: task %s: not imported from %s (meta.format/meta.upstream missing); skipped",
                    ex->bench_path, t->line, t->id, name);
        json_decref(meta);
        return;
    }
    json_t *rec = json_deep_copy(upstream);
    bool ok = gb_up__formats[ex->format].export(ex, t, meta, rec, &err);
    if (ok && t->extra_files.len) json_object_set_new(rec, "extra_files", gb_up__extra_files(t));
    if (ok && !json_equal(rec, upstream)) json_object_set_new(rec, "genebench", gb_up__about(ex->format));
    if (!ok) {
        gb_diag_add(ex->diag, "%s:%zu: task %s: %s; skipped", ex->bench_path, t->line, t->id, err.msg);
    } else if (gb_up__formats[ex->format].layout == GB_UP_LAYOUT_JSON_ARRAY) {
        json_array_append(ex->array, rec);
    } else {
        GbPyJsonStyle style = {.ensure_ascii = true, .indent = -1, .compact = false};
        gb_pyjson_dump(rec, style, &ex->jsonl);
        gb_str_append(&ex->jsonl, "\n");
    }
    json_decref(rec);
    json_decref(meta);
}

bool gb_upstream_export(GbUpstream format, const GbBench *b, const char *bench_path, const char *out_path, GbDiag *diag,
                        size_t *n_written)
{
    GbUpExport ex = {.format = format,
                     .bench_path = bench_path ? bench_path : "(benchmark)",
                     .out_path = out_path,
                     .parser = gb_parser_new(),
                     .diag = diag};
    if (!ex.parser) abort(); /* grammar/runtime ABI mismatch: a build error */
    gb_str_init(&ex.jsonl);
    gb_str_append(&ex.jsonl, "");
    ex.array = json_array();
    GbError err = {{0}};
    bool ok = true;
    GbUpLayout layout = gb_up__formats[format].layout;
    size_t n_bad = 0;
    for (size_t i = 0; ok && i < b->tasks.len; i++) {
        size_t m = diag->messages.len;
        gb_up__export_task(&ex, &b->tasks.items[i]);
        if (diag->messages.len > m) n_bad++;
    }
    *n_written = ok ? b->tasks.len - n_bad : 0;
    if (ok && *n_written == 0) {
        gb_error_set(&err,
                     "%s: nothing to export: none of the %zu tasks can be written as %s (see above); nothing written",
                     out_path, b->tasks.len, gb_upstream_name(format));
        ok = false;
    }
    if (ok && layout == GB_UP_LAYOUT_JSON_ARRAY) {
        GbPyJsonStyle style = {.ensure_ascii = false, .indent = 4, .compact = false};
        GbStr s;
        gb_str_init(&s);
        gb_pyjson_dump(ex.array, style, &s);
        ok = gb_write_data_file_atomic(out_path, s.data, s.len, &err);
        gb_str_destroy(&s);
    } else if (ok && layout == GB_UP_LAYOUT_DIRECTORY) {
        ok = gb_up_mkdirs(out_path, &err);
        for (size_t i = 0; ok && i < ex.written.len; i++) {
            char *path = gb_asprintf("%s/%s", out_path, ex.written.items[i].path);
            char *dir = gb_up_dirname(path);
            ok = gb_up_mkdirs(dir, &err) &&
                 gb_write_file_atomic(path, ex.written.items[i].source, strlen(ex.written.items[i].source), &err);
            free(dir);
            free(path);
        }
        char *path = gb_asprintf("%s/%s", out_path, ex.jsonl_name ? ex.jsonl_name : "avatar.jsonl");
        if (ok) ok = gb_write_file_atomic(path, ex.jsonl.data, ex.jsonl.len, &err);
        free(path);
    } else if (ok) {
        ok = gb_write_data_file_atomic(out_path, ex.jsonl.data, ex.jsonl.len, &err);
    }
    if (!ok && err.msg[0]) gb_diag_add(diag, "%s", err.msg);
    for (size_t i = 0; i < ex.written.len; i++) {
        free(ex.written.items[i].path);
        free(ex.written.items[i].source);
    }
    gb_array_free(&ex.written);
    free(ex.jsonl_name);
    json_decref(ex.array);
    gb_str_destroy(&ex.jsonl);
    ts_parser_delete(ex.parser);
    return ok;
}
