/* Equivalence beyond the tests: inputs, the original's record, the check (equiv.h). */
#include "nsga2/equiv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/rng.h"
#include "src/model/calls.h"
#include "src/model/perturb.h"

void gb_equiv_config_defaults(GbEquivConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->inputs = 24;
    cfg->large = 4;
    cfg->scale = 6;
    cfg->cost_ratio = 4.0;
    cfg->cost_slack_s = 0.02;
    cfg->wall_slack_s = 0.25;
    cfg->limit_s = 2.0;
    cfg->budget_s = 6.0;
}

void gb_equiv_inputs_destroy(GbEquivInputs *in)
{
    free(in->entry);
    for (size_t i = 0; i < in->inputs.len; i++) free(in->inputs.items[i]);
    gb_array_free(&in->inputs);
    gb_array_free(&in->large);
    memset(in, 0, sizeof *in);
}

/* Append text (taken; NULL: nothing) unless it is already there. */
static void gb_equiv__add(GbEquivInputs *in, char *text, bool large)
{
    if (!text) return;
    for (size_t i = 0; i < in->inputs.len; i++)
        if (strcmp(in->inputs.items[i], text) == 0) {
            free(text);
            return;
        }
    gb_array_push(&in->inputs, text);
    gb_array_push(&in->large, large);
}

void gb_equiv_inputs(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, GbEquivInputs *out)
{
    memset(out, 0, sizeof *out);
    uint64_t key = gb_hash64(task->id ? task->id : "", task->id ? strlen(task->id) : 0, 0x5EED5EEDULL);
    if (task->kind == GB_TESTS_STDIO) {
        out->mode = GB_PROBE_STDIO;
        size_t n = task->cases.len;
        for (size_t k = 0; k < n; k++)
            gb_equiv__add(out, gb_strdup(task->cases.items[k].stdin_text ? task->cases.items[k].stdin_text : ""),
                          false);
        out->from_tests = out->inputs.len;
        /* duplicates are dropped: up to three tries per wanted input */
        for (int j = 0; n > 0 && j < 3 * cfg->inputs && out->inputs.len < out->from_tests + (size_t)cfg->inputs; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 3, (uint64_t)j);
            const char *base = task->cases.items[(size_t)j % n].stdin_text;
            gb_equiv__add(out, gb_perturb_stdin(base ? base : "", &rng), false);
        }
        return;
    }
    if (task->kind != GB_TESTS_ASSERT) return;
    out->mode = GB_PROBE_CALL;
    const char *entry = task->entry_point;
    GbCallList calls = {0};
    gb_calls_extract(parser, task, &calls);
    GbArray(const char *) base = {0};
    for (size_t i = 0; i < calls.len; i++) {
        const GbCall *c = &calls.items[i];
        bool ok = (entry && strcmp(c->callee, entry) == 0) || strcmp(c->callee, "candidate") == 0 ||
                  (strcmp(c->callee, "f") == 0 && (!entry || strcmp(entry, "f") == 0));
        if (!ok) continue;
        bool dup = false;
        for (size_t k = 0; k < base.len && !dup; k++) dup = strcmp(base.items[k], c->args) == 0;
        if (!dup) gb_array_push(&base, c->args);
    }
    if (base.len > 0) {
        out->entry = gb_strdup(entry ? entry : "f");
        for (size_t i = 0; i < base.len; i++) gb_equiv__add(out, gb_strdup(base.items[i]), false);
        out->from_tests = out->inputs.len;
        for (int j = 0; j < 3 * cfg->inputs && out->inputs.len < out->from_tests + (size_t)cfg->inputs; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 1, (uint64_t)j);
            gb_equiv__add(out, gb_perturb_args(parser, base.items[(size_t)j % base.len], &rng, 1), false);
        }
        size_t before_large = out->inputs.len;
        for (int j = 0; j < 3 * cfg->large && out->inputs.len < before_large + (size_t)cfg->large; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 2, (uint64_t)j);
            size_t pick = (size_t)j % base.len;
            gb_equiv__add(out, gb_perturb_args(parser, base.items[pick], &rng, cfg->scale > 1 ? cfg->scale : 2), true);
        }
    }
    gb_array_free(&base);
    gb_call_list_destroy(&calls);
}

/* ---- the original's record ---- */

struct GbEquiv {
    GbEquivInputs in;           /* every derived input */
    GbArray(const char *) kept; /* borrowed from in: the inputs compared */
    GbArray(bool) kept_large;
    GbArray(char *) value; /* owned, per kept input */
    GbArray(char *) out;   /* owned, per kept input */
    GbArray(double) cpu;   /* per kept input: the smaller CPU time of the two probes */
    GbArray(double) wall;  /* per kept input: the smaller wall time */
    double limit_s;
};

