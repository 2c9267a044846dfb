/* The run summary: writer and parser (run_summary.h). */
#include "src/doc/run_summary.h"

#include <assert.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

#define GB_RUN_SUMMARY__DIGITS 10
#define GB_RUN_SUMMARY__MAX_DEPTH 5

void gb_run_summary_init(GbRunSummary *s)
{
    memset(s, 0, sizeof *s);
}

static void gb_run_summary__free_libs(GbRunSummary *s)
{
    for (size_t i = 0; i < s->n_libs; i++) {
        free(s->libs[i].name);
        free(s->libs[i].version);
    }
    free(s->libs);
    s->libs = NULL;
    s->n_libs = 0;
}

void gb_run_summary_destroy(GbRunSummary *s)
{
    if (!s) return;
    free(s->version);
    free(s->thresholds);
    free(s->objective);
    free(s->interpreter);
    gb_run_summary__free_libs(s);
    free(s->added_text.sentence);
    free(s->added_text.name);
    GbRunSummaryProvenance *p = &s->provenance;
    free(p->command_line);
    free(p->tool_version);
    free(p->git_commit);
    free(p->date);
    for (size_t i = 0; i < p->inputs.len; i++) free(p->inputs.items[i].path);
    gb_array_free(&p->inputs);
    memset(s, 0, sizeof *s);
}

void gb_run_summary_set_libs(GbRunSummary *s, const char *python_json)
{
    gb_run_summary__free_libs(s);
    json_t *o = python_json ? json_loads(python_json, 0, NULL) : NULL;
    if (json_is_object(o) && json_object_size(o) > 0) {
        s->libs = gb_malloc(json_object_size(o) * sizeof *s->libs);
        const char *k;
        json_t *v;
        json_object_foreach(o, k, v)
        {
            /* "interpreter" is the summary's own entry of "python" and is written last. */
            if (strcmp(k, "interpreter") == 0) continue;
            GbRunSummaryLib *lib = &s->libs[s->n_libs++];
            lib->name = gb_strdup(k);
            lib->version = json_is_string(v) ? gb_strdup(json_string_value(v)) : NULL;
        }
    }
    json_decref(o);
}

/* Pretty-printed writing, 2 spaces per level, the layout jansson's JSON_INDENT(2) has. */
typedef struct {
    GbStr *out;
    int depth;
    bool first[GB_RUN_SUMMARY__MAX_DEPTH];
} GbRunSummaryWriter;

/* Open an object ('{') or a list ('['). */
static void gb_run_summary__open_with(GbRunSummaryWriter *w, char bracket)
{
    assert(w->depth + 1 < GB_RUN_SUMMARY__MAX_DEPTH);
    gb_str_appendf(w->out, "%c", bracket);
    w->first[++w->depth] = true;
}

static void gb_run_summary__open(GbRunSummaryWriter *w)
{
    gb_run_summary__open_with(w, '{');
}

/* Close what was opened with `bracket` ('}' or ']'). */
static void gb_run_summary__close_with(GbRunSummaryWriter *w, char bracket)
{
    if (!w->first[w->depth]) gb_str_appendf(w->out, "\n%*s", 2 * (w->depth - 1), "");
    gb_str_appendf(w->out, "%c", bracket);
    w->depth--;
}

static void gb_run_summary__close(GbRunSummaryWriter *w)
{
    gb_run_summary__close_with(w, '}');
}

/* The start of the next member of an object or element of a list: a comma after the previous
 * one, a new line, the indentation. */
static void gb_run_summary__next(GbRunSummaryWriter *w)
{
    gb_str_appendf(w->out, "%s\n%*s", w->first[w->depth] ? "" : ",", 2 * w->depth, "");
    w->first[w->depth] = false;
}

static void gb_run_summary__key(GbRunSummaryWriter *w, const char *key)
{
    gb_run_summary__next(w);
    gb_json_string(w->out, key);
    gb_str_append(w->out, ": ");
}

static void gb_run_summary__int(GbRunSummaryWriter *w, const char *key, long long v)
{
    gb_run_summary__key(w, key);
    gb_json_integer(w->out, v);
}

static void gb_run_summary__real(GbRunSummaryWriter *w, const char *key, double v)
{
    gb_run_summary__key(w, key);
    gb_json_real(w->out, v, GB_RUN_SUMMARY__DIGITS);
}

