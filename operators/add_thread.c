/* S4 AddThread: run one call in a worker thread and wait for its result.
 *
 *     total = compute(xs, k=2)   ->   with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
 *                                         total = executor.submit(compute, xs, k=2).result()
 *
 * Sites: an expression statement that is a call, an assignment whose value is a call (all
 * targets kept: `a = b = f()`, annotations kept), or `return f(...)`. Inside a top-level class
 * each site is also offered in two class forms (gb_s4_apply_class_form): the thread code lives
 * in a runner method of the class, `self.run(f, ...)`, or in a static method of a new class
 * deriving from the class, defined right after it (gb_op_ctx_sibling_of), `Runner.run(f, ...)`;
 * ClassEval keeps both (everything from the first `class` line on).
 *
 * Why it is exact: submit() receives the callee and the argument list verbatim, so the callee
 * and every argument are evaluated in the caller, in the original order, before anything runs
 * in the thread (evaluation errors are raised where they were, names resolve in the caller's
 * scope); the worker makes the same call; result() waits for it and returns its value, or
 * raises the very exception object the call raised (the worker catches BaseException, so
 * SystemExit too); leaving the `with` joins the thread, and nothing runs concurrently.
 * Targets, annotations and `return` stay as they were around the call. The executor gets a
 * fresh name; concurrent.futures is imported under a name nothing else uses.
 *
 * What a thread changes is refused:
 *   - thread-affine or thread-local state: programs or tests that mention threading, locks,
 *     thread locals, signal, asyncio, multiprocessing, sqlite3, tkinter, decimal contexts,
 *     contextvars, numpy error state, sys.exc_info, frames, tracing, recursion limits;
 *   - calls that may reach recursion (name-based call graph): a new thread starts with a
 *     fresh recursion depth;
 *   - statements in except/finally clauses (the handled exception is per thread), in `with`
 *     blocks (context managers such as localcontext/errstate are per thread), in loops of
 *     their function, in recursive functions or functions called from loops (one thread per
 *     iteration is too slow), in class bodies, generators and async functions, in dynamic
 *     scopes (locals()/eval/super());
 *   - calls with `*`/`**` arguments (their error messages would name submit()), a callee that
 *     spans lines, walrus, yield or await inside. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"

enum { GB_S4_EXPR = 0, GB_S4_ASSIGN = 1, GB_S4_RETURN = 2 };
/* Site forms (added to the kind): the `with` in place, a runner method of the class, a runner
 * static method of a new class just before the top-level class. */
enum { GB_S4_INPLACE = 0, GB_S4_METHOD = 3, GB_S4_SIBLING = 6, GB_S4_RUNNER = 9 };
static const char *const gb_s4_form_tags[] = {NULL, "method", "sibling", "runner"};

static const char *const gb_s4_refuse_names[] = {"threading",
                                                 "_thread",
                                                 "Thread",
                                                 "Lock",
                                                 "RLock",
                                                 "Semaphore",
                                                 "BoundedSemaphore",
                                                 "Condition",
                                                 "Barrier",
                                                 "local",
                                                 "current_thread",
                                                 "get_ident",
                                                 "get_native_id",
                                                 "main_thread",
                                                 "signal",
                                                 "asyncio",
                                                 "multiprocessing",
                                                 "ProcessPoolExecutor",
                                                 "sqlite3",
                                                 "tkinter",
                                                 "turtle",
                                                 "decimal",
                                                 "Decimal",
                                                 "localcontext",
                                                 "getcontext",
                                                 "setcontext",
                                                 "contextvars",
                                                 "ContextVar",
                                                 "copy_context",
                                                 "errstate",
                                                 "seterr",
                                                 "geterr",
                                                 "seterrcall",
                                                 "setrecursionlimit",
                                                 "getrecursionlimit",
                                                 "RecursionError",
                                                 "exc_info",
                                                 "_getframe",
                                                 "currentframe",
                                                 "settrace",
                                                 "setprofile",
                                                 "gettrace",
                                                 "stack_size",
                                                 "interrupt_main",
                                                 "fork",
                                                 "faulthandler",
                                                 "inspect"};
