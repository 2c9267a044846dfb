/* One line of eval's prompts file: writer and parser (eval_prompts.h). */
#include "src/doc/eval_prompts.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

/* Strings as the lines always had them: pure ASCII, \u escapes in upper-case hex. */
static void gb_eval_prompts__string(GbStr *out, const char *s)
{
    gb_json_string_as(out, s, GB_JSON_HEX_UPPER | GB_JSON_ASCII);
}

static void gb_eval_prompts__put(GbStr *out, const char *key, const char *v, bool *first)
{
    gb_json_key(out, key, first);
    gb_eval_prompts__string(out, v);
}

/* {"role":role,"content":content} */
static void gb_eval_prompts__message(GbStr *out, const char *role, const char *content)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_eval_prompts__put(out, "role", role, &first);
    gb_eval_prompts__put(out, "content", content, &first);
    gb_str_append(out, "}");
}

char *gb_eval_prompt_line_write(const GbEvalPromptLine *p)
{
    GbStr out;
    gb_str_init(&out);
    bool first = true;
    char *task_id = gb_asprintf("%s@v%ld", p->item, p->version);
    gb_str_append(&out, "{");
    gb_eval_prompts__put(&out, "task_id", task_id, &first);
    free(task_id);
    gb_eval_prompts__put(&out, "item", p->item, &first);
    gb_json_key(&out, "version", &first);
    gb_json_integer(&out, p->version);
    gb_json_key(&out, "sample", &first);
    gb_json_integer(&out, p->sample);
    gb_eval_prompts__put(&out, "task", p->task, &first);
    gb_eval_prompts__put(&out, "api", p->chat ? "chat" : "completions", &first);
    if (p->chat) {
        gb_json_key(&out, "messages", &first);
        gb_str_append(&out, "[");
        if (p->system) {
            gb_eval_prompts__message(&out, "system", p->system);
            gb_str_append(&out, ",");
        }
        gb_eval_prompts__message(&out, "user", p->prompt);
        gb_str_append(&out, "]");
    } else {
        gb_eval_prompts__put(&out, "prompt", p->prompt, &first);
    }
    gb_json_key(&out, "stop", &first);
    gb_str_append(&out, "[");
    for (size_t i = 0; p->stop && p->stop[i]; i++) {
        if (i) gb_str_append(&out, ",");
        gb_eval_prompts__string(&out, p->stop[i]);
    }
    gb_str_append(&out, "]");
    gb_eval_prompts__put(&out, "expected", p->expected, &first);
    gb_eval_prompts__put(&out, "prompt_sha256", p->prompt_sha256, &first);
    gb_str_append(&out, "}\n");
    return gb_str_take(&out);
}

/* The parsed line's storage: the JSON and the stop list. */
typedef struct {
    json_t *json;
    const char **stop;
} GbEvalPromptsStorage;

static const char *const gb_eval_prompts__keys_chat[] = {"task_id",  "item", "version",  "sample",        "task", "api",
                                                         "messages", "stop", "expected", "prompt_sha256", NULL};
static const char *const gb_eval_prompts__keys_plain[] = {"task_id", "item", "version",  "sample",        "task", "api",
                                                          "prompt",  "stop", "expected", "prompt_sha256", NULL};
static const char *const gb_eval_prompts__keys_message[] = {"role", "content", NULL};

