#include "operators/edit.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "operators/harness_policy.h"
#include "src/python/stdlib_modules.h"
#include "src/python/pyparse.h"

/* ---- Edit sets ---- */

void gb_edits_init(GbEditSet *set)
{
    memset(set, 0, sizeof *set);
}

static void gb_edits__clear(GbEditSet *set)
{
    for (size_t i = 0; i < set->edits.len; i++) free(set->edits.items[i].text);
    set->edits.len = 0;
    for (size_t i = 0; i < set->new_modules.len; i++) {
        free(set->new_modules.items[i].path);
        free(set->new_modules.items[i].source);
    }
    set->new_modules.len = 0;
}

void gb_edits_destroy(GbEditSet *set)
{
    if (!set) return;
    gb_edits__clear(set);
    gb_array_free(&set->edits);
    gb_array_free(&set->new_modules);
}

void gb_edits_insert_ordered(GbEditSet *set, size_t module, uint32_t pos, const char *text, int order)
{
    GbEdit e = {module, pos, pos, gb_strdup(text), order, set->edits.len};
    gb_array_push(&set->edits, e);
}

void gb_edits_replace(GbEditSet *set, size_t module, uint32_t start, uint32_t end, const char *text)
{
    assert(start <= end);
    GbEdit e = {module, start, end, gb_strdup(text), 0, set->edits.len};
    gb_array_push(&set->edits, e);
}

void gb_edits_insert(GbEditSet *set, size_t module, uint32_t pos, const char *text)
{
    gb_edits_insert_ordered(set, module, pos, text, 0);
}

void gb_edits_replace_node(GbEditSet *set, size_t module, TSNode node, const char *text)
{
    gb_edits_replace(set, module, ts_node_start_byte(node), ts_node_end_byte(node), text);
}

void gb_edits_new_module(GbEditSet *set, const char *path, const char *source)
{
    GbFile f = {gb_strdup(path), gb_strdup(source)};
    gb_array_push(&set->new_modules, f);
}

/* Ascending by position; insertions before a replacement starting at the same position;
 * then by order and sequence. */
static int gb_edit__cmp(const void *a, const void *b)
{
    const GbEdit *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    bool xi = x->start == x->end, yi = y->start == y->end;
    if (xi != yi) return xi ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return 0;
}

/* Sorted copy of the edits of one module; false when two replacements overlap. */
static bool gb_edits__sorted(const GbEditSet *set, size_t module, GbEdit **out, size_t *n_out)
{
    size_t n = 0;
    for (size_t i = 0; i < set->edits.len; i++) n += set->edits.items[i].module == module;
    GbEdit *v = gb_malloc((n ? n : 1) * sizeof *v);
    n = 0;
    for (size_t i = 0; i < set->edits.len; i++)
        if (set->edits.items[i].module == module) v[n++] = set->edits.items[i];
    if (n > 1) qsort(v, n, sizeof *v, gb_edit__cmp);
    *out = v;
    *n_out = n;
    for (size_t i = 1; i < n; i++)
        if (v[i].start < v[i - 1].end) return false;
    return true;
}

char *gb_text_apply_edits(const char *src, const GbEdit *edits, size_t n)
{
    GbEdit *v = gb_malloc((n ? n : 1) * sizeof *v);
    if (n) memcpy(v, edits, n * sizeof *v);
    if (n > 1) qsort(v, n, sizeof *v, gb_edit__cmp);
    size_t len = strlen(src);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        assert(v[i].start >= at && v[i].end <= len);
        gb_str_append_n(&out, src + at, v[i].start - at);
        gb_str_append(&out, v[i].text);
        at = v[i].end;
    }
    gb_str_append_n(&out, src + at, len - at);
    free(v);
    return gb_str_take(&out);
}

/* Whether module m's source after edits v (n, sorted; the result is src) parses, by a parse
 * of the module's tree with the edits (tree-sitter reparses what they touched only); the tree is
 * kept by gb_parse's cache for the child's later parses. */