#define GB_S4_N_REFUSE (sizeof gb_s4_refuse_names / sizeof *gb_s4_refuse_names)

static bool gb_s4_program_ok(GbOpContext *ctx)
{
    return !gb_op_ctx_mentions_any(ctx, gb_s4_refuse_names, GB_S4_N_REFUSE);
}

/* The call of a site statement and its kind; null node when stmt is not a site shape. */
static TSNode gb_s4_call(TSNode stmt, int *kind)
{
    TSNode null = {0};
    if (gb_node_is_kind(stmt, GB_NK_RETURN_STATEMENT)) {
        if (ts_node_named_child_count(stmt) != 1) return null;
        TSNode c = ts_node_named_child(stmt, 0);
        *kind = GB_S4_RETURN;
        return gb_node_is_kind(c, GB_NK_CALL) ? c : null;
    }
    if (!gb_node_is_kind(stmt, GB_NK_EXPRESSION_STATEMENT) || ts_node_named_child_count(stmt) != 1) return null;
    TSNode e = ts_node_named_child(stmt, 0);
    if (gb_node_is_kind(e, GB_NK_CALL)) {
        *kind = GB_S4_EXPR;
        return e;
    }
    if (!gb_node_is_kind(e, GB_NK_ASSIGNMENT)) return null;
    TSNode r = e;
    while (gb_node_is_kind(r, GB_NK_ASSIGNMENT)) r = gb_node_field(r, "right");
    *kind = GB_S4_ASSIGN;
    return gb_node_is_kind(r, GB_NK_CALL) ? r : null;
}

/* Walrus, yield or await anywhere in the statement. */
static bool gb_s4_has_bad_syntax(TSNode n)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_NAMED_EXPRESSION || t == GB_NK_YIELD || t == GB_NK_AWAIT) return true;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s4_has_bad_syntax(ts_node_named_child(n, i))) return true;
    return false;
}

/* Arguments the rewrite can pass explicitly: positional expressions, then keyword arguments;
 * no `*`/`**`. */
static bool gb_s4_args_ok(TSNode call)
{
    TSNode args = gb_node_field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    if (gb_node_is_kind(args, GB_NK_GENERATOR_EXPRESSION)) return true;
    if (!gb_node_is_kind(args, GB_NK_ARGUMENT_LIST)) return false;
    bool keywords = false;
    uint32_t c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gb_node_is_kind(a, GB_NK_COMMENT)) continue;
        if (gb_node_is_kind(a, GB_NK_LIST_SPLAT) || gb_node_is_kind(a, GB_NK_DICTIONARY_SPLAT) ||
            gb_node_is_kind(a, GB_NK_PARENTHESIZED_LIST_SPLAT))
            return false;
        if (gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT))
            keywords = true;
        else if (keywords)
            return false;
    }
    return true;
}

typedef struct {
    GbNames in_loops; /* identifiers mentioned inside loop bodies and comprehensions */
    GbCallGraph graph;
} GbS4Module;

static void gb_s4_module_init(GbS4Module *mi, GbOpContext *ctx, size_t module)
{
    memset(mi, 0, sizeof *mi);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    const char *src = gb_op_ctx_source(ctx, module);
    gb_flow_loop_identifiers(root, src, &mi->in_loops);
    gb_callgraph_init(&mi->graph, root, src);
}

static void gb_s4_module_destroy(GbS4Module *mi)
{
    gb_names_destroy(&mi->in_loops);
    gb_callgraph_destroy(&mi->graph);
}

