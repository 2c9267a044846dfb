/* Natural names from an OpenAI-compatible model: the prompt, the request, the reply and the
 * checks every proposed name must pass. */
#include "operators/naming_private.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/http.h"
#include "src/python/scope.h"

/* The first JSON value ({...} or [...]) in a model's reply, fences and prose around it ignored. */
static json_t *gb_nm__reply_json(const char *reply)
{
    for (const char *p = reply; *p; p++) {
        if (*p != '{' && *p != '[') continue;
        json_error_t e;
        json_t *j = json_loads(p, JSON_DISABLE_EOF_CHECK, &e);
        if (j) return j;
    }
    return NULL;
}

static const char *gb_nm__str_member(json_t *o, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++) {
        json_t *v = json_object_get(o, keys[i]);
        if (json_is_string(v)) return json_string_value(v);
    }
    return NULL;
}

/* Pairs (old, new) from the reply: {"old": "new"}, {"renames": {...}} or
 * [{"old": ..., "new": ...}] (also the reference tool's "original name"/"variable name"). */
static void gb_nm__reply_pairs(json_t *j, GbNameList *olds, GbNameList *news)
{
    if (json_is_object(j)) {
        static const char *const wrappers[] = {"renames", "names", "mapping", "identifiers", "variables", NULL};
        for (size_t i = 0; wrappers[i]; i++) {
            json_t *inner = json_object_get(j, wrappers[i]);
            if (json_is_object(inner) || json_is_array(inner)) {
                gb_nm__reply_pairs(inner, olds, news);
                return;
            }
        }
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
        {
            if (!json_is_string(v)) continue;
            gb_array_push(olds, gb_strdup(k));
            gb_array_push(news, gb_strdup(json_string_value(v)));
        }
    } else if (json_is_array(j)) {
        static const char *const old_keys[] = {"old", "original", "original name", "original_name", "from", NULL};
        static const char *const new_keys[] = {"new", "name", "variable name", "new_name", "to", NULL};
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v)
        {
            if (!json_is_object(v)) continue;
            const char *o = gb_nm__str_member(v, old_keys), *n = gb_nm__str_member(v, new_keys);
            if (!o || !n) continue;
            gb_array_push(olds, gb_strdup(o));
            gb_array_push(news, gb_strdup(n));
        }
    }
}

static bool gb_nm__ident_syntax(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
    return true;
}

/* Why a proposed name is refused (static text), or NULL when it is acceptable. */
static const char *gb_nm__refusal(GbOpContext *ctx, const char *name)
{
    if (!gb_nm__ident_syntax(name)) return "not an identifier";
    if (gb_python_is_keyword(name)) return "a keyword";
    if (gb_python_is_builtin(name)) return "a builtin";
    if (!gb_naming_is_natural(name)) return "a digit suffix";
    if (strncmp(name, "__", 2) == 0) return "a dunder name";
    if (gb_op_ctx_is_pinned(ctx, name)) return "pinned by the tests";
    if (!gb_rename_name_ok(ctx, name)) return "already used";
    return NULL;
}

/* The user message: the program and its synthetic names (each once, into *wanted). NULL when
 * the program has none. Owned. */
static char *gb_nm__llm_prompt(GbOpContext *ctx, const GbNmVars *vars, GbNames *wanted)
{
    GbStr list;
    gb_str_init(&list);
    gb_str_append(&list, "");
    for (size_t i = 0; i < vars->len; i++) {
        if (gb_names_has(wanted, vars->items[i].name)) continue;
        gb_names_add(wanted, vars->items[i].name);
        gb_str_appendf(&list, "%s%s", list.len ? ", " : "", vars->items[i].name);
    }
    if (wanted->len == 0) {
        gb_str_destroy(&list);
        return NULL;
    }
    char *code = gb_program_concat(ctx->prog);
    GbStr user;
    gb_str_init(&user);
    gb_str_appendf(
        &user,
        "The following Python program contains machine-generated identifiers: %s.\n"
        "Propose a natural, human-readable name for each of them that says what the value holds or "
        "what the function does. Rules: Python identifiers in snake_case, no digit suffixes, not a keyword or "
        "builtin, not a name the program already uses, all different. The program's behaviour must not "
        "change.\n"
        "Reply with only a JSON object that maps each listed identifier to its new name, for example "
        "{\"%s\": \"new_name\"}.\n\nProgram:\n```python\n%s%s```\n",
        list.data, wanted->items[0], code, (*code && code[strlen(code) - 1] != '\n') ? "\n" : "");
    free(code);
    gb_str_destroy(&list);
    return gb_str_take(&user);
}

