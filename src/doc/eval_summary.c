/* The eval summary: struct, writer and parser (eval_summary.h). */
#include "src/doc/eval_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

void gb_eval_summary_destroy(GbEvalSummary *s)
{
    if (!s) return;
    free(s->model);
    free(s->task);
    free(s->k);
    free(s->stopped_by);
    for (size_t i = 0; i < s->warnings.len; i++) free(s->warnings.items[i]);
    gb_array_free(&s->warnings);
    for (size_t i = 0; i < s->versions.len; i++) {
        free(s->versions.items[i].file);
        free(s->versions.items[i].pass_at);
        free(s->versions.items[i].pass_lo);
        free(s->versions.items[i].pass_hi);
        free(s->versions.items[i].plus_pass_at);
    }
    free(s->robust.pass_at);
    free(s->robust.robust_pass);
    free(s->robust.robust_drop);
    free(s->robust.robust_rel);
    gb_array_free(&s->versions);
    for (size_t i = 0; i < s->comparisons.len; i++) free(s->comparisons.items[i].file);
    gb_array_free(&s->comparisons);
    gb_array_free(&s->trunc_versions);
    gb_array_free(&s->trunc_drops);
    gb_eval_provenance_destroy(&s->provenance);
    memset(s, 0, sizeof *s);
}

static char *gb_eval_summary__dup(const char *s)
{
    return s ? gb_strdup(s) : NULL;
}

void gb_eval_provenance_copy(GbEvalProvenance *out, const GbEvalProvenance *p)
{
    memset(out, 0, sizeof *out);
    out->command_line = gb_eval_summary__dup(p->command_line);
    out->tool_version = gb_eval_summary__dup(p->tool_version);
    out->git_commit = gb_eval_summary__dup(p->git_commit);
    out->date = gb_eval_summary__dup(p->date);
    for (size_t i = 0; i < p->inputs.len; i++) {
        GbEvalInputFile f = p->inputs.items[i];
        f.path = gb_strdup(f.path);
        gb_array_push(&out->inputs, f);
    }
    out->source = gb_eval_summary__dup(p->source);
    out->server_url = gb_eval_summary__dup(p->server_url);
    out->server_model = gb_eval_summary__dup(p->server_model);
    out->server_context = p->server_context;
    out->api = gb_eval_summary__dup(p->api);
    out->system_sha256 = gb_eval_summary__dup(p->system_sha256);
    out->has_answers = p->has_answers;
    out->answers = p->answers;
    out->answers.path = gb_eval_summary__dup(p->answers.path);
    out->prompt_version = gb_eval_summary__dup(p->prompt_version);
    out->has_template = p->has_template;
    out->prompt_template = p->prompt_template;
    out->prompt_template.path = gb_eval_summary__dup(p->prompt_template.path);
    out->sandbox = gb_eval_summary__dup(p->sandbox);
}

void gb_eval_provenance_destroy(GbEvalProvenance *p)
{
    if (!p) return;
    char *strs[] = {
        p->command_line,        p->tool_version, p->git_commit,    p->date,         p->source,         p->server_url,
        p->server_model,        p->api,          p->system_sha256, p->answers.path, p->prompt_version, p->sandbox,
        p->prompt_template.path};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) free(strs[i]);
    for (size_t i = 0; i < p->inputs.len; i++) free(p->inputs.items[i].path);
    gb_array_free(&p->inputs);
    memset(p, 0, sizeof *p);
}

/* ---- writing -------------------------------------------------------------------------------- */

/* The summary's strings and numbers, as it has always written them: \u escapes in upper-case hex,
 * reals with 12 significant digits. */
static void gb_eval_summary__string(GbStr *out, const char *v)
{
    gb_json_string_as(out, v, GB_JSON_HEX_UPPER);
}

static void gb_eval_summary__number(GbStr *out, double v)
{
    gb_json_number_real(out, v, 12);
}

static void gb_eval_summary__put_string(GbStr *out, const char *key, const char *v, bool *first)
{
    gb_json_key(out, key, first);
    gb_eval_summary__string(out, v);
}

static void gb_eval_summary__put_number(GbStr *out, const char *key, double v, bool *first)
{
    gb_json_key(out, key, first);
    gb_eval_summary__number(out, v);
}

static void gb_eval_summary__put_integer(GbStr *out, const char *key, long long v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_integer(out, v);
}

/* "key":[lo,hi] */
static void gb_eval_summary__put_pair(GbStr *out, const char *key, double lo, double hi, bool *first)
{
    gb_json_key(out, key, first);
    gb_str_append(out, "[");
    gb_eval_summary__number(out, lo);
    gb_str_append(out, ",");
    gb_eval_summary__number(out, hi);
    gb_str_append(out, "]");
}

