#include "src/bench/record.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/bench/pyjson.h"
#include "src/bench/task_io.h"

/* ---- writing ---------------------------------------------------------------------------- */

static json_t *gb_record__num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *gb_record__str(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *gb_record__score(const GbRecordScore *s)
{
    json_t *o = json_object(), *m = json_object();
    json_object_set_new(o, "rc", gb_record__num(s->rc));
    json_object_set_new(o, "rr", gb_record__num(s->rr));
    for (int i = 0; i < GB_METRIC_COUNT; i++)
        json_object_set_new(m, gb_metric_key((GbMetricId)i), gb_record__num(s->metrics[i]));
    json_object_set_new(o, "metrics", m);
    return o;
}

static json_t *gb_record__gates(const GbGateCounts *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "offered", json_integer(g->offered));
    for (int k = 0; k < GB_GATE_COUNT; k++)
        json_object_set_new(o, gb_gate_name((GbGate)k), json_integer(g->rejected[k]));
    json_object_set_new(o, "accepted", json_integer(g->accepted));
    return o;
}

static char *gb_record__dump(json_t *v)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    gb_pyjson_dump(v, (GbPyJsonStyle){.ensure_ascii = false, .indent = -1, .compact = true, .fixed6 = true}, &s);
    json_decref(v);
    return s.data;
}

static json_t *gb_record__lineage(const GbRecord *r)
{
    json_t *lin = json_array();
    for (size_t i = 0; i < r->lineage.len; i++) {
        const GbRecordRung *g = &r->lineage.items[i];
        json_t *e = json_object(), *patch = json_array();
        json_object_set_new(e, "op", gb_record__str(g->op));
        if (g->site) json_object_set_new(e, "site", json_string(g->site));
        json_object_set_new(e, "rc", gb_record__num(g->rc));
        json_object_set_new(e, "rr", gb_record__num(g->rr));
        json_object_set_new(e, "tokens", gb_record__num(g->tokens));
        if (g->lines >= 0) json_object_set_new(e, "lines", json_integer(g->lines));
        if (g->edits >= 0) json_object_set_new(e, "edits", json_integer(g->edits));
        for (size_t k = 0; k < g->patch.len; k++) {
            const GbRecordPatch *p = &g->patch.items[k];
            json_t *pe = json_object();
            json_object_set_new(pe, "module", gb_record__str(p->module));
            json_object_set_new(pe, "start", json_integer((json_int_t)p->start));
            json_object_set_new(pe, "end", json_integer((json_int_t)p->end));
            json_object_set_new(pe, "text", gb_record__str(p->text));
            json_array_append_new(patch, pe);
        }
        json_object_set_new(e, "patch", patch);
        json_array_append_new(lin, e);
    }
    return lin;
}

