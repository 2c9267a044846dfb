#include "src/base/http.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct GbHttpClient {
    char *base; /* without trailing "/" and "/v1" */
    char *auth; /* "Authorization: Bearer KEY" or NULL */
    long connect_timeout_ms, timeout_ms, retry_base_ms, retry_max_ms;
    int max_retries;
    long requests; /* atomic */
    long budget_ms;         /* wall-clock cap of the client from its creation; < 0: none */
    long request_budget_ms; /* wall-clock cap of one call, its retries and back-off included; <= 0: none */
    long max_reply_bytes;
    long t0_ms; /* when the client was created (monotonic) */
};

#define GB_HTTP_BUDGET_MS 600000L
#define GB_HTTP_MAX_REPLY (16L << 20)
#define GB_HTTP_RETRY_AFTER_MAX_S 86400L

static long gb_http__now_ms(void);

void gb_http_options_default(GbHttpOptions *o)
{
    memset(o, 0, sizeof *o);
    o->connect_timeout_ms = 10000;
    o->timeout_ms = 120000;
    o->max_retries = 4;
    o->retry_base_ms = 500;
    o->retry_max_ms = 30000;
    o->budget_ms = GB_HTTP_BUDGET_MS;
    o->max_reply_bytes = GB_HTTP_MAX_REPLY;
}

GbHttpClient *gb_http_client_new(const GbHttpOptions *o, GbError *err)
{
    const char *url = o->base_url;
    if (!url || !*url) {
        gb_error_set(err, "no server URL given");
        return NULL;
    }
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        gb_error_set(err, "server URL '%s' must start with http:// or https://", url);
        return NULL;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        gb_error_set(err, "libcurl could not be initialised");
        return NULL;
    }
    GbHttpClient *c = gb_calloc(1, sizeof *c);
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/') n--;
    if (n >= 3 && memcmp(url + n - 3, "/v1", 3) == 0) n -= 3;
    while (n > 0 && url[n - 1] == '/') n--;
    c->base = gb_strndup(url, n);
    if (o->api_key && *o->api_key) c->auth = gb_asprintf("Authorization: Bearer %s", o->api_key);
    c->connect_timeout_ms = o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 10000;
    c->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 120000;
    c->max_retries = o->max_retries >= 0 ? o->max_retries : 4;
    c->retry_base_ms = o->retry_base_ms >= 0 ? o->retry_base_ms : 500;
    c->retry_max_ms = o->retry_max_ms > 0 ? o->retry_max_ms : 30000;
    c->budget_ms = o->budget_ms != 0 ? o->budget_ms : GB_HTTP_BUDGET_MS;
    c->request_budget_ms = o->request_budget_ms;
    c->t0_ms = gb_http__now_ms();
    c->max_reply_bytes = o->max_reply_bytes > 0 ? o->max_reply_bytes : GB_HTTP_MAX_REPLY;
    return c;
}

void gb_http_client_delete(GbHttpClient *c)
{
    if (!c) return;
    free(c->base);
    free(c->auth);
    free(c);
    curl_global_cleanup();
}

long gb_http_client_requests(const GbHttpClient *c)
{
    return __atomic_load_n(&c->requests, __ATOMIC_RELAXED);
}

const char *gb_http_client_base(const GbHttpClient *c)
{
    return c->base;
}

typedef struct {
    GbStr body;
    long retry_after_s; /* from a Retry-After header, -1 when absent */
    size_t cap;         /* largest body accepted */
    bool too_big;
} GbHttp__Reply;

static size_t gb_http__write(char *ptr, size_t size, size_t nmemb, void *user)
{
    GbHttp__Reply *r = user;
    if (r->body.len + size * nmemb > r->cap) {
        r->too_big = true;
        return 0; /* libcurl stops the transfer: CURLE_WRITE_ERROR */
    }
    gb_str_append_n(&r->body, ptr, size * nmemb);
    return size * nmemb;
}

