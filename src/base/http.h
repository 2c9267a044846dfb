#pragma once
/* The one HTTP client of genebench (libcurl + jansson): JSON POSTs to an OpenAI-compatible
 * server (vLLM, llama.cpp server, Ollama, OpenAI), for chat completions (natural names) and
 * embeddings (NNMR).
 *
 *   POST {base}/v1/chat/completions  {"model","messages":[system?, user],"temperature":0,
 *                                     "top_p":1,"seed"?,"stream":false}
 *   POST {base}/v1/embeddings        {"model","input":[...],"encoding_format":"float"}
 *   POST {base}/embedding            llama.cpp's native embeddings (per-token or pooled vectors)
 *
 * The base URL may be given with or without a trailing "/v1". The key (the commands read
 * GENEBENCH_API_KEY) is sent as "Authorization: Bearer KEY"; local servers accept any key.
 * Each request has a connect timeout and a total timeout. Two budgets, both wall-clock, so
 * that concurrent requests do not add up: the client's (from its creation: an overall cap, for
 * the naming step) and, optionally, each call's (its attempts and back-off together: eval). Once
 * one is spent the call fails at once, and no attempt or back-off waits longer than what is left
 * of either. A reply larger than max_reply_bytes is
 * refused as it arrives (not retried). 429, 5xx, timeouts and dropped connections are retried with exponential back-off
 * (base * 2^attempt, capped; a Retry-After header in seconds is honoured up to the cap). A refused connection is not
 * retried: it fails at once with a message saying no server is listening.
 * Errors name the URL and say what went wrong: HTTP status with the server's own error
 * message, malformed JSON, missing or mistyped fields.
 *
 * Thread-safety: a client is immutable after creation apart from its request counter
 * (atomic); every call uses its own curl easy handle, so one client may be used from many
 * threads at once. curl_global_init is called by gb_http_client_new (thread-safe in the
 * libcurl of Debian 12, 7.88, which reports CURL_VERSION_THREADSAFE). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct {
    const char *base_url;    /* e.g. "http://127.0.0.1:8000" (copied) */
    const char *api_key;     /* may be NULL or "" (then no Authorization header); copied */
    long connect_timeout_ms; /* <= 0: 10000 */
    long timeout_ms;         /* whole request; <= 0: 120000 */
    int max_retries;         /* further attempts after the first; < 0: 4 */
    long retry_base_ms;      /* first back-off; < 0: 500 (tests use a few ms) */
    long retry_max_ms;       /* cap of one back-off; <= 0: 30000 */
    long budget_ms;          /* wall-clock cap from the client's creation; 0: 600000; < 0: none */
    long request_budget_ms;  /* wall-clock cap of one call, retries and back-off included; <= 0: none */
    long max_reply_bytes;    /* a longer reply body is an error; <= 0: 16 MiB */
} GbHttpOptions;

/* Defaults as documented above (base_url and api_key NULL). */
void gb_http_options_default(GbHttpOptions *o);

typedef struct GbHttpClient GbHttpClient;

/* A client for opts->base_url (must be non-empty http:// or https://). Returns NULL and
 * fills err on a bad URL. Owned; free with gb_http_client_delete. */
GbHttpClient *gb_http_client_new(const GbHttpOptions *opts, GbError *err);
void gb_http_client_delete(GbHttpClient *c);
/* Number of HTTP requests sent so far (every attempt counts). */
long gb_http_client_requests(const GbHttpClient *c);
/* The normalised base URL without "/v1" (borrowed). */
const char *gb_http_client_base(const GbHttpClient *c);

/* One chat completion (temperature 0, top_p 1). system may be NULL (no system message);
 * seed < 0 leaves it out. On success *reply gets the assistant's content (owned). The
 * content is returned as the model wrote it: checking that it makes sense is the caller's
 * job. */
bool gb_llm_chat(GbHttpClient *c, const char *model, const char *system, const char *user, long seed, char **reply,
                 GbError *err);

