/* One line of eval's per-sample results: writer and parser (eval_results.h). */
#include "src/doc/eval_results.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

/* "key":"v" (NULL: null), escaped to ASCII as the lines always were. */
static void gb_eval_result__put_string(GbStr *out, const char *key, const char *v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_string_as(out, v, GB_JSON_HEX_UPPER | GB_JSON_ASCII);
}

/* "key":v, or null when v < 0. */
static void gb_eval_result__put_optional(GbStr *out, const char *key, long long v, bool *first)
{
    gb_json_key(out, key, first);
    if (v >= 0)
        gb_json_integer(out, v);
    else
        gb_str_append(out, "null");
}

char *gb_eval_result_write(const GbEvalResult *r)
{
    GbStr out;
    gb_str_init(&out);
    bool first = true;
    gb_str_append(&out, "{");
    gb_eval_result__put_string(&out, "task", r->task, &first);
    gb_eval_result__put_string(&out, "item", r->item, &first);
    gb_json_key(&out, "version", &first);
    gb_json_integer(&out, r->version);
    gb_eval_result__put_string(&out, "file", r->file, &first);
    gb_json_key(&out, "sample", &first);
    gb_json_integer(&out, r->sample);
    gb_eval_result__put_string(&out, "model", r->model, &first);
    gb_eval_result__put_string(&out, "prompt_sha256", r->prompt_sha256, &first);
    gb_eval_result__put_string(&out, "raw", r->raw, &first);
    gb_eval_result__put_string(&out, "extracted", r->extracted, &first);
    gb_eval_result__put_string(&out, "verdict", gb_verdict_name(r->verdict), &first);
    gb_eval_result__put_string(&out, "error", r->error, &first);
    gb_doc_put_bool(&out, "cached", r->cached, &first);
    gb_eval_result__put_string(&out, "finish_reason", r->finish_reason, &first);
    gb_eval_result__put_optional(&out, "prompt_tokens", r->prompt_tokens, &first);
    gb_eval_result__put_optional(&out, "completion_tokens", r->completion_tokens, &first);
    gb_eval_result__put_optional(&out, "latency_ms", r->latency_ms >= 0 ? (long long)r->latency_ms : -1, &first);
    gb_doc_put_bool(&out, "truncated", r->truncated, &first);
    if (r->plus != GB_V_NONE) gb_eval_result__put_string(&out, "plus", gb_verdict_name(r->plus), &first);
    gb_str_append(&out, "}");
    return gb_str_take(&out);
}

bool gb_eval_result_parse(const char *line, size_t len, GbEvalResult *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *o = json_loadb(line, len, 0, &jerr);
    if (!o) {
        gb_error_set(err, "malformed JSON at column %d: %s", jerr.column, jerr.text);
        return false;
    }
    GbDocReader c = {.name = "not an eval result", .err = err, .ok = true};
    if (!json_is_object(o)) gb_doc_fail(&c, "not a JSON object");
    gb_doc_string_ref(&c, o, "", "task", false, &out->task);
    gb_doc_string_ref(&c, o, "", "item", false, &out->item);
    gb_doc_long(&c, o, "", "version", &out->version);
    gb_doc_string_ref(&c, o, "", "file", false, &out->file);
    gb_doc_long(&c, o, "", "sample", &out->sample);
    gb_doc_string_ref(&c, o, "", "model", false, &out->model);
    gb_doc_string_ref(&c, o, "", "prompt_sha256", false, &out->prompt_sha256);
    gb_doc_string_ref(&c, o, "", "raw", true, &out->raw);
    gb_doc_string_ref(&c, o, "", "extracted", true, &out->extracted);
    const char *verdict = NULL;
    gb_doc_string_ref(&c, o, "", "verdict", false, &verdict);
    if (verdict && !gb_verdict_parse(verdict, &out->verdict))
        gb_doc_fail(&c, "\"verdict\": \"%s\" is not a verdict (pass, fail, timeout, crash, invalid, error)", verdict);
    gb_doc_string_ref(&c, o, "", "error", true, &out->error);
    gb_doc_bool(&c, o, "", "cached", &out->cached);
    out->prompt_tokens = out->completion_tokens = -1;
    out->latency_ms = -1;
    if (json_is_string(json_object_get(o, "finish_reason")))
        gb_doc_string_ref(&c, o, "", "finish_reason", true, &out->finish_reason);
    if (json_is_integer(json_object_get(o, "prompt_tokens")))
        gb_doc_long(&c, o, "", "prompt_tokens", &out->prompt_tokens);
    if (json_is_integer(json_object_get(o, "completion_tokens")))
        gb_doc_long(&c, o, "", "completion_tokens", &out->completion_tokens);
    if (json_is_number(json_object_get(o, "latency_ms")))
        out->latency_ms = json_number_value(json_object_get(o, "latency_ms"));
    if (json_is_boolean(json_object_get(o, "truncated"))) gb_doc_bool(&c, o, "", "truncated", &out->truncated);
    out->plus = GB_V_NONE;
    const char *plus = NULL;
    if (c.ok && json_object_get(o, "plus")) gb_doc_string_ref(&c, o, "", "plus", false, &plus);
    if (plus && !gb_verdict_parse(plus, &out->plus))
        gb_doc_fail(&c, "\"plus\": \"%s\" is not a verdict (pass, fail, timeout, crash, invalid, error)", plus);
    if (!c.ok) {
        json_decref(o);
        memset(out, 0, sizeof *out);
        return false;
    }
    out->storage_ = o;
    return true;
}

void gb_eval_result_destroy(GbEvalResult *r)
{
    if (!r) return;
    json_decref((json_t *)r->storage_);
    memset(r, 0, sizeof *r);
}
