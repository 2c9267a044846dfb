/* C1 = E − N + 2P on an interprocedural control-flow graph of the whole program.
 *
 * The graph follows the reference's builder (tool/metrics/pycfg.py, described in
 * genebench-reference-behaviour.md §1) node for node where that is sensible, on tree-sitter
 * statements instead of Python's ast. Decisions, rule by rule:
 *
 * Kept from the reference
 *  - Every module gets parentless `start`/`stop` sentinels; its top-level statements are walked
 *    from `start` and the final predecessors link to `stop`. A component that is exactly
 *    {start, stop} (no top-level executable code, as in HumanEval/ClassEval programs) is removed
 *    together with its edge.
 *  - One node per expression statement (Assign/AugAssign/AnnAssign/Expr) and per `pass`.
 *    import / from-import / global / nonlocal create no node (pass-through).
 *  - `if`: a test node; body and each elif/else hang from it (an elif test hangs from the
 *    previous test). Without `else`, the last test node stays a predecessor.
 *  - `while`: a test node, the body's ends loop back to it; exits = the loop's breaks plus the
 *    test node (with `else:`, the breaks plus the else's ends). `for`: the same with an extra
 *    "extract" node (target = next item) as the first node of the body.
 *  - `break`: a node, added to the loop's exits. `continue`: a node linked to the loop's test.
 *    `return`: a node linked to the function's exit (a bare `return` gets an extra
 *    `return None` node first). All three end the flow (no successors in sequence).
 *  - `try`: an entry node; the body hangs from it; each handler is a node under the entry with
 *    its body below; with `finally`, a finally node whose parents are the entry, the body ends
 *    and the handler ends, with the finally statements below it.
 *  - `def` / `class`: parentless `enter`/`exit` nodes; the body hangs from `enter`, its ends and
 *    returns link to `exit`. A definition does not continue the enclosing flow; methods and
 *    nested functions are their own enter/exit pairs (uncalled ones are islands, +1 to P).
 *  - Calls: a statement's calls are recorded on its node (the test node for if/elif/while, the
 *    test node for a `for` iterable). The callee name is the Name's id, an Attribute's attr
 *    (so `self.m()` and `obj.m()` both name m), or for `f()()` the inner callee; a subscript or
 *    lambda callee names nothing. A recorded name equal to a def or class name of the program
 *    (the last definition wins) adds call → enter and exit → every original successor of the
 *    call node, and the call node's original successor edges are dropped.
 *  - Strict digraph (no parallel edges; self-loops allowed); N = nodes, E = edges,
 *    P = weakly connected components (the reference runs networkx's strongly-connected
 *    components on a pygraphviz graph whose adjacency yields in- and out-neighbours, which is
 *    weak connectivity).
 *  - Dead code after return/break/continue/raise becomes parentless nodes (islands).
 *
 * Deliberate deviations (each fixes an accident of the reference that would make C1 depend on
 * list aliasing, crash into its fallback builder, or grow exponentially):
 *  - Predecessor lists are values: the reference shares Python lists between nodes, so adding a
 *    loop-back parent to one node silently adds it to others (spurious edges). Not reproduced.
 *  - break/continue target the lexically enclosing loop and return/raise the lexically
 *    enclosing function; the reference climbs "first parents", which after an inner loop finds
 *    the inner loop (its break then leads nowhere).
 *  - try: each statement of the body is walked once, in sequence; the reference walks every
 *    statement separately from each predecessor (duplicating whole subgraphs, exponential in the
 *    number of branching statements) and replaces an empty result (after return/raise) with
 *    the previous node (inventing fall-through edges). The `else:` of a try (skipped by the
 *    reference) is walked after the body; `finally` is walked once (the reference walks its
 *    first statement twice).
 *  - The `else:` of a loop is walked in sequence (the reference hangs every else statement
 *    directly from the test node, as parallel branches).
 *  - `with` (and `async with`) creates a node and its body is walked below it; the reference
 *    skips with-blocks entirely, losing their code.
 *  - `raise` creates a node linked to the function's exit (module: `stop`), like `return`;
 *    assert/del and other simple statements create a node. In the reference they are
 *    pass-through, so `if x: raise E` was not a branch.
 *  - `match`: a subject node; each case's body hangs from it; the subject node stays a
 *    predecessor unless the last case is an unguarded `case _:`. (The reference ignores match.)
 *  - `async def` / `async for` / `async with` are walked like their plain forms (the reference
 *    creates no node for them and skips their bodies).
 *  - Calls are collected from the whole expression of the statement (except lambda bodies,
 *    which do not run there). The reference only descends through BinOp, Compare, UnaryOp and
 *    positional call arguments, and records a `return`'s calls on the node before the return.
 *  - Multi-module programs: one graph; every module has its own start/stop, and calls link to
 *    definitions in any module of the program (matched by name).
 */
