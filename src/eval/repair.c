/* Repair and translation prompts, code blocks and Java class names (repair.h). */
#include "src/eval/repair.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/base/util.h"
#include "src/python/pyparse.h"

#define GB_EVAL_FILE_TAG "# file: "

/* ---- code blocks ------------------------------------------------------------------------ */

static bool gb_eval__lang_is(const char *word, size_t n, const char *lang)
{
    if (n == strlen(lang) && strncasecmp(word, lang, n) == 0) return true;
    if (strcmp(lang, "python") == 0)
        return (n == 2 && strncasecmp(word, "py", 2) == 0) || (n == 7 && strncasecmp(word, "python3", 7) == 0);
    return false;
}

static char *gb_eval__trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return n ? gb_strndup(s, n) : NULL;
}

typedef void (*GbEvalBlockFn)(void *ctx, const char *lang, size_t lang_n, const char *body, size_t n);

/* Call fn on every fenced block of reply, in order. */
static void gb_eval__blocks(const char *reply, GbEvalBlockFn fn, void *ctx)
{
    const char *p = reply;
    while (*p) {
        const char *eol = strchr(p, '\n');
        const char *next = eol ? eol + 1 : p + strlen(p);
        const char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, "```", 3) != 0) {
            p = next;
            continue;
        }
        const char *w = q + 3, *we = w;
        while (*we && !isspace((unsigned char)*we) && *we != '`') we++;
        const char *body = next, *end = body + strlen(body), *after = end;
        for (const char *l = body; *l;) {
            const char *le = strchr(l, '\n');
            const char *ln = le ? le + 1 : l + strlen(l);
            const char *t = l;
            while (*t == ' ' || *t == '\t') t++;
            if (strncmp(t, "```", 3) == 0) {
                end = l;
                after = ln;
                break;
            }
            l = ln;
        }
        if (after == end) {
            /* unterminated: a closing fence glued to the end of the last line still closes */
            const char *t = end;
            while (t > body && isspace((unsigned char)t[-1])) t--;
            if (t - body >= 3 && strncmp(t - 3, "```", 3) == 0) end = t - 3;
        }
        fn(ctx, w, (size_t)(we - w), body, (size_t)(end - body));
        p = after;
    }
}

typedef struct {
    const char *want, *best, *any;
    size_t best_n, any_n;
} GbEvalPick;

static void gb_eval__pick(void *ctx, const char *lang, size_t lang_n, const char *body, size_t n)
{
    GbEvalPick *k = ctx;
    if (gb_eval__lang_is(lang, lang_n, k->want)) k->best = body, k->best_n = n;
    k->any = body, k->any_n = n;
}

char *gb_eval_code_block(const char *reply, const char *lang)
{
    GbEvalPick k = {lang, NULL, NULL, 0, 0};
    gb_eval__blocks(reply, gb_eval__pick, &k);
    const char *best = k.best, *any = k.any;
    size_t best_n = k.best_n, any_n = k.any_n;
    if (best) return gb_eval__trimmed(best, best_n);
    if (any) return gb_eval__trimmed(any, any_n);
    return gb_eval__trimmed(reply, strlen(reply));
}

/* ---- specification ---------------------------------------------------------------------- */

/* The docstring of a block (a function's or class's body, or a module): its first statement
 * when that is a lone string. Owned text of the string node, or NULL. */
static char *gb_eval__docstring(TSNode block, const char *src)
{
    if (ts_node_is_null(block) || ts_node_named_child_count(block) == 0) return NULL;
    TSNode first = ts_node_named_child(block, 0);
    if (strcmp(ts_node_type(first), "expression_statement") != 0 || ts_node_named_child_count(first) != 1) return NULL;
    TSNode s = ts_node_named_child(first, 0);
    if (strcmp(ts_node_type(s), "string") != 0) return NULL;
    uint32_t a = ts_node_start_byte(s), b = ts_node_end_byte(s);
    /* drop the quotes and a string prefix; keep the text as written */
    const char *t = src + a;
    size_t n = b - a;
    while (n && (isalpha((unsigned char)*t))) t++, n--;
    size_t q = n >= 6 && (strncmp(t, "\"\"\"", 3) == 0 || strncmp(t, "'''", 3) == 0) ? 3 : 1;
    if (n < 2 * q) return NULL;
    return gb_eval__trimmed(t + q, n - 2 * q);
}

char *gb_eval_spec(TSParser *parser, const char *source, const char *entry)
{
    TSTree *tree = gb_parse(parser, source, strlen(source));
    TSNode root = ts_tree_root_node(tree);
    char *doc = NULL;
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; entry && i < n && !doc; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (strcmp(ts_node_type(c), "decorated_definition") == 0) c = ts_node_child_by_field_name(c, "definition", 10);
        if (ts_node_is_null(c)) continue;
        const char *type = ts_node_type(c);
        if (strcmp(type, "function_definition") != 0 && strcmp(type, "class_definition") != 0) continue;
        TSNode id = ts_node_child_by_field_name(c, "name", 4);
        if (ts_node_is_null(id) || !gb_node_text_eq(id, source, entry)) continue;
        doc = gb_eval__docstring(ts_node_child_by_field_name(c, "body", 4), source);
    }
    if (!doc) doc = gb_eval__docstring(root, source);
    ts_tree_delete(tree);
    return doc;
}

