#include "src/bench/upstream.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/model/pinned.h"
#include "src/bench/pyjson.h"
#include "src/python/pyparse.h"
#include "src/base/util.h"

static const char *const gb_upstream_names[] = {"humaneval", "cruxeval", "classeval", "avatar"};

bool gb_upstream_from_name(const char *name, GbUpstream *out)
{
    for (size_t i = 0; i < sizeof gb_upstream_names / sizeof gb_upstream_names[0]; i++) {
        if (strcmp(name, gb_upstream_names[i]) == 0) {
            *out = (GbUpstream)i;
            return true;
        }
    }
    return false;
}

const char *gb_upstream_name(GbUpstream format)
{
    return gb_upstream_names[format];
}

/* ------------------------------------------------------------------ shared helpers */

/* A required string member of an upstream record (borrowed). */
static bool gb_up__str(const json_t *rec, const char *key, const char **out, GbError *err)
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

static char *gb_up__dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return gb_strdup(".");
    if (slash == path) return gb_strdup("/");
    return gb_strndup(path, (size_t)(slash - path));
}

static const char *gb_up__basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A path that stays inside the directory it is relative to. */
static bool gb_up__relative_path_ok(const char *path)
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
static char *gb_up__read_text(const char *dir, const char *rel, GbError *err)
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

typedef struct {
    GbUpstream format;
    const char *path; /* the upstream file */
    char *dir;        /* its directory (owned) */
    TSParser *parser;
    GbBench *out;
    GbDiag *diag;
} GbImport;

/* Fill t from one upstream record. On failure sets err (t->id set when known). */
typedef bool (*GbRecordFn)(GbImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err);

static void gb_up__accept(GbImport *im, json_t *rec, size_t line, GbRecordFn fn)
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
static void gb_up__jsonl(GbImport *im, const char *data, size_t len, GbRecordFn fn, size_t *n_records)
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
        gb_up__accept(im, rec, line_no, fn);
        json_decref(rec);
    }
}

/* ------------------------------------------------------------------ HumanEval */

static char *gb_up__humaneval_test(const char *test, const char *entry)
{
    return gb_asprintf("%s\ncheck(%s)\n", test, entry);
}

