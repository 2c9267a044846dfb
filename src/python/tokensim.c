#include "src/python/tokensim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/base/util.h"

size_t gb_lex_tokens(TSParser *parser, const char *source, size_t len, uint64_t **hashes)
{
    GbArray(uint64_t) out = {0};
    TSTree *tree = gb_parse(parser, source, len);
    TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        GbNodeKind type = gb_node_kind(n);
        bool is_string = type == GB_NK_STRING;
        if (!is_string && ts_tree_cursor_goto_first_child(&cur)) continue;
        uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
        if (b > a && type != GB_NK_COMMENT && type != GB_NK_LINE_CONTINUATION)
            gb_array_push(&out, gb_hash64(source + a, b - a, 0x6c6578ULL));
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                done = true;
                break;
            }
        }
        if (done) break;
    }
    ts_tree_cursor_delete(&cur);
    ts_tree_delete(tree);
    *hashes = out.items ? out.items : gb_malloc(1);
    return out.len;
}

static int gb__cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void gb_token_bag_init(GbTokenBag *bag, TSParser *parser, const char *source, size_t len)
{
    uint64_t *h;
    size_t n = gb_lex_tokens(parser, source, len, &h);
    qsort(h, n, sizeof *h, gb__cmp_u64);
    bag->keys = gb_malloc((n ? n : 1) * sizeof *bag->keys);
    bag->counts = gb_malloc((n ? n : 1) * sizeof *bag->counts);
    bag->n = 0;
    bag->total = n;
    for (size_t i = 0; i < n; i++) {
        if (bag->n && bag->keys[bag->n - 1] == h[i]) {
            bag->counts[bag->n - 1]++;
        } else {
            bag->keys[bag->n] = h[i];
            bag->counts[bag->n++] = 1;
        }
    }
    free(h);
}

void gb_token_bag_destroy(GbTokenBag *bag)
{
    free(bag->keys);
    free(bag->counts);
    memset(bag, 0, sizeof *bag);
}

double gb_token_cosine(const GbTokenBag *a, const GbTokenBag *b)
{
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a->n; i++) na += (double)a->counts[i] * a->counts[i];
    for (size_t j = 0; j < b->n; j++) nb += (double)b->counts[j] * b->counts[j];
    size_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        if (a->keys[i] < b->keys[j]) {
            i++;
        } else if (a->keys[i] > b->keys[j]) {
            j++;
        } else {
            dot += (double)a->counts[i++] * b->counts[j++];
        }
    }
    if (na == 0 || nb == 0) return 0;
    double c = dot / (sqrt(na) * sqrt(nb));
    return c > 1 ? 1 : c;
}

double gb_token_jaccard(const GbTokenBag *a, const GbTokenBag *b)
{
    size_t i = 0, j = 0, common = 0;
    while (i < a->n && j < b->n) {
        if (a->keys[i] < b->keys[j]) {
            i++;
        } else if (a->keys[i] > b->keys[j]) {
            j++;
        } else {
            common++;
            i++;
            j++;
        }
    }
    size_t uni = a->n + b->n - common;
    return uni ? (double)common / (double)uni : 0;
}