/* {"<k>": x...} of per-k values (x NULL: all null). */
static void gb_eval_summary__per_k(GbStr *out, const GbEvalSummary *s, const double *x)
{
    bool first = true;
    gb_str_append(out, "{");
    for (size_t i = 0; i < s->nk; i++) {
        char key[32];
        snprintf(key, sizeof key, "%ld", s->k[i]);
        gb_eval_summary__put_number(out, key, x ? x[i] : NAN, &first);
    }
    gb_str_append(out, "}");
}

static void gb_eval_summary__version(GbStr *out, const GbEvalSummary *s, const GbEvalSummaryVersion *v)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "version", v->version, &first);
    gb_eval_summary__put_string(out, "file", v->file, &first);
    gb_eval_summary__put_integer(out, "items_scored", (long long)v->items_scored, &first);
    gb_json_key(out, "pass_at", &first);
    gb_eval_summary__per_k(out, s, v->pass_at);
    gb_json_key(out, "pass_at_ci95", &first);
    {
        bool first_k = true;
        gb_str_append(out, "{");
        for (size_t i = 0; i < s->nk; i++) {
            char key[32];
            snprintf(key, sizeof key, "%ld", s->k[i]);
            gb_eval_summary__put_pair(out, key, v->pass_lo ? v->pass_lo[i] : NAN, v->pass_hi ? v->pass_hi[i] : NAN,
                                      &first_k);
        }
        gb_str_append(out, "}");
    }
    if (s->has_plus) {
        gb_json_key(out, "plus_pass_at", &first);
        gb_eval_summary__per_k(out, s, v->plus_pass_at);
    }
    gb_json_key(out, "verdicts", &first);
    bool first_v = true;
    gb_str_append(out, "{");
    for (int x = GB_V_NONE + 1; x < GB_V_COUNT; x++)
        gb_eval_summary__put_integer(out, gb_verdict_name((GbVerdict)x), (long long)v->verdicts[x], &first_v);
    gb_str_append(out, "}}");
}

static void gb_eval_summary__comparison(GbStr *out, const GbEvalSummary *s, const GbEvalComparison *c)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "version", c->version, &first);
    gb_eval_summary__put_string(out, "file", c->file, &first);
    gb_eval_summary__put_integer(out, "items", (long long)c->items, &first);
    gb_eval_summary__put_integer(out, "both_pass", (long long)c->both_pass, &first);
    gb_eval_summary__put_integer(out, "lost", (long long)c->lost, &first);
    gb_eval_summary__put_integer(out, "gained", (long long)c->gained, &first);
    gb_eval_summary__put_integer(out, "both_fail", (long long)c->both_fail, &first);
    gb_eval_summary__put_number(out, "pass1_original", c->pass1_original, &first);
    gb_eval_summary__put_number(out, "pass1_version", c->pass1_version, &first);
    gb_eval_summary__put_number(out, "relative_drop", c->relative_drop, &first);
    gb_eval_summary__put_pair(out, "drop_ci95", c->drop_lo, c->drop_hi, &first);
    gb_eval_summary__put_number(out, "absolute_drop", c->abs_drop, &first);
    gb_eval_summary__put_pair(out, "absolute_drop_ci95", c->abs_lo, c->abs_hi, &first);
    gb_eval_summary__put_number(out, "mcnemar_p", c->mcnemar_p, &first);
    if (s->has_plus) {
        gb_json_key(out, "plus", &first);
        bool first_p = true;
        gb_str_append(out, "{");
        gb_eval_summary__put_integer(out, "items", (long long)c->plus_items, &first_p);
        gb_eval_summary__put_number(out, "relative_drop", c->plus_relative_drop, &first_p);
        gb_eval_summary__put_pair(out, "drop_ci95", c->plus_drop_lo, c->plus_drop_hi, &first_p);
        gb_eval_summary__put_number(out, "absolute_drop", c->plus_abs_drop, &first_p);
        gb_eval_summary__put_pair(out, "absolute_drop_ci95", c->plus_abs_lo, c->plus_abs_hi, &first_p);
        gb_str_append(out, "}");
    }
    gb_json_key(out, "bootstrap", &first);
    bool first_b = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "resamples", (long long)c->resamples, &first_b);
    gb_eval_summary__put_integer(out, "seed", (long long)c->boot_seed, &first_b);
    gb_eval_summary__put_integer(out, "undefined", (long long)c->undefined, &first_b);
    gb_str_append(out, "}}");
}

/* {"mean":..,"min":..,"max":..} */
static void gb_eval_summary__spread(GbStr *out, double mean, double min, double max)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_number(out, "mean", mean, &first);
    gb_eval_summary__put_number(out, "min", min, &first);
    gb_eval_summary__put_number(out, "max", max, &first);
    gb_str_append(out, "}");
}

