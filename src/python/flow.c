#include "src/python/flow.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* ---- Binding ---- */

/* True when the assignment target contains the identifier name (names inside attribute or
 * subscript targets do not count: they are read, not bound). */
static bool gb_flow__target_binds(const char *src, TSNode t, const char *name)
{
    if (ts_node_is_null(t)) return false;
    GbNodeKind ty = gb_node_kind(t);
    if (ty == GB_NK_IDENTIFIER) return gb_node_text_eq(t, src, name);
    if (ty == GB_NK_PATTERN_LIST || ty == GB_NK_TUPLE_PATTERN || ty == GB_NK_LIST_PATTERN || ty == GB_NK_TUPLE ||
        ty == GB_NK_LIST || ty == GB_NK_EXPRESSION_LIST || ty == GB_NK_PARENTHESIZED_EXPRESSION ||
        ty == GB_NK_LIST_SPLAT_PATTERN || ty == GB_NK_LIST_SPLAT || ty == GB_NK_AS_PATTERN_TARGET) {
        uint32_t c = ts_node_named_child_count(t);
        for (uint32_t i = 0; i < c; i++)
            if (gb_flow__target_binds(src, ts_node_named_child(t, i), name)) return true;
    }
    return false;
}

/* True when node is an as_pattern (`with v as name`, `except E as name`) whose target binds name. */
static bool gb_flow__as_binds(const char *src, TSNode node, const char *name)
{
    if (!gb_node_is_kind(node, GB_NK_AS_PATTERN)) return false;
    uint32_t m = ts_node_named_child_count(node);
    for (uint32_t j = 0; j < m; j++) {
        TSNode x = ts_node_named_child(node, j);
        if (gb_node_is_kind(x, GB_NK_AS_PATTERN_TARGET) && gb_flow__target_binds(src, x, name)) return true;
    }
    return false;
}

/* True when node is an except clause whose `as` target binds name. */
static bool gb_flow__except_binds(const char *src, TSNode node, const char *name)
{
    GbNodeKind t = gb_node_kind(node);
    if (t != GB_NK_EXCEPT_CLAUSE && t != GB_NK_EXCEPT_GROUP_CLAUSE) return false;
    uint32_t c = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < c; i++)
        if (gb_flow__as_binds(src, ts_node_named_child(node, i), name)) return true;
    return false;
}

static bool gb_flow__import_binds(const char *src, TSNode n, const char *name)
{
    if (gb_node_is_kind(n, GB_NK_FUTURE_IMPORT_STATEMENT)) return false;
    bool from = gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT);
    TSNode mod = gb_node_field(n, "module_name");
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (!ts_node_is_null(mod) && ts_node_eq(k, mod)) continue;
        if (gb_node_is_kind(k, GB_NK_ALIASED_IMPORT)) {
            if (gb_node_text_eq(gb_node_field(k, "alias"), src, name)) return true;
        } else if (gb_node_is_kind(k, GB_NK_DOTTED_NAME) && ts_node_named_child_count(k) > 0) {
            TSNode id = from ? ts_node_named_child(k, ts_node_named_child_count(k) - 1) : ts_node_named_child(k, 0);
            if (gb_node_text_eq(id, src, name)) return true;
        }
    }
    return false;
}

/* True when every path through the block that completes normally binds name: some statement
 * of the block binds it (statements run in order, so reaching the end means all ran). */
static bool gb_flow__block_binds(const char *src, TSNode block, const char *name)
{
    if (ts_node_is_null(block)) return false;
    uint32_t c = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < c; i++)
        if (gb_flow_stmt_binds(src, ts_node_named_child(block, i), name)) return true;
    return false;
}