char *gb_record_genebench_json(const GbRecord *r)
{
    json_t *o = json_object();
    if (r->index >= 0) json_object_set_new(o, "index", json_integer(r->index));
    if (r->has_seed)
        json_object_set_new(
            o, "seed", r->seed <= (uint64_t)INT64_MAX ? json_integer((json_int_t)r->seed) : json_real((double)r->seed));
    if (r->has_status) json_object_set_new(o, "status", json_string(gb_evolve_status_name(r->status)));
    if (r->error) json_object_set_new(o, "error", json_string(r->error));
    if (r->stop_reason) json_object_set_new(o, "stop_reason", json_string(r->stop_reason));
    if (r->generations >= 0) json_object_set_new(o, "generations", json_integer(r->generations));
    if (r->thresholds) json_object_set_new(o, "thresholds", json_string(r->thresholds));
    if (r->has_scores) {
        json_object_set_new(o, "before", gb_record__score(&r->before));
        json_object_set_new(o, "after", gb_record__score(&r->after));
    }
    if (r->has_operators) {
        json_t *ops = json_array();
        for (size_t i = 0; i < r->operators.len; i++) {
            const GbRecordStep *st = &r->operators.items[i];
            json_t *e = json_object();
            json_object_set_new(e, "op", gb_record__str(st->op));
            if (st->name) json_object_set_new(e, "name", json_string(st->name));
            if (st->site) json_object_set_new(e, "site", json_string(st->site));
            if (!isnan(st->rc_delta)) json_object_set_new(e, "rc_delta", gb_record__num(st->rc_delta));
            json_array_append_new(ops, e);
        }
        json_object_set_new(o, "operators", ops);
    }
    if (r->has_edits) {
        json_t *edits = json_array();
        for (size_t i = 0; i < r->edits.len; i++) {
            const GbApplied *a = &r->edits.items[i];
            json_t *e = json_object();
            json_object_set_new(e, "op", gb_record__str(a->op));
            json_object_set_new(e, "module", gb_record__str(a->module));
            json_object_set_new(e, "start", json_integer((json_int_t)a->start));
            json_object_set_new(e, "old_end", json_integer((json_int_t)a->old_end));
            json_object_set_new(e, "new_end", json_integer((json_int_t)a->new_end));
            json_array_append_new(edits, e);
        }
        json_object_set_new(o, "edits", edits);
    }
    if (r->has_front) {
        json_t *front = json_array();
        for (size_t i = 0; i < r->front.len; i++) {
            const GbRecordFrontMember *m = &r->front.items[i];
            json_t *e = json_object(), *ops = json_array();
            json_object_set_new(e, "rc", gb_record__num(m->rc));
            json_object_set_new(e, "rr", gb_record__num(m->rr));
            for (size_t k = 0; k < m->operators.len; k++)
                json_array_append_new(ops, json_string(m->operators.items[k]));
            json_object_set_new(e, "operators", ops);
            if (m->source) json_object_set_new(e, "source", json_string(m->source));
            json_array_append_new(front, e);
        }
        json_object_set_new(o, "front", front);
    }
    if (r->has_gates) json_object_set_new(o, "gates", gb_record__gates(&r->gates));
    if (r->has_gates_by_operator) {
        json_t *per = json_object();
        for (int k = 0; k < GB_OP_COUNT; k++)
            if (r->gates_by_operator[k].offered)
                json_object_set_new(per, gb_operator((GbOperatorId)k)->code,
                                    gb_record__gates(&r->gates_by_operator[k]));
        json_object_set_new(o, "gates_by_operator", per);
    }
    if (r->has_naming) {
        json_t *n = json_object(), *ren = json_object();
        json_object_set_new(n, "mode", gb_record__str(r->naming_mode));
        for (size_t i = 0; i < r->renamed.len; i++)
            json_object_set_new(ren, r->renamed.items[i].old_name, json_string(r->renamed.items[i].new_name));
        json_object_set_new(n, "renamed", ren);
        json_object_set_new(n, "kept", json_boolean(r->naming_kept));
        json_object_set_new(o, "naming", n);
    }
    if (r->has_lint) {
        json_t *l = json_object();
        json_object_set_new(l, "before", gb_record__num(r->lint_before));
        json_object_set_new(l, "after", gb_record__num(r->lint_after));
        json_object_set_new(o, "lint", l);
    }
    if (r->has_equiv) {
        json_t *e = json_object();
        json_object_set_new(e, "inputs", json_integer(r->equiv_inputs));
        json_object_set_new(e, "derived", json_integer(r->equiv_derived));
        json_object_set_new(e, "large", json_integer(r->equiv_large));
        if (r->equiv_error) json_object_set_new(e, "error", json_string(r->equiv_error));
        if (r->equiv_branches > 0) {
            json_object_set_new(e, "branches", json_integer(r->equiv_branches));
            json_object_set_new(e, "covered", json_integer(r->equiv_covered));
            json_object_set_new(e, "uncovered", json_string(r->equiv_uncovered ? r->equiv_uncovered : ""));
        }
        if (r->equiv_untraced) json_object_set_new(e, "traced", json_false());
        if (r->has_equiv_screen) {
            json_object_set_new(e, "screen", json_integer(r->equiv_screen));
            json_object_set_new(e, "refuted", json_integer(r->equiv_refuted));
        }
        json_object_set_new(o, "equiv", e);
    }
    if (r->has_away) {
        json_t *a = json_object();
        json_object_set_new(a, "versions", json_integer(r->away_versions));
        json_object_set_new(a, "target", gb_record__num(r->away_target));
        json_object_set_new(a, "original", gb_record__num(r->away_original));
        json_object_set_new(a, "pick", gb_record__num(r->away_pick));
        json_object_set_new(o, "away", a);
    }
    if (r->has_stack) {
        json_t *a = json_object();
        json_object_set_new(a, "depth", json_integer(r->stack_depth));
        json_object_set_new(a, "stacked", json_integer(r->stack_stacked));
        json_object_set_new(o, "stack", a);
    }
    if (r->has_together) {
        json_t *a = json_object();
        json_object_set_new(a, "refuted", json_integer(r->together_refuted));
        json_object_set_new(o, "together", a);
    }
    if (r->has_time) json_object_set_new(o, "time_s", gb_record__num(r->time_s));
    if (r->offspring_validated >= 0)
        json_object_set_new(o, "offspring_validated", json_integer(r->offspring_validated));
    if (r->has_lineage) json_object_set_new(o, "lineage", gb_record__lineage(r));
    return gb_record__dump(o);
}