static long gb_http__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static size_t gb_http__header(char *buf, size_t size, size_t nitems, void *user)
{
    GbHttp__Reply *r = user;
    size_t n = size * nitems;
    if (n > 12 && strncasecmp(buf, "Retry-After:", 12) == 0) {
        char *end;
        long v = strtol(buf + 12, &end, 10);
        /* capped before it is turned into milliseconds: a server's huge value must not overflow */
        if (end != buf + 12 && v >= 0) r->retry_after_s = v < GB_HTTP_RETRY_AFTER_MAX_S ? v : GB_HTTP_RETRY_AFTER_MAX_S;
    }
    return n;
}

/* What is left of the client's budget and of this call's (started at call_t0), the smaller;
 * *which (may be NULL) gets the size of the budget that is smaller. LONG_MAX: no budget. */
static long gb_http__left_ms(const GbHttpClient *c, long call_t0, long *which)
{
    long now = gb_http__now_ms(), left = LONG_MAX;
    if (c->budget_ms > 0) {
        left = c->budget_ms - (now - c->t0_ms);
        if (which) *which = c->budget_ms;
    }
    if (c->request_budget_ms > 0 && c->request_budget_ms - (now - call_t0) < left) {
        left = c->request_budget_ms - (now - call_t0);
        if (which) *which = c->request_budget_ms;
    }
    return left;
}

static void gb_http__sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* The server's own error message from an error body ({"error":{"message":...}},
 * {"error":"..."}, {"detail":...}, {"message":...}), or a prefix of the body. Owned. */
static char *gb_http__server_message(const char *body)
{
    json_error_t je;
    json_t *j = json_loads(body, 0, &je);
    char *msg = NULL;
    if (j) {
        json_t *e = json_object_get(j, "error");
        if (json_is_object(e) && json_is_string(json_object_get(e, "message")))
            msg = gb_strdup(json_string_value(json_object_get(e, "message")));
        else if (json_is_string(e))
            msg = gb_strdup(json_string_value(e));
        else if (json_is_string(json_object_get(j, "detail")))
            msg = gb_strdup(json_string_value(json_object_get(j, "detail")));
        else if (json_is_string(json_object_get(j, "message")))
            msg = gb_strdup(json_string_value(json_object_get(j, "message")));
        json_decref(j);
    }
    if (!msg) {
        size_t n = strlen(body);
        msg = n > 200 ? gb_asprintf("%.200s...", body) : gb_strdup(n ? body : "(empty body)");
    }
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    return msg;
}

/* POST body to {base}{path}; on success (2xx) returns the parsed JSON reply. Retries as
 * documented in the header. */
