#include "src/bench/lineage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "src/bench/record.h"

static bool gb_lineage__apply(GbProgram *p, const GbRecordPatch *pa, size_t rung, GbError *err)
{
    GbFile *f = gb_program_module(p, pa->module);
    if (!f) {
        if (pa->start != 0 || pa->end != 0) {
            gb_error_set(err, "lineage rung %zu: patch of module %s, which does not exist yet", rung, pa->module);
            return false;
        }
        gb_program_add_module(p, pa->module, pa->text);
        return true;
    }
    size_t len = strlen(f->source), tl = strlen(pa->text);
    if (pa->end > len || pa->start > pa->end) {
        gb_error_set(err, "lineage rung %zu: patch [%zu, %zu) outside module %s (%zu bytes)", rung, pa->start, pa->end,
                     pa->module, len);
        return false;
    }
    char *s = gb_malloc(len - (pa->end - pa->start) + tl + 1);
    memcpy(s, f->source, pa->start);
    memcpy(s + pa->start, pa->text, tl);
    memcpy(s + pa->start + tl, f->source + pa->end, len - pa->end + 1);
    for (size_t m = 0; m < p->modules.len; m++)
        if (&p->modules.items[m] == f) gb_program_set_source_take(p, m, s);
    return true;
}

bool gb_lineage_rung_program(const GbRecord *r, size_t k, GbProgram *out, GbError *err)
{
    gb_program_init(out);
    if (!r->original_source) {
        gb_error_set(err, "no \"original\" field: the lineage cannot be rebuilt");
        return false;
    }
    if (k > r->lineage.len) {
        gb_error_set(err, "rung %zu beyond the lineage (%zu rungs)", k, r->lineage.len);
        return false;
    }
    gb_program_destroy(out);
    gb_record_original_program(r, out);
    for (size_t i = 0; i < k; i++) {
        const GbRecordRung *g = &r->lineage.items[i];
        for (size_t j = 0; j < g->patch.len; j++)
            if (!gb_lineage__apply(out, &g->patch.items[j], i + 1, err)) return false;
    }
    long n = k == 0 ? 0 : r->lineage.items[k - 1].edits;
    for (long e = 0; r->has_edits && e < n && (size_t)e < r->edits.len; e++) {
        const GbApplied *a = &r->edits.items[e];
        gb_program_record(out, a->op, a->site_key, a->module, a->start, a->old_end, a->new_end);
    }
    return true;
}

GbRungScore gb_lineage_rung_score(const GbRecord *r, size_t k)
{
    if (k == 0 || k > r->lineage.len)
        return (GbRungScore){r->before.rc, r->before.rr, r->before.metrics[GB_METRIC_R1], -1, NULL};
    const GbRecordRung *g = &r->lineage.items[k - 1];
    return (GbRungScore){g->rc, g->rr, g->tokens, g->lines, g->op};
}

static const char *const gb_levels__names[] = {"rungs", "rc", "size"};

bool gb_levels_by_parse(const char *s, GbLevelsBy *out)
{
    for (int i = 0; i < 3; i++)
        if (s && strcmp(s, gb_levels__names[i]) == 0) {
            *out = (GbLevelsBy)i;
            return true;
        }
    return false;
}

const char *gb_levels_by_name(GbLevelsBy by)
{
    return gb_levels__names[by];
}

size_t gb_levels_pick_within(const GbRecord *r, double budget)
{
    double t0 = r->before.metrics[GB_METRIC_R1];
    size_t best = 0;
    for (size_t k = 1; k <= r->lineage.len; k++) {
        GbRungScore s = gb_lineage_rung_score(r, k);
        if (!(s.tokens <= budget * t0)) continue;
        GbRungScore b = gb_lineage_rung_score(r, best);
        if (s.rc > b.rc) best = k;
    }
    return best;
}

size_t gb_levels_pick(const GbRecord *r, GbLevelsBy by, size_t i, size_t k, double rc_lo, double rc_hi, double budget)
{
    size_t n = r->lineage.len;
    if (i == 0 || n == 0 || k == 0) return 0;
    switch (by) {
    case GB_LEVELS_BY_RUNGS:
        return (size_t)floor((double)i * (double)n / (double)k + 0.5);
    case GB_LEVELS_BY_RC: {
        double target = rc_lo + (double)i * (rc_hi - rc_lo) / (double)k;
        for (size_t g = 0; g <= n; g++)
            if (gb_lineage_rung_score(r, g).rc >= target) return g;
        return n;
    }
    case GB_LEVELS_BY_SIZE:
        return gb_levels_pick_within(r, 1.0 + (double)i * (budget - 1.0) / (double)k);
    }
    return 0;
}