/* ---- prompts ---------------------------------------------------------------------------- */

char *gb_eval_repair_prompt(const char *spec, const char *program, const char *entry, const char *failure)
{
    if (!program) program = ""; /* never NULL from eval.c; GCC's -fsanitize build cannot tell */
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "The following Python program has a bug: it fails its tests. Fix the bug.\n\n");
    if (spec) gb_str_appendf(&s, "Specification:\n%s\n\n", spec);
    gb_str_appendf(&s, "Buggy program:\n```python\n%s%s```\n\n", program,
                   *program && program[strlen(program) - 1] == '\n' ? "" : "\n");
    gb_str_appendf(&s, "Failing test:\n%s\n\n", failure);
    if (strncmp(program, GB_EVAL_FILE_TAG, strlen(GB_EVAL_FILE_TAG)) == 0)
        gb_str_append(&s, "Give the whole corrected program, every module in its own ```python code block starting "
                          "with its `# file:` line as above");
    else
        gb_str_append(&s, "Give the whole corrected program in one ```python code block");
    if (entry) gb_str_appendf(&s, ", keeping the name %s and its signature, which the tests call", entry);
    gb_str_append(&s, ".\n");
    return gb_str_take(&s);
}

char *gb_eval_translate_prompt(const char *program)
{
    return gb_asprintf("Translate the following Python program to Java 17. It reads standard input and writes "
                       "standard output; the Java program must print exactly the same output for every input.\n\n"
                       "```python\n%s%s```\n\n"
                       "Give the whole Java program in one ```java code block, with the entry point in "
                       "`public class Main` (`public static void main(String[] args)`), using only the Java "
                       "standard library.\n",
                       program, *program && program[strlen(program) - 1] == '\n' ? "" : "\n");
}

/* ---- Java ------------------------------------------------------------------------------- */

static bool gb_eval__ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$';
}

static bool gb_eval__ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* Past a comment, string, text block or char literal starting at p (else p). */
static const char *gb_eval__skip_java(const char *p)
{
    if (p[0] == '/' && p[1] == '/') {
        while (*p && *p != '\n') p++;
        return p;
    }
    if (p[0] == '/' && p[1] == '*') {
        const char *e = strstr(p + 2, "*/");
        return e ? e + 2 : p + strlen(p);
    }
    if (strncmp(p, "\"\"\"", 3) == 0) {
        const char *e = strstr(p + 3, "\"\"\"");
        return e ? e + 3 : p + strlen(p);
    }
    if (*p == '"' || *p == '\'') {
        char q = *p++;
        while (*p && *p != q && *p != '\n') p += p[0] == '\\' && p[1] ? 2 : 1;
        return *p == q ? p + 1 : p;
    }
    return p;
}

bool gb_eval_java_extract(const char *reply, char **code, char **cls, char *why, size_t why_size)
{
    *code = gb_eval_code_block(reply, "java");
    *cls = NULL;
    if (!*code) {
        snprintf(why, why_size, "no Java code in the reply");
        return false;
    }
    char *src = *code;
    int depth = 0;
    char *public_cls = NULL, *main_cls = NULL, *current = NULL;
    bool current_public = false, pending_public = false;
    for (char *p = src; *p;) {
        const char *skip = gb_eval__skip_java(p);
        if (skip != p) {
            p = (char *)skip;
            continue;
        }
        if (*p == '{') {
            depth++;
            p++;
            continue;
        }
        if (*p == '}') {
            if (--depth == 0 && current) {
                free(current);
                current = NULL;
            }
            if (depth < 0) depth = 0;
            p++;
            continue;
        }
        if (!gb_eval__ident_start((unsigned char)*p) || (p > src && gb_eval__ident_char((unsigned char)p[-1]))) {
            if (*p == ';' && depth == 0) pending_public = false;
            p++;
            continue;
        }
        char *w = p;
        while (gb_eval__ident_char((unsigned char)*p)) p++;
        size_t n = (size_t)(p - w);
        if (depth == 0 && n == 7 && strncmp(w, "package", 7) == 0) {
            char *semi = strchr(p, ';');
            if (semi) {
                memset(w, ' ', (size_t)(semi + 1 - w)); /* keep offsets: blank it out */
                p = semi + 1;
            }
            continue;
        }
        if (depth == 0 && n == 6 && strncmp(w, "public", 6) == 0) pending_public = true;
        if (depth == 0 && ((n == 5 && strncmp(w, "class", 5) == 0) || (n == 6 && strncmp(w, "record", 6) == 0) ||
                           (n == 4 && strncmp(w, "enum", 4) == 0) || (n == 9 && strncmp(w, "interface", 9) == 0))) {
            char *q = p;
            while (isspace((unsigned char)*q)) q++;
            char *nm = q;
            while (gb_eval__ident_char((unsigned char)*q)) q++;
            if (q > nm) {
                free(current);
                current = gb_strndup(nm, (size_t)(q - nm));
                current_public = pending_public;
                if (current_public && !public_cls) public_cls = gb_strdup(current);
                p = q;
            }
            pending_public = false;
            continue;
        }
        if (depth >= 1 && current && n == 6 && strncmp(w, "static", 6) == 0 && !main_cls) {
            const char *q = p;
            while (isspace((unsigned char)*q)) q++;
            if (strncmp(q, "void", 4) == 0) {
                q += 4;
                while (isspace((unsigned char)*q)) q++;
                if (strncmp(q, "main", 4) == 0) {
                    q += 4;
                    while (isspace((unsigned char)*q)) q++;
                    if (*q == '(') main_cls = gb_strdup(current);
                }
            }
        }
    }
    (void)current_public;
    free(current);
    *cls = public_cls ? public_cls : main_cls ? main_cls : gb_strdup("Main");
    if (public_cls) free(main_cls);
    if (!gb_eval__ident_start((unsigned char)(*cls)[0])) {
        snprintf(why, why_size, "the class to run, '%.60s', is not a Java identifier", *cls);
        return false;
    }
    return true;
}

