#include "src/report/summary.h"

#include <math.h>
#include <stdio.h>
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

static double gb_summary__round(double v)
{
    return round(v * 10000.0) / 10000.0;
}

/* The added-text measure (src/report/added_text.h) over the hardened and unchanged tasks that
 * record their original program. */
static void gb_summary__added_text(const GbBench *out, GbRunSummaryAddedText *o)
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
    o->tasks = (long)at.tasks;
    o->sentence_tasks = (long)gb_added_text_top(&at, 's', &o->sentence);
    o->sentence_share = gb_summary__round(at.tasks ? (double)o->sentence_tasks / (double)at.tasks : 0);
    o->name_tasks = (long)gb_added_text_top(&at, 'n', &o->name);
    o->name_share = gb_summary__round(at.tasks ? (double)o->name_tasks / (double)at.tasks : 0);
    gb_added_text_destroy(&at);
}

void gb_summary_fill(const GbBench *out, const GbRunFacts *f, GbRunSummary *s)
{
    GbAgg a;
    gb_summary__aggregate(out, &a);
    gb_run_summary_init(s);
    s->version = gb_strdup(GB_VERSION);
    s->seed = f->seed;
    s->generations = f->generations;
    s->time_budget = f->time_budget;
    s->breed = f->breed;
    s->thresholds = gb_strdup(f->thresholds ? f->thresholds : "");
    s->lint = f->lint;
    if (f->objective) {
        s->objective = gb_strdup(f->objective);
        s->accept = f->accept;
        s->away_versions = f->away_versions;
        s->away_target = f->away_target;
    }
    gb_run_summary_set_libs(s, f->python_json);
    s->interpreter = gb_strdup(f->python ? f->python : "");
    s->tasks = a.tasks;
    s->hardened = a.hardened;
    s->unchanged = a.unchanged;
    s->failed = a.failed;
    double n = a.nmeasured ? (double)a.nmeasured : 1;
    s->rc_before_mean = gb_summary__round(a.rcb / n);
    s->rr_before_mean = gb_summary__round(a.rrb / n);
    s->rc_after_mean = gb_summary__round(a.rca / n);
    s->rr_after_mean = gb_summary__round(a.rra / n);
    s->time_s = gb_summary__round(f->time_s);
    s->offspring_validated = a.validated;
    s->offspring_validated_this_run = f->validated_this_run;
    s->offspring_per_s = gb_summary__round(f->time_s > 0 ? (double)f->validated_this_run / f->time_s : 0);
    s->has_gates = a.any_gates;
    s->gates = a.gates;
    for (int o = 0; o < GB_OP_COUNT; o++) {
        GbRunSummaryOperator *op = &s->operators[o];
        if (a.offered_in_some[o]) op->counts = a.per_op[o];
        op->in_picks = a.in_picks[o];
        op->mean_rc_delta = a.in_picks[o] > 0 ? a.rc_delta_sum[o] / (double)a.in_picks[o] : 0;
    }
    for (int k = 0; k < GB_METRIC_COUNT; k++) {
        const GbMetricChange *c = &a.metrics[k];
        double tasks = c->tasks ? (double)c->tasks : 1;
        s->metrics[k] = (GbRunSummaryMetric){gb_summary__round(c->before_sum / tasks),
                                             gb_summary__round(c->after_sum / tasks), c->raised, c->lowered, c->tasks};
    }
    s->has_added_text = true;
    gb_summary__added_text(out, &s->added_text);
    if (f->command_line) {
        GbRunSummaryProvenance *p = &s->provenance;
        s->has_provenance = true;
        p->command_line = gb_strdup(f->command_line);
        p->tool_version = gb_strdup(GB_VERSION);
        p->git_commit = gb_strdup(GB_GIT_COMMIT);
        p->date = f->date ? gb_strdup(f->date) : NULL;
        GbRunSummaryInput in = {.path = gb_strdup(f->input_path ? f->input_path : "")};
        snprintf(in.sha256, sizeof in.sha256, "%s", f->input_sha256 ? f->input_sha256 : "");
        gb_array_push(&p->inputs, in);
    }
}

char *gb_summary_build(const GbBench *out, const GbRunFacts *f)
{
    GbRunSummary s;
    gb_summary_fill(out, f, &s);
    char *text = gb_run_summary_write(&s);
    gb_run_summary_destroy(&s);
    return text;
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