static bool gb_s4_site_ok(GbOpContext *ctx, size_t module, const GbS4Module *mi, TSNode stmt)
{
    int kind;
    TSNode call = gb_s4_call(stmt, &kind);
    if (ts_node_is_null(call)) return false;
    unsigned refuse = GB_FX_YIELD | GB_FX_AWAIT | GB_FX_DYNAMIC | GB_FX_BARE_RAISE | GB_FX_GLOBAL | GB_FX_NONLOCAL |
                      GB_FX_STAR_IMPORT;
    if (!gb_stmt_wrappable(ctx, module, stmt, refuse)) return false;
    const char *src = gb_op_ctx_source(ctx, module);
    if (gb_s4_has_bad_syntax(stmt) || !gb_s4_args_ok(call)) return false;
    /* The callee and the opening parenthesis on one line (they become "executor.submit(f, "). */
    TSNode args = gb_node_field(call, "arguments");
    if (memchr(src + ts_node_start_byte(call), '\n', ts_node_start_byte(args) - ts_node_start_byte(call))) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(stmt));
    const GbScope *s = &sc->scopes.items[scope];
    if (s->kind != GB_SCOPE_FUNCTION && s->kind != GB_SCOPE_MODULE) return false;
    if (s->dynamic || s->is_async || s->is_generator) return false;
    if (kind == GB_S4_RETURN && s->kind != GB_SCOPE_FUNCTION) return false;
    /* The enclosing constructs up to the function. */
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p); p = ts_node_parent(p)) {
        GbNodeKind t = gb_node_kind(p);
        if (t == GB_NK_FUNCTION_DEFINITION) {
            TSNode name = gb_node_field(p, "name");
            char *fname = gb_node_text(name, src);
            bool bad =
                gb_names_has(&mi->in_loops, fname) || gb_callgraph_is_recursive_at(&mi->graph, ts_node_start_byte(p));
            free(fname);
            if (bad) return false;
            continue; /* enclosing functions (closures) too */
        }
        if (ts_node_start_byte(p) < s->start || ts_node_end_byte(p) > s->end) continue;
        if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT || t == GB_NK_EXCEPT_CLAUSE ||
            t == GB_NK_EXCEPT_GROUP_CLAUSE || t == GB_NK_FINALLY_CLAUSE || t == GB_NK_WITH_STATEMENT)
            return false;
    }
    /* The callee must not reach recursion. */
    TSNode fn = gb_node_field(call, "function");
    TSNode last = fn;
    if (gb_node_is_kind(fn, GB_NK_ATTRIBUTE)) last = gb_node_field(fn, "attribute");
    if (gb_node_is_kind(last, GB_NK_IDENTIFIER)) {
        char *name = gb_node_text(last, src);
        bool bad = gb_callgraph_name_reaches_recursion(&mi->graph, name);
        free(name);
        if (bad) return false;
    }
    return !gb_callgraph_reaches_recursion(&mi->graph, call, src);
}

/* Can the module runner form hold the thread code of the site stmt? Outside classes, under every
 * harness but ClassEval's (which keeps no module-level function), for a statement that comes
 * after the module's leading imports (the runner is defined there). */
static bool gb_s4_runner_form_ok(GbOpContext *ctx, size_t m, TSNode stmt)
{
    if (ctx->task && ctx->task->harness == GB_HARNESS_CLASSEVAL) return false;
    TSNode top = gb_flow_toplevel_of(stmt);
    if (ts_node_is_null(top)) return false;
    TSNode def = gb_node_is_kind(top, GB_NK_DECORATED_DEFINITION) ? gb_node_field(top, "definition") : top;
    if (gb_node_is_kind(def, GB_NK_CLASS_DEFINITION)) return false;
    return ts_node_start_byte(top) >= gb_module_code_start(ctx, m);
}

/* Can the class form f hold the thread code of the site stmt? The method form needs stmt to
 * run in a method of a top-level class whose `self` is an instance of it (gb_op_ctx_self_method),
 * directly in the method's own scope; the sibling form needs stmt inside an undecorated
 * top-level class (the new class goes just before it, so it exists whenever the class's code
 * runs, and ClassEval keeps it: everything from the first `class` line on is kept). */