bool gb_flow_stmt_binds(const char *src, TSNode stmt, const char *name)
{
    if (ts_node_is_null(stmt)) return false;
    GbNodeKind t = gb_node_kind(stmt);
    if (t == GB_NK_EXPRESSION_STATEMENT) {
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++) {
            TSNode e = ts_node_named_child(stmt, i);
            if (gb_node_is_kind(e, GB_NK_ASSIGNMENT)) {
                for (TSNode a = e; gb_node_is_kind(a, GB_NK_ASSIGNMENT); a = gb_node_field(a, "right")) {
                    if (ts_node_is_null(gb_node_field(a, "right"))) break; /* `x: T` binds nothing */
                    if (gb_flow__target_binds(src, gb_node_field(a, "left"), name)) return true;
                }
            } else if (gb_node_is_kind(e, GB_NK_AUGMENTED_ASSIGNMENT)) {
                TSNode l = gb_node_field(e, "left");
                if (gb_node_is_kind(l, GB_NK_IDENTIFIER) && gb_node_text_eq(l, src, name)) return true;
            }
        }
        return false;
    }
    if (t == GB_NK_IMPORT_STATEMENT || t == GB_NK_IMPORT_FROM_STATEMENT) return gb_flow__import_binds(src, stmt, name);
    if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION)
        return gb_node_text_eq(gb_node_field(stmt, "name"), src, name);
    if (t == GB_NK_DECORATED_DEFINITION) {
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++) {
            TSNode d = ts_node_named_child(stmt, i);
            if (gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION) || gb_node_is_kind(d, GB_NK_CLASS_DEFINITION))
                return gb_node_text_eq(gb_node_field(d, "name"), src, name);
        }
        return false;
    }
    if (t == GB_NK_WITH_STATEMENT) {
        TSNode clause = {0};
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++)
            if (gb_node_is_kind(ts_node_named_child(stmt, i), GB_NK_WITH_CLAUSE)) clause = ts_node_named_child(stmt, i);
        if (ts_node_is_null(clause)) return false;
        uint32_t k = ts_node_named_child_count(clause);
        for (uint32_t i = 0; i < k; i++) {
            TSNode item = ts_node_named_child(clause, i);
            if (gb_flow__as_binds(src, gb_node_field(item, "value"), name)) return true;
        }
        return false;
    }
    if (t == GB_NK_IF_STATEMENT) {
        if (!gb_flow__block_binds(src, gb_node_field(stmt, "consequence"), name)) return false;
        bool has_else = false;
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(stmt, i);
            if (gb_node_is_kind(k, GB_NK_ELIF_CLAUSE)) {
                if (!gb_flow__block_binds(src, gb_node_field(k, "consequence"), name)) return false;
            } else if (gb_node_is_kind(k, GB_NK_ELSE_CLAUSE)) {
                has_else = true;
                if (!gb_flow__block_binds(src, gb_node_field(k, "body"), name)) return false;
            }
        }
        return has_else;
    }
    if (t == GB_NK_TRY_STATEMENT) {
        uint32_t c = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(stmt, i);
            if (!gb_node_is_kind(k, GB_NK_FINALLY_CLAUSE)) continue;
            uint32_t m = ts_node_named_child_count(k);
            for (uint32_t j = 0; j < m; j++)
                if (gb_node_is_kind(ts_node_named_child(k, j), GB_NK_BLOCK) &&
                    gb_flow__block_binds(src, ts_node_named_child(k, j), name))
                    return true;
        }
        return false;
    }
    return false;
}

static bool gb_flow__is_param(const char *src, TSNode params, const char *name)
{
    if (ts_node_is_null(params)) return false;
    uint32_t c = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < c; i++) {
        TSNode p = ts_node_named_child(params, i);
        GbNodeKind t = gb_node_kind(p);
        TSNode id = {0};
        if (t == GB_NK_IDENTIFIER)
            id = p;
        else if (t == GB_NK_DEFAULT_PARAMETER || t == GB_NK_TYPED_DEFAULT_PARAMETER)
            id = gb_node_field(p, "name");
        else if (t == GB_NK_TYPED_PARAMETER || t == GB_NK_LIST_SPLAT_PATTERN || t == GB_NK_DICTIONARY_SPLAT_PATTERN) {
            uint32_t k = ts_node_named_child_count(p);
            for (uint32_t j = 0; j < k && ts_node_is_null(id); j++) {
                TSNode x = ts_node_named_child(p, j);
                if (gb_node_is_kind(x, GB_NK_IDENTIFIER))
                    id = x;
                else if (gb_node_is_kind(x, GB_NK_LIST_SPLAT_PATTERN) ||
                         gb_node_is_kind(x, GB_NK_DICTIONARY_SPLAT_PATTERN))
                    id = ts_node_named_child(x, 0);
            }
        }
        if (!ts_node_is_null(id) && gb_node_is_kind(id, GB_NK_IDENTIFIER) && gb_node_text_eq(id, src, name))
            return true;
    }
    return false;
}

