/* S8 IntroduceDecorator: decorate a function or method with a transparent wrapper.
 *
 *     def area(w, h):            def ratio_adapter(func):
 *         return w * h               @functools.wraps(func)
 *                          ->        def wrapper(*args, **kwargs):
 *                                        return func(*args, **kwargs)
 *                                    return wrapper
 *
 *                                @ratio_adapter
 *                                def area(w, h):
 *                                    return w * h
 *
 * The decorator is defined once per module (a fresh name, after the module's leading imports)
 * and reused by later applications. The wrapper passes every argument through unchanged
 * (*args, **kwargs), returns the function's result (for a generator function: the generator
 * object), lets every exception through, and functools.wraps copies __module__, __name__,
 * __qualname__, __doc__, __annotations__ and __dict__ and sets __wrapped__, which
 * inspect.signature follows. It is always the innermost decorator (just above `def`), so
 * staticmethod, classmethod, property, setters, lru_cache and abstractmethod wrap it exactly
 * as they wrapped the function; zero-argument super() keeps working because the original
 * function keeps its __class__ cell.
 *
 * Pinned functions (the ones the tests call) may be decorated: the tests only call them and
 * read what wraps preserves. What a wrapper cannot preserve is refused instead:
 *   - programs or tests that mention __code__, __defaults__, __kwdefaults__, __closure__,
 *     __globals__, __wrapped__, inspect, getsource, getfullargspec, isgeneratorfunction,
 *     _getframe, currentframe (introspection that sees the wrapper), RecursionError or
 *     getrecursionlimit (the extra frame changes the depth at which recursion fails);
 *   - recursive functions (name-based call graph, methods included): each level would take two
 *     frames, halving the reachable depth;
 *   - in programs that call setrecursionlimit (they recurse deeply, up to a limit of their own,
 *     and the C stack may run out before it), functions that may run while a recursion is on
 *     the stack or may start one (gb_callgraph_near_recursion): a function that does neither
 *     runs at the depth of the non-recursive calls above it, so its one extra frame never
 *     meets a deep stack. AtCoder solutions set the limit in their template whether they
 *     recurse or not;
 *   - async functions (the wrapper would have to be a coroutine function);
 *   - defs that do not start their line (`class A: def f(self): ...`).
 *
 * Under ClassEval's rules only the class (and the imports before it) is kept, so there the
 * decorator is defined inside the class instead, as the first statement of its body (after
 * its docstring), and only the class's own methods are decorated: the class body runs
 * top to bottom, so the name is bound in the class namespace before any `@name` line of it
 * is evaluated. The decorator is a staticmethod (callable as a decorator from Python 3.10 on;
 * a plain function in a class would be a method without `self` to pylint, and the lint gate
 * would reject it); ClassEval's add_static_statement removes that line and puts it back. Refused
 * there: decorated classes and defs nested in methods (the class namespace is not visible from a
 * method's body). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

static const char *const gb_s8_refuse_names[] = {"__code__",
                                                 "__defaults__",
                                                 "__kwdefaults__",
                                                 "__closure__",
                                                 "__globals__",
                                                 "__wrapped__",
                                                 "inspect",
                                                 "getsource",
                                                 "getsourcelines",
                                                 "getfullargspec",
                                                 "getargspec",
                                                 "isgeneratorfunction",
                                                 "iscoroutinefunction",
                                                 "isasyncgenfunction",
                                                 "_getframe",
                                                 "currentframe",
                                                 "RecursionError",
                                                 "getrecursionlimit"};
#define GB_S8_N_REFUSE (sizeof gb_s8_refuse_names / sizeof *gb_s8_refuse_names)

/* A fresh name of the vocabulary (operators/words.h). Owned. */
static char *gb_s8_fresh(GbOpContext *ctx, GbRng *rng, GbWordsKind kind)
{
    char *word = gb_words_pick(rng, kind);
    char *name = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    return name;
}

static bool gb_s8_program_ok(GbOpContext *ctx)
{
    return !gb_op_ctx_mentions_any(ctx, gb_s8_refuse_names, GB_S8_N_REFUSE);
}

