/* The naming vocabulary: the candidate names of one variable or function, from its own name
 * (synonyms, suffix variants) and from what its spots say about it. */
#include "operators/naming_private.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* Synonyms of common variable names: row = name, then its alternatives. */
static const char *const *const gb_nm_synonyms[] = {
    (const char *const[]){"total", "running_total", "sum_so_far", "accumulated", NULL},
    (const char *const[]){"count", "tally", "num_items", "counter", NULL},
    (const char *const[]){"counter", "count", "tally", NULL},
    (const char *const[]){"result", "outcome", "answer", "output", NULL},
    (const char *const[]){"results", "outcomes", "collected", "output", NULL},
    (const char *const[]){"value", "amount", "current_value", NULL},
    (const char *const[]){"values", "amounts", "numbers", NULL},
    (const char *const[]){"items", "elements", "entries", NULL},
    (const char *const[]){"item", "element", "entry", NULL},
    (const char *const[]){"index", "position", "idx", NULL},
    (const char *const[]){"text", "content", "string_value", NULL},
    (const char *const[]){"string", "text", "chars", NULL},
    (const char *const[]){"word", "token", "term", NULL},
    (const char *const[]){"words", "tokens", "terms", NULL},
    (const char *const[]){"number", "num", "amount", NULL},
    (const char *const[]){"numbers", "nums", "values", NULL},
    (const char *const[]){"length", "size", "span", NULL},
    (const char *const[]){"size", "length", "extent", NULL},
    (const char *const[]){"key", "name", "label", NULL},
    (const char *const[]){"char", "character", "symbol", NULL},
    (const char *const[]){"left", "lo", "start", NULL},
    (const char *const[]){"right", "hi", "end", NULL},
    (const char *const[]){"low", "lo", "lower", NULL},
    (const char *const[]){"high", "hi", "upper", NULL},
    (const char *const[]){"start", "begin", "first", NULL},
    (const char *const[]){"end", "stop", "last", NULL},
    (const char *const[]){"output", "out", "result", NULL},
    (const char *const[]){"cur", "current", "now_value", NULL},
    (const char *const[]){"current", "cur", "present", NULL},
    (const char *const[]){"prev", "previous", "last_value", NULL},
    (const char *const[]){"previous", "prev", "last_value", NULL},
    (const char *const[]){"temp", "scratch", "held", NULL},
    (const char *const[]){"data", "payload", "content", NULL},
    (const char *const[]){"line", "row", "text_line", NULL},
    (const char *const[]){"lines", "rows", "text_lines", NULL},
    (const char *const[]){"matrix", "grid", "table", NULL},
    (const char *const[]){"grid", "matrix", "board", NULL},
    (const char *const[]){"stack", "pile", "pending", NULL},
    (const char *const[]){"queue", "pending", "backlog", NULL},
    (const char *const[]){"seen", "visited", "known", NULL},
    (const char *const[]){"visited", "seen", "explored", NULL},
    (const char *const[]){"depth", "level", "nesting", NULL},
    (const char *const[]){"level", "depth", "tier", NULL},
    (const char *const[]){"flag", "marker", "switch", NULL},
    (const char *const[]){"found", "located", "hit", NULL},
    (const char *const[]){"name", "label", "title", NULL},
    (const char *const[]){"names", "labels", "titles", NULL},
    (const char *const[]){"price", "cost", "amount", NULL},
    (const char *const[]){"score", "points", "rating", NULL},
    (const char *const[]){"message", "msg", "note", NULL},
    (const char *const[]){"response", "reply", "answer", NULL},
    (const char *const[]){"request", "query", "call", NULL},
    (const char *const[]){"num", "number", "amount", NULL},
    (const char *const[]){"nums", "numbers", "values", NULL},
    (const char *const[]){"arr", "array", "values", NULL},
    (const char *const[]){"lst", "items", "elements", NULL},
    (const char *const[]){"dp", "table", "memo", NULL},
    (const char *const[]){"memo", "cache", "table", NULL},
    (const char *const[]){"ans", "answer", "result", NULL},
    (const char *const[]){"mid", "middle", "center", NULL},
    (const char *const[]){"diff", "difference", "gap", NULL},
    (const char *const[]){"delta", "change", "step", NULL},
    (const char *const[]){"step", "stride", "increment", NULL},
    (const char *const[]){"pos", "position", "offset", NULL},
    (const char *const[]){"freq", "frequency", "occurrences", NULL},
    (const char *const[]){"counts", "tallies", "frequencies", NULL},
};

