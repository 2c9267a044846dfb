/* The program under mutation: tree helpers, statement text normalisation, the statements a
 * site is located by, literal values. */
#include "src/inject/mutate_private.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

bool gb_mutate__ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

bool gb_mutate__is_any(TSNode n, const char *const *types)
{
    if (ts_node_is_null(n)) return false;
    const char *t = ts_node_type(n);
    for (size_t i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0) return true;
    return false;
}

TSNode gb_mutate__field(TSNode n, const char *f)
{
    return ts_node_child_by_field_name(n, f, (uint32_t)strlen(f));
}

bool gb_mutate__contains(TSNode outer, TSNode inner)
{
    return ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

/* The only named, non-comment child of a parenthesized expression, or the node itself;
 * repeated, so `((x))` gives x. */
TSNode gb_mutate__unparen(TSNode n)
{
    while (gb_node_is_kind(n, GB_NK_PARENTHESIZED_EXPRESSION)) {
        TSNode inner = {0};
        bool found = false;
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode c = ts_node_named_child(n, i);
            if (gb_node_is_kind(c, GB_NK_COMMENT)) continue;
            inner = c;
            found = true;
            break;
        }
        if (!found) break;
        n = inner;
    }
    return n;
}

char *gb_mutate__clip(const char *text, size_t len, size_t max)
{
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < len && s.len < max; i++) {
        char c = text[i];
        gb_str_append_n(&s, (c == '\n' || c == '\r' || c == '\t') ? " " : &c, 1);
    }
    if (len > max) gb_str_append(&s, "...");
    return gb_str_take(&s);
}

static bool gb_mutate__prefix_char(char c)
{
    return c && strchr("rRbBuUfF", c) != NULL;
}

/* End of the string literal whose opening quote is at q (exclusive). */
static size_t gb_mutate__string_end(const char *t, size_t len, size_t q)
{
    char quote = t[q];
    bool triple = q + 2 < len && t[q + 1] == quote && t[q + 2] == quote;
    size_t k = q + (triple ? 3 : 1);
    while (k < len) {
        if (t[k] == '\\') {
            k += 2;
            continue;
        }
        if (triple) {
            if (t[k] == quote && k + 2 < len && t[k + 1] == quote && t[k + 2] == quote) return k + 3;
        } else if (t[k] == quote) {
            return k + 1;
        } else if (t[k] == '\n') {
            return k; /* unterminated: stop at the line end */
        }
        k++;
    }
    return len;
}

static void gb_mutate__emit(GbStr *out, bool *pending, const char *tok, size_t n)
{
    if (*pending && out->len > 0 && gb_mutate__ident_char((unsigned char)out->data[out->len - 1]) &&
        gb_mutate__ident_char((unsigned char)tok[0]))
        gb_str_append_n(out, " ", 1);
    *pending = false;
    gb_str_append_n(out, tok, n);
}

char *gb_mutate_normalise(const char *t, size_t len)
{
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    bool pending = false;
    size_t i = 0;
    while (i < len) {
        unsigned char ch = (unsigned char)t[i];
        if (ch == '#') {
            while (i < len && t[i] != '\n') i++;
            pending = true;
        } else if (ch == '\\' && i + 1 < len && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
            i += 2;
            if (t[i - 1] == '\r' && i < len && t[i] == '\n') i++;
            pending = true;
        } else if (isspace(ch)) {
            pending = true;
            i++;
        } else if (ch == '"' || ch == '\'') {
            size_t e = gb_mutate__string_end(t, len, i);
            gb_mutate__emit(&out, &pending, t + i, e - i);
            i = e;
        } else if (gb_mutate__ident_char(ch)) {
            size_t j = i;
            while (j < len && gb_mutate__ident_char((unsigned char)t[j])) j++;
            bool prefix = j - i <= 2 && j < len && (t[j] == '"' || t[j] == '\'');
            for (size_t k = i; prefix && k < j; k++) prefix = gb_mutate__prefix_char(t[k]);
            size_t e = prefix ? gb_mutate__string_end(t, len, j) : j;
            gb_mutate__emit(&out, &pending, t + i, e - i);
            i = e;
        } else {
            gb_mutate__emit(&out, &pending, t + i, 1);
            i++;
        }
    }
    return gb_str_take(&out);
}

static const char *const gb_mutate__simple_statements[] = {
    "future_import_statement", "import_statement",   "import_from_statement",
    "print_statement",         "assert_statement",   "expression_statement",
    "return_statement",        "delete_statement",   "raise_statement",
    "pass_statement",          "break_statement",    "continue_statement",
    "global_statement",        "nonlocal_statement", "exec_statement",
    "type_alias_statement",    "decorator",          NULL};