static void gb_run_summary__str(GbRunSummaryWriter *w, const char *key, const char *v)
{
    gb_run_summary__key(w, key);
    gb_json_string(w->out, v);
}

static void gb_run_summary__gate_counts(GbRunSummaryWriter *w, const GbGateCounts *c)
{
    for (int g = 0; g < GB_GATE_COUNT; g++) gb_run_summary__int(w, gb_gate_name((GbGate)g), c->rejected[g]);
}

static void gb_run_summary__operator(GbRunSummaryWriter *w, const GbRunSummaryOperator *op, GbOperatorId id)
{
    gb_run_summary__key(w, gb_operator(id)->code);
    gb_run_summary__open(w);
    gb_run_summary__str(w, "name", gb_operator(id)->name);
    if (op->counts.offered == 0) {
        gb_run_summary__real(w, "mean_rc_delta", op->mean_rc_delta);
        gb_run_summary__int(w, "offered", 0);
        gb_run_summary__int(w, "accepted", op->counts.accepted);
        gb_run_summary__int(w, "in_picks", op->in_picks);
        gb_run_summary__key(w, "rejected");
        gb_run_summary__open(w);
        gb_run_summary__close(w);
        gb_run_summary__close(w);
        return;
    }
    gb_run_summary__int(w, "offered", op->counts.offered);
    gb_run_summary__int(w, "accepted", op->counts.accepted);
    gb_run_summary__key(w, "rejected");
    gb_run_summary__open(w);
    gb_run_summary__gate_counts(w, &op->counts);
    gb_run_summary__close(w);
    if (op->in_picks > 0) {
        gb_run_summary__int(w, "in_picks", op->in_picks);
        gb_run_summary__real(w, "mean_rc_delta", op->mean_rc_delta);
    } else {
        gb_run_summary__real(w, "mean_rc_delta", op->mean_rc_delta);
        gb_run_summary__int(w, "in_picks", op->in_picks);
    }
    gb_run_summary__close(w);
}

static void gb_run_summary__added_text(GbRunSummaryWriter *w, const GbRunSummaryAddedText *a)
{
    gb_run_summary__key(w, "added_text");
    gb_run_summary__open(w);
    gb_run_summary__int(w, "tasks", a->tasks);
    gb_run_summary__str(w, "sentence", a->sentence);
    gb_run_summary__int(w, "sentence_tasks", a->sentence_tasks);
    gb_run_summary__real(w, "sentence_share", a->sentence_share);
    gb_run_summary__str(w, "name", a->name);
    gb_run_summary__int(w, "name_tasks", a->name_tasks);
    gb_run_summary__real(w, "name_share", a->name_share);
    gb_run_summary__close(w);
}

static void gb_run_summary__provenance(GbRunSummaryWriter *w, const GbRunSummaryProvenance *p)
{
    gb_run_summary__key(w, "provenance");
    gb_run_summary__open(w);
    gb_run_summary__str(w, "command_line", p->command_line ? p->command_line : "");
    gb_run_summary__str(w, "tool_version", p->tool_version ? p->tool_version : "");
    gb_run_summary__str(w, "git_commit", p->git_commit ? p->git_commit : "");
    if (p->date) gb_run_summary__str(w, "date", p->date);
    gb_run_summary__key(w, "inputs");
    gb_run_summary__open_with(w, '[');
    for (size_t i = 0; i < p->inputs.len; i++) {
        const GbRunSummaryInput *in = &p->inputs.items[i];
        gb_run_summary__next(w);
        gb_run_summary__open(w);
        gb_run_summary__str(w, "path", in->path ? in->path : "");
        if (in->sha256[0]) gb_run_summary__str(w, "sha256", in->sha256);
        gb_run_summary__close(w);
    }
    gb_run_summary__close_with(w, ']');
    gb_run_summary__close(w);
}

