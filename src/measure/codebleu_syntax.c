/* CodeBLEU's syntax match: the S-expression (ts_node_string) of the root and of every node
 * with children; a reference subtree matches when its S-expression occurs anywhere in the
 * hypothesis. */
#include "src/measure/codebleu_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* Strings are compared through a polynomial hash modulo 2^61-1 (about 4e-13 chance that
 * two of a thousand subtrees collide), mixed to 64 bits. A substring's hash comes from
 * prefix hashes in O(1), so the S-expression of every subtree can be taken from the root's
 * S-expression, which contains them all. */
#define CB_MOD ((1ULL << 61) - 1)
#define CB_BASE 1000003ULL

static uint64_t cb__mulmod(uint64_t a, uint64_t b)
{
    __uint128_t p = (__uint128_t)a * b;
    uint64_t lo = (uint64_t)(p & CB_MOD), hi = (uint64_t)(p >> 61);
    uint64_t r = lo + hi;
    return r >= CB_MOD ? r - CB_MOD : r;
}

typedef struct {
    uint64_t *p, *w; /* prefix hashes and powers of the base */
} CbPrefix;

static void cb__prefix_init(CbPrefix *h, const char *s, size_t len)
{
    h->p = gb_malloc((len + 1) * sizeof(uint64_t));
    h->w = gb_malloc((len + 1) * sizeof(uint64_t));
    h->p[0] = 0;
    h->w[0] = 1;
    for (size_t i = 0; i < len; i++) {
        uint64_t x = cb__mulmod(h->p[i], CB_BASE) + (unsigned char)s[i] + 1;
        h->p[i + 1] = x >= CB_MOD ? x - CB_MOD : x;
        h->w[i + 1] = cb__mulmod(h->w[i], CB_BASE);
    }
}

static void cb__prefix_destroy(CbPrefix *h)
{
    free(h->p);
    free(h->w);
}

/* The hash of s[a, b). */
static uint64_t cb__substring_hash(const CbPrefix *h, size_t a, size_t b)
{
    uint64_t x = h->p[b] + CB_MOD - cb__mulmod(h->p[a], h->w[b - a]);
    if (x >= CB_MOD) x -= CB_MOD;
    return cb__mix(x ^ ((uint64_t)(b - a) << 61));
}

static uint64_t cb__string_hash(const char *s)
{
    CbPrefix h;
    size_t len = strlen(s);
    cb__prefix_init(&h, s, len);
    uint64_t r = cb__substring_hash(&h, 0, len);
    cb__prefix_destroy(&h);
    return r;
}

/* Fallback: ts_node_string() of the root and of every node with children. */
static void cb__subtrees_exact(TSNode root, CbU64Vec *out)
{
    CbNodeVec stack = {0};
    gb_array_push(&stack, root);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        char *s = ts_node_string(n);
        gb_array_push(out, cb__string_hash(s));
        free(s);
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode ch = ts_node_child(n, i);
            if (ts_node_child_count(ch) > 0) gb_array_push(&stack, ch);
        }
    }
    gb_array_free(&stack);
}

/* Main path: ts_node_string(root) prints every named node as a parenthesised group, in
 * pre-order, so group k is the S-expression of the k-th named node of a pre-order walk. The
 * pairing is checked (same count, same type after each "("); quoted text (MISSING "x",
 * UNEXPECTED 'x', which may hold parentheses) or any disagreement falls back to per-node
 * ts_node_string(). Taking the groups from the root's string is not only faster: the 0.20.7
 * runtime's per-node ts_node_string() ignores the alias of a node built from a hidden rule
 * (the block of `if x: continue` prints as ("_simple_statements")(continue_statement)
 * ("_newline"); the `type` of `x: int` as ("expression")("primary_expression")(identifier)),
 * while the root's string, like newer runtimes that py-tree-sitter (the package's) bundles,
 * gives (block (continue_statement)) and (type (identifier)). Returns false for the
 * fallback. */
static bool cb__subtrees_fast(TSNode root, CbU64Vec *out)
{
    char *s = ts_node_string(root);
    size_t len = strlen(s);
    /* open[k], close[k]: the k-th group in order of its "(" */
    GbArray(size_t) open = {0}, close = {0}, stack = {0};
    bool ok = true;
    for (size_t i = 0; i < len && ok; i++) {
        if (s[i] == '(') {
            gb_array_push(&stack, open.len);
            gb_array_push(&open, i);
            gb_array_push(&close, (size_t)0);
        } else if (s[i] == ')') {
            if (!stack.len) {
                ok = false;
                break;
            }
            close.items[stack.items[--stack.len]] = i + 1;
        } else if (s[i] == '"' || s[i] == '\'') {
            ok = false; /* quoted text (MISSING "x", UNEXPECTED 'x') may hold parentheses */
        }
    }
    ok = ok && !stack.len;
    CbPrefix h = {0};
    if (ok) cb__prefix_init(&h, s, len);
    size_t k = 0;
    CbNodeVec walk = {0};
    gb_array_push(&walk, root);
    while (ok && walk.len) {
        TSNode n = walk.items[--walk.len];
        const char *type = ts_node_type(n);
        size_t tl = strlen(type);
        if (k >= open.len || open.items[k] + 1 + tl > len || memcmp(s + open.items[k] + 1, type, tl) != 0 ||
            (s[open.items[k] + 1 + tl] != ' ' && s[open.items[k] + 1 + tl] != ')')) {
            ok = false;
            break;
        }
        if (k == 0 || ts_node_child_count(n) > 0)
            gb_array_push(out, cb__substring_hash(&h, open.items[k], close.items[k]));
        k++;
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = c; i > 0; i--) gb_array_push(&walk, ts_node_named_child(n, i - 1));
    }
    ok = ok && k == open.len;
    if (h.p) cb__prefix_destroy(&h);
    gb_array_free(&walk);
    gb_array_free(&open);
    gb_array_free(&close);
    gb_array_free(&stack);
    free(s);
    return ok;
}

void cb__subtrees(TSTree *tree, CbU64Vec *out)
{
    out->len = 0;
    TSNode root = ts_tree_root_node(tree);
    if (cb__subtrees_fast(root, out)) return;
    out->len = 0;
    cb__subtrees_exact(root, out);
}

void cb__syntax_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *ref)
{
    size_t i = 0, j = 0;
    while (i < ref->nsubs && j < hyp->nsubs) {
        if (ref->subs[i].key < hyp->subs[j].key) {
            i++;
        } else if (ref->subs[i].key > hyp->subs[j].key) {
            j++;
        } else {
            acc->syntax_match += ref->subs[i].count;
            i++;
            j++;
        }
    }
    acc->syntax_total += (double)ref->sub_total;
}

size_t gb_codebleu_subtree_hashes(TSParser *parser, const char *code, bool exact, uint64_t **out)
{
    CbU64Vec keys = {0};
    TSTree *tree = gb_parse(parser, code, strlen(code));
    TSNode root = ts_tree_root_node(tree);
    if (exact) {
        cb__subtrees_exact(root, &keys);
    } else if (!cb__subtrees_fast(root, &keys)) {
        ts_tree_delete(tree);
        gb_array_free(&keys);
        *out = NULL;
        return SIZE_MAX;
    }
    ts_tree_delete(tree);
    if (keys.len > 1) qsort(keys.items, keys.len, sizeof(uint64_t), cb__cmp_u64);
    *out = keys.items ? keys.items : gb_malloc(1);
    return keys.len;
}
