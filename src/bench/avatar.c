/* Avatar (AVATAR, in the PLTranslationEmpirical "dev" packaging or AVATAR's tokenised form):
 * JSONL records plus Code/<id>.py and TestCases/<id>_<k>.in/.out files; stdio tests. Also the
 * (de)tokenisation between AVATAR's NEW_LINE/INDENT/DEDENT form and runnable Python. */
#include "src/bench/upstream_format.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"
#include "src/python/pyparse.h"

/* ------------------------------------------------------------------ Avatar */

typedef struct {
    long k;
    char *in_file, *out_file; /* relative to the jsonl's directory */
} GbAvatarCase;

static int gb_avatar__case_cmp(const void *a, const void *b)
{
    long x = ((const GbAvatarCase *)a)->k, y = ((const GbAvatarCase *)b)->k;
    return (x > y) - (x < y);
}

/* TestCases/<id>_<k>.in with a matching .out, sorted by k. */
static bool gb_avatar__find_cases(const char *dir, const char *id, json_t *list, GbError *err)
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
    qsort(found.items, found.len, sizeof *found.items, gb_avatar__case_cmp);
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
static const char *gb_avatar__tokens(const json_t *rec, GbError *err)
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

static bool gb_avatar__record(GbUpImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    const char *id;
    if (!gb_up_str(rec, "id", &id, err)) return false;
    t->id = gb_strdup(id);
    t->kind = GB_TESTS_STDIO;
    json_object_set_new(meta, "file", json_string(im->file ? im->file : gb_up_basename(im->path)));
    json_t *cases;
    if (json_object_get(rec, "code")) {
        const char *code;
        if (!gb_up_str(rec, "code", &code, err)) return false;
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
        const char *tokens = gb_avatar__tokens(rec, err);
        if (!tokens) return false;
        t->source = gb_avatar_detokenize(tokens);
        json_object_set_new(meta, "form", json_string("tokenised"));
        cases = json_array();
        if (!gb_avatar__find_cases(im->dir, id, cases, err)) {
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
        if (!json_is_object(c) || !gb_up_str(c, "in_file", &in_file, err) ||
            !gb_up_str(c, "out_file", &out_file, err)) {
            if (!json_is_object(c)) gb_error_set(err, "field \"tests[%zu]\" must be an object", i);
            ok = false;
            break;
        }
        if (!gb_up_relative_path_ok(in_file) || !gb_up_relative_path_ok(out_file)) {
            gb_error_set(err, "test case %zu: file names must be relative paths inside %s", i, im->dir);
            ok = false;
            break;
        }
        GbStdioCase sc = {gb_up_read_text(im->dir, in_file, err), NULL};
        if (sc.stdin_text) sc.stdout_text = gb_up_read_text(im->dir, out_file, err);
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

/* ------------------------------------------------------------------ Avatar (de)tokenisation */

static void gb_avatar__replace_all(GbStr *out, const char *s, size_t n)
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

static bool gb_avatar__is_prefix(const char *tok)
{
    size_t n = strlen(tok);
    if (n == 0 || n > 2) return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("rRuUfFbB", tok[i])) return false;
    return true;
}

/* Length of the opening of a string literal at the start of tok (prefix + quote), or 0. */
static size_t gb_avatar__string_opening(const char *tok, const char **quote)
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
static size_t gb_avatar__string_close(const char *s, size_t n, size_t from, const char *quote)
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
        size_t open = gb_avatar__string_opening(tok, &quote);
        bool split_prefix = false;
        if (!open && gb_avatar__is_prefix(tok) && i + 1 < toks.len) {
            const char *q2 = NULL;
            size_t o2 = gb_avatar__string_opening(toks.items[i + 1], &q2);
            if (o2 && !gb_avatar__is_prefix(toks.items[i + 1]) &&
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
            size_t close = gb_avatar__string_close(lit.data, lit.len, open, quote);
            while (close == lit.len && i + 1 < toks.len) {
                gb_str_append(&lit, toks.items[++i]);
                close = gb_avatar__string_close(lit.data, lit.len, open, quote);
            }
            if (line.len && !glue_next) gb_str_append(&line, " ");
            size_t lit_end = close < lit.len ? close + strlen(quote) : lit.len;
            gb_avatar__replace_all(&line, lit.data, lit_end);
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

static void gb_avatar__leaves(TSNode n, GbLeaves *out)
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
    for (uint32_t i = 0; i < c; i++) gb_avatar__leaves(ts_node_child(n, i), out);
}

/* A backslash-newline between two tokens (outside comments) joins their lines. */
static bool gb_avatar__continued(const char *src, uint32_t from, uint32_t to)
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
    gb_avatar__leaves(ts_tree_root_node(tree), &leaves);
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
                                   !gb_avatar__continued(source, leaves.items[i - 1].end, l.start));
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

/* Add OUT/rel to the files the export writes at its end (src/bench/upstream.c), so that nothing
 * is written when nothing can be exported. rel must stay inside OUT. The same path may be
 * written twice only with the same content. */
static bool gb_avatar__write(GbUpExport *ex, const char *rel, const char *content, GbError *err)
{
    if (!gb_up_relative_path_ok(rel)) {
        gb_error_set(err, "%s would be written outside %s", rel, ex->out_path);
        return false;
    }
    for (size_t i = 0; i < ex->written.len; i++) {
        if (strcmp(ex->written.items[i].path, rel) == 0) {
            if (strcmp(ex->written.items[i].source, content) == 0) return true;
            gb_error_set(err, "%s/%s is written by two tasks with different contents", ex->out_path, rel);
            return false;
        }
    }
    GbFile f = {gb_strdup(rel), gb_strdup(content)};
    gb_array_push(&ex->written, f);
    return true;
}

bool gb_avatar_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err)
{
    if (t->kind != GB_TESTS_STDIO) {
        gb_error_set(err, "an Avatar task needs stdio tests, got %s", gb_test_kind_name(t->kind));
        return false;
    }
    if (strchr(t->id, '/') || strcmp(t->id, ".") == 0 || strcmp(t->id, "..") == 0) {
        gb_error_set(err, "an Avatar id names its files (Code/<id>.py, TestCases/<id>_<k>.in): it cannot be \"%s\"",
                     t->id);
        return false;
    }
    size_t mark = ex->written.len; /* a task that fails leaves no file behind */
    json_t *form = json_object_get(meta, "form");
    bool tokenised = json_is_string(form) && strcmp(json_string_value(form), "tokenised") == 0;
    json_t *file = json_object_get(meta, "file");
    if (!ex->jsonl_name && json_is_string(file) && gb_up_relative_path_ok(json_string_value(file)) &&
        !strchr(json_string_value(file), '/'))
        ex->jsonl_name = gb_strdup(json_string_value(file));

    /* the test case files: upstream names where known, TestCases/<id>_<i>.in otherwise */
    json_t *cases = tokenised ? json_object_get(meta, "test_files") : json_object_get(rec, "tests");
    json_t *new_cases = json_array();
    bool ok = true;
    for (size_t i = 0; ok && i < t->cases.len; i++) {
        json_t *c = json_is_array(cases) ? json_array_get(cases, i) : NULL;
        json_t *entry = json_is_object(c) ? json_deep_copy(c) : json_object();
        json_t *in = json_object_get(entry, "in_file"), *out = json_object_get(entry, "out_file");
        if (!json_is_string(in) || !json_is_string(out) || !gb_up_relative_path_ok(json_string_value(in)) ||
            !gb_up_relative_path_ok(json_string_value(out))) {
            json_object_set_new(entry, "k", json_integer((json_int_t)i));
            json_object_set_new(entry, "in_file", json_sprintf("TestCases/%s_%zu.in", t->id, i));
            json_object_set_new(entry, "out_file", json_sprintf("TestCases/%s_%zu.out", t->id, i));
        }
        ok = gb_avatar__write(ex, json_string_value(json_object_get(entry, "in_file")), t->cases.items[i].stdin_text,
                              err) &&
             gb_avatar__write(ex, json_string_value(json_object_get(entry, "out_file")), t->cases.items[i].stdout_text,
                              err);
        json_array_append_new(new_cases, entry);
    }
    /* the program, and its helper modules beside it */
    json_t *code_file = json_object_get(rec, "code_file");
    char *code_rel = json_is_string(code_file) && gb_up_relative_path_ok(json_string_value(code_file))
                         ? gb_strdup(json_string_value(code_file))
                         : gb_asprintf("Code/%s.py", t->id);
    char *code_dir =
        strrchr(code_rel, '/') ? gb_strndup(code_rel, (size_t)(strrchr(code_rel, '/') - code_rel)) : gb_strdup("");
    if (ok) ok = gb_avatar__write(ex, code_rel, t->source, err);
    for (size_t i = 0; ok && i < t->extra_files.len; i++) {
        char *rel = code_dir[0] ? gb_asprintf("%s/%s", code_dir, t->extra_files.items[i].path)
                                : gb_strdup(t->extra_files.items[i].path);
        ok = gb_avatar__write(ex, rel, t->extra_files.items[i].source, err);
        free(rel);
    }
    free(code_rel);
    free(code_dir);
    if (ok && tokenised) {
        GbError terr;
        const char *orig = gb_avatar__tokens(rec, &terr);
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
    for (size_t i = mark; !ok && i < ex->written.len; i++) {
        free(ex->written.items[i].path);
        free(ex->written.items[i].source);
    }
    if (!ok) ex->written.len = mark;
    return ok;
}

void gb_avatar_import(GbUpImport *im, const char *data, size_t len, size_t *n_records)
{
    gb_up_jsonl(im, data, len, gb_avatar__record, n_records);
}

static int gb_avatar__name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool gb_avatar_import_dir(GbUpImport *im)
{
    char *code_dir = gb_asprintf("%s/Code", im->path);
    DIR *d = opendir(code_dir);
    if (!d) {
        gb_diag_add(im->diag, "%s: not an AVATAR directory: cannot open %s: %s", im->path, code_dir, strerror(errno));
        free(code_dir);
        return false;
    }
    GbArray(char *) names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 3 && strcmp(e->d_name + n - 3, ".py") == 0 && e->d_name[0] != '.')
            gb_array_push(&names, gb_strdup(e->d_name));
    }
    closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof *names.items, gb_avatar__name_cmp);
    if (names.len == 0) gb_diag_add(im->diag, "%s: no programs Code/<id>.py: no tasks", im->path);
    /* Each program becomes a record of the dev form, {id, code, code_file, tests}, so that export
     * writes the same layout back. Messages name the program's file. */
    for (size_t i = 0; i < names.len; i++) {
        char *id = gb_strndup(names.items[i], strlen(names.items[i]) - 3);
        char *rel = gb_asprintf("Code/%s", names.items[i]);
        char *file = gb_asprintf("%s/%s", im->path, rel);
        GbError err = {{0}};
        char *code = gb_up_read_text(im->path, rel, &err);
        json_t *tests = json_array();
        if (code && !gb_avatar__find_cases(im->path, id, tests, &err)) {
            free(code);
            code = NULL;
        }
        if (!code) {
            gb_diag_add(im->diag, "%s:1: task %s: %s", file, id, err.msg);
        } else {
            json_t *rec = json_object();
            json_object_set_new(rec, "id", json_string(id));
            json_object_set_new(rec, "code", json_string(code));
            json_object_set_new(rec, "code_file", json_string(rel));
            json_object_set(rec, "tests", tests);
            const char *path = im->path;
            im->path = file;
            gb_up_accept(im, rec, 1, gb_avatar__record);
            im->path = path;
            json_decref(rec);
        }
        json_decref(tests);
        free(code);
        free(file);
        free(rel);
        free(id);
        free(names.items[i]);
    }
    gb_array_free(&names);
    free(code_dir);
    return true;
}