static void gb_eval_summary__across(GbStr *out, const GbEvalSummary *s)
{
    if (!s->has_across) {
        gb_str_append(out, "null");
        return;
    }
    const GbEvalAcross *a = &s->across;
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "versions", (long long)a->versions, &first);
    gb_json_key(out, "relative_drop", &first);
    gb_eval_summary__spread(out, a->drop_mean, a->drop_min, a->drop_max);
    gb_json_key(out, "pass1", &first);
    gb_eval_summary__spread(out, a->pass1_mean, a->pass1_min, a->pass1_max);
    gb_str_append(out, "}");
}

static void gb_eval_summary__robust(GbStr *out, const GbEvalSummary *s)
{
    if (!s->has_robust) {
        gb_str_append(out, "null");
        return;
    }
    const GbEvalRobust *r = &s->robust;
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "versions", (long long)r->versions, &first);
    gb_eval_summary__put_integer(out, "items", (long long)r->items, &first);
    gb_json_key(out, "pass_at", &first);
    gb_eval_summary__per_k(out, s, r->pass_at);
    gb_json_key(out, "robust_pass_at", &first);
    gb_eval_summary__per_k(out, s, r->robust_pass);
    gb_json_key(out, "robust_drop_at", &first);
    gb_eval_summary__per_k(out, s, r->robust_drop);
    gb_json_key(out, "robust_relative_at", &first);
    gb_eval_summary__per_k(out, s, r->robust_rel);
    gb_str_append(out, "}");
}

/* The run's facts: every member before "versions" (the object is left open). */
static void gb_eval_summary__facts(GbStr *out, const GbEvalSummary *s, bool *first)
{
    gb_str_append(out, "{");
    gb_eval_summary__put_string(out, "model", s->model, first);
    gb_eval_summary__put_string(out, "task", s->task, first);
    gb_eval_summary__put_integer(out, "samples", s->samples, first);
    gb_eval_summary__put_number(out, "temperature", s->temperature, first);
    gb_eval_summary__put_number(out, "top_p", s->top_p, first);
    gb_eval_summary__put_integer(out, "max_tokens", s->max_tokens, first);
    gb_eval_summary__put_integer(out, "seed", s->seed, first);
    gb_json_key(out, "k", first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < s->nk; i++) {
        if (i) gb_str_append(out, ",");
        gb_json_integer(out, s->k[i]);
    }
    gb_str_append(out, "]");
    gb_eval_summary__put_integer(out, "items", (long long)s->items, first);
    gb_eval_summary__put_integer(out, "items_before_dedup", (long long)s->items_before_dedup, first);
    gb_eval_summary__put_integer(out, "tasks_without_items", (long long)s->tasks_without_items, first);
    gb_eval_summary__put_integer(out, "samples_planned", (long long)s->samples_planned, first);
    gb_eval_summary__put_integer(out, "samples_scored", (long long)s->samples_scored, first);
    gb_eval_summary__put_integer(out, "samples_resumed", (long long)s->samples_resumed, first);
    gb_eval_summary__put_integer(out, "samples_cached", (long long)s->samples_cached, first);
    gb_eval_summary__put_integer(out, "requests", s->requests, first);
    gb_json_key(out, "complete", first);
    gb_json_bool(out, s->complete);
    gb_eval_summary__put_string(out, "stopped_by", s->stopped_by, first);
    gb_json_key(out, "warnings", first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < s->warnings.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_eval_summary__string(out, s->warnings.items[i]);
    }
    gb_str_append(out, "]");
}

static void gb_eval_summary__truncation(GbStr *out, const GbEvalSummary *s)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_integer(out, "samples", (long long)s->truncated, &first);
    gb_json_key(out, "versions", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < s->trunc_versions.len; i++) {
        const GbEvalTruncVersion *v = &s->trunc_versions.items[i];
        bool first_v = true;
        gb_str_append(out, i ? ",{" : "{");
        gb_eval_summary__put_integer(out, "version", (long long)v->version, &first_v);
        gb_eval_summary__put_integer(out, "truncated", (long long)v->truncated, &first_v);
        gb_str_append(out, "}");
    }
    gb_str_append(out, "]");
    gb_json_key(out, "without", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < s->trunc_drops.len; i++) {
        const GbEvalTruncDrop *d = &s->trunc_drops.items[i];
        bool first_d = true;
        gb_str_append(out, i ? ",{" : "{");
        gb_eval_summary__put_integer(out, "version", (long long)d->version, &first_d);
        gb_eval_summary__put_integer(out, "items", (long long)d->items, &first_d);
        gb_eval_summary__put_number(out, "pass1_original", d->pass1_original, &first_d);
        gb_eval_summary__put_number(out, "pass1_version", d->pass1_version, &first_d);
        gb_eval_summary__put_number(out, "relative_drop", d->relative_drop, &first_d);
        gb_str_append(out, "}");
    }
    gb_str_append(out, "]}");
}