static bool gb_up__humaneval_record(GbImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *prompt, *solution, *test, *entry;
    if (!gb_up__str(rec, "task_id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up__str(rec, "prompt", &prompt, err) || !gb_up__str(rec, "canonical_solution", &solution, err) ||
        !gb_up__str(rec, "test", &test, err) || !gb_up__str(rec, "entry_point", &entry, err))
        return false;
    t->source = gb_asprintf("%s%s", prompt, solution);
    t->entry_point = gb_strdup(entry);
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_up__humaneval_test(test, entry);
    return true;
}

/* ------------------------------------------------------------------ CRUXEval */

static char *gb_up__cruxeval_test(const char *input, const char *output)
{
    return gb_asprintf("assert f(%s) == %s\n", input, output);
}

static bool gb_up__cruxeval_record(GbImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *code, *input, *output;
    if (!gb_up__str(rec, "id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up__str(rec, "code", &code, err) || !gb_up__str(rec, "input", &input, err) ||
        !gb_up__str(rec, "output", &output, err))
        return false;
    t->source = gb_strdup(code);
    t->entry_point = gb_strdup("f");
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_up__cruxeval_test(input, output);
    return true;
}

/* ------------------------------------------------------------------ ClassEval */

static bool gb_up__classeval_record(GbImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *solution, *test, *class_name;
    if (!gb_up__str(rec, "task_id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up__str(rec, "solution_code", &solution, err) || !gb_up__str(rec, "test", &test, err) ||
        !gb_up__str(rec, "class_name", &class_name, err))
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

static void gb_up__classeval_file(GbImport *im, const char *data, size_t len, size_t *n_records)
{
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
        gb_up__accept(im, json_array_get(root, i), line, gb_up__classeval_record);
    }
    gb_array_free(&spans);
    json_decref(root);
}

/* ------------------------------------------------------------------ Avatar */

typedef struct {
    long k;
    char *in_file, *out_file; /* relative to the jsonl's directory */
} GbAvatarCase;

static int gb_up__case_cmp(const void *a, const void *b)
{
    long x = ((const GbAvatarCase *)a)->k, y = ((const GbAvatarCase *)b)->k;
    return (x > y) - (x < y);
}

/* TestCases/<id>_<k>.in with a matching .out, sorted by k. */
static bool gb_up__avatar_find_cases(const char *dir, const char *id, json_t *list, GbError *err)
{
    char *tc = gb_asprintf("%s/TestCases", dir);
    DIR *d = opendir(tc);
    if (!d) {
        gb_error_set(err, "no test cases: cannot open %s: %s", tc, strerror(errno));
        free(tc);
        return false;
    }
    GbArray(GbAvatarCase) found = {0};
    size_t idlen = strlen(id);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        size_t n = strlen(name);
        if (n <= idlen + 4 || strncmp(name, id, idlen) != 0 || name[idlen] != '_' || strcmp(name + n - 3, ".in") != 0)
            continue;
        const char *digits = name + idlen + 1;
        size_t nd = n - idlen - 1 - 3;
        bool numeric = nd > 0 && nd < 10;
        for (size_t i = 0; i < nd && numeric; i++) numeric = digits[i] >= '0' && digits[i] <= '9';
        if (!numeric) continue;
        GbAvatarCase c = {strtol(digits, NULL, 10), gb_asprintf("TestCases/%s", name),
                          gb_asprintf("TestCases/%.*s.out", (int)(n - 3), name)};
        gb_array_push(&found, c);
    }
    closedir(d);
    qsort(found.items, found.len, sizeof *found.items, gb_up__case_cmp);
    bool ok = found.len > 0;
    if (!ok) gb_error_set(err, "no test cases %s/%s_<k>.in found", tc, id);
    for (size_t i = 0; i < found.len; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "k", json_integer(found.items[i].k));
        json_object_set_new(c, "in_file", json_string(found.items[i].in_file));
        json_object_set_new(c, "out_file", json_string(found.items[i].out_file));
        json_array_append_new(list, c);
        free(found.items[i].in_file);
        free(found.items[i].out_file);
    }
    gb_array_free(&found);
    free(tc);
    return ok;
}

/* The tokenised code of the first Python solution of an AVATAR record: "python" is a
 * string, a list of strings, or a list of {"code": ...} objects. Borrowed. */
static const char *gb_up__avatar_tokens(const json_t *rec, GbError *err)
{
    json_t *py = json_object_get(rec, "python");
    if (json_is_string(py)) return json_string_value(py);
    if (json_is_array(py) && json_array_size(py) > 0) {
        json_t *first = json_array_get(py, 0);
        if (json_is_string(first)) return json_string_value(first);
        json_t *code = json_object_get(first, "code");
        if (json_is_string(code)) return json_string_value(code);
    }
    gb_error_set(err, "field \"python\" must be a string, a non-empty array of strings or of {\"code\": string}");
    return NULL;
}

static bool gb_up__avatar_record(GbImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    const char *id;
    if (!gb_up__str(rec, "id", &id, err)) return false;
    t->id = gb_strdup(id);
    t->kind = GB_TESTS_STDIO;
    json_object_set_new(meta, "file", json_string(gb_up__basename(im->path)));
    json_t *cases;
    if (json_object_get(rec, "code")) {
        const char *code;
        if (!gb_up__str(rec, "code", &code, err)) return false;
        t->source = gb_strdup(code);
        json_object_set_new(meta, "form", json_string("dev"));
        cases = json_object_get(rec, "tests");
        if (!cases) {
            gb_error_set(err, "missing field \"tests\"");
            return false;
        }
        if (!json_is_array(cases) || json_array_size(cases) == 0) {
            gb_error_set(err, "field \"tests\" must be a non-empty array of {k, in_file, out_file}");
            return false;
        }
        json_incref(cases);
    } else if (json_object_get(rec, "python")) {
        const char *tokens = gb_up__avatar_tokens(rec, err);
        if (!tokens) return false;
        t->source = gb_avatar_detokenize(tokens);
        json_object_set_new(meta, "form", json_string("tokenised"));
        cases = json_array();
        if (!gb_up__avatar_find_cases(im->dir, id, cases, err)) {
            json_decref(cases);
            return false;
        }
        json_object_set(meta, "test_files", cases);
    } else {
        gb_error_set(err, "missing field \"code\" (Avatar dev form) or \"python\" (AVATAR tokenised form)");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < json_array_size(cases); i++) {
        json_t *c = json_array_get(cases, i);
        const char *in_file, *out_file;
        if (!json_is_object(c) || !gb_up__str(c, "in_file", &in_file, err) ||
            !gb_up__str(c, "out_file", &out_file, err)) {
            if (!json_is_object(c)) gb_error_set(err, "field \"tests[%zu]\" must be an object", i);
            ok = false;
            break;
        }
        if (!gb_up__relative_path_ok(in_file) || !gb_up__relative_path_ok(out_file)) {
            gb_error_set(err, "test case %zu: file names must be relative paths inside %s", i, im->dir);
            ok = false;
            break;
        }
        GbStdioCase sc = {gb_up__read_text(im->dir, in_file, err), NULL};
        if (sc.stdin_text) sc.stdout_text = gb_up__read_text(im->dir, out_file, err);
        if (!sc.stdin_text || !sc.stdout_text) {
            free(sc.stdin_text);
            ok = false;
            break;
        }
        gb_array_push(&t->cases, sc);
    }
    json_decref(cases);
    return ok;
}

/* ------------------------------------------------------------------ import */

bool gb_upstream_import(GbUpstream format, const char *path, GbBench *out, GbDiag *diag)
{
    GbError err;
    size_t len = 0;
    char *data = gb_read_file(path, &len, &err);
    if (!data) {
        gb_diag_add(diag, "%s", err.msg);
        return false;
    }
    GbImport im = {format, path, gb_up__dirname(path), gb_parser_new(), out, diag};
    if (!im.parser) abort(); /* grammar/runtime ABI mismatch: a build error */
    size_t n_records = 0, before = diag->messages.len;
    bool blank = true;
    for (size_t i = 0; i < len && blank; i++) blank = strchr(" \t\r\n", data[i]) != NULL;
    switch (format) {
    case GB_UPSTREAM_HUMANEVAL:
        gb_up__jsonl(&im, data, len, gb_up__humaneval_record, &n_records);
        break;
    case GB_UPSTREAM_CRUXEVAL:
        gb_up__jsonl(&im, data, len, gb_up__cruxeval_record, &n_records);
        break;
    case GB_UPSTREAM_AVATAR:
        gb_up__jsonl(&im, data, len, gb_up__avatar_record, &n_records);
        break;
    case GB_UPSTREAM_CLASSEVAL:
        if (!blank) gb_up__classeval_file(&im, data, len, &n_records);
        break;
    }
    if (n_records == 0 && diag->messages.len == before)
        gb_diag_add(diag, blank ? "%s: empty file: no tasks" : "%s: empty task list: no tasks", path);
    ts_parser_delete(im.parser);
    free(im.dir);
    free(data);
    return true;
}

/* ------------------------------------------------------------------ HumanEval prompt split */

static TSNode gb_up__function_named(TSNode root, const char *src, const char *name)
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
    TSNode fn = gb_up__function_named(ts_tree_root_node(tree), source, entry);
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

/* ------------------------------------------------------------------ Avatar (de)tokenisation */

static void gb_up__replace_all(GbStr *out, const char *s, size_t n)
{
    /* inside a string literal: ▁ (U+2581) -> space, STRNEWLINE -> \n, TABSYMBOL -> \t */
    static const struct {
        const char *from, *to;
    } map[] = {{"\xe2\x96\x81", " "}, {"STRNEWLINE", "\n"}, {"TABSYMBOL", "\t"}};
    size_t i = 0;
    while (i < n) {
        bool hit = false;
        for (size_t m = 0; m < 3 && !hit; m++) {
            size_t fl = strlen(map[m].from);
            if (i + fl <= n && memcmp(s + i, map[m].from, fl) == 0) {
                gb_str_append(out, map[m].to);
                i += fl;
                hit = true;
            }
        }
        if (!hit) gb_str_append_n(out, s + i, 1);
        if (!hit) i++;
    }
}

static bool gb_up__is_prefix(const char *tok)
{
    size_t n = strlen(tok);
    if (n == 0 || n > 2) return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("rRuUfFbB", tok[i])) return false;
    return true;
}

