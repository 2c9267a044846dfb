/* CodeBLEU's dataflow match: a port of the package's DFG_python and get_data_flow. */
#include "src/measure/codebleu_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* Open-addressing map from uint64 keys to uint32 values. */
typedef struct {
    uint64_t *keys;
    uint32_t *vals;
    unsigned char *used;
    size_t cap, len;
} CbMap;

static void cb__map_init(CbMap *m, size_t expect)
{
    size_t cap = 16;
    while (cap < expect * 2) cap *= 2;
    m->keys = gb_malloc(cap * sizeof *m->keys);
    m->vals = gb_malloc(cap * sizeof *m->vals);
    m->used = gb_calloc(cap, 1);
    m->cap = cap;
    m->len = 0;
}

static void cb__map_destroy(CbMap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
}

static uint32_t *cb__map_slot(CbMap *m, uint64_t key, bool *found);

static void cb__map_grow(CbMap *m)
{
    CbMap n;
    cb__map_init(&n, m->cap);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        bool f;
        *cb__map_slot(&n, m->keys[i], &f) = m->vals[i];
    }
    cb__map_destroy(m);
    *m = n;
}

/* The value slot of key, inserting it (value unset) when absent. */
static uint32_t *cb__map_slot(CbMap *m, uint64_t key, bool *found)
{
    if ((m->len + 1) * 2 > m->cap) cb__map_grow(m);
    size_t i = cb__mix(key) & (m->cap - 1);
    while (m->used[i]) {
        if (m->keys[i] == key) {
            *found = true;
            return &m->vals[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->len++;
    *found = false;
    return &m->vals[i];
}

static const uint32_t *cb__map_get(const CbMap *m, uint64_t key)
{
    size_t i = cb__mix(key) & (m->cap - 1);
    while (m->used[i]) {
        if (m->keys[i] == key) return &m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* Python's default recursion limit is 1000 frames; DFG_python recurses once per tree level
 * and a RecursionError is caught by get_data_flow (empty graph). The package's own frames
 * below it take a few; the exact limit depends on the caller's stack. */
#define CB_PY_DEPTH_LIMIT 990
/* Work budget in node visits: the package walks every for/while body twice, so nested loops
 * cost 2^depth; beyond this we give up as if the package had failed. */
#define CB_DFG_BUDGET 4000000L

enum { CB_COMES_FROM = 0, CB_COMPUTED_FROM = 1 };

/* A leaf of tree_to_token_index: position key, interned text, token index. */
typedef struct {
    uint32_t code; /* interned text id */
    uint32_t idx;  /* token index */
} CbLeaf;

typedef GbArray(const CbLeaf *) CbLeafVec;
typedef GbArray(uint32_t) CbU32Vec;

/* An immutable sorted list of token indices (a `states` value). */
typedef struct {
    uint32_t n;
    uint32_t v[];
} CbList;

typedef struct {
    uint32_t code, idx;
    uint8_t rel;
    uint32_t names_off, names_n; /* parent texts (code ids) in the names pool */
    uint32_t idxs_off, idxs_n;   /* parent token indices in the idxs pool */
} CbEdge;

typedef struct {
    GbArray(const char *) line_ptr; /* code.split("\n") */
    GbArray(size_t) line_len;
    GbArray(bool) line_ascii; /* byte columns are code-point columns */
    CbMap pos2leaf;           /* (start_byte, end_byte) -> leaf index (last one wins) */
    GbArray(CbLeaf) leaves;
    CbMap text2code;           /* text hash -> code id */
    GbArray(char *) code_text; /* code id -> text (owned) */
    GbArray(CbList *) lists;   /* every allocated state list (owned) */
    CbList **single;           /* per token index: the list [idx] (owned via lists) */
    GbArray(CbEdge) edges;
    GbArray(uint32_t) names;
    GbArray(uint32_t) idxs;
    long visits;
    bool abort;
} CbDfg;

static uint64_t cb__pos_key(TSNode n)
{
    return ((uint64_t)ts_node_start_byte(n) << 32) | ts_node_end_byte(n);
}

static bool cb__is_leaf(TSNode n, const char *type)
{
    return (ts_node_child_count(n) == 0 || strcmp(type, "string_literal") == 0 || strcmp(type, "string") == 0 ||
            strcmp(type, "character_literal") == 0) &&
           strcmp(type, "comment") != 0;
}

/* index_to_code_token: the package slices Python str lines with tree-sitter's *byte*
 * columns, so on non-ASCII lines the text is taken by code-point index. Lines of a
 * multi-line token are joined without their newlines. */
static void cb__slice_cp(const char *line, size_t len, bool ascii, long a, long b, const char **out, size_t *out_len)
{
    if (ascii) {
        size_t ia = a < 0 ? 0 : (size_t)a > len ? len : (size_t)a, ib = b < 0 ? 0 : (size_t)b > len ? len : (size_t)b;
        if (ib < ia) ib = ia;
        *out = line + ia;
        *out_len = ib - ia;
        return;
    }
    size_t ncp = (size_t)cb__cp(line, len);
    size_t ia = a < 0 ? 0 : (size_t)a, ib = b < 0 ? 0 : (size_t)b;
    if (ia > ncp) ia = ncp;
    if (ib > ncp) ib = ncp;
    if (ib < ia) ib = ia;
    /* byte offset of code point k */
    size_t off = 0, cp = 0, boff_a = len, boff_b = len;
    for (off = 0; off <= len; off++) {
        if (off == len || ((unsigned char)line[off] & 0xC0) != 0x80) {
            if (cp == ia) boff_a = off;
            if (cp == ib) {
                boff_b = off;
                break;
            }
            cp++;
        }
    }
    if (boff_a > boff_b) boff_a = boff_b;
    *out = line + boff_a;
    *out_len = boff_b - boff_a;
}

static void cb__token_text(const CbDfg *g, TSNode n, GbStr *s)
{
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    gb_str_clear(s);
    gb_str_append(s, "");
    size_t nl = g->line_ptr.len;
    const char *p;
    size_t plen;
    if (a.row == b.row) {
        if (a.row < nl) {
            cb__slice_cp(g->line_ptr.items[a.row], g->line_len.items[a.row], g->line_ascii.items[a.row], a.column,
                         b.column, &p, &plen);
            gb_str_append_n(s, p, plen);
        }
        return;
    }
    if (a.row < nl) {
        cb__slice_cp(g->line_ptr.items[a.row], g->line_len.items[a.row], g->line_ascii.items[a.row], a.column, 1L << 40,
                     &p, &plen);
        gb_str_append_n(s, p, plen);
    }
    for (uint32_t r = a.row + 1; r < b.row && r < nl; r++)
        gb_str_append_n(s, g->line_ptr.items[r], g->line_len.items[r]);
    if (b.row < nl) {
        cb__slice_cp(g->line_ptr.items[b.row], g->line_len.items[b.row], g->line_ascii.items[b.row], 0, b.column, &p,
                     &plen);
        gb_str_append_n(s, p, plen);
    }
}

static uint32_t cb__intern(CbDfg *g, const char *text, size_t len)
{
    uint64_t h = gb_hash64(text, len, 0x636f6465ULL);
    bool found;
    uint32_t *slot = cb__map_slot(&g->text2code, h, &found);
    if (!found) {
        *slot = (uint32_t)g->code_text.len;
        gb_array_push(&g->code_text, gb_strndup(text, len));
    }
    return *slot;
}

/* tree_to_token_index, iterative (depth is checked separately). */
static void cb__collect_leaves(CbDfg *g, TSNode root, GbStr *tmp)
{
    GbArray(TSNode) stack = {0};
    gb_array_push(&stack, root);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        const char *type = ts_node_type(n);
        if (cb__is_leaf(n, type)) {
            cb__token_text(g, n, tmp);
            CbLeaf leaf = {cb__intern(g, tmp->data, tmp->len), (uint32_t)g->leaves.len};
            bool found;
            *cb__map_slot(&g->pos2leaf, cb__pos_key(n), &found) = (uint32_t)g->leaves.len;
            gb_array_push(&g->leaves, leaf);
            continue;
        }
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = c; i > 0; i--) gb_array_push(&stack, ts_node_child(n, i - 1));
    }
    gb_array_free(&stack);
}

static const CbLeaf *cb__leaf(const CbDfg *g, TSNode n)
{
    const uint32_t *i = cb__map_get(&g->pos2leaf, cb__pos_key(n));
    return i ? &g->leaves.items[*i] : NULL;
}

static bool cb__type_is_text(const CbDfg *g, TSNode n, const CbLeaf *l)
{
    return strcmp(ts_node_type(n), g->code_text.items[l->code]) == 0;
}

/* tree_to_variable_index: leaves under n whose text differs from their node type. */
static void cb__var_leaves(const CbDfg *g, TSNode n, CbLeafVec *out)
{
    const char *type = ts_node_type(n);
    if (cb__is_leaf(n, type)) {
        const CbLeaf *l = cb__leaf(g, n);
        if (l && !cb__type_is_text(g, n, l)) gb_array_push(out, l);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) cb__var_leaves(g, ts_node_child(n, i), out);
}

static CbList *cb__list_new(CbDfg *g, uint32_t n)
{
    CbList *l = gb_malloc(sizeof *l + n * sizeof l->v[0]);
    l->n = n;
    gb_array_push(&g->lists, l);
    return l;
}

static void cb__emit(CbDfg *g, uint32_t code, uint32_t idx, uint8_t rel, const uint32_t *names, uint32_t nn,
                     const uint32_t *idxs, uint32_t ni)
{
    CbEdge e = {code, idx, rel, (uint32_t)g->names.len, nn, (uint32_t)g->idxs.len, ni};
    for (uint32_t i = 0; i < nn; i++) gb_array_push(&g->names, names[i]);
    for (uint32_t i = 0; i < ni; i++) gb_array_push(&g->idxs, idxs[i]);
    gb_array_push(&g->edges, e);
}

typedef CbList **CbStates; /* code id -> list or NULL; size = number of code ids */

static CbStates cb__states_clone(const CbDfg *g, CbStates st)
{
    CbStates c = gb_malloc((g->code_text.len ? g->code_text.len : 1) * sizeof *c);
    memcpy(c, st, g->code_text.len * sizeof *c);
    return c;
}

static int cb__cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Stable sort of edges [from, edges.len) by token index (insertion sort on runs is too slow
 * for big ranges: merge sort through a buffer). */
static void cb__sort_edges(CbDfg *g, size_t from)
{
    size_t n = g->edges.len - from;
    if (n < 2) return;
    CbEdge *a = g->edges.items + from;
    CbEdge *buf = gb_malloc(n * sizeof *buf);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) buf[k++] = a[j].idx < a[i].idx ? a[j++] : a[i++];
            while (i < mid) buf[k++] = a[i++];
            while (j < hi) buf[k++] = a[j++];
        }
        memcpy(a, buf, n * sizeof *a);
    }
    free(buf);
}

