#include "src/report/summary.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "nsga2/gate_list.h"
#include "operators/operator.h"
#include "src/bench/record.h"
#include "src/report/added_text.h"

long gb_summary_task_index(const GbTask *t)
{
    GbRecord r;
    GbError err;
    long idx = gb_record_read(t, &r, &err) ? r.index : -1;
    gb_record_destroy(&r);
    return idx;
}

void gb_metric_change_add(GbMetricChange *ch, const GbRecord *r)
{
    if (!r->has_status || (r->status != GB_EVOLVED_HARDENED && r->status != GB_EVOLVED_UNCHANGED)) return;
    if (!r->has_scores) return;
    for (int k = 0; k < GB_METRIC_COUNT; k++) {
        double b = r->before.metrics[k], a = r->after.metrics[k];
        if (!isfinite(b) || !isfinite(a)) continue;
        ch[k].before_sum += b;
        ch[k].after_sum += a;
        ch[k].raised += a > b;
        ch[k].lowered += a < b;
        ch[k].tasks++;
    }
}

typedef struct {
    long tasks, hardened, unchanged, failed, validated;
    double rcb, rrb, rca, rra;
    long nmeasured;
    bool any_gates;
    GbGateCounts gates;
    GbGateCounts per_op[GB_OP_COUNT];
    bool offered_in_some[GB_OP_COUNT]; /* the operator had a "gates_by_operator" entry */
    long in_picks[GB_OP_COUNT];
    double rc_delta_sum[GB_OP_COUNT];
    GbMetricChange metrics[GB_METRIC_COUNT];
} GbAgg;

static void gb_summary__aggregate(const GbBench *out, GbAgg *a)
{
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < out->tasks.len; i++) {
        GbRecord r;
        GbError err;
        if (!gb_record_read(&out->tasks.items[i], &r, &err)) {
            /* Not an evolve result (or a malformed one): it does not count. */
            gb_record_destroy(&r);
            continue;
        }
        a->tasks++;
        if (r.has_status && r.status == GB_EVOLVED_HARDENED)
            a->hardened++;
        else if (r.has_status && r.status == GB_EVOLVED_UNCHANGED)
            a->unchanged++;
        else
            a->failed++;
        if (r.has_scores && !isnan(r.before.rc) && !isnan(r.after.rc) && !isnan(r.before.rr) && !isnan(r.after.rr)) {
            a->rcb += r.before.rc;
            a->rca += r.after.rc;
            a->rrb += r.before.rr;
            a->rra += r.after.rr;
            a->nmeasured++;
        }
        gb_metric_change_add(a->metrics, &r);
        if (r.offspring_validated > 0) a->validated += r.offspring_validated;
        a->any_gates |= r.has_gates;
        a->gates.offered += r.gates.offered;
        a->gates.accepted += r.gates.accepted;
        for (int g = 0; g < GB_GATE_COUNT; g++) a->gates.rejected[g] += r.gates.rejected[g];
        for (int o = 0; o < GB_OP_COUNT; o++) {
            const GbGateCounts *c = &r.gates_by_operator[o];
            if (!c->offered) continue;
            a->offered_in_some[o] = true;
            a->per_op[o].offered += c->offered;
            a->per_op[o].accepted += c->accepted;
            for (int g = 0; g < GB_GATE_COUNT; g++) a->per_op[o].rejected[g] += c->rejected[g];
        }
        for (size_t k = 0; k < r.operators.len; k++) {
            const GbRecordStep *st = &r.operators.items[k];
            for (int o = 0; o < GB_OP_COUNT; o++) {
                if (strcmp(gb_operator((GbOperatorId)o)->code, st->op) != 0) continue;
                a->in_picks[o]++;
                a->rc_delta_sum[o] += isnan(st->rc_delta) ? 0 : st->rc_delta;
            }
        }
        gb_record_destroy(&r);
    }
}

/* {"offered", <gates>..., "accepted"} */
static json_t *gb_summary__gates(const GbGateCounts *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "offered", json_integer(c->offered));
    for (int g = 0; g < GB_GATE_COUNT; g++)
        json_object_set_new(o, gb_gate_name((GbGate)g), json_integer(c->rejected[g]));
    json_object_set_new(o, "accepted", json_integer(c->accepted));
    return o;
}

/* One operator's entry. The key order is the one the summary has always had: it depends on
 * whether the operator was offered anything and whether it is in some pick. */
