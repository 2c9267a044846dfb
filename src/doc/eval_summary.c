/* The eval summary: struct, writer and parser (eval_summary.h). */
#include "src/doc/eval_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/doc/doc_json.h"

void gb_eval_summary_destroy(GbEvalSummary *s)
{
    if (!s) return;
    free(s->model);
    free(s->task);
    free(s->k);
    free(s->stopped_by);
    for (size_t i = 0; i < s->versions.len; i++) {
        free(s->versions.items[i].file);
        free(s->versions.items[i].pass_at);
    }
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
    out->sandbox = gb_eval_summary__dup(p->sandbox);
}

void gb_eval_provenance_destroy(GbEvalProvenance *p)
{
    if (!p) return;
    char *strs[] = {p->command_line,  p->tool_version, p->git_commit,     p->date,
                    p->source,        p->server_url,   p->server_model,   p->api,
                    p->system_sha256, p->answers.path, p->prompt_version, p->sandbox};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) free(strs[i]);
    for (size_t i = 0; i < p->inputs.len; i++) free(p->inputs.items[i].path);
    gb_array_free(&p->inputs);
    memset(p, 0, sizeof *p);
}

/* ---- writing -------------------------------------------------------------------------------- */

static json_t *gb_eval_summary__version(const GbEvalSummary *s, const GbEvalSummaryVersion *v)
{
    json_t *pass_at = json_object(), *verdicts = json_object();
    for (size_t i = 0; i < s->nk; i++) {
        char key[32];
        snprintf(key, sizeof key, "%ld", s->k[i]);
        json_object_set_new(pass_at, key, gb_doc_number(v->pass_at[i]));
    }
    for (int x = GB_V_NONE + 1; x < GB_V_COUNT; x++)
        json_object_set_new(verdicts, gb_verdict_name((GbVerdict)x), json_integer((json_int_t)v->verdicts[x]));
    json_t *o = json_object();
    json_object_set_new(o, "version", json_integer(v->version));
    json_object_set_new(o, "file", gb_doc_str(v->file));
    json_object_set_new(o, "items_scored", json_integer((json_int_t)v->items_scored));
    json_object_set_new(o, "pass_at", pass_at);
    json_object_set_new(o, "verdicts", verdicts);
    return o;
}

static json_t *gb_eval_summary__comparison(const GbEvalComparison *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "version", json_integer(c->version));
    json_object_set_new(o, "file", gb_doc_str(c->file));
    json_object_set_new(o, "items", json_integer((json_int_t)c->items));
    json_object_set_new(o, "both_pass", json_integer((json_int_t)c->both_pass));
    json_object_set_new(o, "lost", json_integer((json_int_t)c->lost));
    json_object_set_new(o, "gained", json_integer((json_int_t)c->gained));
    json_object_set_new(o, "both_fail", json_integer((json_int_t)c->both_fail));
    json_object_set_new(o, "pass1_original", gb_doc_number(c->pass1_original));
    json_object_set_new(o, "pass1_version", gb_doc_number(c->pass1_version));
    json_object_set_new(o, "relative_drop", gb_doc_number(c->relative_drop));
    json_object_set_new(o, "drop_ci95", json_pack("[oo]", gb_doc_number(c->drop_lo), gb_doc_number(c->drop_hi)));
    json_object_set_new(o, "bootstrap",
                        json_pack("{s:I,s:I,s:I}", "resamples", (json_int_t)c->resamples, "seed",
                                  (json_int_t)c->boot_seed, "undefined", (json_int_t)c->undefined));
    return o;
}

static json_t *gb_eval_summary__across(const GbEvalSummary *s)
{
    if (!s->has_across) return json_null();
    const GbEvalAcross *a = &s->across;
    return json_pack("{s:I,s:{s:o,s:o,s:o},s:{s:o,s:o,s:o}}", "versions", (json_int_t)a->versions, "relative_drop",
                     "mean", gb_doc_number(a->drop_mean), "min", gb_doc_number(a->drop_min), "max",
                     gb_doc_number(a->drop_max), "pass1", "mean", gb_doc_number(a->pass1_mean), "min",
                     gb_doc_number(a->pass1_min), "max", gb_doc_number(a->pass1_max));
}

/* The run's facts: everything before "versions". */
static json_t *gb_eval_summary__facts(const GbEvalSummary *s)
{
    json_t *o = json_object(), *k = json_array();
    for (size_t i = 0; i < s->nk; i++) json_array_append_new(k, json_integer(s->k[i]));
    json_object_set_new(o, "model", gb_doc_str(s->model));
    json_object_set_new(o, "task", gb_doc_str(s->task));
    json_object_set_new(o, "samples", json_integer(s->samples));
    json_object_set_new(o, "temperature", gb_doc_number(s->temperature));
    json_object_set_new(o, "top_p", gb_doc_number(s->top_p));
    json_object_set_new(o, "max_tokens", json_integer(s->max_tokens));
    json_object_set_new(o, "seed", json_integer(s->seed));
    json_object_set_new(o, "k", k);
    json_object_set_new(o, "items", json_integer((json_int_t)s->items));
    json_object_set_new(o, "tasks_without_items", json_integer((json_int_t)s->tasks_without_items));
    json_object_set_new(o, "samples_planned", json_integer((json_int_t)s->samples_planned));
    json_object_set_new(o, "samples_scored", json_integer((json_int_t)s->samples_scored));
    json_object_set_new(o, "samples_resumed", json_integer((json_int_t)s->samples_resumed));
    json_object_set_new(o, "samples_cached", json_integer((json_int_t)s->samples_cached));
    json_object_set_new(o, "requests", json_integer(s->requests));
    json_object_set_new(o, "complete", json_boolean(s->complete));
    json_object_set_new(o, "stopped_by", gb_doc_str(s->stopped_by));
    return o;
}