/* Variations of a variable's own (user) name: expansions of short names, then suffixes. */
static void gb_nm__variable_variants(const char *old, GbNameList *out, GbNameList *suffixed)
{
    const char *const *const rows[] = {
        (const char *const[]){"i", "index", "idx", "position", NULL},
        (const char *const[]){"j", "inner_index", "col", "other_index", NULL},
        (const char *const[]){"k", "key", "step", "offset", NULL},
        (const char *const[]){"n", "count", "size", "length", NULL},
        (const char *const[]){"m", "middle", "width", NULL},
        (const char *const[]){"s", "text", "string_value", NULL},
        (const char *const[]){"x", "value", "item", NULL},
        (const char *const[]){"y", "other_value", "second", NULL},
        (const char *const[]){"c", "char", "character", NULL},
        (const char *const[]){"ch", "char", "character", NULL},
        (const char *const[]){"d", "mapping", "delta", NULL},
        (const char *const[]){"l", "items", "values", NULL},
        (const char *const[]){"lst", "items", "values", NULL},
        (const char *const[]){"arr", "values", "array", NULL},
        (const char *const[]){"res", "result", "outcome", NULL},
        (const char *const[]){"ret", "result", "outcome", NULL},
        (const char *const[]){"tmp", "temp_value", "scratch", NULL},
        (const char *const[]){"num", "number", "amount", NULL},
        (const char *const[]){"cnt", "count", "tally", NULL},
        (const char *const[]){"idx", "index", "position", NULL},
        (const char *const[]){"val", "value", "amount", NULL},
        (const char *const[]){"st", "stack", "start", NULL},
        (const char *const[]){"ans", "answer", "result", NULL},
        (const char *const[]){"a", "first", "values", NULL},
        (const char *const[]){"b", "second", "other", NULL},
        (const char *const[]){"w", "word", "width", NULL},
        (const char *const[]){"e", "element", "entry", NULL},
        (const char *const[]){"t", "text", "target", NULL},
        (const char *const[]){"p", "point", "part", NULL},
        (const char *const[]){"q", "queue_items", "query", NULL},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        if (strcmp(rows[r][0], old) == 0) gb_nm__add_words(out, rows[r] + 1);
    for (size_t r = 0; r < sizeof gb_nm_synonyms / sizeof *gb_nm_synonyms; r++)
        if (strcmp(gb_nm_synonyms[r][0], old) == 0) gb_nm__add_words(out, gb_nm_synonyms[r] + 1);
    char *stem = gb_nm__stem(old);
    if (!stem) return;
    gb_nm__addf(suffixed, "%s_value", stem);
    gb_nm__addf(suffixed, "current_%s", stem);
    gb_nm__addf(suffixed, "%s_item", stem);
    gb_nm__addf(suffixed, "local_%s", stem);
    free(stem);
}

/* Names for an import alias: `from dateutil.parser import parse` -> dateutil_parse;
 * `from cryptography.fernet import Fernet` -> FernetCipher (classes keep CapWords);
 * `import time` -> clock, timer. */
static void gb_nm__import_words(const char *src, TSNode mod, TSNode name, GbNameList *out)
{
    const char *const *const modules[] = {
        (const char *const[]){"base64", "codec", "encoding", NULL},
        (const char *const[]){"time", "clock", "timer", NULL},
        (const char *const[]){"datetime", "dt", "dates", NULL},
        (const char *const[]){"http.client", "http_lib", "httplib", NULL},
        (const char *const[]){"random", "rand", "rng_module", NULL},
        (const char *const[]){"math", "maths", "math_lib", NULL},
        (const char *const[]){"numpy", "np", "numeric", NULL},
    };
    char *n = gb_node_text(name, src);
    const char *last = strrchr(n, '.') ? strrchr(n, '.') + 1 : n;
    if (ts_node_is_null(mod)) {
        for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
            if (strcmp(modules[i][0], n) == 0) gb_nm__add_words(out, modules[i] + 1);
        char *ls = gb_nm__stem(last);
        if (ls) gb_nm__addf(out, "%s_module", ls);
        free(ls);
    } else if (isupper((unsigned char)last[0])) {
        /* a class: CapWords, without digits */
        static const char *const suffixes[] = {"Class", "Type", "Impl"};
        for (size_t i = 0; i < 3; i++) {
            char *c = gb_asprintf("%s%s", last, suffixes[i]);
            if (gb_naming_is_natural(c)) {
                bool dup = false;
                for (size_t k = 0; k < out->len; k++) dup = dup || strcmp(out->items[k], c) == 0;
                if (!dup) {
                    gb_array_push(out, c);
                    c = NULL;
                }
            }
            free(c);
        }
    } else {
        char *m = gb_node_text(mod, src);
        char *dot = strchr(m, '.');
        if (dot) *dot = '\0';
        char *top = gb_nm__stem(m), *ls = gb_nm__stem(last);
        if (top && ls) gb_nm__addf(out, "%s_%s", top, ls);
        if (ls) gb_nm__addf(out, "%s_func", ls);
        free(top);
        free(ls);
        free(m);
    }
    free(n);
}

static TSNode gb_nm__ident(TSNode root, uint32_t s, uint32_t e)
{
    TSNode n = ts_node_descendant_for_byte_range(root, s, e);
    while (!ts_node_is_null(n) && !gb_node_is_kind(n, GB_NK_IDENTIFIER) && ts_node_start_byte(n) == s)
        n = ts_node_parent(n);
    return n;
}

/* What the spots of a name say about it, gathered for gb_naming_candidates. */
typedef struct {
    GbNameList value, weak, weak_uses; /* owned: strong context, weak context, weak uses */
    unsigned uses;                     /* GB_NM_USE_* */
    bool boolean, literal, is_def;
    TSNode def_node;
    const char *def_src;
} GbNmEvidence;

/* An assignment spot: what is bound to the name (`x = value`, a for target, a walrus, an
 * `except ... as x` or `with ... as x`). */
static void gb_nm__spot_assign(GbNmEvidence *ev, const char *src, TSNode p, TSNode id)
{
    if (gb_node_is_kind(p, GB_NK_ASSIGNMENT) && ts_node_eq(gb_node_field(p, "left"), id)) {
        TSNode v = gb_node_field(p, "right");
        /* a = b = value */
        while (gb_node_is_kind(v, GB_NK_ASSIGNMENT)) v = gb_node_field(v, "right");
        TSNode picked = gb_node_is_kind(v, GB_NK_SUBSCRIPT) ? gb_nm__picked(src, v) : v;
        if (ts_node_is_null(picked)) picked = v;
        GbNodeKind t = gb_node_kind(picked);
        if (t == GB_NK_TRUE || t == GB_NK_FALSE) ev->boolean = true;
        if (ev->boolean || t == GB_NK_INTEGER || t == GB_NK_FLOAT || t == GB_NK_STRING || t == GB_NK_UNARY_OPERATOR ||
            t == GB_NK_LIST)
            ev->literal = true;
        gb_nm__value(src, v, &ev->value, &ev->weak, 0);
    } else if ((gb_node_is_kind(p, GB_NK_FOR_STATEMENT) || gb_node_is_kind(p, GB_NK_FOR_IN_CLAUSE)) &&
               ts_node_eq(gb_node_field(p, "left"), id)) {
        gb_nm__iter(src, gb_node_field(p, "right"), &ev->value, &ev->weak);
    } else if (gb_node_is_kind(p, GB_NK_NAMED_EXPRESSION)) {
        gb_nm__value(src, gb_node_field(p, "value"), &ev->value, &ev->weak, 0);
    } else if (gb_node_is_kind(p, GB_NK_AS_PATTERN_TARGET)) {
        TSNode ap = ts_node_parent(p);
        TSNode up = ts_node_parent(ap);
        if (gb_node_is_kind(up, GB_NK_EXCEPT_CLAUSE)) {
            static const char *const w[] = {"error", "exc", "failure", NULL};
            gb_nm__add_words(&ev->value, w);
        } else if (ts_node_named_child_count(ap) > 0) {
            gb_nm__value(src, ts_node_named_child(ap, 0), &ev->value, &ev->weak, 0);
            static const char *const w[] = {"handle", "resource", NULL};
            gb_nm__add_words(&ev->value, w);
        }
    }
}

/* An import spot: what is imported (`from dateutil.parser import parse as x`,
 * `import time as x`). */
static void gb_nm__spot_import(GbNmEvidence *ev, const char *src, TSNode p)
{
    TSNode item = p;
    while (!ts_node_is_null(item) && !gb_node_is_kind(item, GB_NK_ALIASED_IMPORT) &&
           !gb_node_is_kind(item, GB_NK_DOTTED_NAME))
        item = ts_node_parent(item);
    TSNode name = gb_node_is_kind(item, GB_NK_ALIASED_IMPORT) ? gb_node_field(item, "name") : item;
    TSNode st = ts_node_parent(item);
    TSNode mod = gb_node_is_kind(st, GB_NK_IMPORT_FROM_STATEMENT) ? gb_node_field(st, "module_name") : (TSNode){0};
    if (!ts_node_is_null(name)) gb_nm__import_words(src, mod, name, &ev->value);
}

/* One spot of the name: its evidence into ev. */
static void gb_nm__spot(GbNmEvidence *ev, GbOpContext *ctx, const GbRenameSpot *sp)
{
    const char *src = gb_op_ctx_source(ctx, sp->module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, sp->module));
    TSNode id = gb_nm__ident(root, sp->start, sp->end);
    if (sp->kind == GB_SPOT_IMPORT_AS)
        id = ts_node_named_child(ts_node_descendant_for_byte_range(root, sp->start, sp->end), 0);
    if (ts_node_is_null(id)) return;
    TSNode p = ts_node_parent(id);
    switch (sp->flag) {
    case GB_NAME_READ:
        ev->uses |= gb_nm__use(src, id);
        break;
    case GB_NAME_AUG: {
        TSNode r = gb_node_field(p, "right");
        if (gb_node_is_kind(r, GB_NK_INTEGER))
            ev->uses |= GB_NM_USE_COUNTER;
        else
            ev->uses |= GB_NM_USE_ACCUMULATE;
        break;
    }
    case GB_NAME_ASSIGN:
        gb_nm__spot_assign(ev, src, p, id);
        break;
    case GB_NAME_PARAM:
        if (gb_node_is_kind(p, GB_NK_DEFAULT_PARAMETER) || gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER))
            gb_nm__value(src, gb_node_field(p, "value"), &ev->weak, &ev->weak, 0);
        break;
    case GB_NAME_DEF:
        if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION)) {
            ev->is_def = true;
            ev->def_node = p;
            ev->def_src = src;
        }
        break;
    case GB_NAME_IMPORT:
        gb_nm__spot_import(ev, src, p);
        break;
    default:
        break;
    }
}