void gb_equiv_delete(GbEquiv *e)
{
    if (!e) return;
    gb_equiv_inputs_destroy(&e->in);
    for (size_t i = 0; i < e->value.len; i++) free(e->value.items[i]);
    for (size_t i = 0; i < e->out.len; i++) free(e->out.items[i]);
    gb_array_free(&e->kept);
    gb_array_free(&e->kept_large);
    gb_array_free(&e->value);
    gb_array_free(&e->out);
    gb_array_free(&e->cpu);
    gb_array_free(&e->wall);
    free(e);
}

size_t gb_equiv_kept(const GbEquiv *e)
{
    return e ? e->kept.len : 0;
}

size_t gb_equiv_derived(const GbEquiv *e)
{
    return e ? e->in.inputs.len : 0;
}

size_t gb_equiv_large(const GbEquiv *e)
{
    size_t n = 0;
    for (size_t i = 0; e && i < e->kept_large.len; i++) n += e->kept_large.items[i];
    return n;
}

/* Whether kept input i counts for the cost bound. */
static bool gb_equiv__costs(const GbEquiv *e, size_t i)
{
    return gb_equiv_large(e) == 0 || e->kept_large.items[i];
}

double gb_equiv_cost(const GbEquiv *e)
{
    double s = 0;
    for (size_t i = 0; e && i < e->kept.len; i++)
        if (gb_equiv__costs(e, i)) s += e->cpu.items[i];
    return s;
}

static char *gb_equiv__probe_failure(const GbProbeResult *r)
{
    const GbRunResult *x = &r->run;
    return gb_asprintf("%s%s%s%s%s%s%s", gb_run_status_name(x->status), x->failed_test ? ": " : "",
                       x->failed_test ? x->failed_test : "", x->exc_type ? " -- " : "", x->exc_type ? x->exc_type : "",
                       x->exc_message ? ": " : "", x->exc_message ? x->exc_message : "");
}

GbEquiv *gb_equiv_record(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg,
                         TSParser *parser, GbError *err)
{
    GbEquiv *e = gb_calloc(1, sizeof *e);
    e->limit_s = cfg->limit_s;
    gb_equiv_inputs(cfg, task, parser, &e->in);
    size_t n = e->in.inputs.len;
    if (n == 0) return e;
    GbProbeSpec spec = {e->in.mode, e->in.entry,  (const char *const *)e->in.inputs.items,
                        n,          cfg->limit_s, cfg->budget_s};
    GbProbeResult r[2];
    bool ok = true;
    int ran = 0;
    for (int k = 0; k < 2 && ok; k++, ran++) {
        ok = gb_pool_probe(pool, task, prog, &spec, &r[k], err);
        if (ok && r[k].run.status != GB_RUN_PASS) {
            char *why = gb_equiv__probe_failure(&r[k]);
            gb_error_set(err, "task %s: the probe of the original failed: %s", task->id, why);
            free(why);
            ok = false;
        }
    }
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            const GbProbeItem *a = &r[0].items.items[i], *b = &r[1].items.items[i];
            if (a->status != GB_PROBE_OK || b->status != GB_PROBE_OK) continue;
            if (strcmp(a->value, b->value) != 0 || strcmp(a->out, b->out) != 0) continue; /* nondeterministic */
            if (a->wall_s > cfg->limit_s / 2 || b->wall_s > cfg->limit_s / 2) continue;   /* slow */
            gb_array_push(&e->kept, e->in.inputs.items[i]);
            gb_array_push(&e->kept_large, e->in.large.items[i]);
            gb_array_push(&e->value, gb_strdup(a->value));
            gb_array_push(&e->out, gb_strdup(a->out));
            gb_array_push(&e->cpu, a->cpu_s < b->cpu_s ? a->cpu_s : b->cpu_s);
            gb_array_push(&e->wall, a->wall_s < b->wall_s ? a->wall_s : b->wall_s);
        }
    }
    for (int k = 0; k < ran; k++) gb_probe_result_destroy(&r[k]);
    if (!ok) {
        gb_equiv_delete(e);
        return NULL;
    }
    return e;
}

/* ---- the check ---- */

void gb_equiv_verdict_destroy(GbEquivVerdict *v)
{
    free(v->input);
    free(v->expected);
    free(v->got);
    free(v->why);
    memset(v, 0, sizeof *v);
}