static void gb_eval_summary__file(GbStr *out, const GbEvalInputFile *f)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_string(out, "path", f->path, &first);
    gb_eval_summary__put_string(out, "sha256", f->sha256[0] ? f->sha256 : NULL, &first);
    gb_str_append(out, "}");
}

static void gb_eval_summary__provenance(GbStr *out, const GbEvalProvenance *p)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_summary__put_string(out, "command_line", p->command_line, &first);
    gb_eval_summary__put_string(out, "tool_version", p->tool_version, &first);
    gb_eval_summary__put_string(out, "git_commit", p->git_commit, &first);
    gb_eval_summary__put_string(out, "date", p->date, &first);
    gb_json_key(out, "inputs", &first);
    gb_str_append(out, "[");
    for (size_t i = 0; i < p->inputs.len; i++) {
        if (i) gb_str_append(out, ",");
        gb_eval_summary__file(out, &p->inputs.items[i]);
    }
    gb_str_append(out, "]");
    gb_eval_summary__put_string(out, "source", p->source, &first);
    gb_eval_summary__put_string(out, "server_url", p->server_url, &first);
    gb_eval_summary__put_string(out, "server_model", p->server_model, &first);
    gb_json_key(out, "server_context", &first);
    if (p->server_context >= 0)
        gb_json_integer(out, p->server_context);
    else
        gb_str_append(out, "null");
    gb_eval_summary__put_string(out, "api", p->api, &first);
    gb_eval_summary__put_string(out, "system_sha256", p->system_sha256, &first);
    gb_json_key(out, "answers", &first);
    if (p->has_answers)
        gb_eval_summary__file(out, &p->answers);
    else
        gb_str_append(out, "null");
    gb_eval_summary__put_string(out, "prompt_version", p->prompt_version, &first);
    gb_eval_summary__put_string(out, "sandbox", p->sandbox, &first);
    if (p->has_template) {
        gb_json_key(out, "prompt_template", &first);
        gb_eval_summary__file(out, &p->prompt_template);
    }
    gb_str_append(out, "}");
}

char *gb_eval_summary_write(const GbEvalSummary *s)
{
    GbStr out;
    gb_str_init(&out);
    bool first = true;
    gb_eval_summary__facts(&out, s, &first);
    gb_json_key(&out, "versions", &first);
    gb_str_append(&out, "[");
    for (size_t i = 0; i < s->versions.len; i++) {
        if (i) gb_str_append(&out, ",");
        gb_eval_summary__version(&out, s, &s->versions.items[i]);
    }
    gb_str_append(&out, "]");
    gb_json_key(&out, "comparisons", &first);
    gb_str_append(&out, "[");
    for (size_t i = 0; i < s->comparisons.len; i++) {
        if (i) gb_str_append(&out, ",");
        gb_eval_summary__comparison(&out, s, &s->comparisons.items[i]);
    }
    gb_str_append(&out, "]");
    gb_json_key(&out, "across_versions", &first);
    gb_eval_summary__across(&out, s);
    gb_json_key(&out, "robust", &first);
    gb_eval_summary__robust(&out, s);
    gb_json_key(&out, "plus", &first);
    if (s->has_plus) {
        bool first_p = true;
        gb_str_append(&out, "{");
        gb_eval_summary__put_integer(&out, "items", (long long)s->plus_items, &first_p);
        gb_str_append(&out, "}");
    } else {
        gb_str_append(&out, "null");
    }
    if (s->has_truncation) {
        gb_json_key(&out, "truncation", &first);
        gb_eval_summary__truncation(&out, s);
    }
    if (s->has_provenance) {
        gb_json_key(&out, "provenance", &first);
        gb_eval_summary__provenance(&out, &s->provenance);
    }
    gb_str_append(&out, "}\n");
    return gb_str_take(&out);
}

/* ---- parsing -------------------------------------------------------------------------------- */

/* A key added after the first summaries: absent leaves *out NAN. */
static void gb_eval_summary__later_rate(GbDocReader *c, json_t *o, const char *w, const char *key, double *out)
{
    *out = NAN;
    if (json_object_get(o, key)) gb_doc_rate(c, o, w, key, out);
}

