#include "src/inject/inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/python/pyparse.h"
#include "src/base/rng.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"

/* ---- Position mapping ---- */

bool gb_inject_map_range(const GbApplied *edits, size_t n, const char *module, size_t *start, size_t *end)
{
    size_t s = *start, e = *end;
    for (size_t i = 0; i < n; i++) {
        const GbApplied *a = &edits[i];
        if (strcmp(a->module, module) != 0) continue;
        if (a->old_end > a->start) {
            if (e <= a->start) continue;
            if (s >= a->old_end) {
                s = s - a->old_end + a->new_end;
                e = e - a->old_end + a->new_end;
                continue;
            }
            return false;
        }
        size_t inserted = a->new_end - a->start;
        if (inserted == 0) continue;
        if (a->start <= s) {
            s += inserted;
            e += inserted;
        } else if (a->start < e) {
            return false;
        }
    }
    *start = s;
    *end = e;
    return true;
}

/* ---- Shared sites ---- */

void gb_shared_sites_destroy(GbSharedSites *sites)
{
    if (!sites) return;
    for (size_t i = 0; i < sites->len; i++) {
        gb_mutate_site_destroy(&sites->items[i].orig);
        gb_mutate_site_destroy(&sites->items[i].hard);
        gb_array_free(&sites->items[i].pairs);
    }
    gb_array_free(sites);
}

/* Text without the spaces gb_mutate pads edits with next to identifiers. */
static bool gb_inject__same_trimmed(const char *a, const char *b)
{
    while (*a == ' ') a++;
    while (*b == ' ') b++;
    size_t na = strlen(a), nb = strlen(b);
    while (na && a[na - 1] == ' ') na--;
    while (nb && b[nb - 1] == ' ') nb--;
    return na == nb && memcmp(a, b, na) == 0;
}

/* True when variant ov of site o and hv of site h make the same change: same label and the
 * same edits at the same offsets relative to the site (whose texts are equal). */
static bool gb_inject__same_variant(const GbMutSite *o, const GbMutVariant *ov, const GbMutSite *h,
                                    const GbMutVariant *hv)
{
    if (strcmp(ov->label, hv->label) != 0 || ov->nedits != hv->nedits) return false;
    for (size_t j = 0; j < ov->nedits; j++) {
        const GbMutEdit *a = &ov->edits[j], *b = &hv->edits[j];
        if (a->start < o->start || a->end > o->end || b->start < h->start || b->end > h->end) return false;
        if (a->start - o->start != b->start - h->start || a->end - o->start != b->end - h->start) return false;
        if (!gb_inject__same_trimmed(a->text, b->text)) return false;
    }
    return true;
}

static const GbFile *gb_inject__module(const GbProgram *p, const char *path)
{
    for (size_t i = 0; i < p->modules.len; i++)
        if (strcmp(p->modules.items[i].path, path) == 0) return &p->modules.items[i];
    return NULL;
}