static bool gb_s4_form_ok(GbOpContext *ctx, size_t m, TSNode stmt, int f)
{
    TSNode top = gb_flow_toplevel_of(stmt);
    if (ts_node_is_null(top) || !gb_node_is_kind(top, GB_NK_CLASS_DEFINITION)) return false;
    if (f == GB_S4_SIBLING) return !ts_node_is_null(gb_op_ctx_sibling_of(ctx, m, stmt));
    TSNode fn = gb_op_ctx_self_method(ctx, m, stmt);
    if (ts_node_is_null(fn)) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    return sc->scopes.items[gb_scopes_at(sc, ts_node_start_byte(stmt))].node_start == ts_node_start_byte(fn);
}

void gb_op_add_thread_find(GbOpContext *ctx, GbSiteList *out)
{
    if (!gb_s4_program_ok(ctx)) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbS4Module mi;
        gb_s4_module_init(&mi, ctx, m);
        GbNodes stmts = {0};
        gb_stmts_collect(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), &stmts);
        for (size_t i = 0; i < stmts.len; i++) {
            int kind;
            TSNode st = stmts.items[i];
            if (!gb_s4_site_ok(ctx, m, &mi, st)) continue;
            gb_s4_call(st, &kind);
            gb_site_add(ctx, out, m, st, NULL, kind, NULL);
            for (int f = GB_S4_METHOD; f <= GB_S4_SIBLING; f += 3)
                if (gb_s4_form_ok(ctx, m, st, f)) gb_site_add(ctx, out, m, st, gb_s4_form_tags[f / 3], kind + f, NULL);
            if (gb_s4_runner_form_ok(ctx, m, st))
                gb_site_add(ctx, out, m, st, gb_s4_form_tags[GB_S4_RUNNER / 3], kind + GB_S4_RUNNER, NULL);
        }
        gb_array_free(&stmts);
        gb_s4_module_destroy(&mi);
    }
}

/* Import concurrent.futures (as a module alias, attr NULL) or its attr, usable at stmt: an
 * existing import is reused only when it is the single top-level binding of its name and
 * comes before the top-level statement that contains stmt. Owned name. */
static char *gb_s4_import(GbOpContext *ctx, GbEditSet *set, size_t m, const char *attr, TSNode stmt)
{
    size_t before = set->edits.len;
    TSNode top = gb_flow_toplevel_of(stmt);
    char *name = gb_edits_add_import(ctx, set, m, "concurrent.futures", attr, NULL);
    if (set->edits.len != before) return name;
    TSNode bind = {0};
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    if (gb_flow_global_bindings(sc, gb_op_ctx_source(ctx, m), ts_tree_root_node(gb_op_ctx_tree(ctx, m)), name, &bind) ==
            1 &&
        !ts_node_is_null(bind) && gb_flow_is_toplevel(bind) && !ts_node_is_null(top) &&
        ts_node_end_byte(bind) <= ts_node_start_byte(top))
        return name;
    free(name);
    char *fresh = gb_op_ctx_fresh_name(ctx, attr ? attr : "concurrent_futures");
    name = gb_edits_add_import(ctx, set, m, "concurrent.futures", attr, fresh);
    free(fresh);
    return name;
}

/* Route the site's call `f(args)` through `via`: it becomes `via(f, args)` followed by `tail`
 * (e.g. ".result()"); a generator argument keeps its parentheses as via's argument. */
