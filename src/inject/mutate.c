/* Bug-injection mutation operators (src/inject/mutate.h): operator names, sites, applying
 * variants, signatures and matching a site in another version of a program. The operators
 * are in mutate_arith.c, mutate_compare.c, mutate_condition.c, mutate_return.c and
 * mutate_constant.c (see mutate_private.h). */
#include "src/inject/mutate.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/inject/mutate_private.h"

static const char *const gb_mutate__names[] = {
#define GB_MUT__NAME(id, name, help) name,
    GB_MUTATION_OPS(GB_MUT__NAME)
#undef GB_MUT__NAME
};

static const char *const gb_mutate__helps[] = {
#define GB_MUT__HELP(id, name, help) help,
    GB_MUTATION_OPS(GB_MUT__HELP)
#undef GB_MUT__HELP
};

const char *gb_mutate_op_name(GbMutOp op)
{
    assert(op < GB_MUT_COUNT);
    return gb_mutate__names[op];
}

const char *gb_mutate_op_help(GbMutOp op)
{
    assert(op < GB_MUT_COUNT);
    return gb_mutate__helps[op];
}

bool gb_mutate_op_from_name(const char *name, GbMutOp *op)
{
    for (int i = 0; i < GB_MUT_COUNT; i++) {
        if (strcmp(name, gb_mutate__names[i]) == 0) {
            *op = (GbMutOp)i;
            return true;
        }
    }
    return false;
}

static void gb_mutate__describe(const GbMutCtx *c, const GbMutCand *cd, GbMutOp op, GbMutSite *site)
{
    char *orig = gb_mutate__clip(c->src + cd->start, cd->end - cd->start, 60);
    const char *what = op == GB_MUT_ARITH         ? "arithmetic operator"
                       : op == GB_MUT_COMPARE     ? "comparison operator"
                       : op == GB_MUT_RETURN      ? "returned value"
                       : op == GB_MUT_CONSTANT    ? "constant"
                       : cd->kind == GB_MUT__SWAP ? "boolean operator"
                                                  : NULL;
    if (what)
        site->description = gb_asprintf("line %u, column %u: %s `%s`", site->line, site->column, what, orig);
    else
        site->description =
            gb_asprintf("line %u, column %u: condition of `%s` `%s`", site->line, site->column, cd->owner, orig);
    free(orig);
}

/* Build the site of a candidate. Returns false (and leaves *site destroyed) when the
 * candidate is refused: a banned context, or no variant survives. */
static bool gb_mutate__build_site(const GbMutCtx *c, const GbMutCand *cd, GbMutOp op, GbMutSite *site)
{
    memset(site, 0, sizeof *site);
    if (cd->stmt == SIZE_MAX || gb_mutate__refused_context(c, cd->node)) return false;
    site->op = op;
    site->start = cd->start;
    site->end = cd->end;
    TSPoint p = ts_node_start_point(cd->node);
    site->line = p.row + 1;
    site->column = p.column;
    switch (op) {
    case GB_MUT_ARITH:
        gb_mutate__variants_arith(c, cd, site);
        break;
    case GB_MUT_COMPARE:
        gb_mutate__variants_compare(c, cd, site);
        break;
    case GB_MUT_CONDITION:
        gb_mutate__variants_condition(c, cd, site);
        break;
    case GB_MUT_RETURN:
        gb_mutate__variants_return(c, cd, site);
        break;
    case GB_MUT_CONSTANT:
        gb_mutate__variants_constant(c, cd, site);
        break;
    default:
        assert(!"unknown mutation operator");
    }
    if (site->variants.len == 0) {
        gb_mutate_site_destroy(site);
        return false;
    }
    const GbMutStmt *st = &c->stmts.items[cd->stmt];
    site->original = gb_strndup(c->src + cd->start, cd->end - cd->start);
    site->stmt_start = st->start;
    site->stmt_end = st->end;
    site->statement = gb_strdup(st->norm);
    site->stmt_ordinal = st->ordinal;
    site->occurrence = cd->occurrence;
    gb_mutate__describe(c, cd, op, site);
    return true;
}