void gb_inject_shared_sites(const GbProgram *orig, const GbProgram *hard, const GbApplied *edits, size_t nedits,
                            GbSharedSites *out, GbSharedStats *stats)
{
    TSParser *parser = gb_parser_new();
    for (size_t m = 0; m < orig->modules.len; m++) {
        const GbFile *of = &orig->modules.items[m];
        const GbFile *hf = gb_inject__module(hard, of->path);
        TSTree *ot = gb_parse(parser, of->source, strlen(of->source));
        TSTree *ht = hf ? gb_parse(parser, hf->source, strlen(hf->source)) : NULL;
        size_t hlen = hf ? strlen(hf->source) : 0;
        for (int op = 0; op < GB_MUT_COUNT; op++) {
            GbMutSites os = {0}, hs = {0};
            gb_mutate_find_sites(of->source, ot, (GbMutOp)op, &os);
            if (ht) gb_mutate_find_sites(hf->source, ht, (GbMutOp)op, &hs);
            stats->found += os.len;
            for (size_t i = 0; i < os.len; i++) {
                GbMutSite *o = &os.items[i];
                size_t s = o->start, e = o->end;
                if (!hf || !gb_inject_map_range(edits, nedits, of->path, &s, &e)) {
                    stats->unmapped++;
                    continue;
                }
                const GbMutSite *h = NULL;
                if (e <= hlen && e - s == o->end - o->start &&
                    memcmp(hf->source + s, of->source + o->start, e - s) == 0)
                    for (size_t j = 0; j < hs.len && !h; j++)
                        if (hs.items[j].start == s && hs.items[j].end == e) h = &hs.items[j];
                if (!h) {
                    stats->moved++;
                    continue;
                }
                GbSharedSite ss = {m, {0}, {0}, {0}};
                for (size_t a = 0; a < o->variants.len; a++)
                    for (size_t b = 0; b < h->variants.len; b++)
                        if (gb_inject__same_variant(o, &o->variants.items[a], h, &h->variants.items[b])) {
                            GbInjectVariantPair p = {a, b};
                            gb_array_push(&ss.pairs, p);
                            break;
                        }
                if (ss.pairs.len == 0) {
                    stats->no_variant++;
                    continue;
                }
                gb_mutate_site_copy(&ss.orig, o);
                gb_mutate_site_copy(&ss.hard, h);
                gb_array_push(out, ss);
                stats->shared++;
            }
            gb_mutate_sites_destroy(&os);
            gb_mutate_sites_destroy(&hs);
        }
        ts_tree_delete(ot);
        if (ht) ts_tree_delete(ht);
    }
    ts_parser_delete(parser);
}

bool gb_inject_apply(const GbProgram *base, bool hardened, const GbSharedSite *const *sites, const size_t *pairs,
                     size_t n, GbProgram *out, GbError *err)
{
    gb_program_copy(out, base);
    const GbMutSite **group = gb_malloc((n ? n : 1) * sizeof *group);
    size_t *variants = gb_malloc((n ? n : 1) * sizeof *variants);
    bool ok = true;
    for (size_t m = 0; ok && m < out->modules.len; m++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (sites[i]->module != m) continue;
            const GbInjectVariantPair *p = &sites[i]->pairs.items[pairs[i]];
            group[k] = hardened ? &sites[i]->hard : &sites[i]->orig;
            variants[k++] = hardened ? p->hard : p->orig;
        }
        if (!k) continue;
        char *mutant = NULL;
        ok = gb_mutate_apply_many(out->modules.items[m].source, group, variants, k, &mutant, err);
        if (ok) gb_program_set_source_take(out, m, mutant);
    }
    free(group);
    free(variants);
    if (!ok) {
        gb_program_destroy(out);
        gb_program_init(out);
    }
    return ok;
}

/* ---- Failing tests and outcomes ---- */

void gb_inject_ids_destroy(GbInjectIds *ids)
{
    if (!ids) return;
    for (size_t i = 0; i < ids->len; i++) free(ids->items[i]);
    gb_array_free(ids);
}

static int gb_inject__cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void gb_inject_failure_ids(const GbRunResult *r, GbInjectIds *out)
{
    if (r->status == GB_RUN_PASS) return;
    size_t first = out->len;
    if (r->failed_tests.len) {
        for (size_t i = 0; i < r->failed_tests.len; i++) gb_array_push(out, gb_strdup(r->failed_tests.items[i]));
    } else if (r->failed_test && strncmp(r->failed_test, "tests line ", 11) == 0) {
        gb_array_push(out, gb_strdup(r->failed_test));
    } else {
        gb_array_push(out, gb_strdup("(program)"));
    }
    qsort(out->items + first, out->len - first, sizeof *out->items, gb_inject__cmp_str);
    size_t w = first;
    for (size_t i = first; i < out->len; i++) {
        if (w > first && strcmp(out->items[w - 1], out->items[i]) == 0) {
            free(out->items[i]);
            continue;
        }
        out->items[w++] = out->items[i];
    }
    out->len = w;
}

static bool gb_inject__same_ids(const GbInjectIds *a, const GbInjectIds *b)
{
    if (a->len != b->len) return false;
    for (size_t i = 0; i < a->len; i++)
        if (strcmp(a->items[i], b->items[i]) != 0) return false;
    return true;
}