/* True when code below node (nested scopes included) may unbind name: `del name` or an
 * `except ... as name` clause. Each such statement or clause starts with its keyword, so only
 * the nodes that start where the keyword's text occurs are looked at (a walk of every node ran
 * once per name asked about, and a module's walk is long). */
static bool gb_flow__keyword_unbinds(const char *src, TSNode node, const char *keyword, const char *name)
{
    uint32_t lo = ts_node_start_byte(node), hi = ts_node_end_byte(node);
    size_t k = strlen(keyword);
    for (const char *p = src + lo; p < src + hi; p++) {
        p = memmem(p, (size_t)(src + hi - p), keyword, k);
        if (!p) break;
        uint32_t at = (uint32_t)(p - src);
        for (TSNode n = ts_node_descendant_for_byte_range(node, at, at + (uint32_t)k);
             !ts_node_is_null(n) && ts_node_start_byte(n) == at; n = ts_node_parent(n)) {
            if (gb_node_is_kind(n, GB_NK_DELETE_STATEMENT)) {
                GbNames ids = {0};
                gb_flow_identifiers(n, src, &ids);
                bool hit = gb_names_has(&ids, name);
                gb_names_destroy(&ids);
                if (hit) return true;
            } else if (gb_flow__except_binds(src, n, name)) {
                return true;
            }
            if (ts_node_eq(n, node)) break;
        }
    }
    return false;
}

static bool gb_flow__may_unbind(const char *src, TSNode node, const char *name)
{
    return gb_flow__keyword_unbinds(src, node, "del", name) || gb_flow__keyword_unbinds(src, node, "except", name);
}

/* The statement that owns a block-like node: for a block, its compound statement (through
 * clauses such as else/elif/except/finally). */
static TSNode gb_flow__owner_statement(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        GbNodeKind t = gb_node_kind(p);
        if (t == GB_NK_BLOCK || t == GB_NK_MODULE) {
            TSNode null = {0};
            return null;
        }
        if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION || t == GB_NK_FOR_STATEMENT ||
            t == GB_NK_WHILE_STATEMENT || t == GB_NK_IF_STATEMENT || t == GB_NK_TRY_STATEMENT ||
            t == GB_NK_WITH_STATEMENT || t == GB_NK_MATCH_STATEMENT)
            return p;
    }
    TSNode null = {0};
    return null;
}

/* Whether a statement before cur in its block, starting at floor or later, binds name. The
 * block's statements are walked forward from its first (ts_node_prev_named_sibling walks from
 * the first too, which made a walk backward quadratic in the block's length). */
static bool gb_flow__earlier_binds(const char *src, TSNode cur, const char *name, uint32_t floor)
{
    TSNode parent = ts_node_parent(cur);
    if (ts_node_is_null(parent)) return false;
    TSTreeCursor c = ts_tree_cursor_new(parent);
    bool hit = false;
    if (ts_tree_cursor_goto_first_child(&c)) do {
            TSNode p = ts_tree_cursor_current_node(&c);
            if (ts_node_eq(p, cur) || ts_node_start_byte(p) >= ts_node_start_byte(cur)) break;
            if (!ts_node_is_named(p) || gb_node_is_kind(p, GB_NK_COMMENT) || ts_node_start_byte(p) < floor) continue;
            hit = gb_flow_stmt_binds(src, p, name);
        } while (!hit && ts_tree_cursor_goto_next_sibling(&c));
    ts_tree_cursor_delete(&c);
    return hit;
}