static char *gb_s8_match(GbOpContext *ctx, size_t module, TSNode d, TSNode *wraps_fn);

/* True when the decorator must live in the class (ClassEval keeps only the class). */
static bool gb_s8_in_class(const GbOpContext *ctx)
{
    return ctx->task && ctx->task->harness == GB_HARNESS_CLASSEVAL;
}

/* When fn is a method of a top-level, undecorated class whose body statements own their
 * lines: the first statement of that body after its docstring (where the decorator goes).
 * Else a null node. */
static TSNode gb_s8_class_body_start(GbOpContext *ctx, size_t module, TSNode fn)
{
    TSNode none = {0};
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode p = ts_node_parent(fn);
    if (gb_node_is_kind(p, GB_NK_DECORATED_DEFINITION)) p = ts_node_parent(p);
    if (!gb_node_is_kind(p, GB_NK_BLOCK)) return none;
    TSNode cls = ts_node_parent(p);
    if (!gb_node_is_kind(cls, GB_NK_CLASS_DEFINITION) || !gb_flow_is_toplevel(cls)) return none;
    TSNode first = ts_node_named_child(p, 0);
    if (gb_stmt_is_docstring(first)) first = gb_stmt_next(first);
    if (ts_node_is_null(first) || !gb_stmt_owns_lines(src, first)) return none;
    return first;
}

static bool gb_s8_site_ok(GbOpContext *ctx, size_t module, TSNode fn, const GbCallGraph *graph)
{
    if (!gb_node_is_kind(fn, GB_NK_FUNCTION_DEFINITION)) return false;
    if (ts_node_child_count(fn) > 0 && gb_node_kind(ts_node_child(fn, 0)) == GB_NK_ASYNC) return false;
    if (ts_node_is_null(gb_node_field(fn, "name")) || ts_node_is_null(gb_node_field(fn, "body"))) return false;
    const char *src = gb_op_ctx_source(ctx, module);
    uint32_t s = ts_node_start_byte(fn);
    for (uint32_t i = gb_line_start(src, s); i < s; i++)
        if (src[i] != ' ' && src[i] != '\t') return false;
    if (gb_callgraph_is_recursive_at(graph, s)) return false;
    static const char *const limit[] = {"setrecursionlimit"};
    if (gb_op_ctx_mentions_any(ctx, limit, 1) && gb_callgraph_near_recursion(graph, fn, src)) return false;
    TSNode top = gb_flow_toplevel_of(fn);
    if (ts_node_is_null(top)) return false;
    if (gb_s8_in_class(ctx) && ts_node_is_null(gb_s8_class_body_start(ctx, module, fn))) return false;
    /* Decorating this operator's own decorators (or their wrappers) would add nothing. */
    TSNode wfn;
    char *own = gb_s8_match(ctx, module, top, &wfn);
    free(own);
    return own == NULL;
}

static void gb_s8_walk(GbOpContext *ctx, size_t module, const GbCallGraph *graph, TSNode n, GbSiteList *out)
{
    if (gb_s8_site_ok(ctx, module, n, graph)) gb_site_add(ctx, out, module, n, NULL, 0, NULL);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s8_walk(ctx, module, graph, ts_node_named_child(n, i), out);
}

void gb_op_introduce_decorator_find(GbOpContext *ctx, GbSiteList *out)
{
    if (!gb_s8_program_ok(ctx)) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        GbCallGraph graph;
        gb_callgraph_init(&graph, root, gb_op_ctx_source(ctx, m));
        gb_s8_walk(ctx, m, &graph, root, out);
        gb_callgraph_destroy(&graph);
    }
}

/* ---- The decorator's text ---- */

typedef struct {
    const char *name; /* decorator */
    const char *func; /* its parameter */
    const char *wrapper;
    const char *args, *kwargs;
    const char *result; /* NULL: `return func(...)` directly */
    const char *wraps;  /* expression naming functools.wraps, e.g. "functools.wraps" */
} GbS8Shape;