GbMutantOutcome gb_inject_classify(const GbRunResult *orig, const GbRunResult *hard)
{
    if (orig->status == GB_RUN_ERROR || hard->status == GB_RUN_ERROR) return GB_MUTANT_ERROR;
    if (orig->status == GB_RUN_TIMEOUT || hard->status == GB_RUN_TIMEOUT) return GB_MUTANT_TIMEOUT;
    if (orig->status == GB_RUN_CRASH || hard->status == GB_RUN_CRASH) return GB_MUTANT_CRASH;
    if (orig->status == GB_RUN_PASS && hard->status == GB_RUN_PASS) return GB_MUTANT_EQUIVALENT;
    if (orig->status == GB_RUN_PASS || hard->status == GB_RUN_PASS) return GB_MUTANT_DIVERGENT;
    GbInjectIds a = {0}, b = {0};
    gb_inject_failure_ids(orig, &a);
    gb_inject_failure_ids(hard, &b);
    bool same = gb_inject__same_ids(&a, &b);
    gb_inject_ids_destroy(&a);
    gb_inject_ids_destroy(&b);
    return same ? GB_MUTANT_KEPT : GB_MUTANT_DIVERGENT;
}

/* ---- Tasks ---- */

void gb_inject_config_defaults(GbInjectConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->order_min = 1;
    cfg->order_max = 3;
    cfg->max_per_task = 5;
    cfg->max_attempts = 40;
}

void gb_inject_result_destroy(GbInjectResult *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->mutants.len; i++) gb_task_destroy(&r->mutants.items[i]);
    gb_array_free(&r->mutants);
    for (size_t i = 0; i < r->hardened.len; i++) gb_task_destroy(&r->hardened.items[i]);
    gb_array_free(&r->hardened);
}

/* One candidate: k (site index, variant pair index) pairs, sites ascending. */
typedef struct {
    size_t site[GB_INJECT_MAX_ORDER];
    size_t pair[GB_INJECT_MAX_ORDER];
} GbInjectCand;

typedef GbArray(GbInjectCand) GbInjectCands;

static bool gb_inject__cand_eq(const GbInjectCand *a, const GbInjectCand *b, int k)
{
    for (int i = 0; i < k; i++)
        if (a->site[i] != b->site[i] || a->pair[i] != b->pair[i]) return false;
    return true;
}

/* Number of order-k candidates (sum over k-subsets of the product of variant counts),
 * saturated just above cap. */
static size_t gb_inject__count(const GbSharedSites *ss, int k, size_t cap)
{
    size_t e[GB_INJECT_MAX_ORDER + 1] = {1};
    for (size_t i = 0; i < ss->len; i++) {
        size_t w = ss->items[i].pairs.len;
        for (int j = k; j >= 1; j--) {
            size_t add = e[j - 1] > (cap + 1) / (w ? w : 1) ? cap + 1 : e[j - 1] * w;
            e[j] = e[j] + add > cap ? cap + 1 : e[j] + add;
        }
    }
    return e[k];
}

static void gb_inject__enumerate(const GbSharedSites *ss, int k, int depth, size_t from, GbInjectCand *cur,
                                 GbInjectCands *out)
{
    if (depth == k) {
        gb_array_push(out, *cur);
        return;
    }
    for (size_t i = from; i < ss->len; i++) {
        cur->site[depth] = i;
        for (size_t p = 0; p < ss->items[i].pairs.len; p++) {
            cur->pair[depth] = p;
            gb_inject__enumerate(ss, k, depth + 1, i + 1, cur, out);
        }
    }
}

/* A uniformly drawn candidate: k distinct sites, one variant pair each. */
static void gb_inject__draw(const GbSharedSites *ss, int k, GbRng *rng, size_t *scratch, GbInjectCand *c)
{
    size_t n = ss->len;
    for (size_t i = 0; i < n; i++) scratch[i] = i;
    for (int j = 0; j < k; j++) {
        size_t r = j + gb_rng_bounded(rng, (uint32_t)(n - (size_t)j));
        size_t t = scratch[j];
        scratch[j] = scratch[r];
        scratch[r] = t;
    }
    /* sites ascending, so equal candidates compare equal */
    for (int j = 1; j < k; j++)
        for (int i = j; i > 0 && scratch[i - 1] > scratch[i]; i--) {
            size_t t = scratch[i];
            scratch[i] = scratch[i - 1];
            scratch[i - 1] = t;
        }
    for (int j = 0; j < k; j++) {
        c->site[j] = scratch[j];
        c->pair[j] = gb_rng_bounded(rng, (uint32_t)ss->items[scratch[j]].pairs.len);
    }
}