/* POST req to path; the reply must be a JSON object (or, with array_ok, an array). */
static json_t *gb_http__post_json(GbHttpClient *c, const char *path, json_t *req, bool array_ok, GbError *err)
{
    char *url = gb_asprintf("%s%s", c->base, path);
    char *payload = req ? json_dumps(req, JSON_COMPACT) : NULL; /* NULL: a GET */
    json_t *result = NULL;
    long delay = c->retry_base_ms;
    long call_t0 = gb_http__now_ms();
    for (int attempt = 0;; attempt++) {
        long which_ms = 0;
        long left = gb_http__left_ms(c, call_t0, &which_ms);
        if (left <= 0) {
            const char *what = which_ms == c->budget_ms ? "requests to this server" : "this request";
            if (attempt == 0)
                gb_error_set(err, "%s: the time budget of %ld s for %s is spent", url, which_ms / 1000, what);
            else {
                size_t n = strlen(err->msg);
                snprintf(err->msg + n, sizeof err->msg - n, "; the time budget of %ld s for %s is spent",
                         which_ms / 1000, what);
            }
            break;
        }
        long timeout = c->timeout_ms < left ? c->timeout_ms : left;
        CURL *h = curl_easy_init();
        if (!h) {
            gb_error_set(err, "%s: libcurl could not create a handle", url);
            break;
        }
        GbHttp__Reply reply = {.retry_after_s = -1, .cap = (size_t)c->max_reply_bytes};
        gb_str_init(&reply.body);
        gb_str_append(&reply.body, "");
        struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
        hdr = curl_slist_append(hdr, "Accept: application/json");
        if (c->auth) hdr = curl_slist_append(hdr, c->auth);
        char cerr[CURL_ERROR_SIZE] = "";
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
        if (payload) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload);
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(payload));
        } else {
            curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
        }
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L); /* required for threads */
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, gb_http__write);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &reply);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, gb_http__header);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, &reply);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
        curl_easy_setopt(h, CURLOPT_USERAGENT, "genebench");
        __atomic_add_fetch(&c->requests, 1, __ATOMIC_RELAXED);
        CURLcode rc = curl_easy_perform(h);
        long status = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        curl_slist_free_all(hdr);
        curl_easy_cleanup(h);

        bool retry = false;
        if (rc == CURLE_COULDNT_CONNECT) {
            gb_error_set(err, "%s: cannot connect (%s): is the server running?", url, cerr[0] ? cerr : "refused");
        } else if (rc == CURLE_COULDNT_RESOLVE_HOST) {
            gb_error_set(err, "%s: cannot resolve the host (%s)", url, cerr[0] ? cerr : curl_easy_strerror(rc));
        } else if (rc == CURLE_OPERATION_TIMEDOUT) {
            gb_error_set(err, "%s: no complete reply within %ld ms (timeout)", url, timeout);
            retry = true;
        } else if (reply.too_big) {
            gb_error_set(err, "%s: the reply is larger than %ld bytes (refused)", url, c->max_reply_bytes);
        } else if (rc != CURLE_OK) {
            gb_error_set(err, "%s: %s", url, cerr[0] ? cerr : curl_easy_strerror(rc));
            retry =
                rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING || rc == CURLE_PARTIAL_FILE;
        } else if (status < 200 || status > 299) {
            char *m = gb_http__server_message(reply.body.data);
            gb_error_set(err, "%s: HTTP %ld: %s", url, status, m);
            free(m);
            retry = status == 429 || status >= 500;
        } else {
            json_error_t je;
            result = json_loads(reply.body.data, 0, &je);
            if (!result) {
                gb_error_set(err, "%s: malformed JSON in the reply (line %d column %d: %s); body starts: %.80s", url,
                             je.line, je.column, je.text, reply.body.data);
            } else if (!json_is_object(result) && !(array_ok && json_is_array(result))) {
                gb_error_set(err, "%s: the reply is JSON but not an object%s", url, array_ok ? " or a list" : "");
                json_decref(result);
                result = NULL;
            }
        }
        long retry_after = reply.retry_after_s;
        gb_str_destroy(&reply.body);
        if (result || !retry || attempt >= c->max_retries) {
            if (!result && retry && attempt > 0) {
                size_t n = strlen(err->msg);
                snprintf(err->msg + n, sizeof err->msg - n, " (after %d attempts)", attempt + 1);
            }
            break;
        }
        long wait = delay;
        if (retry_after >= 0 && retry_after * 1000 > wait) wait = retry_after * 1000;
        if (wait > c->retry_max_ms) wait = c->retry_max_ms;
        long budget_left = gb_http__left_ms(c, call_t0, NULL);
        if (wait > budget_left) wait = budget_left > 0 ? budget_left : 0;
        gb_http__sleep_ms(wait);
        delay = delay * 2 > c->retry_max_ms ? c->retry_max_ms : delay * 2;
    }
    free(payload);
    free(url);
    return result;
}

static json_t *gb_http__post(GbHttpClient *c, const char *path, json_t *req, GbError *err)
{
    return gb_http__post_json(c, path, req, false, err);
}

void gb_chat_params_default(GbChatParams *p)
{
    p->temperature = 0;
    p->top_p = 1;
    p->max_tokens = 0;
    p->seed = -1;
}

bool gb_llm_chat(GbHttpClient *c, const char *model, const char *system, const char *user, long seed, char **reply,
                 GbError *err)
{
    GbChatParams p;
    gb_chat_params_default(&p);
    p.seed = seed;
    return gb_llm_chat_params(c, model, system, user, &p, reply, err);
}

bool gb_llm_chat_params(GbHttpClient *c, const char *model, const char *system, const char *user, const GbChatParams *p,
                        char **reply, GbError *err)
{
    GbLlmReply r;
    bool ok = gb_llm_generate(c, GB_LLM_CHAT, model, system, user, p, NULL, &r, err);
    *reply = ok ? r.text : NULL;
    r.text = NULL;
    gb_llm_reply_destroy(&r);
    return ok;
}