/* The for/while merge: edges of [from, end) with the same (text, index, relation) become one
 * whose parent texts are the union (package: list(set(...)), hash-ordered; here first
 * appearance) and parent indices the sorted union; then sorted by index (stable). */
static void cb__merge_loop(CbDfg *g, size_t from)
{
    size_t n = g->edges.len - from;
    if (n < 2) return;
    CbMap seen;
    cb__map_init(&seen, n);
    GbArray(CbEdge) out = {0};
    GbArray(CbU32Vec) nm = {0}, ix = {0};
    for (size_t i = from; i < g->edges.len; i++) {
        CbEdge e = g->edges.items[i];
        uint64_t key = ((uint64_t)e.code << 33) ^ ((uint64_t)e.idx << 1) ^ e.rel;
        bool found;
        uint32_t *slot = cb__map_slot(&seen, key, &found);
        if (!found) {
            *slot = (uint32_t)out.len;
            gb_array_push(&out, e);
            CbU32Vec a = {0}, b = {0};
            gb_array_push(&nm, a);
            gb_array_push(&ix, b);
        }
        size_t k = *slot;
        for (uint32_t j = 0; j < e.names_n; j++) {
            uint32_t v = g->names.items[e.names_off + j];
            bool dup = false;
            if (found)
                for (size_t t = 0; t < nm.items[k].len && !dup; t++) dup = nm.items[k].items[t] == v;
            if (!dup) gb_array_push(&nm.items[k], v);
        }
        for (uint32_t j = 0; j < e.idxs_n; j++) gb_array_push(&ix.items[k], g->idxs.items[e.idxs_off + j]);
    }
    cb__map_destroy(&seen);
    g->edges.len = from;
    for (size_t k = 0; k < out.len; k++) {
        /* sorted(set(idxs)) */
        if (ix.items[k].len > 1) qsort(ix.items[k].items, ix.items[k].len, sizeof(uint32_t), cb__cmp_u32);
        size_t m = 0;
        for (size_t t = 0; t < ix.items[k].len; t++)
            if (!m || ix.items[k].items[m - 1] != ix.items[k].items[t]) ix.items[k].items[m++] = ix.items[k].items[t];
        cb__emit(g, out.items[k].code, out.items[k].idx, out.items[k].rel, nm.items[k].items, (uint32_t)nm.items[k].len,
                 ix.items[k].items, (uint32_t)m);
        gb_array_free(&nm.items[k]);
        gb_array_free(&ix.items[k]);
    }
    gb_array_free(&out);
    gb_array_free(&nm);
    gb_array_free(&ix);
    cb__sort_edges(g, from);
}