size_t gb_mutate_find_sites(const char *source, TSTree *tree, GbMutOp op, GbMutSites *sites)
{
    assert(op < GB_MUT_COUNT);
    GbMutCtx c;
    gb_mutate__ctx_init(&c, source, tree);
    GbMutCands cands = {0};
    gb_mutate__candidates(&c, op, &cands);
    size_t added = 0;
    for (size_t i = 0; i < cands.len; i++) {
        GbMutSite site;
        if (!gb_mutate__build_site(&c, &cands.items[i], op, &site)) continue;
        gb_array_push(sites, site);
        added++;
    }
    gb_array_free(&cands);
    gb_mutate__ctx_destroy(&c);
    return added;
}

void gb_mutate_site_destroy(GbMutSite *site)
{
    if (!site) return;
    for (size_t i = 0; i < site->variants.len; i++) gb_mutate__variant_destroy(&site->variants.items[i]);
    gb_array_free(&site->variants);
    free(site->original);
    free(site->description);
    free(site->statement);
    memset(site, 0, sizeof *site);
}

void gb_mutate_sites_destroy(GbMutSites *sites)
{
    if (!sites) return;
    for (size_t i = 0; i < sites->len; i++) gb_mutate_site_destroy(&sites->items[i]);
    gb_array_free(sites);
}

void gb_mutate_site_copy(GbMutSite *dst, const GbMutSite *src)
{
    *dst = *src;
    dst->original = src->original ? gb_strdup(src->original) : NULL;
    dst->description = src->description ? gb_strdup(src->description) : NULL;
    dst->statement = src->statement ? gb_strdup(src->statement) : NULL;
    dst->variants.items = NULL;
    dst->variants.len = dst->variants.cap = 0;
    for (size_t i = 0; i < src->variants.len; i++) {
        GbMutVariant v = src->variants.items[i];
        v.label = gb_strdup(v.label);
        for (size_t j = 0; j < v.nedits; j++) v.edits[j].text = gb_strdup(v.edits[j].text);
        gb_array_push(&dst->variants, v);
    }
}

static int gb_mutate__cmp_edit(const void *a, const void *b)
{
    const GbMutEdit *x = *(const GbMutEdit *const *)a, *y = *(const GbMutEdit *const *)b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    /* At the same offset an insertion goes before a replacement that starts there: it is
     * either a prefix of the node the replacement is inside or a suffix of the node before. */
    return (x->end > y->end) - (x->end < y->end);
}

bool gb_mutate_apply_many(const char *source, const GbMutSite *const *sites, const size_t *variants, size_t n,
                          char **new_source, GbError *err)
{
    *new_source = NULL;
    size_t len = strlen(source);
    GbArray(const GbMutEdit *) edits = {0};
    for (size_t i = 0; i < n; i++) {
        const GbMutSite *s = sites[i];
        if (s->end > len || s->end - s->start != strlen(s->original) ||
            memcmp(source + s->start, s->original, s->end - s->start) != 0) {
            gb_error_set(err, "mutation site %s does not match the source", s->description);
            gb_array_free(&edits);
            return false;
        }
        if (variants[i] >= s->variants.len) {
            gb_error_set(err, "mutation site %s has no variant %zu", s->description, variants[i]);
            gb_array_free(&edits);
            return false;
        }
        const GbMutVariant *v = &s->variants.items[variants[i]];
        for (size_t j = 0; j < v->nedits; j++) gb_array_push(&edits, &v->edits[j]);
    }
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (edits.len > 1) qsort(edits.items, edits.len, sizeof *edits.items, gb_mutate__cmp_edit);
    for (size_t i = 1; i < edits.len; i++) {
        const GbMutEdit *a = edits.items[i - 1], *b = edits.items[i];
        bool both_insert = a->start == a->end && b->start == b->end && a->start == b->start;
        if (b->start < a->end || both_insert) {
            gb_error_set(err, "mutations overlap at byte %zu", b->start);
            gb_array_free(&edits);
            return false;
        }
    }
    char *out = gb_mutate__splice(source, len, (const GbMutEdit *const *)edits.items, edits.len);
    gb_array_free(&edits);
    TSParser *parser = gb_parser_new();
    unsigned row = 0, col = 0;
    bool ok = gb_source_parses(parser, out, strlen(out), &row, &col);
    ts_parser_delete(parser);
    if (!ok) {
        gb_error_set(err, "mutant does not parse: syntax error at line %u, column %u", row + 1, col);
        free(out);
        return false;
    }
    *new_source = out;
    return true;
}

