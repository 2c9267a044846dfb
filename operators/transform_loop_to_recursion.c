/* S11 TransformLoopToRecursion: `for NAME in range(...)` becomes a recursive helper.
 *
 *     for i in range(n):          def visit(values, low, high):
 *         total += i * i              nonlocal i, total
 *                          ->         if high - low == 1:
 *                                         i = values[low]
 *                                         total += i * i
 *                                     elif high - low > 1:
 *                                         middle = (low + high) // 2
 *                                         visit(values, low, middle)
 *                                         visit(values, middle, high)
 *                                 span = range(n)
 *                                 visit(span, 0, len(span))
 *
 * The range is evaluated once, before the first iteration, as the loop did; the helper visits
 * its elements in order (left half, then right half), assigning the loop variable from the
 * range and running the body unchanged. Every name the body binds, and the loop variable,
 * is declared `nonlocal` (in a function; `global` for names the function declares global) or
 * `global` (at module level), so assignments land where they did and the loop variable keeps
 * the last value after the loop (and is untouched when the range is empty).
 *
 * Recursion depth: halving keeps the depth at most log2(len) + 1 frames (at most 64) for any
 * trip count. A range of integer literals with at most 50 elements uses the linear form
 * (`visit(values, position + 1)`, depth at most 51). Refused, because the extra frames could
 * matter: loops in recursive functions, bodies that reach recursion (name-based call graph),
 * programs that mention RecursionError, setrecursionlimit or frame introspection.
 *
 * Also refused: break/continue/return/yield/await in the body, an else clause, non-name
 * targets, annotated assignments in the body (`x: T`: an annotated name cannot be declared
 * nonlocal or global), range not resolving to the builtin or with star or keyword arguments, class bodies, dynamic
 * scopes (locals()/eval/super()), global/nonlocal statements in the body, names starting with
 * "__", and (inside functions) body reads of a function local that might be unbound when the
 * loop starts: reading an unbound name through nonlocal raises NameError instead of
 * UnboundLocalError. A local the body reads must be bound before the loop
 * (gb_flow_bound_before), or every read of it in the body must follow a binding made earlier
 * in the same iteration (gb_flow_bound_before_within the body). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

enum { GB_S11_HALVING = 0, GB_S11_LINEAR = 1 };
#define GB_S11_LINEAR_MAX 50

static const char *const gb_s11_refuse_names[] = {"RecursionError", "setrecursionlimit", "getrecursionlimit",
                                                  "_getframe",      "currentframe",      "inspect"};

static bool gb_s11_program_ok(GbOpContext *ctx)
{
    return !gb_op_ctx_mentions_any(ctx, gb_s11_refuse_names, sizeof gb_s11_refuse_names / sizeof *gb_s11_refuse_names);
}

/* Integer literal value (decimal, optional unary minus); false if not one or too large. */
static bool gb_s11_int_literal(TSNode n, const char *src, long *out)
{
    bool neg;
    n = gb_node_unminus(n, &neg);
    if (!gb_node_is_kind(n, GB_NK_INTEGER)) return false;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b - a > 9) return false;
    long v = 0;
    for (uint32_t i = a; i < b; i++) {
        if (src[i] < '0' || src[i] > '9') return false;
        v = v * 10 + (src[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

/* The positional arguments of range(...) (1 to 3, no star, keyword or comment), or 0. */
static uint32_t gb_s11_range_args(TSNode call, TSNode *args_out)
{
    TSNode args = gb_node_field(call, "arguments");
    if (!gb_node_is_kind(args, GB_NK_ARGUMENT_LIST)) return 0;
    uint32_t n = 0, c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gb_node_is_kind(a, GB_NK_LIST_SPLAT) || gb_node_is_kind(a, GB_NK_DICTIONARY_SPLAT) ||
            gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT) || gb_node_is_kind(a, GB_NK_COMMENT) ||
            gb_node_is_kind(a, GB_NK_PARENTHESIZED_LIST_SPLAT) || n == 3)
            return 0;
        args_out[n++] = a;
    }
    return n;
}