/* Per-task state shared by the helpers below. */
typedef struct {
    const GbInjectConfig *cfg;
    const GbTask *orig_task;
    GbProgram orig, hard;
    GbSharedSites sites;
    GbInjectResult *res;
} GbInjectRun;

static void gb_inject__json_run(GbStr *s, const GbRunResult *r)
{
    bool first = true;
    gb_str_append(s, "{");
    gb_json_key(s, "status", &first);
    gb_json_string(s, gb_run_status_name(r->status));
    gb_json_key(s, "exc_type", &first);
    gb_json_string(s, r->exc_type);
    /* At most 300 bytes of the message, cut at a UTF-8 character boundary. */
    char *msg = NULL;
    if (r->exc_message) {
        size_t n = strnlen(r->exc_message, 300);
        if (r->exc_message[n] != '\0')
            while (n > 0 && ((unsigned char)r->exc_message[n] & 0xC0) == 0x80) n--;
        msg = gb_strndup(r->exc_message, n);
    }
    gb_json_key(s, "exc_message", &first);
    gb_json_string(s, msg);
    free(msg);
    gb_str_append(s, "}");
}

static void gb_inject__json_program(GbStr *s, const GbProgram *p)
{
    bool first = true;
    gb_str_append(s, "{");
    gb_json_key(s, "source", &first);
    gb_json_string(s, p->modules.items[0].source);
    gb_json_key(s, "extra_files", &first);
    gb_str_append(s, "{");
    bool f2 = true;
    for (size_t i = 1; i < p->modules.len; i++) {
        gb_json_key(s, p->modules.items[i].path, &f2);
        gb_json_string(s, p->modules.items[i].source);
    }
    gb_str_append(s, "}}");
}

/* The site's text after the variant's edits (which lie inside the site). Owned. */
static char *gb_inject__after(const GbMutSite *site, const GbMutVariant *v)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    size_t at = site->start;
    for (size_t j = 0; j < v->nedits; j++) {
        gb_str_append_n(&s, site->original + (at - site->start), v->edits[j].start - at);
        gb_str_append(&s, v->edits[j].text);
        at = v->edits[j].end;
    }
    gb_str_append_n(&s, site->original + (at - site->start), site->end - at);
    return gb_str_take(&s);
}