/* A [low, high] list at key (absent: both NAN). */
static void gb_eval_summary__later_pair(GbDocReader *c, json_t *o, const char *w, const char *key, double *lo,
                                        double *hi)
{
    *lo = *hi = NAN;
    json_t *ci = json_object_get(o, key);
    if (!ci || !c->ok) return;
    if (!json_is_array(ci) || json_array_size(ci) != 2) {
        gb_doc_fail(c, "\"%s%s\": expected a list [low, high]", w, key);
        return;
    }
    json_t *lohi = json_pack("{s:O,s:O}", "low", json_array_get(ci, 0), "high", json_array_get(ci, 1));
    char *wc = gb_asprintf("%s%s.", w, key);
    gb_doc_rate(c, lohi, wc, "low", lo);
    gb_doc_rate(c, lohi, wc, "high", hi);
    free(wc);
    json_decref(lohi);
}

/* A {"<k>": x} object at key into a per-k array (owned; NAN where absent). */
static double *gb_eval_summary__later_per_k(GbDocReader *c, json_t *o, const char *w, const char *key,
                                            const GbEvalSummary *s)
{
    double *x = gb_malloc((s->nk ? s->nk : 1) * sizeof *x);
    for (size_t i = 0; i < s->nk; i++) x[i] = NAN;
    json_t *m = json_object_get(o, key);
    if (!m || !c->ok) return x;
    if (!json_is_object(m)) {
        gb_doc_fail(c, "\"%s%s\": expected an object", w, key);
        return x;
    }
    char *wk = gb_asprintf("%s%s.", w, key);
    for (size_t i = 0; i < s->nk; i++) {
        char k[32];
        snprintf(k, sizeof k, "%ld", s->k[i]);
        gb_eval_summary__later_rate(c, m, wk, k, &x[i]);
    }
    free(wk);
    return x;
}

static void gb_eval_summary__parse_facts(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    gb_doc_string(c, o, "", "model", false, &s->model);
    gb_doc_string(c, o, "", "task", false, &s->task);
    gb_doc_long(c, o, "", "samples", &s->samples);
    gb_doc_rate(c, o, "", "temperature", &s->temperature);
    gb_doc_rate(c, o, "", "top_p", &s->top_p);
    gb_doc_long(c, o, "", "max_tokens", &s->max_tokens);
    gb_doc_long(c, o, "", "seed", &s->seed);
    json_t *k = gb_doc_get(c, o, "", "k", JSON_ARRAY, "a list of integers");
    if (k) {
        s->nk = json_array_size(k);
        s->k = gb_calloc(s->nk ? s->nk : 1, sizeof *s->k);
        for (size_t i = 0; i < s->nk; i++) {
            json_t *x = json_array_get(k, i);
            if (!json_is_integer(x)) gb_doc_fail(c, "\"k[%zu]\": expected an integer", i);
            s->k[i] = (long)json_integer_value(x);
        }
    }
    gb_doc_size(c, o, "", "items", &s->items);
    s->items_before_dedup = s->items;
    if (json_object_get(o, "items_before_dedup")) gb_doc_size(c, o, "", "items_before_dedup", &s->items_before_dedup);
    gb_doc_size(c, o, "", "tasks_without_items", &s->tasks_without_items);
    gb_doc_size(c, o, "", "samples_planned", &s->samples_planned);
    gb_doc_size(c, o, "", "samples_scored", &s->samples_scored);
    gb_doc_size(c, o, "", "samples_resumed", &s->samples_resumed);
    gb_doc_size(c, o, "", "samples_cached", &s->samples_cached);
    gb_doc_long(c, o, "", "requests", &s->requests);
    gb_doc_bool(c, o, "", "complete", &s->complete);
    gb_doc_string(c, o, "", "stopped_by", true, &s->stopped_by);
    json_t *w = json_object_get(o, "warnings");
    if (w && !json_is_array(w)) gb_doc_fail(c, "\"warnings\": expected a list of strings");
    for (size_t i = 0; c->ok && i < json_array_size(w); i++) {
        json_t *x = json_array_get(w, i);
        if (!json_is_string(x)) {
            gb_doc_fail(c, "\"warnings[%zu]\": expected a string", i);
            break;
        }
        char *text = gb_strdup(json_string_value(x));
        gb_array_push(&s->warnings, text);
    }
}