char *gb_record_original_json(const GbRecord *r)
{
    if (!r->original_source) return NULL;
    json_t *o = json_object(), *files = json_object();
    json_object_set_new(o, "source", json_string(r->original_source));
    for (size_t i = 0; i < r->original_extra_files.len; i++)
        json_object_set_new(files, r->original_extra_files.items[i].path,
                            json_string(r->original_extra_files.items[i].source));
    json_object_set_new(o, "extra_files", files);
    return gb_record__dump(o);
}

void gb_record_attach(GbTask *t, const GbRecord *r)
{
    char *orig = gb_record_original_json(r), *gb = gb_record_genebench_json(r);
    if (orig) gb_task_set_field(t, "original", orig);
    gb_task_set_field(t, "genebench", gb);
    free(orig);
    free(gb);
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Typed getters: absent (or null for numbers/strings) keeps the default; a value of another
 * type is an error naming the field path. */
static bool gb_record__get_long(json_t *obj, const char *key, const char *path, long *out, GbError *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return true;
    double d = json_is_integer(v) ? (double)json_integer_value(v) : json_is_real(v) ? json_real_value(v) : -1;
    if (d < 0 || d != floor(d) || d > 9e15) {
        gb_error_set(err, "field \"%s.%s\" must be a non-negative integer, got %s", path, key, gb_json_type_name(v));
        return false;
    }
    *out = (long)d;
    return true;
}

static bool gb_record__get_num(json_t *obj, const char *key, const char *path, double *out, GbError *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return true;
    if (json_is_null(v)) {
        *out = NAN;
        return true;
    }
    if (!json_is_number(v)) {
        gb_error_set(err, "field \"%s.%s\" must be a number, got %s", path, key, gb_json_type_name(v));
        return false;
    }
    *out = json_number_value(v);
    return true;
}

static bool gb_record__get_str(json_t *obj, const char *key, const char *path, char **out, GbError *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) return true;
    if (!json_is_string(v)) {
        gb_error_set(err, "field \"%s.%s\" must be a string, got %s", path, key, gb_json_type_name(v));
        return false;
    }
    free(*out);
    *out = gb_strdup(json_string_value(v));
    return true;
}

/* obj.key must be absent or of the given type (json_is_object / json_is_array). */
static json_t *gb_record__get_typed(json_t *obj, const char *key, const char *path, bool array, bool *ok, GbError *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return NULL;
    if (array ? !json_is_array(v) : !json_is_object(v)) {
        gb_error_set(err, "field \"%s.%s\" must be %s, got %s", path, key, array ? "an array" : "an object",
                     gb_json_type_name(v));
        *ok = false;
        return NULL;
    }
    return v;
}