/* Build the two output tasks of a kept mutant. */
static void gb_inject__emit(GbInjectRun *run, int order, size_t cand_no, const GbInjectCand *c, const GbProgram *mo,
                            const GbProgram *mh, const GbRunResult *ro, const GbRunResult *rh)
{
    const GbTask *t = run->orig_task;
    size_t n = run->res->orders[order].outcome[GB_MUTANT_KEPT];
    char *id = gb_asprintf("%s#bug-%d-%zu", t->id, order, n);

    /* The mutations in source order (module, then position). */
    int idx[GB_INJECT_MAX_ORDER];
    for (int j = 0; j < order; j++) idx[j] = j;
    for (int j = 1; j < order; j++)
        for (int i = j; i > 0; i--) {
            const GbSharedSite *a = &run->sites.items[c->site[idx[i - 1]]], *b = &run->sites.items[c->site[idx[i]]];
            if (a->module < b->module || (a->module == b->module && a->orig.start <= b->orig.start)) break;
            int t = idx[i];
            idx[i] = idx[i - 1];
            idx[i - 1] = t;
        }
    GbStr muts;
    gb_str_init(&muts);
    gb_str_append(&muts, "[");
    for (int j = 0; j < order; j++) {
        const GbSharedSite *ss = &run->sites.items[c->site[idx[j]]];
        const GbInjectVariantPair *p = &ss->pairs.items[c->pair[idx[j]]];
        const GbMutVariant *v = &ss->orig.variants.items[p->orig];
        char *after = gb_inject__after(&ss->orig, v);
        bool f = true;
        if (j) gb_str_append(&muts, ",");
        gb_str_append(&muts, "{");
        gb_json_key(&muts, "op", &f);
        gb_json_string(&muts, gb_mutate_op_name(ss->orig.op));
        gb_json_key(&muts, "module", &f);
        gb_json_string(&muts, run->orig.modules.items[ss->module].path);
        gb_json_key(&muts, "line", &f);
        gb_json_number(&muts, ss->orig.line);
        gb_json_key(&muts, "column", &f);
        gb_json_number(&muts, ss->orig.column);
        gb_json_key(&muts, "before", &f);
        gb_json_string(&muts, ss->orig.original);
        gb_json_key(&muts, "after", &f);
        gb_json_string(&muts, after);
        gb_json_key(&muts, "variant", &f);
        gb_json_string(&muts, v->label);
        gb_json_key(&muts, "description", &f);
        gb_json_string(&muts, ss->orig.description);
        gb_json_key(&muts, "hardened_line", &f);
        gb_json_number(&muts, ss->hard.line);
        gb_json_key(&muts, "hardened_column", &f);
        gb_json_number(&muts, ss->hard.column);
        gb_str_append(&muts, "}");
        free(after);
    }
    gb_str_append(&muts, "]");

    GbInjectIds ids = {0};
    gb_inject_failure_ids(ro, &ids);
    GbStr fails;
    gb_str_init(&fails);
    gb_str_append(&fails, "[");
    for (size_t i = 0; i < ids.len; i++) {
        if (i) gb_str_append(&fails, ",");
        gb_json_string(&fails, ids.items[i]);
    }
    gb_str_append(&fails, "]");
    gb_inject_ids_destroy(&ids);

    GbStr bug;
    gb_str_init(&bug);
    bool f = true;
    gb_str_append(&bug, "{");
    gb_json_key(&bug, "of", &f);
    gb_json_string(&bug, t->id);
    gb_json_key(&bug, "seed", &f);
    gb_str_appendf(&bug, "%llu", (unsigned long long)run->cfg->seed);
    gb_json_key(&bug, "candidate", &f);
    gb_json_number(&bug, (double)cand_no);
    gb_json_key(&bug, "original", &f);
    gb_inject__json_run(&bug, ro);
    gb_json_key(&bug, "hardened", &f);
    gb_inject__json_run(&bug, rh);
    gb_str_append(&bug, "}");

    char order_text[16];
    snprintf(order_text, sizeof order_text, "%d", order);
    for (int view = 0; view < 2; view++) {
        GbTask m;
        gb_task_copy(&m, t);
        free(m.id);
        m.id = gb_strdup(id);
        gb_program_to_task(view ? mh : mo, &m);
        GbStr other;
        gb_str_init(&other);
        gb_inject__json_program(&other, view ? mo : mh);
        gb_task_set_field(&m, view ? "original_buggy" : "hardened_buggy", other.data);
        gb_str_destroy(&other);
        gb_task_set_field(&m, "mutations", muts.data);
        gb_task_set_field(&m, "failing_tests", fails.data);
        gb_task_set_field(&m, "order", order_text);
        gb_task_set_field(&m, "bug", bug.data);
        if (view)
            gb_array_push(&run->res->hardened, m);
        else
            gb_array_push(&run->res->mutants, m);
    }
    gb_str_destroy(&muts);
    gb_str_destroy(&fails);
    gb_str_destroy(&bug);
    free(id);
}

static bool gb_inject__same_program(const GbProgram *a, const GbProgram *b)
{
    if (a->modules.len != b->modules.len) return false;
    for (size_t i = 0; i < a->modules.len; i++)
        if (strcmp(a->modules.items[i].path, b->modules.items[i].path) != 0 ||
            strcmp(a->modules.items[i].source, b->modules.items[i].source) != 0)
            return false;
    return true;
}

/* Whether a bug already kept for this task (any order) has the buggy original program p: two
 * edits (say a "return" and a "constant" mutation) can make the same program, which would be
 * one bug counted twice. */
