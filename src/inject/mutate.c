#include "src/inject/mutate.h"

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

/* ------------------------------------------------------------------------------------
 * Operator table
 * ---------------------------------------------------------------------------------- */

static const char *const gb_mutate__names[] = {
#define GB_MUT__NAME(id, name, help) name,
    GB_MUTATION_OPS(GB_MUT__NAME)
#undef GB_MUT__NAME
};
static const char *const gb_mutate__helps[] = {
#define GB_MUT__HELP(id, name, help) help,
    GB_MUTATION_OPS(GB_MUT__HELP)
#undef GB_MUT__HELP
};

const char *gb_mutate_op_name(GbMutOp op)
{
    assert(op < GB_MUT_COUNT);
    return gb_mutate__names[op];
}

const char *gb_mutate_op_help(GbMutOp op)
{
    assert(op < GB_MUT_COUNT);
    return gb_mutate__helps[op];
}

bool gb_mutate_op_from_name(const char *name, GbMutOp *op)
{
    for (int i = 0; i < GB_MUT_COUNT; i++) {
        if (strcmp(name, gb_mutate__names[i]) == 0) {
            *op = (GbMutOp)i;
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------------------- */

static bool gb_mutate__ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

static bool gb_mutate__is_any(TSNode n, const char *const *types)
{
    if (ts_node_is_null(n)) return false;
    const char *t = ts_node_type(n);
    for (size_t i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0) return true;
    return false;
}

static TSNode gb_mutate__field(TSNode n, const char *f)
{
    return ts_node_child_by_field_name(n, f, (uint32_t)strlen(f));
}

static bool gb_mutate__contains(TSNode outer, TSNode inner)
{
    return ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

/* The only named, non-comment child of a parenthesized expression, or the node itself;
 * repeated, so `((x))` gives x. */
static TSNode gb_mutate__unparen(TSNode n)
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

static char *gb_mutate__clip(const char *text, size_t len, size_t max)
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

/* ------------------------------------------------------------------------------------
 * Normalisation
 * ---------------------------------------------------------------------------------- */

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

/* ------------------------------------------------------------------------------------
 * Statements: the unit a site is located by
 * ---------------------------------------------------------------------------------- */

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

typedef struct {
    size_t start, end; /* the simple statement, or the compound statement's header */
    char *norm;        /* owned */
    size_t ordinal;
} GbMutStmt;

typedef struct {
    const char *src;
    size_t len;
    TSTree *tree; /* borrowed: the parse of src */
    TSNode root;
    TSParser *parser;
    GbArray(GbMutStmt) stmts;    /* in source order */
    GbArray(size_t) line_starts; /* byte offset of each line, for tree-sitter points */
} GbMutCtx;

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

static void gb_mutate__ctx_init(GbMutCtx *c, const char *source, TSTree *tree)
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

static void gb_mutate__ctx_destroy(GbMutCtx *c)
{
    for (size_t i = 0; i < c->stmts.len; i++) free(c->stmts.items[i].norm);
    gb_array_free(&c->stmts);
    gb_array_free(&c->line_starts);
    ts_parser_delete(c->parser);
}

/* Index in c->stmts of the statement that contains n, or SIZE_MAX. */
static size_t gb_mutate__stmt_of(const GbMutCtx *c, TSNode n)
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

typedef struct {
    int base;       /* 10, 16, 8 or 2 */
    char prefix[3]; /* as written, e.g. "0X" */
    bool upper;     /* hexadecimal digits written in upper case */
    uint64_t value;
} GbMutInt;

static bool gb_mutate__parse_int(const char *text, size_t n, GbMutInt *out)
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

static char *gb_mutate__format_int(const GbMutInt *t, uint64_t v)
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
static char *gb_mutate__format_float(double v)
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
static bool gb_mutate__numeric_value(const GbMutCtx *c, TSNode n, double *out)
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

static bool gb_mutate__is_string_literal(TSNode n)
{
    n = gb_mutate__unparen(n);
    return gb_node_is_kind(n, GB_NK_STRING) || gb_node_is_kind(n, GB_NK_CONCATENATED_STRING);
}

/* A value fixed at parse time: number, string, True/False/None, or +-/not of one. */
static bool gb_mutate__is_constant(const GbMutCtx *c, TSNode n)
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

static bool gb_mutate__same_text(const GbMutCtx *c, TSNode a, TSNode b)
{
    size_t a0 = ts_node_start_byte(a), a1 = ts_node_end_byte(a);
    size_t b0 = ts_node_start_byte(b), b1 = ts_node_end_byte(b);
    char *x = gb_mutate_normalise(c->src + a0, a1 - a0), *y = gb_mutate_normalise(c->src + b0, b1 - b0);
    bool same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* ------------------------------------------------------------------------------------
 * Contexts where no operator may mutate
 * ---------------------------------------------------------------------------------- */

static bool gb_mutate__has_effect(TSNode n)
{
    static const char *const effects[] = {"call",  "assignment", "augmented_assignment", "named_expression", "yield",
                                          "await", NULL};
    if (gb_mutate__is_any(n, effects)) return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (gb_mutate__has_effect(ts_node_named_child(n, i))) return true;
    return false;
}

static bool gb_mutate__is_main_guard(const GbMutCtx *c, TSNode cond)
{
    size_t a = ts_node_start_byte(cond), b = ts_node_end_byte(cond);
    char *t = gb_mutate_normalise(c->src + a, b - a);
    static const char *const guards[] = {"__name__==\"__main__\"", "__name__=='__main__'", "\"__main__\"==__name__",
                                         "'__main__'==__name__", NULL};
    bool is = false;
    for (size_t i = 0; guards[i]; i++) is = is || strcmp(t, guards[i]) == 0;
    free(t);
    return is;
}

static bool gb_mutate__refused_context(const GbMutCtx *c, TSNode n)
{
    static const char *const banned[] = {
        "decorator", "type", "default_parameter", "typed_default_parameter", "format_specifier", "raise_statement",
        "ERROR",     NULL};
    for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (gb_mutate__is_any(p, banned)) return true;
        if (gb_node_is_kind(p, GB_NK_EXPRESSION_STATEMENT) && !gb_mutate__has_effect(p)) return true;
        if (gb_node_is_kind(p, GB_NK_ASSERT_STATEMENT)) {
            /* The first expression is the checked condition; anything after is the message. */
            uint32_t seen = 0;
            for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
                TSNode ch = ts_node_named_child(p, i);
                if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
                if (seen++ > 0 && gb_mutate__contains(ch, n)) return true;
            }
        }
        if (gb_node_is_kind(p, GB_NK_IF_STATEMENT)) {
            TSNode cond = gb_mutate__field(p, "condition");
            if (!ts_node_is_null(cond) && gb_mutate__contains(cond, n) && gb_mutate__is_main_guard(c, cond))
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------------------
 * Candidates: every place an operator could act, before refusals
 * ---------------------------------------------------------------------------------- */

enum { GB_MUT__NEGATE = 0, GB_MUT__SWAP = 1 };

typedef struct {
    TSNode node;        /* the targeted node (operator token, condition, value, literal) */
    TSNode left, right; /* operands (M1, M2, M3 swap) */
    int kind;           /* M3: GB_MUT__NEGATE or GB_MUT__SWAP */
    const char *owner;  /* M3 negate: "if", "elif", "while", "comprehension if", "if-else expression" */
    size_t start, end;
    size_t stmt; /* index into ctx stmts, SIZE_MAX when none */
    size_t occurrence;
} GbMutCand;

typedef GbArray(GbMutCand) GbMutCands;

static const char *const gb_mutate__arith_ops[] = {"+", "-", "*", "/", "//", "%", NULL};
static const char *const gb_mutate__compare_ops[] = {"<", "<=", ">", ">=", "==", "!=", NULL};

static void gb_mutate__push_cand(GbMutCands *out, TSNode node, TSNode left, TSNode right, int kind, const char *owner)
{
    GbMutCand cd = {node, left, right, kind, owner, ts_node_start_byte(node), ts_node_end_byte(node), SIZE_MAX, 0};
    gb_array_push(out, cd);
}

static void gb_mutate__collect_cands(const GbMutCtx *c, TSNode n, GbMutOp op, GbMutCands *out)
{
    if (gb_node_is_kind(n, GB_NK_ERROR)) return;
    TSNode null = {0};
    switch (op) {
    case GB_MUT_ARITH:
        if (gb_node_is_kind(n, GB_NK_BINARY_OPERATOR)) {
            TSNode tok = gb_mutate__field(n, "operator");
            if (gb_mutate__is_any(tok, gb_mutate__arith_ops))
                gb_mutate__push_cand(out, tok, gb_mutate__field(n, "left"), gb_mutate__field(n, "right"), 0, NULL);
        }
        break;
    case GB_MUT_COMPARE:
        if (gb_node_is_kind(n, GB_NK_COMPARISON_OPERATOR)) {
            TSNode prev = null;
            uint32_t count = ts_node_child_count(n);
            for (uint32_t i = 0; i < count; i++) {
                TSNode ch = ts_node_child(n, i);
                if (ts_node_is_named(ch)) {
                    if (!gb_node_is_kind(ch, GB_NK_COMMENT)) prev = ch;
                    continue;
                }
                if (!gb_mutate__is_any(ch, gb_mutate__compare_ops)) continue;
                TSNode next = null;
                for (uint32_t j = i + 1; j < count; j++) {
                    TSNode cj = ts_node_child(n, j);
                    if (ts_node_is_named(cj) && !gb_node_is_kind(cj, GB_NK_COMMENT)) {
                        next = cj;
                        break;
                    }
                }
                if (!ts_node_is_null(prev) && !ts_node_is_null(next))
                    gb_mutate__push_cand(out, ch, prev, next, 0, NULL);
            }
        }
        break;
    case GB_MUT_CONDITION: {
        const char *owner = gb_node_is_kind(n, GB_NK_IF_STATEMENT)      ? "if"
                            : gb_node_is_kind(n, GB_NK_ELIF_CLAUSE)     ? "elif"
                            : gb_node_is_kind(n, GB_NK_WHILE_STATEMENT) ? "while"
                                                                        : NULL;
        if (owner) {
            TSNode cond = gb_mutate__field(n, "condition");
            if (!ts_node_is_null(cond)) gb_mutate__push_cand(out, cond, null, null, GB_MUT__NEGATE, owner);
        }
        /* The filter of a comprehension (`... for x in xs if c`) and the test of a conditional
         * expression (`a if c else b`, named child 1) are conditions too. */
        if (gb_node_is_kind(n, GB_NK_IF_CLAUSE)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
                TSNode ch = ts_node_named_child(n, i);
                if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
                gb_mutate__push_cand(out, ch, null, null, GB_MUT__NEGATE, "comprehension if");
                break;
            }
        }
        if (gb_node_is_kind(n, GB_NK_CONDITIONAL_EXPRESSION) && ts_node_named_child_count(n) == 3)
            gb_mutate__push_cand(out, ts_node_named_child(n, 1), null, null, GB_MUT__NEGATE, "if-else expression");
        if (gb_node_is_kind(n, GB_NK_BOOLEAN_OPERATOR))
            gb_mutate__push_cand(out, gb_mutate__field(n, "operator"), gb_mutate__field(n, "left"),
                                 gb_mutate__field(n, "right"), GB_MUT__SWAP, NULL);
        break;
    }
    case GB_MUT_RETURN:
        if (gb_node_is_kind(n, GB_NK_RETURN_STATEMENT)) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
                TSNode ch = ts_node_named_child(n, i);
                if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
                gb_mutate__push_cand(out, ch, null, null, 0, NULL);
                break;
            }
        }
        break;
    case GB_MUT_CONSTANT: {
        static const char *const lits[] = {"integer", "float", "true", "false", "string", NULL};
        if (gb_mutate__is_any(n, lits)) gb_mutate__push_cand(out, n, null, null, 0, NULL);
        break;
    }
    default:
        assert(!"unknown mutation operator");
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) gb_mutate__collect_cands(c, ts_node_child(n, i), op, out);
}

static int gb_mutate__cmp_cand(const void *a, const void *b)
{
    const GbMutCand *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

static void gb_mutate__candidates(const GbMutCtx *c, GbMutOp op, GbMutCands *out)
{
    gb_mutate__collect_cands(c, c->root, op, out);
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, gb_mutate__cmp_cand);
    for (size_t i = 0; i < out->len; i++) {
        GbMutCand *cd = &out->items[i];
        cd->stmt = gb_mutate__stmt_of(c, cd->node);
        cd->occurrence = 0;
        for (size_t j = 0; j < i; j++)
            if (out->items[j].stmt == cd->stmt) cd->occurrence++;
    }
}

/* ------------------------------------------------------------------------------------
 * Variants
 * ---------------------------------------------------------------------------------- */

static void gb_mutate__variant_destroy(GbMutVariant *v)
{
    for (size_t i = 0; i < v->nedits; i++) free(v->edits[i].text);
    free(v->label);
}

/* An edit whose text is padded with a space where it would otherwise glue onto an
 * adjacent identifier or keyword (`if(x)` negated is `if not (x)`, not `ifnot (x)`). */
static GbMutEdit gb_mutate__edit(const GbMutCtx *c, size_t start, size_t end, const char *text)
{
    size_t n = strlen(text);
    bool before = n > 0 && start > 0 && gb_mutate__ident_char((unsigned char)c->src[start - 1]) &&
                  gb_mutate__ident_char((unsigned char)text[0]);
    bool after = n > 0 && end < c->len && gb_mutate__ident_char((unsigned char)c->src[end]) &&
                 gb_mutate__ident_char((unsigned char)text[n - 1]);
    GbMutEdit e = {start, end, gb_asprintf("%s%s%s", before ? " " : "", text, after ? " " : "")};
    return e;
}

/* Splice sorted, non-overlapping edits into source. Owned result. */
static char *gb_mutate__splice(const char *src, size_t len, const GbMutEdit *const *edits, size_t n)
{
    GbStr s;
    gb_str_init(&s);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        gb_str_append_n(&s, src + at, edits[i]->start - at);
        gb_str_append(&s, edits[i]->text);
        at = edits[i]->end;
    }
    gb_str_append_n(&s, src + at, len - at);
    return gb_str_take(&s);
}

static char *gb_mutate__apply_variant(const GbMutCtx *c, const GbMutVariant *v)
{
    const GbMutEdit *const e[2] = {&v->edits[0], &v->edits[1]};
    return gb_mutate__splice(c->src, c->len, e, v->nedits);
}

static TSPoint gb_mutate__point(const GbMutCtx *c, size_t offset)
{
    size_t lo = 0, hi = c->line_starts.len;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->line_starts.items[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return (TSPoint){(uint32_t)lo, (uint32_t)(offset - c->line_starts.items[lo])};
}

/* Does the mutant (v applied to the source) parse without ERROR or MISSING nodes? The
 * original tree is edited and reparsed incrementally, which gives the same tree as a
 * fresh parse but costs time proportional to the change, not to the program. */
static bool gb_mutate__reparses(const GbMutCtx *c, const GbMutVariant *v, const char *mutant)
{
    TSTree *old = ts_tree_copy(c->tree);
    /* Last edit first, so the earlier edit's offsets still hold. */
    for (size_t i = v->nedits; i-- > 0;) {
        const GbMutEdit *e = &v->edits[i];
        TSPoint start = gb_mutate__point(c, e->start), end = start;
        for (const char *t = e->text; *t; t++) {
            if (*t == '\n') {
                end.row++;
                end.column = 0;
            } else {
                end.column++;
            }
        }
        TSInputEdit ed = {(uint32_t)e->start,
                          (uint32_t)e->end,
                          (uint32_t)(e->start + strlen(e->text)),
                          start,
                          gb_mutate__point(c, e->end),
                          end};
        ts_tree_edit(old, &ed);
    }
    TSTree *fresh = ts_parser_parse_string(c->parser, old, mutant, (uint32_t)strlen(mutant));
    bool ok = fresh != NULL && !gb_tree_has_error(fresh, NULL, NULL);
    ts_tree_delete(fresh);
    ts_tree_delete(old);
    return ok;
}

/* Keep the variant when its mutant parses cleanly; otherwise free it. The label is
 * taken (owned). */
static void gb_mutate__add_variant(const GbMutCtx *c, GbMutSite *site, char *label, GbMutEdit e0, GbMutEdit *e1)
{
    GbMutVariant v = {{e0, {0, 0, NULL}}, 1, label};
    if (e1) {
        v.edits[1] = *e1;
        v.nedits = 2;
    }
    char *mutant = gb_mutate__apply_variant(c, &v);
    bool ok = strcmp(mutant, c->src) != 0 && gb_mutate__reparses(c, &v, mutant);
    free(mutant);
    if (ok)
        gb_array_push(&site->variants, v);
    else
        gb_mutate__variant_destroy(&v);
}

static void gb_mutate__add_replace(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                                   const char *text)
{
    gb_mutate__add_variant(c, site, gb_strdup(label), gb_mutate__edit(c, start, end, text), NULL);
}

/* An edit inside a string literal's contents: never padded. */
static void gb_mutate__add_content_edit(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                                        const char *text)
{
    GbMutEdit e = {start, end, gb_strdup(text)};
    gb_mutate__add_variant(c, site, gb_strdup(label), e, NULL);
}

static void gb_mutate__add_wrap(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                                const char *before, const char *after)
{
    GbMutEdit e1 = gb_mutate__edit(c, end, end, after);
    gb_mutate__add_variant(c, site, gb_strdup(label), gb_mutate__edit(c, start, start, before), &e1);
}

/* True when op and target fall in the same group of a NULL-terminated list whose groups
 * are separated by "|" entries. */
static bool gb_mutate__same_group(const char *const *groups, const char *op, const char *target)
{
    int g = 0, gop = -1, gtarget = -2;
    for (size_t i = 0; groups[i]; i++) {
        if (groups[i][0] == '|') {
            g++;
            continue;
        }
        if (strcmp(groups[i], op) == 0) gop = g;
        if (strcmp(groups[i], target) == 0) gtarget = g;
    }
    return gop == gtarget;
}

typedef struct {
    bool error; /* ZeroDivisionError */
    double value;
} GbMutNum;

static GbMutNum gb_mutate__arith(double a, double b, const char *op)
{
    GbMutNum r = {false, 0};
    if (strcmp(op, "+") == 0) {
        r.value = a + b;
    } else if (strcmp(op, "-") == 0) {
        r.value = a - b;
    } else if (strcmp(op, "*") == 0) {
        r.value = a * b;
    } else if (b == 0) {
        r.error = true;
    } else if (strcmp(op, "/") == 0) {
        r.value = a / b;
    } else if (strcmp(op, "//") == 0) {
        r.value = floor(a / b);
    } else {
        /* Python's % takes the sign of the divisor. */
        double m = fmod(a, b);
        if (m != 0 && ((m < 0) != (b < 0))) m += b;
        r.value = m;
    }
    return r;
}

static bool gb_mutate__compare(double a, double b, const char *op)
{
    if (strcmp(op, "<") == 0) return a < b;
    if (strcmp(op, "<=") == 0) return a <= b;
    if (strcmp(op, ">") == 0) return a > b;
    if (strcmp(op, ">=") == 0) return a >= b;
    if (strcmp(op, "==") == 0) return a == b;
    return a != b;
}

static bool gb_mutate__arith_equivalent(const GbMutCtx *c, const GbMutCand *cd, const char *op, const char *target)
{
    double l, r;
    bool lnum = gb_mutate__numeric_value(c, cd->left, &l), rnum = gb_mutate__numeric_value(c, cd->right, &r);
    if (lnum && rnum) {
        GbMutNum x = gb_mutate__arith(l, r, op), y = gb_mutate__arith(l, r, target);
        return x.error == y.error && (x.error || x.value == y.value);
    }
    static const char *const right0[] = {"+", "-", "|", NULL};
    static const char *const right1[] = {"*", "/", "//", "|", NULL};
    static const char *const left0[] = {"*", "/", "//", "%", "|", NULL};
    static const char *const same[] = {"-", "%", "|", "/", "//", "|", NULL};
    if (rnum && r == 0 && gb_mutate__same_group(right0, op, target)) return true;
    /* x // 1.0 floors, so only an integer 1 makes // join * and /. */
    static const char *const right1f[] = {"*", "/", "|", NULL};
    bool int1 = gb_node_is_kind(gb_mutate__unparen(cd->right), GB_NK_INTEGER);
    if (rnum && r == 1 && gb_mutate__same_group(int1 ? right1 : right1f, op, target)) return true;
    if (lnum && l == 0 && gb_mutate__same_group(left0, op, target)) return true;
    if (gb_mutate__same_text(c, cd->left, cd->right) && gb_mutate__same_group(same, op, target)) return true;
    return false;
}

static bool gb_mutate__compare_equivalent(const GbMutCtx *c, const GbMutCand *cd, const char *op, const char *target)
{
    double l, r;
    if (gb_mutate__numeric_value(c, cd->left, &l) && gb_mutate__numeric_value(c, cd->right, &r))
        return gb_mutate__compare(l, r, op) == gb_mutate__compare(l, r, target);
    static const char *const truth[] = {"==", "<=", ">=", "|", "!=", "<", ">", "|", NULL};
    if (gb_mutate__same_text(c, cd->left, cd->right) && gb_mutate__same_group(truth, op, target)) return true;
    return false;
}

static void gb_mutate__variants_arith(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    const char *op = ts_node_type(cd->node);
    /* `"..." % args` is string formatting, not arithmetic: with a string literal on either
     * side, % is neither replaced nor offered. */
    bool formatting = gb_mutate__is_string_literal(cd->left) || gb_mutate__is_string_literal(cd->right);
    if (formatting && strcmp(op, "%") == 0) return;
    for (size_t i = 0; gb_mutate__arith_ops[i]; i++) {
        const char *target = gb_mutate__arith_ops[i];
        if (strcmp(target, op) == 0) continue;
        if (formatting && strcmp(target, "%") == 0) continue;
        if (gb_mutate__arith_equivalent(c, cd, op, target)) continue;
        char *label = gb_asprintf("op:%s", target);
        gb_mutate__add_replace(c, site, label, cd->start, cd->end, target);
        free(label);
    }
}

static void gb_mutate__variants_compare(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    const char *op = ts_node_type(cd->node);
    bool none = gb_node_is_kind(gb_mutate__unparen(cd->left), GB_NK_NONE) ||
                gb_node_is_kind(gb_mutate__unparen(cd->right), GB_NK_NONE);
    for (size_t i = 0; gb_mutate__compare_ops[i]; i++) {
        const char *target = gb_mutate__compare_ops[i];
        if (strcmp(target, op) == 0) continue;
        /* Ordering against None is a TypeError, not a plausible slip. */
        if (none && (strcmp(target, "==") != 0 && strcmp(target, "!=") != 0)) continue;
        if (gb_mutate__compare_equivalent(c, cd, op, target)) continue;
        char *label = gb_asprintf("op:%s", target);
        gb_mutate__add_replace(c, site, label, cd->start, cd->end, target);
        free(label);
    }
}

static bool gb_mutate__is_primary(TSNode e)
{
    static const char *const primary[] = {"identifier",
                                          "call",
                                          "attribute",
                                          "subscript",
                                          "parenthesized_expression",
                                          "string",
                                          "list",
                                          "dictionary",
                                          "set",
                                          "tuple",
                                          "list_comprehension",
                                          "dictionary_comprehension",
                                          "set_comprehension",
                                          "generator_expression",
                                          NULL};
    return gb_mutate__is_any(e, primary);
}

/* `c` -> `not (c)`; a primary `x`, `f(x)`, `(c)` -> `not x`, ...; `not c` -> `c`. */
static void gb_mutate__add_negation(const GbMutCtx *c, GbMutSite *site, TSNode e, const char *label_not,
                                    const char *label_unnot)
{
    size_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
    if (gb_node_is_kind(e, GB_NK_NOT_OPERATOR)) {
        TSNode arg = gb_mutate__field(e, "argument");
        gb_mutate__add_replace(c, site, label_unnot, a, ts_node_start_byte(arg), "");
    } else if (gb_mutate__is_primary(e)) {
        gb_mutate__add_replace(c, site, label_not, a, a, "not ");
    } else {
        gb_mutate__add_wrap(c, site, label_not, a, b, "not (", ")");
    }
}

static void gb_mutate__variants_condition(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    if (cd->kind == GB_MUT__NEGATE) {
        if (gb_mutate__is_constant(c, cd->node)) return;
        gb_mutate__add_negation(c, site, cd->node, "negate", "unnegate");
        return;
    }
    if (gb_mutate__same_text(c, cd->left, cd->right)) return;
    bool is_and = gb_node_is_kind(cd->node, GB_NK_AND);
    gb_mutate__add_replace(c, site, is_and ? "op:or" : "op:and", cd->start, cd->end, is_and ? "or" : "and");
}

/* String variants shared by M4 and M5: drop the contents, or append an "X". */
static void gb_mutate__variants_string(const GbMutCtx *c, TSNode s, GbMutSite *site)
{
    TSNode open = {0}, close = {0};
    for (uint32_t i = 0; i < ts_node_child_count(s); i++) {
        TSNode ch = ts_node_child(s, i);
        if (gb_node_is_kind(ch, GB_NK_STRING_START)) open = ch;
        if (gb_node_is_kind(ch, GB_NK_STRING_END)) close = ch;
    }
    if (ts_node_is_null(open) || ts_node_is_null(close)) return;
    size_t a = ts_node_end_byte(open), b = ts_node_start_byte(close);
    if (b > a) gb_mutate__add_content_edit(c, site, "empty", a, b, "");
    gb_mutate__add_content_edit(c, site, "append-X", b, b, "X");
}

/* Numeric literal (under optional unary +/-): value +- 1. keep_base writes integers in
 * their original base (M5); allow_negative permits n - 1 < 0 (M4 return values). */
static void gb_mutate__variants_number(const GbMutCtx *c, TSNode lit, GbMutSite *site, bool allow_negative)
{
    size_t a = ts_node_start_byte(lit), b = ts_node_end_byte(lit);
    if (gb_node_is_kind(lit, GB_NK_INTEGER)) {
        GbMutInt t;
        if (!gb_mutate__parse_int(c->src + a, b - a, &t)) return;
        char *up = gb_mutate__format_int(&t, t.value + 1);
        gb_mutate__add_replace(c, site, "plus1", a, b, up);
        free(up);
        if (t.value >= 1) {
            char *down = gb_mutate__format_int(&t, t.value - 1);
            gb_mutate__add_replace(c, site, "minus1", a, b, down);
            free(down);
        } else if (allow_negative) {
            gb_mutate__add_replace(c, site, "minus1", a, b, "-1");
        }
        return;
    }
    double v;
    if (!gb_mutate__numeric_value(c, lit, &v)) return;
    if (gb_node_is_kind(lit, GB_NK_FLOAT)) {
        char *up = gb_mutate__format_float(v + 1), *down = gb_mutate__format_float(v - 1);
        if (strtod(up, NULL) != v) gb_mutate__add_replace(c, site, "plus1", a, b, up);
        if ((v - 1 >= 0 || allow_negative) && strtod(down, NULL) != v)
            gb_mutate__add_replace(c, site, "minus1", a, b, down);
        free(up);
        free(down);
        return;
    }
    /* A signed literal, e.g. `-1` or `-0.5`, as a whole. */
    bool integral = gb_node_is_kind(gb_mutate__unparen(gb_mutate__field(lit, "argument")), GB_NK_INTEGER);
    for (int d = 1; d >= -1; d -= 2) {
        double nv = v + d;
        char *text = integral && fabs(nv) < 9e15 ? gb_asprintf("%.0f", nv) : gb_mutate__format_float(nv);
        if (strcmp(text, "-0") == 0) text[0] = '0', text[1] = '\0';
        gb_mutate__add_replace(c, site, d > 0 ? "plus1" : "minus1", a, b, text);
        free(text);
    }
}

static void gb_mutate__variants_constant(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    TSNode n = cd->node;
    if (gb_node_is_kind(n, GB_NK_TRUE)) {
        gb_mutate__add_replace(c, site, "false", cd->start, cd->end, "False");
    } else if (gb_node_is_kind(n, GB_NK_FALSE)) {
        gb_mutate__add_replace(c, site, "true", cd->start, cd->end, "True");
    } else if (gb_node_is_kind(n, GB_NK_STRING)) {
        gb_mutate__variants_string(c, n, site);
    } else {
        gb_mutate__variants_number(c, n, site, false);
    }
}

/* ---- M4: a small type inference for returned values ---- */

typedef enum { GB_K_UNKNOWN, GB_K_BOOL, GB_K_NUM, GB_K_STR, GB_K_NONE, GB_K_SELF, GB_K_LIST } GbMutKind;

typedef struct {
    const char *names[8]; /* variables being resolved (borrowed) */
    uint32_t scopes[8];   /* start byte of the scope each is resolved in */
    size_t n;
} GbMutResolving;

static GbMutKind gb_mutate__expr_kind(const GbMutCtx *c, TSNode e, GbMutResolving *r);

static bool gb_mutate__name_in(const char *name, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

static GbMutKind gb_mutate__call_kind(const GbMutCtx *c, TSNode call)
{
    static const char *const bool_funcs[] = {"bool", "isinstance", "issubclass", "all",
                                             "any",  "hasattr",    "callable",   NULL};
    static const char *const num_funcs[] = {"len", "int", "float", "abs", "round", "ord", "sum", "hash", NULL};
    static const char *const str_funcs[] = {"str", "chr", "repr", "format", "hex", "bin", "oct", "ascii", NULL};
    static const char *const list_funcs[] = {"list", "sorted", NULL};
    static const char *const bool_methods[] = {"startswith", "endswith",     "isdigit",     "isalpha", "isalnum",
                                               "isnumeric",  "isdecimal",    "isupper",     "islower", "isspace",
                                               "istitle",    "isidentifier", "isprintable", "isascii", "issubset",
                                               "issuperset", "isdisjoint",   "is_integer",  NULL};
    static const char *const num_methods[] = {"count", "index", "find", "rfind", "bit_length", NULL};
    static const char *const str_methods[] = {"join",   "upper",  "lower",      "strip",    "lstrip",
                                              "rstrip", "title",  "capitalize", "casefold", "swapcase",
                                              "zfill",  "center", "ljust",      "rjust",    NULL};
    static const char *const list_methods[] = {"split", "rsplit", "splitlines", NULL};
    TSNode f = gb_mutate__field(call, "function");
    GbMutKind k = GB_K_UNKNOWN;
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) {
        char *name = gb_node_text(f, c->src);
        k = gb_mutate__name_in(name, bool_funcs)  ? GB_K_BOOL
            : gb_mutate__name_in(name, num_funcs) ? GB_K_NUM
            : gb_mutate__name_in(name, str_funcs)  ? GB_K_STR
            : gb_mutate__name_in(name, list_funcs) ? GB_K_LIST
                                                   : GB_K_UNKNOWN;
        free(name);
    } else if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        char *name = gb_node_text(gb_mutate__field(f, "attribute"), c->src);
        k = gb_mutate__name_in(name, bool_methods)  ? GB_K_BOOL
            : gb_mutate__name_in(name, num_methods) ? GB_K_NUM
            : gb_mutate__name_in(name, str_methods)  ? GB_K_STR
            : gb_mutate__name_in(name, list_methods) ? GB_K_LIST
                                                     : GB_K_UNKNOWN;
        free(name);
    }
    return k;
}

static GbMutKind gb_mutate__annotation_kind(const GbMutCtx *c, TSNode type)
{
    size_t a = ts_node_start_byte(type), b = ts_node_end_byte(type);
    char *t = gb_mutate_normalise(c->src + a, b - a);
    GbMutKind k = strcmp(t, "bool") == 0                               ? GB_K_BOOL
                  : (strcmp(t, "int") == 0 || strcmp(t, "float") == 0) ? GB_K_NUM
                  : strcmp(t, "str") == 0                              ? GB_K_STR
                  : (strcmp(t, "list") == 0 || strcmp(t, "List") == 0 || strncmp(t, "list[", 5) == 0 ||
                     strncmp(t, "List[", 5) == 0)
                      ? GB_K_LIST
                      : GB_K_UNKNOWN;
    free(t);
    return k;
}

/* Kinds of several bindings of one variable: all must agree. */
typedef struct {
    GbMutKind kind;
    bool any, conflict;
} GbMutAcc;

static void gb_mutate__acc(GbMutAcc *acc, GbMutKind k)
{
    if (k == GB_K_SELF) return; /* `x = x + 1` says nothing new about x */
    if (k == GB_K_UNKNOWN) {
        acc->conflict = true;
    } else if (!acc->any) {
        acc->kind = k;
        acc->any = true;
    } else if (acc->kind != k) {
        acc->conflict = true;
    }
}

static bool gb_mutate__ident_is(const GbMutCtx *c, TSNode n, const char *name)
{
    return gb_node_is_kind(n, GB_NK_IDENTIFIER) && gb_node_text_eq(n, c->src, name);
}

/* Does a binding target (pattern) bind name? Attributes and subscripts do not. */
static bool gb_mutate__pattern_binds(const GbMutCtx *c, TSNode p, const char *name)
{
    if (gb_node_is_kind(p, GB_NK_IDENTIFIER)) return gb_mutate__ident_is(c, p, name);
    if (gb_node_is_kind(p, GB_NK_ATTRIBUTE) || gb_node_is_kind(p, GB_NK_SUBSCRIPT)) return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(p); i++)
        if (gb_mutate__pattern_binds(c, ts_node_named_child(p, i), name)) return true;
    return false;
}

static bool gb_mutate__mentions(const GbMutCtx *c, TSNode n, const char *name)
{
    if (gb_mutate__ident_is(c, n, name)) return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (gb_mutate__mentions(c, ts_node_named_child(n, i), name)) return true;
    return false;
}

static void gb_mutate__bindings(const GbMutCtx *c, TSNode n, const char *name, GbMutAcc *acc, GbMutResolving *r)
{
    static const char *const scopes[] = {
        "lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression", NULL};
    if (gb_mutate__is_any(n, scopes)) return;
    if (gb_node_is_kind(n, GB_NK_FUNCTION_DEFINITION) || gb_node_is_kind(n, GB_NK_CLASS_DEFINITION)) {
        if (gb_mutate__ident_is(c, gb_mutate__field(n, "name"), name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_ASSIGNMENT)) {
        TSNode left = gb_mutate__field(n, "left");
        if (gb_mutate__ident_is(c, left, name)) {
            TSNode type = gb_mutate__field(n, "type"), right = gb_mutate__field(n, "right");
            while (gb_node_is_kind(right, GB_NK_ASSIGNMENT)) right = gb_mutate__field(right, "right");
            if (!ts_node_is_null(type))
                gb_mutate__acc(acc, gb_mutate__annotation_kind(c, type));
            else if (!ts_node_is_null(right))
                gb_mutate__acc(acc, gb_mutate__expr_kind(c, right, r));
        } else if (!ts_node_is_null(left) && gb_mutate__pattern_binds(c, left, name)) {
            gb_mutate__acc(acc, GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_AUGMENTED_ASSIGNMENT)) {
        TSNode left = gb_mutate__field(n, "left");
        if (gb_mutate__ident_is(c, left, name)) {
            GbNodeKind op = gb_node_kind(gb_mutate__field(n, "operator"));
            GbMutKind rk = gb_mutate__expr_kind(c, gb_mutate__field(n, "right"), r);
            if (op == GB_NK_PLUS_EQ && (rk == GB_K_NUM || rk == GB_K_STR || rk == GB_K_LIST))
                gb_mutate__acc(acc, rk);
            else if (rk == GB_K_NUM && (op == GB_NK_MINUS_EQ || op == GB_NK_SLASH_EQ || op == GB_NK_SLASH_SLASH_EQ ||
                                        op == GB_NK_PERCENT_EQ || op == GB_NK_STAR_STAR_EQ || op == GB_NK_STAR_EQ))
                gb_mutate__acc(acc, GB_K_NUM);
            else
                gb_mutate__acc(acc, GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_FOR_STATEMENT)) {
        TSNode left = gb_mutate__field(n, "left"), right = gb_mutate__field(n, "right");
        if (gb_mutate__pattern_binds(c, left, name)) {
            bool range = gb_node_is_kind(left, GB_NK_IDENTIFIER) && gb_node_is_kind(right, GB_NK_CALL) &&
                         gb_mutate__ident_is(c, gb_mutate__field(right, "function"), "range");
            gb_mutate__acc(acc, range ? GB_K_NUM : GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_NAMED_EXPRESSION)) {
        if (gb_mutate__ident_is(c, gb_mutate__field(n, "name"), name))
            gb_mutate__acc(acc, gb_mutate__expr_kind(c, gb_mutate__field(n, "value"), r));
    } else if (gb_node_is_kind(n, GB_NK_AS_PATTERN)) {
        TSNode alias = gb_mutate__field(n, "alias");
        if (!ts_node_is_null(alias) && gb_mutate__mentions(c, alias, name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
    } else if (gb_node_is_kind(n, GB_NK_IMPORT_STATEMENT) || gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT) ||
               gb_node_is_kind(n, GB_NK_GLOBAL_STATEMENT) || gb_node_is_kind(n, GB_NK_NONLOCAL_STATEMENT) ||
               gb_node_is_kind(n, GB_NK_CASE_PATTERN)) {
        if (gb_mutate__mentions(c, n, name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        gb_mutate__bindings(c, ts_node_named_child(n, i), name, acc, r);
}

/* The function that encloses n (its scope), or the module root. Class bodies are not
 * scopes their methods can see, so they are skipped. */
static TSNode gb_mutate__scope_of(const GbMutCtx *c, TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION)) return p;
    return c->root;
}

static GbMutKind gb_mutate__var_kind(const GbMutCtx *c, const char *name, TSNode scope, GbMutResolving *r)
{
    uint32_t key = ts_node_start_byte(scope);
    for (size_t i = 0; i < r->n; i++)
        if (r->scopes[i] == key && strcmp(r->names[i], name) == 0) return GB_K_SELF;
    if (r->n == sizeof r->names / sizeof r->names[0]) return GB_K_UNKNOWN;
    r->names[r->n] = name;
    r->scopes[r->n] = key;
    r->n++;

    GbMutAcc acc = {GB_K_UNKNOWN, false, false};
    bool is_function = gb_node_is_kind(scope, GB_NK_FUNCTION_DEFINITION);
    if (is_function) {
        TSNode params = gb_mutate__field(scope, "parameters");
        for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
            TSNode p = ts_node_named_child(params, i);
            if (gb_node_is_kind(p, GB_NK_TYPED_PARAMETER) || gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER)) {
                TSNode id = gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER) ? gb_mutate__field(p, "name")
                                                                              : ts_node_named_child(p, 0);
                if (gb_mutate__ident_is(c, id, name))
                    gb_mutate__acc(&acc, gb_mutate__annotation_kind(c, gb_mutate__field(p, "type")));
            } else if (gb_node_is_kind(p, GB_NK_DEFAULT_PARAMETER)) {
                if (gb_mutate__ident_is(c, gb_mutate__field(p, "name"), name)) gb_mutate__acc(&acc, GB_K_UNKNOWN);
            } else if (gb_mutate__mentions(c, p, name)) {
                gb_mutate__acc(&acc, GB_K_UNKNOWN);
            }
        }
        gb_mutate__bindings(c, gb_mutate__field(scope, "body"), name, &acc, r);
    } else {
        for (uint32_t i = 0; i < ts_node_named_child_count(scope); i++)
            gb_mutate__bindings(c, ts_node_named_child(scope, i), name, &acc, r);
    }

    GbMutKind k;
    if (acc.conflict)
        k = GB_K_UNKNOWN;
    else if (acc.any)
        k = acc.kind;
    else if (is_function)
        k = gb_mutate__var_kind(c, name, gb_mutate__scope_of(c, scope), r); /* a free variable */
    else
        k = GB_K_UNKNOWN; /* a builtin or undefined name */
    r->n--;
    return k;
}

static bool gb_mutate__is_bytes(const GbMutCtx *c, TSNode s)
{
    TSNode start = ts_node_child(s, 0);
    if (!gb_node_is_kind(start, GB_NK_STRING_START)) return false;
    for (uint32_t i = ts_node_start_byte(start); i < ts_node_end_byte(start); i++)
        if (c->src[i] == 'b' || c->src[i] == 'B') return true;
    return false;
}

static GbMutKind gb_mutate__expr_kind(const GbMutCtx *c, TSNode e, GbMutResolving *r)
{
    e = gb_mutate__unparen(e);
    if (ts_node_is_null(e)) return GB_K_UNKNOWN;
    if (gb_node_is_kind(e, GB_NK_TRUE) || gb_node_is_kind(e, GB_NK_FALSE)) return GB_K_BOOL;
    if (gb_node_is_kind(e, GB_NK_NONE)) return GB_K_NONE;
    if (gb_node_is_kind(e, GB_NK_COMPARISON_OPERATOR) || gb_node_is_kind(e, GB_NK_NOT_OPERATOR)) return GB_K_BOOL;
    double v;
    if (gb_mutate__numeric_value(c, e, &v)) return GB_K_NUM;
    if (gb_node_is_kind(e, GB_NK_STRING)) return gb_mutate__is_bytes(c, e) ? GB_K_UNKNOWN : GB_K_STR;
    if (gb_node_is_kind(e, GB_NK_CONCATENATED_STRING))
        return gb_mutate__is_bytes(c, ts_node_named_child(e, 0)) ? GB_K_UNKNOWN : GB_K_STR;
    if (gb_node_is_kind(e, GB_NK_LIST) || gb_node_is_kind(e, GB_NK_LIST_COMPREHENSION)) return GB_K_LIST;
    if (gb_node_is_kind(e, GB_NK_CALL)) return gb_mutate__call_kind(c, e);
    if (gb_node_is_kind(e, GB_NK_IDENTIFIER)) {
        char *name = gb_node_text(e, c->src);
        GbMutKind k = gb_mutate__var_kind(c, name, gb_mutate__scope_of(c, e), r);
        free(name);
        return k;
    }
    if (gb_node_is_kind(e, GB_NK_BOOLEAN_OPERATOR)) {
        /* `a or b` returns an operand: bool only when both operands are. */
        GbMutKind l = gb_mutate__expr_kind(c, gb_mutate__field(e, "left"), r);
        GbMutKind rr = gb_mutate__expr_kind(c, gb_mutate__field(e, "right"), r);
        if ((l == GB_K_BOOL || l == GB_K_SELF) && (rr == GB_K_BOOL || rr == GB_K_SELF) &&
            !(l == GB_K_SELF && rr == GB_K_SELF))
            return GB_K_BOOL;
        return GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_UNARY_OPERATOR)) {
        GbMutKind a = gb_mutate__expr_kind(c, gb_mutate__field(e, "argument"), r);
        return a == GB_K_NUM ? GB_K_NUM : a == GB_K_SELF ? GB_K_SELF : GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
        GbNodeKind op = gb_node_kind(gb_mutate__field(e, "operator"));
        GbMutKind l = gb_mutate__expr_kind(c, gb_mutate__field(e, "left"), r);
        GbMutKind rr = gb_mutate__expr_kind(c, gb_mutate__field(e, "right"), r);
        bool arith = gb_mutate__is_any(gb_mutate__field(e, "operator"), gb_mutate__arith_ops) ||
                     op == GB_NK_STAR_STAR || op == GB_NK_LSHIFT || op == GB_NK_RSHIFT;
        if (l == GB_K_SELF && rr == GB_K_SELF) return GB_K_SELF;
        if (l == GB_K_SELF) l = rr;
        if (rr == GB_K_SELF) rr = l;
        if (arith && l == GB_K_NUM && rr == GB_K_NUM) return GB_K_NUM;
        if (op == GB_NK_PLUS && l == GB_K_STR && rr == GB_K_STR) return GB_K_STR;
        if (op == GB_NK_PLUS && l == GB_K_LIST && rr == GB_K_LIST) return GB_K_LIST;
        if (op == GB_NK_STAR && ((l == GB_K_STR && rr == GB_K_NUM) || (l == GB_K_NUM && rr == GB_K_STR)))
            return GB_K_STR;
        if (op == GB_NK_PERCENT && l == GB_K_STR) return GB_K_STR;
        return GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_CONDITIONAL_EXPRESSION)) {
        /* body if condition else alternative: named children 0 and 2. */
        if (ts_node_named_child_count(e) < 3) return GB_K_UNKNOWN;
        GbMutKind a = gb_mutate__expr_kind(c, ts_node_named_child(e, 0), r);
        GbMutKind b = gb_mutate__expr_kind(c, ts_node_named_child(e, 2), r);
        if (a == GB_K_SELF) a = b;
        if (b == GB_K_SELF) b = a;
        return a == b ? a : GB_K_UNKNOWN;
    }
    return GB_K_UNKNOWN;
}

static void gb_mutate__add_suffix(const GbMutCtx *c, GbMutSite *site, const char *label, TSNode e, const char *suffix)
{
    size_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
    if (gb_mutate__is_primary(e)) {
        gb_mutate__add_replace(c, site, label, b, b, suffix);
    } else {
        char *after = gb_asprintf(")%s", suffix);
        gb_mutate__add_wrap(c, site, label, a, b, "(", after);
        free(after);
    }
}

static void gb_mutate__variants_return(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    TSNode v = cd->node;
    TSNode inner = gb_mutate__unparen(v);
    if (gb_node_is_kind(v, GB_NK_EXPRESSION_LIST) || gb_node_is_kind(inner, GB_NK_NONE)) return;
    if (gb_node_is_kind(inner, GB_NK_TRUE)) {
        gb_mutate__add_replace(c, site, "false", ts_node_start_byte(inner), ts_node_end_byte(inner), "False");
        return;
    }
    if (gb_node_is_kind(inner, GB_NK_FALSE)) {
        gb_mutate__add_replace(c, site, "true", ts_node_start_byte(inner), ts_node_end_byte(inner), "True");
        return;
    }
    double num;
    if (gb_mutate__numeric_value(c, inner, &num)) {
        gb_mutate__variants_number(c, inner, site, true);
        return;
    }
    if (gb_node_is_kind(inner, GB_NK_STRING) && !gb_mutate__is_bytes(c, inner)) {
        gb_mutate__variants_string(c, inner, site);
        return;
    }
    GbMutResolving r = {{0}, {0}, 0};
    switch (gb_mutate__expr_kind(c, v, &r)) {
    case GB_K_BOOL:
        if (gb_node_is_kind(inner, GB_NK_NOT_OPERATOR)) {
            TSNode arg = gb_mutate__field(inner, "argument");
            GbMutResolving r2 = {{0}, {0}, 0};
            size_t a = ts_node_start_byte(inner), b = ts_node_end_byte(inner);
            if (gb_mutate__expr_kind(c, arg, &r2) == GB_K_BOOL) {
                gb_mutate__add_replace(c, site, "unnegate", a, ts_node_start_byte(arg), "");
            } else {
                /* `not x` -> `bool(x)`: still a bool, whatever x is. */
                GbMutEdit close = gb_mutate__edit(c, b, b, ")");
                gb_mutate__add_variant(c, site, gb_strdup("bool"),
                                       gb_mutate__edit(c, a, ts_node_start_byte(arg), "bool("), &close);
            }
        } else {
            gb_mutate__add_negation(c, site, v, "not", "unnegate");
        }
        break;
    case GB_K_NUM:
        gb_mutate__add_suffix(c, site, "plus1", v, " + 1");
        gb_mutate__add_suffix(c, site, "minus1", v, " - 1");
        break;
    case GB_K_STR:
    case GB_K_LIST:
        gb_mutate__add_suffix(c, site, "drop-first", v, "[1:]");
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------------------------------
 * Sites
 * ---------------------------------------------------------------------------------- */

static void gb_mutate__describe(const GbMutCtx *c, const GbMutCand *cd, GbMutOp op, GbMutSite *site)
{
    char *orig = gb_mutate__clip(c->src + cd->start, cd->end - cd->start, 60);
    const char *what = op == GB_MUT_ARITH         ? "arithmetic operator"
                       : op == GB_MUT_COMPARE     ? "comparison operator"
                       : op == GB_MUT_RETURN      ? "returned value"
                       : op == GB_MUT_CONSTANT    ? "constant"
                       : cd->kind == GB_MUT__SWAP ? "boolean operator"
                                                  : NULL;
    if (what)
        site->description = gb_asprintf("line %u, column %u: %s `%s`", site->line, site->column, what, orig);
    else
        site->description =
            gb_asprintf("line %u, column %u: condition of `%s` `%s`", site->line, site->column, cd->owner, orig);
    free(orig);
}

/* Build the site of a candidate. Returns false (and leaves *site destroyed) when the
 * candidate is refused: a banned context, or no variant survives. */
static bool gb_mutate__build_site(const GbMutCtx *c, const GbMutCand *cd, GbMutOp op, GbMutSite *site)
{
    memset(site, 0, sizeof *site);
    if (cd->stmt == SIZE_MAX || gb_mutate__refused_context(c, cd->node)) return false;
    site->op = op;
    site->start = cd->start;
    site->end = cd->end;
    TSPoint p = ts_node_start_point(cd->node);
    site->line = p.row + 1;
    site->column = p.column;
    switch (op) {
    case GB_MUT_ARITH:
        gb_mutate__variants_arith(c, cd, site);
        break;
    case GB_MUT_COMPARE:
        gb_mutate__variants_compare(c, cd, site);
        break;
    case GB_MUT_CONDITION:
        gb_mutate__variants_condition(c, cd, site);
        break;
    case GB_MUT_RETURN:
        gb_mutate__variants_return(c, cd, site);
        break;
    case GB_MUT_CONSTANT:
        gb_mutate__variants_constant(c, cd, site);
        break;
    default:
        assert(!"unknown mutation operator");
    }
    if (site->variants.len == 0) {
        gb_mutate_site_destroy(site);
        return false;
    }
    const GbMutStmt *st = &c->stmts.items[cd->stmt];
    site->original = gb_strndup(c->src + cd->start, cd->end - cd->start);
    site->stmt_start = st->start;
    site->stmt_end = st->end;
    site->statement = gb_strdup(st->norm);
    site->stmt_ordinal = st->ordinal;
    site->occurrence = cd->occurrence;
    gb_mutate__describe(c, cd, op, site);
    return true;
}

size_t gb_mutate_find_sites(const char *source, TSTree *tree, GbMutOp op, GbMutSites *sites)
{
    assert(op < GB_MUT_COUNT);
    GbMutCtx c;
    gb_mutate__ctx_init(&c, source, tree);
    GbMutCands cands = {0};
    gb_mutate__candidates(&c, op, &cands);
    size_t added = 0;
    for (size_t i = 0; i < cands.len; i++) {
        GbMutSite site;
        if (!gb_mutate__build_site(&c, &cands.items[i], op, &site)) continue;
        gb_array_push(sites, site);
        added++;
    }
    gb_array_free(&cands);
    gb_mutate__ctx_destroy(&c);
    return added;
}

void gb_mutate_site_destroy(GbMutSite *site)
{
    if (!site) return;
    for (size_t i = 0; i < site->variants.len; i++) gb_mutate__variant_destroy(&site->variants.items[i]);
    gb_array_free(&site->variants);
    free(site->original);
    free(site->description);
    free(site->statement);
    memset(site, 0, sizeof *site);
}

void gb_mutate_sites_destroy(GbMutSites *sites)
{
    if (!sites) return;
    for (size_t i = 0; i < sites->len; i++) gb_mutate_site_destroy(&sites->items[i]);
    gb_array_free(sites);
}

void gb_mutate_site_copy(GbMutSite *dst, const GbMutSite *src)
{
    *dst = *src;
    dst->original = src->original ? gb_strdup(src->original) : NULL;
    dst->description = src->description ? gb_strdup(src->description) : NULL;
    dst->statement = src->statement ? gb_strdup(src->statement) : NULL;
    dst->variants.items = NULL;
    dst->variants.len = dst->variants.cap = 0;
    for (size_t i = 0; i < src->variants.len; i++) {
        GbMutVariant v = src->variants.items[i];
        v.label = gb_strdup(v.label);
        for (size_t j = 0; j < v.nedits; j++) v.edits[j].text = gb_strdup(v.edits[j].text);
        gb_array_push(&dst->variants, v);
    }
}

/* ------------------------------------------------------------------------------------
 * Applying
 * ---------------------------------------------------------------------------------- */

static int gb_mutate__cmp_edit(const void *a, const void *b)
{
    const GbMutEdit *x = *(const GbMutEdit *const *)a, *y = *(const GbMutEdit *const *)b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    /* At the same offset an insertion goes before a replacement that starts there: it is
     * either a prefix of the node the replacement is inside or a suffix of the node before. */
    return (x->end > y->end) - (x->end < y->end);
}

bool gb_mutate_apply_many(const char *source, const GbMutSite *const *sites, const size_t *variants, size_t n,
                          char **new_source, GbError *err)
{
    *new_source = NULL;
    size_t len = strlen(source);
    GbArray(const GbMutEdit *) edits = {0};
    for (size_t i = 0; i < n; i++) {
        const GbMutSite *s = sites[i];
        if (s->end > len || s->end - s->start != strlen(s->original) ||
            memcmp(source + s->start, s->original, s->end - s->start) != 0) {
            gb_error_set(err, "mutation site %s does not match the source", s->description);
            gb_array_free(&edits);
            return false;
        }
        if (variants[i] >= s->variants.len) {
            gb_error_set(err, "mutation site %s has no variant %zu", s->description, variants[i]);
            gb_array_free(&edits);
            return false;
        }
        const GbMutVariant *v = &s->variants.items[variants[i]];
        for (size_t j = 0; j < v->nedits; j++) gb_array_push(&edits, &v->edits[j]);
    }
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (edits.len > 1) qsort(edits.items, edits.len, sizeof *edits.items, gb_mutate__cmp_edit);
    for (size_t i = 1; i < edits.len; i++) {
        const GbMutEdit *a = edits.items[i - 1], *b = edits.items[i];
        bool both_insert = a->start == a->end && b->start == b->end && a->start == b->start;
        if (b->start < a->end || both_insert) {
            gb_error_set(err, "mutations overlap at byte %zu", b->start);
            gb_array_free(&edits);
            return false;
        }
    }
    char *out = gb_mutate__splice(source, len, (const GbMutEdit *const *)edits.items, edits.len);
    gb_array_free(&edits);
    TSParser *parser = gb_parser_new();
    unsigned row = 0, col = 0;
    bool ok = gb_source_parses(parser, out, strlen(out), &row, &col);
    ts_parser_delete(parser);
    if (!ok) {
        gb_error_set(err, "mutant does not parse: syntax error at line %u, column %u", row + 1, col);
        free(out);
        return false;
    }
    *new_source = out;
    return true;
}

bool gb_mutate_apply(const char *source, const GbMutSite *site, size_t variant, char **new_source, GbError *err)
{
    const GbMutSite *const sites[1] = {site};
    return gb_mutate_apply_many(source, sites, &variant, 1, new_source, err);
}

/* ------------------------------------------------------------------------------------
 * Signatures and matching
 * ---------------------------------------------------------------------------------- */

char *gb_mutate_site_signature(const GbMutSite *site)
{
    return gb_asprintf("%s:%zu:%zu:%s", gb_mutate_op_name(site->op), site->occurrence, site->stmt_ordinal,
                       site->statement);
}

static bool gb_mutate__parse_size(const char **p, size_t *out)
{
    if (!isdigit((unsigned char)**p)) return false;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno != 0 || *end != ':') return false;
    *out = (size_t)v;
    *p = end + 1;
    return true;
}

bool gb_mutate_signature_parse(const char *signature, GbMutSignature *out)
{
    memset(out, 0, sizeof *out);
    const char *colon = strchr(signature, ':');
    if (!colon) return false;
    char *name = gb_strndup(signature, (size_t)(colon - signature));
    bool ok = gb_mutate_op_from_name(name, &out->op);
    free(name);
    const char *p = colon + 1;
    if (!ok || !gb_mutate__parse_size(&p, &out->occurrence) || !gb_mutate__parse_size(&p, &out->stmt_ordinal))
        return false;
    out->statement = gb_strdup(p);
    return true;
}

void gb_mutate_signature_destroy(GbMutSignature *sig)
{
    if (!sig) return;
    free(sig->statement);
    sig->statement = NULL;
}

GbMutMatch gb_mutate_match(const char *source, TSTree *tree, GbMutOp op, const char *statement, size_t occurrence,
                           size_t stmt_ordinal, GbMutSite *out, size_t *n_statements)
{
    assert(op < GB_MUT_COUNT);
    memset(out, 0, sizeof *out);
    GbMutCtx c;
    gb_mutate__ctx_init(&c, source, tree);
    char *norm = gb_mutate_normalise(statement, strlen(statement));
    size_t count = 0, target = SIZE_MAX;
    for (size_t i = 0; i < c.stmts.len; i++) {
        if (strcmp(c.stmts.items[i].norm, norm) != 0) continue;
        if (count == stmt_ordinal) target = i;
        count++;
    }
    free(norm);
    if (n_statements) *n_statements = count;
    GbMutMatch result = GB_MUT_MATCH_NO_STATEMENT;
    if (target != SIZE_MAX) {
        result = GB_MUT_MATCH_NO_OCCURRENCE;
        GbMutCands cands = {0};
        gb_mutate__candidates(&c, op, &cands);
        for (size_t i = 0; i < cands.len; i++) {
            if (cands.items[i].stmt != target || cands.items[i].occurrence != occurrence) continue;
            result = gb_mutate__build_site(&c, &cands.items[i], op, out) ? GB_MUT_MATCH_FOUND : GB_MUT_MATCH_REFUSED;
            break;
        }
        gb_array_free(&cands);
    }
    gb_mutate__ctx_destroy(&c);
    return result;
}

GbMutMatch gb_mutate_match_signature(const char *source, TSTree *tree, const char *signature, GbMutSite *out,
                                     size_t *n_statements)
{
    GbMutSignature sig;
    if (!gb_mutate_signature_parse(signature, &sig)) {
        memset(out, 0, sizeof *out);
        if (n_statements) *n_statements = 0;
        return GB_MUT_MATCH_NO_STATEMENT;
    }
    GbMutMatch m =
        gb_mutate_match(source, tree, sig.op, sig.statement, sig.occurrence, sig.stmt_ordinal, out, n_statements);
    gb_mutate_signature_destroy(&sig);
    return m;
}