static void gb_s4_route_call(GbEditSet *set, size_t m, const char *src, TSNode call, const char *via, const char *tail)
{
    TSNode args = gb_node_field(call, "arguments");
    bool genexp = gb_node_is_kind(args, GB_NK_GENERATOR_EXPRESSION);
    /* Is there anything between the parentheses? */
    bool empty = true;
    if (gb_node_is_kind(args, GB_NK_ARGUMENT_LIST))
        for (uint32_t i = ts_node_start_byte(args) + 1; i + 1 < ts_node_end_byte(args) && empty; i++)
            empty = src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r';
    char *callee = gb_node_text(gb_node_field(call, "function"), src);
    char *open = gb_asprintf("%s(%s%s", via, callee, empty && !genexp ? "" : ", ");
    if (genexp) {
        gb_edits_replace(set, m, ts_node_start_byte(call), ts_node_start_byte(args), open);
        char *close = gb_asprintf(")%s", tail);
        gb_edits_insert(set, m, ts_node_end_byte(call), close);
        free(close);
    } else {
        gb_edits_replace(set, m, ts_node_start_byte(call), ts_node_start_byte(args) + 1, open);
        if (*tail) gb_edits_insert(set, m, ts_node_end_byte(call), tail);
    }
    free(open);
    free(callee);
}

/* The class forms: the call becomes `self.run(f, args)` or `Runner.run(f, args)`, and the
 * runner, defined before the method (or as a static method of a new class deriving from the
 * top-level class, right after it), makes the call in a worker thread:
 *
 *     def run(self, func, /, *args, **kwargs):
 *         with ThreadPoolExecutor(max_workers=1) as executor:
 *             return executor.submit(func, *args, **kwargs).result()
 *
 * Why it is exact: `self.run` / `Runner.run` is a lookup of a fresh name that runs no code of
 * the program, so the callee and the arguments are still evaluated in the caller in their
 * order before anything else runs; the runner's own parameters are positional-only, so any
 * keyword argument of the call (even one named like them) reaches the callee unchanged, as
 * submit() passes it; result() returns the call's value or raises its exception object, and
 * leaving the `with` joins the thread. */
static bool gb_s4_apply_class_form(GbOpContext *ctx, const GbSite *site, TSNode stmt, int form, GbRng *rng,
                                   GbError *err)
{
    size_t m = site->module;
    const char *src = gb_op_ctx_source(ctx, m);
    int kind;
    TSNode call = gb_s4_call(stmt, &kind);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    char *unit = gb_indent_unit(src, root);
    GbEditSet set;
    gb_edits_init(&set);
    const char *attr = gb_rng_bounded(rng, 2) == 0 ? NULL : "ThreadPoolExecutor";
    char *imp = gb_s4_import(ctx, &set, m, attr, stmt);
    char *tpe = attr ? gb_strdup(imp) : gb_asprintf("%s.ThreadPoolExecutor", imp);
    free(imp);
    char *word = gb_words_pick(rng, GB_WORDS_FUNCTION);
    char *runner = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *owner = NULL;
    if (form == GB_S4_SIBLING) {
        word = gb_words_pick(rng, GB_WORDS_CLASS);
        owner = gb_op_ctx_fresh_name(ctx, word);
        free(word);
    }
    char *names[4];
    static const GbWordsKind kinds[3] = {GB_WORDS_CALLABLE, GB_WORDS_ARGS, GB_WORDS_KWARGS};
    for (int i = 0; i < 3; i++) {
        word = gb_words_pick(rng, kinds[i]);
        names[i] = gb_op_ctx_fresh_name(ctx, word);
        free(word);
    }
    word = gb_words_pick(rng, GB_WORDS_EXECUTOR);
    names[3] = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    TSNode anchor = form == GB_S4_SIBLING ? gb_flow_toplevel_of(stmt) : gb_op_ctx_self_method(ctx, m, stmt);
    char *ind = form == GB_S4_SIBLING ? gb_strdup(unit) : gb_line_indent(src, ts_node_start_byte(anchor));
    GbStr def;
    gb_str_init(&def);
    if (form == GB_S4_SIBLING) {
        char *cname = gb_node_text(gb_node_field(anchor, "name"), src);
        gb_str_appendf(&def, "\n\n\nclass %s(%s):\n%s@staticmethod\n", owner, cname, ind);
        free(cname);
    }
    gb_str_appendf(&def, "%sdef %s(%s%s, /, *%s, **%s):\n", ind, runner, form == GB_S4_METHOD ? "self, " : "", names[0],
                   names[1], names[2]);
    gb_str_appendf(&def, "%s%swith %s(max_workers=1) as %s:\n", ind, unit, tpe, names[3]);
    gb_str_appendf(&def, "%s%s%sreturn %s.submit(%s, *%s, **%s).result()\n", ind, unit, unit, names[3], names[0],
                   names[1], names[2]);
    if (form == GB_S4_SIBLING)
        def.data[--def.len] = '\0'; /* after the class's last line, which has no newline of its own */
    else
        gb_str_append(&def, "\n");
    gb_edits_insert(&set, m,
                    form == GB_S4_SIBLING ? ts_node_end_byte(anchor) : gb_line_start(src, ts_node_start_byte(anchor)),
                    def.data);
    char *via = gb_asprintf("%s.%s", form == GB_S4_SIBLING ? owner : "self", runner);
    gb_s4_route_call(&set, m, src, call, via, "");
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_str_destroy(&def);
    for (int i = 0; i < 4; i++) free(names[i]);
    free(via);
    free(ind);
    free(owner);
    free(runner);
    free(tpe);
    free(unit);
    return ok;
}