char *gb_run_summary_write(const GbRunSummary *s)
{
    GbStr out;
    gb_str_init(&out);
    GbRunSummaryWriter w = {.out = &out};
    gb_run_summary__open(&w);
    gb_run_summary__str(&w, "tool", "genebench");
    gb_run_summary__str(&w, "version", s->version ? s->version : "");
    gb_run_summary__int(&w, "seed", (long long)s->seed);
    gb_run_summary__int(&w, "generations", s->generations);
    gb_run_summary__real(&w, "time_budget", s->time_budget);
    gb_run_summary__real(&w, "breed", s->breed);
    gb_run_summary__str(&w, "thresholds", s->thresholds ? s->thresholds : "");
    gb_run_summary__key(&w, "lint");
    gb_json_bool(&out, s->lint);
    if (s->objective) {
        gb_run_summary__str(&w, "objective", s->objective);
        gb_run_summary__int(&w, "accept", s->accept);
        if (s->away_versions) {
            gb_run_summary__key(&w, "away");
            gb_run_summary__open(&w);
            gb_run_summary__int(&w, "versions", s->away_versions);
            gb_run_summary__real(&w, "target", s->away_target);
            gb_run_summary__close(&w);
        }
    }
    gb_run_summary__key(&w, "python");
    gb_run_summary__open(&w);
    for (size_t i = 0; i < s->n_libs; i++) gb_run_summary__str(&w, s->libs[i].name, s->libs[i].version);
    gb_run_summary__str(&w, "interpreter", s->interpreter ? s->interpreter : "");
    gb_run_summary__close(&w);
    gb_run_summary__int(&w, "tasks", s->tasks);
    gb_run_summary__int(&w, "hardened", s->hardened);
    gb_run_summary__int(&w, "unchanged", s->unchanged);
    gb_run_summary__int(&w, "failed", s->failed);
    gb_run_summary__real(&w, "rc_before_mean", s->rc_before_mean);
    gb_run_summary__real(&w, "rr_before_mean", s->rr_before_mean);
    gb_run_summary__real(&w, "rc_after_mean", s->rc_after_mean);
    gb_run_summary__real(&w, "rr_after_mean", s->rr_after_mean);
    gb_run_summary__real(&w, "time_s", s->time_s);
    gb_run_summary__int(&w, "offspring_validated", s->offspring_validated);
    gb_run_summary__int(&w, "offspring_validated_this_run", s->offspring_validated_this_run);
    gb_run_summary__real(&w, "offspring_per_s", s->offspring_per_s);
    gb_run_summary__key(&w, "gates");
    gb_run_summary__open(&w);
    if (s->has_gates) {
        gb_run_summary__int(&w, "offered", s->gates.offered);
        gb_run_summary__gate_counts(&w, &s->gates);
        gb_run_summary__int(&w, "accepted", s->gates.accepted);
    }
    gb_run_summary__close(&w);
    gb_run_summary__key(&w, "operators");
    gb_run_summary__open(&w);
    for (int o = 0; o < GB_OP_COUNT; o++) gb_run_summary__operator(&w, &s->operators[o], (GbOperatorId)o);
    gb_run_summary__close(&w);
    gb_run_summary__key(&w, "metrics");
    gb_run_summary__open(&w);
    for (int k = 0; k < GB_METRIC_COUNT; k++) {
        const GbRunSummaryMetric *m = &s->metrics[k];
        gb_run_summary__key(&w, gb_metric_key((GbMetricId)k));
        gb_run_summary__open(&w);
        gb_run_summary__real(&w, "before_mean", m->before_mean);
        gb_run_summary__real(&w, "after_mean", m->after_mean);
        gb_run_summary__int(&w, "raised", m->raised);
        gb_run_summary__int(&w, "lowered", m->lowered);
        gb_run_summary__int(&w, "tasks", m->tasks);
        gb_run_summary__close(&w);
    }
    gb_run_summary__close(&w);
    if (s->has_added_text) gb_run_summary__added_text(&w, &s->added_text);
    if (s->has_provenance) gb_run_summary__provenance(&w, &s->provenance);
    gb_run_summary__close(&w);
    gb_str_append(&out, "\n");
    return gb_str_take(&out);
}

/* The keys of the gate counts object (offered, the gates, accepted; NULL-terminated). */
static void gb_run_summary__gate_keys(const char **keys, bool with_totals)
{
    size_t n = 0;
    if (with_totals) keys[n++] = "offered";
    for (int g = 0; g < GB_GATE_COUNT; g++) keys[n++] = gb_gate_name((GbGate)g);
    if (with_totals) keys[n++] = "accepted";
    keys[n] = NULL;
}

/* The per-gate counts of obj; with_totals: obj also holds "offered" and "accepted". */
static void gb_run_summary__parse_gates(GbDocReader *c, json_t *obj, const char *where, bool with_totals,
                                        GbGateCounts *out)
{
    const char *keys[GB_GATE_COUNT + 3];
    gb_run_summary__gate_keys(keys, with_totals);
    gb_doc_keys(c, obj, where, keys);
    if (with_totals) {
        gb_doc_long(c, obj, where, "offered", &out->offered);
        gb_doc_long(c, obj, where, "accepted", &out->accepted);
    }
    for (int g = 0; g < GB_GATE_COUNT; g++) gb_doc_long(c, obj, where, gb_gate_name((GbGate)g), &out->rejected[g]);
}