bool gb_flow_bound_before(const char *src, TSNode stmt, const char *name)
{
    TSNode none = {0};
    return gb_flow_bound_before_within(src, stmt, name, none);
}

bool gb_flow_bound_before_within(const char *src, TSNode stmt, const char *name, TSNode limit)
{
    return gb_flow_bound_before_range(src, stmt, name, limit, 0);
}

bool gb_flow_bound_before_range(const char *src, TSNode stmt, const char *name, TSNode limit, uint32_t floor)
{
    /* The code of the scope that runs stmt: the function, or the whole module. */
    TSNode scope_node = {0};
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION) || gb_node_is_kind(p, GB_NK_CLASS_DEFINITION) ||
            gb_node_is_kind(p, GB_NK_MODULE)) {
            scope_node = p;
            break;
        }
    }
    if (ts_node_is_null(scope_node) || gb_node_is_kind(scope_node, GB_NK_CLASS_DEFINITION)) return false;
    if (gb_flow__may_unbind(src, scope_node, name)) return false;

    TSNode cur = stmt;
    for (;;) {
        bool in_limit = !ts_node_is_null(limit) && ts_node_eq(ts_node_parent(cur), limit);
        if (gb_flow__earlier_binds(src, cur, name, in_limit ? floor : 0)) return true;
        TSNode parent = ts_node_parent(cur);
        if (ts_node_is_null(parent) || gb_node_is_kind(parent, GB_NK_MODULE)) return false;
        if (!ts_node_is_null(limit) && ts_node_eq(parent, limit)) return false;
        /* parent is a block: what encloses it? */
        TSNode clause = ts_node_parent(parent);
        if (ts_node_is_null(clause)) return false;
        if (gb_flow__except_binds(src, clause, name)) return true;
        TSNode owner =
            gb_node_is_kind(clause, GB_NK_FUNCTION_DEFINITION) || gb_node_is_kind(clause, GB_NK_CLASS_DEFINITION) ||
                    gb_node_is_kind(clause, GB_NK_FOR_STATEMENT) || gb_node_is_kind(clause, GB_NK_WHILE_STATEMENT) ||
                    gb_node_is_kind(clause, GB_NK_IF_STATEMENT) || gb_node_is_kind(clause, GB_NK_TRY_STATEMENT) ||
                    gb_node_is_kind(clause, GB_NK_WITH_STATEMENT)
                ? clause
                : gb_flow__owner_statement(parent);
        if (ts_node_is_null(owner)) return false;
        if (gb_node_is_kind(owner, GB_NK_FUNCTION_DEFINITION))
            return gb_flow__is_param(src, gb_node_field(owner, "parameters"), name);
        if (gb_node_is_kind(owner, GB_NK_CLASS_DEFINITION)) return false;
        if (gb_node_is_kind(owner, GB_NK_FOR_STATEMENT) && ts_node_eq(gb_node_field(owner, "body"), parent) &&
            gb_flow__target_binds(src, gb_node_field(owner, "left"), name))
            return true;
        if (gb_node_is_kind(owner, GB_NK_WITH_STATEMENT) && gb_flow_stmt_binds(src, owner, name)) return true;
        /* A decorated definition wraps the def: step over it. */
        TSNode up = owner;
        if (gb_node_is_kind(ts_node_parent(up), GB_NK_DECORATED_DEFINITION)) up = ts_node_parent(up);
        cur = up;
    }
}

/* ---- Identifiers ---- */

void gb_flow_identifiers(TSNode node, const char *src, GbNames *out)
{
    TSTreeCursor cur = ts_tree_cursor_new(node);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (gb_node_kind(n) == GB_NK_IDENTIFIER) {
            char *t = gb_node_text(n, src);
            gb_names_add(out, t);
            free(t);
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        for (;;) {
            if (ts_node_eq(ts_tree_cursor_current_node(&cur), node)) {
                ts_tree_cursor_delete(&cur);
                return;
            }
            if (ts_tree_cursor_goto_next_sibling(&cur)) break;
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return;
            }
        }
    }
}

