/* One entry of eval's reply cache: writer and parser (eval_cache.h). */
#include "src/doc/eval_cache.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

/* "key":"v", \u escapes in upper-case hex as the entries always had them. */
static void gb_eval_cache__put(GbStr *out, const char *key, const char *v, bool *first)
{
    gb_json_key(out, key, first);
    gb_json_string_as(out, v, GB_JSON_HEX_UPPER);
}

char *gb_eval_cache_entry_write(const GbEvalCacheEntry *e)
{
    GbStr out;
    gb_str_init(&out);
    bool first = true;
    gb_str_append(&out, "{");
    gb_eval_cache__put(&out, "model", e->model, &first);
    gb_eval_cache__put(&out, "reply", e->reply, &first);
    if (e->finish_reason) gb_eval_cache__put(&out, "finish_reason", e->finish_reason, &first);
    if (e->prompt_tokens >= 0) {
        gb_json_key(&out, "prompt_tokens", &first);
        gb_json_integer(&out, e->prompt_tokens);
    }
    if (e->completion_tokens >= 0) {
        gb_json_key(&out, "completion_tokens", &first);
        gb_json_integer(&out, e->completion_tokens);
    }
    gb_str_append(&out, "}");
    return gb_str_take(&out);
}

static const char *const gb_eval_cache__keys[] = {
    "model", "reply", "finish_reason", "prompt_tokens", "completion_tokens", NULL};

static void gb_eval_cache__fill(GbDocReader *c, const json_t *o, void *doc)
{
    GbEvalCacheEntry *e = doc;
    gb_doc_keys(c, o, "", gb_eval_cache__keys);
    gb_doc_string(c, o, "", "model", false, &e->model);
    gb_doc_string(c, o, "", "reply", false, &e->reply);
    if (json_object_get(o, "finish_reason")) gb_doc_string(c, o, "", "finish_reason", false, &e->finish_reason);
    if (json_object_get(o, "prompt_tokens")) gb_doc_long(c, o, "", "prompt_tokens", &e->prompt_tokens);
    if (json_object_get(o, "completion_tokens")) gb_doc_long(c, o, "", "completion_tokens", &e->completion_tokens);
}

bool gb_eval_cache_entry_parse(const char *text, size_t len, const char *name, GbEvalCacheEntry *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    out->prompt_tokens = out->completion_tokens = -1;
    if (gb_doc_parse_object(text, len, name, err, gb_eval_cache__fill, out)) return true;
    gb_eval_cache_entry_destroy(out);
    return false;
}

void gb_eval_cache_entry_destroy(GbEvalCacheEntry *e)
{
    if (!e) return;
    free(e->model);
    free(e->reply);
    free(e->finish_reason);
    memset(e, 0, sizeof *e);
    e->prompt_tokens = e->completion_tokens = -1;
}