static void gb_run_summary__parse_operator(GbDocReader *c, json_t *ops, GbOperatorId id, GbRunSummaryOperator *op)
{
    const char *code = gb_operator(id)->code;
    json_t *e = gb_doc_get(c, ops, "operators.", code, JSON_OBJECT, "an object");
    if (!e) return;
    char *where = gb_asprintf("operators.%s.", code);
    static const char *const keys[] = {"name", "offered", "accepted", "rejected", "in_picks", "mean_rc_delta", NULL};
    gb_doc_keys(c, e, where, keys);
    const char *name = NULL;
    gb_doc_string_ref(c, e, where, "name", false, &name);
    if (name && strcmp(name, gb_operator(id)->name) != 0)
        gb_doc_fail(c, "\"%sname\": expected \"%s\"", where, gb_operator(id)->name);
    gb_doc_long(c, e, where, "offered", &op->counts.offered);
    gb_doc_long(c, e, where, "accepted", &op->counts.accepted);
    gb_doc_long(c, e, where, "in_picks", &op->in_picks);
    gb_doc_rate(c, e, where, "mean_rc_delta", &op->mean_rc_delta);
    json_t *rej = gb_doc_get(c, e, where, "rejected", JSON_OBJECT, "an object");
    char *rwhere = gb_asprintf("%srejected.", where);
    if (rej && op->counts.offered > 0)
        gb_run_summary__parse_gates(c, rej, rwhere, false, &op->counts);
    else if (rej && json_object_size(rej) > 0)
        gb_doc_fail(c, "\"%srejected\": expected {} for an operator never offered", where);
    free(rwhere);
    free(where);
}

static void gb_run_summary__parse_python(GbDocReader *c, json_t *py, GbRunSummary *out)
{
    gb_doc_string(c, py, "python.", "interpreter", false, &out->interpreter);
    if (!c->ok) return;
    out->libs = gb_malloc((json_object_size(py) + 1) * sizeof *out->libs);
    const char *k;
    json_t *v;
    json_object_foreach(py, k, v)
    {
        if (strcmp(k, "interpreter") == 0) continue;
        GbRunSummaryLib *lib = &out->libs[out->n_libs];
        if (!json_is_string(v) && !json_is_null(v)) {
            gb_doc_fail(c, "\"python.%s\": expected a string or null", k);
            return;
        }
        lib->name = gb_strdup(k);
        lib->version = json_is_string(v) ? gb_strdup(json_string_value(v)) : NULL;
        out->n_libs++;
    }
}

static void gb_run_summary__parse_metrics(GbDocReader *c, json_t *m, GbRunSummary *out)
{
    const char *keys[GB_METRIC_COUNT + 1];
    for (int k = 0; k < GB_METRIC_COUNT; k++) keys[k] = gb_metric_key((GbMetricId)k);
    keys[GB_METRIC_COUNT] = NULL;
    gb_doc_keys(c, m, "metrics.", keys);
    static const char *const entry_keys[] = {"before_mean", "after_mean", "raised", "lowered", "tasks", NULL};
    for (int k = 0; k < GB_METRIC_COUNT && c->ok; k++) {
        json_t *e = gb_doc_get(c, m, "metrics.", keys[k], JSON_OBJECT, "an object");
        if (!e) return;
        char *where = gb_asprintf("metrics.%s.", keys[k]);
        GbRunSummaryMetric *mt = &out->metrics[k];
        gb_doc_keys(c, e, where, entry_keys);
        gb_doc_rate(c, e, where, "before_mean", &mt->before_mean);
        gb_doc_rate(c, e, where, "after_mean", &mt->after_mean);
        gb_doc_long(c, e, where, "raised", &mt->raised);
        gb_doc_long(c, e, where, "lowered", &mt->lowered);
        gb_doc_long(c, e, where, "tasks", &mt->tasks);
        free(where);
    }
}

