/* The naming vocabulary: words for what is bound to a name (a copy of `price` -> price_value,
 * a queue -> results, a loop over range(1) -> attempt). */
#include "operators/naming_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* The element a literal subscript picks (`[x][0]`, `(x, 7)[0]`, `{"k": x}["k"]`), or null. */
TSNode gb_nm__picked(const char *src, TSNode sub)
{
    TSNode null = {0};
    TSNode obj = gb_node_field(sub, "value"), idx = gb_node_field(sub, "subscript");
    if (ts_node_is_null(obj) || ts_node_is_null(idx)) return null;
    if (gb_node_is_kind(obj, GB_NK_LIST) || gb_node_is_kind(obj, GB_NK_TUPLE)) {
        if (!gb_node_is_kind(idx, GB_NK_INTEGER) && !gb_node_is_kind(idx, GB_NK_UNARY_OPERATOR)) return null;
        char *t = gb_nm__text(idx, src);
        long i = strtol(t, NULL, 10);
        free(t);
        long n = 0;
        TSNode items[16];
        uint32_t c = ts_node_named_child_count(obj);
        for (uint32_t k = 0; k < c && n < 16; k++) {
            TSNode e = ts_node_named_child(obj, k);
            if (!gb_node_is_kind(e, GB_NK_COMMENT)) items[n++] = e;
        }
        if (i < 0) i += n;
        return i >= 0 && i < n ? items[i] : null;
    }
    if (gb_node_is_kind(obj, GB_NK_DICTIONARY)) {
        uint32_t c = ts_node_named_child_count(obj);
        for (uint32_t k = 0; k < c; k++) {
            TSNode p = ts_node_named_child(obj, k);
            if (!gb_node_is_kind(p, GB_NK_PAIR)) continue;
            TSNode key = gb_node_field(p, "key");
            uint32_t a = ts_node_start_byte(key), b = ts_node_end_byte(key);
            uint32_t ia = ts_node_start_byte(idx), ib = ts_node_end_byte(idx);
            if (b - a == ib - ia && memcmp(src + a, src + ia, b - a) == 0) return gb_node_field(p, "value");
        }
    }
    return null;
}