/* ---- programs of several modules ---------------------------------------------------------- */

typedef struct {
    GbFile *files;
    size_t n, cap;
} GbEvalFilesCtx;

static void gb_eval__file_block(void *ctx, const char *lang, size_t lang_n, const char *body, size_t n)
{
    GbEvalFilesCtx *c = ctx;
    if (lang_n && !gb_eval__lang_is(lang, lang_n, "python")) return;
    size_t tl = strlen(GB_EVAL_FILE_TAG);
    if (n < tl || strncmp(body, GB_EVAL_FILE_TAG, tl) != 0) return;
    const char *eol = memchr(body, '\n', n);
    if (!eol) return;
    char *path = gb_eval__trimmed(body + tl, (size_t)(eol - body) - tl);
    if (!path) return;
    const char *code = eol + 1;
    size_t cn = n - (size_t)(code - body);
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->files[i].path, path) == 0) { /* a later block of the same file wins */
            free(c->files[i].source);
            c->files[i].source = gb_strndup(code, cn);
            free(path);
            return;
        }
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4;
        c->files = gb_realloc(c->files, c->cap * sizeof *c->files);
    }
    c->files[c->n++] = (GbFile){path, gb_strndup(code, cn)};
}

char *gb_eval_program_text(const GbTask *t)
{
    if (!t->extra_files.len) return gb_strdup(t->source);
    GbStr s;
    gb_str_init(&s);
    gb_str_appendf(&s, "%smain.py\n%s", GB_EVAL_FILE_TAG, t->source);
    for (size_t i = 0; i < t->extra_files.len; i++) {
        const char *src = t->extra_files.items[i].source;
        gb_str_appendf(&s, "%s```\n\n```python\n%s%s\n%s", s.len && s.data[s.len - 1] == '\n' ? "" : "\n",
                       GB_EVAL_FILE_TAG, t->extra_files.items[i].path, src);
    }
    return gb_str_take(&s);
}

bool gb_eval_repair_apply(const char *reply, GbTask *t, char **extracted)
{
    GbEvalFilesCtx c = {0};
    gb_eval__blocks(reply, gb_eval__file_block, &c);
    bool ok = false;
    *extracted = NULL;
    if (c.n) {
        GbStr s;
        gb_str_init(&s);
        for (size_t i = 0; i < c.n; i++) {
            gb_str_appendf(&s, "%s%s\n%s", GB_EVAL_FILE_TAG, c.files[i].path, c.files[i].source);
            if (strcmp(c.files[i].path, "main.py") == 0) {
                free(t->source);
                t->source = gb_strdup(c.files[i].source);
                ok = true;
            } else {
                for (size_t k = 0; k < t->extra_files.len; k++)
                    if (strcmp(t->extra_files.items[k].path, c.files[i].path) == 0) {
                        free(t->extra_files.items[k].source);
                        t->extra_files.items[k].source = gb_strdup(c.files[i].source);
                        ok = true;
                    }
            }
            free(c.files[i].path);
            free(c.files[i].source);
        }
        free(c.files);
        *extracted = gb_str_take(&s);
        return ok;
    }
    char *code = gb_eval_code_block(reply, "python");
    if (!code) return false;
    free(t->source);
    t->source = gb_asprintf("%s\n", code);
    *extracted = code;
    return true;
}