#include "fitness/metrics_internal.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/strmap.h"

typedef const GbPyView View;
typedef GbArray(uint32_t) Preds;
typedef GbArray(uint64_t) Edges;

enum { CFG_START, CFG_STOP, CFG_ENTER, CFG_EXIT, CFG_STMT };

typedef struct {
    uint32_t node;
    const char *name;
    uint32_t len;
} CfgCall;

typedef struct {
    uint32_t test;
    Preds exits;
} CfgLoop;

typedef struct {
    GbArray(uint8_t) type; /* per graph node */
    Edges edges;           /* (from << 32) | to */
    GbArray(CfgCall) calls;
    GbStrMap funcs;           /* name -> (enter << 32) | exit */
    GbArray(uint32_t) starts; /* per module: start, stop */
    /* walker state */
    View *v;
    GbArray(CfgLoop) loops;
    size_t loop_base;     /* loops below this index belong to an enclosing def */
    uint32_t exit_target; /* where return/raise go */
} Cfg;

static void cfg__edge(Cfg *g, uint32_t a, uint32_t b)
{
    gb_array_push(&g->edges, ((uint64_t)a << 32) | b);
}

static uint32_t cfg__node(Cfg *g, uint8_t type, const Preds *parents)
{
    uint32_t id = (uint32_t)g->type.len;
    gb_array_push(&g->type, type);
    if (parents)
        for (size_t i = 0; i < parents->len; i++) cfg__edge(g, parents->items[i], id);
    return id;
}

static Preds cfg__one(uint32_t n)
{
    Preds p = {0};
    gb_array_push(&p, n);
    return p;
}

static void cfg__append(Preds *dst, const Preds *src)
{
    for (size_t i = 0; i < src->len; i++) gb_array_push(dst, src->items[i]);
}

/* The name a call records: Name id, Attribute attr, or the inner callee of f()(). */
static uint32_t cfg__callee(View *v, uint32_t call)
{
    uint32_t f = gb_pyview_callee(v, call);
    while (f != GB_PY_NIL) {
        uint8_t k = v->nodes[f].kind;
        if (k == GB_NK_IDENTIFIER) return f;
        if (k == GB_NK_ATTRIBUTE) return gb_pyview_field(v, f, GB_PF_ATTRIBUTE);
        if (k != GB_NK_CALL) return GB_PY_NIL;
        f = gb_pyview_callee(v, f);
    }
    return GB_PY_NIL;
}

/* Record on graph node gn every call inside the subtree of n (lambda bodies excluded). */
static void cfg__calls(Cfg *g, uint32_t gn, uint32_t n)
{
    View *v = g->v;
    if (n == GB_PY_NIL) return;
    for (uint32_t i = n; i < v->nodes[n].subtree_end;) {
        uint8_t k = v->nodes[i].kind;
        if (k == GB_NK_LAMBDA) {
            i = v->nodes[i].subtree_end;
            continue;
        }
        if (k == GB_NK_CALL) {
            uint32_t c = cfg__callee(v, i);
            if (c != GB_PY_NIL) {
                CfgCall rec = {.node = gn, .name = v->src + v->nodes[c].start, .len = gb_pyview_len(v, c)};
                gb_array_push(&g->calls, rec);
            }
        }
        i++;
    }
}

static Preds cfg__stmt(Cfg *g, uint32_t s, Preds p);