static void gb_eval_summary__parse_version(GbDocReader *c, json_t *o, const char *w, const GbEvalSummary *s,
                                           GbEvalSummaryVersion *v)
{
    if (!json_is_object(o)) gb_doc_fail(c, "\"%s\": expected an object", w);
    gb_doc_long(c, o, w, "version", &v->version);
    gb_doc_string(c, o, w, "file", false, &v->file);
    gb_doc_size(c, o, w, "items_scored", &v->items_scored);
    json_t *pass_at = gb_doc_get(c, o, w, "pass_at", JSON_OBJECT, "an object");
    v->pass_at = gb_calloc(s->nk ? s->nk : 1, sizeof *v->pass_at);
    if (pass_at && json_object_size(pass_at) != s->nk)
        gb_doc_fail(c, "\"%spass_at\": expected one value per k (%zu)", w, s->nk);
    for (size_t i = 0; pass_at && i < s->nk; i++) {
        char key[32];
        snprintf(key, sizeof key, "%ld", s->k[i]);
        char *wk = gb_asprintf("%spass_at.", w);
        gb_doc_rate(c, pass_at, wk, key, &v->pass_at[i]);
        free(wk);
    }
    v->pass_lo = gb_malloc((s->nk ? s->nk : 1) * sizeof *v->pass_lo);
    v->pass_hi = gb_malloc((s->nk ? s->nk : 1) * sizeof *v->pass_hi);
    json_t *cis = json_object_get(o, "pass_at_ci95");
    char *wci = gb_asprintf("%spass_at_ci95.", w);
    for (size_t i = 0; i < s->nk; i++) {
        char key[32];
        snprintf(key, sizeof key, "%ld", s->k[i]);
        if (cis && !json_is_object(cis)) {
            gb_doc_fail(c, "\"%spass_at_ci95\": expected an object", w);
            cis = NULL;
        }
        gb_eval_summary__later_pair(c, cis, wci, key, &v->pass_lo[i], &v->pass_hi[i]);
    }
    free(wci);
    if (s->has_plus) v->plus_pass_at = gb_eval_summary__later_per_k(c, o, w, "plus_pass_at", s);
    json_t *verdicts = gb_doc_get(c, o, w, "verdicts", JSON_OBJECT, "an object");
    char *wv = gb_asprintf("%sverdicts.", w);
    for (int x = GB_V_NONE + 1; verdicts && x < GB_V_COUNT; x++)
        gb_doc_size(c, verdicts, wv, gb_verdict_name((GbVerdict)x), &v->verdicts[x]);
    free(wv);
}

static void gb_eval_summary__parse_comparison(GbDocReader *c, json_t *o, const char *w, GbEvalComparison *m)
{
    if (!json_is_object(o)) gb_doc_fail(c, "\"%s\": expected an object", w);
    gb_doc_long(c, o, w, "version", &m->version);
    gb_doc_string(c, o, w, "file", false, &m->file);
    gb_doc_size(c, o, w, "items", &m->items);
    gb_doc_size(c, o, w, "both_pass", &m->both_pass);
    gb_doc_size(c, o, w, "lost", &m->lost);
    gb_doc_size(c, o, w, "gained", &m->gained);
    gb_doc_size(c, o, w, "both_fail", &m->both_fail);
    gb_doc_rate(c, o, w, "pass1_original", &m->pass1_original);
    gb_doc_rate(c, o, w, "pass1_version", &m->pass1_version);
    gb_doc_rate(c, o, w, "relative_drop", &m->relative_drop);
    json_t *ci = gb_doc_get(c, o, w, "drop_ci95", JSON_ARRAY, "a list [low, high]");
    if (ci && json_array_size(ci) != 2) gb_doc_fail(c, "\"%sdrop_ci95\": expected a list [low, high]", w);
    json_t *lohi = json_pack("{s:O,s:O}", "low", json_array_get(ci, 0), "high", json_array_get(ci, 1));
    char *wc = gb_asprintf("%sdrop_ci95.", w);
    if (lohi) {
        gb_doc_rate(c, lohi, wc, "low", &m->drop_lo);
        gb_doc_rate(c, lohi, wc, "high", &m->drop_hi);
    }
    free(wc);
    json_decref(lohi);
    gb_eval_summary__later_rate(c, o, w, "absolute_drop", &m->abs_drop);
    gb_eval_summary__later_pair(c, o, w, "absolute_drop_ci95", &m->abs_lo, &m->abs_hi);
    gb_eval_summary__later_rate(c, o, w, "mcnemar_p", &m->mcnemar_p);
    json_t *plus = json_object_get(o, "plus");
    m->plus_relative_drop = m->plus_drop_lo = m->plus_drop_hi = NAN;
    m->plus_abs_drop = m->plus_abs_lo = m->plus_abs_hi = NAN;
    if (plus && c->ok) {
        char *wp = gb_asprintf("%splus.", w);
        if (!json_is_object(plus)) gb_doc_fail(c, "\"%splus\": expected an object", w);
        gb_doc_size(c, plus, wp, "items", &m->plus_items);
        gb_doc_rate(c, plus, wp, "relative_drop", &m->plus_relative_drop);
        gb_eval_summary__later_pair(c, plus, wp, "drop_ci95", &m->plus_drop_lo, &m->plus_drop_hi);
        gb_doc_rate(c, plus, wp, "absolute_drop", &m->plus_abs_drop);
        gb_eval_summary__later_pair(c, plus, wp, "absolute_drop_ci95", &m->plus_abs_lo, &m->plus_abs_hi);
        free(wp);
    }
    json_t *b = gb_doc_get(c, o, w, "bootstrap", JSON_OBJECT, "an object");
    char *wb = gb_asprintf("%sbootstrap.", w);
    long seed = 0;
    gb_doc_size(c, b, wb, "resamples", &m->resamples);
    gb_doc_long(c, b, wb, "seed", &seed);
    gb_doc_size(c, b, wb, "undefined", &m->undefined);
    m->boot_seed = (unsigned long)seed;
    free(wb);
}