void gb_llm_reply_destroy(GbLlmReply *r)
{
    if (!r) return;
    free(r->text);
    free(r->finish_reason);
    memset(r, 0, sizeof *r);
}

static json_t *gb_http__generate_request(GbLlmApi api, const char *model, const char *system, const char *prompt,
                                         const GbChatParams *p, const char *const *stop)
{
    json_t *req = json_object();
    json_object_set_new(req, "model", json_string(model ? model : ""));
    if (api == GB_LLM_CHAT) {
        json_t *msgs = json_array();
        if (system) json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "system", "content", system));
        json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "user", "content", prompt));
        json_object_set_new(req, "messages", msgs);
    } else {
        json_object_set_new(req, "prompt", json_string(prompt));
    }
    json_object_set_new(req, "temperature", json_real(p->temperature));
    json_object_set_new(req, "top_p", json_real(p->top_p));
    if (p->max_tokens > 0) json_object_set_new(req, "max_tokens", json_integer(p->max_tokens));
    if (p->seed >= 0) json_object_set_new(req, "seed", json_integer(p->seed));
    if (stop && stop[0]) {
        json_t *st = json_array();
        for (size_t i = 0; stop[i]; i++) json_array_append_new(st, json_string(stop[i]));
        json_object_set_new(req, "stop", st);
    }
    json_object_set_new(req, "stream", json_false());
    return req;
}

