/* S4 AddThread: run one call in a worker thread and wait for it.
 *
 *     total = compute(xs, k=2)       def run_call(outbox, function, arguments, keywords):
 *                                        try:
 *                               ->           outbox.put((True, function(*arguments, **keywords)))
 *                                        except BaseException as error:
 *                                            outbox.put((False, error))
 *                                    results = queue.Queue()
 *                                    worker = threading.Thread(target=run_call,
 *                                                              args=(results, compute, (xs,), {'k': 2}))
 *                                    worker.start()
 *                                    worker.join()
 *                                    succeeded, value = results.get()
 *                                    if not succeeded:
 *                                        raise value
 *                                    total = value
 *
 * Sites: an expression statement that is a call, an assignment whose value is a call (all
 * targets kept: `a = b = f()`, annotations kept), or `return f(...)`.
 *
 * Why it is exact: the callee and every argument are evaluated in the caller, in the
 * original order, before the thread starts (so evaluation errors are raised where they were,
 * and names resolve in the caller's scope); only the call itself runs in the thread, with
 * the same positional and keyword arguments; the caller joins before going on, so nothing
 * runs concurrently; the call's value, or the exception object it raised (any
 * BaseException: SystemExit too), comes back and is returned, assigned or re-raised in the
 * caller. All helper names are fresh; `threading`/`queue` are imported under names nothing
 * else uses.
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
 *   - calls with `*`/`**` arguments or a keyword before a positional argument (their error
 *     messages and evaluation order would differ), walrus, yield or await inside, and
 *     multi-line strings inside (re-indentation would change them). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "src/flow.h"
#include "src/pyparse.h"

enum { GB_S4_EXPR = 0, GB_S4_ASSIGN = 1, GB_S4_RETURN = 2 };

static const char *const gb_s4_refuse_names[] = {
    "threading", "_thread",     "Thread",       "Lock",          "RLock",         "Semaphore",
    "BoundedSemaphore", "Condition", "Barrier", "local",         "current_thread", "get_ident",
    "get_native_id", "main_thread", "signal",  "asyncio",       "multiprocessing", "concurrent",
    "sqlite3",   "tkinter",     "turtle",       "decimal",       "Decimal",       "localcontext",
    "getcontext", "setcontext", "contextvars",  "ContextVar",    "copy_context",  "errstate",
    "seterr",    "geterr",      "seterrcall",   "setrecursionlimit", "getrecursionlimit", "RecursionError",
    "exc_info",  "_getframe",   "currentframe", "settrace",      "setprofile",    "gettrace",
    "stack_size", "interrupt_main", "fork",     "faulthandler",  "inspect"};
#define GB_S4_N_REFUSE (sizeof gb_s4_refuse_names / sizeof *gb_s4_refuse_names)

static bool gb_s4_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static TSNode gb_s4_field(TSNode n, const char *name)
{
    return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static bool gb_s4_program_ok(GbOpContext *ctx)
{
    for (size_t i = 0; i < GB_S4_N_REFUSE; i++)
        if (gb_op_ctx_is_pinned(ctx, gb_s4_refuse_names[i])) return false;
    for (size_t m = 0; m < ctx->prog->modules.len; m++)
        if (gb_flow_mentions_any(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m),
                                 gb_s4_refuse_names, GB_S4_N_REFUSE))
            return false;
    return true;
}

/* The call of a site statement and its kind; null node when stmt is not a site shape. */
static TSNode gb_s4_call(TSNode stmt, int *kind)
{
    TSNode null = {0};
    if (gb_s4_is(stmt, "return_statement")) {
        if (ts_node_named_child_count(stmt) != 1) return null;
        TSNode c = ts_node_named_child(stmt, 0);
        *kind = GB_S4_RETURN;
        return gb_s4_is(c, "call") ? c : null;
    }
    if (!gb_s4_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1) return null;
    TSNode e = ts_node_named_child(stmt, 0);
    if (gb_s4_is(e, "call")) {
        *kind = GB_S4_EXPR;
        return e;
    }
    if (!gb_s4_is(e, "assignment")) return null;
    TSNode r = e;
    while (gb_s4_is(r, "assignment")) r = gb_s4_field(r, "right");
    *kind = GB_S4_ASSIGN;
    return gb_s4_is(r, "call") ? r : null;
}

/* Descendants of node that make the site unsafe: walrus, yield, await, lambda-free checks
 * are done by effects; here the syntax the rewrite cannot express. */
static bool gb_s4_has_bad_syntax(TSNode n, const char *src)
{
    const char *t = ts_node_type(n);
    if (strcmp(t, "named_expression") == 0 || strcmp(t, "yield") == 0 || strcmp(t, "await") == 0) return true;
    if (strcmp(t, "string") == 0 && memchr(src + ts_node_start_byte(n), '\n', ts_node_end_byte(n) - ts_node_start_byte(n)))
        return true;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_s4_has_bad_syntax(ts_node_named_child(n, i), src)) return true;
    return false;
}

/* Arguments the rewrite can pass explicitly: positional expressions, then keyword arguments;
 * no `*`/`**`. */