/* messages: an optional system message, then the user's. */
static void gb_eval_prompts__messages(GbDocReader *c, const json_t *o, GbEvalPromptLine *out)
{
    json_t *m = gb_doc_get(c, o, "", "messages", JSON_ARRAY, "a list of messages");
    size_t n = m ? json_array_size(m) : 0;
    if (c->ok && (n < 1 || n > 2)) gb_doc_fail(c, "\"messages\": expected a user message after an optional system one");
    for (size_t i = 0; c->ok && i < n; i++) {
        char w[48];
        snprintf(w, sizeof w, "messages[%zu].", i);
        json_t *x = json_array_get(m, i);
        if (!json_is_object(x)) {
            gb_doc_fail(c, "\"messages[%zu]\": expected an object", i);
            break;
        }
        gb_doc_keys(c, x, w, gb_eval_prompts__keys_message);
        const char *role = NULL;
        gb_doc_string_ref(c, x, w, "role", false, &role);
        const char *want = i + 1 == n ? "user" : "system";
        if (c->ok && strcmp(role, want) != 0) gb_doc_fail(c, "\"%srole\": expected \"%s\"", w, want);
        gb_doc_string_ref(c, x, w, "content", false, i + 1 == n ? &out->prompt : &out->system);
    }
}

/* The parse of an object line into out (its strings borrowed from o). */
static void gb_eval_prompts__fill(GbDocReader *c, const json_t *o, GbEvalPromptLine *out, GbEvalPromptsStorage *st)
{
    const char *task_id = NULL, *api = NULL;
    gb_doc_string_ref(c, o, "", "task_id", false, &task_id);
    gb_doc_string_ref(c, o, "", "item", false, &out->item);
    gb_doc_long(c, o, "", "version", &out->version);
    gb_doc_long(c, o, "", "sample", &out->sample);
    gb_doc_string_ref(c, o, "", "task", false, &out->task);
    gb_doc_string_ref(c, o, "", "api", false, &api);
    if (c->ok && strcmp(api, "chat") != 0 && strcmp(api, "completions") != 0)
        gb_doc_fail(c, "\"api\": expected \"chat\" or \"completions\"");
    if (!c->ok) return;
    out->chat = strcmp(api, "chat") == 0;
    gb_doc_keys(c, o, "", out->chat ? gb_eval_prompts__keys_chat : gb_eval_prompts__keys_plain);
    if (out->chat)
        gb_eval_prompts__messages(c, o, out);
    else
        gb_doc_string_ref(c, o, "", "prompt", false, &out->prompt);
    json_t *stop = gb_doc_get(c, o, "", "stop", JSON_ARRAY, "a list of strings");
    if (stop) {
        st->stop = gb_malloc((json_array_size(stop) + 1) * sizeof *st->stop);
        for (size_t i = 0; i < json_array_size(stop); i++) {
            st->stop[i] = json_string_value(json_array_get(stop, i));
            if (!st->stop[i]) gb_doc_fail(c, "\"stop[%zu]\": expected a string", i);
        }
        st->stop[json_array_size(stop)] = NULL;
        out->stop = st->stop;
    }
    gb_doc_string_ref(c, o, "", "expected", true, &out->expected);
    gb_doc_string_ref(c, o, "", "prompt_sha256", false, &out->prompt_sha256);
    if (c->ok) {
        char *want = gb_asprintf("%s@v%ld", out->item, out->version);
        if (strcmp(task_id, want) != 0) gb_doc_fail(c, "\"task_id\": expected \"%s\" (item@vversion)", want);
        free(want);
    }
}

bool gb_eval_prompt_line_parse(const char *line, size_t len, const char *where, GbEvalPromptLine *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    GbDocReader c = {.name = where, .err = err, .ok = true};
    GbEvalPromptsStorage *st = gb_malloc(sizeof *st);
    st->json = gb_doc_parse(&c, line, len);
    st->stop = NULL;
    if (st->json && !json_is_object(st->json)) gb_doc_fail(&c, "expected a JSON object");
    if (c.ok) gb_eval_prompts__fill(&c, st->json, out, st);
    out->storage_ = st;
    if (!c.ok) {
        gb_eval_prompt_line_destroy(out);
        return false;
    }
    return true;
}

void gb_eval_prompt_line_destroy(GbEvalPromptLine *p)
{
    if (!p) return;
    GbEvalPromptsStorage *st = p->storage_;
    if (st) {
        json_decref(st->json);
        free(st->stop);
        free(st);
    }
    memset(p, 0, sizeof *p);
}