/* Length of the opening of a string literal at the start of tok (prefix + quote), or 0. */
static size_t gb_up__string_opening(const char *tok, const char **quote)
{
    size_t i = 0;
    while (i < 2 && tok[i] && strchr("rRuUfFbB", tok[i])) i++;
    if (tok[i] != '"' && tok[i] != '\'') {
        if (i == 0) return 0;
        i = 0; /* an identifier such as "b" followed by nothing quote-like */
        if (tok[0] != '"' && tok[0] != '\'') return 0;
    }
    if (strncmp(tok + i, "\"\"\"", 3) == 0)
        *quote = "\"\"\"";
    else if (strncmp(tok + i, "'''", 3) == 0)
        *quote = "'''";
    else
        *quote = tok[i] == '"' ? "\"" : "'";
    return i + strlen(*quote);
}

/* Index of the closing quote in s[from..n), or n when the literal is not closed yet. */
static size_t gb_up__string_close(const char *s, size_t n, size_t from, const char *quote)
{
    size_t ql = strlen(quote);
    for (size_t i = from; i < n;) {
        if (s[i] == '\\') {
            i += 2;
            continue;
        }
        if (i + ql <= n && memcmp(s + i, quote, ql) == 0) return i;
        i++;
    }
    return n;
}

typedef GbArray(char *) GbTokens;