/* The sampling parameters of a chat completion. */
typedef struct {
    double temperature; /* default 0 */
    double top_p;       /* default 1 */
    long max_tokens;    /* <= 0: not sent (the server's default) */
    long seed;          /* < 0: not sent */
} GbChatParams;
void gb_chat_params_default(GbChatParams *p);
/* gb_llm_chat with explicit sampling parameters. */
bool gb_llm_chat_params(GbHttpClient *c, const char *model, const char *system, const char *user, const GbChatParams *p,
                        char **reply, GbError *err);

/* Which endpoint a generation uses: chat (messages: system?, user) or completions (a plain
 * prompt, for base models). */
typedef enum { GB_LLM_CHAT, GB_LLM_COMPLETIONS } GbLlmApi;

/* A generation's reply; gb_llm_reply_destroy frees it. */
typedef struct {
    char *text;             /* owned: the content (chat) or text (completions) */
    char *finish_reason;    /* owned, NULL when the server gave none ("stop", "length", ...) */
    long prompt_tokens;     /* the reply's usage; -1 when the server gave none */
    long completion_tokens; /* -1 when the server gave none */
} GbLlmReply;
void gb_llm_reply_destroy(GbLlmReply *r);

/* One generation over api: POST /v1/chat/completions {"model","messages",...} or
 * /v1/completions {"model","prompt",...}, with p's sampling parameters and stop (a
 * NULL-terminated list of stop sequences, sent as "stop"; NULL or empty: not sent). system is
 * used by chat only (NULL: none). On success *out is filled (owned). */
bool gb_llm_generate(GbHttpClient *c, GbLlmApi api, const char *model, const char *system, const char *prompt,
                     const GbChatParams *p, const char *const *stop, GbLlmReply *out, GbError *err);

/* What GET /v1/models says of one model. */
typedef struct {
    char *id;     /* owned */
    long context; /* its context length (vLLM's max_model_len, llama.cpp's meta.n_ctx_train); -1: not said */
} GbLlmModelInfo;

/* GET /v1/models and find model in it. False with err when the server cannot be reached, the
 * reply is not a model list, or model is not in it ("model X not found at URL (the server has:
 * ...)"). On success out->id is owned (free it). */
bool gb_llm_model_info(GbHttpClient *c, const char *model, GbLlmModelInfo *out, GbError *err);

/* Embeddings of n texts in one request. On success *vectors is an owned array of n * *dim
 * doubles, row i the embedding of texts[i] (the reply's data is ordered by its "index"
 * fields, which must cover 0..n-1 exactly once, with equal dimensions). */
bool gb_embed_batch(GbHttpClient *c, const char *model, const char *const *texts, size_t n, double **vectors,
                    size_t *dim, GbError *err);

/* How the per-token vectors of a text become one vector (llama.cpp's /embedding with
 * --pooling none returns one row per token): their mean, the last token's or the first's. */
typedef enum { GB_POOLING_MEAN, GB_POOLING_LAST, GB_POOLING_FIRST } GbPooling;
/* "mean", "last", "first", NULL (indexed by GbPooling). */
extern const char *const gb_pooling_names[];

/* Embeddings of n texts from llama.cpp's native endpoint in one request:
 *   POST {base}/embedding {"content": [texts], "model"?}
 *   -> [{"index": i, "embedding": [[token 0 ...], [token 1 ...], ...]}, ...]
 * With the server's --pooling none the rows are the unnormalised hidden states of every token,
 * pooled here as `pooling` says; with any other server pooling there is one (pooled, normalised)
 * row, which is used as it is. A flat "embedding" list and a single-object reply (older servers)
 * are accepted too. On success *vectors (owned, n * *dim), *dim, and rows[i] (caller's n
 * entries): how many rows text i got (1: the server pooled). */
bool gb_embed_llamacpp_batch(GbHttpClient *c, const char *model, const char *const *texts, size_t n, GbPooling pooling,
                             double **vectors, size_t *dim, size_t *rows, GbError *err);