/* Children of n except "," (the package's `[x for x in node.children if x.type != ","]`). */
static void cb__children_no_comma(TSNode n, CbNodeVec *out)
{
    out->len = 0;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) != GB_NK_COMMA) gb_array_push(out, ch);
    }
}

static void cb__dfg(CbDfg *g, TSNode n, CbStates st, int depth);

/* computedFrom edges for each (left, right) pair, then states[left] = [idx]. */
static void cb__assign_pairs(CbDfg *g, const TSNode *left, const TSNode *right, size_t npairs, CbStates st)
{
    CbLeafVec L = {0}, R = {0};
    CbU32Vec rn = {0}, ri = {0};
    for (size_t p = 0; p < npairs; p++) {
        L.len = R.len = rn.len = ri.len = 0;
        cb__var_leaves(g, left[p], &L);
        cb__var_leaves(g, right[p], &R);
        for (size_t j = 0; j < R.len; j++) {
            gb_array_push(&rn, R.items[j]->code);
            gb_array_push(&ri, R.items[j]->idx);
        }
        for (size_t i = 0; i < L.len; i++) {
            cb__emit(g, L.items[i]->code, L.items[i]->idx, CB_COMPUTED_FROM, rn.items, (uint32_t)rn.len, ri.items,
                     (uint32_t)ri.len);
            st[L.items[i]->code] = g->single[L.items[i]->idx];
        }
    }
    gb_array_free(&L);
    gb_array_free(&R);
    gb_array_free(&rn);
    gb_array_free(&ri);
}