/* Number of elements of a range of literals, or -1 when not all arguments are literals. */
static long gb_s11_literal_length(TSNode *args, uint32_t n, const char *src)
{
    long v[3];
    for (uint32_t i = 0; i < n; i++)
        if (!gb_s11_int_literal(args[i], src, &v[i])) return -1;
    long start = n >= 2 ? v[0] : 0, stop = n >= 2 ? v[1] : v[0], step = n == 3 ? v[2] : 1;
    if (step == 0) return -1; /* range() raises: keep the loop as it is */
    if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
    return start > stop ? (start - stop - step - 1) / -step : 0;
}

/* True when every read (or del) of the function local `name` inside body happens where the
 * body itself has certainly bound it before (gb_flow_bound_before_within), and no nested
 * def or lambda of the body reads it (it could run later, or earlier, than the binding). */
static bool gb_s11_reads_after_binding(const GbScopes *sc, const char *src, TSNode root, TSNode body, int fscope,
                                       const char *name)
{
    GbOccurrences occ = {0};
    gb_scopes_occurrences(sc, src, root, &occ);
    uint32_t bs = ts_node_start_byte(body), be = ts_node_end_byte(body);
    size_t len = strlen(name);
    bool ok = true;
    for (size_t i = 0; ok && i < occ.len; i++) {
        const GbOccurrence *o = &occ.items[i];
        if (o->start < bs || o->end > be || (o->flag != GB_NAME_READ && o->flag != GB_NAME_DEL)) continue;
        if (o->end - o->start != len || memcmp(src + o->start, name, len) != 0) continue;
        int d;
        GbResolution r = gb_scopes_resolve(sc, o->scope, name, &d);
        if ((r != GB_RESOLVE_LOCAL && r != GB_RESOLVE_FREE) || d != fscope) continue;
        int s = o->scope;
        while (s != fscope && s > 0 && sc->scopes.items[s].kind == GB_SCOPE_COMPREHENSION)
            s = sc->scopes.items[s].parent;
        if (s != fscope) {
            ok = false;
            break;
        }
        TSNode id = ts_node_descendant_for_byte_range(root, o->start, o->end);
        TSNode stmt = gb_stmt_enclosing(id);
        ok = !ts_node_is_null(stmt) && gb_flow_bound_before_within(src, stmt, name, body);
    }
    gb_array_free(&occ);
    return ok;
}

typedef struct {
    GbNames nonlocals, globals; /* declarations the helper needs */
    GbNames declare;            /* nonlocals the function binds nowhere outside the loop */
    int shape;
} GbS11Plan;

static void gb_s11_plan_destroy(GbS11Plan *p)
{
    gb_names_destroy(&p->nonlocals);
    gb_names_destroy(&p->globals);
    gb_names_destroy(&p->declare);
}

/* Names of scope `scope` bound somewhere outside [start, end) (parameters included). */
static void gb_s11_bound_outside(const GbScopes *sc, const char *src, TSNode root, int scope, uint32_t start,
                                 uint32_t end, GbNames *out)
{
    GbOccurrences occ = {0};
    gb_scopes_occurrences(sc, src, root, &occ);
    for (size_t i = 0; i < occ.len; i++) {
        const GbOccurrence *o = &occ.items[i];
        if (o->scope != scope || o->flag == GB_NAME_READ || o->flag == GB_NAME_GLOBAL || o->flag == GB_NAME_NONLOCAL)
            continue;
        if (o->start >= start && o->end <= end) continue;
        char *name = gb_strndup(src + o->start, o->end - o->start);
        gb_names_add(out, name);
        free(name);
    }
    gb_array_free(&occ);
}

/* True when n holds an annotated assignment (`x: T` or `x: T = v`) outside nested functions and
 * classes: the helper declares the names the body binds nonlocal/global, and Python rejects an
 * annotated nonlocal or global name at compile time. */
static bool gb_s11_has_annotation(TSNode n)
{
    GbNodeKind k = gb_node_kind(n);
    if (k == GB_NK_FUNCTION_DEFINITION || k == GB_NK_CLASS_DEFINITION || k == GB_NK_LAMBDA) return false;
    if (k == GB_NK_ASSIGNMENT && !ts_node_is_null(gb_node_field(n, "type"))) return true;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s11_has_annotation(ts_node_named_child(n, i))) return true;
    return false;
}