static char *gb_equiv__describe(const char *value, const char *out, GbProbeMode mode)
{
    if (!*out) return gb_strdup(value);
    return gb_asprintf("%s;%s=%s", value, mode == GB_PROBE_STDIO ? "stdout" : "printed", out);
}

bool gb_equiv_check(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task, const GbProgram *prog,
                    GbEquivVerdict *v, GbError *err)
{
    memset(v, 0, sizeof *v);
    v->first = -1;
    v->agree = v->cost_ok = true;
    v->status = GB_RUN_PASS;
    size_t n = e ? e->kept.len : 0;
    if (n == 0) return true;
    /* an input times out only when the program is far slower than the original on it (by the
     * cost ratio, plus 0.5 s for a loaded machine), and never before limit_s */
    double limit = cfg->limit_s;
    for (size_t i = 0; i < n; i++) {
        double l = cfg->cost_ratio * e->wall.items[i] + 0.5;
        if (l > limit) limit = l;
    }
    if (limit > 3600) limit = 3600; /* --no-cost sets a huge ratio; the pool's timeout ends the run anyway */
    GbProbeSpec spec = {e->in.mode, e->in.entry, e->kept.items, n, limit, 1e9};
    GbProbeResult r;
    if (!gb_pool_probe(pool, task, prog, &spec, &r, err)) {
        gb_probe_result_destroy(&r);
        v->status = GB_RUN_ERROR;
        v->agree = false;
        return false;
    }
    v->status = r.run.status;
    if (r.run.status != GB_RUN_PASS) {
        v->agree = false;
        v->why = gb_equiv__probe_failure(&r);
        gb_probe_result_destroy(&r);
        return true;
    }
    double *cpu = gb_malloc(n * sizeof *cpu), *wall = gb_malloc(n * sizeof *wall);
    for (size_t i = 0; i < n; i++) {
        const GbProbeItem *it = &r.items.items[i];
        cpu[i] = it->cpu_s;
        wall[i] = it->wall_s;
        v->checked++;
        bool same = it->status == GB_PROBE_OK && strcmp(it->value, e->value.items[i]) == 0 &&
                    (e->in.mode == GB_PROBE_STDIO ? gb_stdio_output_matches(it->out, e->out.items[i])
                                                  : strcmp(it->out, e->out.items[i]) == 0);
        if (same) {
            v->agreed++;
            continue;
        }
        v->agree = false;
        if (v->first < 0) {
            v->first = (long)i;
            v->input = gb_strdup(e->kept.items[i]);
            v->expected = gb_equiv__describe(e->value.items[i], e->out.items[i], e->in.mode);
            v->got = it->status == GB_PROBE_TIMEOUT   ? gb_asprintf("timeout (over %g s)", limit)
                     : it->status == GB_PROBE_SKIPPED ? gb_strdup("skipped")
                                                      : gb_equiv__describe(it->value, it->out, e->in.mode);
        }
    }
    gb_probe_result_destroy(&r);
    /* the cost bound, on agreeing programs only (a disagreeing one is rejected anyway) */
    size_t ncost = 0;
    for (size_t i = 0; i < n; i++) ncost += gb_equiv__costs(e, i);
    for (int attempt = 0; v->agree && attempt < 2; attempt++) {
        v->cost_orig = v->cost_child = v->wall_orig = v->wall_child = 0;
        for (size_t i = 0; i < n; i++) {
            if (!gb_equiv__costs(e, i)) continue;
            v->cost_orig += e->cpu.items[i];
            v->cost_child += cpu[i];
            v->wall_orig += e->wall.items[i];
            v->wall_child += wall[i];
        }
        v->cost_ok = v->cost_child <= cfg->cost_ratio * v->cost_orig + cfg->cost_slack_s * (double)ncost &&
                     v->wall_child <= cfg->cost_ratio * v->wall_orig + cfg->wall_slack_s * (double)ncost;
        if (v->cost_ok || attempt == 1) break;
        /* over the bound: measure once more and keep the smaller time per input */
        if (!gb_pool_probe(pool, task, prog, &spec, &r, err)) {
            gb_probe_result_destroy(&r);
            free(cpu);
            free(wall);
            return false;
        }
        if (r.run.status == GB_RUN_PASS) {
            for (size_t i = 0; i < n; i++) {
                const GbProbeItem *it = &r.items.items[i];
                if (it->status != GB_PROBE_OK) continue;
                if (it->cpu_s < cpu[i]) cpu[i] = it->cpu_s;
                if (it->wall_s < wall[i]) wall[i] = it->wall_s;
            }
        }
        gb_probe_result_destroy(&r);
    }
    free(cpu);
    free(wall);
    return true;
}