static long gb_http__usage(json_t *res, const char *key)
{
    json_t *v = json_object_get(json_object_get(res, "usage"), key);
    return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

bool gb_llm_generate(GbHttpClient *c, GbLlmApi api, const char *model, const char *system, const char *prompt,
                     const GbChatParams *p, const char *const *stop, GbLlmReply *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    out->prompt_tokens = out->completion_tokens = -1;
    const char *path = api == GB_LLM_CHAT ? "/v1/chat/completions" : "/v1/completions";
    json_t *req = gb_http__generate_request(api, model, system, prompt, p, stop);
    json_t *res = gb_http__post(c, path, req, err);
    json_decref(req);
    if (!res) return false;
    bool ok = false;
    json_t *choices = json_object_get(res, "choices");
    json_t *choice = json_array_get(choices, 0), *content = NULL;
    if (!json_is_array(choices) || json_array_size(choices) == 0) {
        gb_error_set(err, "%s%s: the reply has no \"choices\"", c->base, path);
    } else if (api == GB_LLM_COMPLETIONS) {
        content = json_object_get(choice, "text");
        if (!json_is_string(content))
            gb_error_set(err, "%s%s: choices[0].text is %s, not a string", c->base, path,
                         content ? "of the wrong type" : "missing");
    } else {
        json_t *msg = json_object_get(choice, "message");
        content = json_object_get(msg, "content");
        if (!json_is_object(msg))
            gb_error_set(err, "%s%s: choices[0] has no \"message\" object", c->base, path);
        else if (!json_is_string(content))
            gb_error_set(err, "%s%s: choices[0].message.content is %s, not a string", c->base, path,
                         content ? "of the wrong type" : "missing");
    }
    if (json_is_string(content)) {
        out->text = gb_strdup(json_string_value(content));
        json_t *fr = json_object_get(choice, "finish_reason");
        if (json_is_string(fr)) out->finish_reason = gb_strdup(json_string_value(fr));
        out->prompt_tokens = gb_http__usage(res, "prompt_tokens");
        out->completion_tokens = gb_http__usage(res, "completion_tokens");
        ok = true;
    }
    json_decref(res);
    return ok;
}

bool gb_llm_model_info(GbHttpClient *c, const char *model, GbLlmModelInfo *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    out->context = -1;
    json_t *res = gb_http__post_json(c, "/v1/models", NULL, false, err);
    if (!res) return false;
    json_t *data = json_object_get(res, "data");
    if (!json_is_array(data)) {
        gb_error_set(err, "%s/v1/models: the reply has no \"data\" list", c->base);
        json_decref(res);
        return false;
    }
    GbStr names;
    gb_str_init(&names);
    gb_str_append(&names, "");
    size_t i;
    json_t *m;
    bool found = false;
    json_array_foreach(data, i, m)
    {
        const char *id = json_string_value(json_object_get(m, "id"));
        if (!id) continue;
        gb_str_appendf(&names, "%s%s", names.len ? ", " : "", id);
        if (found || strcmp(id, model) != 0) continue;
        found = true;
        out->id = gb_strdup(id);
        json_t *ctx = json_object_get(m, "max_model_len");
        if (!json_is_integer(ctx)) ctx = json_object_get(json_object_get(m, "meta"), "n_ctx_train");
        if (json_is_integer(ctx)) out->context = (long)json_integer_value(ctx);
    }
    if (!found)
        gb_error_set(err, "model %s not found at %s (the server has: %s)", model, c->base,
                     names.len ? names.data : "no model");
    gb_str_destroy(&names);
    json_decref(res);
    return found;
}

bool gb_embed_batch(GbHttpClient *c, const char *model, const char *const *texts, size_t n, double **vectors,
                    size_t *dim, GbError *err)
{
    *vectors = NULL;
    *dim = 0;
    if (n == 0) return true;
    json_t *req = json_object();
    json_object_set_new(req, "model", json_string(model ? model : ""));
    json_t *input = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(input, json_string(texts[i]));
    json_object_set_new(req, "input", input);
    json_object_set_new(req, "encoding_format", json_string("float"));
    json_t *res = gb_http__post(c, "/v1/embeddings", req, err);
    json_decref(req);
    if (!res) return false;
    const char *where = "/v1/embeddings";
    json_t *data = json_object_get(res, "data");
    double *out = NULL;
    unsigned char *seen = NULL;
    size_t d = 0;
    bool ok = false;
    if (!json_is_array(data)) {
        gb_error_set(err, "%s%s: the reply has no \"data\" array", c->base, where);
        goto done;
    }
    if (json_array_size(data) != n) {
        gb_error_set(err, "%s%s: asked for %zu embeddings, the reply has %zu", c->base, where, n,
                     json_array_size(data));
        goto done;
    }
    seen = gb_calloc(n, 1);
    for (size_t k = 0; k < n; k++) {
        json_t *item = json_array_get(data, k);
        json_t *jidx = json_object_get(item, "index");
        json_t *emb = json_object_get(item, "embedding");
        /* Without "index" the order of data is the order of the inputs. */
        json_int_t idx = jidx ? (json_is_integer(jidx) ? json_integer_value(jidx) : -1) : (json_int_t)k;
        if (idx < 0 || (size_t)idx >= n || seen[idx]) {
            gb_error_set(err, "%s%s: data[%zu] has a missing, duplicate or out-of-range \"index\"", c->base, where, k);
            goto done;
        }
        if (!json_is_array(emb) || json_array_size(emb) == 0) {
            gb_error_set(err,
                         "%s%s: data[%zu].embedding is %s (a base64 string means the server ignored "
                         "encoding_format \"float\")",
                         c->base, where, k, emb ? "not a list of numbers" : "missing");
            goto done;
        }
        if (!out) {
            d = json_array_size(emb);
            out = gb_malloc(n * d * sizeof *out);
        } else if (json_array_size(emb) != d) {
            gb_error_set(err, "%s%s: embeddings of different dimensions in one reply (%zu and %zu)", c->base, where, d,
                         json_array_size(emb));
            goto done;
        }
        for (size_t t = 0; t < d; t++) {
            json_t *v = json_array_get(emb, t);
            if (!json_is_number(v)) {
                gb_error_set(err, "%s%s: data[%zu].embedding[%zu] is not a number", c->base, where, k, t);
                goto done;
            }
            out[(size_t)idx * d + t] = json_number_value(v);
        }
        seen[idx] = 1;
    }
    ok = true;
done:
    free(seen);
    json_decref(res);
    if (!ok) {
        free(out);
        return false;
    }
    *vectors = out;
    *dim = d;
    return true;
}

const char *const gb_pooling_names[] = {"mean", "last", "first", NULL};

/* One text's vector from llama.cpp's "embedding" value: a list of numbers (pooled by the server)
 * or a list of rows (one per token with --pooling none, else one pooled row), pooled here. */
static bool gb_http__pool(json_t *emb, GbPooling pooling, double *out, size_t *d, size_t *rows, const char *where,
                          size_t k, GbError *err)
{
    if (!json_is_array(emb) || json_array_size(emb) == 0) {
        gb_error_set(err, "%s: item %zu has no \"embedding\" list", where, k);
        return false;
    }
    bool nested = json_is_array(json_array_get(emb, 0));
    size_t nr = nested ? json_array_size(emb) : 1;
    size_t pick = pooling == GB_POOLING_LAST ? nr - 1 : 0;
    for (size_t r = 0; r < nr; r++) {
        json_t *row = nested ? json_array_get(emb, r) : emb;
        if (!json_is_array(row) || json_array_size(row) == 0 || json_array_size(row) != *d) {
            gb_error_set(err, "%s: item %zu: embedding row %zu is %s (%zu numbers expected)", where, k, r,
                         json_is_array(row) ? "of another dimension" : "not a list", *d);
            return false;
        }
        if (pooling != GB_POOLING_MEAN && r != pick) continue;
        for (size_t t = 0; t < *d; t++) {
            json_t *v = json_array_get(row, t);
            if (!json_is_number(v)) {
                gb_error_set(err, "%s: item %zu: embedding row %zu, value %zu is not a number", where, k, r, t);
                return false;
            }
            out[t] += json_number_value(v) / (pooling == GB_POOLING_MEAN ? (double)nr : 1.0);
        }
    }
    *rows = nr;
    return true;
}

bool gb_embed_llamacpp_batch(GbHttpClient *c, const char *model, const char *const *texts, size_t n, GbPooling pooling,
                             double **vectors, size_t *dim, size_t *rows, GbError *err)
{
    *vectors = NULL;
    *dim = 0;
    if (n == 0) return true;
    json_t *req = json_object();
    if (model && *model) json_object_set_new(req, "model", json_string(model));
    json_t *content = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(content, json_string(texts[i]));
    json_object_set_new(req, "content", content);
    json_t *res = gb_http__post_json(c, "/embedding", req, true, err);
    json_decref(req);
    if (!res) return false;
    char *where = gb_asprintf("%s/embedding", c->base);
    /* [{"index", "embedding"}, ...]; a single object {"embedding": [...]} from older servers */
    json_t *list = res;
    if (json_is_object(res)) {
        list = json_array();
        json_array_append(list, res);
    } else {
        json_incref(list);
    }
    double *out = NULL;
    unsigned char *seen = NULL;
    size_t d = 0;
    bool ok = false;
    if (json_array_size(list) != n) {
        gb_error_set(err, "%s: asked for %zu embeddings, the reply has %zu", where, n, json_array_size(list));
        goto done;
    }
    seen = gb_calloc(n, 1);
    for (size_t k = 0; k < n; k++) {
        json_t *item = json_array_get(list, k);
        json_t *jidx = json_object_get(item, "index");
        json_int_t idx = jidx ? (json_is_integer(jidx) ? json_integer_value(jidx) : -1) : (json_int_t)k;
        if (idx < 0 || (size_t)idx >= n || seen[idx]) {
            gb_error_set(err, "%s: item %zu has a duplicate or out-of-range \"index\"", where, k);
            goto done;
        }
        json_t *emb = json_object_get(item, "embedding");
        if (!out) {
            json_t *first = json_is_array(emb) ? json_array_get(emb, 0) : NULL;
            d = json_is_array(first) ? json_array_size(first) : json_is_array(emb) ? json_array_size(emb) : 0;
            if (d == 0) {
                gb_error_set(err, "%s: item %zu has no \"embedding\" list", where, k);
                goto done;
            }
            out = gb_calloc(n * d, sizeof *out);
        }
        if (!gb_http__pool(emb, pooling, out + (size_t)idx * d, &d, &rows[idx], where, k, err)) goto done;
        seen[idx] = 1;
    }
    ok = true;
done:
    free(seen);
    free(where);
    json_decref(list);
    json_decref(res);
    if (!ok) {
        free(out);
        return false;
    }
    *vectors = out;
    *dim = d;
    return true;
}