/* Check the site and compute the helper's declarations. */
static bool gb_s11_site_ok(GbOpContext *ctx, size_t module, const GbCallGraph *graph, TSNode loop, GbS11Plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (!gb_node_is_kind(loop, GB_NK_FOR_STATEMENT) || gb_node_kind(ts_node_child(loop, 0)) != GB_NK_FOR) return false;
    if (!ts_node_is_null(gb_node_field(loop, "alternative"))) return false;
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode target = gb_node_field(loop, "left"), right = gb_node_field(loop, "right"),
           body = gb_node_field(loop, "body");
    if (!gb_node_is_kind(target, GB_NK_IDENTIFIER) || !gb_node_is_kind(right, GB_NK_CALL) || ts_node_is_null(body))
        return false;
    if (!gb_stmt_wrappable(ctx, module, loop, 0) || gb_s11_has_annotation(body)) return false;
    TSNode fn = gb_node_field(right, "function");
    if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER) || !gb_node_text_eq(fn, src, "range")) return false;
    TSNode args[3];
    uint32_t n_args = gb_s11_range_args(right, args);
    if (n_args == 0) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(loop));
    const GbScope *s = &sc->scopes.items[scope];
    if (s->kind != GB_SCOPE_FUNCTION && s->kind != GB_SCOPE_MODULE) return false;
    if (s->dynamic) return false;
    if (gb_scopes_resolve(sc, scope, "range", NULL) != GB_RESOLVE_BUILTIN) return false;
    if (gb_scopes_resolve(sc, scope, "len", NULL) != GB_RESOLVE_BUILTIN) return false;
    if (gb_callgraph_reaches_recursion(graph, loop, src)) return false;

    GbEffects fx;
    gb_effects_init(&fx);
    gb_scopes_effects(sc, src, body, &fx);
    unsigned bad = GB_FX_BREAK | GB_FX_CONTINUE | GB_FX_RETURN | GB_FX_YIELD | GB_FX_AWAIT | GB_FX_GLOBAL |
                   GB_FX_NONLOCAL | GB_FX_DYNAMIC | GB_FX_STAR_IMPORT | GB_FX_BARE_RAISE;
    bool ok = (fx.flags & bad) == 0;
    char *var = gb_node_text(target, src);
    GbNames bound = {0};
    gb_names_add(&bound, var);
    for (size_t i = 0; i < fx.writes.len; i++) gb_names_add(&bound, fx.writes.items[i]);
    for (size_t i = 0; ok && i < bound.len; i++) {
        const char *name = bound.items[i];
        if (strncmp(name, "__", 2) == 0)
            ok = false;
        else if (s->kind == GB_SCOPE_MODULE)
            gb_names_add(&plan->globals, name);
        else {
            GbResolution r = gb_scopes_resolve(sc, scope, name, NULL);
            if (r == GB_RESOLVE_LOCAL || r == GB_RESOLVE_FREE)
                gb_names_add(&plan->nonlocals, name);
            else if (r == GB_RESOLVE_GLOBAL)
                gb_names_add(&plan->globals, name);
            else
                ok = false;
        }
    }
    /* Locals the body reads (or rebinds) must not be unbound when the loop starts. */
    if (ok && s->kind == GB_SCOPE_FUNCTION) {
        GbNames used = {0};
        for (size_t i = 0; i < fx.reads.len; i++) gb_names_add(&used, fx.reads.items[i]);
        for (size_t i = 0; i < fx.writes.len; i++) gb_names_add(&used, fx.writes.items[i]);
        for (size_t i = 0; ok && i < used.len; i++) {
            const char *name = used.items[i];
            if (strncmp(name, "__", 2) == 0) {
                ok = false;
                break;
            }
            if (strcmp(name, var) == 0) continue;
            int d;
            if (gb_scopes_resolve(sc, scope, name, &d) != GB_RESOLVE_LOCAL || d != scope) continue;
            if (gb_flow_bound_before(src, loop, name)) continue;
            ok = gb_s11_reads_after_binding(sc, src, ts_tree_root_node(gb_op_ctx_tree(ctx, module)), body, scope, name);
        }
        gb_names_destroy(&used);
    }
    /* `nonlocal x` needs a binding of x in the function: names only the loop binds get a
     * declaration `x: int` before the helper (an annotation binds nothing and, in a function,
     * is never evaluated; an unbound read still raises the same UnboundLocalError). */
    if (ok && plan->nonlocals.len) {
        GbNames outside = {0};
        gb_s11_bound_outside(sc, src, ts_tree_root_node(gb_op_ctx_tree(ctx, module)), scope, ts_node_start_byte(loop),
                             ts_node_end_byte(loop), &outside);
        for (size_t i = 0; i < plan->nonlocals.len; i++) {
            const char *name = plan->nonlocals.items[i];
            int d;
            if (gb_scopes_resolve(sc, scope, name, &d) == GB_RESOLVE_LOCAL && !gb_names_has(&outside, name))
                gb_names_add(&plan->declare, name);
        }
        gb_names_destroy(&outside);
    }
    gb_names_destroy(&bound);
    free(var);
    gb_effects_destroy(&fx);
    if (ok) {
        long len = gb_s11_literal_length(args, n_args, src);
        plan->shape = (len >= 0 && len <= GB_S11_LINEAR_MAX) ? GB_S11_LINEAR : GB_S11_HALVING;
    } else {
        gb_s11_plan_destroy(plan);
    }
    return ok;
}