bool gb_mutate_apply(const char *source, const GbMutSite *site, size_t variant, char **new_source, GbError *err)
{
    const GbMutSite *const sites[1] = {site};
    return gb_mutate_apply_many(source, sites, &variant, 1, new_source, err);
}

char *gb_mutate_site_signature(const GbMutSite *site)
{
    return gb_asprintf("%s:%zu:%zu:%s", gb_mutate_op_name(site->op), site->occurrence, site->stmt_ordinal,
                       site->statement);
}

static bool gb_mutate__parse_size(const char **p, size_t *out)
{
    if (!isdigit((unsigned char)**p)) return false;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno != 0 || *end != ':') return false;
    *out = (size_t)v;
    *p = end + 1;
    return true;
}

bool gb_mutate_signature_parse(const char *signature, GbMutSignature *out)
{
    memset(out, 0, sizeof *out);
    const char *colon = strchr(signature, ':');
    if (!colon) return false;
    char *name = gb_strndup(signature, (size_t)(colon - signature));
    bool ok = gb_mutate_op_from_name(name, &out->op);
    free(name);
    const char *p = colon + 1;
    if (!ok || !gb_mutate__parse_size(&p, &out->occurrence) || !gb_mutate__parse_size(&p, &out->stmt_ordinal))
        return false;
    out->statement = gb_strdup(p);
    return true;
}

void gb_mutate_signature_destroy(GbMutSignature *sig)
{
    if (!sig) return;
    free(sig->statement);
    sig->statement = NULL;
}

GbMutMatch gb_mutate_match(const char *source, TSTree *tree, GbMutOp op, const char *statement, size_t occurrence,
                           size_t stmt_ordinal, GbMutSite *out, size_t *n_statements)
{
    assert(op < GB_MUT_COUNT);
    memset(out, 0, sizeof *out);
    GbMutCtx c;
    gb_mutate__ctx_init(&c, source, tree);
    char *norm = gb_mutate_normalise(statement, strlen(statement));
    size_t count = 0, target = SIZE_MAX;
    for (size_t i = 0; i < c.stmts.len; i++) {
        if (strcmp(c.stmts.items[i].norm, norm) != 0) continue;
        if (count == stmt_ordinal) target = i;
        count++;
    }
    free(norm);
    if (n_statements) *n_statements = count;
    GbMutMatch result = GB_MUT_MATCH_NO_STATEMENT;
    if (target != SIZE_MAX) {
        result = GB_MUT_MATCH_NO_OCCURRENCE;
        GbMutCands cands = {0};
        gb_mutate__candidates(&c, op, &cands);
        for (size_t i = 0; i < cands.len; i++) {
            if (cands.items[i].stmt != target || cands.items[i].occurrence != occurrence) continue;
            result = gb_mutate__build_site(&c, &cands.items[i], op, out) ? GB_MUT_MATCH_FOUND : GB_MUT_MATCH_REFUSED;
            break;
        }
        gb_array_free(&cands);
    }
    gb_mutate__ctx_destroy(&c);
    return result;
}

GbMutMatch gb_mutate_match_signature(const char *source, TSTree *tree, const char *signature, GbMutSite *out,
                                     size_t *n_statements)
{
    GbMutSignature sig;
    if (!gb_mutate_signature_parse(signature, &sig)) {
        memset(out, 0, sizeof *out);
        if (n_statements) *n_statements = 0;
        return GB_MUT_MATCH_NO_STATEMENT;
    }
    GbMutMatch m =
        gb_mutate_match(source, tree, sig.op, sig.statement, sig.occurrence, sig.stmt_ordinal, out, n_statements);
    gb_mutate_signature_destroy(&sig);
    return m;
}
