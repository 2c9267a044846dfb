/* Readability metrics R1..R14, exactly as the reference's tool/readability.py computes them
 * (genebench-reference-behaviour.md §1), translated from Python's ast to tree-sitter nodes
 * (see the mapping at the top of fitness/complexity.c). Token-based metrics use the
 * NLTK word_tokenize re-implementation of fitness/tokenize.c. A multi-module program is
 * measured as a whole: counts are summed over modules, maxima taken over modules, the variable
 * set and the token distribution are shared. */
#include "fitness/metrics_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/strmap.h"

typedef const GbPyView View;

static inline uint8_t kind(View *v, uint32_t n)
{
    return v->nodes[n].kind;
}

static inline uint8_t parent_kind(View *v, uint32_t n)
{
    uint32_t p = v->nodes[n].parent;
    return p == GB_PY_NIL ? GB_NK_OTHER : v->nodes[p].kind;
}

static bool rd__comprehension(uint8_t k)
{
    return k == GB_NK_LIST_COMPREHENSION || k == GB_NK_SET_COMPREHENSION || k == GB_NK_DICTIONARY_COMPREHENSION ||
           k == GB_NK_GENERATOR_EXPRESSION;
}

/* Does tree-sitter node n start a Python ast node that has a lineno (stmt, expr, arg, keyword,
 * alias, excepthandler, pattern)? Syntax-only nodes (blocks, argument lists, parentheses,
 * else/finally clauses, string pieces, the attr of an Attribute, ...) do not. */