char *gb_avatar_detokenize(const char *tokens)
{
    GbTokens toks = {0};
    const char *p = tokens;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        const char *s = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') p++;
        gb_array_push(&toks, gb_strndup(s, (size_t)(p - s)));
    }
    GbStr out, line;
    gb_str_init(&out);
    gb_str_init(&line);
    gb_str_append(&out, "");
    gb_str_append(&line, "");
    int level = 0;
    bool glue_next = false;
    const char *prev = NULL; /* previous token of the line (borrowed) */
    for (size_t i = 0; i < toks.len; i++) {
        char *tok = toks.items[i];
        if (strcmp(tok, "NEW_LINE") == 0) {
            if (line.len) {
                for (int k = 0; k < level; k++) gb_str_append(&out, "    ");
                gb_str_append(&out, line.data);
                gb_str_append(&out, "\n");
            }
            gb_str_clear(&line);
            glue_next = false;
            prev = NULL;
            continue;
        }
        if (line.len == 0 && strcmp(tok, "INDENT") == 0) {
            level++;
            continue;
        }
        if (line.len == 0 && strcmp(tok, "DEDENT") == 0) {
            if (level > 0) level--;
            continue;
        }
        /* a string literal: the prefix may be its own token; the literal spans tokens */
        const char *quote = NULL;
        size_t open = gb_up__string_opening(tok, &quote);
        bool split_prefix = false;
        if (!open && gb_up__is_prefix(tok) && i + 1 < toks.len) {
            const char *q2 = NULL;
            size_t o2 = gb_up__string_opening(toks.items[i + 1], &q2);
            if (o2 && !gb_up__is_prefix(toks.items[i + 1]) &&
                (toks.items[i + 1][0] == '"' || toks.items[i + 1][0] == '\'')) {
                split_prefix = true;
                open = o2 + strlen(tok);
                quote = q2;
            }
        }
        if (open) {
            GbStr lit;
            gb_str_init(&lit);
            gb_str_append(&lit, tok);
            if (split_prefix) gb_str_append(&lit, toks.items[++i]);
            size_t close = gb_up__string_close(lit.data, lit.len, open, quote);
            while (close == lit.len && i + 1 < toks.len) {
                gb_str_append(&lit, toks.items[++i]);
                close = gb_up__string_close(lit.data, lit.len, open, quote);
            }
            if (line.len && !glue_next) gb_str_append(&line, " ");
            size_t lit_end = close < lit.len ? close + strlen(quote) : lit.len;
            gb_up__replace_all(&line, lit.data, lit_end);
            if (lit_end < lit.len) {
                /* text glued after the closing quote is the next token */
                free(toks.items[i]);
                toks.items[i] = gb_strdup(lit.data + lit_end);
                i--;
            }
            gb_str_destroy(&lit);
            glue_next = false;
            prev = "\"";
            continue;
        }
        bool is_dot = strcmp(tok, ".") == 0;
        bool prev_blocks_dot = prev && (strcmp(prev, "from") == 0 || strcmp(prev, "import") == 0 ||
                                        strspn(prev, "0123456789") == strlen(prev));
        if (line.len == 0) {
            /* first token of the line */
        } else if (is_dot && !prev_blocks_dot) {
            /* attribute access: glued to what precedes it */
        } else if (glue_next && strcmp(tok, "import") != 0) {
            /* glued to the preceding dot */
        } else {
            gb_str_append(&line, " ");
        }
        gb_str_append(&line, tok);
        glue_next = is_dot;
        prev = tok;
    }
    if (line.len) {
        for (int k = 0; k < level; k++) gb_str_append(&out, "    ");
        gb_str_append(&out, line.data);
        gb_str_append(&out, "\n");
    }
    for (size_t i = 0; i < toks.len; i++) free(toks.items[i]);
    gb_array_free(&toks);
    gb_str_destroy(&line);
    return gb_str_take(&out);
}