/* The decorator definition as a snippet (4 spaces per level, from column 0). Owned. */
static char *gb_s8_text(const GbS8Shape *s)
{
    GbStr t;
    gb_str_init(&t);
    gb_str_appendf(&t, "def %s(%s):\n", s->name, s->func);
    gb_str_appendf(&t, "    @%s(%s)\n", s->wraps, s->func);
    gb_str_appendf(&t, "    def %s(*%s, **%s):\n", s->wrapper, s->args, s->kwargs);
    if (s->result) {
        gb_str_appendf(&t, "        %s = %s(*%s, **%s)\n", s->result, s->func, s->args, s->kwargs);
        gb_str_appendf(&t, "        return %s\n", s->result);
    } else {
        gb_str_appendf(&t, "        return %s(*%s, **%s)\n", s->func, s->args, s->kwargs);
    }
    gb_str_appendf(&t, "    return %s\n", s->wrapper);
    return gb_str_take(&t);
}

/* The name bound by a top-level import, if `name` is bound exactly once in the module, by a
 * top-level import statement that ends before `limit` and imports functools (attr NULL) or
 * functools.wraps (attr "wraps"). */
static bool gb_s8_import_before(GbOpContext *ctx, size_t module, const char *name, const char *attr, uint32_t limit)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    if (sc->scopes.items[0].star_import) return false;
    TSNode stmt = {0};
    if (gb_flow_global_bindings(sc, src, root, name, &stmt) != 1 || ts_node_is_null(stmt)) return false;
    if (!gb_flow_is_toplevel(stmt) || ts_node_end_byte(stmt) > limit) return false;
    if (attr) {
        if (!gb_node_is_kind(stmt, GB_NK_IMPORT_FROM_STATEMENT)) return false;
        TSNode mod = gb_node_field(stmt, "module_name");
        if (ts_node_is_null(mod) || !gb_node_text_eq(mod, src, "functools")) return false;
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(stmt, i);
            if (ts_node_eq(k, mod)) continue;
            if (gb_node_is_kind(k, GB_NK_DOTTED_NAME) && gb_node_text_eq(k, src, attr) && strcmp(name, attr) == 0)
                return true;
            if (gb_node_is_kind(k, GB_NK_ALIASED_IMPORT) && gb_node_text_eq(gb_node_field(k, "name"), src, attr) &&
                gb_node_text_eq(gb_node_field(k, "alias"), src, name))
                return true;
        }
        return false;
    }
    if (!gb_node_is_kind(stmt, GB_NK_IMPORT_STATEMENT)) return false;
    uint32_t c = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(stmt, i);
        if (gb_node_is_kind(k, GB_NK_DOTTED_NAME) && gb_node_text_eq(k, src, "functools") &&
            strcmp(name, "functools") == 0)
            return true;
        if (gb_node_is_kind(k, GB_NK_ALIASED_IMPORT) && gb_node_text_eq(gb_node_field(k, "name"), src, "functools") &&
            gb_node_text_eq(gb_node_field(k, "alias"), src, name))
            return true;
    }
    return false;
}

static char *gb_s8_child_ident(TSNode n, const char *src)
{
    TSNode id = ts_node_named_child(n, 0);
    return gb_node_is_kind(id, GB_NK_IDENTIFIER) ? gb_node_text(id, src) : NULL;
}

/* If the top-level def `d` is a decorator this operator wrote (exactly one of its shapes, in
 * this module's indentation), return its name (owned) and, in *wraps_fn, the node naming
 * functools.wraps in it; else NULL. */