static bool gb_edits__parses(GbOpContext *ctx, size_t m, const GbEdit *v, size_t n, const char *src, unsigned *row,
                             unsigned *col)
{
    const char *old = gb_op_ctx_source(ctx, m);
    TSTree *base = gb_op_ctx_tree(ctx, m);
    TSInputEdit *ed = gb_calloc(n ? n : 1, sizeof *ed);
    /* the points (row, byte column) of the edits' ends, in one pass: the edits are sorted
     * (tree-sitter takes what to reuse from the bytes; test_edit checks the tree it gives) */
    uint32_t at = 0;
    TSPoint pt = {0, 0};
    for (size_t i = 0; i < n; i++) {
        for (int end = 0; end < 2; end++) {
            for (uint32_t to = end ? v[i].end : v[i].start; at < to; at++) {
                pt.row += old[at] == '\n';
                pt.column = old[at] == '\n' ? 0 : pt.column + 1;
            }
            *(end ? &ed[i].old_end_point : &ed[i].start_point) = pt;
        }
        const char *text = v[i].text;
        size_t len = strlen(text);
        ed[i].start_byte = v[i].start;
        ed[i].old_end_byte = v[i].end;
        ed[i].new_end_byte = v[i].start + (uint32_t)len;
        TSPoint np = ed[i].start_point;
        for (size_t k = 0; k < len; k++) {
            np.row += text[k] == '\n';
            np.column = text[k] == '\n' ? 0 : np.column + 1;
        }
        ed[i].new_end_point = np;
    }
    TSTree *t = gb_parse_edited(ctx->parser, base, ed, n, src, strlen(src));
    free(ed);
    bool bad = gb_tree_has_error(t, row, col);
    ts_tree_delete(t);
    return !bad;
}

bool gb_edits_commit(GbOpContext *ctx, GbEditSet *set, GbError *err)
{
    GbProgram *p = ctx->prog;
    const char *op = ctx->active_op_ ? ctx->active_op_ : "edit";
    const char *key = ctx->active_key_ ? ctx->active_key_ : "";
    size_t n_mod = p->modules.len;
    char **new_src = gb_calloc(n_mod ? n_mod : 1, sizeof *new_src);
    bool ok = true;

    for (size_t m = 0; ok && m < n_mod; m++) {
        GbEdit *v;
        size_t n;
        if (!gb_edits__sorted(set, m, &v, &n)) {
            gb_error_set(err, "%s at %s: overlapping edits in %s", op, key, p->modules.items[m].path);
            ok = false;
        } else if (n) {
            new_src[m] = gb_text_apply_edits(p->modules.items[m].source, v, n);
            unsigned row, col;
            if (!gb_edits__parses(ctx, m, v, n, new_src[m], &row, &col)) {
                gb_error_set(err, "%s at %s: result does not parse (%s line %u column %u)", op, key,
                             p->modules.items[m].path, row + 1, col + 1);
                ok = false;
            }
        }
        free(v);
    }
    for (size_t i = 0; ok && i < set->new_modules.len; i++) {
        const GbFile *f = &set->new_modules.items[i];
        unsigned row, col;
        if (gb_program_module(p, f->path)) {
            gb_error_set(err, "%s at %s: module %s already exists", op, key, f->path);
            ok = false;
        } else if (!gb_source_parses(ctx->parser, f->source, strlen(f->source), &row, &col)) {
            gb_error_set(err, "%s at %s: new module %s does not parse (line %u column %u)", op, key, f->path, row + 1,
                         col + 1);
            ok = false;
        }
    }
    if (!ok) {
        for (size_t m = 0; m < n_mod; m++) free(new_src[m]);
        free(new_src);
        gb_edits__clear(set);
        return false;
    }

    /* Record the history: the edits of one module are equivalent to applying them one by
     * one from the last position to the first, so they are recorded in that order, each with
     * coordinates valid at its turn (see gb_site_key). */
    for (size_t m = 0; m < n_mod; m++) {
        if (!new_src[m]) continue;
        GbEdit *v;
        size_t n;
        gb_edits__sorted(set, m, &v, &n);
        for (size_t i = n; i-- > 0;)
            gb_program_record(p, op, key, p->modules.items[m].path, v[i].start, v[i].end,
                              v[i].start + strlen(v[i].text));
        free(v);
        gb_program_set_source_take(p, m, new_src[m]);
        gb_op_ctx_invalidate(ctx, m);
    }
    free(new_src);
    if (set->new_modules.len) {
        for (size_t i = 0; i < set->new_modules.len; i++) {
            const GbFile *f = &set->new_modules.items[i];
            gb_program_add_module(p, f->path, f->source);
            gb_program_record(p, op, key, f->path, 0, 0, strlen(f->source));
        }
        /* Module indices may have moved. */
        gb_op_ctx_invalidate_all(ctx);
    }
    ctx->commits_++;
    gb_edits__clear(set);
    return true;
}

/* ---- Statements ---- */