static bool rd__has_lineno(View *v, uint32_t n)
{
    const GbPyNode *x = &v->nodes[n];
    if (!x->named) return false;
    switch (x->kind) {
    case GB_NK_MODULE:
    case GB_NK_BLOCK:
    case GB_NK_ARGUMENT_LIST:
    case GB_NK_PARAMETERS:
    case GB_NK_LAMBDA_PARAMETERS:
    case GB_NK_PARENTHESIZED_EXPRESSION:
    case GB_NK_ELSE_CLAUSE:
    case GB_NK_FINALLY_CLAUSE:
    case GB_NK_WITH_CLAUSE:
    case GB_NK_WITH_ITEM:
    case GB_NK_FOR_IN_CLAUSE:
    case GB_NK_IF_CLAUSE:
    case GB_NK_CASE_CLAUSE:
    case GB_NK_DECORATED_DEFINITION:
    case GB_NK_DECORATOR:
    case GB_NK_STRING_START:
    case GB_NK_STRING_CONTENT:
    case GB_NK_STRING_END:
    case GB_NK_ESCAPE_SEQUENCE:
    case GB_NK_ESCAPE_INTERPOLATION:
    case GB_NK_INTERPOLATION:
    case GB_NK_FORMAT_SPECIFIER:
    case GB_NK_TYPE_CONVERSION:
    case GB_NK_KEYWORD_SEPARATOR:
    case GB_NK_POSITIONAL_SEPARATOR:
    case GB_NK_IMPORT_PREFIX:
    case GB_NK_RELATIVE_IMPORT:
    case GB_NK_PAIR:
    case GB_NK_AS_PATTERN_TARGET:
    case GB_NK_AS_PATTERN:
    case GB_NK_CHEVRON:
    case GB_NK_TYPE: /* annotation wrapper; it may start at a parenthesis */
        return false;
    case GB_NK_DICTIONARY_SPLAT:
        return parent_kind(v, n) == GB_NK_ARGUMENT_LIST; /* keyword(arg=None) in a call */
    case GB_NK_STRING:
        return parent_kind(v, n) != GB_NK_CONCATENATED_STRING;
    case GB_NK_ASSIGNMENT:
        /* `a = b = c`: one Assign with two targets; the inner tree-sitter node is not a node */
        return parent_kind(v, n) != GB_NK_ASSIGNMENT;
    case GB_NK_TUPLE_PATTERN: {
        /* `(b) = c` parses as a one-element tuple_pattern without a comma: just parentheses */
        for (uint32_t c = x->first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
            if (!v->nodes[c].named && gb_pyview_text_eq(v, c, ",")) return true;
        return false;
    }
    case GB_NK_IDENTIFIER: {
        uint8_t pk = parent_kind(v, n);
        if (pk == GB_NK_ATTRIBUTE && x->field == GB_PF_ATTRIBUTE) return false;
        if (pk == GB_NK_DOTTED_NAME || pk == GB_NK_ALIASED_IMPORT) return false;
        if (pk == GB_NK_GLOBAL_STATEMENT || pk == GB_NK_NONLOCAL_STATEMENT) return false;
        if ((pk == GB_NK_FUNCTION_DEFINITION || pk == GB_NK_CLASS_DEFINITION) && x->field == GB_PF_NAME) return false;
        if (pk == GB_NK_AS_PATTERN_TARGET) {
            /* `except E as name`: the name is a plain string in Python's ast */
            uint32_t ap = v->nodes[x->parent].parent;
            uint32_t owner = ap == GB_PY_NIL ? GB_PY_NIL : v->nodes[ap].parent;
            if (owner != GB_PY_NIL &&
                (kind(v, owner) == GB_NK_EXCEPT_CLAUSE || kind(v, owner) == GB_NK_EXCEPT_GROUP_CLAUSE))
                return false;
        }
        return true;
    }
    default:
        return true;
    }
}

/* num_max_conditions_in_if's cond(): BoolOp -> Σ cond(values); Compare/Name/Call/Constant -> 1;
 * `not x` -> cond(x); anything else -> 0. */
static unsigned rd__cond(View *v, uint32_t n)
{
    n = gb_pyview_unparen(v, n);
    if (n == GB_PY_NIL) return 0;
    switch (kind(v, n)) {
    case GB_NK_BOOLEAN_OPERATOR:
        return rd__cond(v, gb_pyview_field(v, n, GB_PF_LEFT)) + rd__cond(v, gb_pyview_field(v, n, GB_PF_RIGHT));
    case GB_NK_NOT_OPERATOR:
        return rd__cond(v, gb_pyview_field(v, n, GB_PF_ARGUMENT));
    case GB_NK_COMPARISON_OPERATOR:
    case GB_NK_IDENTIFIER:
    case GB_NK_CALL:
    case GB_NK_INTEGER:
    case GB_NK_FLOAT:
    case GB_NK_TRUE:
    case GB_NK_FALSE:
    case GB_NK_NONE:
    case GB_NK_ELLIPSIS:
        return 1;
    case GB_NK_STRING:
    case GB_NK_CONCATENATED_STRING:
        return gb_pyview_is_fstring(v, n) ? 0 : 1; /* an f-string is a JoinedStr, not a Constant */
    default:
        return 0;
    }
}

/* Store-context names inside an assignment target. */
static void rd__targets(View *v, uint32_t n, GbStrMap *vars)
{
    n = gb_pyview_unparen(v, n);
    if (n == GB_PY_NIL) return;
    switch (kind(v, n)) {
    case GB_NK_IDENTIFIER:
        gb_strmap_put(vars, v->src + v->nodes[n].start, gb_pyview_len(v, n), 1, NULL);
        break;
    case GB_NK_TUPLE:
    case GB_NK_LIST:
    case GB_NK_TUPLE_PATTERN:
    case GB_NK_LIST_PATTERN:
    case GB_NK_PATTERN_LIST:
    case GB_NK_EXPRESSION_LIST:
    case GB_NK_LIST_SPLAT:
    case GB_NK_LIST_SPLAT_PATTERN:
        for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
            if (v->nodes[c].named) rd__targets(v, c, vars);
        break;
    default:
        break; /* attribute / subscript targets store into objects, not names */
    }
}

static bool rd__same_boolop(View *v, uint32_t a, uint32_t b)
{
    uint32_t oa = gb_pyview_field(v, a, GB_PF_OPERATOR), ob = gb_pyview_field(v, b, GB_PF_OPERATOR);
    if (oa == GB_PY_NIL || ob == GB_PY_NIL) return false;
    uint32_t la = gb_pyview_len(v, oa);
    return la == gb_pyview_len(v, ob) && memcmp(v->src + v->nodes[oa].start, v->src + v->nodes[ob].start, la) == 0;
}

static bool rd__cast_name(View *v, uint32_t f)
{
    static const char *const casts[] = {"int",   "float", "str",   "bool", "complex",
                                        "bytes", "list",  "tuple", "set",  "dict"};
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
        if (gb_pyview_text_eq(v, f, casts[i])) return true;
    return false;
}

typedef struct {
    unsigned lines, conditions, loops, assignments, max_loop, max_if, max_cond, arrays, operators, casting;
} RdCounts;

static void rd__module(View *v, GbStrMap *vars, RdCounts *rc)
{
    uint32_t cnt = v->count ? v->count : 1;
    uint32_t *loopd = gb_malloc(cnt * sizeof *loopd);
    uint32_t *ifd = gb_malloc(cnt * sizeof *ifd);
    GbArray(uint32_t) rows = {0};
    for (uint32_t n = 0; n < v->count; n++) {
        const GbPyNode *x = &v->nodes[n];
        uint8_t k = x->kind;
        uint32_t p = x->parent;
        uint8_t pk = parent_kind(v, n);
        /* nesting depths (comprehensions ignored; not reset at defs) */
        uint32_t ld = p == GB_PY_NIL ? 0 : loopd[p];
        uint32_t id = p == GB_PY_NIL ? 0 : ifd[p];
        if (k == GB_NK_FOR_STATEMENT || k == GB_NK_WHILE_STATEMENT) {
            ld++;
            if (ld > rc->max_loop) rc->max_loop = ld;
            rc->loops++;
        }
        if (k == GB_NK_IF_STATEMENT) {
            id++;
        } else if (k == GB_NK_ELIF_CLAUSE || (k == GB_NK_ELSE_CLAUSE && pk == GB_NK_IF_STATEMENT)) {
            /* an elif is an If nested in the orelse of the previous one: the k-th elif is k levels
             * below its if, and the else body lies inside the last elif */
            unsigned before = 0, total = 0;
            for (uint32_t c = v->nodes[p].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
                if (kind(v, c) != GB_NK_ELIF_CLAUSE) continue;
                total++;
                if (c <= n) before++;
            }
            id += k == GB_NK_ELIF_CLAUSE ? before : total;
        }
        loopd[n] = ld;
        ifd[n] = id;
        if (k == GB_NK_IF_STATEMENT || k == GB_NK_ELIF_CLAUSE) {
            if (id > rc->max_if) rc->max_if = id;
            rc->conditions++;
            unsigned c = rd__cond(v, gb_pyview_field(v, n, GB_PF_CONDITION));
            if (c > rc->max_cond) rc->max_cond = c;
        }
        if (rd__has_lineno(v, n)) gb_array_push(&rows, x->row);
        switch (k) {
        case GB_NK_CONDITIONAL_EXPRESSION:
            rc->conditions++;
            break;
        case GB_NK_IF_CLAUSE:
            if (rd__comprehension(pk)) rc->conditions++;
            break;
        case GB_NK_FOR_IN_CLAUSE:
            if (rd__comprehension(pk)) rc->loops++;
            rd__targets(v, gb_pyview_field(v, n, GB_PF_LEFT), vars);
            break;
        case GB_NK_ASSIGNMENT:
            if (pk != GB_NK_ASSIGNMENT) rc->assignments++;
            rd__targets(v, gb_pyview_field(v, n, GB_PF_LEFT), vars);
            break;
        case GB_NK_AUGMENTED_ASSIGNMENT:
            rc->assignments++;
            rc->operators++;
            rd__targets(v, gb_pyview_field(v, n, GB_PF_LEFT), vars);
            break;
        case GB_NK_FOR_STATEMENT:
            rd__targets(v, gb_pyview_field(v, n, GB_PF_LEFT), vars);
            break;
        case GB_NK_NAMED_EXPRESSION:
            rd__targets(v, gb_pyview_field(v, n, GB_PF_NAME), vars);
            break;
        case GB_NK_AS_PATTERN_TARGET: {
            /* `with x as y` stores y; `except E as e` stores a plain string in Python's ast */
            uint32_t ap = p, wi = ap == GB_PY_NIL ? GB_PY_NIL : v->nodes[ap].parent;
            if (wi != GB_PY_NIL && kind(v, wi) == GB_NK_WITH_ITEM)
                for (uint32_t c = x->first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
                    if (v->nodes[c].named) rd__targets(v, c, vars);
            break;
        }
        case GB_NK_LIST:
        case GB_NK_LIST_COMPREHENSION:
            rc->arrays++;
            break;
        case GB_NK_LIST_PATTERN:
            if (!gb_pyview_in_case_pattern(v, n)) rc->arrays++;
            break;
        case GB_NK_BINARY_OPERATOR:
        case GB_NK_UNION_TYPE: /* `a | b` in an annotation: a BinOp in Python's ast */
        case GB_NK_UNARY_OPERATOR:
        case GB_NK_NOT_OPERATOR:
            rc->operators++;
            break;
        case GB_NK_BOOLEAN_OPERATOR:
            if (!(pk == GB_NK_BOOLEAN_OPERATOR && rd__same_boolop(v, n, p))) rc->operators++;
            break;
        case GB_NK_COMPARISON_OPERATOR:
            for (uint32_t c = x->first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
                if (v->nodes[c].field == GB_PF_OPERATORS) rc->operators++;
            break;
        case GB_NK_CALL: {
            uint32_t f = gb_pyview_callee(v, n);
            uint32_t args = gb_pyview_field(v, n, GB_PF_ARGUMENTS);
            if (f == GB_PY_NIL || kind(v, f) != GB_NK_IDENTIFIER || !rd__cast_name(v, f)) break;
            if (args == GB_PY_NIL || kind(v, args) != GB_NK_ARGUMENT_LIST) break;
            for (uint32_t a = v->nodes[args].first_child; a != GB_PY_NIL; a = v->nodes[a].next_sibling) {
                uint32_t u = gb_pyview_unparen(v, a);
                if (v->nodes[a].named && u != GB_PY_NIL && kind(v, u) == GB_NK_CALL) {
                    rc->casting++;
                    break;
                }
            }
            break;
        }
        default:
            break;
        }
    }
    /* distinct rows */
    if (rows.len) {
        uint32_t maxrow = 0;
        for (size_t i = 0; i < rows.len; i++)
            if (rows.items[i] > maxrow) maxrow = rows.items[i];
        uint8_t *seen = gb_calloc((size_t)maxrow + 1, 1);
        for (size_t i = 0; i < rows.len; i++) {
            if (!seen[rows.items[i]]) rc->lines++;
            seen[rows.items[i]] = 1;
        }
        free(seen);
    }
    gb_array_free(&rows);
    free(loopd);
    free(ifd);
}

static void rd__count_token(void *ctx, const char *tok, size_t len)
{
    uint64_t *c = gb_strmap_put((GbStrMap *)ctx, tok, len, 0, NULL);
    (*c)++;
}

/* Python reads source files with universal newlines: \r\n and \r become \n. */
static const char *rd__text(const GbPyView *v, char **owned, size_t *len)
{
    *owned = NULL;
    *len = v->len;
    if (!memchr(v->src, '\r', v->len)) return v->src;
    char *t = gb_malloc(v->len + 1);
    size_t w = 0;
    for (size_t i = 0; i < v->len; i++) {
        if (v->src[i] == '\r') {
            t[w++] = '\n';
            if (i + 1 < v->len && v->src[i + 1] == '\n') i++;
        } else {
            t[w++] = v->src[i];
        }
    }
    t[w] = '\0';
    *owned = t;
    *len = w;
    return t;
}

void gb_readability_measure(const GbMeasured *m, GbTokenizer *tk, GbMetrics *out)
{
    GbStrMap vars, freq;
    gb_strmap_init(&vars, false);
    gb_strmap_init(&freq, true);
    RdCounts rc = {0};
    size_t tokens = 0, max_line = 0;
    for (size_t i = 0; i < m->n; i++) {
        const GbPyView *v = &m->views[i];
        rd__module(v, &vars, &rc);
        char *owned;
        size_t len;
        const char *text = rd__text(v, &owned, &len);
        tokens += gb_word_tokenize(tk, text, len, rd__count_token, &freq);
        size_t a = 0;
        for (size_t b = 0; b <= len; b++) {
            if (b < len && text[b] != '\n') continue;
            size_t n = gb_word_tokenize(tk, text + a, b - a, NULL, NULL);
            if (n > max_line) max_line = n;
            a = b + 1;
        }
        free(owned);
    }
    double entropy = 0.0;
    if (tokens) {
        for (size_t s = 0; s < freq.cap; s++) {
            if (!freq.slots[s].key) continue;
            double p = (double)freq.slots[s].val / (double)tokens;
            entropy -= p * log2(p);
        }
    }
    out->v[GB_METRIC_R1] = (double)tokens;
    out->v[GB_METRIC_R2] = rc.lines;
    out->v[GB_METRIC_R3] = rc.conditions;
    out->v[GB_METRIC_R4] = rc.loops;
    out->v[GB_METRIC_R5] = rc.assignments;
    out->v[GB_METRIC_R6] = rc.max_loop;
    out->v[GB_METRIC_R7] = rc.max_if;
    out->v[GB_METRIC_R8] = rc.max_cond;
    out->v[GB_METRIC_R9] = (double)max_line;
    out->v[GB_METRIC_R10] = (double)vars.count;
    out->v[GB_METRIC_R11] = rc.arrays;
    out->v[GB_METRIC_R12] = rc.operators;
    out->v[GB_METRIC_R13] = rc.casting;
    out->v[GB_METRIC_R14] = entropy;
    gb_strmap_destroy(&vars);
    gb_strmap_destroy(&freq);
}