static bool gb_s4_args_ok(TSNode call)
{
    TSNode args = gb_s4_field(call, "arguments");
    if (ts_node_is_null(args)) return false;
    if (gb_s4_is(args, "generator_expression")) return true;
    if (!gb_s4_is(args, "argument_list")) return false;
    bool keywords = false;
    uint32_t c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gb_s4_is(a, "comment")) continue;
        if (gb_s4_is(a, "list_splat") || gb_s4_is(a, "dictionary_splat") || gb_s4_is(a, "parenthesized_list_splat"))
            return false;
        if (gb_s4_is(a, "keyword_argument")) keywords = true;
        else if (keywords) return false;
    }
    return true;
}

typedef struct {
    GbNames in_loops;  /* identifiers mentioned inside loop bodies and comprehensions */
    GbCallGraph graph;
} GbS4Module;

static void gb_s4_collect_loops(TSNode n, const char *src, GbNames *out)
{
    const char *t = ts_node_type(n);
    if (strcmp(t, "for_statement") == 0 || strcmp(t, "while_statement") == 0 ||
        strcmp(t, "list_comprehension") == 0 || strcmp(t, "set_comprehension") == 0 ||
        strcmp(t, "dictionary_comprehension") == 0 || strcmp(t, "generator_expression") == 0) {
        gb_flow_identifiers(n, src, out);
        return;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s4_collect_loops(ts_node_named_child(n, i), src, out);
}

static void gb_s4_module_init(GbS4Module *mi, GbOpContext *ctx, size_t module)
{
    memset(mi, 0, sizeof *mi);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    const char *src = gb_op_ctx_source(ctx, module);
    gb_s4_collect_loops(root, src, &mi->in_loops);
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
    if (gb_s4_has_bad_syntax(stmt, src) || !gb_s4_args_ok(call)) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(stmt));
    const GbScope *s = &sc->scopes.items[scope];
    if (s->kind != GB_SCOPE_FUNCTION && s->kind != GB_SCOPE_MODULE) return false;
    if (s->dynamic || s->is_async || s->is_generator) return false;
    if (kind == GB_S4_RETURN && s->kind != GB_SCOPE_FUNCTION) return false;
    /* The enclosing constructs up to the function. */
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const char *t = ts_node_type(p);
        if (strcmp(t, "function_definition") == 0) {
            TSNode name = gb_s4_field(p, "name");
            char *fname = gb_node_text(name, src);
            bool bad = gb_names_has(&mi->in_loops, fname) ||
                       gb_callgraph_is_recursive_at(&mi->graph, ts_node_start_byte(p));
            free(fname);
            if (bad) return false;
            continue; /* enclosing functions (closures) too */
        }
        if (ts_node_start_byte(p) < s->start || ts_node_end_byte(p) > s->end) continue;
        if (strcmp(t, "for_statement") == 0 || strcmp(t, "while_statement") == 0 || strcmp(t, "except_clause") == 0 ||
            strcmp(t, "except_group_clause") == 0 || strcmp(t, "finally_clause") == 0 ||
            strcmp(t, "with_statement") == 0)
            return false;
    }
    /* The callee must not reach recursion. */
    TSNode fn = gb_s4_field(call, "function");
    TSNode last = fn;
    if (gb_s4_is(fn, "attribute")) last = gb_s4_field(fn, "attribute");
    if (gb_s4_is(last, "identifier")) {
        char *name = gb_node_text(last, src);
        bool bad = gb_callgraph_name_reaches_recursion(&mi->graph, name);
        free(name);
        if (bad) return false;
    }
    return !gb_callgraph_reaches_recursion(&mi->graph, call, src);
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
            if (gb_s4_site_ok(ctx, m, &mi, stmts.items[i])) {
                gb_s4_call(stmts.items[i], &kind);
                gb_site_add(ctx, out, m, stmts.items[i], NULL, kind, NULL);
            }
        }
        gb_array_free(&stmts);
        gb_s4_module_destroy(&mi);
    }
}

/* `(a, b)` and `{'k': v}` texts for the call's arguments. */
static void gb_s4_arg_texts(TSNode call, const char *src, GbStr *pos, GbStr *kw)
{
    TSNode args = gb_s4_field(call, "arguments");
    gb_str_append(pos, "(");
    gb_str_append(kw, "{");
    if (gb_s4_is(args, "generator_expression")) {
        char *t = gb_node_text(args, src);
        gb_str_appendf(pos, "%s,", t);
        free(t);
    } else {
        size_t n_pos = 0, n_kw = 0;
        uint32_t c = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < c; i++) {
            TSNode a = ts_node_named_child(args, i);
            if (gb_s4_is(a, "comment")) continue;
            if (gb_s4_is(a, "keyword_argument")) {
                char *k = gb_node_text(gb_s4_field(a, "name"), src);
                char *v = gb_node_text(gb_s4_field(a, "value"), src);
                gb_str_appendf(kw, "%s'%s': %s", n_kw++ ? ", " : "", k, v);
                free(k);
                free(v);
            } else {
                char *t = gb_node_text(a, src);
                gb_str_appendf(pos, "%s%s", n_pos++ ? ", " : "", t);
                free(t);
            }
        }
        if (n_pos == 1) gb_str_append(pos, ",");
    }
    gb_str_append(pos, ")");
    gb_str_append(kw, "}");
}