/* Statement kinds: the simple and compound statements of the grammar. */
static bool gb_edit__statement_kind(GbNodeKind k)
{
    switch (k) {
    case GB_NK_ASSERT_STATEMENT:
    case GB_NK_BREAK_STATEMENT:
    case GB_NK_CLASS_DEFINITION:
    case GB_NK_CONTINUE_STATEMENT:
    case GB_NK_DECORATED_DEFINITION:
    case GB_NK_DELETE_STATEMENT:
    case GB_NK_EXEC_STATEMENT:
    case GB_NK_EXPRESSION_STATEMENT:
    case GB_NK_FOR_STATEMENT:
    case GB_NK_FUNCTION_DEFINITION:
    case GB_NK_FUTURE_IMPORT_STATEMENT:
    case GB_NK_GLOBAL_STATEMENT:
    case GB_NK_IF_STATEMENT:
    case GB_NK_IMPORT_FROM_STATEMENT:
    case GB_NK_IMPORT_STATEMENT:
    case GB_NK_MATCH_STATEMENT:
    case GB_NK_NONLOCAL_STATEMENT:
    case GB_NK_PASS_STATEMENT:
    case GB_NK_PRINT_STATEMENT:
    case GB_NK_RAISE_STATEMENT:
    case GB_NK_RETURN_STATEMENT:
    case GB_NK_TRY_STATEMENT:
    case GB_NK_TYPE_ALIAS_STATEMENT:
    case GB_NK_WHILE_STATEMENT:
    case GB_NK_WITH_STATEMENT:
        return true;
    default:
        return false;
    }
}

bool gb_node_is_statement(TSNode node)
{
    GbNodeKind t = gb_node_kind(node);
    if (!gb_edit__statement_kind(t)) return false;
    /* A definition inside a decorated_definition is part of that statement. */
    if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_CLASS_DEFINITION) {
        TSNode parent = ts_node_parent(node);
        if (!ts_node_is_null(parent) && gb_node_kind(parent) == GB_NK_DECORATED_DEFINITION) return false;
    }
    return true;
}

bool gb_node_is_compound(TSNode node)
{
    switch (gb_node_kind(node)) {
    case GB_NK_CLASS_DEFINITION:
    case GB_NK_DECORATED_DEFINITION:
    case GB_NK_FOR_STATEMENT:
    case GB_NK_FUNCTION_DEFINITION:
    case GB_NK_IF_STATEMENT:
    case GB_NK_MATCH_STATEMENT:
    case GB_NK_TRY_STATEMENT:
    case GB_NK_WHILE_STATEMENT:
    case GB_NK_WITH_STATEMENT:
        return true;
    default:
        return false;
    }
}

bool gb_node_is_loop(TSNode node)
{
    if (ts_node_is_null(node)) return false;
    GbNodeKind t = gb_node_kind(node);
    return t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT;
}

bool gb_node_is_scope(TSNode node)
{
    switch (gb_node_kind(node)) {
    case GB_NK_CLASS_DEFINITION:
    case GB_NK_DICTIONARY_COMPREHENSION:
    case GB_NK_FUNCTION_DEFINITION:
    case GB_NK_GENERATOR_EXPRESSION:
    case GB_NK_LAMBDA:
    case GB_NK_LIST_COMPREHENSION:
    case GB_NK_SET_COMPREHENSION:
        return true;
    default:
        return false;
    }
}

TSNode gb_stmt_at(GbOpContext *ctx, size_t module, uint32_t start, uint32_t end)
{
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    TSNode found = {0};
    for (TSNode n = ts_node_descendant_for_byte_range(root, start, end);
         !ts_node_is_null(n) && ts_node_start_byte(n) == start && ts_node_end_byte(n) == end; n = ts_node_parent(n))
        if (gb_node_is_statement(n)) found = n;
    return found;
}

TSNode gb_stmt_enclosing(TSNode node)
{
    for (TSNode n = node; !ts_node_is_null(n); n = ts_node_parent(n))
        if (gb_node_is_statement(n)) return n;
    TSNode null = {0};
    return null;
}

static bool gb_edit__is_comment(TSNode n)
{
    return gb_node_kind(n) == GB_NK_COMMENT;
}

bool gb_stmt_is_docstring(TSNode stmt)
{
    if (gb_node_kind(stmt) != GB_NK_EXPRESSION_STATEMENT) return false;
    if (ts_node_named_child_count(stmt) != 1) return false;
    TSNode e = ts_node_named_child(stmt, 0);
    GbNodeKind t = gb_node_kind(e);
    if (t != GB_NK_STRING && t != GB_NK_CONCATENATED_STRING) return false;
    TSNode parent = ts_node_parent(stmt);
    if (ts_node_is_null(parent)) return false;
    GbNodeKind pt = gb_node_kind(parent);
    if (pt == GB_NK_BLOCK) {
        TSNode owner = ts_node_parent(parent);
        if (ts_node_is_null(owner)) return false;
        GbNodeKind ot = gb_node_kind(owner);
        if (ot != GB_NK_FUNCTION_DEFINITION && ot != GB_NK_CLASS_DEFINITION) return false;
    } else if (pt != GB_NK_MODULE) {
        return false;
    }
    return ts_node_is_null(gb_stmt_prev(stmt));
}