static const char *const gb_mutate__compound_statements[] = {
    "if_statement",        "elif_clause",         "else_clause",      "while_statement", "for_statement",
    "with_statement",      "function_definition", "class_definition", "try_statement",   "except_clause",
    "except_group_clause", "finally_clause",      "match_statement",  "case_clause",     NULL};

/* End of a compound statement's header: the start of its first block. */
static size_t gb_mutate__header_end(TSNode n)
{
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        TSNode c = ts_node_child(n, i);
        if (gb_node_is_kind(c, GB_NK_BLOCK)) return ts_node_start_byte(c);
    }
    return ts_node_end_byte(n);
}

static void gb_mutate__collect_stmts(GbMutCtx *c, TSNode n)
{
    if (gb_node_is_kind(n, GB_NK_ERROR)) return;
    bool simple = gb_mutate__is_any(n, gb_mutate__simple_statements);
    if (simple || gb_mutate__is_any(n, gb_mutate__compound_statements)) {
        size_t a = ts_node_start_byte(n), b = simple ? ts_node_end_byte(n) : gb_mutate__header_end(n);
        GbMutStmt s = {a, b, gb_mutate_normalise(c->src + a, b - a), 0};
        gb_array_push(&c->stmts, s);
        if (simple && !gb_node_is_kind(n, GB_NK_DECORATOR)) return;
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) gb_mutate__collect_stmts(c, ts_node_child(n, i));
}

void gb_mutate__ctx_init(GbMutCtx *c, const char *source, TSTree *tree)
{
    c->src = source;
    c->len = strlen(source);
    c->tree = tree;
    c->root = ts_tree_root_node(tree);
    c->line_starts.items = NULL;
    c->line_starts.len = c->line_starts.cap = 0;
    gb_array_push(&c->line_starts, 0);
    for (size_t i = 0; i < c->len; i++)
        if (source[i] == '\n') gb_array_push(&c->line_starts, i + 1);
    c->parser = gb_parser_new();
    assert(c->parser != NULL);
    c->stmts.items = NULL;
    c->stmts.len = c->stmts.cap = 0;
    gb_mutate__collect_stmts(c, c->root);
    for (size_t i = 0; i < c->stmts.len; i++) {
        for (size_t j = 0; j < i; j++)
            if (strcmp(c->stmts.items[j].norm, c->stmts.items[i].norm) == 0) c->stmts.items[i].ordinal++;
    }
}

void gb_mutate__ctx_destroy(GbMutCtx *c)
{
    for (size_t i = 0; i < c->stmts.len; i++) free(c->stmts.items[i].norm);
    gb_array_free(&c->stmts);
    gb_array_free(&c->line_starts);
    ts_parser_delete(c->parser);
}

/* Index in c->stmts of the statement that contains n, or SIZE_MAX. */
size_t gb_mutate__stmt_of(const GbMutCtx *c, TSNode n)
{
    for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (!gb_mutate__is_any(p, gb_mutate__simple_statements) &&
            !gb_mutate__is_any(p, gb_mutate__compound_statements))
            continue;
        size_t start = ts_node_start_byte(p);
        size_t lo = 0, hi = c->stmts.len;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (c->stmts.items[mid].start < start)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < c->stmts.len && c->stmts.items[lo].start == start && ts_node_start_byte(n) < c->stmts.items[lo].end)
            return lo;
        return SIZE_MAX;
    }
    return SIZE_MAX;
}

/* ------------------------------------------------------------------------------------
 * Literals
 * ---------------------------------------------------------------------------------- */

/* Digits of a numeric literal without underscores; false for j/J (imaginary) and l/L
 * (Python 2 long) suffixes. */
static bool gb_mutate__literal_digits(const char *text, size_t n, char *buf, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        if (ch == 'j' || ch == 'J' || ch == 'l' || ch == 'L') return false;
        if (ch == '_') continue;
        if (k + 1 >= cap) return false;
        buf[k++] = ch;
    }
    buf[k] = '\0';
    return k > 0;
}