static void gb_nm__binary(const char *op, GbNameList *out)
{
    const char *const *const rows[] = {
        (const char *const[]){"+", "total", "combined", "sum_value", NULL},
        (const char *const[]){"-", "difference", "delta", "remaining", NULL},
        (const char *const[]){"*", "product", "scaled", "multiple", NULL},
        (const char *const[]){"/", "ratio", "share", "average", NULL},
        (const char *const[]){"//", "quotient", "whole_part", NULL},
        (const char *const[]){"%", "remainder", "leftover", NULL},
        (const char *const[]){"**", "power", "raised", NULL},
        (const char *const[]){"&", "mask", "common_bits", NULL},
        (const char *const[]){"|", "merged_bits", "mask", NULL},
        (const char *const[]){"^", "toggled", "flipped_bits", NULL},
        (const char *const[]){"<<", "shifted", "scaled_up", NULL},
        (const char *const[]){">>", "shifted", "scaled_down", NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (strcmp(rows[i][0], op) == 0) gb_nm__add_words(out, rows[i] + 1);
}

static void gb_nm__call_value(const char *src, TSNode v, GbNameList *out, int depth)
{
    char *callee = gb_nm__callee_name(v, src);
    if (!callee) {
        gb_nm__add(out, "result");
        return;
    }
    TSNode f = gb_node_field(v, "function");
    if (strcmp(callee, "copy") == 0 && gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        char *obj = gb_nm__node_stem(gb_node_field(f, "object"), src);
        if (obj) gb_nm__addf(out, "%s_copy", obj);
        free(obj);
    }
    if (strcmp(callee, "len") == 0) {
        TSNode a = gb_nm__first_arg(v);
        if (gb_node_is_kind(a, GB_NK_IDENTIFIER)) {
            char *t = gb_nm__text(a, src), *s = gb_nm__stem(t);
            char *one = s ? gb_nm__singular(s) : NULL;
            if (one)
                gb_nm__addf(out, "%s_count", one);
            else if (s)
                gb_nm__addf(out, "%s_length", s);
            free(one);
            free(s);
            free(t);
        }
    }
    if ((strcmp(callee, "sorted") == 0 || strcmp(callee, "reversed") == 0 || strcmp(callee, "list") == 0 ||
         strcmp(callee, "set") == 0) &&
        gb_node_is_kind(gb_nm__first_arg(v), GB_NK_IDENTIFIER)) {
        char *t = gb_nm__text(gb_nm__first_arg(v), src), *s = gb_nm__stem(t);
        if (s) {
            if (strcmp(callee, "sorted") == 0)
                gb_nm__addf(out, "sorted_%s", s);
            else if (strcmp(callee, "reversed") == 0)
                gb_nm__addf(out, "reversed_%s", s);
            else if (strcmp(callee, "set") == 0)
                gb_nm__addf(out, "unique_%s", s);
            else
                gb_nm__addf(out, "%s_list", s);
        }
        free(s);
        free(t);
    }
    if (!gb_nm__call_words(callee, out)) {
        char *stem = gb_nm__stem(callee);
        if (stem) {
            bool verb = false;
            for (size_t i = 0; gb_nm_verbs[i]; i++) {
                size_t n = strlen(gb_nm_verbs[i]);
                if (strncmp(stem, gb_nm_verbs[i], n) == 0 && stem[n]) {
                    gb_nm__add(out, stem + n);
                    verb = true;
                }
            }
            gb_nm__addf(out, "%s_result", stem);
            if (!verb) gb_nm__addf(out, "%s_value", stem);
        }
        free(stem);
        gb_nm__add(out, "result");
    }
    free(callee);
    (void)depth;
}

void gb_nm__value(const char *src, TSNode v, GbNameList *out, GbNameList *weak, int depth)
{
    if (ts_node_is_null(v) || depth > 6) return;
    GbNodeKind t = gb_node_kind(v);
    if (t == GB_NK_CALL) {
        gb_nm__call_value(src, v, out, depth);
    } else if (t == GB_NK_IDENTIFIER) {
        char *s = gb_nm__node_stem(v, src);
        if (s) {
            gb_nm__addf(out, "%s_value", s);
            gb_nm__addf(out, "current_%s", s);
            gb_nm__addf(out, "%s_copy", s);
            gb_nm__addf(out, "saved_%s", s);
        }
        free(s);
    } else if (t == GB_NK_ATTRIBUTE) {
        char *a = gb_nm__node_stem(gb_node_field(v, "attribute"), src);
        TSNode o = gb_node_field(v, "object");
        char *os = gb_node_is_kind(o, GB_NK_IDENTIFIER) ? gb_nm__node_stem(o, src) : NULL;
        if (a) {
            gb_nm__add(out, a);
            if (os && strcmp(os, "self") != 0) gb_nm__addf(out, "%s_%s", os, a);
            gb_nm__addf(out, "%s_value", a);
        }
        free(a);
        free(os);
    } else if (t == GB_NK_SUBSCRIPT) {
        TSNode picked = gb_nm__picked(src, v);
        if (!ts_node_is_null(picked)) {
            gb_nm__value(src, picked, out, weak, depth + 1);
            return;
        }
        TSNode o = gb_node_field(v, "value");
        if (gb_node_is_kind(o, GB_NK_IDENTIFIER) || gb_node_is_kind(o, GB_NK_ATTRIBUTE)) {
            TSNode name = gb_node_is_kind(o, GB_NK_ATTRIBUTE) ? gb_node_field(o, "attribute") : o;
            char *s = gb_nm__node_stem(name, src);
            char *one = s ? gb_nm__singular(s) : NULL;
            if (one) gb_nm__add(out, one);
            if (s && strlen(one ? one : s) > 2) gb_nm__addf(out, "%s_item", one ? one : s);
            free(one);
            free(s);
        }
        gb_nm__add(weak, "item");
        gb_nm__add(weak, "entry");
    } else if (t == GB_NK_TRUE || t == GB_NK_FALSE) {
        static const char *const w[] = {"flag", "enabled", "ok", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_INTEGER) {
        static const char *const w[] = {"count", "limit", "size", "number", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_FLOAT) {
        static const char *const w[] = {"amount", "rate", "ratio", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_STRING || t == GB_NK_CONCATENATED_STRING) {
        static const char *const w[] = {"text", "label", "message", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_NONE) {
        static const char *const w[] = {"result", "found", "current", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_LIST || t == GB_NK_LIST_COMPREHENSION) {
        static const char *const w[] = {"items", "values", "collected", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_DICTIONARY || t == GB_NK_DICTIONARY_COMPREHENSION) {
        static const char *const w[] = {"mapping", "lookup", "table", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_SET || t == GB_NK_SET_COMPREHENSION) {
        static const char *const w[] = {"seen", "unique_items", "members", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_TUPLE || t == GB_NK_EXPRESSION_LIST) {
        static const char *const w[] = {"pair", "record", "entry", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_GENERATOR_EXPRESSION) {
        static const char *const w[] = {"stream", "lazy_items", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_BINARY_OPERATOR) {
        TSNode op = gb_node_field(v, "operator");
        if (!ts_node_is_null(op)) {
            char *o = gb_nm__text(op, src);
            gb_nm__binary(o, out);
            free(o);
        }
    } else if (t == GB_NK_BOOLEAN_OPERATOR || t == GB_NK_NOT_OPERATOR || t == GB_NK_COMPARISON_OPERATOR) {
        static const char *const w[] = {"is_valid", "matches", "condition", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_CONDITIONAL_EXPRESSION) {
        static const char *const w[] = {"choice", "selected", "picked", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_LAMBDA) {
        static const char *const w[] = {"callback", "handler", "key_func", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_UNARY_OPERATOR) {
        TSNode a = gb_node_field(v, "argument");
        if (gb_node_is_kind(a, GB_NK_INTEGER) || gb_node_is_kind(a, GB_NK_FLOAT))
            gb_nm__value(src, a, out, weak, depth + 1);
        else
            gb_nm__add(out, "negated");
    } else if (t == GB_NK_PARENTHESIZED_EXPRESSION || t == GB_NK_AWAIT) {
        if (ts_node_named_child_count(v) > 0) gb_nm__value(src, ts_node_named_child(v, 0), out, weak, depth + 1);
    }
}

/* What a loop variable over iterable `it` holds. */
void gb_nm__iter(const char *src, TSNode it, GbNameList *out, GbNameList *weak)
{
    static const char *const once[] = {"attempt", "single_pass", "trial", "round", NULL};
    if (gb_node_is_kind(it, GB_NK_CALL)) {
        char *callee = gb_nm__callee_name(it, src);
        if (callee && strcmp(callee, "range") == 0) {
            TSNode a = gb_nm__first_arg(it);
            bool one = gb_nm__arg_count(it) == 1 && gb_node_is_kind(a, GB_NK_INTEGER) && gb_node_text_eq(a, src, "1");
            if (gb_nm__arg_count(it) >= 2) {
                /* range(k, k + 1) and range(k + 1, k, -1) run once */
                TSNode args = gb_node_field(it, "arguments");
                TSNode b = ts_node_named_child(args, 1);
                one = gb_node_is_kind(b, GB_NK_INTEGER) && gb_node_is_kind(a, GB_NK_INTEGER);
                if (one) {
                    char *ta = gb_nm__text(a, src), *tb = gb_nm__text(b, src);
                    long x = strtol(ta, NULL, 10), y = strtol(tb, NULL, 10);
                    one = x - y == 1 || y - x == 1;
                    free(ta);
                    free(tb);
                }
            }
            if (one) {
                gb_nm__add_words(out, once);
            } else {
                static const char *const w[] = {"index", "position", "step", "offset", NULL};
                gb_nm__add_words(out, w);
            }
        } else if (callee &&
                   (strcmp(callee, "enumerate") == 0 || strcmp(callee, "zip") == 0 || strcmp(callee, "items") == 0)) {
            static const char *const w[] = {"pair", "entry", "numbered_item", NULL};
            gb_nm__add_words(out, w);
        } else if (callee && strcmp(callee, "keys") == 0) {
            gb_nm__add(out, "key");
            gb_nm__add(out, "name");
        } else if (callee && strcmp(callee, "values") == 0) {
            gb_nm__add(out, "value");
            gb_nm__add(out, "amount");
        } else if (callee && strcmp(callee, "split") == 0) {
            static const char *const w[] = {"word", "token", "part", NULL};
            gb_nm__add_words(out, w);
        } else if (callee && (strcmp(callee, "sorted") == 0 || strcmp(callee, "reversed") == 0 ||
                              strcmp(callee, "list") == 0 || strcmp(callee, "set") == 0)) {
            TSNode a = gb_nm__first_arg(it);
            if (!ts_node_is_null(a)) gb_nm__iter(src, a, out, weak);
        }
        free(callee);
    } else if (gb_node_is_kind(it, GB_NK_LIST) || gb_node_is_kind(it, GB_NK_TUPLE)) {
        if (ts_node_named_child_count(it) == 1) {
            gb_nm__add_words(out, once);
        } else {
            static const char *const w[] = {"item", "element", "choice", NULL};
            gb_nm__add_words(out, w);
        }
    } else if (gb_node_is_kind(it, GB_NK_STRING)) {
        if (ts_node_end_byte(it) - ts_node_start_byte(it) <= 3) {
            gb_nm__add_words(out, once);
        } else {
            static const char *const w[] = {"char", "letter", "symbol", NULL};
            gb_nm__add_words(out, w);
        }
    } else if (gb_node_is_kind(it, GB_NK_IDENTIFIER) || gb_node_is_kind(it, GB_NK_ATTRIBUTE)) {
        TSNode name = gb_node_is_kind(it, GB_NK_ATTRIBUTE) ? gb_node_field(it, "attribute") : it;
        char *s = gb_nm__node_stem(name, src);
        char *one = s ? gb_nm__singular(s) : NULL;
        /* the characters of a string */
        size_t n = s ? strlen(s) : 0;
        if (s && (strcmp(s, "s") == 0 || (n >= 3 && strcmp(s + n - 3, "str") == 0) ||
                  (n >= 4 && strcmp(s + n - 4, "text") == 0) || (n >= 6 && strcmp(s + n - 6, "string") == 0) ||
                  (n >= 4 && strcmp(s + n - 4, "word") == 0))) {
            static const char *const w[] = {"char", "letter", "symbol", NULL};
            gb_nm__add_words(out, w);
        }
        if (one) gb_nm__add(out, one);
        if (s && strlen(one ? one : s) > 2) gb_nm__addf(out, "%s_item", one ? one : s);
        free(one);
        free(s);
    }
    static const char *const w[] = {"item", "element", "entry", NULL};
    gb_nm__add_words(weak, w);
}