static json_t *gb_eval_summary__truncation(const GbEvalSummary *s)
{
    json_t *versions = json_array(), *without = json_array();
    for (size_t i = 0; i < s->trunc_versions.len; i++) {
        const GbEvalTruncVersion *v = &s->trunc_versions.items[i];
        json_array_append_new(
            versions, json_pack("{s:I,s:I}", "version", (json_int_t)v->version, "truncated", (json_int_t)v->truncated));
    }
    for (size_t i = 0; i < s->trunc_drops.len; i++) {
        const GbEvalTruncDrop *d = &s->trunc_drops.items[i];
        json_array_append_new(without,
                              json_pack("{s:I,s:I,s:o,s:o,s:o}", "version", (json_int_t)d->version, "items",
                                        (json_int_t)d->items, "pass1_original", gb_doc_number(d->pass1_original),
                                        "pass1_version", gb_doc_number(d->pass1_version), "relative_drop",
                                        gb_doc_number(d->relative_drop)));
    }
    return json_pack("{s:I,s:o,s:o}", "samples", (json_int_t)s->truncated, "versions", versions, "without", without);
}

static json_t *gb_eval_summary__file(const GbEvalInputFile *f)
{
    return json_pack("{s:o,s:o}", "path", gb_doc_str(f->path), "sha256", gb_doc_str(f->sha256[0] ? f->sha256 : NULL));
}

static json_t *gb_eval_summary__provenance(const GbEvalProvenance *p)
{
    json_t *o = json_object(), *inputs = json_array();
    for (size_t i = 0; i < p->inputs.len; i++)
        json_array_append_new(inputs, gb_eval_summary__file(&p->inputs.items[i]));
    json_object_set_new(o, "command_line", gb_doc_str(p->command_line));
    json_object_set_new(o, "tool_version", gb_doc_str(p->tool_version));
    json_object_set_new(o, "git_commit", gb_doc_str(p->git_commit));
    json_object_set_new(o, "date", gb_doc_str(p->date));
    json_object_set_new(o, "inputs", inputs);
    json_object_set_new(o, "source", gb_doc_str(p->source));
    json_object_set_new(o, "server_url", gb_doc_str(p->server_url));
    json_object_set_new(o, "server_model", gb_doc_str(p->server_model));
    json_object_set_new(o, "server_context", p->server_context >= 0 ? json_integer(p->server_context) : json_null());
    json_object_set_new(o, "api", gb_doc_str(p->api));
    json_object_set_new(o, "system_sha256", gb_doc_str(p->system_sha256));
    json_object_set_new(o, "answers", p->has_answers ? gb_eval_summary__file(&p->answers) : json_null());
    json_object_set_new(o, "prompt_version", gb_doc_str(p->prompt_version));
    json_object_set_new(o, "sandbox", gb_doc_str(p->sandbox));
    return o;
}

char *gb_eval_summary_write(const GbEvalSummary *s)
{
    json_t *o = gb_eval_summary__facts(s), *versions = json_array(), *comparisons = json_array();
    for (size_t i = 0; i < s->versions.len; i++)
        json_array_append_new(versions, gb_eval_summary__version(s, &s->versions.items[i]));
    for (size_t i = 0; i < s->comparisons.len; i++)
        json_array_append_new(comparisons, gb_eval_summary__comparison(&s->comparisons.items[i]));
    json_object_set_new(o, "versions", versions);
    json_object_set_new(o, "comparisons", comparisons);
    json_object_set_new(o, "across_versions", gb_eval_summary__across(s));
    if (s->has_truncation) json_object_set_new(o, "truncation", gb_eval_summary__truncation(s));
    if (s->has_provenance) json_object_set_new(o, "provenance", gb_eval_summary__provenance(&s->provenance));
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(12));
    json_decref(o);
    char *line = gb_asprintf("%s\n", text);
    free(text);
    return line;
}

/* ---- parsing -------------------------------------------------------------------------------- */

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
    gb_doc_size(c, o, "", "tasks_without_items", &s->tasks_without_items);
    gb_doc_size(c, o, "", "samples_planned", &s->samples_planned);
    gb_doc_size(c, o, "", "samples_scored", &s->samples_scored);
    gb_doc_size(c, o, "", "samples_resumed", &s->samples_resumed);
    gb_doc_size(c, o, "", "samples_cached", &s->samples_cached);
    gb_doc_long(c, o, "", "requests", &s->requests);
    gb_doc_bool(c, o, "", "complete", &s->complete);
    gb_doc_string(c, o, "", "stopped_by", true, &s->stopped_by);
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

static void gb_eval_summary__parse_lists(GbDocReader *c, json_t *o, GbEvalSummary *s)
{
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