/* The package's left/right node lists of an assignment or for statement. */
static void cb__sides(TSNode left, TSNode right, CbNodeVec *lefts, CbNodeVec *rights)
{
    cb__children_no_comma(left, lefts);
    cb__children_no_comma(right, rights);
    if (lefts->len != rights->len) {
        lefts->len = rights->len = 0;
        gb_array_push(lefts, left);
        gb_array_push(rights, right);
    }
    if (lefts->len == 0) gb_array_push(lefts, left);
    if (rights->len == 0) gb_array_push(rights, right);
}

/* A leaf: comesFrom its current states, or a new state when it is an identifier. */
static void cb__dfg_leaf(CbDfg *g, TSNode n, const char *type, CbStates st)
{
    const CbLeaf *l = cb__leaf(g, n);
    if (!l || cb__type_is_text(g, n, l)) return;
    if (st[l->code]) {
        CbList *s = st[l->code];
        cb__emit(g, l->code, l->idx, CB_COMES_FROM, &l->code, 1, s->v, s->n);
    } else {
        if (strcmp(type, "identifier") == 0) st[l->code] = g->single[l->idx];
        cb__emit(g, l->code, l->idx, CB_COMES_FROM, NULL, 0, NULL, 0);
    }
}

/* default_parameter: the name comesFrom the value's variables. */
static void cb__dfg_default_parameter(CbDfg *g, TSNode n, CbStates st, int depth)
{
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    TSNode value = ts_node_child_by_field_name(n, "value", 5);
    if (ts_node_is_null(name)) {
        g->abort = true; /* the package raises (None has no children) */
        return;
    }
    CbLeafVec N = {0}, V = {0};
    cb__var_leaves(g, name, &N);
    if (ts_node_is_null(value)) {
        for (size_t i = 0; i < N.len; i++) {
            cb__emit(g, N.items[i]->code, N.items[i]->idx, CB_COMES_FROM, NULL, 0, NULL, 0);
            st[N.items[i]->code] = g->single[N.items[i]->idx];
        }
    } else {
        cb__var_leaves(g, value, &V);
        cb__dfg(g, value, st, depth + 1);
        for (size_t i = 0; i < N.len; i++) {
            for (size_t j = 0; j < V.len; j++)
                cb__emit(g, N.items[i]->code, N.items[i]->idx, CB_COMES_FROM, &V.items[j]->code, 1, &V.items[j]->idx,
                         1);
            st[N.items[i]->code] = g->single[N.items[i]->idx];
        }
    }
    gb_array_free(&N);
    gb_array_free(&V);
}