/* ---- The module runner form ----
 *
 *     total = compute(xs, k=2)   ->   def run_task(func, /, *args, **kwargs):
 *                                         with ThreadPoolExecutor(max_workers=1) as executor:
 *                                             return executor.submit(func, *args, **kwargs).result()
 *                                     ...
 *                                     total = run_task(compute, xs, k=2)
 *
 * One runner per module, a function defined after the leading imports (where S8 defines its
 * decorators) and reused by every later application; exact for the reasons the class forms
 * are (the comment above gb_s4_apply_class_form): the runner is a global of a fresh name, bound
 * before any statement after the imports runs, so looking it up runs no code of the program. */

typedef struct {
    const char *runner, *func, *args, *kwargs, *tpe, *executor;
} GbS4Runner;

/* The runner's definition as a snippet (4 spaces per level, from column 0). Owned. */
static char *gb_s4_runner_text(const GbS4Runner *r)
{
    return gb_asprintf("def %s(%s, /, *%s, **%s):\n"
                       "    with %s(max_workers=1) as %s:\n"
                       "        return %s.submit(%s, *%s, **%s).result()\n",
                       r->runner, r->func, r->args, r->kwargs, r->tpe, r->executor, r->executor, r->func, r->args,
                       r->kwargs);
}

/* The first node of kind k below n (depth first), or a null node. */
static TSNode gb_s4_find_kind(TSNode n, GbNodeKind k)
{
    if (gb_node_is_kind(n, k)) return n;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode f = gb_s4_find_kind(ts_node_named_child(n, i), k);
        if (!ts_node_is_null(f)) return f;
    }
    return (TSNode){0};
}

/* The text of the first identifier below n (n itself included). Owned, or NULL. */
static char *gb_s4_ident_below(TSNode n, const char *src)
{
    TSNode id = gb_s4_find_kind(n, GB_NK_IDENTIFIER);
    return ts_node_is_null(id) ? NULL : gb_node_text(id, src);
}

/* If the top-level def d is a runner this operator wrote (exactly its text, in the module's
 * indentation), usable by a statement whose top-level statement starts at `limit`: defined
 * before it, its name bound once and not named by the tests, its thread pool class reached
 * through a name bound once, by an import of concurrent.futures before the runner. Then its
 * name (owned), else NULL. */
