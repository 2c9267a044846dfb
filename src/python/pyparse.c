#include "src/python/pyparse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

const TSLanguage *tree_sitter_python(void);

const TSLanguage *gb_python_language(void)
{
    return tree_sitter_python();
}

TSParser *gb_parser_new(void)
{
    TSParser *p = ts_parser_new();
    if (!ts_parser_set_language(p, tree_sitter_python())) {
        /* The grammar's ABI does not match the runtime: a build problem, not bad input. */
        ts_parser_delete(p);
        return NULL;
    }
    return p;
}

/* The trees of the last sources a thread parsed. Breeding parses the same text many times: a
 * parent once per operator tried on it, a child when its edits are committed and again when it
 * is measured or edited further. A tree is immutable once parsed (an edit copies what it
 * changes), so a copy of a cached tree (ts_tree_copy: a reference, not a parse) serves. */
#define GB_PARSE_CACHE 8
typedef struct {
    uint64_t hash;
    size_t len;
    char *src;
    TSTree *tree;
} GbParseCached;
typedef struct {
    GbParseCached e[GB_PARSE_CACHE];
    unsigned next;
} GbParseCache;

static pthread_key_t gb_parse__key;
static pthread_once_t gb_parse__once = PTHREAD_ONCE_INIT;

static void gb_parse__cache_free(void *p)
{
    GbParseCache *c = p;
    for (unsigned i = 0; i < GB_PARSE_CACHE; i++) {
        if (c->e[i].tree) ts_tree_delete(c->e[i].tree);
        free(c->e[i].src);
    }
    free(c);
}

static void gb_parse__key_make(void)
{
    (void)pthread_key_create(&gb_parse__key, gb_parse__cache_free);
}

static GbParseCache *gb_parse__cache(void)
{
    (void)pthread_once(&gb_parse__once, gb_parse__key_make);
    GbParseCache *c = pthread_getspecific(gb_parse__key);
    if (!c) {
        c = gb_calloc(1, sizeof *c);
        (void)pthread_setspecific(gb_parse__key, c);
    }
    return c;
}

/* A copy of the cached tree of source, or NULL. */
static TSTree *gb_parse__lookup(GbParseCache *c, TSParser *parser, const char *source, size_t len, uint64_t h)
{
    for (unsigned i = 0; i < GB_PARSE_CACHE; i++) {
        GbParseCached *x = &c->e[i];
        if (x->tree && x->hash == h && x->len == len && memcmp(x->src, source, len) == 0 &&
            ts_tree_language(x->tree) == ts_parser_language(parser))
            return ts_tree_copy(x->tree);
    }
    return NULL;
}

static void gb_parse__store(GbParseCache *c, const char *source, size_t len, uint64_t h, TSTree *t)
{
    GbParseCached *x = &c->e[c->next];
    c->next = (c->next + 1) % GB_PARSE_CACHE;
    if (x->tree) ts_tree_delete(x->tree);
    free(x->src);
    x->hash = h;
    x->len = len;
    x->src = gb_malloc(len ? len : 1);
    memcpy(x->src, source, len);
    x->tree = ts_tree_copy(t);
}

TSTree *gb_parse_edited(TSParser *parser, const TSTree *old, const TSInputEdit *edits, size_t n, const char *source,
                        size_t len)
{
    GbParseCache *c = gb_parse__cache();
    uint64_t h = gb_hash64(source, len, 0x7A3E5EEDULL);
    TSTree *t = gb_parse__lookup(c, parser, source, len, h);
    if (t) return t;
    TSTree *e = ts_tree_copy(old);
    for (size_t i = n; i-- > 0;) ts_tree_edit(e, &edits[i]);
    t = ts_parser_parse_string(parser, e, source, (uint32_t)len);
    ts_tree_delete(e);
    if (t) gb_parse__store(c, source, len, h, t);
    return t;
}

TSTree *gb_parse(TSParser *parser, const char *source, size_t len)
{
    GbParseCache *c = gb_parse__cache();
    uint64_t h = gb_hash64(source, len, 0x7A3E5EEDULL);
    TSTree *t = gb_parse__lookup(c, parser, source, len, h);
    if (t) return t;
    t = ts_parser_parse_string(parser, NULL, source, (uint32_t)len);
    if (t) gb_parse__store(c, source, len, h, t);
    return t;
}

/* The first error below node, in document order, by descent rather than recursion: a tree
 * may be as deep as its text is long (an answer of 60,000 nested operators). */
static bool gb__find_error(TSNode node, unsigned *row, unsigned *col)
{
    if (!ts_node_has_error(node)) return false;
    for (;;) {
        if (gb_node_kind(node) == GB_NK_ERROR || ts_node_is_missing(node)) break;
        uint32_t n = ts_node_child_count(node);
        TSNode next = {0};
        for (uint32_t i = 0; i < n && ts_node_is_null(next); i++) {
            TSNode c = ts_node_child(node, i);
            if (ts_node_has_error(c)) next = c;
        }
        if (ts_node_is_null(next)) break; /* has_error set but no child found: the node itself */
        node = next;
    }
    TSPoint p = ts_node_start_point(node);
    if (row) *row = p.row;
    if (col) *col = p.column;
    return true;
}

bool gb_tree_has_error(TSTree *tree, unsigned *row, unsigned *col)
{
    return gb__find_error(ts_tree_root_node(tree), row, col);
}

bool gb_source_parses(TSParser *parser, const char *source, size_t len, unsigned *row, unsigned *col)
{
    TSTree *t = gb_parse(parser, source, len);
    bool bad = gb_tree_has_error(t, row, col);
    ts_tree_delete(t);
    return !bad;
}

char *gb_node_text(TSNode node, const char *source)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    return gb_strndup(source + a, b - a);
}

bool gb_node_text_eq(TSNode node, const char *source, const char *s)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    size_t n = strlen(s);
    return (size_t)(b - a) == n && memcmp(source + a, s, n) == 0;
}

bool gb_node_is(TSNode node, const char *type)
{
    return !ts_node_is_null(node) && strcmp(ts_node_type(node), type) == 0;
}

TSNode gb_node_unminus(TSNode node, bool *neg)
{
    *neg = gb_node_is_kind(node, GB_NK_UNARY_OPERATOR) && ts_node_child_count(node) == 2 &&
           gb_node_kind(ts_node_child(node, 0)) == GB_NK_MINUS;
    return *neg ? ts_node_named_child(node, 0) : node;
}

TSNode gb_node_field(TSNode node, const char *name)
{
    return ts_node_child_by_field_name(node, name, (uint32_t)strlen(name));
}

void gb_multiline_strings(TSNode node, const char *src, GbByteRanges *out)
{
    if (gb_node_is_kind(node, GB_NK_STRING)) {
        uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
        if (memchr(src + s, '\n', e - s)) {
            gb_array_push(out, s);
            gb_array_push(out, e);
        }
        return;
    }
    uint32_t c = ts_node_child_count(node);
    for (uint32_t i = 0; i < c; i++) gb_multiline_strings(ts_node_child(node, i), src, out);
}
