/* One line of eval's per-sample results: writer and parser (eval_results.h). */
#include "src/doc/eval_results.h"

#include <stdlib.h>
#include <string.h>

#include "src/doc/doc_json.h"

char *gb_eval_result_write(const GbEvalResult *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "task", gb_doc_str(r->task));
    json_object_set_new(o, "item", gb_doc_str(r->item));
    json_object_set_new(o, "version", json_integer(r->version));
    json_object_set_new(o, "file", gb_doc_str(r->file));
    json_object_set_new(o, "sample", json_integer(r->sample));
    json_object_set_new(o, "model", gb_doc_str(r->model));
    json_object_set_new(o, "prompt_sha256", gb_doc_str(r->prompt_sha256));
    json_object_set_new(o, "raw", gb_doc_str(r->raw));
    json_object_set_new(o, "extracted", gb_doc_str(r->extracted));
    json_object_set_new(o, "verdict", json_string(gb_verdict_name(r->verdict)));
    json_object_set_new(o, "error", gb_doc_str(r->error));
    json_object_set_new(o, "cached", json_boolean(r->cached));
    json_object_set_new(o, "finish_reason", gb_doc_str(r->finish_reason));
    json_object_set_new(o, "prompt_tokens", r->prompt_tokens >= 0 ? json_integer(r->prompt_tokens) : json_null());
    json_object_set_new(o, "completion_tokens",
                        r->completion_tokens >= 0 ? json_integer(r->completion_tokens) : json_null());
    json_object_set_new(o, "latency_ms", r->latency_ms >= 0 ? json_integer((json_int_t)r->latency_ms) : json_null());
    json_object_set_new(o, "truncated", json_boolean(r->truncated));
    char *line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(o);
    return line;
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