static char *gb_s4_runner_match(GbOpContext *ctx, size_t m, TSNode d, uint32_t limit)
{
    const char *src = gb_op_ctx_source(ctx, m);
    if (!gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION) || !gb_flow_is_toplevel(d)) return NULL;
    if (ts_node_end_byte(d) > limit) return NULL;
    TSNode params = gb_node_field(d, "parameters"), body = gb_node_field(d, "body");
    if (ts_node_is_null(params) || ts_node_is_null(body) || ts_node_named_child_count(params) != 4) return NULL;
    TSNode with = ts_node_named_child(body, 0);
    if (!gb_node_is_kind(with, GB_NK_WITH_STATEMENT)) return NULL;
    TSNode call = gb_s4_find_kind(with, GB_NK_CALL), target = gb_s4_find_kind(with, GB_NK_AS_PATTERN_TARGET);
    if (ts_node_is_null(call) || ts_node_is_null(target)) return NULL;
    char *name = gb_node_text(gb_node_field(d, "name"), src);
    char *func = gb_node_text(ts_node_named_child(params, 0), src);
    char *args = gb_s4_ident_below(ts_node_named_child(params, 2), src);
    char *kwargs = gb_s4_ident_below(ts_node_named_child(params, 3), src);
    TSNode tfn = gb_node_field(call, "function");
    char *tpe = gb_node_text(tfn, src);
    char *executor = gb_s4_ident_below(target, src);
    bool same = false;
    if (name && func && args && kwargs && tpe && executor) {
        GbS4Runner r = {name, func, args, kwargs, tpe, executor};
        char *snippet = gb_s4_runner_text(&r);
        same = gb_edit_node_is_snippet(ctx, m, d, snippet);
        free(snippet);
    }
    if (same) {
        /* the pool class: `X.ThreadPoolExecutor` or `X`, X bound once by an earlier import of
         * concurrent.futures */
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        TSNode base = gb_node_is_kind(tfn, GB_NK_ATTRIBUTE) ? gb_node_field(tfn, "object") : tfn;
        char *alias = gb_node_is_kind(base, GB_NK_IDENTIFIER) ? gb_node_text(base, src) : NULL;
        TSNode bind = {0};
        same = alias && gb_flow_global_bindings(sc, src, root, alias, &bind) == 1 && !ts_node_is_null(bind) &&
               gb_flow_is_toplevel(bind) && ts_node_end_byte(bind) <= ts_node_start_byte(d) &&
               (gb_node_is_kind(bind, GB_NK_IMPORT_STATEMENT) || gb_node_is_kind(bind, GB_NK_IMPORT_FROM_STATEMENT));
        if (same) {
            char *itext = gb_node_text(bind, src);
            same = strstr(itext, "concurrent.futures") != NULL;
            free(itext);
        }
        free(alias);
        same = same && gb_flow_global_bindings(sc, src, root, name, NULL) == 1 && !gb_op_ctx_is_pinned(ctx, name);
    }
    free(func);
    free(args);
    free(kwargs);
    free(tpe);
    free(executor);
    if (!same) {
        free(name);
        return NULL;
    }
    return name;
}

/* The first top-level statement after the leading imports (where new top-level code goes). */
static TSNode gb_s4_code_start_stmt(GbOpContext *ctx, size_t m)
{
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    uint32_t at = gb_module_code_start(ctx, m);
    for (uint32_t i = 0, c = ts_node_named_child_count(root); i < c; i++) {
        TSNode n = ts_node_named_child(root, i);
        if (gb_node_is_statement(n) && ts_node_start_byte(n) >= at) return n;
    }
    return (TSNode){0};
}