/* for_in_clause, assignment, augmented_assignment: the right sides, then computedFrom edges. */
static void cb__dfg_assignment(CbDfg *g, TSNode n, bool is_for_in, CbStates st, int depth)
{
    CbNodeVec lefts = {0}, rights = {0};
    if (is_for_in) {
        uint32_t c = ts_node_child_count(n);
        TSNode left = ts_node_child_by_field_name(n, "left", 4);
        if (c == 0 || ts_node_is_null(left)) {
            g->abort = true;
            return;
        }
        gb_array_push(&rights, ts_node_child(n, c - 1));
        gb_array_push(&lefts, left);
    } else {
        TSNode right = ts_node_child_by_field_name(n, "right", 5);
        if (ts_node_is_null(right)) return;
        TSNode left = ts_node_child_by_field_name(n, "left", 4);
        if (ts_node_is_null(left)) {
            g->abort = true;
            return;
        }
        cb__sides(left, right, &lefts, &rights);
    }
    for (size_t i = 0; i < rights.len; i++) cb__dfg(g, rights.items[i], st, depth + 1);
    size_t np = lefts.len < rights.len ? lefts.len : rights.len;
    cb__assign_pairs(g, lefts.items, rights.items, np, st);
    gb_array_free(&lefts);
    gb_array_free(&rights);
}

/* The states after an if statement: new_states[key] = sorted(set(union of the branches'
 * lists)), for every code id of the ncodes that existed when the statement began. */
static void cb__dfg_merge_branches(CbDfg *g, size_t ncodes, CbStates *branches, size_t nbranches, CbStates st)
{
    GbArray(uint32_t) tmp = {0};
    for (size_t k = 0; k < ncodes; k++) {
        CbList *only = NULL;
        bool same = true, any = false;
        for (size_t b = 0; b < nbranches; b++) {
            CbList *l = branches[b][k];
            if (!l) continue;
            if (!any) {
                only = l;
                any = true;
            } else if (l != only) {
                same = false;
            }
        }
        if (!any) {
            st[k] = NULL;
            continue;
        }
        if (same) {
            st[k] = only;
            continue;
        }
        tmp.len = 0;
        for (size_t b = 0; b < nbranches; b++) {
            CbList *l = branches[b][k];
            if (l)
                for (uint32_t t = 0; t < l->n; t++) gb_array_push(&tmp, l->v[t]);
        }
        if (tmp.len > 1) qsort(tmp.items, tmp.len, sizeof(uint32_t), cb__cmp_u32);
        size_t m = 0;
        for (size_t t = 0; t < tmp.len; t++)
            if (!m || tmp.items[m - 1] != tmp.items[t]) tmp.items[m++] = tmp.items[t];
        CbList *l = cb__list_new(g, (uint32_t)m);
        memcpy(l->v, tmp.items, m * sizeof(uint32_t));
        st[k] = l;
    }
    gb_array_free(&tmp);
}