bool gb_flow_mentions_any(TSNode root, const char *src, const char *const *names, size_t n)
{
    GbNames ids = {0};
    gb_flow_identifiers(root, src, &ids);
    bool hit = false;
    for (size_t i = 0; i < n && !hit; i++) hit = gb_names_has(&ids, names[i]);
    gb_names_destroy(&ids);
    return hit;
}

/* ---- Call graph ---- */

static void gb_cg__add(GbCallGraph *g, const char *src, TSNode node, TSNode name, TSNode body)
{
    GbCallNode c;
    memset(&c, 0, sizeof c);
    c.name = gb_node_text(name, src);
    c.start = ts_node_start_byte(node);
    c.end = ts_node_end_byte(node);
    if (!ts_node_is_null(body)) gb_flow_identifiers(body, src, &c.refs);
    gb_array_push(&g->nodes, c);
}

static void gb_cg__walk(GbCallGraph *g, const char *src, TSNode n)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION) {
        TSNode name = gb_node_field(n, "name"), body = gb_node_field(n, "body");
        if (!ts_node_is_null(name)) gb_cg__add(g, src, n, name, body);
    } else if (t == GB_NK_ASSIGNMENT) {
        TSNode l = gb_node_field(n, "left"), r = gb_node_field(n, "right");
        if (gb_node_is_kind(l, GB_NK_IDENTIFIER) && gb_node_is_kind(r, GB_NK_LAMBDA)) gb_cg__add(g, src, n, l, r);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_cg__walk(g, src, ts_node_named_child(n, i));
}