static json_t *gb_summary__operator(const GbAgg *a, int o)
{
    json_t *e = json_object(), *rej = json_object();
    json_object_set_new(e, "name", json_string(gb_operator((GbOperatorId)o)->name));
    double mean = a->in_picks[o] > 0 ? a->rc_delta_sum[o] / (double)a->in_picks[o] : 0;
    if (a->offered_in_some[o])
        for (int g = 0; g < GB_GATE_COUNT; g++)
            json_object_set_new(rej, gb_gate_name((GbGate)g), json_integer(a->per_op[o].rejected[g]));
    if (!a->offered_in_some[o]) {
        json_object_set_new(e, "mean_rc_delta", json_real(mean));
        json_object_set_new(e, "offered", json_integer(0));
        json_object_set_new(e, "accepted", json_integer(0));
        json_object_set_new(e, "in_picks", json_integer(a->in_picks[o]));
        json_object_set_new(e, "rejected", rej);
        return e;
    }
    json_object_set_new(e, "offered", json_integer(a->per_op[o].offered));
    json_object_set_new(e, "accepted", json_integer(a->per_op[o].accepted));
    json_object_set_new(e, "rejected", rej);
    if (a->in_picks[o] > 0) {
        json_object_set_new(e, "in_picks", json_integer(a->in_picks[o]));
        json_object_set_new(e, "mean_rc_delta", json_real(mean));
    } else {
        json_object_set_new(e, "mean_rc_delta", json_real(mean));
        json_object_set_new(e, "in_picks", json_integer(0));
    }
    return e;
}

static json_t *gb_summary__round(double v)
{
    return json_real(round(v * 10000.0) / 10000.0);
}

/* "metrics": {"C1": {"before_mean", "after_mean", "raised", "lowered", "tasks"}, ...} in
 * metric_list.h order; the means are 0 for a metric no task counted for. */
static json_t *gb_summary__metrics(const GbAgg *a)
{
    json_t *m = json_object();
    for (int k = 0; k < GB_METRIC_COUNT; k++) {
        const GbMetricChange *c = &a->metrics[k];
        double n = c->tasks ? (double)c->tasks : 1;
        json_t *e = json_object();
        json_object_set_new(e, "before_mean", gb_summary__round(c->before_sum / n));
        json_object_set_new(e, "after_mean", gb_summary__round(c->after_sum / n));
        json_object_set_new(e, "raised", json_integer(c->raised));
        json_object_set_new(e, "lowered", json_integer(c->lowered));
        json_object_set_new(e, "tasks", json_integer(c->tasks));
        json_object_set_new(m, gb_metric_key((GbMetricId)k), e);
    }
    return m;
}

/* The added-text measure (src/report/added_text.h) over the hardened and unchanged tasks that
 * record their original program. */
static json_t *gb_summary__added_text(const GbBench *out)
{
    GbAddedText at;
    gb_added_text_init(&at);
    for (size_t i = 0; i < out->tasks.len; i++) {
        const GbTask *t = &out->tasks.items[i];
        GbRecord r;
        GbError err;
        if (gb_record_read(t, &r, &err) && r.original_source && r.has_status &&
            (r.status == GB_EVOLVED_HARDENED || r.status == GB_EVOLVED_UNCHANGED))
            gb_added_text_add(&at, r.original_source, r.original_extra_files.items, r.original_extra_files.len,
                              t->source, t->extra_files.items, t->extra_files.len);
        gb_record_destroy(&r);
    }
    json_t *o = json_object();
    json_object_set_new(o, "tasks", json_integer((json_int_t)at.tasks));
    static const char what[] = {'s', 'n'};
    static const char *const key[] = {"sentence", "name"};
    for (int w = 0; w < 2; w++) {
        char *text;
        size_t k = gb_added_text_top(&at, what[w], &text);
        json_object_set_new(o, key[w], text ? json_string(text) : json_null());
        char *tk = gb_asprintf("%s_tasks", key[w]);
        json_object_set_new(o, tk, json_integer((json_int_t)k));
        free(tk);
        char *sk = gb_asprintf("%s_share", key[w]);
        json_object_set_new(o, sk, gb_summary__round(at.tasks ? (double)k / (double)at.tasks : 0));
        free(sk);
        free(text);
    }
    gb_added_text_destroy(&at);
    return o;
}