/* if_statement: each elif/else branch from the states before it, then the merge. */
static void cb__dfg_if(CbDfg *g, TSNode n, CbStates st, int depth)
{
    size_t ncodes = g->code_text.len;
    CbStates cur = cb__states_clone(g, st);
    GbArray(CbStates) others = {0};
    bool tag = false;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        const char *ct = ts_node_type(ch);
        if (strstr(ct, "else")) tag = true;
        if (strcmp(ct, "elif_clause") != 0 && strcmp(ct, "else_clause") != 0) {
            cb__dfg(g, ch, cur, depth + 1);
        } else {
            CbStates branch = cb__states_clone(g, st);
            cb__dfg(g, ch, branch, depth + 1);
            gb_array_push(&others, branch);
        }
    }
    gb_array_push(&others, cur);
    if (!tag) gb_array_push(&others, cb__states_clone(g, st));
    cb__dfg_merge_branches(g, ncodes, others.items, others.len, st);
    for (size_t b = 0; b < others.len; b++) free(others.items[b]);
    gb_array_free(&others);
}

/* for_statement: targets, iterable and body walked twice, then the loop merge. */
static void cb__dfg_for(CbDfg *g, TSNode n, CbStates st, int depth)
{
    size_t from = g->edges.len;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right)) {
        g->abort = true;
        return;
    }
    uint32_t c = ts_node_child_count(n);
    TSNode last = ts_node_child(n, c - 1);
    bool body = gb_node_kind(last) == GB_NK_BLOCK; /* not walked when there is an else */
    CbNodeVec lefts = {0}, rights = {0};
    for (int pass = 0; pass < 2; pass++) {
        cb__sides(left, right, &lefts, &rights);
        for (size_t i = 0; i < rights.len; i++) cb__dfg(g, rights.items[i], st, depth + 1);
        size_t np = lefts.len < rights.len ? lefts.len : rights.len;
        cb__assign_pairs(g, lefts.items, rights.items, np, st);
        if (body) cb__dfg(g, last, st, depth + 1);
    }
    gb_array_free(&lefts);
    gb_array_free(&rights);
    if (!g->abort) cb__merge_loop(g, from);
}

/* while_statement: every child walked twice, then the loop merge. */
static void cb__dfg_while(CbDfg *g, TSNode n, CbStates st, int depth)
{
    size_t from = g->edges.len;
    uint32_t c = ts_node_child_count(n);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < c; i++) cb__dfg(g, ts_node_child(n, i), st, depth + 1);
    if (!g->abort) cb__merge_loop(g, from);
}

/* Anything else: for_in_clause children first, then the others. */
static void cb__dfg_children(CbDfg *g, TSNode n, CbStates st, int depth)
{
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) == GB_NK_FOR_IN_CLAUSE) cb__dfg(g, ch, st, depth + 1);
    }
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) != GB_NK_FOR_IN_CLAUSE) cb__dfg(g, ch, st, depth + 1);
    }
}

/* DFG_python: the edges of n under the states st (updated). */
static void cb__dfg(CbDfg *g, TSNode n, CbStates st, int depth)
{
    if (g->abort) return;
    if (depth > CB_PY_DEPTH_LIMIT || ++g->visits > CB_DFG_BUDGET) {
        g->abort = true;
        return;
    }
    const char *type = ts_node_type(n);
    if (cb__is_leaf(n, type)) {
        cb__dfg_leaf(g, n, type, st);
    } else if (strcmp(type, "default_parameter") == 0) {
        cb__dfg_default_parameter(g, n, st, depth);
    } else if (strcmp(type, "for_in_clause") == 0 || strcmp(type, "assignment") == 0 ||
               strcmp(type, "augmented_assignment") == 0) {
        cb__dfg_assignment(g, n, strcmp(type, "for_in_clause") == 0, st, depth);
    } else if (strcmp(type, "if_statement") == 0) {
        cb__dfg_if(g, n, st, depth);
    } else if (strcmp(type, "for_statement") == 0) {
        cb__dfg_for(g, n, st, depth);
    } else if (strcmp(type, "while_statement") == 0) {
        cb__dfg_while(g, n, st, depth);
    } else {
        cb__dfg_children(g, n, st, depth);
    }
}