static bool gb_s4_apply_runner_form(GbOpContext *ctx, const GbSite *site, TSNode stmt, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    uint32_t limit = ts_node_start_byte(gb_flow_toplevel_of(stmt));
    char *runner = NULL;
    for (uint32_t i = 0, c = ts_node_named_child_count(root); i < c && !runner; i++) {
        TSNode d = ts_node_named_child(root, i);
        if (ts_node_start_byte(d) >= limit) break;
        runner = gb_s4_runner_match(ctx, m, d, limit);
    }
    GbEditSet set;
    gb_edits_init(&set);
    if (!runner) {
        TSNode first = gb_s4_code_start_stmt(ctx, m);
        if (ts_node_is_null(first)) {
            gb_edits_destroy(&set);
            gb_error_set(err, "AddThread: site %s has no module code to define a runner before", site->key);
            return false;
        }
        const char *attr = gb_rng_bounded(rng, 2) == 0 ? NULL : "ThreadPoolExecutor";
        char *imp = gb_s4_import(ctx, &set, m, attr, first);
        char *tpe = attr ? gb_strdup(imp) : gb_asprintf("%s.ThreadPoolExecutor", imp);
        free(imp);
        static const GbWordsKind kinds[5] = {GB_WORDS_FUNCTION, GB_WORDS_CALLABLE, GB_WORDS_ARGS, GB_WORDS_KWARGS,
                                             GB_WORDS_EXECUTOR};
        char *names[5];
        for (int i = 0; i < 5; i++) {
            char *word = gb_words_pick(rng, kinds[i]);
            names[i] = gb_op_ctx_fresh_name(ctx, word);
            free(word);
        }
        GbS4Runner r = {names[0], names[1], names[2], names[3], tpe, names[4]};
        char *snippet = gb_s4_runner_text(&r);
        char *unit = gb_indent_unit(src, root);
        char *text = gb_edit_format(snippet, "", unit, true);
        char *block = gb_asprintf("%s\n\n", text);
        gb_edits_insert_ordered(&set, m, gb_module_code_start(ctx, m), block, 0);
        free(block);
        free(text);
        free(unit);
        free(snippet);
        free(tpe);
        runner = names[0];
        for (int i = 1; i < 5; i++) free(names[i]);
    }
    int kind;
    TSNode call = gb_s4_call(stmt, &kind);
    gb_s4_route_call(&set, m, src, call, runner, "");
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(runner);
    return ok;
}

bool gb_op_add_thread_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode stmt = gb_stmt_at(ctx, m, site->start, site->end);
    int form = site->kind >= GB_S4_RUNNER    ? GB_S4_RUNNER
               : site->kind >= GB_S4_SIBLING ? GB_S4_SIBLING
               : site->kind >= GB_S4_METHOD  ? GB_S4_METHOD
                                             : GB_S4_INPLACE;
    bool ok = !ts_node_is_null(stmt) && gb_s4_program_ok(ctx);
    if (ok) {
        GbS4Module mi;
        gb_s4_module_init(&mi, ctx, m);
        ok = gb_s4_site_ok(ctx, m, &mi, stmt) &&
             (form == GB_S4_INPLACE ||
              (form == GB_S4_RUNNER ? gb_s4_runner_form_ok(ctx, m, stmt) : gb_s4_form_ok(ctx, m, stmt, form)));
        gb_s4_module_destroy(&mi);
    }
    if (!ok) {
        gb_error_set(err, "AddThread: site %s is not a call that can run in a thread", site->key);
        return false;
    }
    if (form == GB_S4_RUNNER) return gb_s4_apply_runner_form(ctx, site, stmt, rng, err);
    if (form != GB_S4_INPLACE) return gb_s4_apply_class_form(ctx, site, stmt, form, rng, err);
    const char *src = gb_op_ctx_source(ctx, m);
    int kind;
    TSNode call = gb_s4_call(stmt, &kind);
    GbEditSet set;
    gb_edits_init(&set);
    const char *attr = gb_rng_bounded(rng, 2) == 0 ? NULL : "ThreadPoolExecutor";
    char *name = gb_s4_import(ctx, &set, m, attr, stmt);
    char *tpe = attr ? gb_strdup(name) : gb_asprintf("%s.ThreadPoolExecutor", name);
    free(name);
    char *word = gb_words_pick(rng, GB_WORDS_EXECUTOR);
    char *executor = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    char *head = gb_asprintf("with %s(max_workers=1) as %s:", tpe, executor);
    char *via = gb_asprintf("%s.submit", executor);
    gb_s4_route_call(&set, m, src, call, via, ".result()");
    gb_edits_wrap(ctx, &set, m, stmt, stmt, head, NULL);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(via);
    free(head);
    free(executor);
    free(tpe);
    return ok;
}