/* One chat completion with the user message; the reply (owned) in *reply. */
GbHttpClient *gb_naming_client_new(const GbNamingConfig *cfg, GbError *err)
{
    GbHttpOptions opts;
    gb_http_options_default(&opts);
    opts.base_url = cfg->url;
    opts.api_key = cfg->api_key;
    opts.connect_timeout_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 5000;
    opts.timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000;
    opts.max_retries = cfg->max_retries >= 0 ? cfg->max_retries : 2;
    opts.retry_base_ms = cfg->retry_base_ms >= 0 ? cfg->retry_base_ms : 500;
    return gb_http_client_new(&opts, err);
}

static bool gb_nm__llm_ask(const GbNamingConfig *cfg, const char *user, char **reply, GbError *err)
{
    GbHttpClient *own = cfg->client ? NULL : gb_naming_client_new(cfg, err);
    GbHttpClient *client = cfg->client ? cfg->client : own;
    bool ok = client && gb_llm_chat(client, cfg->model ? cfg->model : "default",
                                    "You are a careful Python developer who gives machine-generated identifiers "
                                    "natural, descriptive names.",
                                    user, cfg->seed, reply, err);
    gb_http_client_delete(own);
    return ok;
}

/* Apply the proposals olds[i] -> news[i] that pass the checks; the refused ones are listed
 * in rejected. Returns the number applied. */
static size_t gb_nm__llm_apply(GbNmRun *run, const GbNames *wanted, const GbNameList *olds, const GbNameList *news,
                               GbStr *rejected)
{
    GbOpContext *ctx = run->ctx;
    size_t applied = 0;
    for (size_t i = 0; i < olds->len; i++) {
        const char *o = olds->items[i], *n = news->items[i];
        const char *why = NULL;
        if (!gb_names_has(wanted, o))
            why = "not a synthetic name of the program";
        else if (strcmp(o, n) == 0)
            why = "unchanged";
        else
            why = gb_nm__refusal(ctx, n);
        if (!why) {
            /* the first variable with this name (the others keep theirs for the built-in step) */
            GbNmVars now = {0};
            gb_nm__synthetic_vars(ctx, &now);
            why = "cannot be renamed safely";
            for (size_t k = 0; k < now.len; k++)
                if (strcmp(now.items[k].name, o) == 0) {
                    if (gb_nm__rename(run, &now.items[k], n)) why = NULL;
                    break;
                }
            gb_nm__vars_destroy(&now);
        }
        if (why) {
            if (rejected->len < 400) gb_str_appendf(rejected, "%s%s -> %s (%s)", rejected->len ? ", " : "", o, n, why);
        } else {
            applied++;
        }
    }
    return applied;
}

/* Ask the model to name the program's synthetic names and apply the valid proposals; what
 * went wrong (owned) in *llm_error when llm_error is not NULL. */
void gb_nm__llm(GbNmRun *run, const GbNamingConfig *cfg, char **llm_error)
{
    GbNmVars vars = {0};
    gb_nm__synthetic_vars(run->ctx, &vars);
    GbNames wanted = {0};
    char *user = gb_nm__llm_prompt(run->ctx, &vars, &wanted);
    if (!user) {
        gb_nm__vars_destroy(&vars);
        return;
    }
    GbError err;
    char *reply = NULL;
    bool ok = gb_nm__llm_ask(cfg, user, &reply, &err);
    free(user);
    if (!ok) {
        if (llm_error) *llm_error = gb_strdup(err.msg);
        gb_names_destroy(&wanted);
        gb_nm__vars_destroy(&vars);
        return;
    }
    json_t *j = gb_nm__reply_json(reply);
    GbNameList olds = {0}, news = {0};
    if (j) gb_nm__reply_pairs(j, &olds, &news);
    json_decref(j);
    GbStr rejected;
    gb_str_init(&rejected);
    gb_str_append(&rejected, "");
    size_t applied = gb_nm__llm_apply(run, &wanted, &olds, &news, &rejected);
    if (applied) run->llm_used = true;
    if (llm_error && (!j || applied < wanted.len)) {
        if (!j)
            *llm_error = gb_asprintf("%s/v1/chat/completions: the model's reply is not JSON: %.120s", cfg->url, reply);
        else if (olds.len == 0)
            *llm_error = gb_asprintf("%s/v1/chat/completions: the model's reply has no names: %.120s", cfg->url, reply);
        else if (rejected.len)
            *llm_error = gb_asprintf("%s/v1/chat/completions: names refused: %s", cfg->url, rejected.data);
    }
    gb_str_destroy(&rejected);
    gb_name_list_destroy(&olds);
    gb_name_list_destroy(&news);
    free(reply);
    gb_names_destroy(&wanted);
    gb_nm__vars_destroy(&vars);
}