static void gb_run_summary__parse_added_text(GbDocReader *c, json_t *o, GbRunSummary *out)
{
    json_t *a = gb_doc_get(c, o, "", "added_text", JSON_OBJECT, "an object");
    if (!a) return;
    static const char *const keys[] = {"tasks", "sentence",   "sentence_tasks", "sentence_share",
                                       "name",  "name_tasks", "name_share",     NULL};
    const char *w = "added_text.";
    GbRunSummaryAddedText *t = &out->added_text;
    out->has_added_text = true;
    gb_doc_keys(c, a, w, keys);
    gb_doc_long(c, a, w, "tasks", &t->tasks);
    gb_doc_string(c, a, w, "sentence", true, &t->sentence);
    gb_doc_long(c, a, w, "sentence_tasks", &t->sentence_tasks);
    gb_doc_rate(c, a, w, "sentence_share", &t->sentence_share);
    gb_doc_string(c, a, w, "name", true, &t->name);
    gb_doc_long(c, a, w, "name_tasks", &t->name_tasks);
    gb_doc_rate(c, a, w, "name_share", &t->name_share);
}

static void gb_run_summary__parse_provenance(GbDocReader *c, json_t *o, GbRunSummary *out)
{
    json_t *p = gb_doc_get(c, o, "", "provenance", JSON_OBJECT, "an object");
    if (!p) return;
    static const char *const keys[] = {"command_line", "tool_version", "git_commit", "date", "inputs", NULL};
    static const char *const input_keys[] = {"path", "sha256", NULL};
    const char *w = "provenance.";
    GbRunSummaryProvenance *v = &out->provenance;
    out->has_provenance = true;
    gb_doc_keys(c, p, w, keys);
    gb_doc_string(c, p, w, "command_line", false, &v->command_line);
    gb_doc_string(c, p, w, "tool_version", false, &v->tool_version);
    gb_doc_string(c, p, w, "git_commit", false, &v->git_commit);
    if (c->ok && json_object_get(p, "date")) gb_doc_string(c, p, w, "date", false, &v->date);
    json_t *inputs = gb_doc_get(c, p, w, "inputs", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(inputs); i++) {
        char *wi = gb_asprintf("provenance.inputs[%zu].", i);
        json_t *e = json_array_get(inputs, i);
        if (!json_is_object(e)) gb_doc_fail(c, "\"provenance.inputs[%zu]\": expected an object", i);
        gb_doc_keys(c, e, wi, input_keys);
        GbRunSummaryInput in = {0};
        gb_doc_string(c, e, wi, "path", false, &in.path);
        const char *sha = NULL;
        if (c->ok && json_object_get(e, "sha256")) gb_doc_string_ref(c, e, wi, "sha256", false, &sha);
        if (sha && (strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64))
            gb_doc_fail(c, "\"%ssha256\": expected 64 hexadecimal digits", wi);
        if (c->ok && sha) memcpy(in.sha256, sha, 65);
        gb_array_push(&v->inputs, in);
        free(wi);
    }
}