static void gb_s11_walk(GbOpContext *ctx, size_t module, const GbCallGraph *graph, TSNode n, GbSiteList *out)
{
    GbS11Plan plan;
    if (gb_node_is_kind(n, GB_NK_FOR_STATEMENT) && gb_s11_site_ok(ctx, module, graph, n, &plan)) {
        gb_site_add(ctx, out, module, n, NULL, plan.shape, NULL);
        gb_s11_plan_destroy(&plan);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s11_walk(ctx, module, graph, ts_node_named_child(n, i), out);
}

void gb_op_transform_loop_to_recursion_find(GbOpContext *ctx, GbSiteList *out)
{
    if (!gb_s11_program_ok(ctx)) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        GbCallGraph graph;
        gb_callgraph_init(&graph, root, gb_op_ctx_source(ctx, m));
        gb_s11_walk(ctx, m, &graph, root, out);
        gb_callgraph_destroy(&graph);
    }
}

/* The loop body re-indented to `indent`: every line that starts with the body's own
 * indentation gets it replaced; lines inside multi-line strings are left alone. Appended to
 * out, each line ending with a newline. */
static void gb_s11_body_text(const char *src, TSNode loop, TSNode body, const char *indent, GbStr *out)
{
    uint32_t bs = ts_node_start_byte(body), be = ts_node_end_byte(body);
    GbByteRanges strings = {0};
    gb_multiline_strings(body, src, &strings);
    bool same_line = gb_line_start(src, bs) == gb_line_start(src, ts_node_start_byte(loop));
    char *old = same_line ? gb_strdup("") : gb_line_indent(src, bs);
    size_t ol = strlen(old);
    uint32_t pos = bs;
    bool first = true;
    while (pos < be) {
        uint32_t eol = pos;
        while (eol < be && src[eol] != '\n') eol++;
        bool in_string = false;
        for (size_t k = 0; k < strings.len; k += 2)
            if (pos > strings.items[k] && pos < strings.items[k + 1]) in_string = true;
        if (first) {
            gb_str_append(out, indent);
            gb_str_append_n(out, src + pos, eol - pos);
        } else if (in_string) {
            gb_str_append_n(out, src + pos, eol - pos);
        } else if (eol > pos && (size_t)(eol - pos) >= ol && strncmp(src + pos, old, ol) == 0) {
            gb_str_append(out, indent);
            gb_str_append_n(out, src + pos + ol, eol - pos - ol);
        } else {
            gb_str_append_n(out, src + pos, eol - pos);
        }
        gb_str_append(out, "\n");
        first = false;
        if (eol >= be) break;
        pos = eol + 1;
        /* The next line starts at its beginning: include its indentation. */
    }
    gb_array_free(&strings);
    free(old);
}