bool gb_stmt_owns_lines(const char *src, TSNode stmt)
{
    uint32_t s = ts_node_start_byte(stmt), e = ts_node_end_byte(stmt);
    for (uint32_t i = gb_line_start(src, s); i < s; i++)
        if (src[i] != ' ' && src[i] != '\t' && src[i] != '\f') return false;
    /* After the statement: spaces, then a comment or the end of the line. A `;` (joined
     * statement) or anything else means the line is shared. */
    uint32_t i = e;
    while (src[i] == ' ' || src[i] == '\t' || src[i] == '\f') i++;
    if (src[i] == ';') {
        i++;
        while (src[i] == ' ' || src[i] == '\t') i++;
        if (src[i] != '\n' && src[i] != '\r' && src[i] != '#' && src[i] != '\0') return false;
    }
    return src[i] == '\n' || src[i] == '\r' || src[i] == '#' || src[i] == '\0';
}

bool gb_block_statements(TSNode block, TSNode *first, TSNode *last)
{
    bool any = false;
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(block, i);
        if (!gb_node_is_statement(c)) continue;
        if (!any) *first = c;
        *last = c;
        any = true;
    }
    return any;
}

/* The next (forward) or previous statement sibling, stepping over comments only. */
static TSNode gb_edit__stmt_step(TSNode stmt, bool forward)
{
    TSNode n = stmt;
    for (;;) {
        n = forward ? ts_node_next_named_sibling(n) : ts_node_prev_named_sibling(n);
        if (ts_node_is_null(n) || gb_node_is_statement(n)) return n;
        if (!gb_edit__is_comment(n)) return (TSNode){0};
    }
}

TSNode gb_stmt_next(TSNode stmt)
{
    return gb_edit__stmt_step(stmt, true);
}

TSNode gb_stmt_prev(TSNode stmt)
{
    return gb_edit__stmt_step(stmt, false);
}

void gb_stmts_collect(TSNode root, GbNodes *out)
{
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (gb_node_is_statement(n)) gb_array_push(out, n);
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return;
            }
        }
    }
}

bool gb_stmts_own_lines(const char *src, TSNode first, TSNode last)
{
    uint32_t s = ts_node_start_byte(first), e = ts_node_end_byte(last);
    for (uint32_t i = gb_line_start(src, s); i < s; i++)
        if (src[i] != ' ' && src[i] != '\t' && src[i] != '\f') return false;
    uint32_t i = e;
    while (src[i] == ' ' || src[i] == '\t' || src[i] == '\f' || src[i] == ';') i++;
    return src[i] == '\n' || src[i] == '\r' || src[i] == '#' || src[i] == '\0';
}

bool gb_stmt_wrappable(GbOpContext *ctx, size_t module, TSNode stmt, unsigned refuse_fx)
{
    if (!gb_op_ctx_module_ok(ctx, module) || !gb_node_is_statement(stmt)) return false;
    switch (gb_node_kind(stmt)) {
    case GB_NK_FUTURE_IMPORT_STATEMENT:
    case GB_NK_GLOBAL_STATEMENT:
    case GB_NK_NONLOCAL_STATEMENT:
    case GB_NK_FUNCTION_DEFINITION:
    case GB_NK_CLASS_DEFINITION:
    case GB_NK_DECORATED_DEFINITION:
        return false;
    default:
        break;
    }
    const char *src = gb_op_ctx_source(ctx, module);
    if (!gb_stmt_owns_lines(src, stmt) || gb_stmt_is_docstring(stmt)) return false;
    if (module == 0 && ctx->task && ts_node_start_byte(stmt) < gb_harness_rewritten_head(ctx->task->harness, src))
        return false;
    TSNode parent = ts_node_parent(stmt);
    if (ts_node_is_null(parent)) return false;
    GbNodeKind pt = gb_node_kind(parent);
    if (pt != GB_NK_BLOCK && pt != GB_NK_MODULE) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(stmt));
    if (sc->scopes.items[scope].kind == GB_SCOPE_CLASS || sc->scopes.items[scope].dynamic) return false;
    /* New module-level names would show in globals() of any function that asks. */
    if (scope == 0)
        for (size_t i = 0; i < sc->scopes.len; i++)
            if (sc->scopes.items[i].dynamic) return false;
    if (refuse_fx) {
        GbEffects fx;
        gb_effects_init(&fx);
        gb_scopes_effects(sc, src, stmt, &fx);
        bool bad = (fx.flags & refuse_fx) != 0;
        gb_effects_destroy(&fx);
        if (bad) return false;
    }
    return true;
}

/* ---- Text ---- */