static int cb__tree_depth(TSNode root)
{
    int maxd = 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    int d = 1;
    maxd = 1;
    for (;;) {
        if (ts_tree_cursor_goto_first_child(&cur)) {
            d++;
            if (d > maxd) maxd = d;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return maxd;
            }
            d--;
        }
    }
}

/* code.split("\n") into g's line tables, and the maps. */
static void cb__dfg_init(CbDfg *g, const char *code)
{
    memset(g, 0, sizeof *g);
    for (const char *p = code;;) {
        const char *nl = strchr(p, '\n');
        gb_array_push(&g->line_ptr, p);
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        bool ascii = true;
        for (size_t k = 0; k < ll && ascii; k++) ascii = (unsigned char)p[k] < 0x80;
        gb_array_push(&g->line_len, ll);
        gb_array_push(&g->line_ascii, ascii);
        if (!nl) break;
        p = nl + 1;
    }
    cb__map_init(&g->pos2leaf, 256);
    cb__map_init(&g->text2code, 256);
}

static void cb__dfg_destroy(CbDfg *g)
{
    for (size_t i = 0; i < g->lists.len; i++) free(g->lists.items[i]);
    gb_array_free(&g->lists);
    free(g->single);
    for (size_t i = 0; i < g->code_text.len; i++) free(g->code_text.items[i]);
    gb_array_free(&g->code_text);
    gb_array_free(&g->leaves);
    gb_array_free(&g->edges);
    gb_array_free(&g->names);
    gb_array_free(&g->idxs);
    gb_array_free(&g->line_ptr);
    gb_array_free(&g->line_len);
    gb_array_free(&g->line_ascii);
    cb__map_destroy(&g->pos2leaf);
    cb__map_destroy(&g->text2code);
}

/* tree_to_token_index, then DFG_python from the root. False when the walk was aborted. */
static bool cb__dfg_walk(CbDfg *g, TSNode root)
{
    GbStr tmp;
    gb_str_init(&tmp);
    cb__collect_leaves(g, root, &tmp);
    gb_str_destroy(&tmp);
    g->single = gb_malloc((g->leaves.len ? g->leaves.len : 1) * sizeof *g->single);
    for (size_t i = 0; i < g->leaves.len; i++) {
        CbList *l = cb__list_new(g, 1);
        l->v[0] = (uint32_t)i;
        g->single[i] = l;
    }
    CbStates st = gb_calloc(g->code_text.len ? g->code_text.len : 1, sizeof *st);
    cb__dfg(g, root, st, 1);
    free(st);
    return !g->abort;
}

typedef GbArray(CbEdge) CbEdgeVec;
typedef GbArray(CbU32Vec) CbNamesVec;

/* Add e's parent texts to nm, which then holds each text once: a merged list is a set, so
 * duplicates the first edge itself carried go too. */
static void cb__dfg_unite_names(const CbDfg *g, const CbEdge *e, CbU32Vec *nm)
{
    for (uint32_t j = 0; j < e->names_n; j++) {
        uint32_t v = g->names.items[e->names_off + j];
        bool dup = false;
        for (size_t t = 0; t < nm->len && !dup; t++) dup = nm->items[t] == v;
        if (!dup) gb_array_push(nm, v);
    }
    size_t m2 = 0;
    for (size_t t = 0; t < nm->len; t++) {
        bool dup = false;
        for (size_t u = 0; u < m2 && !dup; u++) dup = nm->items[u] == nm->items[t];
        if (!dup) nm->items[m2++] = nm->items[t];
    }
    nm->len = m2;
}