static void gb_run_summary__parse_object(GbDocReader *c, json_t *o, GbRunSummary *out)
{
    static const char *const keys[] = {"tool",
                                       "version",
                                       "seed",
                                       "generations",
                                       "time_budget",
                                       "breed",
                                       "thresholds",
                                       "lint",
                                       "objective",
                                       "accept",
                                       "away",
                                       "python",
                                       "tasks",
                                       "hardened",
                                       "unchanged",
                                       "failed",
                                       "rc_before_mean",
                                       "rr_before_mean",
                                       "rc_after_mean",
                                       "rr_after_mean",
                                       "time_s",
                                       "offspring_validated",
                                       "offspring_validated_this_run",
                                       "offspring_per_s",
                                       "gates",
                                       "operators",
                                       "metrics",
                                       "added_text",
                                       "provenance",
                                       NULL};
    gb_doc_keys(c, o, "", keys);
    const char *tool = NULL;
    gb_doc_string_ref(c, o, "", "tool", false, &tool);
    if (tool && strcmp(tool, "genebench") != 0) gb_doc_fail(c, "\"tool\": expected \"genebench\"");
    gb_doc_string(c, o, "", "version", false, &out->version);
    long seed = 0;
    gb_doc_long(c, o, "", "seed", &seed);
    out->seed = (unsigned long long)seed;
    gb_doc_long(c, o, "", "generations", &out->generations);
    gb_doc_rate(c, o, "", "time_budget", &out->time_budget);
    gb_doc_rate(c, o, "", "breed", &out->breed);
    gb_doc_string(c, o, "", "thresholds", false, &out->thresholds);
    gb_doc_bool(c, o, "", "lint", &out->lint);
    if (c->ok && json_object_get(o, "objective")) {
        gb_doc_string(c, o, "", "objective", false, &out->objective);
        gb_doc_long(c, o, "", "accept", &out->accept);
        json_t *away = json_object_get(o, "away");
        if (away) {
            static const char *const away_keys[] = {"versions", "target", NULL};
            away = gb_doc_get(c, o, "", "away", JSON_OBJECT, "an object");
            gb_doc_keys(c, away, "away.", away_keys);
            gb_doc_long(c, away, "away.", "versions", &out->away_versions);
            gb_doc_rate(c, away, "away.", "target", &out->away_target);
            if (c->ok && out->away_versions == 0) gb_doc_fail(c, "\"away.versions\": expected a count above 0");
        }
    } else if (c->ok && (json_object_get(o, "accept") || json_object_get(o, "away"))) {
        gb_doc_fail(c, "\"objective\": expected a string (missing, with \"%s\")",
                    json_object_get(o, "accept") ? "accept" : "away");
    }
    json_t *py = gb_doc_get(c, o, "", "python", JSON_OBJECT, "an object");
    if (py) gb_run_summary__parse_python(c, py, out);
    gb_doc_long(c, o, "", "tasks", &out->tasks);
    gb_doc_long(c, o, "", "hardened", &out->hardened);
    gb_doc_long(c, o, "", "unchanged", &out->unchanged);
    gb_doc_long(c, o, "", "failed", &out->failed);
    gb_doc_rate(c, o, "", "rc_before_mean", &out->rc_before_mean);
    gb_doc_rate(c, o, "", "rr_before_mean", &out->rr_before_mean);
    gb_doc_rate(c, o, "", "rc_after_mean", &out->rc_after_mean);
    gb_doc_rate(c, o, "", "rr_after_mean", &out->rr_after_mean);
    gb_doc_rate(c, o, "", "time_s", &out->time_s);
    gb_doc_long(c, o, "", "offspring_validated", &out->offspring_validated);
    gb_doc_long(c, o, "", "offspring_validated_this_run", &out->offspring_validated_this_run);
    gb_doc_rate(c, o, "", "offspring_per_s", &out->offspring_per_s);
    json_t *gates = gb_doc_get(c, o, "", "gates", JSON_OBJECT, "an object");
    out->has_gates = gates && json_object_size(gates) > 0;
    if (out->has_gates) {
        gb_run_summary__parse_gates(c, gates, "gates.", true, &out->gates);
    }
    json_t *ops = gb_doc_get(c, o, "", "operators", JSON_OBJECT, "an object");
    if (ops) {
        const char *op_keys[GB_OP_COUNT + 1];
        for (int k = 0; k < GB_OP_COUNT; k++) op_keys[k] = gb_operator((GbOperatorId)k)->code;
        op_keys[GB_OP_COUNT] = NULL;
        gb_doc_keys(c, ops, "operators.", op_keys);
        for (int k = 0; k < GB_OP_COUNT; k++)
            gb_run_summary__parse_operator(c, ops, (GbOperatorId)k, &out->operators[k]);
    }
    json_t *m = gb_doc_get(c, o, "", "metrics", JSON_OBJECT, "an object");
    if (m) gb_run_summary__parse_metrics(c, m, out);
    if (c->ok && json_object_get(o, "added_text")) gb_run_summary__parse_added_text(c, o, out);
    if (c->ok && json_object_get(o, "provenance")) gb_run_summary__parse_provenance(c, o, out);
}

bool gb_run_summary_parse(const char *text, size_t len, const char *name, GbRunSummary *out, GbError *err)
{
    gb_run_summary_init(out);
    GbDocReader c = {.name = name, .err = err, .ok = true};
    json_t *o = gb_doc_parse(&c, text, len);
    if (o && !json_is_object(o)) gb_doc_fail(&c, "expected a JSON object");
    if (c.ok) gb_run_summary__parse_object(&c, o, out);
    json_decref(o);
    if (!c.ok) gb_run_summary_destroy(out);
    return c.ok;
}

bool gb_run_summary_read(const char *path, GbRunSummary *out, GbError *err)
{
    gb_run_summary_init(out);
    size_t len;
    char *text = gb_read_file(path, &len, err);
    if (!text) return false;
    bool ok = gb_run_summary_parse(text, len, path, out, err);
    free(text);
    return ok;
}