uint32_t gb_module_code_start(GbOpContext *ctx, size_t module)
{
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (!gb_node_is_statement(c)) continue;
        GbNodeKind t = gb_node_kind(c);
        if (gb_stmt_is_docstring(c) || t == GB_NK_FUTURE_IMPORT_STATEMENT || t == GB_NK_IMPORT_STATEMENT ||
            t == GB_NK_IMPORT_FROM_STATEMENT)
            continue;
        return gb_line_start(src, ts_node_start_byte(c));
    }
    return (uint32_t)strlen(src);
}

bool gb_edit_node_is_snippet(GbOpContext *ctx, size_t module, TSNode node, const char *snippet)
{
    const char *src = gb_op_ctx_source(ctx, module);
    char *unit = gb_indent_unit(src, ts_tree_root_node(gb_op_ctx_tree(ctx, module)));
    char *text = gb_edit_format(snippet, "", unit, true);
    size_t tl = strlen(text);
    if (tl && text[tl - 1] == '\n') text[--tl] = '\0';
    uint32_t ds = ts_node_start_byte(node), de = ts_node_end_byte(node);
    bool same = tl == (size_t)(de - ds) && memcmp(src + ds, text, tl) == 0;
    free(text);
    free(unit);
    return same;
}

uint32_t gb_line_start(const char *src, uint32_t pos)
{
    while (pos > 0 && src[pos - 1] != '\n') pos--;
    return pos;
}

uint32_t gb_line_end(const char *src, size_t len, uint32_t pos)
{
    while (pos < len && src[pos] != '\n') pos++;
    return pos < len ? pos + 1 : pos;
}

char *gb_line_indent(const char *src, uint32_t pos)
{
    uint32_t s = gb_line_start(src, pos), e = s;
    while (src[e] == ' ' || src[e] == '\t') e++;
    return gb_strndup(src + s, e - s);
}

static bool gb_edit__first_block(TSNode node, TSNode *out)
{
    if (gb_node_kind(node) == GB_NK_BLOCK && ts_node_named_child_count(node) > 0) {
        *out = node;
        return true;
    }
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (gb_edit__first_block(ts_node_named_child(node, i), out)) return true;
    return false;
}

char *gb_indent_unit(const char *src, TSNode root)
{
    TSNode block;
    if (!gb_edit__first_block(root, &block)) return gb_strdup("    ");
    TSNode owner = ts_node_parent(block);
    uint32_t bs = ts_node_start_byte(block);
    /* A body on the header's line (`if x: y`) says nothing about indentation. */
    if (gb_line_start(src, bs) == gb_line_start(src, ts_node_start_byte(owner))) {
        /* Look further: find the next block that starts on its own line. */
        TSTreeCursor cur = ts_tree_cursor_new(root);
        char *res = NULL;
        for (;;) {
            TSNode n = ts_tree_cursor_current_node(&cur);
            if (!res && gb_node_kind(n) == GB_NK_BLOCK && ts_node_named_child_count(n) > 0) {
                TSNode o = ts_node_parent(n);
                uint32_t s = ts_node_start_byte(n);
                if (gb_line_start(src, s) != gb_line_start(src, ts_node_start_byte(o))) {
                    char *inner = gb_line_indent(src, s), *outer = gb_line_indent(src, ts_node_start_byte(o));
                    size_t li = strlen(inner), lo = strlen(outer);
                    if (li > lo && strncmp(inner, outer, lo) == 0) res = gb_strdup(inner + lo);
                    free(inner);
                    free(outer);
                }
            }
            if (res) break;
            if (ts_tree_cursor_goto_first_child(&cur)) continue;
            bool done = false;
            while (!ts_tree_cursor_goto_next_sibling(&cur))
                if (!ts_tree_cursor_goto_parent(&cur)) {
                    done = true;
                    break;
                }
            if (done) break;
        }
        ts_tree_cursor_delete(&cur);
        return res ? res : gb_strdup("    ");
    }
    char *inner = gb_line_indent(src, bs), *outer = gb_line_indent(src, ts_node_start_byte(owner));
    size_t li = strlen(inner), lo = strlen(outer);
    char *res = (li > lo && strncmp(inner, outer, lo) == 0) ? gb_strdup(inner + lo) : gb_strdup("    ");
    free(inner);
    free(outer);
    if (res[0] == '\t') {
        free(res);
        res = gb_strdup("\t");
    }
    return res;
}