static bool gb_record__parse_score(json_t *o, const char *path, GbRecordScore *s, GbError *err)
{
    if (!gb_record__get_num(o, "rc", path, &s->rc, err) || !gb_record__get_num(o, "rr", path, &s->rr, err))
        return false;
    bool ok = true;
    char sub[64];
    snprintf(sub, sizeof sub, "%s.metrics", path);
    json_t *m = gb_record__get_typed(o, "metrics", path, false, &ok, err);
    for (int i = 0; ok && m && i < GB_METRIC_COUNT; i++)
        ok = gb_record__get_num(m, gb_metric_key((GbMetricId)i), sub, &s->metrics[i], err);
    return ok;
}

static bool gb_record__parse_gates(json_t *o, const char *path, GbGateCounts *g, GbError *err)
{
    if (!gb_record__get_long(o, "offered", path, &g->offered, err)) return false;
    for (int k = 0; k < GB_GATE_COUNT; k++)
        if (!gb_record__get_long(o, gb_gate_name((GbGate)k), path, &g->rejected[k], err)) return false;
    return gb_record__get_long(o, "accepted", path, &g->accepted, err);
}

static bool gb_record__parse_rung(json_t *e, const char *path, GbRecordRung *g, GbError *err)
{
    bool ok = true;
    if (!json_is_object(e) || !json_is_string(json_object_get(e, "op"))) {
        gb_error_set(err, "field \"%s\" must be an object with a string \"op\"", path);
        return false;
    }
    g->op = gb_strdup(json_string_value(json_object_get(e, "op")));
    if (!gb_record__get_str(e, "site", path, &g->site, err) || !gb_record__get_num(e, "rc", path, &g->rc, err) ||
        !gb_record__get_num(e, "rr", path, &g->rr, err) || !gb_record__get_num(e, "tokens", path, &g->tokens, err) ||
        !gb_record__get_long(e, "lines", path, &g->lines, err) ||
        !gb_record__get_long(e, "edits", path, &g->edits, err))
        return false;
    json_t *patch = gb_record__get_typed(e, "patch", path, true, &ok, err);
    if (!ok) return false;
    for (size_t k = 0; k < json_array_size(patch); k++) {
        json_t *pe = json_array_get(patch, k);
        char sub[96];
        snprintf(sub, sizeof sub, "%s.patch[%zu]", path, k);
        json_t *mod = json_object_get(pe, "module"), *text = json_object_get(pe, "text");
        long start = -1, end = -1;
        if (!json_is_string(mod) || !json_is_string(text)) {
            gb_error_set(err, "field \"%s\" must be an object with strings \"module\" and \"text\"", sub);
            return false;
        }
        if (!gb_record__get_long(pe, "start", sub, &start, err) || !gb_record__get_long(pe, "end", sub, &end, err))
            return false;
        if (start < 0 || end < start) {
            gb_error_set(err, "field \"%s\": start and end must be present, end not before start", sub);
            return false;
        }
        GbRecordPatch p = {gb_strdup(json_string_value(mod)), (size_t)start, (size_t)end,
                           gb_strdup(json_string_value(text))};
        gb_array_push(&g->patch, p);
    }
    return true;
}

static bool gb_record__parse_lineage(json_t *o, GbRecord *r, GbError *err)
{
    bool ok = true;
    json_t *lin = gb_record__get_typed(o, "lineage", "genebench", true, &ok, err);
    if (!ok) return false;
    r->has_lineage = lin != NULL;
    for (size_t i = 0; i < json_array_size(lin); i++) {
        char path[64];
        snprintf(path, sizeof path, "genebench.lineage[%zu]", i);
        GbRecordRung g = {NULL, NULL, NAN, NAN, NAN, -1, -1, {0}};
        gb_array_push(&r->lineage, g);
        if (!gb_record__parse_rung(json_array_get(lin, i), path, &r->lineage.items[r->lineage.len - 1], err))
            return false;
    }
    return true;
}

