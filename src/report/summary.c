#include "src/report/summary.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "operators/operator.h"

static json_t *gb_summary__field(const GbTask *t, const char *key)
{
    const char *txt = gb_task_get_field(t, key);
    if (!txt) return NULL;
    return json_loads(txt, JSON_DECODE_ANY, NULL);
}

long gb_summary_task_index(const GbTask *t)
{
    json_t *g = gb_summary__field(t, "genebench");
    long idx = -1;
    if (g && json_is_integer(json_object_get(g, "index"))) idx = (long)json_integer_value(json_object_get(g, "index"));
    json_decref(g);
    return idx;
}

static double gb_summary__num(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(o, a);
    if (b) v = json_object_get(v, b);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

typedef struct {
    long tasks, hardened, unchanged, failed, validated;
    double rcb, rrb, rca, rra;
    long nmeasured;
    json_t *gates;     /* gate -> count */
    json_t *operators; /* code -> {applied, accepted, in_picks, rc_delta_sum} */
} GbAgg;

static void gb_summary__add(json_t *obj, const char *key, double v)
{
    json_t *cur = json_object_get(obj, key);
    double base = json_is_number(cur) ? json_number_value(cur) : 0;
    json_object_set_new(obj, key, json_real(base + v));
}

static void gb_summary__aggregate(const GbBench *out, GbAgg *a)
{
    memset(a, 0, sizeof *a);
    a->gates = json_object();
    a->operators = json_object();
    for (int o = 0; o < GB_OP_COUNT; o++) {
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(gb_operator((GbOperatorId)o)->name));
        json_object_set_new(a->operators, gb_operator((GbOperatorId)o)->code, e);
    }
    for (size_t i = 0; i < out->tasks.len; i++) {
        json_t *g = gb_summary__field(&out->tasks.items[i], "genebench");
        if (!g) continue;
        a->tasks++;
        const char *st = json_string_value(json_object_get(g, "status"));
        if (st && strcmp(st, "hardened") == 0) a->hardened++;
        else if (st && strcmp(st, "unchanged") == 0) a->unchanged++;
        else a->failed++;
        double rcb = gb_summary__num(g, "before", "rc"), rca = gb_summary__num(g, "after", "rc");
        double rrb = gb_summary__num(g, "before", "rr"), rra = gb_summary__num(g, "after", "rr");
        if (!isnan(rcb) && !isnan(rca) && !isnan(rrb) && !isnan(rra)) {
            a->rcb += rcb;
            a->rca += rca;
            a->rrb += rrb;
            a->rra += rra;
            a->nmeasured++;
        }
        double v = gb_summary__num(g, "offspring_validated", NULL);
        if (!isnan(v)) a->validated += (long)v;
        const char *key;
        json_t *val;
        json_object_foreach(json_object_get(g, "gates"), key, val)
        {
            if (json_is_number(val)) gb_summary__add(a->gates, key, json_number_value(val));
        }
        json_object_foreach(json_object_get(g, "gates_by_operator"), key, val)
        {
            json_t *e = json_object_get(a->operators, key);
            if (!e) continue;
            gb_summary__add(e, "offered", gb_summary__num(val, "offered", NULL));
            gb_summary__add(e, "accepted", gb_summary__num(val, "accepted", NULL));
            json_t *rej = json_object_get(e, "rejected");
            if (!rej) {
                rej = json_object();
                json_object_set_new(e, "rejected", rej);
            }
            const char *gk;
            json_t *gv;
            json_object_foreach(val, gk, gv)
            {
                if (strcmp(gk, "offered") && strcmp(gk, "accepted") && json_is_number(gv))
                    gb_summary__add(rej, gk, json_number_value(gv));
            }
        }
        size_t k;
        json_t *step;
        json_array_foreach(json_object_get(g, "operators"), k, step)
        {
            json_t *e = json_object_get(a->operators, json_string_value(json_object_get(step, "op")));
            if (!e) continue;
            gb_summary__add(e, "in_picks", 1);
            double d = gb_summary__num(step, "rc_delta", NULL);
            gb_summary__add(e, "rc_delta_sum", isnan(d) ? 0 : d);
        }
        json_decref(g);
    }
    /* mean RC contribution per operator step in the picks */
    const char *key;
    json_t *e;
    json_object_foreach(a->operators, key, e)
    {
        double n = gb_summary__num(e, "in_picks", NULL), s = gb_summary__num(e, "rc_delta_sum", NULL);
        json_object_set_new(e, "mean_rc_delta", json_real(!isnan(n) && n > 0 ? s / n : 0));
        json_object_del(e, "rc_delta_sum");
        const char *ints[] = {"offered", "accepted", "in_picks"};
        for (size_t i = 0; i < 3; i++) {
            double x = gb_summary__num(e, ints[i], NULL);
            json_object_set_new(e, ints[i], json_integer(isnan(x) ? 0 : (json_int_t)llround(x)));
        }
        json_t *rej = json_object_get(e, "rejected");
        if (!rej) json_object_set_new(e, "rejected", rej = json_object());
        const char *gk;
        json_t *gv;
        json_object_foreach(rej, gk, gv) json_object_set_new(rej, gk, json_integer((json_int_t)llround(json_number_value(gv))));
    }
    json_object_foreach(a->gates, key, e) json_object_set_new(a->gates, key, json_integer((json_int_t)llround(json_number_value(e))));
}

static json_t *gb_summary__round(double v)
{
    return json_real(round(v * 10000.0) / 10000.0);
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
    json_object_set_new(s, "gates", a.gates);
    json_object_set_new(s, "operators", a.operators);
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
    json_decref(a.gates);
    json_decref(a.operators);
    double n = a.nmeasured ? (double)a.nmeasured : 1;
    return gb_asprintf("%ld tasks: %ld hardened, %ld unchanged, %ld failed; mean RC %.4f -> %.4f, mean RR %.4f -> %.4f",
                       a.tasks, a.hardened, a.unchanged, a.failed, a.rcb / n, a.rca / n, a.rrb / n, a.rra / n);
}