char *gb_summary_build(const GbBench *out, const GbRunFacts *f)
{
    GbAgg a;
    gb_summary__aggregate(out, &a);
    json_t *s = json_object();
    json_object_set_new(s, "tool", json_string("genebench"));
    json_object_set_new(s, "version", json_string(GB_VERSION));
    json_object_set_new(s, "seed", json_integer((json_int_t)f->seed));
    json_object_set_new(s, "generations", json_integer(f->generations));
    json_object_set_new(s, "time_budget", json_real(f->time_budget));
    json_object_set_new(s, "breed", json_real(f->breed));
    json_object_set_new(s, "thresholds", json_string(f->thresholds ? f->thresholds : ""));
    json_object_set_new(s, "lint", json_boolean(f->lint));
    if (f->objective) {
        json_object_set_new(s, "objective", json_string(f->objective));
        json_object_set_new(s, "accept", json_integer(f->accept));
        if (f->away_versions) {
            json_t *aw = json_object();
            json_object_set_new(aw, "versions", json_integer(f->away_versions));
            json_object_set_new(aw, "target", json_real(f->away_target));
            json_object_set_new(s, "away", aw);
        }
    }
    json_t *py = f->python_json ? json_loads(f->python_json, 0, NULL) : NULL;
    if (!py) py = json_object();
    json_object_set_new(py, "interpreter", json_string(f->python ? f->python : ""));
    json_object_set_new(s, "python", py);
    json_object_set_new(s, "tasks", json_integer(a.tasks));
    json_object_set_new(s, "hardened", json_integer(a.hardened));
    json_object_set_new(s, "unchanged", json_integer(a.unchanged));
    json_object_set_new(s, "failed", json_integer(a.failed));
    double n = a.nmeasured ? (double)a.nmeasured : 1;
    json_object_set_new(s, "rc_before_mean", gb_summary__round(a.rcb / n));
    json_object_set_new(s, "rr_before_mean", gb_summary__round(a.rrb / n));
    json_object_set_new(s, "rc_after_mean", gb_summary__round(a.rca / n));
    json_object_set_new(s, "rr_after_mean", gb_summary__round(a.rra / n));
    json_object_set_new(s, "time_s", gb_summary__round(f->time_s));
    json_object_set_new(s, "offspring_validated", json_integer(a.validated));
    json_object_set_new(s, "offspring_validated_this_run", json_integer(f->validated_this_run));
    json_object_set_new(s, "offspring_per_s",
                        gb_summary__round(f->time_s > 0 ? (double)f->validated_this_run / f->time_s : 0));
    json_object_set_new(s, "gates", a.any_gates ? gb_summary__gates(&a.gates) : json_object());
    json_t *ops = json_object();
    for (int o = 0; o < GB_OP_COUNT; o++)
        json_object_set_new(ops, gb_operator((GbOperatorId)o)->code, gb_summary__operator(&a, o));
    json_object_set_new(s, "operators", ops);
    json_object_set_new(s, "metrics", gb_summary__metrics(&a));
    json_object_set_new(s, "added_text", gb_summary__added_text(out));
    if (f->command_line) {
        json_t *in = json_pack("[{s:s,s:s?}]", "path", f->input_path ? f->input_path : "", "sha256",
                               f->input_sha256 && *f->input_sha256 ? f->input_sha256 : NULL);
        json_object_set_new(s, "provenance",
                            json_pack("{s:s,s:s,s:s,s:s?,s:o}", "command_line", f->command_line, "tool_version",
                                      GB_VERSION, "git_commit", GB_GIT_COMMIT, "date", f->date, "inputs", in));
    }
    char *txt = json_dumps(s, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(s);
    char *res = gb_asprintf("%s\n", txt);
    free(txt);
    return res;
}

char *gb_summary_line(const GbBench *out)
{
    GbAgg a;
    gb_summary__aggregate(out, &a);
    double n = a.nmeasured ? (double)a.nmeasured : 1;
    return gb_asprintf("%ld tasks: %ld hardened, %ld unchanged, %ld failed; mean RC %.4f -> %.4f, mean RR %.4f -> %.4f",
                       a.tasks, a.hardened, a.unchanged, a.failed, a.rcb / n, a.rca / n, a.rrb / n, a.rra / n);
}

char *gb_summary_metric_lines(const GbBench *out)
{
    GbAgg a;
    gb_summary__aggregate(out, &a);
    GbStr s;
    gb_str_init(&s);
    for (int k = 0; k < GB_N_COMPLEXITY; k++) {
        const GbMetricChange *c = &a.metrics[k];
        if (!c->tasks) continue;
        gb_str_appendf(&s, "  %-3s %6.2f -> %6.2f (raised in %ld/%ld)  %s\n", gb_metric_key((GbMetricId)k),
                       c->before_sum / (double)c->tasks, c->after_sum / (double)c->tasks, c->raised, c->tasks,
                       gb_metric_label((GbMetricId)k));
    }
    return gb_str_take(&s);
}