char *gb_edit_format(const char *snippet, const char *indent, const char *unit, bool first_too)
{
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    const char *p = snippet;
    bool first = true;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 0) {
            if (!first || first_too) gb_str_append(&out, indent);
            size_t k = 0;
            while (k + 4 <= len && strncmp(p + k, "    ", 4) == 0) {
                gb_str_append(&out, unit);
                k += 4;
            }
            gb_str_append_n(&out, p + k, len - k);
        }
        if (nl) gb_str_append(&out, "\n");
        first = false;
        p += len + (nl ? 1 : 0);
    }
    return gb_str_take(&out);
}

/* ---- Statement-level edits ---- */

static char *gb_edit__unit(GbOpContext *ctx, size_t module)
{
    return gb_indent_unit(gb_op_ctx_source(ctx, module), ts_tree_root_node(gb_op_ctx_tree(ctx, module)));
}

/* snippet with a guaranteed trailing newline */
static char *gb_edit__with_newline(const char *snippet)
{
    size_t n = strlen(snippet);
    if (n && snippet[n - 1] == '\n') return gb_strdup(snippet);
    return gb_asprintf("%s\n", snippet);
}

void gb_edits_insert_before(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode stmt, const char *snippet)
{
    const char *src = gb_op_ctx_source(ctx, module);
    uint32_t s = ts_node_start_byte(stmt);
    char *indent = gb_line_indent(src, s), *unit = gb_edit__unit(ctx, module);
    char *snip = gb_edit__with_newline(snippet);
    char *text = gb_edit_format(snip, indent, unit, true);
    gb_edits_insert(set, module, gb_line_start(src, s), text);
    free(text);
    free(snip);
    free(indent);
    free(unit);
}

void gb_edits_insert_after(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode stmt, const char *snippet)
{
    const char *src = gb_op_ctx_source(ctx, module);
    size_t len = strlen(src);
    uint32_t pos = gb_line_end(src, len, ts_node_end_byte(stmt));
    char *indent = gb_line_indent(src, ts_node_start_byte(stmt)), *unit = gb_edit__unit(ctx, module);
    char *snip = gb_edit__with_newline(snippet);
    char *body = gb_edit_format(snip, indent, unit, true);
    char *text = (pos == len && len && src[len - 1] != '\n') ? gb_asprintf("\n%s", body) : gb_strdup(body);
    gb_edits_insert(set, module, pos, text);
    free(text);
    free(body);
    free(snip);
    free(indent);
    free(unit);
}

/* Collect [start, end) ranges of string nodes that span several lines within [lo, hi). */
typedef GbArray(uint32_t) GbU32s;
static void gb_edit__multiline_strings(TSNode node, uint32_t lo, uint32_t hi, const char *src, GbU32s *out)
{
    uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
    if (e <= lo || s >= hi) return;
    GbNodeKind t = gb_node_kind(node);
    if (t == GB_NK_STRING) {
        if (memchr(src + s, '\n', e - s)) {
            gb_array_push(out, s);
            gb_array_push(out, e);
        }
        return;
    }
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; i++) gb_edit__multiline_strings(ts_node_child(node, i), lo, hi, src, out);
}

void gb_edits_wrap(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode first, TSNode last, const char *header,
                   const char *footer)
{
    const char *src = gb_op_ctx_source(ctx, module);
    size_t len = strlen(src);
    uint32_t s = ts_node_start_byte(first), e = ts_node_end_byte(last);
    uint32_t ls = gb_line_start(src, s);
    char *indent = gb_line_indent(src, s), *unit = gb_edit__unit(ctx, module);

    char *hsnip = gb_edit__with_newline(header);
    char *htext = gb_edit_format(hsnip, indent, unit, true);
    gb_edits_insert(set, module, ls, htext);
    free(htext);
    free(hsnip);

    GbU32s strings = {0};
    gb_edit__multiline_strings(ts_tree_root_node(gb_op_ctx_tree(ctx, module)), s, e, src, &strings);
    /* Indent every line from the first statement's line to the last statement's last line. */
    for (uint32_t pos = ls; pos < e;) {
        bool in_string = false;
        for (size_t k = 0; k < strings.len; k += 2)
            if (pos > strings.items[k] && pos < strings.items[k + 1]) in_string = true;
        uint32_t q = pos;
        while (q < len && (src[q] == ' ' || src[q] == '\t')) q++;
        bool blank = q >= len || src[q] == '\n' || src[q] == '\r';
        if (!in_string && !blank) gb_edits_insert(set, module, pos, unit);
        uint32_t next = gb_line_end(src, len, pos);
        if (next == pos) break;
        pos = next;
    }
    gb_array_free(&strings);

    if (footer) {
        uint32_t after = gb_line_end(src, len, e);
        char *fsnip = gb_edit__with_newline(footer);
        char *body = gb_edit_format(fsnip, indent, unit, true);
        char *text = (after == len && len && src[len - 1] != '\n') ? gb_asprintf("\n%s", body) : gb_strdup(body);
        gb_edits_insert_ordered(set, module, after, text, 1);
        free(text);
        free(body);
        free(fsnip);
    }
    free(indent);
    free(unit);
}