bool gb_op_transform_loop_to_recursion_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode loop = gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_FOR_STATEMENT);
    GbS11Plan plan;
    bool ok = !ts_node_is_null(loop) && gb_s11_program_ok(ctx);
    if (ok) {
        GbCallGraph graph;
        gb_callgraph_init(&graph, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m));
        ok = gb_s11_site_ok(ctx, m, &graph, loop, &plan);
        gb_callgraph_destroy(&graph);
    }
    if (!ok) {
        gb_error_set(err, "TransformLoopToRecursion: site %s is not a loop that can become recursion", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode target = gb_node_field(loop, "left"), right = gb_node_field(loop, "right"),
           body = gb_node_field(loop, "body");
    char *var = gb_node_text(target, src);
    char *range = gb_node_text(right, src);
    char *word = gb_words_pick(rng, GB_WORDS_FUNCTION);
    char *helper = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *values = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "values" : "numbers");
    char *indent = gb_line_indent(src, ts_node_start_byte(loop));
    char *unit = gb_indent_unit(src, ts_tree_root_node(gb_op_ctx_tree(ctx, m)));
    char *inner = gb_asprintf("%s%s%s", indent, unit, unit);

    GbStr decl;
    gb_str_init(&decl);
    if (plan.nonlocals.len) {
        gb_str_append(&decl, "    nonlocal ");
        for (size_t i = 0; i < plan.nonlocals.len; i++)
            gb_str_appendf(&decl, "%s%s", i ? ", " : "", plan.nonlocals.items[i]);
        gb_str_append(&decl, "\n");
    }
    if (plan.globals.len) {
        gb_str_append(&decl, "    global ");
        for (size_t i = 0; i < plan.globals.len; i++)
            gb_str_appendf(&decl, "%s%s", i ? ", " : "", plan.globals.items[i]);
        gb_str_append(&decl, "\n");
    }
    GbStr bodytext;
    gb_str_init(&bodytext);
    gb_str_append(&bodytext, "");
    gb_s11_body_text(src, loop, body, inner, &bodytext);

    GbStr head, tail;
    gb_str_init(&head);
    gb_str_init(&tail);
    char *low = NULL, *high = NULL, *middle = NULL, *position = NULL, *span = NULL;
    if (plan.shape == GB_S11_LINEAR) {
        position = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "position" : "index");
        gb_str_appendf(&head, "def %s(%s, %s):\n%s", helper, values, position, decl.data);
        gb_str_appendf(&head, "    if %s < len(%s):\n        %s = %s[%s]\n", position, values, var, values, position);
        gb_str_appendf(&tail, "        %s(%s, %s + 1)\n%s(%s, 0)", helper, values, position, helper, range);
    } else {
        low = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "low" : "start");
        high = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "high" : "stop");
        middle = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "middle" : "half");
        span = gb_op_ctx_fresh_name(ctx, gb_rng_bounded(rng, 2) ? "span" : "bounds");
        gb_str_appendf(&head, "def %s(%s, %s, %s):\n%s", helper, values, low, high, decl.data);
        gb_str_appendf(&head, "    if %s - %s == 1:\n        %s = %s[%s]\n", high, low, var, values, low);
        gb_str_appendf(&tail, "    elif %s - %s > 1:\n", high, low);
        gb_str_appendf(&tail, "        %s = (%s + %s) // 2\n", middle, low, high);
        gb_str_appendf(&tail, "        %s(%s, %s, %s)\n", helper, values, low, middle);
        gb_str_appendf(&tail, "        %s(%s, %s, %s)\n", helper, values, middle, high);
        gb_str_appendf(&tail, "%s = %s\n%s(%s, 0, len(%s))", span, range, helper, span, span);
    }
    GbStr pre;
    gb_str_init(&pre);
    gb_str_append(&pre, "");
    for (size_t i = 0; i < plan.declare.len; i++)
        gb_str_appendf(&pre, "%s: %s\n", plan.declare.items[i],
                       strcmp(plan.declare.items[i], var) == 0 ? "int" : "object");
    gb_str_append(&pre, head.data);
    char *h = gb_edit_format(pre.data, indent, unit, false);
    gb_str_destroy(&pre);
    char *t = gb_edit_format(tail.data, indent, unit, true);
    char *text = gb_asprintf("%s%s%s", h, bodytext.data, t);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace_node(&set, m, loop, text);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(text);
    free(h);
    free(t);
    gb_str_destroy(&head);
    gb_str_destroy(&tail);
    gb_str_destroy(&bodytext);
    gb_str_destroy(&decl);
    free(low);
    free(high);
    free(middle);
    free(position);
    free(span);
    free(inner);
    free(unit);
    free(indent);
    free(helper);
    free(values);
    free(range);
    free(var);
    gb_s11_plan_destroy(&plan);
    return ok;
}