static bool gb_inject__already_kept(const GbInjectRun *run, const GbProgram *p)
{
    bool same = false;
    for (size_t i = 0; i < run->res->mutants.len && !same; i++) {
        GbProgram k;
        gb_program_from_task(&k, &run->res->mutants.items[i]);
        same = gb_inject__same_program(&k, p);
        gb_program_destroy(&k);
    }
    return same;
}

/* Apply, run and classify one candidate. Returns false when it is unusable (edits overlap). A
 * candidate whose buggy original is a kept bug's is counted as a duplicate and not run. */
static bool gb_inject__try(GbInjectRun *run, int order, size_t cand_no, const GbInjectCand *c)
{
    const GbSharedSite *sites[GB_INJECT_MAX_ORDER];
    for (int j = 0; j < order; j++) sites[j] = &run->sites.items[c->site[j]];
    GbProgram mo, mh;
    GbError err = {{0}};
    if (!gb_inject_apply(&run->orig, false, sites, c->pair, (size_t)order, &mo, &err)) return false;
    if (gb_inject__already_kept(run, &mo)) {
        run->res->orders[order].duplicate++;
        gb_program_destroy(&mo);
        return true;
    }
    if (!gb_inject_apply(&run->hard, true, sites, c->pair, (size_t)order, &mh, &err)) {
        gb_program_destroy(&mo);
        return false;
    }
    GbRunResult ro, rh;
    gb_run_result_init(&ro);
    gb_run_result_init(&rh);
    gb_pool_run(run->cfg->pool, run->orig_task, &mo, &ro, &err);
    GbMutantOutcome out;
    if (ro.status == GB_RUN_TIMEOUT || ro.status == GB_RUN_CRASH || ro.status == GB_RUN_ERROR) {
        /* The hardened run cannot make this mutant usable. */
        out = ro.status == GB_RUN_TIMEOUT ? GB_MUTANT_TIMEOUT
              : ro.status == GB_RUN_CRASH ? GB_MUTANT_CRASH
                                          : GB_MUTANT_ERROR;
    } else {
        gb_pool_run(run->cfg->pool, run->orig_task, &mh, &rh, &err);
        out = gb_inject_classify(&ro, &rh);
    }
    run->res->orders[order].outcome[out]++;
    if (out == GB_MUTANT_KEPT) gb_inject__emit(run, order, cand_no, c, &mo, &mh, &ro, &rh);
    gb_run_result_destroy(&ro);
    gb_run_result_destroy(&rh);
    gb_program_destroy(&mo);
    gb_program_destroy(&mh);
    return true;
}

static void gb_inject__order(GbInjectRun *run, int k, uint64_t task_hash)
{
    const GbInjectConfig *cfg = run->cfg;
    GbInjectOrderStats *st = &run->res->orders[k];
    size_t n = run->sites.len;
    if (n < (size_t)k) {
        st->exhausted = true;
        return;
    }
    size_t total = gb_inject__count(&run->sites, k, GB_INJECT_ENUMERATE);
    size_t ran = 0;
    if (total <= GB_INJECT_ENUMERATE) {
        GbInjectCands all = {0};
        GbInjectCand cur;
        memset(&cur, 0, sizeof cur);
        gb_inject__enumerate(&run->sites, k, 0, 0, &cur, &all);
        GbRng rng;
        gb_rng_init_keyed(&rng, cfg->seed, task_hash, (uint64_t)k, 0);
        for (size_t i = all.len; i > 1; i--) {
            size_t j = gb_rng_bounded(&rng, (uint32_t)i);
            GbInjectCand t = all.items[i - 1];
            all.items[i - 1] = all.items[j];
            all.items[j] = t;
        }
        size_t i = 0;
        for (; i < all.len && ran < cfg->max_attempts && st->outcome[GB_MUTANT_KEPT] < cfg->max_per_task; i++) {
            if (gb_inject__try(run, k, ran, &all.items[i]))
                ran++;
            else
                st->unusable++;
        }
        st->exhausted = i == all.len;
        gb_array_free(&all);
        return;
    }
    /* A large space: draw candidates, each from its own stream; a stream that yields no new
     * usable candidate in many draws means the usable candidates ran out. */
    GbInjectCands seen = {0};
    size_t *scratch = gb_malloc(n * sizeof *scratch);
    while (ran < cfg->max_attempts && st->outcome[GB_MUTANT_KEPT] < cfg->max_per_task) {
        GbRng rng;
        gb_rng_init_keyed(&rng, cfg->seed, task_hash, (uint64_t)k, (uint64_t)ran);
        bool done = false;
        for (int draw = 0; draw < 256 && !done; draw++) {
            GbInjectCand c;
            memset(&c, 0, sizeof c);
            gb_inject__draw(&run->sites, k, &rng, scratch, &c);
            bool dup = false;
            for (size_t i = 0; i < seen.len && !dup; i++) dup = gb_inject__cand_eq(&seen.items[i], &c, k);
            if (dup) continue;
            gb_array_push(&seen, c);
            if (gb_inject__try(run, k, ran, &c))
                done = true;
            else
                st->unusable++;
        }
        if (!done) {
            st->exhausted = true;
            break;
        }
        ran++;
    }
    free(scratch);
    gb_array_free(&seen);
}