static char *gb_s8_match(GbOpContext *ctx, size_t module, TSNode d, TSNode *wraps_fn)
{
    const char *src = gb_op_ctx_source(ctx, module);
    if (!gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION) || !gb_flow_is_toplevel(d)) return NULL;
    TSNode params = gb_node_field(d, "parameters"), body = gb_node_field(d, "body");
    if (ts_node_is_null(params) || ts_node_named_child_count(params) != 1 || ts_node_is_null(body)) return NULL;
    TSNode first = ts_node_named_child(body, 0);
    if (gb_stmt_is_docstring(first)) first = gb_stmt_next(first);
    if (!gb_node_is_kind(first, GB_NK_DECORATED_DEFINITION) || ts_node_named_child_count(first) != 2) return NULL;
    TSNode deco = ts_node_named_child(first, 0), inner = ts_node_named_child(first, 1);
    TSNode call = ts_node_named_child(deco, 0);
    if (!gb_node_is_kind(call, GB_NK_CALL) || !gb_node_is_kind(inner, GB_NK_FUNCTION_DEFINITION)) return NULL;
    TSNode wfn = gb_node_field(call, "function");
    TSNode iparams = gb_node_field(inner, "parameters"), ibody = gb_node_field(inner, "body");
    if (ts_node_is_null(iparams) || ts_node_named_child_count(iparams) != 2 || ts_node_is_null(ibody)) return NULL;
    char *name = gb_node_text(gb_node_field(d, "name"), src);
    char *func = gb_node_text(ts_node_named_child(params, 0), src);
    char *wrapper = gb_node_text(gb_node_field(inner, "name"), src);
    char *args = gb_s8_child_ident(ts_node_named_child(iparams, 0), src);
    char *kwargs = gb_s8_child_ident(ts_node_named_child(iparams, 1), src);
    char *wraps = gb_node_text(wfn, src);
    char *result = NULL;
    TSNode s0 = ts_node_named_child(ibody, 0);
    if (gb_node_is_kind(s0, GB_NK_EXPRESSION_STATEMENT) &&
        gb_node_is_kind(ts_node_named_child(s0, 0), GB_NK_ASSIGNMENT))
        result = gb_node_text(gb_node_field(ts_node_named_child(s0, 0), "left"), src);
    bool same = false;
    if (args && kwargs) {
        GbS8Shape s = {name, func, wrapper, args, kwargs, result, wraps};
        char *snippet = gb_s8_text(&s);
        same = gb_edit_node_is_snippet(ctx, module, d, snippet);
        free(snippet);
    }
    free(func);
    free(wrapper);
    free(args);
    free(kwargs);
    free(wraps);
    free(result);
    if (!same) {
        free(name);
        return NULL;
    }
    *wraps_fn = wfn;
    return name;
}

/* The name of a decorator this operator wrote (gb_s8_match) at top-level def d, if it can be
 * used by a function whose top-level statement starts at `limit`: its functools import is
 * bound before, and nothing else binds its name. Owned, or NULL. */
static char *gb_s8_existing(GbOpContext *ctx, size_t module, TSNode d, uint32_t limit)
{
    TSNode wfn;
    char *name = gb_s8_match(ctx, module, d, &wfn);
    if (!name) return NULL;
    const char *src = gb_op_ctx_source(ctx, module);
    bool imported = false;
    if (gb_node_is_kind(wfn, GB_NK_ATTRIBUTE)) {
        TSNode obj = gb_node_field(wfn, "object");
        if (gb_node_is_kind(obj, GB_NK_IDENTIFIER) && gb_node_text_eq(gb_node_field(wfn, "attribute"), src, "wraps")) {
            char *alias = gb_node_text(obj, src);
            imported = gb_s8_import_before(ctx, module, alias, NULL, limit);
            free(alias);
        }
    } else if (gb_node_is_kind(wfn, GB_NK_IDENTIFIER)) {
        char *alias = gb_node_text(wfn, src);
        imported = gb_s8_import_before(ctx, module, alias, "wraps", limit);
        free(alias);
    }
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    if (imported && ts_node_end_byte(d) <= limit &&
        gb_flow_global_bindings(sc, src, ts_tree_root_node(gb_op_ctx_tree(ctx, module)), name, NULL) == 1 &&
        !gb_op_ctx_is_pinned(ctx, name))
        return name;
    free(name);
    return NULL;
}

