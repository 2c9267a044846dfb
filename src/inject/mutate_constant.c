/* M5 constant: change a number, boolean or string literal. */
#include "src/inject/mutate_private.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* String variants shared by M4 and M5: drop the contents, or append an "X". */
void gb_mutate__variants_string(const GbMutCtx *c, TSNode s, GbMutSite *site)
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
void gb_mutate__variants_number(const GbMutCtx *c, TSNode lit, GbMutSite *site, bool allow_negative)
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

void gb_mutate__variants_constant(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
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

/* M5 candidates at n: a number, boolean or string literal. */
void gb_mutate__cands_constant(TSNode n, GbMutCands *out)
{
    static const char *const lits[] = {"integer", "float", "true", "false", "string", NULL};
    TSNode null = {0};
    if (gb_mutate__is_any(n, lits)) gb_mutate__push_cand(out, n, null, null, 0, NULL);
}