bool gb_edits_wrap_commit(GbOpContext *ctx, size_t module, TSNode first, TSNode last, const char *header,
                          const char *footer, GbError *err)
{
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_wrap(ctx, &set, module, first, last, header, footer);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    return ok;
}

/* ---- Imports ---- */

/* Does the top-level statement `stmt` bind `bound` to exactly module_name[.attr]? */
static bool gb_edit__import_matches(TSNode stmt, const char *src, const char *module_name, const char *attr,
                                    const char *bound)
{
    GbNodeKind t = gb_node_kind(stmt);
    if (!attr && t == GB_NK_IMPORT_STATEMENT) {
        uint32_t n = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < n; i++) {
            TSNode c = ts_node_named_child(stmt, i);
            if (gb_node_kind(c) == GB_NK_DOTTED_NAME) {
                if (gb_node_text_eq(c, src, module_name) && strcmp(module_name, bound) == 0) return true;
            } else if (gb_node_kind(c) == GB_NK_ALIASED_IMPORT) {
                TSNode name = ts_node_child_by_field_name(c, "name", 4);
                TSNode alias = ts_node_child_by_field_name(c, "alias", 5);
                if (gb_node_text_eq(name, src, module_name) && gb_node_text_eq(alias, src, bound)) return true;
            }
        }
    } else if (attr && t == GB_NK_IMPORT_FROM_STATEMENT) {
        TSNode mod = ts_node_child_by_field_name(stmt, "module_name", 11);
        if (ts_node_is_null(mod) || !gb_node_text_eq(mod, src, module_name)) return false;
        uint32_t n = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < n; i++) {
            TSNode c = ts_node_named_child(stmt, i);
            if (ts_node_eq(c, mod)) continue;
            if (gb_node_kind(c) == GB_NK_DOTTED_NAME) {
                if (gb_node_text_eq(c, src, attr) && strcmp(attr, bound) == 0) return true;
            } else if (gb_node_kind(c) == GB_NK_ALIASED_IMPORT) {
                TSNode name = ts_node_child_by_field_name(c, "name", 4);
                TSNode alias = ts_node_child_by_field_name(c, "alias", 5);
                if (gb_node_text_eq(name, src, attr) && gb_node_text_eq(alias, src, bound)) return true;
            }
        }
    }
    return false;
}

/* Number of bindings of `name` anywhere in the module other than imports matching ours. */
static bool gb_edit__bound_only_by_import(GbOpContext *ctx, size_t module, const char *name)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    for (size_t i = 0; i < sc->scopes.len; i++) {
        const GbScopeName *n = gb_scope_name(&sc->scopes.items[i], name);
        if (!n) continue;
        if (i == 0 && (n->flags & GB_NAME_BINDS) == GB_NAME_IMPORT) continue;
        if (n->flags & (GB_NAME_BINDS | GB_NAME_GLOBAL | GB_NAME_NONLOCAL)) return false;
    }
    return !sc->scopes.items[0].star_import;
}

/* pylint's import groups: 0 standard library, 1 third party, 2 the program's own modules. */
static int gb_edit__import_rank(GbOpContext *ctx, const char *name, size_t len)
{
    size_t top = 0;
    while (top < len && name[top] != '.') top++;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        const char *path = ctx->prog->modules.items[m].path;
        if (strncmp(path, name, top) == 0 && (strcmp(path + top, ".py") == 0 || path[top] == '/')) return 2;
    }
    return gb_stdlib_module(name, top) ? 0 : 1;
}

