/* The naming vocabulary: words for what a function does, from its body. */
#include "operators/naming_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

typedef struct {
    bool loops, nested_def, puts, returns_inner;
} GbNmBody;

static void gb_nm__body_scan(const char *src, TSNode n, GbNmBody *b, int depth)
{
    GbNodeKind t = gb_node_kind(n);
    if (depth > 0 && (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_LAMBDA)) {
        b->nested_def = true;
        return;
    }
    if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT) b->loops = true;
    if (t == GB_NK_CALL) {
        char *c = gb_nm__callee_name(n, src);
        if (c && strcmp(c, "put") == 0 && gb_node_is_kind(gb_node_field(n, "function"), GB_NK_ATTRIBUTE))
            b->puts = true;
        free(c);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_nm__body_scan(src, ts_node_named_child(n, i), b, depth + 1);
}

/* Verb synonyms for renaming functions: row = verb, then its replacements. */
static const char *const *const gb_nm_verb_rows[] = {
    (const char *const[]){"get", "fetch", "obtain", "retrieve", NULL},
    (const char *const[]){"compute", "calculate", "evaluate", "derive", NULL},
    (const char *const[]){"calc", "compute", "calculate", NULL},
    (const char *const[]){"calculate", "compute", "evaluate", NULL},
    (const char *const[]){"find", "locate", "search", "lookup", NULL},
    (const char *const[]){"make", "build", "create", "construct", NULL},
    (const char *const[]){"build", "make", "construct", "assemble", NULL},
    (const char *const[]){"create", "make", "build", NULL},
    (const char *const[]){"check", "verify", "validate", "test", NULL},
    (const char *const[]){"count", "tally", "number", NULL},
    (const char *const[]){"parse", "read", "decode", "interpret", NULL},
    (const char *const[]){"convert", "transform", "translate", NULL},
    (const char *const[]){"solve", "resolve", "work_out", NULL},
    (const char *const[]){"process", "handle", "treat", NULL},
    (const char *const[]){"sort", "order", "arrange", NULL},
    (const char *const[]){"remove", "drop", "strip", NULL},
    (const char *const[]){"add", "append", "insert", NULL},
    (const char *const[]){"update", "refresh", "modify", NULL},
    (const char *const[]){"generate", "produce", "make", NULL},
    (const char *const[]){"validate", "check", "verify", NULL},
    (const char *const[]){"is", "check_is", "test_is", NULL},
    (const char *const[]){"has", "check_has", "contains", NULL},
};

/* Names for a function called `old` (verb synonyms, or a verb in front). */
void gb_nm__function_variants(const char *old, GbNameList *out)
{
    char *stem = gb_nm__stem(old);
    if (!stem) return;
    const char *under = old[0] == '_' ? "_" : "";
    bool done = false;
    for (size_t r = 0; r < sizeof gb_nm_verb_rows / sizeof *gb_nm_verb_rows && !done; r++) {
        const char *verb = gb_nm_verb_rows[r][0];
        size_t n = strlen(verb);
        if (strncmp(stem, verb, n) != 0 || (stem[n] != '_' && stem[n] != '\0')) continue;
        const char *rest = stem[n] ? stem + n : "";
        for (size_t k = 1; gb_nm_verb_rows[r][k]; k++) gb_nm__addf(out, "%s%s%s", under, gb_nm_verb_rows[r][k], rest);
        done = true;
    }
    if (!done) {
        gb_nm__addf(out, "%scompute_%s", under, stem);
        gb_nm__addf(out, "%sget_%s", under, stem);
        gb_nm__addf(out, "%s%s_helper", under, stem);
        gb_nm__addf(out, "%shandle_%s", under, stem);
        gb_nm__addf(out, "%sdo_%s", under, stem);
    }
    gb_nm__addf(out, "%s%s_impl", under, stem);
    free(stem);
}

void gb_nm__function(const char *src, TSNode fn, GbNameList *out)
{
    TSNode body = gb_node_field(fn, "body");
    if (ts_node_is_null(body)) return;
    GbNmBody b = {0};
    gb_nm__body_scan(src, body, &b, 0);
    TSNode first = {0}, last = {0};
    uint32_t c = ts_node_named_child_count(body);
    size_t stmts = 0;
    for (uint32_t i = 0; i < c; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (gb_node_is_kind(s, GB_NK_COMMENT)) continue;
        if (gb_node_is_kind(s, GB_NK_EXPRESSION_STATEMENT) && stmts == 0 && ts_node_named_child_count(s) == 1 &&
            gb_node_is_kind(ts_node_named_child(s, 0), GB_NK_STRING))
            continue; /* docstring */
        if (!stmts) first = s;
        last = s;
        stmts++;
    }
    /* a decorator returns the function it defines */
    bool returns_inner = b.nested_def && gb_node_is_kind(last, GB_NK_RETURN_STATEMENT) &&
                         ts_node_named_child_count(last) == 1 &&
                         gb_node_is_kind(ts_node_named_child(last, 0), GB_NK_IDENTIFIER);
    if (returns_inner) {
        static const char *const w[] = {"wrap", "decorate", "with_wrapper", "wrap_call", NULL};
        gb_nm__add_words(out, w);
    }
    if (b.puts) {
        static const char *const w[] = {"run_in_thread", "thread_body", "worker_task", "background_task", NULL};
        gb_nm__add_words(out, w);
    }
    if (stmts == 1 && gb_node_is_kind(first, GB_NK_RETURN_STATEMENT) && ts_node_named_child_count(first) == 1) {
        TSNode e = ts_node_named_child(first, 0);
        if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
            const char *const *const rows[] = {
                (const char *const[]){"+", "add_values", "combine", "sum_of", NULL},
                (const char *const[]){"-", "subtract", "difference_of", NULL},
                (const char *const[]){"*", "multiply", "scale", "product_of", NULL},
                (const char *const[]){"/", "divide", "ratio_of", NULL},
                (const char *const[]){"//", "floor_divide", "whole_quotient", NULL},
                (const char *const[]){"%", "remainder_of", "modulo", NULL},
                (const char *const[]){"**", "power_of", "raise_power", NULL},
            };
            char *op = gb_nm__text(gb_node_field(e, "operator"), src);
            for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
                if (strcmp(rows[i][0], op) == 0) gb_nm__add_words(out, rows[i] + 1);
            free(op);
        } else if (gb_node_is_kind(e, GB_NK_COMPARISON_OPERATOR) || gb_node_is_kind(e, GB_NK_BOOLEAN_OPERATOR)) {
            static const char *const w[] = {"compare", "is_match", "check_condition", NULL};
            gb_nm__add_words(out, w);
        } else if (gb_node_is_kind(e, GB_NK_CALL)) {
            char *callee = gb_nm__callee_name(e, src);
            char *s = callee ? gb_nm__stem(callee) : NULL;
            if (s) {
                gb_nm__addf(out, "call_%s", s);
                gb_nm__addf(out, "%s_wrapper", s);
                gb_nm__addf(out, "run_%s", s);
            }
            free(s);
            free(callee);
        }
    }
    if (b.loops) {
        static const char *const w[] = {"process_items", "walk_items", "scan_values", NULL};
        gb_nm__add_words(out, w);
    }
}