/* Mark every node reachable from the names in refs (breadth first). */
static void gb_cg__reach(const GbCallGraph *g, const GbNames *refs, bool *seen)
{
    size_t n = g->nodes.len;
    size_t *queue = gb_malloc((n ? n : 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (!seen[i] && gb_names_has(refs, g->nodes.items[i].name)) {
            seen[i] = true;
            queue[tail++] = i;
        }
    while (head < tail) {
        const GbCallNode *c = &g->nodes.items[queue[head++]];
        for (size_t i = 0; i < n; i++)
            if (!seen[i] && gb_names_has(&c->refs, g->nodes.items[i].name)) {
                seen[i] = true;
                queue[tail++] = i;
            }
    }
    free(queue);
}

void gb_callgraph_init(GbCallGraph *g, TSNode root, const char *src)
{
    memset(g, 0, sizeof *g);
    gb_cg__walk(g, src, root);
    size_t n = g->nodes.len;
    bool *seen = gb_calloc(n ? n : 1, sizeof *seen);
    for (size_t i = 0; i < n; i++) {
        memset(seen, 0, n * sizeof *seen);
        gb_cg__reach(g, &g->nodes.items[i].refs, seen);
        g->nodes.items[i].recursive = seen[i];
    }
    for (size_t i = 0; i < n; i++) {
        if (!g->nodes.items[i].recursive) continue;
        memset(seen, 0, n * sizeof *seen);
        gb_cg__reach(g, &g->nodes.items[i].refs, seen);
        for (size_t k = 0; k < n; k++)
            if (seen[k]) g->nodes.items[k].reached = true;
    }
    free(seen);
}

void gb_callgraph_destroy(GbCallGraph *g)
{
    if (!g) return;
    for (size_t i = 0; i < g->nodes.len; i++) {
        free(g->nodes.items[i].name);
        gb_names_destroy(&g->nodes.items[i].refs);
    }
    gb_array_free(&g->nodes);
}

bool gb_callgraph_is_recursive_at(const GbCallGraph *g, uint32_t start)
{
    for (size_t i = 0; i < g->nodes.len; i++)
        if (g->nodes.items[i].start == start && g->nodes.items[i].recursive) return true;
    return false;
}

static bool gb_cg__reaches_from(const GbCallGraph *g, const GbNames *refs)
{
    size_t n = g->nodes.len;
    bool *seen = gb_calloc(n ? n : 1, sizeof *seen);
    gb_cg__reach(g, refs, seen);
    bool hit = false;
    for (size_t i = 0; i < n && !hit; i++) hit = seen[i] && g->nodes.items[i].recursive;
    free(seen);
    return hit;
}

bool gb_callgraph_reaches_recursion(const GbCallGraph *g, TSNode code, const char *src)
{
    uint32_t s = ts_node_start_byte(code), e = ts_node_end_byte(code);
    for (size_t i = 0; i < g->nodes.len; i++) {
        const GbCallNode *c = &g->nodes.items[i];
        if (c->recursive && c->start <= s && e <= c->end) return true;
    }
    GbNames refs = {0};
    gb_flow_identifiers(code, src, &refs);
    bool hit = gb_cg__reaches_from(g, &refs);
    gb_names_destroy(&refs);
    return hit;
}

bool gb_callgraph_name_reaches_recursion(const GbCallGraph *g, const char *name)
{
    GbNames refs = {0};
    gb_names_add(&refs, name);
    bool hit = gb_cg__reaches_from(g, &refs);
    gb_names_destroy(&refs);
    return hit;
}

bool gb_callgraph_near_recursion(const GbCallGraph *g, TSNode code, const char *src)
{
    uint32_t s = ts_node_start_byte(code), e = ts_node_end_byte(code);
    for (size_t i = 0; i < g->nodes.len; i++) {
        const GbCallNode *c = &g->nodes.items[i];
        if ((c->recursive || c->reached) && c->start <= s && e <= c->end) return true;
    }
    return gb_callgraph_reaches_recursion(g, code, src);
}

/* ---- Module-level bindings ---- */

size_t gb_flow_global_bindings(const GbScopes *s, const char *src, TSNode root, const char *name, TSNode *stmt)
{
    GbOccurrences occ = {0};
    gb_scopes_occurrences(s, src, root, &occ);
    size_t n = 0;
    size_t len = strlen(name);
    for (size_t i = 0; i < occ.len; i++) {
        const GbOccurrence *o = &occ.items[i];
        if (o->flag == GB_NAME_READ || o->flag == GB_NAME_GLOBAL || o->flag == GB_NAME_NONLOCAL) continue;
        if (o->end - o->start != len || memcmp(src + o->start, name, len) != 0) continue;
        GbResolution r = gb_scopes_resolve(s, o->scope, name, NULL);
        if (r != GB_RESOLVE_GLOBAL && r != GB_RESOLVE_BUILTIN && r != GB_RESOLVE_UNKNOWN) continue;
        n++;
        if (stmt) {
            TSNode id = ts_node_descendant_for_byte_range(root, o->start, o->end);
            TSNode st = id;
            while (!ts_node_is_null(st) && !ts_node_is_null(ts_node_parent(st)) &&
                   !gb_node_is_kind(ts_node_parent(st), GB_NK_BLOCK) &&
                   !gb_node_is_kind(ts_node_parent(st), GB_NK_MODULE))
                st = ts_node_parent(st);
            *stmt = st;
        }
    }
    gb_array_free(&occ);
    return n;
}

bool gb_flow_is_toplevel(TSNode node)
{
    return gb_node_is_kind(ts_node_parent(node), GB_NK_MODULE);
}

TSNode gb_flow_toplevel_of(TSNode node)
{
    TSNode n = node;
    while (!ts_node_is_null(n) && !ts_node_is_null(ts_node_parent(n)) &&
           !gb_node_is_kind(ts_node_parent(n), GB_NK_MODULE))
        n = ts_node_parent(n);
    if (ts_node_is_null(ts_node_parent(n))) {
        TSNode null = {0};
        return null;
    }
    return n;
}

void gb_flow_loop_identifiers(TSNode n, const char *src, GbNames *out)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT || t == GB_NK_LIST_COMPREHENSION ||
        t == GB_NK_SET_COMPREHENSION || t == GB_NK_DICTIONARY_COMPREHENSION || t == GB_NK_GENERATOR_EXPRESSION) {
        gb_flow_identifiers(n, src, out);
        return;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_flow_loop_identifiers(ts_node_named_child(n, i), src, out);
}