void gb_inject_task(const GbInjectConfig *cfg, const GbTask *orig, const GbTask *hard, GbInjectResult *res)
{
    memset(res, 0, sizeof *res);
    GbInjectRun run;
    memset(&run, 0, sizeof run);
    run.cfg = cfg;
    run.orig_task = orig;
    run.res = res;
    gb_program_from_task(&run.orig, orig);
    gb_program_from_task(&run.hard, hard);

    GbRecord h;
    GbProgram h_original;
    gb_program_init(&h_original);
    GbError err = {{0}};
    if (!gb_record_read_hardening(hard, &h, &err)) {
        res->status = GB_INJECT_ERROR;
        snprintf(res->message, sizeof res->message, "%s", err.msg);
        goto done;
    }
    if (h.has_status && (h.status == GB_EVOLVED_ORIGINAL_FAILS || h.status == GB_EVOLVED_ERROR)) {
        res->status = GB_INJECT_SKIPPED;
        snprintf(res->message, sizeof res->message, "not hardened (evolve status \"%s\")",
                 gb_evolve_status_name(h.status));
        goto done;
    }
    gb_program_destroy(&h_original);
    gb_record_original_program(&h, &h_original);
    if (!gb_inject__same_program(&h_original, &run.orig)) {
        res->status = GB_INJECT_ERROR;
        snprintf(res->message, sizeof res->message,
                 "the hardened task was made from a different program than the original benchmark's");
        goto done;
    }

    GbRunResult ro, rh;
    gb_run_result_init(&ro);
    gb_run_result_init(&rh);
    gb_pool_run(cfg->pool, orig, NULL, &ro, &err);
    if (ro.status == GB_RUN_PASS) gb_pool_run(cfg->pool, orig, &run.hard, &rh, &err);
    if (ro.status != GB_RUN_PASS || rh.status != GB_RUN_PASS) {
        const GbRunResult *r = ro.status != GB_RUN_PASS ? &ro : &rh;
        res->status = GB_INJECT_SKIPPED;
        snprintf(res->message, sizeof res->message, "the %s program does not pass the tests (%s%s%s%s%s)",
                 ro.status != GB_RUN_PASS ? "original" : "hardened", gb_run_status_name(r->status),
                 r->failed_test ? ": " : "", r->failed_test ? r->failed_test : "", r->exc_type ? " -- " : "",
                 r->exc_type ? r->exc_type : "");
    }
    gb_run_result_destroy(&ro);
    gb_run_result_destroy(&rh);
    if (res->status != GB_INJECT_OK) goto done;

    gb_inject_shared_sites(&run.orig, &run.hard, h.edits.items, h.edits.len, &run.sites, &res->sites);
    uint64_t task_hash = gb_hash64(orig->id, strlen(orig->id), 0);
    for (int k = cfg->order_min; k <= cfg->order_max; k++) gb_inject__order(&run, k, task_hash);

done:
    gb_record_destroy(&h);
    gb_program_destroy(&h_original);
    gb_shared_sites_destroy(&run.sites);
    gb_program_destroy(&run.orig);
    gb_program_destroy(&run.hard);
}