/* Walk the statements of a block (or the module) in sequence. Takes ownership of p. */
static Preds cfg__block(Cfg *g, uint32_t block, Preds p)
{
    View *v = g->v;
    if (block == GB_PY_NIL) return p;
    for (uint32_t c = v->nodes[block].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
        if (v->nodes[c].named) p = cfg__stmt(g, c, p);
    return p;
}

/* The block child of a clause (except/finally have it unnamed, else has it as `body`). */
static uint32_t cfg__clause_block(View *v, uint32_t clause)
{
    for (uint32_t c = v->nodes[clause].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
        if (v->nodes[c].kind == GB_NK_BLOCK) return c;
    return GB_PY_NIL;
}

static void cfg__def(Cfg *g, uint32_t d)
{
    View *v = g->v;
    uint32_t enter = cfg__node(g, CFG_ENTER, NULL);
    uint32_t exit = cfg__node(g, CFG_EXIT, NULL);
    size_t saved_base = g->loop_base;
    uint32_t saved_exit = g->exit_target;
    g->loop_base = g->loops.len;
    g->exit_target = exit;
    Preds ends = cfg__block(g, gb_pyview_field(v, d, GB_PF_BODY), cfg__one(enter));
    for (size_t i = 0; i < ends.len; i++) cfg__edge(g, ends.items[i], exit);
    gb_array_free(&ends);
    g->loop_base = saved_base;
    g->exit_target = saved_exit;
    uint32_t name = gb_pyview_field(v, d, GB_PF_NAME);
    if (name != GB_PY_NIL) {
        bool inserted;
        uint64_t *slot = gb_strmap_put(&g->funcs, v->src + v->nodes[name].start, gb_pyview_len(v, name), 0, &inserted);
        *slot = ((uint64_t)enter << 32) | exit; /* the last definition wins */
    }
}

static Preds cfg__loop(Cfg *g, uint32_t s, uint32_t test, uint32_t first)
{
    View *v = g->v;
    CfgLoop loop = {.test = test};
    gb_array_push(&g->loops, loop);
    Preds ends = cfg__block(g, gb_pyview_field(v, s, GB_PF_BODY), cfg__one(first));
    for (size_t i = 0; i < ends.len; i++) cfg__edge(g, ends.items[i], test);
    gb_array_free(&ends);
    Preds out = g->loops.items[--g->loops.len].exits;
    uint32_t els = gb_pyview_field(v, s, GB_PF_ALTERNATIVE);
    if (els != GB_PY_NIL) {
        Preds e = cfg__block(g, gb_pyview_field(v, els, GB_PF_BODY), cfg__one(test));
        cfg__append(&out, &e);
        gb_array_free(&e);
    } else {
        gb_array_push(&out, test);
    }
    return out;
}

/* An if/elif/else chain: each test follows the previous one; without an else the last test
 * falls through. */
static Preds cfg__if(Cfg *g, uint32_t s, Preds *p)
{
    View *v = g->v;
    Preds out = {0};
    uint32_t t = cfg__node(g, CFG_STMT, p);
    cfg__calls(g, t, gb_pyview_field(v, s, GB_PF_CONDITION));
    out = cfg__block(g, gb_pyview_field(v, s, GB_PF_CONSEQUENCE), cfg__one(t));
    uint32_t last = t;
    bool has_else = false;
    for (uint32_t c = v->nodes[s].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
        Preds e = {0};
        if (v->nodes[c].kind == GB_NK_ELIF_CLAUSE) {
            Preds lp = cfg__one(last);
            uint32_t t2 = cfg__node(g, CFG_STMT, &lp);
            gb_array_free(&lp);
            cfg__calls(g, t2, gb_pyview_field(v, c, GB_PF_CONDITION));
            e = cfg__block(g, gb_pyview_field(v, c, GB_PF_CONSEQUENCE), cfg__one(t2));
            last = t2;
        } else if (v->nodes[c].kind == GB_NK_ELSE_CLAUSE) {
            e = cfg__block(g, gb_pyview_field(v, c, GB_PF_BODY), cfg__one(last));
            has_else = true;
        } else {
            continue;
        }
        cfg__append(&out, &e);
        gb_array_free(&e);
    }
    if (!has_else) gb_array_push(&out, last);
    return out;
}

/* try/except/else/finally: every handler starts at the try node; a finally joins the body,
 * the handlers and the try node itself. */
static Preds cfg__try(Cfg *g, uint32_t s, Preds *p)
{
    View *v = g->v;
    Preds out = {0};
    uint32_t e = cfg__node(g, CFG_STMT, p);
    Preds ends = cfg__block(g, gb_pyview_field(v, s, GB_PF_BODY), cfg__one(e));
    Preds handlers = {0};
    uint32_t fin = GB_PY_NIL;
    for (uint32_t c = v->nodes[s].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
        uint8_t k = v->nodes[c].kind;
        if (k == GB_NK_ELSE_CLAUSE) {
            ends = cfg__block(g, gb_pyview_field(v, c, GB_PF_BODY), ends);
        } else if (k == GB_NK_EXCEPT_CLAUSE || k == GB_NK_EXCEPT_GROUP_CLAUSE) {
            Preds ep = cfg__one(e);
            uint32_t h = cfg__node(g, CFG_STMT, &ep);
            gb_array_free(&ep);
            for (uint32_t x = v->nodes[c].first_child; x != GB_PY_NIL; x = v->nodes[x].next_sibling)
                if (v->nodes[x].named && v->nodes[x].kind != GB_NK_BLOCK) cfg__calls(g, h, x);
            Preds he = cfg__block(g, cfg__clause_block(v, c), cfg__one(h));
            cfg__append(&handlers, &he);
            gb_array_free(&he);
        } else if (k == GB_NK_FINALLY_CLAUSE) {
            fin = c;
        }
    }
    if (fin != GB_PY_NIL) {
        Preds fp = cfg__one(e);
        cfg__append(&fp, &ends);
        cfg__append(&fp, &handlers);
        uint32_t f = cfg__node(g, CFG_STMT, &fp);
        gb_array_free(&fp);
        out = cfg__block(g, cfg__clause_block(v, fin), cfg__one(f));
        gb_array_free(&ends);
    } else {
        out = ends;
        cfg__append(&out, &handlers);
    }
    gb_array_free(&handlers);
    return out;
}

/* A match: each case body starts at the subject; without an unguarded `_` case the subject
 * falls through. */
static Preds cfg__match(Cfg *g, uint32_t s, Preds *p)
{
    View *v = g->v;
    Preds out = {0};
    uint32_t m = cfg__node(g, CFG_STMT, p);
    cfg__calls(g, m, gb_pyview_field(v, s, GB_PF_SUBJECT));
    uint32_t body = gb_pyview_field(v, s, GB_PF_BODY);
    bool wildcard = false;
    if (body != GB_PY_NIL) {
        for (uint32_t c = v->nodes[body].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
            if (v->nodes[c].kind != GB_NK_CASE_CLAUSE) continue;
            Preds e = cfg__block(g, gb_pyview_field(v, c, GB_PF_CONSEQUENCE), cfg__one(m));
            cfg__append(&out, &e);
            gb_array_free(&e);
            uint32_t pat = gb_pyview_first_named(v, c);
            wildcard = pat != GB_PY_NIL && v->nodes[pat].kind == GB_NK_CASE_PATTERN && gb_pyview_text_eq(v, pat, "_") &&
                       gb_pyview_field(v, c, GB_PF_GUARD) == GB_PY_NIL;
        }
    }
    if (!wildcard) gb_array_push(&out, m);
    return out;
}

static Preds cfg__stmt(Cfg *g, uint32_t s, Preds p)
{
    View *v = g->v;
    Preds out = {0};
    switch (v->nodes[s].kind) {
    case GB_NK_EXPRESSION_STATEMENT:
    case GB_NK_PRINT_STATEMENT:
    case GB_NK_EXEC_STATEMENT:
    case GB_NK_PASS_STATEMENT:
    case GB_NK_ASSERT_STATEMENT:
    case GB_NK_DELETE_STATEMENT:
    case GB_NK_TYPE_ALIAS_STATEMENT: {
        uint32_t x = cfg__node(g, CFG_STMT, &p);
        cfg__calls(g, x, s);
        out = cfg__one(x);
        break;
    }
    case GB_NK_RETURN_STATEMENT: {
        uint32_t val = gb_pyview_first_named(v, s);
        uint32_t r;
        if (val != GB_PY_NIL) {
            r = cfg__node(g, CFG_STMT, &p);
            cfg__calls(g, r, val);
        } else {
            Preds none = cfg__one(cfg__node(g, CFG_STMT, &p));
            r = cfg__node(g, CFG_STMT, &none);
            gb_array_free(&none);
        }
        cfg__edge(g, r, g->exit_target);
        break;
    }
    case GB_NK_RAISE_STATEMENT: {
        uint32_t x = cfg__node(g, CFG_STMT, &p);
        cfg__calls(g, x, s);
        cfg__edge(g, x, g->exit_target);
        break;
    }
    case GB_NK_BREAK_STATEMENT: {
        uint32_t b = cfg__node(g, CFG_STMT, &p);
        if (g->loops.len > g->loop_base)
            gb_array_push(&g->loops.items[g->loops.len - 1].exits, b);
        else
            out = cfg__one(b);
        break;
    }
    case GB_NK_CONTINUE_STATEMENT: {
        uint32_t c = cfg__node(g, CFG_STMT, &p);
        if (g->loops.len > g->loop_base)
            cfg__edge(g, c, g->loops.items[g->loops.len - 1].test);
        else
            out = cfg__one(c);
        break;
    }
    case GB_NK_IF_STATEMENT:
        out = cfg__if(g, s, &p);
        break;
    case GB_NK_WHILE_STATEMENT: {
        uint32_t t = cfg__node(g, CFG_STMT, &p);
        cfg__calls(g, t, gb_pyview_field(v, s, GB_PF_CONDITION));
        out = cfg__loop(g, s, t, t);
        break;
    }
    case GB_NK_FOR_STATEMENT: {
        uint32_t t = cfg__node(g, CFG_STMT, &p);
        cfg__calls(g, t, gb_pyview_field(v, s, GB_PF_RIGHT));
        Preds tp = cfg__one(t);
        uint32_t x = cfg__node(g, CFG_STMT, &tp);
        gb_array_free(&tp);
        out = cfg__loop(g, s, t, x);
        break;
    }
    case GB_NK_TRY_STATEMENT:
        out = cfg__try(g, s, &p);
        break;
    case GB_NK_WITH_STATEMENT: {
        uint32_t w = cfg__node(g, CFG_STMT, &p);
        for (uint32_t c = v->nodes[s].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
            if (v->nodes[c].kind == GB_NK_WITH_CLAUSE) cfg__calls(g, w, c);
        out = cfg__block(g, gb_pyview_field(v, s, GB_PF_BODY), cfg__one(w));
        break;
    }
    case GB_NK_MATCH_STATEMENT:
        out = cfg__match(g, s, &p);
        break;
    case GB_NK_FUNCTION_DEFINITION:
    case GB_NK_CLASS_DEFINITION:
        cfg__def(g, s);
        return p;
    case GB_NK_DECORATED_DEFINITION: {
        uint32_t d = gb_pyview_field(v, s, GB_PF_DEFINITION);
        if (d != GB_PY_NIL) cfg__def(g, d);
        return p;
    }
    default:
        /* import, from-import, global, nonlocal, future import: no node */
        return p;
    }
    gb_array_free(&p);
    return out;
}

static int cfg__cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Sort and deduplicate an edge list in place. */
static void cfg__unique(Edges *e)
{
    if (!e->len) return;
    qsort(e->items, e->len, sizeof e->items[0], cfg__cmp_u64);
    size_t w = 1;
    for (size_t i = 1; i < e->len; i++)
        if (e->items[i] != e->items[w - 1]) e->items[w++] = e->items[i];
    e->len = w;
}

double gb_cfg_c1(const GbMeasured *m, GbMetricsDetail *detail)
{
    Cfg g = {0};
    gb_strmap_init(&g.funcs, false);
    for (size_t i = 0; i < m->n; i++) {
        g.v = &m->views[i];
        uint32_t start = cfg__node(&g, CFG_START, NULL);
        uint32_t stop = cfg__node(&g, CFG_STOP, NULL);
        gb_array_push(&g.starts, start);
        gb_array_push(&g.starts, stop);
        g.exit_target = stop;
        g.loop_base = g.loops.len;
        Preds ends = cfg__block(&g, 0, cfg__one(start));
        for (size_t k = 0; k < ends.len; k++) cfg__edge(&g, ends.items[k], stop);
        gb_array_free(&ends);
    }
    uint32_t nn = (uint32_t)g.type.len;
    cfg__unique(&g.edges);

    /* Link calls to the program's own definitions. */
    Edges linked = {0}; /* new edges */
    uint8_t *drop = gb_calloc(nn ? nn : 1, 1);
    size_t *first = gb_malloc((nn + 1) * sizeof *first); /* CSR offsets of the original successors */
    {
        size_t e = 0;
        for (uint32_t a = 0; a <= nn; a++) {
            while (e < g.edges.len && (g.edges.items[e] >> 32) < a) e++;
            first[a] = e;
        }
    }
    for (size_t i = 0; i < g.calls.len; i++) {
        const CfgCall *c = &g.calls.items[i];
        uint64_t *f = gb_strmap_get(&g.funcs, c->name, c->len);
        if (!f) continue;
        uint32_t enter = (uint32_t)(*f >> 32), exit = (uint32_t)*f;
        gb_array_push(&linked, ((uint64_t)c->node << 32) | enter);
        if (first[c->node] < first[c->node + 1]) {
            drop[c->node] = 1;
            for (size_t e = first[c->node]; e < first[c->node + 1]; e++)
                gb_array_push(&linked, ((uint64_t)exit << 32) | (uint32_t)g.edges.items[e]);
        }
    }
    Edges edges = {0};
    for (size_t e = 0; e < g.edges.len; e++) {
        uint32_t a = (uint32_t)(g.edges.items[e] >> 32), b = (uint32_t)g.edges.items[e];
        if (drop[a] && g.type.items[b] != CFG_ENTER) continue;
        gb_array_push(&edges, g.edges.items[e]);
    }
    for (size_t e = 0; e < linked.len; e++) gb_array_push(&edges, linked.items[e]);
    cfg__unique(&edges);

    /* Weakly connected components. */
    uint32_t *parent = gb_malloc((nn ? nn : 1) * sizeof *parent);
    for (uint32_t i = 0; i < nn; i++) parent[i] = i;
    for (size_t e = 0; e < edges.len; e++) {
        uint32_t a = uf_find(parent, (uint32_t)(edges.items[e] >> 32));
        uint32_t b = uf_find(parent, (uint32_t)edges.items[e]);
        if (a != b) parent[a] = b;
    }
    uint32_t *size = gb_calloc(nn ? nn : 1, sizeof *size);
    long components = 0;
    for (uint32_t i = 0; i < nn; i++) {
        uint32_t r = uf_find(parent, i);
        if (size[r]++ == 0) components++;
    }
    long nodes = nn, nedges = (long)edges.len;
    /* Remove {start, stop} components (no top-level executable code). */
    for (size_t i = 0; i + 1 < g.starts.len; i += 2) {
        uint32_t s = g.starts.items[i], t = g.starts.items[i + 1];
        uint32_t r = uf_find(parent, s);
        if (r != uf_find(parent, t) || size[r] != 2) continue;
        nodes -= 2;
        components -= 1;
        for (size_t e = 0; e < edges.len; e++)
            if (uf_find(parent, (uint32_t)(edges.items[e] >> 32)) == r) nedges--;
    }
    if (detail) {
        detail->cfg_nodes = (unsigned)nodes;
        detail->cfg_edges = (unsigned)nedges;
        detail->cfg_components = (unsigned)components;
    }
    free(size);
    free(parent);
    free(first);
    free(drop);
    gb_array_free(&edges);
    gb_array_free(&linked);
    gb_array_free(&g.type);
    gb_array_free(&g.edges);
    gb_array_free(&g.calls);
    gb_array_free(&g.starts);
    for (size_t i = 0; i < g.loops.len; i++) gb_array_free(&g.loops.items[i].exits);
    gb_array_free(&g.loops);
    gb_strmap_destroy(&g.funcs);
    return (double)(nedges - nodes + 2 * components);
}