/* The steps of the pick: bare codes or {op, name, site, rc_delta}. */
static bool gb_record__parse_operators(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *ops = gb_record__get_typed(o, "operators", P, true, &ok, err);
    if (!ok) return false;
    r->has_operators = ops != NULL;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *e = json_array_get(ops, i);
        GbRecordStep st = {NULL, NULL, NULL, NAN};
        char path[64];
        snprintf(path, sizeof path, "genebench.operators[%zu]", i);
        if (json_is_string(e)) {
            /* A bare code (older outputs and the test stand-in). */
            st.op = gb_strdup(json_string_value(e));
            gb_array_push(&r->operators, st);
            continue;
        }
        if (!json_is_object(e) || !json_is_string(json_object_get(e, "op"))) {
            gb_error_set(err, "field \"%s\" must be an object with a string \"op\"", path);
            return false;
        }
        st.op = gb_strdup(json_string_value(json_object_get(e, "op")));
        gb_array_push(&r->operators, st);
        GbRecordStep *p = &r->operators.items[r->operators.len - 1];
        if (!gb_record__get_str(e, "name", path, &p->name, err) ||
            !gb_record__get_str(e, "site", path, &p->site, err) ||
            !gb_record__get_num(e, "rc_delta", path, &p->rc_delta, err))
            return false;
    }
    return true;
}

/* The byte spans each step changed. */
static bool gb_record__parse_edits(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *edits = gb_record__get_typed(o, "edits", P, true, &ok, err);
    if (!ok) return false;
    r->has_edits = edits != NULL;
    for (size_t i = 0; i < json_array_size(edits); i++) {
        json_t *e = json_array_get(edits, i);
        char path[64];
        snprintf(path, sizeof path, "genebench.edits[%zu]", i);
        if (!json_is_object(e) || !json_is_string(json_object_get(e, "module"))) {
            gb_error_set(err, "field \"%s\" must be an object with a string \"module\"", path);
            return false;
        }
        json_t *op = json_object_get(e, "op");
        GbApplied a = {gb_strdup(json_is_string(op) ? json_string_value(op) : ""),
                       gb_strdup(""),
                       gb_strdup(json_string_value(json_object_get(e, "module"))),
                       0,
                       0,
                       0};
        gb_array_push(&r->edits, a);
        GbApplied *p = &r->edits.items[r->edits.len - 1];
        const char *keys[3] = {"start", "old_end", "new_end"};
        size_t *dst[3] = {&p->start, &p->old_end, &p->new_end};
        for (int k = 0; k < 3; k++) {
            long v = -1;
            if (!gb_record__get_long(e, keys[k], path, &v, err)) return false;
            if (v < 0) {
                gb_error_set(err, "field \"%s.%s\" is missing", path, keys[k]);
                return false;
            }
            *dst[k] = (size_t)v;
        }
        if (p->old_end < p->start || p->new_end < p->start) {
            gb_error_set(err, "field \"%s\": old_end and new_end must not precede start", path);
            return false;
        }
    }
    return true;
}

/* The final front: rc, rr, source and operators of each member. */
static bool gb_record__parse_front(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *front = gb_record__get_typed(o, "front", P, true, &ok, err);
    if (!ok) return false;
    r->has_front = front != NULL;
    for (size_t i = 0; i < json_array_size(front); i++) {
        json_t *e = json_array_get(front, i);
        char path[64];
        snprintf(path, sizeof path, "genebench.front[%zu]", i);
        if (!json_is_object(e)) {
            gb_error_set(err, "field \"%s\" must be an object", path);
            return false;
        }
        GbRecordFrontMember m = {NAN, NAN, {0}, NULL};
        gb_array_push(&r->front, m);
        GbRecordFrontMember *p = &r->front.items[r->front.len - 1];
        if (!gb_record__get_num(e, "rc", path, &p->rc, err) || !gb_record__get_num(e, "rr", path, &p->rr, err) ||
            !gb_record__get_str(e, "source", path, &p->source, err))
            return false;
        json_t *fo = gb_record__get_typed(e, "operators", path, true, &ok, err);
        if (!ok) return false;
        for (size_t k = 0; k < json_array_size(fo); k++) {
            json_t *c = json_array_get(fo, k);
            if (!json_is_string(c)) {
                gb_error_set(err, "field \"%s.operators[%zu]\" must be a string, got %s", path, k,
                             gb_json_type_name(c));
                return false;
            }
            gb_array_push(&p->operators, gb_strdup(json_string_value(c)));
        }
    }
    return true;
}