static void gb_eval_summary__parse_across(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    if (c->ok && json_is_null(json_object_get(o, "across_versions"))) return;
    json_t *a = gb_doc_get(c, o, "", "across_versions", JSON_OBJECT, "an object or null");
    if (!a) return;
    s->has_across = true;
    gb_doc_size(c, a, "across_versions.", "versions", &s->across.versions);
    json_t *d = gb_doc_get(c, a, "across_versions.", "relative_drop", JSON_OBJECT, "an object");
    json_t *p = gb_doc_get(c, a, "across_versions.", "pass1", JSON_OBJECT, "an object");
    gb_doc_rate(c, d, "across_versions.relative_drop.", "mean", &s->across.drop_mean);
    gb_doc_rate(c, d, "across_versions.relative_drop.", "min", &s->across.drop_min);
    gb_doc_rate(c, d, "across_versions.relative_drop.", "max", &s->across.drop_max);
    gb_doc_rate(c, p, "across_versions.pass1.", "mean", &s->across.pass1_mean);
    gb_doc_rate(c, p, "across_versions.pass1.", "min", &s->across.pass1_min);
    gb_doc_rate(c, p, "across_versions.pass1.", "max", &s->across.pass1_max);
}

static void gb_eval_summary__parse_robust(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    json_t *r = json_object_get(o, "robust");
    if (!c->ok || !r || json_is_null(r)) return;
    if (!json_is_object(r)) {
        gb_doc_fail(c, "\"robust\": expected an object or null");
        return;
    }
    s->has_robust = true;
    gb_doc_size(c, r, "robust.", "versions", &s->robust.versions);
    gb_doc_size(c, r, "robust.", "items", &s->robust.items);
    s->robust.pass_at = gb_eval_summary__later_per_k(c, r, "robust.", "pass_at", s);
    s->robust.robust_pass = gb_eval_summary__later_per_k(c, r, "robust.", "robust_pass_at", s);
    s->robust.robust_drop = gb_eval_summary__later_per_k(c, r, "robust.", "robust_drop_at", s);
    s->robust.robust_rel = gb_eval_summary__later_per_k(c, r, "robust.", "robust_relative_at", s);
}

static void gb_eval_summary__parse_lists(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    json_t *plus = json_object_get(o, "plus");
    if (plus && !json_is_null(plus)) {
        if (!json_is_object(plus)) gb_doc_fail(c, "\"plus\": expected an object or null");
        s->has_plus = true;
        gb_doc_size(c, plus, "plus.", "items", &s->plus_items);
    }
    json_t *versions = json_object_get(o, "versions"), *comparisons = json_object_get(o, "comparisons");
    for (size_t i = 0; c->ok && i < json_array_size(versions); i++) {
        GbEvalSummaryVersion v = {0};
        char *w = gb_asprintf("versions[%zu].", i);
        gb_eval_summary__parse_version(c, json_array_get(versions, i), w, s, &v);
        free(w);
        gb_array_push(&s->versions, v);
    }
    for (size_t i = 0; c->ok && i < json_array_size(comparisons); i++) {
        GbEvalComparison m = {0};
        char *w = gb_asprintf("comparisons[%zu].", i);
        gb_eval_summary__parse_comparison(c, json_array_get(comparisons, i), w, &m);
        free(w);
        gb_array_push(&s->comparisons, m);
    }
}