/* The sorted edges kept (an index with parents or that is someone's parent) and merged by
 * index: later text and relation win; parent texts united in first-appearance order where
 * the package uses a hash-ordered set. */
static void cb__dfg_merge_edges(CbDfg *g, CbEdgeVec *merged, CbNamesVec *mnames)
{
    cb__sort_edges(g, 0);
    size_t nleaves = g->leaves.len;
    unsigned char *keep = gb_calloc(nleaves ? nleaves : 1, 1);
    for (size_t i = 0; i < g->edges.len; i++) {
        const CbEdge *e = &g->edges.items[i];
        if (e->idxs_n) keep[e->idx] = 1;
        for (uint32_t j = 0; j < e->idxs_n; j++) keep[g->idxs.items[e->idxs_off + j]] = 1;
    }
    for (size_t i = 0; i < g->edges.len; i++) {
        const CbEdge *e = &g->edges.items[i];
        if (!keep[e->idx]) continue;
        if (merged->len && merged->items[merged->len - 1].idx == e->idx) {
            CbEdge *m = &merged->items[merged->len - 1];
            m->code = e->code;
            m->rel = e->rel;
            cb__dfg_unite_names(g, e, &mnames->items[mnames->len - 1]);
        } else {
            gb_array_push(merged, *e);
            CbU32Vec nm = {0};
            for (uint32_t j = 0; j < e->names_n; j++) gb_array_push(&nm, g->names.items[e->names_off + j]);
            gb_array_push(mnames, nm);
        }
    }
    free(keep);
}

/* normalize_dataflow: variables renamed var_0.. by first appearance, each item hashed into
 * items. Frees mnames' lists. */
static void cb__dfg_normalise(const CbDfg *g, const CbEdgeVec *merged, CbNamesVec *mnames, CbU64Vec *items)
{
    uint32_t *var = gb_malloc((g->code_text.len ? g->code_text.len : 1) * sizeof *var);
    for (size_t k = 0; k < g->code_text.len; k++) var[k] = UINT32_MAX;
    uint32_t next = 0;
    GbArray(uint64_t) buf = {0};
    for (size_t i = 0; i < merged->len; i++) {
        const CbEdge *e = &merged->items[i];
        for (size_t j = 0; j < mnames->items[i].len; j++) {
            uint32_t c = mnames->items[i].items[j];
            if (var[c] == UINT32_MAX) var[c] = next++;
        }
        if (var[e->code] == UINT32_MAX) var[e->code] = next++;
        buf.len = 0;
        gb_array_push(&buf, (uint64_t)var[e->code]);
        gb_array_push(&buf, (uint64_t)e->rel);
        gb_array_push(&buf, (uint64_t)mnames->items[i].len);
        for (size_t j = 0; j < mnames->items[i].len; j++) gb_array_push(&buf, (uint64_t)var[mnames->items[i].items[j]]);
        gb_array_push(items, gb_hash64(buf.items, buf.len * sizeof(uint64_t), 0x6466ULL));
        gb_array_free(&mnames->items[i]);
    }
    gb_array_free(&buf);
    free(var);
}

bool cb__dataflow_items(TSTree *tree, const char *code, CbU64Vec *items)
{
    items->len = 0;
    TSNode root = ts_tree_root_node(tree);
    CbDfg g;
    cb__dfg_init(&g, code);
    bool ok = cb__tree_depth(root) <= CB_PY_DEPTH_LIMIT && cb__dfg_walk(&g, root);
    if (ok) {
        CbEdgeVec merged = {0};
        CbNamesVec mnames = {0};
        cb__dfg_merge_edges(&g, &merged, &mnames);
        cb__dfg_normalise(&g, &merged, &mnames, items);
        gb_array_free(&mnames);
        gb_array_free(&merged);
    }
    cb__dfg_destroy(&g);
    return ok;
}

void cb__dataflow_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *ref)
{
    if (ref->dfg_total > 0) {
        acc->df_total += (double)ref->dfg_total;
        acc->df_match += (double)cb__clipped(ref->dfg, ref->ndfg, hyp->dfg, hyp->ndfg);
    }
}
