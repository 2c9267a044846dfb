/* Variants: the edits of a site, applied and re-parsed. */
#include "src/inject/mutate_private.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

void gb_mutate__variant_destroy(GbMutVariant *v)
{
    for (size_t i = 0; i < v->nedits; i++) free(v->edits[i].text);
    free(v->label);
}

/* An edit whose text is padded with a space where it would otherwise glue onto an
 * adjacent identifier or keyword (`if(x)` negated is `if not (x)`, not `ifnot (x)`). */
GbMutEdit gb_mutate__edit(const GbMutCtx *c, size_t start, size_t end, const char *text)
{
    size_t n = strlen(text);
    bool before = n > 0 && start > 0 && gb_mutate__ident_char((unsigned char)c->src[start - 1]) &&
                  gb_mutate__ident_char((unsigned char)text[0]);
    bool after = n > 0 && end < c->len && gb_mutate__ident_char((unsigned char)c->src[end]) &&
                 gb_mutate__ident_char((unsigned char)text[n - 1]);
    GbMutEdit e = {start, end, gb_asprintf("%s%s%s", before ? " " : "", text, after ? " " : "")};
    return e;
}

/* Splice sorted, non-overlapping edits into source. Owned result. */
char *gb_mutate__splice(const char *src, size_t len, const GbMutEdit *const *edits, size_t n)
{
    GbStr s;
    gb_str_init(&s);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        gb_str_append_n(&s, src + at, edits[i]->start - at);
        gb_str_append(&s, edits[i]->text);
        at = edits[i]->end;
    }
    gb_str_append_n(&s, src + at, len - at);
    return gb_str_take(&s);
}

static char *gb_mutate__apply_variant(const GbMutCtx *c, const GbMutVariant *v)
{
    const GbMutEdit *const e[2] = {&v->edits[0], &v->edits[1]};
    return gb_mutate__splice(c->src, c->len, e, v->nedits);
}

static TSPoint gb_mutate__point(const GbMutCtx *c, size_t offset)
{
    size_t lo = 0, hi = c->line_starts.len;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->line_starts.items[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return (TSPoint){(uint32_t)lo, (uint32_t)(offset - c->line_starts.items[lo])};
}

/* Does the mutant (v applied to the source) parse without ERROR or MISSING nodes? The
 * original tree is edited and reparsed incrementally, which gives the same tree as a
 * fresh parse but costs time proportional to the change, not to the program. */
static bool gb_mutate__reparses(const GbMutCtx *c, const GbMutVariant *v, const char *mutant)
{
    TSTree *old = ts_tree_copy(c->tree);
    /* Last edit first, so the earlier edit's offsets still hold. */
    for (size_t i = v->nedits; i-- > 0;) {
        const GbMutEdit *e = &v->edits[i];
        TSPoint start = gb_mutate__point(c, e->start), end = start;
        for (const char *t = e->text; *t; t++) {
            if (*t == '\n') {
                end.row++;
                end.column = 0;
            } else {
                end.column++;
            }
        }
        TSInputEdit ed = {(uint32_t)e->start,
                          (uint32_t)e->end,
                          (uint32_t)(e->start + strlen(e->text)),
                          start,
                          gb_mutate__point(c, e->end),
                          end};
        ts_tree_edit(old, &ed);
    }
    TSTree *fresh = ts_parser_parse_string(c->parser, old, mutant, (uint32_t)strlen(mutant));
    bool ok = fresh != NULL && !gb_tree_has_error(fresh, NULL, NULL);
    ts_tree_delete(fresh);
    ts_tree_delete(old);
    return ok;
}

/* Keep the variant when its mutant parses cleanly; otherwise free it. The label is
 * taken (owned). */
void gb_mutate__add_variant(const GbMutCtx *c, GbMutSite *site, char *label, GbMutEdit e0, GbMutEdit *e1)
{
    GbMutVariant v = {{e0, {0, 0, NULL}}, 1, label};
    if (e1) {
        v.edits[1] = *e1;
        v.nedits = 2;
    }
    char *mutant = gb_mutate__apply_variant(c, &v);
    bool ok = strcmp(mutant, c->src) != 0 && gb_mutate__reparses(c, &v, mutant);
    free(mutant);
    if (ok)
        gb_array_push(&site->variants, v);
    else
        gb_mutate__variant_destroy(&v);
}

void gb_mutate__add_replace(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                            const char *text)
{
    gb_mutate__add_variant(c, site, gb_strdup(label), gb_mutate__edit(c, start, end, text), NULL);
}

/* An edit inside a string literal's contents: never padded. */
void gb_mutate__add_content_edit(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                                 const char *text)
{
    GbMutEdit e = {start, end, gb_strdup(text)};
    gb_mutate__add_variant(c, site, gb_strdup(label), e, NULL);
}

void gb_mutate__add_wrap(const GbMutCtx *c, GbMutSite *site, const char *label, size_t start, size_t end,
                         const char *before, const char *after)
{
    GbMutEdit e1 = gb_mutate__edit(c, end, end, after);
    gb_mutate__add_variant(c, site, gb_strdup(label), gb_mutate__edit(c, start, start, before), &e1);
}

/* True when op and target fall in the same group of a NULL-terminated list whose groups
 * are separated by "|" entries. */
bool gb_mutate__same_group(const char *const *groups, const char *op, const char *target)
{
    int g = 0, gop = -1, gtarget = -2;
    for (size_t i = 0; groups[i]; i++) {
        if (groups[i][0] == '|') {
            g++;
            continue;
        }
        if (strcmp(groups[i], op) == 0) gop = g;
        if (strcmp(groups[i], target) == 0) gtarget = g;
    }
    return gop == gtarget;
}