/* The gates' rejection counts, in all and per operator. */
static bool gb_record__parse_gate_counts(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *gates = gb_record__get_typed(o, "gates", P, false, &ok, err);
    if (!ok || (gates && !gb_record__parse_gates(gates, "genebench.gates", &r->gates, err))) return false;
    r->has_gates = gates != NULL;
    json_t *per = gb_record__get_typed(o, "gates_by_operator", P, false, &ok, err);
    if (!ok) return false;
    r->has_gates_by_operator = per != NULL;
    const char *code;
    json_t *g;
    json_object_foreach(per, code, g)
    {
        char path[64];
        snprintf(path, sizeof path, "genebench.gates_by_operator.%s", code);
        int op = -1;
        for (int k = 0; k < GB_OP_COUNT && op < 0; k++)
            if (strcmp(gb_operator((GbOperatorId)k)->code, code) == 0) op = k;
        if (op < 0 || !json_is_object(g)) {
            gb_error_set(err, "field \"%s\": not an operator code with an object of counts", path);
            return false;
        }
        if (!gb_record__parse_gates(g, path, &r->gates_by_operator[op], err)) return false;
    }
    return true;
}

/* The naming step: its mode, the renames and whether they were kept. */
static bool gb_record__parse_naming(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *naming = gb_record__get_typed(o, "naming", P, false, &ok, err);
    if (!ok) return false;
    if (naming) {
        r->has_naming = true;
        if (!gb_record__get_str(naming, "mode", "genebench.naming", &r->naming_mode, err)) return false;
        json_t *ren = gb_record__get_typed(naming, "renamed", "genebench.naming", false, &ok, err);
        if (!ok) return false;
        const char *old_name;
        json_t *new_name;
        json_object_foreach(ren, old_name, new_name)
        {
            if (!json_is_string(new_name)) {
                gb_error_set(err, "field \"genebench.naming.renamed.%s\" must be a string", old_name);
                return false;
            }
            GbRename rn = {gb_strdup(old_name), gb_strdup(json_string_value(new_name))};
            gb_array_push(&r->renamed, rn);
        }
        json_t *kept = json_object_get(naming, "kept");
        if (kept && !json_is_boolean(kept)) {
            gb_error_set(err, "field \"genebench.naming.kept\" must be true or false");
            return false;
        }
        r->naming_kept = json_is_true(kept);
    }
    return true;
}

/* The lint scores before and after. */
static bool gb_record__parse_lint(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *lint = gb_record__get_typed(o, "lint", P, false, &ok, err);
    if (!ok) return false;
    if (lint) {
        r->has_lint = true;
        if (!gb_record__get_num(lint, "before", "genebench.lint", &r->lint_before, err) ||
            !gb_record__get_num(lint, "after", "genebench.lint", &r->lint_after, err))
            return false;
    }
    return true;
}

/* The equivalence gate's inputs and the branch coverage they reached. */
static bool gb_record__parse_equiv(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *equiv = gb_record__get_typed(o, "equiv", P, false, &ok, err);
    if (!ok) return false;
    if (equiv) {
        r->has_equiv = true;
        if (!gb_record__get_long(equiv, "inputs", "genebench.equiv", &r->equiv_inputs, err) ||
            !gb_record__get_long(equiv, "derived", "genebench.equiv", &r->equiv_derived, err) ||
            !gb_record__get_long(equiv, "large", "genebench.equiv", &r->equiv_large, err))
            return false;
        json_t *e = json_object_get(equiv, "error");
        if (json_is_string(e)) r->equiv_error = gb_strdup(json_string_value(e));
        json_t *b = json_object_get(equiv, "branches"), *c = json_object_get(equiv, "covered"),
               *u = json_object_get(equiv, "uncovered");
        if (json_is_integer(b) && json_is_integer(c)) {
            r->equiv_branches = (long)json_integer_value(b);
            r->equiv_covered = (long)json_integer_value(c);
        }
        if (json_is_string(u)) r->equiv_uncovered = gb_strdup(json_string_value(u));
        r->equiv_untraced = json_is_false(json_object_get(equiv, "traced"));
        json_t *sc = json_object_get(equiv, "screen"), *rf = json_object_get(equiv, "refuted");
        r->has_equiv_screen = json_is_integer(sc);
        if (json_is_integer(sc)) r->equiv_screen = (long)json_integer_value(sc);
        if (json_is_integer(rf)) r->equiv_refuted = (long)json_integer_value(rf);
    }
    return true;
}