static const char *const gb_s4_runner_names[] = {"run_call", "call_in_worker", "invoke", "execute_task"};
static const char *const gb_s4_worker_names[] = {"worker", "thread", "background", "task_thread"};

bool gb_op_add_thread_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    size_t m = site->module;
    TSNode stmt = gb_stmt_at(ctx, m, site->start, site->end);
    bool ok = !ts_node_is_null(stmt) && gb_s4_program_ok(ctx);
    if (ok) {
        GbS4Module mi;
        gb_s4_module_init(&mi, ctx, m);
        ok = gb_s4_site_ok(ctx, m, &mi, stmt);
        gb_s4_module_destroy(&mi);
    }
    if (!ok) {
        gb_error_set(err, "AddThread: site %s is not a call that can run in a thread", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, m);
    int kind;
    TSNode call = gb_s4_call(stmt, &kind);
    char *callee = gb_node_text(gb_s4_field(call, "function"), src);
    /* The text before the call: the targets of an assignment, or "return ". */
    char *prefix = gb_strndup(src + ts_node_start_byte(stmt), ts_node_start_byte(call) - ts_node_start_byte(stmt));
    GbStr pos, kw;
    gb_str_init(&pos);
    gb_str_init(&kw);
    gb_s4_arg_texts(call, src, &pos, &kw);

    GbEditSet set;
    gb_edits_init(&set);
    bool use_queue = gb_rng_bounded(rng, 2) == 0;
    char *threading = gb_edits_add_import(ctx, &set, m, "threading", NULL, NULL);
    char *queue = use_queue ? gb_edits_add_import(ctx, &set, m, "queue", NULL, NULL) : NULL;
    char *runner = gb_op_ctx_fresh_name(ctx, gb_s4_runner_names[gb_rng_bounded(rng, 4)]);
    char *outbox = gb_op_ctx_fresh_name(ctx, "outbox");
    char *function = gb_op_ctx_fresh_name(ctx, "function");
    char *arguments = gb_op_ctx_fresh_name(ctx, "arguments");
    char *keywords = gb_op_ctx_fresh_name(ctx, "keywords");
    char *error = gb_op_ctx_fresh_name(ctx, "error");
    char *results = gb_op_ctx_fresh_name(ctx, "results");
    char *worker = gb_op_ctx_fresh_name(ctx, gb_s4_worker_names[gb_rng_bounded(rng, 4)]);
    char *succeeded = gb_op_ctx_fresh_name(ctx, "succeeded");
    char *value = gb_op_ctx_fresh_name(ctx, "value");
    const char *put = use_queue ? "put" : "append";

    GbStr t;
    gb_str_init(&t);
    gb_str_appendf(&t, "def %s(%s, %s, %s, %s):\n", runner, outbox, function, arguments, keywords);
    gb_str_appendf(&t, "    try:\n        %s.%s((True, %s(*%s, **%s)))\n", outbox, put, function, arguments, keywords);
    gb_str_appendf(&t, "    except BaseException as %s:\n        %s.%s((False, %s))\n", error, outbox, put, error);
    if (use_queue) gb_str_appendf(&t, "%s = %s.Queue()\n", results, queue);
    else gb_str_appendf(&t, "%s = []\n", results);
    gb_str_appendf(&t, "%s = %s.Thread(target=%s, args=(%s, %s, %s, %s))\n", worker, threading, runner, results, callee,
                   pos.data, kw.data);
    gb_str_appendf(&t, "%s.start()\n%s.join()\n", worker, worker);
    if (use_queue) gb_str_appendf(&t, "%s, %s = %s.get()\n", succeeded, value, results);
    else gb_str_appendf(&t, "%s, %s = %s[0]\n", succeeded, value, results);
    gb_str_appendf(&t, "if not %s:\n    raise %s\n", succeeded, value);
    if (kind != GB_S4_EXPR) gb_str_appendf(&t, "%s%s\n", prefix, value);

    char *indent = gb_line_indent(src, ts_node_start_byte(stmt));
    char *unit = gb_indent_unit(src, ts_tree_root_node(gb_op_ctx_tree(ctx, m)));
    size_t tl = t.len;
    if (tl && t.data[tl - 1] == '\n') t.data[--t.len] = '\0';
    char *text = gb_edit_format(t.data, indent, unit, false);
    gb_edits_replace_node(&set, m, stmt, text);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(text);
    free(unit);
    free(indent);
    gb_str_destroy(&t);
    gb_str_destroy(&pos);
    gb_str_destroy(&kw);
    free(callee);
    free(prefix);
    free(threading);
    free(queue);
    free(runner);
    free(outbox);
    free(function);
    free(arguments);
    free(keywords);
    free(error);
    free(results);
    free(worker);
    free(succeeded);
    free(value);
    return ok;
}