void gb_naming_candidates(GbOpContext *ctx, const GbRenamePlan *plan, GbNameList *out)
{
    GbNmEvidence ev = {0};
    for (size_t i = 0; i < plan->spots.len; i++) gb_nm__spot(&ev, ctx, &plan->spots.items[i]);
    if (ev.is_def) gb_nm__function(ev.def_src, ev.def_node, &ev.value);
    /* a literal tested in a condition is a bound or a threshold; a computed value is not */
    if (!ev.literal) ev.uses &= ~(unsigned)(GB_NM_USE_GUARD_VALUE | GB_NM_USE_LIMIT);
    gb_nm__use_words(ev.uses, ev.boolean, &ev.value, &ev.weak_uses);
    /* A name a person chose keeps its meaning (synonyms, then suffix variants, then context);
     * short names get strong context first (what a call returns, what is iterated, how the value
     * is used), then their conventional expansions (i -> index, s -> text), then weak context
     * (how a literal is tested, the type of a literal); machine names are named by context. */
    GbNameList own = {0}, suffixed = {0};
    if (ev.is_def)
        gb_nm__function_variants(plan->name, &own);
    else
        gb_nm__variable_variants(plan->name, &own, &suffixed);
    bool synthetic = gb_naming_is_numbered(plan->name) || gb_program_is_synthetic(ctx->prog, plan->name);
    bool meaningful = !synthetic && strlen(plan->name) > 2;
    const GbNameList *order[5];
    if (meaningful) {
        order[0] = &own, order[1] = &suffixed, order[2] = &ev.value, order[3] = &ev.weak_uses, order[4] = &ev.weak;
    } else if (!synthetic) {
        order[0] = &ev.value, order[1] = &own, order[2] = &ev.weak_uses, order[3] = &ev.weak, order[4] = &suffixed;
    } else {
        order[0] = &ev.value, order[1] = &ev.weak_uses, order[2] = &ev.weak, order[3] = &own, order[4] = &suffixed;
    }
    /* a leading underscore (private, or an unused loop variable) stays */
    bool under = plan->name[0] == '_';
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < order[k]->len; i++) {
            const char *c = order[k]->items[i];
            if (under && c[0] != '_') {
                char *u = gb_asprintf("_%s", c);
                gb_nm__add_raw(out, u);
                free(u);
            } else {
                gb_nm__add_raw(out, c);
            }
        }
    gb_name_list_destroy(&own);
    gb_name_list_destroy(&suffixed);
    if (out->len == 0) gb_nm__add_raw(out, ev.is_def ? "helper" : "value");
    gb_name_list_destroy(&ev.value);
    gb_name_list_destroy(&ev.weak);
    gb_name_list_destroy(&ev.weak_uses);
}