/* How far the pick moved from the original in the model's space. */
static bool gb_record__parse_away(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    json_t *away = gb_record__get_typed(o, "away", P, false, &ok, err);
    if (!ok) return false;
    if (away) {
        r->has_away = true;
        if (!gb_record__get_long(away, "versions", "genebench.away", &r->away_versions, err) ||
            !gb_record__get_num(away, "target", "genebench.away", &r->away_target, err) ||
            !gb_record__get_num(away, "original", "genebench.away", &r->away_original, err) ||
            !gb_record__get_num(away, "pick", "genebench.away", &r->away_pick, err))
            return false;
    }
    return true;
}

/* Stacked children: the most operators one could carry, and how many joined. */
static bool gb_record__parse_stack(json_t *o, GbRecord *r, GbError *err)
{
    bool ok = true;
    json_t *st = gb_record__get_typed(o, "stack", "genebench", false, &ok, err);
    if (!ok) return false;
    if (st) {
        r->has_stack = true;
        if (!gb_record__get_long(st, "depth", "genebench.stack", &r->stack_depth, err) ||
            !gb_record__get_long(st, "stacked", "genebench.stack", &r->stack_stacked, err))
            return false;
    }
    return true;
}

/* A stdio task's cases run in one probe: the programs refuted when run apart. */
static bool gb_record__parse_together(json_t *o, GbRecord *r, GbError *err)
{
    bool ok = true;
    json_t *t = gb_record__get_typed(o, "together", "genebench", false, &ok, err);
    if (!ok) return false;
    if (t) {
        r->has_together = true;
        if (!gb_record__get_long(t, "refuted", "genebench.together", &r->together_refuted, err)) return false;
    }
    return true;
}

static bool gb_record__parse_genebench(json_t *o, GbRecord *r, GbError *err)
{
    const char *P = "genebench";
    bool ok = true;
    if (!json_is_object(o)) {
        gb_error_set(err, "field \"genebench\" must be an object, got %s", gb_json_type_name(o));
        return false;
    }
    if (!gb_record__get_long(o, "index", P, &r->index, err)) return false;
    json_t *seed = json_object_get(o, "seed");
    if (seed) {
        long s = 0;
        if (!json_is_integer(seed) && !gb_record__get_long(o, "seed", P, &s, err)) return false;
        if (json_is_integer(seed) && json_integer_value(seed) < 0) {
            gb_error_set(err, "field \"genebench.seed\" must be a non-negative integer");
            return false;
        }
        r->seed = json_is_integer(seed) ? (uint64_t)json_integer_value(seed) : (uint64_t)json_number_value(seed);
        r->has_seed = true;
    }
    json_t *status = json_object_get(o, "status");
    if (status) {
        if (!gb_evolve_status_parse(json_string_value(status), &r->status)) {
            gb_error_set(err, "field \"genebench.status\" must be \"hardened\", \"unchanged\", \"original_fails\" or "
                              "\"error\"");
            return false;
        }
        r->has_status = true;
    }
    if (!gb_record__get_str(o, "error", P, &r->error, err) ||
        !gb_record__get_str(o, "stop_reason", P, &r->stop_reason, err) ||
        !gb_record__get_long(o, "generations", P, &r->generations, err) ||
        !gb_record__get_str(o, "thresholds", P, &r->thresholds, err))
        return false;
    json_t *before = gb_record__get_typed(o, "before", P, false, &ok, err);
    json_t *after = ok ? gb_record__get_typed(o, "after", P, false, &ok, err) : NULL;
    if (!ok) return false;
    if (before && !gb_record__parse_score(before, "genebench.before", &r->before, err)) return false;
    if (after && !gb_record__parse_score(after, "genebench.after", &r->after, err)) return false;
    r->has_scores = before != NULL;
    if (!gb_record__parse_operators(o, r, err) || !gb_record__parse_edits(o, r, err) ||
        !gb_record__parse_front(o, r, err) || !gb_record__parse_gate_counts(o, r, err) ||
        !gb_record__parse_naming(o, r, err) || !gb_record__parse_lint(o, r, err) ||
        !gb_record__parse_equiv(o, r, err) || !gb_record__parse_away(o, r, err) || !gb_record__parse_stack(o, r, err) ||
        !gb_record__parse_together(o, r, err))
        return false;
    if (json_object_get(o, "time_s")) {
        if (!gb_record__get_num(o, "time_s", P, &r->time_s, err)) return false;
        r->has_time = true;
    }
    return gb_record__get_long(o, "offspring_validated", P, &r->offspring_validated, err) &&
           gb_record__parse_lineage(o, r, err);
}