typedef struct {
    uint32_t start, end; /* bytes */
    uint32_t row, end_row, col;
    bool is_string;
} GbLeaf;
typedef GbArray(GbLeaf) GbLeaves;

static void gb_up__leaves(TSNode n, GbLeaves *out)
{
    const char *type = ts_node_type(n);
    if (strcmp(type, "comment") == 0 || strcmp(type, "line_continuation") == 0) return;
    bool is_string = strcmp(type, "string") == 0;
    if (is_string || ts_node_child_count(n) == 0) {
        if (ts_node_end_byte(n) == ts_node_start_byte(n)) return;
        GbLeaf l = {ts_node_start_byte(n),    ts_node_end_byte(n),           ts_node_start_point(n).row,
                    ts_node_end_point(n).row, ts_node_start_point(n).column, is_string};
        gb_array_push(out, l);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_up__leaves(ts_node_child(n, i), out);
}

/* A backslash-newline between two tokens (outside comments) joins their lines. */
static bool gb_up__continued(const char *src, uint32_t from, uint32_t to)
{
    bool in_comment = false;
    for (uint32_t i = from; i < to; i++) {
        if (src[i] == '#') in_comment = true;
        if (src[i] == '\n') in_comment = false;
        if (!in_comment && src[i] == '\\' && i + 1 < to && (src[i + 1] == '\n' || src[i + 1] == '\r')) return true;
    }
    return false;
}

char *gb_avatar_tokenize(const char *source, TSParser *parser)
{
    size_t len = strlen(source);
    TSTree *tree = gb_parse(parser, source, len);
    GbLeaves leaves = {0};
    gb_up__leaves(ts_tree_root_node(tree), &leaves);
    ts_tree_delete(tree);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    GbArray(uint32_t) indents = {0};
    gb_array_push(&indents, 0u);
    int depth = 0;
    for (size_t i = 0; i < leaves.len; i++) {
        GbLeaf l = leaves.items[i];
        bool new_line = i == 0 || (depth == 0 && l.row > leaves.items[i - 1].end_row &&
                                   !gb_up__continued(source, leaves.items[i - 1].end, l.start));
        if (new_line) {
            if (i > 0) gb_str_append(&out, " NEW_LINE");
            if (l.col > indents.items[indents.len - 1]) {
                gb_array_push(&indents, l.col);
                gb_str_append(&out, " INDENT");
            }
            while (indents.len > 1 && l.col < indents.items[indents.len - 1]) {
                indents.len--;
                gb_str_append(&out, " DEDENT");
            }
        }
        if (out.len) gb_str_append(&out, " ");
        const char *text = source + l.start;
        size_t n = l.end - l.start;
        if (l.is_string) {
            for (size_t k = 0; k < n; k++) {
                if (text[k] == ' ')
                    gb_str_append(&out, " \xe2\x96\x81 ");
                else if (text[k] == '\n')
                    gb_str_append(&out, " STRNEWLINE ");
                else if (text[k] == '\t')
                    gb_str_append(&out, " TABSYMBOL ");
                else if (text[k] != '\r')
                    gb_str_append_n(&out, text + k, 1);
            }
        } else {
            if (n == 1 && strchr("([{", text[0])) depth++;
            if (n == 1 && strchr(")]}", text[0]) && depth > 0) depth--;
            gb_str_append_n(&out, text, n);
        }
    }
    if (leaves.len) gb_str_append(&out, " NEW_LINE");
    while (indents.len > 1) {
        indents.len--;
        gb_str_append(&out, " DEDENT");
    }
    gb_array_free(&indents);
    gb_array_free(&leaves);
    return gb_str_take(&out);
}

/* ------------------------------------------------------------------ export */

typedef struct {
    GbUpstream format;
    const char *bench_path;
    const char *out_path;
    TSParser *parser;
    GbDiag *diag;
    GbStr jsonl;             /* JSONL formats */
    json_t *array;           /* ClassEval */
    GbArray(GbFile) written; /* Avatar: files written so far (path -> content), to detect clashes */
    char *avatar_name;       /* Avatar: name of the .jsonl */
    bool io_failed;
} GbExport;

static json_t *gb_up__extra_files(const GbTask *t)
{
    json_t *files = json_object();
    for (size_t i = 0; i < t->extra_files.len; i++)
        json_object_set_new(files, t->extra_files.items[i].path, json_string(t->extra_files.items[i].source));
    return files;
}

static bool gb_up__mkdirs(const char *dir, GbError *err)
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

/* Write OUT/rel (Avatar). The same path may be written twice only with the same content. */
static bool gb_up__avatar_write(GbExport *ex, const char *rel, const char *content, GbError *err)
{
    for (size_t i = 0; i < ex->written.len; i++) {
        if (strcmp(ex->written.items[i].path, rel) == 0) {
            if (strcmp(ex->written.items[i].source, content) == 0) return true;
            gb_error_set(err, "%s/%s is written by two tasks with different contents", ex->out_path, rel);
            return false;
        }
    }
    char *path = gb_asprintf("%s/%s", ex->out_path, rel);
    char *dir = gb_up__dirname(path);
    bool ok = gb_up__mkdirs(dir, err) && gb_write_file_atomic(path, content, strlen(content), err);
    if (!ok) ex->io_failed = true;
    if (ok) {
        GbFile f = {gb_strdup(rel), gb_strdup(content)};
        gb_array_push(&ex->written, f);
    }
    free(dir);
    free(path);
    return ok;
}

static bool gb_up__export_humaneval(GbExport *ex, const GbTask *t, json_t *rec, GbError *err)
{
    const char *prompt, *solution, *test;
    if (!gb_up__str(rec, "prompt", &prompt, err) || !gb_up__str(rec, "canonical_solution", &solution, err) ||
        !gb_up__str(rec, "test", &test, err))
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

static bool gb_up__export_cruxeval(GbExport *ex, const GbTask *t, json_t *rec, GbError *err)
{
    (void)ex;
    const char *input, *output;
    if (!gb_up__str(rec, "input", &input, err) || !gb_up__str(rec, "output", &output, err)) return false;
    char *want = gb_up__cruxeval_test(input, output);
    bool same = t->kind == GB_TESTS_ASSERT && t->test_code && strcmp(t->test_code, want) == 0;
    free(want);
    if (!same) {
        gb_error_set(err, "tests.code is not \"assert f(<input>) == <output>\" of the upstream record: CRUXEval "
                          "cannot hold these tests");
        return false;
    }
    json_object_set_new(rec, "code", json_string(t->source));
    json_object_set_new(rec, "id", json_string(t->id));
    return true;
}

static bool gb_up__export_classeval(GbExport *ex, const GbTask *t, json_t *rec, GbError *err)
{
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

static bool gb_up__export_avatar(GbExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err)
{
    if (t->kind != GB_TESTS_STDIO) {
        gb_error_set(err, "an Avatar task needs stdio tests, got %s", gb_test_kind_name(t->kind));
        return false;
    }
    json_t *form = json_object_get(meta, "form");
    bool tokenised = json_is_string(form) && strcmp(json_string_value(form), "tokenised") == 0;
    json_t *file = json_object_get(meta, "file");
    if (!ex->avatar_name && json_is_string(file) && gb_up__relative_path_ok(json_string_value(file)) &&
        !strchr(json_string_value(file), '/'))
        ex->avatar_name = gb_strdup(json_string_value(file));

    /* the test case files: upstream names where known, TestCases/<id>_<i>.in otherwise */
    json_t *cases = tokenised ? json_object_get(meta, "test_files") : json_object_get(rec, "tests");
    json_t *new_cases = json_array();
    bool ok = true;
    for (size_t i = 0; ok && i < t->cases.len; i++) {
        json_t *c = json_is_array(cases) ? json_array_get(cases, i) : NULL;
        json_t *entry = json_is_object(c) ? json_deep_copy(c) : json_object();
        json_t *in = json_object_get(entry, "in_file"), *out = json_object_get(entry, "out_file");
        if (!json_is_string(in) || !json_is_string(out) || !gb_up__relative_path_ok(json_string_value(in)) ||
            !gb_up__relative_path_ok(json_string_value(out))) {
            json_object_set_new(entry, "k", json_integer((json_int_t)i));
            json_object_set_new(entry, "in_file", json_sprintf("TestCases/%s_%zu.in", t->id, i));
            json_object_set_new(entry, "out_file", json_sprintf("TestCases/%s_%zu.out", t->id, i));
        }
        ok = gb_up__avatar_write(ex, json_string_value(json_object_get(entry, "in_file")), t->cases.items[i].stdin_text,
                                 err) &&
             gb_up__avatar_write(ex, json_string_value(json_object_get(entry, "out_file")),
                                 t->cases.items[i].stdout_text, err);
        json_array_append_new(new_cases, entry);
    }
    /* the program, and its helper modules beside it */
    json_t *code_file = json_object_get(rec, "code_file");
    char *code_rel = json_is_string(code_file) && gb_up__relative_path_ok(json_string_value(code_file))
                         ? gb_strdup(json_string_value(code_file))
                         : gb_asprintf("Code/%s.py", t->id);
    char *code_dir =
        strrchr(code_rel, '/') ? gb_strndup(code_rel, (size_t)(strrchr(code_rel, '/') - code_rel)) : gb_strdup("");
    if (ok) ok = gb_up__avatar_write(ex, code_rel, t->source, err);
    for (size_t i = 0; ok && i < t->extra_files.len; i++) {
        char *rel = code_dir[0] ? gb_asprintf("%s/%s", code_dir, t->extra_files.items[i].path)
                                : gb_strdup(t->extra_files.items[i].path);
        ok = gb_up__avatar_write(ex, rel, t->extra_files.items[i].source, err);
        free(rel);
    }
    free(code_rel);
    free(code_dir);
    if (ok && tokenised) {
        GbError terr;
        const char *orig = gb_up__avatar_tokens(rec, &terr);
        char *orig_src = orig ? gb_avatar_detokenize(orig) : NULL;
        if (!orig_src || strcmp(orig_src, t->source) != 0) {
            json_t *py = json_object_get(rec, "python");
            char *tok = gb_avatar_tokenize(t->source, ex->parser);
            json_t *tokens = json_string(tok);
            free(tok);
            if (json_is_array(py) && json_array_size(py) > 0 && json_is_object(json_array_get(py, 0)))
                json_object_set_new(json_array_get(py, 0), "code", tokens);
            else if (json_is_array(py) && json_array_size(py) > 0)
                json_array_set_new(py, 0, tokens);
            else
                json_object_set_new(rec, "python", tokens);
        }
        free(orig_src);
    } else if (ok) {
        json_object_set_new(rec, "code", json_string(t->source));
        if (json_object_get(rec, "tests")) json_object_set(rec, "tests", new_cases);
    }
    if (ok) json_object_set_new(rec, "id", json_string(t->id));
    json_decref(new_cases);
    return ok;
}

static void gb_up__export_task(GbExport *ex, const GbTask *t)
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
    bool ok = false;
    switch (ex->format) {
    case GB_UPSTREAM_HUMANEVAL:
        ok = gb_up__export_humaneval(ex, t, rec, &err);
        break;
    case GB_UPSTREAM_CRUXEVAL:
        ok = gb_up__export_cruxeval(ex, t, rec, &err);
        break;
    case GB_UPSTREAM_CLASSEVAL:
        ok = gb_up__export_classeval(ex, t, rec, &err);
        break;
    case GB_UPSTREAM_AVATAR:
        ok = gb_up__export_avatar(ex, t, meta, rec, &err);
        break;
    }
    if (ok && t->extra_files.len) json_object_set_new(rec, "extra_files", gb_up__extra_files(t));
    if (!ok) {
        gb_diag_add(ex->diag, "%s:%zu: task %s: %s; skipped", ex->bench_path, t->line, t->id, err.msg);
    } else if (ex->format == GB_UPSTREAM_CLASSEVAL) {
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
    GbExport ex = {.format = format,
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
    if (format == GB_UPSTREAM_AVATAR && !gb_up__mkdirs(out_path, &err)) {
        gb_diag_add(diag, "%s", err.msg);
        ok = false;
    }
    size_t n_bad = 0;
    for (size_t i = 0; ok && i < b->tasks.len; i++) {
        size_t m = diag->messages.len;
        gb_up__export_task(&ex, &b->tasks.items[i]);
        if (diag->messages.len > m) n_bad++;
    }
    *n_written = ok ? b->tasks.len - n_bad : 0;
    if (ok && format == GB_UPSTREAM_CLASSEVAL) {
        GbPyJsonStyle style = {.ensure_ascii = false, .indent = 4, .compact = false};
        GbStr s;
        gb_str_init(&s);
        gb_pyjson_dump(ex.array, style, &s);
        ok = gb_write_file_atomic(out_path, s.data, s.len, &err);
        gb_str_destroy(&s);
    } else if (ok && format == GB_UPSTREAM_AVATAR) {
        char *path = gb_asprintf("%s/%s", out_path, ex.avatar_name ? ex.avatar_name : "avatar.jsonl");
        ok = !ex.io_failed && gb_write_file_atomic(path, ex.jsonl.data, ex.jsonl.len, &err);
        if (ex.io_failed) gb_error_set(&err, "%s: some files could not be written", out_path);
        free(path);
    } else if (ok) {
        ok = gb_write_file_atomic(out_path, ex.jsonl.data, ex.jsonl.len, &err);
    }
    if (!ok && err.msg[0]) gb_diag_add(diag, "%s", err.msg);
    for (size_t i = 0; i < ex.written.len; i++) {
        free(ex.written.items[i].path);
        free(ex.written.items[i].source);
    }
    gb_array_free(&ex.written);
    free(ex.avatar_name);
    json_decref(ex.array);
    gb_str_destroy(&ex.jsonl);
    ts_parser_delete(ex.parser);
    return ok;
}