char *gb_edits_add_import(GbOpContext *ctx, GbEditSet *set, size_t module, const char *module_name, const char *attr,
                          const char *preferred)
{
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    char *want = NULL;
    if (preferred)
        want = gb_strdup(preferred);
    else if (attr)
        want = gb_strdup(attr);
    else {
        want = gb_strdup(module_name);
        for (char *c = want; *c; c++)
            if (*c == '.') *c = '_';
    }
    /* Reuse an identical top-level import whose name nothing else rebinds. */
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (gb_edit__import_matches(c, src, module_name, attr, want) &&
            gb_edit__bound_only_by_import(ctx, module, want))
            return want;
    }
    char *name = gb_op_ctx_fresh_name(ctx, want);
    GbStr stmt;
    gb_str_init(&stmt);
    bool plain = attr ? strcmp(name, attr) == 0 : strcmp(name, module_name) == 0;
    if (attr)
        gb_str_appendf(&stmt, "from %s import %s", module_name, attr);
    else
        gb_str_appendf(&stmt, "import %s", module_name);
    if (!plain) gb_str_appendf(&stmt, " as %s", name);
    gb_str_append(&stmt, "\n");

    /* Position: after the docstring and __future__ imports, in the leading import block where
     * pylint expects it (standard library, then third party, then the program's own modules;
     * next to imports of the same package), before any other statement. */
    TSNode anchor = {0};
    TSNode last_header = {0};
    uint32_t i = 0;
    for (; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (!gb_node_is_statement(c)) continue;
        if (gb_stmt_is_docstring(c) || gb_node_kind(c) == GB_NK_FUTURE_IMPORT_STATEMENT) {
            last_header = c;
            continue;
        }
        anchor = c;
        break;
    }
    int rank = gb_edit__import_rank(ctx, module_name, strlen(module_name));
    TSNode after = {0}, same = {0};
    for (; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (gb_node_kind(c) == GB_NK_COMMENT) continue;
        GbNodeKind t = gb_node_kind(c);
        if (t != GB_NK_IMPORT_STATEMENT && t != GB_NK_IMPORT_FROM_STATEMENT) break;
        if (!gb_stmt_owns_lines(src, c)) break;
        TSNode first = t == GB_NK_IMPORT_FROM_STATEMENT ? ts_node_child_by_field_name(c, "module_name", 11)
                                                        : ts_node_named_child(c, 0);
        if (gb_node_kind(first) == GB_NK_ALIASED_IMPORT) first = ts_node_child_by_field_name(first, "name", 4);
        int r = 2; /* relative imports: the program's own */
        bool same_pkg = false;
        if (gb_node_kind(first) == GB_NK_DOTTED_NAME) {
            uint32_t fs = ts_node_start_byte(first), fe = ts_node_end_byte(first);
            r = gb_edit__import_rank(ctx, src + fs, fe - fs);
            size_t top_new = strcspn(module_name, "."), top_old = strcspn(src + fs, ".");
            if (top_old > fe - fs) top_old = fe - fs;
            same_pkg = top_new == top_old && strncmp(module_name, src + fs, top_new) == 0;
        }
        if (same_pkg) same = c;
        if (r <= rank) after = c;
    }
    if (!ts_node_is_null(same)) after = same;
    size_t len = strlen(src);
    if (!ts_node_is_null(after)) {
        uint32_t pos = gb_line_end(src, len, ts_node_end_byte(after));
        char *text =
            (pos == len && len && src[len - 1] != '\n') ? gb_asprintf("\n%s", stmt.data) : gb_strdup(stmt.data);
        gb_edits_insert_ordered(set, module, pos, text, -1);
        free(text);
    } else if (!ts_node_is_null(anchor) && ts_node_is_null(last_header)) {
        gb_edits_insert_ordered(set, module, gb_line_start(src, ts_node_start_byte(anchor)), stmt.data, -1);
    } else if (!ts_node_is_null(last_header)) {
        /* Right after the docstring / __future__ imports, so the blank lines and comments that
         * separate them from the code stay where they are. */
        uint32_t pos = gb_line_end(src, len, ts_node_end_byte(last_header));
        char *text =
            (pos == len && len && src[len - 1] != '\n') ? gb_asprintf("\n%s", stmt.data) : gb_strdup(stmt.data);
        gb_edits_insert_ordered(set, module, pos, text, -1);
        free(text);
    } else {
        char *text = (len && src[len - 1] != '\n') ? gb_asprintf("\n%s", stmt.data) : gb_strdup(stmt.data);
        gb_edits_insert_ordered(set, module, (uint32_t)len, text, -1);
        free(text);
    }
    gb_str_destroy(&stmt);
    free(want);
    return name;
}

void gb_wrappable_sites(GbOpContext *ctx, GbSiteList *out, unsigned refuse_fx)
{
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbNodes stmts = {0};
        gb_stmts_collect(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), &stmts);
        for (size_t i = 0; i < stmts.len; i++)
            if (gb_stmt_wrappable(ctx, m, stmts.items[i], refuse_fx))
                gb_site_add(ctx, out, m, stmts.items[i], NULL, 0, NULL);
        gb_array_free(&stmts);
    }
}

TSNode gb_wrappable_site_stmt(GbOpContext *ctx, const GbSite *site, unsigned refuse_fx, const char *op, GbError *err)
{
    TSNode stmt = gb_stmt_at(ctx, site->module, site->start, site->end);
    if (ts_node_is_null(stmt) || !gb_stmt_wrappable(ctx, site->module, stmt, refuse_fx)) {
        gb_error_set(err, "%s: site %s is not a wrappable statement", op, site->key);
        return (TSNode){0};
    }
    return stmt;
}