static bool gb_record__parse_original(json_t *o, GbRecord *r, GbError *err)
{
    if (!json_is_object(o) || !json_is_string(json_object_get(o, "source"))) {
        gb_error_set(err, "field \"original\" must be an object with a string \"source\"");
        return false;
    }
    bool ok = true;
    json_t *files = gb_record__get_typed(o, "extra_files", "original", false, &ok, err);
    if (!ok) return false;
    r->original_source = gb_strdup(json_string_value(json_object_get(o, "source")));
    const char *path;
    json_t *src;
    json_object_foreach(files, path, src)
    {
        if (!json_is_string(src) || !gb_task_file_path_ok(path)) {
            gb_error_set(err, "field \"original.extra_files\": bad entry \"%s\" (a relative module path and a string)",
                         path);
            return false;
        }
        GbFile f = {gb_strdup(path), gb_strdup(json_string_value(src))};
        gb_array_push(&r->original_extra_files, f);
    }
    return true;
}

static json_t *gb_record__load(const char *text, const char *field, GbError *err)
{
    json_error_t jerr;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
    if (!v) gb_error_set(err, "field \"%s\" is not valid JSON: %s", field, jerr.text);
    return v;
}

bool gb_record_parse(const char *genebench_json, const char *original_json, GbRecord *out, GbError *err)
{
    gb_record_init(out);
    json_t *gb = gb_record__load(genebench_json, "genebench", err);
    if (!gb) return false;
    bool ok = gb_record__parse_genebench(gb, out, err);
    json_decref(gb);
    if (ok && original_json) {
        json_t *orig = gb_record__load(original_json, "original", err);
        ok = orig && gb_record__parse_original(orig, out, err);
        json_decref(orig);
    }
    return ok;
}

bool gb_record_read(const GbTask *t, GbRecord *out, GbError *err)
{
    const char *gb = gb_task_get_field(t, "genebench");
    if (!gb) {
        gb_record_init(out);
        gb_error_set(err, "no \"genebench\" field: not an output of genebench evolve");
        return false;
    }
    return gb_record_parse(gb, gb_task_get_field(t, "original"), out, err);
}

bool gb_record_present(const GbTask *t)
{
    return gb_task_get_field(t, "genebench") != NULL;
}

bool gb_record_read_hardening(const GbTask *t, GbRecord *out, GbError *err)
{
    if (!gb_task_get_field(t, "original")) {
        gb_record_init(out);
        gb_error_set(err, "no \"original\" field: not an output of genebench evolve");
        return false;
    }
    if (!gb_record_read(t, out, err)) return false;
    if (!out->has_edits && (!out->has_status || out->status == GB_EVOLVED_HARDENED)) {
        gb_error_set(err, "no \"genebench.edits\": the edit history of the hardened program is missing");
        return false;
    }
    return true;
}

void gb_record_original_program(const GbRecord *r, GbProgram *out)
{
    GbTask o;
    gb_task_init(&o);
    o.source = gb_strdup(r->original_source ? r->original_source : "");
    for (size_t i = 0; i < r->original_extra_files.len; i++)
        gb_task_set_file(&o, r->original_extra_files.items[i].path, r->original_extra_files.items[i].source);
    gb_program_from_task(out, &o);
    gb_task_destroy(&o);
}