bool gb_mutate__parse_int(const char *text, size_t n, GbMutInt *out)
{
    char buf[96];
    if (!gb_mutate__literal_digits(text, n, buf, sizeof buf)) return false;
    memset(out, 0, sizeof *out);
    out->base = 10;
    const char *digits = buf;
    if (buf[0] == '0' && buf[1] && strchr("xXoObB", buf[1])) {
        out->base = (buf[1] == 'x' || buf[1] == 'X') ? 16 : (buf[1] == 'o' || buf[1] == 'O') ? 8 : 2;
        out->prefix[0] = buf[0];
        out->prefix[1] = buf[1];
        digits = buf + 2;
    }
    for (const char *d = digits; *d; d++) {
        if (isupper((unsigned char)*d)) out->upper = true;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(digits, &end, out->base);
    if (errno != 0 || end == digits || *end != '\0' || v > (unsigned long long)INT64_MAX - 1) return false;
    out->value = v;
    return true;
}

char *gb_mutate__format_int(const GbMutInt *t, uint64_t v)
{
    char digits[80];
    if (t->base == 10) {
        snprintf(digits, sizeof digits, "%" PRIu64, v);
    } else if (t->base == 16) {
        snprintf(digits, sizeof digits, t->upper ? "%" PRIX64 : "%" PRIx64, v);
    } else if (t->base == 8) {
        snprintf(digits, sizeof digits, "%" PRIo64, v);
    } else {
        char rev[72];
        size_t k = 0;
        do {
            rev[k++] = (char)('0' + (v & 1));
            v >>= 1;
        } while (v);
        for (size_t i = 0; i < k; i++) digits[i] = rev[k - 1 - i];
        digits[k] = '\0';
    }
    return gb_asprintf("%s%s", t->prefix, digits);
}

/* Shortest text that reads back as v, always recognisable as a float. */
char *gb_mutate__format_float(double v)
{
    char buf[64];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, v);
        if (strtod(buf, NULL) == v) break;
    }
    if (!strpbrk(buf, ".eE")) strcat(buf, ".0");
    return gb_strdup(buf);
}

/* Value of a numeric literal node: integer or float, optionally parenthesised or under a
 * unary + or -. */
bool gb_mutate__numeric_value(const GbMutCtx *c, TSNode n, double *out)
{
    n = gb_mutate__unparen(n);
    if (gb_node_is_kind(n, GB_NK_UNARY_OPERATOR)) {
        TSNode op = gb_mutate__field(n, "operator");
        double v;
        if (gb_node_is_kind(op, GB_NK_TILDE) || !gb_mutate__numeric_value(c, gb_mutate__field(n, "argument"), &v))
            return false;
        *out = gb_node_is_kind(op, GB_NK_MINUS) ? -v : v;
        return true;
    }
    size_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (gb_node_is_kind(n, GB_NK_INTEGER)) {
        GbMutInt t;
        if (!gb_mutate__parse_int(c->src + a, b - a, &t)) return false;
        *out = (double)t.value;
        return true;
    }
    if (gb_node_is_kind(n, GB_NK_FLOAT)) {
        char buf[96];
        if (!gb_mutate__literal_digits(c->src + a, b - a, buf, sizeof buf)) return false;
        *out = strtod(buf, NULL);
        return isfinite(*out);
    }
    return false;
}

bool gb_mutate__is_string_literal(TSNode n)
{
    n = gb_mutate__unparen(n);
    return gb_node_is_kind(n, GB_NK_STRING) || gb_node_is_kind(n, GB_NK_CONCATENATED_STRING);
}

/* A value fixed at parse time: number, string, True/False/None, or +-/not of one. */
bool gb_mutate__is_constant(const GbMutCtx *c, TSNode n)
{
    n = gb_mutate__unparen(n);
    double v;
    if (gb_mutate__numeric_value(c, n, &v)) return true;
    static const char *const consts[] = {"true", "false", "none", "integer", "float", "ellipsis", NULL};
    if (gb_mutate__is_any(n, consts)) return true;
    if (gb_node_is_kind(n, GB_NK_STRING)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (gb_node_is_kind(ts_node_named_child(n, i), GB_NK_INTERPOLATION)) return false;
        return true;
    }
    if (gb_node_is_kind(n, GB_NK_CONCATENATED_STRING)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (!gb_mutate__is_constant(c, ts_node_named_child(n, i))) return false;
        return true;
    }
    if (gb_node_is_kind(n, GB_NK_NOT_OPERATOR)) return gb_mutate__is_constant(c, gb_mutate__field(n, "argument"));
    return false;
}

bool gb_mutate__same_text(const GbMutCtx *c, TSNode a, TSNode b)
{
    size_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
    size_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
    char *x = gb_mutate_normalise(c->src + a0, a1 - a0), *y = gb_mutate_normalise(c->src + b0, b1 - b0);
    bool same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}