/* truncation, when there (older summaries have none). */
static void gb_eval_summary__parse_truncation(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    json_t *t = json_object_get(o, "truncation");
    if (!c->ok || !t) return;
    s->has_truncation = true;
    gb_doc_size(c, t, "truncation.", "samples", &s->truncated);
    json_t *versions = gb_doc_get(c, t, "truncation.", "versions", JSON_ARRAY, "a list");
    json_t *without = gb_doc_get(c, t, "truncation.", "without", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(versions); i++) {
        GbEvalTruncVersion v = {0};
        char *w = gb_asprintf("truncation.versions[%zu].", i);
        gb_doc_long(c, json_array_get(versions, i), w, "version", &v.version);
        gb_doc_size(c, json_array_get(versions, i), w, "truncated", &v.truncated);
        free(w);
        gb_array_push(&s->trunc_versions, v);
    }
    for (size_t i = 0; c->ok && i < json_array_size(without); i++) {
        GbEvalTruncDrop d = {0};
        json_t *x = json_array_get(without, i);
        char *w = gb_asprintf("truncation.without[%zu].", i);
        gb_doc_long(c, x, w, "version", &d.version);
        gb_doc_size(c, x, w, "items", &d.items);
        gb_doc_rate(c, x, w, "pass1_original", &d.pass1_original);
        gb_doc_rate(c, x, w, "pass1_version", &d.pass1_version);
        gb_doc_rate(c, x, w, "relative_drop", &d.relative_drop);
        free(w);
        gb_array_push(&s->trunc_drops, d);
    }
}

static void gb_eval_summary__parse_file(GbDocReader *c, json_t *o, const char *w, GbEvalInputFile *f)
{
    char *sha = NULL;
    gb_doc_string(c, o, w, "path", false, &f->path);
    gb_doc_string(c, o, w, "sha256", true, &sha);
    snprintf(f->sha256, sizeof f->sha256, "%s", sha ? sha : "");
    free(sha);
}

/* provenance, when there (older summaries have none). */
static void gb_eval_summary__parse_provenance(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
    json_t *p = json_object_get(o, "provenance");
    if (!c->ok || !p) return;
    s->has_provenance = true;
    GbEvalProvenance *v = &s->provenance;
    const char *w = "provenance.";
    struct {
        const char *key;
        char **out;
    } strs[] = {{"command_line", &v->command_line},
                {"tool_version", &v->tool_version},
                {"git_commit", &v->git_commit},
                {"date", &v->date},
                {"source", &v->source},
                {"server_url", &v->server_url},
                {"server_model", &v->server_model},
                {"api", &v->api},
                {"system_sha256", &v->system_sha256},
                {"prompt_version", &v->prompt_version},
                {"sandbox", &v->sandbox}};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) gb_doc_string(c, p, w, strs[i].key, true, strs[i].out);
    v->server_context = -1;
    if (json_is_integer(json_object_get(p, "server_context")))
        gb_doc_long(c, p, w, "server_context", &v->server_context);
    json_t *inputs = gb_doc_get(c, p, w, "inputs", JSON_ARRAY, "a list");
    for (size_t i = 0; c->ok && i < json_array_size(inputs); i++) {
        GbEvalInputFile f = {0};
        char *wi = gb_asprintf("provenance.inputs[%zu].", i);
        gb_eval_summary__parse_file(c, json_array_get(inputs, i), wi, &f);
        free(wi);
        gb_array_push(&v->inputs, f);
    }
    json_t *a = json_object_get(p, "answers");
    if (c->ok && json_is_object(a)) {
        v->has_answers = true;
        gb_eval_summary__parse_file(c, a, "provenance.answers.", &v->answers);
    }
    json_t *t = json_object_get(p, "prompt_template");
    if (c->ok && json_is_object(t)) {
        v->has_template = true;
        gb_eval_summary__parse_file(c, t, "provenance.prompt_template.", &v->prompt_template);
    }
}

bool gb_eval_summary_parse(const char *text, size_t len, const char *name, GbEvalSummary *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *o = json_loadb(text, len, 0, &jerr);
    if (!o) {
        gb_error_set(err, "%s:%d: malformed JSON: %s", name, jerr.line, jerr.text);
        return false;
    }
    GbDocReader c = {.name = name, .err = err, .ok = true};
    if (!json_is_object(o) || !json_is_array(json_object_get(o, "versions")) ||
        !json_is_array(json_object_get(o, "comparisons")))
        gb_doc_fail(&c, "not the summary of `genebench eval` (--summary FILE): no \"versions\" and \"comparisons\" "
                        "lists");
    gb_eval_summary__parse_facts(&c, o, out);
    gb_eval_summary__parse_lists(&c, o, out);
    gb_eval_summary__parse_across(&c, o, out);
    gb_eval_summary__parse_robust(&c, o, out);
    gb_eval_summary__parse_truncation(&c, o, out);
    gb_eval_summary__parse_provenance(&c, o, out);
    json_decref(o);
    if (!c.ok) gb_eval_summary_destroy(out);
    return c.ok;
}

bool gb_eval_summary_read(const char *path, GbEvalSummary *out, GbError *err)
{
    size_t len;
    char *text = gb_read_file(path, &len, err);
    if (!text) {
        memset(out, 0, sizeof *out);
        return false;
    }
    bool ok = gb_eval_summary_parse(text, len, path, out, err);
    free(text);
    return ok;
}