bool gb_op_introduce_decorator_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode fn = gb_op_ctx_node_at(ctx, m, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
    bool ok = !ts_node_is_null(fn) && gb_s8_program_ok(ctx);
    if (ok) {
        GbCallGraph graph;
        gb_callgraph_init(&graph, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m));
        ok = gb_s8_site_ok(ctx, m, fn, &graph);
        gb_callgraph_destroy(&graph);
    }
    if (!ok) {
        gb_error_set(err, "IntroduceDecorator: site %s is not a function that can be decorated", site->key);
        return false;
    }
    uint32_t fn_start = ts_node_start_byte(fn);
    TSNode top = gb_flow_toplevel_of(fn);
    uint32_t limit = ts_node_start_byte(top);

    /* Reuse a decorator this operator defined earlier in the module (module form only). */
    char *deco = NULL;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    TSNode home = gb_s8_in_class(ctx) ? gb_s8_class_body_start(ctx, m, fn) : (TSNode){0};
    if (gb_s8_in_class(ctx) && ts_node_is_null(home)) {
        gb_error_set(err, "IntroduceDecorator: site %s is not a method of a top-level class", site->key);
        return false;
    }
    uint32_t n = gb_s8_in_class(ctx) ? 0 : ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n && !deco; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (ts_node_start_byte(c) >= limit) break;
        if (gb_node_is_kind(c, GB_NK_FUNCTION_DEFINITION)) deco = gb_s8_existing(ctx, m, c, limit);
    }

    GbEditSet set;
    gb_edits_init(&set);
    if (!deco) {
        bool from_form = gb_rng_bounded(rng, 2) == 1;
        size_t before = set.edits.len;
        char *alias = gb_edits_add_import(ctx, &set, m, "functools", from_form ? "wraps" : NULL, NULL);
        if (set.edits.len == before && !gb_s8_import_before(ctx, m, alias, from_form ? "wraps" : NULL, limit)) {
            /* The existing import comes too late for this function: import under a new name. */
            free(alias);
            char *fresh = gb_op_ctx_fresh_name(ctx, from_form ? "wraps" : "functools");
            alias = gb_edits_add_import(ctx, &set, m, "functools", from_form ? "wraps" : NULL, fresh);
            free(fresh);
        }
        char *wraps = from_form ? gb_strdup(alias) : gb_asprintf("%s.wraps", alias);
        deco = gb_s8_fresh(ctx, rng, GB_WORDS_DECORATOR);
        char *func = gb_s8_fresh(ctx, rng, GB_WORDS_CALLABLE);
        char *wrapper = gb_s8_fresh(ctx, rng, GB_WORDS_INNER);
        char *args = gb_s8_fresh(ctx, rng, GB_WORDS_ARGS);
        char *kwargs = gb_s8_fresh(ctx, rng, GB_WORDS_KWARGS);
        char *result = gb_rng_bounded(rng, 2) ? gb_s8_fresh(ctx, rng, GB_WORDS_RESULT) : NULL;
        GbS8Shape s = {deco, func, wrapper, args, kwargs, result, wraps};
        char *snippet = gb_s8_text(&s);
        const char *src = gb_op_ctx_source(ctx, m);
        if (!ts_node_is_null(home)) {
            char *indent = gb_line_indent(src, ts_node_start_byte(home));
            char *unit = gb_indent_unit(src, root);
            char *deco_snippet = gb_asprintf("@staticmethod\n%s", snippet);
            char *text = gb_edit_format(deco_snippet, indent, unit, true);
            free(deco_snippet);
            char *block = gb_asprintf("%s\n", text);
            gb_edits_insert_ordered(&set, m, gb_line_start(src, ts_node_start_byte(home)), block, 0);
            free(block);
            free(text);
            free(unit);
            free(indent);
        } else {
            char *unit = gb_indent_unit(src, root);
            char *text = gb_edit_format(snippet, "", unit, true);
            uint32_t at = gb_module_code_start(ctx, m);
            size_t len = strlen(src);
            char *block = (at == len && len && src[len - 1] != '\n') ? gb_asprintf("\n\n\n%s", text)
                                                                     : gb_asprintf("%s\n\n", text);
            gb_edits_insert_ordered(&set, m, at, block, 0);
            free(block);
            free(text);
            free(unit);
        }
        free(snippet);
        free(alias);
        free(wraps);
        free(func);
        free(wrapper);
        free(args);
        free(kwargs);
        free(result);
    }
    const char *src = gb_op_ctx_source(ctx, m);
    char *indent = gb_line_indent(src, fn_start);
    char *line = gb_asprintf("@%s\n%s", deco, indent);
    gb_edits_insert_ordered(&set, m, fn_start, line, 1);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(line);
    free(indent);
    free(deco);
    return ok;
}
