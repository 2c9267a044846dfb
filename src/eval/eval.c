/* The evaluation run: jobs, threads, cache, resume, results, summary (eval.h). */
#include "src/eval/eval.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/sha256.h"
#include "src/doc/eval_cache.h"
#include "src/doc/eval_prompts.h"
#include "src/doc/eval_results.h"
#include "src/doc/eval_summary.h"
#include "src/eval/offline.h"
#include "src/eval/plus.h"
#include "src/eval/stats.h"
#include "src/eval/task_type.h"
#include "src/python/pyparse.h"

/* What the items of an input kind are (task_type.h). */
typedef struct {
    bool per_assert;                 /* one item per literal assert; else one per task that is usable */
    bool (*usable)(const GbTask *t); /* one item per task: whether the task has one */
    const char *without;             /* the summary's words for the tasks left out */
    const char *none;                /* the error when no task of the original has an item */
} GbEvalInputInfo;

static bool gb_eval__has_stdio(const GbTask *t)
{
    return t->kind == GB_TESTS_STDIO;
}

static bool gb_eval__is_bug(const GbTask *t)
{
    return gb_task_get_field(t, "hardened_buggy") != NULL;
}

static const GbEvalInputInfo gb_eval__inputs[] = {
    [GB_EVAL_IN_ASSERTS] = {true, NULL, "have no `assert CALL(literals) == literal` test",
                            "no task has an `assert CALL(literal arguments) == literal` test to predict"},
    [GB_EVAL_IN_STDIO_TASKS] = {false, gb_eval__has_stdio, "have no stdio tests",
                                "no task has stdio tests (translation needs them)"},
    [GB_EVAL_IN_BUGS] = {false, gb_eval__is_bug, "are not inject-bugs bugs (no hardened_buggy)",
                         "no task is a bug of `genebench inject-bugs` (no hardened_buggy field)"},
};

typedef struct {
    char *id;        /* owned: task id, or "task#k" when the task has several items */
    size_t task;     /* index in versions[0] */
    GbEvalPair pair; /* borrowed from the pairs array */
} GbEvalItem;

typedef struct {
    size_t item, version;
    long sample;
    const GbTask *task; /* the version's task (its program and the tests), borrowed */
    char *prompt;
    char hash[65];
} GbEvalJob;

typedef GbArray(GbTask *) GbEvalOwnedTasks; /* BUGS: the hardened views, owned */

typedef struct {
    const GbEvalConfig *cfg;
    const GbEvalTaskType *type;
    const GbEvalInputInfo *input;
    GbHttpClient *http;
    GbPool *pool;
    const GbEvalVersion *versions;
    size_t nv, nitems, without; /* without: tasks of the original with no item */
    size_t before_dedup;        /* items before the duplicates were dropped */
    GbEvalItem *items;
    GbEvalPairs *pairs; /* [task of the original]: its asserts (GB_EVAL_IN_ASSERTS) */
    GbEvalJob *jobs;
    size_t nslots, njobs, next, done, cached, failed_io, kept;
    unsigned char *verdict;   /* [version][item][sample] */
    unsigned char *truncated; /* [version][item][sample]: the reply was cut at the token limit */
    unsigned char *plus;      /* [version][item][sample]: repair on the derived inputs too (GB_V_NONE: none) */
    GbEvalPlus **refs;        /* [item]: the bug's reference results (repair; NULL: none) */
    size_t nrefs;             /* items with a reference */
    char **hashes;            /* [version][item][sample]: the prompt's sha256 (NULL: the version has no such task) */
    char **prompts;           /* [version][item][sample]: the prompt, at sample 0 only */
    const GbTask **views;     /* [version][item]: the task a version shows and runs (NULL: none) */
    GbEvalOwnedTasks owned_views;
    char *params_json;
    FILE *out;
    double t0, last_progress;
    long requests0; /* the client's requests before the run (the pre-flight's) */
    bool budget_hit;
    bool stop_errors;      /* stopped by cfg->max_same_errors identical request errors */
    char last_error[256];  /* the last request error, for counting identical ones */
    long same_errors;      /* identical request errors in a row */
    GbArray(char *) shown; /* the distinct request errors said on cfg->warn (owned) */
    pthread_mutex_t mu;
} GbEvalRun;

static size_t gb_eval__slot(const GbEvalRun *r, size_t v, size_t item, long s)
{
    return (v * r->nitems + item) * (size_t)r->cfg->samples + (size_t)s;
}

/* The requests of the run's samples (retries included). */
static long gb_eval__requests(const GbEvalRun *r)
{
    return r->http ? gb_http_client_requests(r->http) - r->requests0 : 0;
}

#define GB_EVAL_RAW_KEEP (256u << 10)

/* ---- cache ---------------------------------------------------------------------------- */

static void gb_eval__cache_key(const GbEvalRun *r, const GbEvalJob *j, char hex[65])
{
    GbSha256 h;
    gb_sha256_init(&h);
    const char *parts[] = {"genebench-eval-1", r->cfg->model, j->prompt, r->params_json};
    for (size_t i = 0; i < 4; i++) gb_sha256_update(&h, parts[i], strlen(parts[i]) + 1);
    /* the default (chat, no system message) keeps the keys of caches written before these existed */
    if (r->cfg->api == GB_LLM_COMPLETIONS) gb_sha256_update(&h, "completions", sizeof "completions");
    if (r->cfg->system) {
        gb_sha256_update(&h, "system", sizeof "system");
        gb_sha256_update(&h, r->cfg->system, strlen(r->cfg->system) + 1);
    }
    char s[32];
    snprintf(s, sizeof s, "%ld", j->sample);
    gb_sha256_update(&h, s, strlen(s) + 1);
    unsigned char d[32];
    gb_sha256_final(&h, d);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static char *gb_eval__cache_get(const GbEvalRun *r, const char *key, GbLlmReply *info)
{
    if (!r->cfg->cache_dir) return NULL;
    char *path = gb_asprintf("%s/%s.json", r->cfg->cache_dir, key);
    GbError e = {0};
    size_t len = 0;
    char *text = gb_read_file(path, &len, &e);
    GbEvalCacheEntry entry;
    /* an entry that does not parse is a miss: the request is made again and the entry rewritten */
    bool ok = text && gb_eval_cache_entry_parse(text, len, path, &entry, &e);
    free(text);
    free(path);
    if (!ok) return NULL;
    char *reply = NULL;
    if (strcmp(entry.model, r->cfg->model) == 0) {
        reply = entry.reply;
        entry.reply = NULL;
        info->finish_reason = entry.finish_reason;
        entry.finish_reason = NULL;
        if (entry.prompt_tokens >= 0) info->prompt_tokens = entry.prompt_tokens;
        if (entry.completion_tokens >= 0) info->completion_tokens = entry.completion_tokens;
    }
    gb_eval_cache_entry_destroy(&entry);
    return reply;
}

static void gb_eval__cache_put(const GbEvalRun *r, const char *key, const GbLlmReply *reply)
{
    if (!r->cfg->cache_dir) return;
    GbEvalCacheEntry entry = {.model = (char *)r->cfg->model,
                              .reply = reply->text,
                              .finish_reason = reply->finish_reason,
                              .prompt_tokens = reply->prompt_tokens,
                              .completion_tokens = reply->completion_tokens};
    char *text = gb_eval_cache_entry_write(&entry);
    char *path = gb_asprintf("%s/%s.json", r->cfg->cache_dir, key);
    GbError e = {0};
    gb_write_file_atomic(path, text, strlen(text), &e); /* a failed cache write only costs a request later */
    free(path);
    free(text);
}

/* ---- one sample ---------------------------------------------------------------------- */

/* Whether a reply was cut at the token limit. */
static bool gb_eval__cut(const GbLlmReply *reply)
{
    return reply->finish_reason && strcmp(reply->finish_reason, "length") == 0;
}

/* The stop sequences of a completions request (NULL-terminated; NULL for chat): a prediction's
 * answer block ends at [/ANSWER]; programs (repair, translate) end where the model stops. */
static const char *const *gb_eval__stops(const GbEvalRun *r)
{
    static const char *const answer[] = {"[/ANSWER]", NULL};
    if (r->cfg->api != GB_LLM_COMPLETIONS || r->type->input != GB_EVAL_IN_ASSERTS) return NULL;
    return answer;
}

/* The sample of job j: its item as its version shows it. */
static GbEvalSample gb_eval__sample(const GbEvalRun *r, TSParser *parser, const GbTask *task, size_t item)
{
    const GbEvalItem *it = &r->items[item];
    const GbTask *orig = &r->versions[0].bench->tasks.items[it->task];
    return (GbEvalSample){
        .parser = parser,
        .pool = r->pool,
        .java = r->cfg->java,
        .task = task,
        .entry = orig->entry_point ? orig->entry_point : "f",
        .pair = r->input->per_assert ? &it->pair : NULL,
        .style = r->cfg->prompt_style,
        .tmpl = r->cfg->prompt_template,
    };
}

/* The verdict of the reply; *plus gets the verdict on the derived inputs as well when the item
 * has a reference (plus.h): the base verdict when that is not a pass. */
static GbVerdict gb_eval__score(GbEvalRun *r, TSParser *parser, const GbEvalJob *j, const char *reply, char **extracted,
                                char **error, GbVerdict *plus)
{
    GbEvalSample s = gb_eval__sample(r, parser, j->task, j->item);
    GbEvalAnswer a = {0};
    char why[256];
    GbVerdict v;
    if (r->type->extract(&s, reply, &a, why, sizeof why)) {
        v = r->type->score(&s, &a, error);
    } else {
        *error = gb_strdup(why);
        v = GB_V_INVALID;
    }
    const GbEvalPlus *ref = r->refs ? r->refs[j->item] : NULL;
    *plus = ref ? v : GB_V_NONE;
    if (ref && v == GB_V_PASS && a.program) *plus = gb_eval_plus_check(ref, r->pool, a.program, error);
    *extracted = a.text;
    a.text = NULL;
    gb_eval_answer_destroy(&a);
    return v;
}

/* The reply as a results line keeps it: whole up to GB_EVAL_RAW_KEEP bytes, else its head (cut at
 * a character boundary) and how much was left out. Owned, or NULL for raw NULL. */
static char *gb_eval__raw_kept(const char *raw)
{
    if (!raw) return NULL;
    size_t n = strlen(raw);
    if (n <= GB_EVAL_RAW_KEEP) return gb_strdup(raw);
    size_t k = GB_EVAL_RAW_KEEP;
    while (k > 0 && ((unsigned char)raw[k] & 0xC0) == 0x80) k--;
    return gb_asprintf("%.*s\n[genebench: %zu more bytes of the reply not kept]", (int)k, raw, n - k);
}

static void gb_eval__record(GbEvalRun *r, const GbEvalJob *j, const GbLlmReply *reply, const char *extracted,
                            GbVerdict v, GbVerdict plus, const char *error, bool cached, double latency_ms)
{
    char *raw = gb_eval__raw_kept(reply->text);
    const GbEvalItem *it = &r->items[j->item];
    GbEvalResult res = {.task = r->versions[0].bench->tasks.items[it->task].id,
                        .item = it->id,
                        .version = (long)j->version,
                        .file = r->versions[j->version].path,
                        .sample = j->sample,
                        .model = r->cfg->model,
                        .prompt_sha256 = j->hash,
                        .raw = raw,
                        .extracted = extracted,
                        .verdict = v,
                        .error = error,
                        .cached = cached,
                        .finish_reason = reply->finish_reason,
                        .prompt_tokens = reply->prompt_tokens,
                        .completion_tokens = reply->completion_tokens,
                        .latency_ms = latency_ms,
                        .truncated = gb_eval__cut(reply),
                        .plus = plus};
    char *line = gb_eval_result_write(&res);
    if (r->out) {
        if (fprintf(r->out, "%s\n", line) < 0 || fflush(r->out) != 0) r->failed_io++;
    }
    free(line);
    free(raw);
}

static void gb_eval__progress(GbEvalRun *r, bool final)
{
    if (!r->cfg->progress) return;
    double now = gb_now();
    if (!final && now - r->last_progress < (r->cfg->progress_lines ? 10 : 0.5)) return;
    if (r->cfg->progress_lines) {
        /* a log file gets whole lines, no carriage returns */
        r->last_progress = now;
        fprintf(r->cfg->progress, "eval: %zu/%zu samples, %zu from the cache, %.0f s\n", r->done, r->njobs, r->cached,
                now - r->t0);
        fflush(r->cfg->progress);
        return;
    }
    r->last_progress = now;
    double el = now - r->t0;
    size_t left = r->njobs - r->done;
    double eta = r->done ? el / (double)r->done * (double)left : 0;
    fprintf(r->cfg->progress, "\reval: %zu/%zu samples, %zu from the cache, %.0f s, ETA %.0f s   %s", r->done, r->njobs,
            r->cached, el, eta, final ? "\n" : "");
    fflush(r->cfg->progress);
}

/* The reply of job j: from the answers file, the cache, or the server (*latency_ms: the
 * request's wall-clock time). reply->text stays NULL with *error set when there is none.
 * Returns whether it came from the cache. */
static bool gb_eval__ask(GbEvalRun *r, const GbEvalJob *j, GbLlmReply *reply, char **error, double *latency_ms)
{
    const GbEvalConfig *cfg = r->cfg;
    if (cfg->answers) {
        const GbEvalAnswer1 *a = gb_eval_answers_find(cfg->answers, r->items[j->item].id, (long)j->version, j->sample);
        if (!a) {
            *error = gb_asprintf("the answers file has no line for item %s, version %zu, sample %ld",
                                 r->items[j->item].id, j->version, j->sample);
            return false;
        }
        reply->text = gb_strdup(a->text);
        reply->finish_reason = a->finish_reason ? gb_strdup(a->finish_reason) : NULL;
        reply->prompt_tokens = a->prompt_tokens;
        reply->completion_tokens = a->completion_tokens;
        return false;
    }
    char key[65];
    gb_eval__cache_key(r, j, key);
    reply->text = gb_eval__cache_get(r, key, reply);
    if (reply->text) return true;
    gb_llm_reply_destroy(reply);
    GbChatParams p = cfg->params;
    if (p.seed >= 0) p.seed += j->sample;
    GbError e = {0};
    double t0 = gb_now();
    bool ok = gb_llm_generate(r->http, cfg->api, cfg->model, cfg->system, j->prompt, &p, gb_eval__stops(r), reply, &e);
    *latency_ms = (gb_now() - t0) * 1000;
    if (!ok) *error = gb_strdup(e.msg); /* the reply is cached once it is scored (gb_eval__worker) */
    return false;
}

static void gb_eval__cache_put_reply(GbEvalRun *r, const GbEvalJob *j, const GbLlmReply *reply)
{
    char key[65];
    gb_eval__cache_key(r, j, key);
    gb_eval__cache_put(r, key, reply);
}

/* A request error (under r->mu): said on cfg->warn when it is one of the first distinct ones;
 * the run stops after cfg->max_same_errors identical ones in a row. */
static void gb_eval__request_error(GbEvalRun *r, const char *error)
{
    if (!error) return;
    if (strncmp(r->last_error, error, sizeof r->last_error - 1) == 0)
        r->same_errors++;
    else
        r->same_errors = 1;
    snprintf(r->last_error, sizeof r->last_error, "%s", error);
    bool seen = false;
    for (size_t i = 0; i < r->shown.len && !seen; i++) seen = strcmp(r->shown.items[i], error) == 0;
    if (!seen && r->shown.len < 5) {
        char *copy = gb_strdup(error);
        gb_array_push(&r->shown, copy);
        if (r->cfg->warn) {
            fprintf(r->cfg->warn, "%sgenebench eval: %s\n", r->cfg->progress && !r->cfg->progress_lines ? "\n" : "",
                    error);
            fflush(r->cfg->warn);
        }
    }
    if (r->cfg->max_same_errors > 0 && r->same_errors >= r->cfg->max_same_errors && !r->stop_errors) {
        r->stop_errors = true;
        if (r->cfg->warn)
            fprintf(r->cfg->warn, "genebench eval: %ld identical errors in a row: stopping (no further request)\n",
                    r->same_errors);
    }
}

static void *gb_eval__worker(void *arg)
{
    GbEvalRun *r = arg;
    TSParser *parser = gb_parser_new();
    for (;;) {
        pthread_mutex_lock(&r->mu);
        bool over = r->cfg->time_budget_s > 0 && gb_now() - r->t0 > r->cfg->time_budget_s;
        if (over) r->budget_hit = true;
        if (over || r->stop_errors || r->next >= r->njobs || (r->cfg->stop && *r->cfg->stop)) {
            pthread_mutex_unlock(&r->mu);
            break;
        }
        GbEvalJob *j = &r->jobs[r->next++];
        pthread_mutex_unlock(&r->mu);

        GbLlmReply reply = {.prompt_tokens = -1, .completion_tokens = -1};
        char *error = NULL;
        double latency = -1;
        bool cached = gb_eval__ask(r, j, &reply, &error, &latency);
        char *extracted = NULL;
        GbVerdict plus = GB_V_NONE;
        GbVerdict v = reply.text ? gb_eval__score(r, parser, j, reply.text, &extracted, &error, &plus) : GB_V_ERROR;
        /* cached only once scored: a reply whose scoring failed (or took genebench down) is
         * asked for again, never replayed as if it were good */
        if (reply.text && !cached && !r->cfg->answers && v != GB_V_ERROR) gb_eval__cache_put_reply(r, j, &reply);

        pthread_mutex_lock(&r->mu);
        size_t slot = gb_eval__slot(r, j->version, j->item, j->sample);
        r->verdict[slot] = (unsigned char)v;
        r->truncated[slot] = gb_eval__cut(&reply);
        r->plus[slot] = (unsigned char)plus;
        gb_eval__record(r, j, &reply, extracted, v, plus, error, cached, latency);
        if (!reply.text)
            gb_eval__request_error(r, error);
        else
            r->same_errors = 0;
        r->done++;
        r->cached += cached;
        gb_eval__progress(r, false);
        pthread_mutex_unlock(&r->mu);
        gb_llm_reply_destroy(&reply);
        free(extracted);
        free(error);
    }
    ts_parser_delete(parser);
    return NULL;
}

/* ---- resume ----------------------------------------------------------------------------- */

/* Keep the finished samples of the results file: *kept gets them; returns false on a file
 * that exists but cannot be read. */
static bool gb_eval__resume(GbEvalRun *r, const char *const *hashes, size_t *kept, GbError *err)
{
    *kept = 0;
    FILE *f = fopen(r->cfg->results_path, "r");
    if (!f) {
        if (errno == ENOENT) return true;
        gb_error_set(err, "%s: cannot read the results to resume: %s", r->cfg->results_path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        GbEvalResult res;
        GbError perr;
        /* a line cut short by a killed run is redone (and cut off: gb_eval__open_outputs) */
        if (line[n - 1] != '\n' || !gb_eval_result_parse(line, (size_t)n, &res, &perr)) continue;
        GbVerdict vd = res.verdict;
        long v = res.version, s = res.sample;
        if (strcmp(res.model, r->cfg->model) == 0) {
            for (size_t i = 0; i < r->nitems && gb_verdict_scored(vd); i++) {
                if (strcmp(r->items[i].id, res.item) != 0) continue;
                if (v < 0 || (size_t)v >= r->nv || s < 0 || s >= r->cfg->samples) break;
                size_t slot = gb_eval__slot(r, (size_t)v, i, s);
                if (hashes[slot] && strcmp(hashes[slot], res.prompt_sha256) == 0 && r->verdict[slot] == GB_V_NONE) {
                    r->verdict[slot] = (unsigned char)vd;
                    r->truncated[slot] = res.truncated;
                    if (r->refs && r->refs[i]) r->plus[slot] = (unsigned char)res.plus;
                    (*kept)++;
                }
                break;
            }
        }
        gb_eval_result_destroy(&res);
    }
    free(line);
    fclose(f);
    return true;
}

/* ---- summary ---------------------------------------------------------------------------- */

typedef struct {
    long n, c; /* scored samples, passes */
} GbEvalCount;

/* The scored samples of an item and version in verdicts (r->verdict, or r->plus). */
static GbEvalCount gb_eval__count_in(const GbEvalRun *r, const unsigned char *verdicts, size_t v, size_t item)
{
    GbEvalCount k = {0, 0};
    for (long s = 0; s < r->cfg->samples; s++) {
        unsigned char x = verdicts[gb_eval__slot(r, v, item, s)];
        if (x == GB_V_NONE || x == GB_V_ERROR) continue;
        k.n++;
        k.c += x == GB_V_PASS;
    }
    return k;
}

static GbEvalCount gb_eval__count(const GbEvalRun *r, size_t v, size_t item)
{
    return gb_eval__count_in(r, r->verdict, v, item);
}

static void gb_eval__num(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%.12g", x); /* more digits than gb_json_number: the tests check 6/7 */
    else
        gb_str_append(s, "null");
}

static void gb_eval__pct(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%7.2f%%", 100 * x);
    else
        gb_str_appendf(s, "%8s", "-");
}

/* x as points (100 x), signed */
static void gb_eval__points(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%+.2f", 100 * x);
    else
        gb_str_append(s, "-");
}

/* The run's facts into the summary, and the text's head. */
static void gb_eval__summary_facts(GbEvalRun *r, size_t ntasks_without, size_t kept, GbEvalSummary *sum, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    bool interrupted = cfg->stop && *cfg->stop;
    size_t planned = r->nv * r->nitems * (size_t)cfg->samples, scored_total = 0;
    for (size_t i = 0; i < planned; i++) scored_total += gb_verdict_scored((GbVerdict)r->verdict[i]);
    sum->model = gb_strdup(cfg->model);
    sum->task = gb_strdup(gb_eval_task_names[cfg->task]);
    sum->samples = cfg->samples;
    sum->temperature = cfg->params.temperature;
    sum->top_p = cfg->params.top_p;
    sum->max_tokens = cfg->params.max_tokens;
    sum->seed = cfg->params.seed;
    sum->nk = cfg->nk;
    sum->k = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sum->k);
    for (size_t i = 0; i < cfg->nk; i++) sum->k[i] = cfg->ks[i];
    sum->items = r->nitems;
    sum->items_before_dedup = r->before_dedup;
    if (cfg->samples > 1 && cfg->params.temperature == 0) {
        char *w = gb_asprintf("%ld samples per item at temperature 0: a deterministic server gives the same answer "
                              "to every sample, so pass@k for k > 1 is pass@1 and the samples add no information",
                              cfg->samples);
        gb_array_push(&sum->warnings, w);
    }
    sum->tasks_without_items = ntasks_without;
    sum->samples_planned = planned;
    sum->samples_scored = scored_total;
    sum->samples_resumed = kept;
    sum->samples_cached = r->cached;
    sum->requests = gb_eval__requests(r);
    sum->complete = scored_total == planned;
    sum->stopped_by = r->budget_hit    ? gb_strdup("time budget")
                      : r->stop_errors ? gb_strdup("repeated errors")
                      : interrupted    ? gb_strdup("interrupt")
                                       : NULL;
    if (cfg->provenance) {
        sum->has_provenance = true;
        gb_eval_provenance_copy(&sum->provenance, cfg->provenance);
    }
    gb_str_appendf(t, "eval: model %s, %s, %zu items, %ld sample%s per item and version\n", cfg->model, r->type->title,
                   r->nitems, cfg->samples, cfg->samples == 1 ? "" : "s");
    gb_str_appendf(t, "  %zu items before deduplication, %zu duplicates dropped (same prompt and expected answer)\n",
                   r->before_dedup, r->before_dedup - r->nitems);
    for (size_t i = 0; i < sum->warnings.len; i++) gb_str_appendf(t, "  warning: %s\n", sum->warnings.items[i]);
    if (ntasks_without)
        gb_str_appendf(t, "  %zu tasks of the original %s: left out\n", ntasks_without, r->input->without);
    gb_str_appendf(
        t, "  %zu samples scored (%zu kept from the results file, %zu replies from the cache, %ld requests)%s\n",
        scored_total, kept, r->cached, gb_eval__requests(r),
        r->budget_hit    ? "; stopped by the time budget"
        : r->stop_errors ? "; stopped by repeated errors"
        : interrupted    ? "; interrupted"
                         : "");
    gb_str_appendf(t, "\n%-40s %6s", "version", "items");
    for (size_t i = 0; i < cfg->nk; i++) gb_str_appendf(t, "   pass@%-3ld", cfg->ks[i]);
    gb_str_append(t, "\n");
}

/* One version's pass@k and verdict counts; p1[v] gets its pass@1 when 1 is among the k. */
static void gb_eval__summary_version(GbEvalRun *r, size_t v, GbEvalSummary *sum, double *p1, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    GbEvalSummaryVersion sv = {.version = (long)v, .file = gb_strdup(r->versions[v].path)};
    sv.pass_at = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_at);
    for (size_t i = 0; i < r->nitems; i++)
        for (long s = 0; s < cfg->samples; s++) sv.verdicts[r->verdict[gb_eval__slot(r, v, i, s)]]++;
    char label[64];
    snprintf(label, sizeof label, "%s", v ? "" : "original ");
    gb_str_appendf(t, "%zu %s%-*.*s", v, label, (int)(38 - strlen(label)), (int)(38 - strlen(label)),
                   r->versions[v].path);
    for (size_t i = 0; i < r->nitems; i++) sv.items_scored += gb_eval__count(r, v, i).n > 0;
    gb_str_appendf(t, " %6zu", sv.items_scored);
    sv.pass_lo = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_lo);
    sv.pass_hi = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_hi);
    double *per = gb_malloc((r->nitems ? r->nitems : 1) * sizeof *per);
    for (size_t ki = 0; ki < cfg->nk; ki++) {
        size_t m = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            GbEvalCount k = gb_eval__count(r, v, i);
            double p = gb_pass_at_k(k.n, k.c, cfg->ks[ki]);
            if (isfinite(p)) per[m++] = p;
        }
        double mean;
        gb_mean_bootstrap(per, m, (size_t)cfg->resamples, cfg->boot_seed, &mean, &sv.pass_lo[ki], &sv.pass_hi[ki]);
        if (cfg->ks[ki] == 1) p1[v] = mean;
        sv.pass_at[ki] = mean;
        gb_str_append(t, "  ");
        gb_eval__pct(t, mean);
    }
    free(per);
    gb_str_append(t, "\n");
    gb_array_push(&sum->versions, sv);
}

/* Version v against the original over the items scored in both (po, ph: scratch of nitems). */
static GbEvalComparison gb_eval__summary_compare(GbEvalRun *r, size_t v, double *po, double *ph, GbStr *t)
{
    size_t m = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        GbEvalCount a = gb_eval__count(r, 0, i), b = gb_eval__count(r, v, i);
        if (!a.n || !b.n) continue;
        po[m] = (double)a.c / (double)a.n;
        ph[m] = (double)b.c / (double)b.n;
        m++;
    }
    GbPaired pc;
    gb_paired_count(po, ph, m, &pc);
    GbDropCI ci;
    gb_drop_bootstrap(po, ph, m, (size_t)r->cfg->resamples, r->cfg->boot_seed, &ci);
    double so = 0, sh = 0;
    for (size_t i = 0; i < m; i++) so += po[i], sh += ph[i];
    GbEvalComparison c = {.version = (long)v,
                          .file = gb_strdup(r->versions[v].path),
                          .items = m,
                          .both_pass = pc.both_pass,
                          .lost = pc.lost,
                          .gained = pc.gained,
                          .both_fail = pc.both_fail,
                          .pass1_original = m ? so / (double)m : NAN,
                          .pass1_version = m ? sh / (double)m : NAN,
                          .relative_drop = ci.drop,
                          .drop_lo = ci.lo,
                          .drop_hi = ci.hi,
                          .abs_drop = ci.abs,
                          .abs_lo = ci.abs_lo,
                          .abs_hi = ci.abs_hi,
                          .mcnemar_p = gb_mcnemar_exact(pc.lost, pc.gained),
                          .resamples = ci.resamples,
                          .boot_seed = r->cfg->boot_seed,
                          .undefined = ci.undefined};
    gb_str_appendf(t,
                   "\nversion %zu vs original, %zu paired items: both pass %zu, lost %zu, gained %zu, both fail %zu\n",
                   v, m, pc.both_pass, pc.lost, pc.gained, pc.both_fail);
    gb_str_append(t, "  relative drop of pass@1 ");
    gb_eval__pct(t, ci.drop);
    gb_str_append(t, ", 95% bootstrap CI [");
    gb_eval__pct(t, ci.lo);
    gb_str_append(t, ",");
    gb_eval__pct(t, ci.hi);
    gb_str_appendf(t, "] (%zu resamples over items)\n", ci.resamples);
    gb_str_append(t, "  absolute drop of pass@1 ");
    gb_eval__points(t, ci.abs);
    gb_str_append(t, " points, 95% bootstrap CI [");
    gb_eval__points(t, ci.abs_lo);
    gb_str_append(t, ",");
    gb_eval__points(t, ci.abs_hi);
    gb_str_appendf(t, "]; exact McNemar test (lost %zu vs gained %zu) p = %.4g\n", pc.lost, pc.gained, c.mcnemar_p);
    return c;
}

/* The truncated samples per version, and each comparison again over the items none of whose
 * samples (original or version) was cut. */
static void gb_eval__summary_truncation(GbEvalRun *r, double *po, double *ph, GbEvalSummary *sum, GbStr *t)
{
    sum->has_truncation = true;
    for (size_t v = 0; v < r->nv; v++) {
        GbEvalTruncVersion tv = {.version = (long)v};
        for (size_t i = 0; i < r->nitems; i++)
            for (long s = 0; s < r->cfg->samples; s++) tv.truncated += r->truncated[gb_eval__slot(r, v, i, s)];
        sum->truncated += tv.truncated;
        gb_array_push(&sum->trunc_versions, tv);
    }
    for (size_t v = 1; v < r->nv; v++) {
        size_t m = 0;
        double so = 0, sh = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            GbEvalCount a = gb_eval__count(r, 0, i), b = gb_eval__count(r, v, i);
            bool cut = false;
            for (long s = 0; s < r->cfg->samples; s++)
                cut = cut || r->truncated[gb_eval__slot(r, 0, i, s)] || r->truncated[gb_eval__slot(r, v, i, s)];
            if (!a.n || !b.n || cut) continue;
            po[m] = (double)a.c / (double)a.n;
            ph[m] = (double)b.c / (double)b.n;
            so += po[m];
            sh += ph[m];
            m++;
        }
        GbEvalTruncDrop d = {
            .version = (long)v, .items = m, .pass1_original = NAN, .pass1_version = NAN, .relative_drop = NAN};
        if (m) {
            d.pass1_original = so / (double)m;
            d.pass1_version = sh / (double)m;
            if (d.pass1_original > 0) d.relative_drop = (d.pass1_original - d.pass1_version) / d.pass1_original;
        }
        gb_array_push(&sum->trunc_drops, d);
    }
    if (!sum->truncated) return;
    gb_str_appendf(t, "\n%zu samples were cut at the token limit (finish_reason length):", sum->truncated);
    for (size_t v = 0; v < sum->trunc_versions.len; v++)
        gb_str_appendf(t, " version %zu: %zu%s", v, sum->trunc_versions.items[v].truncated,
                       v + 1 < sum->trunc_versions.len ? "," : "\n");
    for (size_t k = 0; k < sum->trunc_drops.len; k++) {
        const GbEvalTruncDrop *d = &sum->trunc_drops.items[k];
        gb_str_appendf(t, "  version %ld without the items with a cut reply (%zu items): relative drop", d->version,
                       d->items);
        gb_eval__pct(t, d->relative_drop);
        gb_str_append(t, " (with them:");
        gb_eval__pct(t, sum->comparisons.items[k].relative_drop);
        gb_str_append(t, ")\n");
    }
}

/* The spread over the hardened versions (only when there are two or more). */
static void gb_eval__summary_across(GbEvalRun *r, const double *p1, GbEvalSummary *sum, GbStr *t)
{
    double dmin = INFINITY, dmax = -INFINITY, dsum = 0, pmin = INFINITY, pmax = -INFINITY, psum = 0;
    size_t ndrops = 0, pn = 0;
    for (size_t i = 0; i < sum->comparisons.len; i++) {
        double d = sum->comparisons.items[i].relative_drop;
        if (!isfinite(d)) continue;
        dsum += d;
        dmin = fmin(dmin, d);
        dmax = fmax(dmax, d);
        ndrops++;
    }
    for (size_t v = 1; v < r->nv; v++) {
        if (!isfinite(p1[v])) continue;
        psum += p1[v];
        pmin = fmin(pmin, p1[v]);
        pmax = fmax(pmax, p1[v]);
        pn++;
    }
    sum->has_across = true;
    sum->across = (GbEvalAcross){.versions = r->nv - 1,
                                 .drop_mean = ndrops ? dsum / (double)ndrops : NAN,
                                 .drop_min = ndrops ? dmin : NAN,
                                 .drop_max = ndrops ? dmax : NAN,
                                 .pass1_mean = pn ? psum / (double)pn : NAN,
                                 .pass1_min = pn ? pmin : NAN,
                                 .pass1_max = pn ? pmax : NAN};
    const GbEvalAcross *a = &sum->across;
    gb_str_appendf(t, "\nacross %zu versions: relative drop mean", r->nv - 1);
    gb_eval__pct(t, a->drop_mean);
    gb_str_append(t, " (range");
    gb_eval__pct(t, a->drop_min);
    gb_str_append(t, " to");
    gb_eval__pct(t, a->drop_max);
    gb_str_append(t, "), pass@1 mean");
    gb_eval__pct(t, a->pass1_mean);
    gb_str_append(t, " (range");
    gb_eval__pct(t, a->pass1_min);
    gb_str_append(t, " to");
    gb_eval__pct(t, a->pass1_max);
    gb_str_append(t, ")\n");
}

/* Repair on the derived inputs too (plus.h): pass@k of every version over the items with a
 * reference, and each hardened version's drops against the original on them. */
static void gb_eval__summary_plus(GbEvalRun *r, GbEvalSummary *sum, double *po, double *ph, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    sum->has_plus = true;
    sum->plus_items = r->nrefs;
    gb_str_appendf(t,
                   "\nrepair on the tests and on the derived inputs (\"plus\"; %zu of %zu items have a reference):\n",
                   r->nrefs, r->nitems);
    for (size_t v = 0; v < r->nv; v++) {
        GbEvalSummaryVersion *sv = &sum->versions.items[v];
        sv->plus_pass_at = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv->plus_pass_at);
        gb_str_appendf(t, "  version %zu", v);
        for (size_t ki = 0; ki < cfg->nk; ki++) {
            double total = 0, base = 0;
            size_t m = 0;
            for (size_t i = 0; i < r->nitems; i++) {
                if (!r->refs[i]) continue;
                GbEvalCount k = gb_eval__count_in(r, r->plus, v, i), b = gb_eval__count(r, v, i);
                double p = gb_pass_at_k(k.n, k.c, cfg->ks[ki]), pb = gb_pass_at_k(b.n, b.c, cfg->ks[ki]);
                if (isfinite(p) && isfinite(pb)) total += p, base += pb, m++;
            }
            sv->plus_pass_at[ki] = m ? total / (double)m : NAN;
            gb_str_appendf(t, "   pass@%ld base", cfg->ks[ki]);
            gb_eval__pct(t, m ? base / (double)m : NAN);
            gb_str_append(t, " plus");
            gb_eval__pct(t, sv->plus_pass_at[ki]);
        }
        gb_str_append(t, "\n");
    }
    for (size_t v = 1; v < r->nv; v++) {
        size_t m = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            if (!r->refs[i]) continue;
            GbEvalCount a = gb_eval__count_in(r, r->plus, 0, i), b = gb_eval__count_in(r, r->plus, v, i);
            if (!a.n || !b.n) continue;
            po[m] = (double)a.c / (double)a.n;
            ph[m] = (double)b.c / (double)b.n;
            m++;
        }
        GbDropCI ci;
        gb_drop_bootstrap(po, ph, m, (size_t)cfg->resamples, cfg->boot_seed, &ci);
        GbEvalComparison *c = &sum->comparisons.items[v - 1];
        c->plus_items = m;
        c->plus_relative_drop = ci.drop;
        c->plus_drop_lo = ci.lo;
        c->plus_drop_hi = ci.hi;
        c->plus_abs_drop = ci.abs;
        c->plus_abs_lo = ci.abs_lo;
        c->plus_abs_hi = ci.abs_hi;
        gb_str_appendf(t, "  version %zu vs original on plus, %zu paired items: relative drop", v, m);
        gb_eval__pct(t, ci.drop);
        gb_str_append(t, " [");
        gb_eval__pct(t, ci.lo);
        gb_str_append(t, ",");
        gb_eval__pct(t, ci.hi);
        gb_str_append(t, "], absolute ");
        gb_eval__points(t, ci.abs);
        gb_str_append(t, " points [");
        gb_eval__points(t, ci.abs_lo);
        gb_str_append(t, ", ");
        gb_eval__points(t, ci.abs_hi);
        gb_str_append(t, "]\n");
    }
}

/* ReCode's robust metrics over the hardened versions 1..nv-1 (stats.h): the items scored on the
 * original and on every version. */
static void gb_eval__summary_robust(GbEvalRun *r, GbEvalSummary *sum, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    size_t s = r->nv - 1, n = (size_t)cfg->samples, nk = cfg->nk ? cfg->nk : 1;
    GbEvalRobust *rb = &sum->robust;
    sum->has_robust = true;
    rb->versions = s;
    rb->pass_at = gb_calloc(nk, sizeof *rb->pass_at);
    rb->robust_pass = gb_calloc(nk, sizeof *rb->robust_pass);
    rb->robust_drop = gb_calloc(nk, sizeof *rb->robust_drop);
    rb->robust_rel = gb_calloc(nk, sizeof *rb->robust_rel);
    size_t *defined = gb_calloc(nk, sizeof *defined);
    signed char *table = gb_malloc((s + 1) * n);
    for (size_t i = 0; i < r->nitems; i++) {
        for (size_t v = 0; v <= s; v++)
            for (size_t k = 0; k < n; k++) {
                unsigned char x = r->verdict[gb_eval__slot(r, v, i, (long)k)];
                table[v * n + k] = x == GB_V_NONE || x == GB_V_ERROR ? -1 : x == GB_V_PASS;
            }
        GbRobustCount c;
        gb_robust_count(table, s, n, &c);
        GbEvalCount o = gb_eval__count(r, 0, i);
        if (c.used == 0) continue;
        rb->items++;
        for (size_t ki = 0; ki < cfg->nk; ki++) {
            long kk = cfg->ks[ki];
            double rp = gb_pass_at_k(c.used, c.all, kk), p = gb_pass_at_k(o.n, o.c, kk);
            if (!isfinite(rp) || !isfinite(p)) continue;
            defined[ki]++;
            rb->pass_at[ki] += p;
            rb->robust_pass[ki] += rp;
            rb->robust_rel[ki] += gb_pass_at_k(c.used, c.worse, kk) + gb_pass_at_k(c.used, c.better, kk);
        }
    }
    free(table);
    gb_str_appendf(t, "\nrobust over %zu version%s (ReCode; %zu items scored on the original and every version):\n", s,
                   s == 1 ? "" : "s", rb->items);
    for (size_t ki = 0; ki < cfg->nk; ki++) {
        double m = (double)defined[ki];
        if (defined[ki]) {
            rb->pass_at[ki] /= m;
            rb->robust_pass[ki] /= m;
            rb->robust_rel[ki] /= m;
            rb->robust_drop[ki] = rb->pass_at[ki] > 0 ? (rb->pass_at[ki] - rb->robust_pass[ki]) / rb->pass_at[ki] : NAN;
        } else {
            rb->pass_at[ki] = rb->robust_pass[ki] = rb->robust_rel[ki] = rb->robust_drop[ki] = NAN;
        }
        long kk = cfg->ks[ki];
        gb_str_appendf(t, "  k=%-3ld pass@k", kk);
        gb_eval__pct(t, rb->pass_at[ki]);
        gb_str_appendf(t, "  Robust Pass_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_pass[ki]);
        gb_str_appendf(t, "  Robust Drop_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_drop[ki]);
        gb_str_appendf(t, "  Robust Relative_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_rel[ki]);
        gb_str_append(t, "\n");
    }
    free(defined);
}

/* The summary (written through src/doc/eval_summary.h) and the text for the terminal. */
static void gb_eval__summary(GbEvalRun *r, size_t ntasks_without, size_t kept, char **json_out, char **text_out)
{
    GbEvalSummary sum = {0};
    GbStr t;
    gb_str_init(&t);
    gb_eval__summary_facts(r, ntasks_without, kept, &sum, &t);
    double *po = gb_calloc(r->nitems ? r->nitems : 1, sizeof *po),
           *ph = gb_calloc(r->nitems ? r->nitems : 1, sizeof *ph);
    double *p1 = gb_calloc(r->nv, sizeof *p1);
    for (size_t v = 0; v < r->nv; v++) gb_eval__summary_version(r, v, &sum, p1, &t);
    for (size_t v = 1; v < r->nv; v++) {
        GbEvalComparison c = gb_eval__summary_compare(r, v, po, ph, &t);
        gb_array_push(&sum.comparisons, c);
    }
    if (r->nv > 2) gb_eval__summary_across(r, p1, &sum, &t);
    if (r->nv > 1) gb_eval__summary_robust(r, &sum, &t);
    if (r->refs) gb_eval__summary_plus(r, &sum, po, ph, &t);
    gb_eval__summary_truncation(r, po, ph, &sum, &t);
    free(po);
    free(ph);
    free(p1);
    *json_out = gb_eval_summary_write(&sum);
    gb_eval_summary_destroy(&sum);
    *text_out = gb_str_take(&t);
}

/* ---- the run ---------------------------------------------------------------------------- */

/* mkdir -p */
static bool gb_eval__mkdirs(const char *dir)
{
    char *p = gb_strdup(dir);
    bool ok = true;
    for (char *c = p + 1; ok && *c; c++) {
        if (*c != '/') continue;
        *c = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
        *c = '/';
    }
    if (ok && mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
    free(p);
    return ok;
}

/* ---- the items and the versions' tasks ------------------------------------------------- */

/* What makes two items the same question with the same right answer. A prediction item: the
 * original's prompt (its program and the call or the expected value shown; input prediction
 * scores only `EXPECTED == f(ANSWER)`, so two asserts of one task with the same expected value
 * ask the same) and the expected value. A whole-task item (its prompt may run the program):
 * the program, all modules, and its tests. Owned. */
static char *gb_eval__item_key(const GbEvalRun *r, TSParser *parser, size_t item)
{
    const GbEvalItem *it = &r->items[item];
    const GbTask *t = &r->versions[0].bench->tasks.items[it->task];
    GbStr k;
    gb_str_init(&k);
    for (size_t i = 0; i < t->extra_files.len; i++)
        gb_str_appendf(&k, "%s%c%s%c", t->extra_files.items[i].path, 1, t->extra_files.items[i].source, 1);
    if (r->input->per_assert) {
        GbEvalSample smp = gb_eval__sample(r, parser, t, item);
        GbError e = {0};
        char *prompt = r->type->prompt(&smp, &e);
        gb_str_appendf(&k, "%s%c%s", prompt ? prompt : t->source, 2, it->pair.expected);
        free(prompt);
    } else {
        gb_str_appendf(&k, "%s%c%d%c%s", t->source, 3, (int)t->kind, 3, t->test_code ? t->test_code : "");
        for (size_t i = 0; i < t->cases.len; i++)
            gb_str_appendf(&k, "%c%s%c%s", 3, t->cases.items[i].stdin_text ? t->cases.items[i].stdin_text : "", 3,
                           t->cases.items[i].stdout_text ? t->cases.items[i].stdout_text : "");
    }
    return gb_str_take(&k);
}

/* Drop the items that repeat an earlier one (gb_eval__item_key): a repeat would count one
 * question twice, inflating n and narrowing every interval. The first keeps its id. */
static void gb_eval__dedup(GbEvalRun *r, TSParser *parser)
{
    char **keys = gb_calloc(r->nitems ? r->nitems : 1, sizeof *keys);
    size_t kept = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        char *key = gb_eval__item_key(r, parser, i);
        bool dup = false;
        for (size_t j = 0; j < kept && !dup; j++) dup = strcmp(keys[j], key) == 0;
        if (dup) {
            free(key);
            free(r->items[i].id);
            continue;
        }
        keys[kept] = key;
        r->items[kept++] = r->items[i];
    }
    for (size_t j = 0; j < kept; j++) free(keys[j]);
    free(keys);
    r->nitems = kept;
}

/* The items of the original (see GbEvalInputInfo), without repeats; r->without counts its tasks
 * that have none. */
static void gb_eval__items(GbEvalRun *r, TSParser *parser)
{
    const GbBench *ob = r->versions[0].bench;
    GbArray(GbEvalItem) items = {0};
    r->pairs = gb_calloc(ob->tasks.len ? ob->tasks.len : 1, sizeof *r->pairs);
    for (size_t t = 0; t < ob->tasks.len; t++) {
        const GbTask *ot = &ob->tasks.items[t];
        if (!r->input->per_assert) {
            if (!r->input->usable(ot)) {
                r->without++;
                continue;
            }
            GbEvalItem it = {.task = t, .id = gb_strdup(ot->id)};
            gb_array_push(&items, it);
            continue;
        }
        GbEvalPairs *pairs = &r->pairs[t];
        gb_eval_pairs(parser, ot, pairs);
        if (!pairs->len) r->without++;
        for (size_t k = 0; k < pairs->len; k++) {
            GbEvalItem it = {.task = t, .pair = pairs->items[k]};
            it.id = pairs->len == 1 ? gb_strdup(ot->id) : gb_asprintf("%s#%zu", ot->id, k);
            gb_array_push(&items, it);
        }
    }
    r->items = items.items;
    r->nitems = items.len;
    r->before_dedup = items.len;
    gb_eval__dedup(r, parser);
}

static bool gb_eval__same_program(const GbTask *a, const GbTask *b)
{
    if (strcmp(a->source, b->source) != 0 || a->extra_files.len != b->extra_files.len) return false;
    for (size_t i = 0; i < a->extra_files.len; i++)
        if (strcmp(a->extra_files.items[i].path, b->extra_files.items[i].path) != 0 ||
            strcmp(a->extra_files.items[i].source, b->extra_files.items[i].source) != 0)
            return false;
    return true;
}

/* BUGS, version v >= 1: the task of versions[v]'s file whose buggy ORIGINAL program is the
 * item's (the same bug in the original), shown and run with its buggy hardened program
 * ("hardened_buggy"). NULL (no error) when that file has no such bug. */
static GbTask *gb_eval__bug_view(const GbEvalVersion *ver, const GbTask *ot, GbError *err)
{
    const GbBench *b = ver->bench;
    const GbTask *bt = NULL;
    long ti = gb_bench_find(b, ot->id);
    if (ti >= 0 && gb_eval__same_program(&b->tasks.items[ti], ot)) bt = &b->tasks.items[ti];
    for (size_t k = 0; !bt && k < b->tasks.len; k++)
        if (gb_eval__same_program(&b->tasks.items[k], ot)) bt = &b->tasks.items[k];
    if (!bt) return NULL;
    const char *field = gb_task_get_field(bt, "hardened_buggy");
    json_t *doc = field ? json_loads(field, 0, NULL) : NULL;
    json_t *src = json_object_get(doc, "source"), *extra = json_object_get(doc, "extra_files");
    if (!json_is_string(src) || (extra && !json_is_object(extra))) {
        gb_error_set(err, "%s:%zu: task %s: \"hardened_buggy\" needs a \"source\" string and an \"extra_files\" object",
                     ver->path, bt->line, bt->id);
        json_decref(doc);
        return NULL;
    }
    GbTask *t = gb_malloc(sizeof *t);
    gb_task_copy(t, bt);
    free(t->source);
    t->source = gb_strdup(json_string_value(src));
    for (size_t i = 0; i < t->extra_files.len; i++) {
        free(t->extra_files.items[i].path);
        free(t->extra_files.items[i].source);
    }
    t->extra_files.len = 0;
    const char *path;
    json_t *val;
    json_object_foreach(extra, path, val)
    {
        if (json_is_string(val)) gb_task_set_file(t, path, json_string_value(val));
    }
    json_decref(doc);
    return t;
}

/* views[v][i]: the version's own task of each item (see GbEvalRun.views). */
static bool gb_eval__views(GbEvalRun *r, GbError *err)
{
    const GbBench *ob = r->versions[0].bench;
    r->views = gb_calloc(r->nv * r->nitems + 1, sizeof *r->views);
    bool bugs = r->type->input == GB_EVAL_IN_BUGS;
    for (size_t v = 0; v < r->nv; v++) {
        size_t found = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            const GbTask *ot = &ob->tasks.items[r->items[i].task];
            const GbTask **slot = &r->views[v * r->nitems + i];
            if (bugs && v > 0) {
                GbError e = {0};
                GbTask *t = gb_eval__bug_view(&r->versions[v], ot, &e);
                if (e.msg[0]) {
                    *err = e;
                    return false;
                }
                if (t) gb_array_push(&r->owned_views, t);
                *slot = t;
            } else if (bugs) {
                *slot = ot; /* the buggy original */
            } else {
                long ti = gb_bench_find(r->versions[v].bench, ot->id);
                *slot = ti >= 0 ? &r->versions[v].bench->tasks.items[ti] : NULL;
            }
            found += *slot != NULL;
        }
        /* a version of other tasks (the wrong file) would be scored as empty, not as hard */
        if (!bugs && v > 0 && r->nitems && !found) {
            gb_error_set(err, "%s: no task of it has an id of a task of %s (is it a version of another benchmark?)",
                         r->versions[v].path, r->versions[0].path);
            return false;
        }
    }
    return true;
}

GbEvalVersion *gb_eval_versions_new(GbEvalTask task, char *const *paths, const GbBench *benches, size_t nfiles,
                                    size_t *nv)
{
    /* BUGS: version 0 is the buggy original of the first file, version v the buggy hardened
     * programs of file v */
    size_t shift = gb_eval_task_type(task)->input == GB_EVAL_IN_BUGS ? 1 : 0;
    *nv = nfiles + shift;
    GbEvalVersion *versions = gb_calloc(*nv ? *nv : 1, sizeof *versions);
    for (size_t v = 0; v < *nv; v++) {
        size_t f = v >= shift ? v - shift : 0;
        versions[v] = (GbEvalVersion){paths[f], &benches[f]};
    }
    return versions;
}

/* ---- the run ---------------------------------------------------------------------------- */

static char *gb_eval__params_json(const GbChatParams *p)
{
    GbStr pj;
    gb_str_init(&pj);
    gb_str_append(&pj, "{\"temperature\":");
    gb_eval__num(&pj, p->temperature);
    gb_str_append(&pj, ",\"top_p\":");
    gb_eval__num(&pj, p->top_p);
    gb_str_appendf(&pj, ",\"max_tokens\":%ld,\"seed\":%ld}", p->max_tokens, p->seed);
    return gb_str_take(&pj);
}

/* The prompt and its hash of every sample slot (a version without the task has none). */
static bool gb_eval__prompts(GbEvalRun *r, TSParser *parser, GbError *err)
{
    for (size_t v = 0; v < r->nv; v++) {
        for (size_t i = 0; i < r->nitems; i++) {
            const GbTask *vt = r->views[v * r->nitems + i];
            if (!vt) continue;
            GbEvalSample s = gb_eval__sample(r, parser, vt, i);
            char *prompt = r->type->prompt(&s, err);
            if (!prompt) return false;
            if (gb_eval__stops(r)) {
                /* a base model continues the text: open the answer block it is to complete */
                char *open = gb_asprintf("%s\n[ANSWER]\n", prompt);
                free(prompt);
                prompt = open;
            }
            char hex[65];
            gb_sha256_hex(prompt, strlen(prompt), hex);
            for (long k = 0; k < r->cfg->samples; k++) {
                size_t slot = gb_eval__slot(r, v, i, k);
                r->hashes[slot] = gb_strdup(hex);
                r->prompts[slot] = k == 0 ? prompt : NULL;
            }
        }
    }
    return true;
}

/* BUGS: each item's reference results on the derived inputs (plus.h), recorded from the bug's
 * buggy original with its mutations reverted. An item without one is scored on the tests only. */
static void gb_eval__plus_refs(GbEvalRun *r, TSParser *parser)
{
    r->refs = gb_calloc(r->nitems ? r->nitems : 1, sizeof *r->refs);
    for (size_t i = 0; i < r->nitems; i++) {
        char why[512];
        GbTask *ref = gb_eval_plus_reference(r->views[i], why, sizeof why);
        if (!ref) continue;
        r->refs[i] = gb_eval_plus_new(r->pool, ref, 1, parser, why, sizeof why);
        r->nrefs += r->refs[i] != NULL;
        gb_task_destroy(ref);
        free(ref);
    }
}

/* Warn (cfg->warn) about the prompts that may not leave room for the reply in the server's
 * context: about 3 bytes per token (code tokenises at 3 to 4), plus max_tokens. */
static void gb_eval__context_warning(const GbEvalRun *r)
{
    const GbEvalConfig *cfg = r->cfg;
    if (cfg->context <= 0 || !cfg->warn) return;
    size_t near = 0, total = 0, longest = 0;
    for (size_t i = 0; i < r->nslots; i += (size_t)cfg->samples) {
        if (!r->prompts[i]) continue;
        size_t n = strlen(r->prompts[i]) / 3 + (cfg->system ? strlen(cfg->system) / 3 : 0);
        total++;
        if (n > longest) longest = n;
        if ((double)n + (double)(cfg->params.max_tokens > 0 ? cfg->params.max_tokens : 0) > 0.9 * (double)cfg->context)
            near++;
    }
    if (near)
        fprintf(cfg->warn,
                "genebench eval: warning: %zu of %zu prompts (the longest about %zu tokens) may not leave room for "
                "the reply (max_tokens %ld) in the server's context of %ld tokens: replies may be cut\n",
                near, total, longest, cfg->params.max_tokens, cfg->context);
}

/* Every sample's prompt as a line of cfg->prompts_out (offline.h). */
static bool gb_eval__write_prompts(GbEvalRun *r, TSParser *parser, GbError *err)
{
    const GbEvalConfig *cfg = r->cfg;
    const char *task = gb_eval_task_names[cfg->task];
    for (size_t v = 0; v < r->nv; v++)
        for (size_t i = 0; i < r->nitems; i++) {
            const char *prompt = r->prompts[gb_eval__slot(r, v, i, 0)];
            if (!prompt) continue;
            GbEvalSample smp = gb_eval__sample(r, parser, r->views[v * r->nitems + i], i);
            const char *expected = NULL;
            if (smp.pair) expected = cfg->task == GB_EVAL_TASK_INPUT ? smp.pair->args : smp.pair->expected;
            for (long k = 0; k < cfg->samples; k++) {
                GbEvalPromptLine p = {.item = r->items[i].id,
                                      .version = (long)v,
                                      .sample = k,
                                      .task = task,
                                      .chat = cfg->api == GB_LLM_CHAT,
                                      .system = cfg->system,
                                      .prompt = prompt,
                                      .stop = gb_eval__stops(r),
                                      .expected = expected,
                                      .prompt_sha256 = r->hashes[gb_eval__slot(r, v, i, k)]};
                char *line = gb_eval_prompt_line_write(&p);
                bool ok = fputs(line, cfg->prompts_out) >= 0;
                free(line);
                if (!ok) {
                    gb_error_set(err, "the prompts could not be written: %s", strerror(errno));
                    return false;
                }
            }
        }
    if (fflush(cfg->prompts_out) != 0) {
        gb_error_set(err, "the prompts could not be written: %s", strerror(errno));
        return false;
    }
    return true;
}

/* The cache directory, and the results file open for appending (resume) or writing. */
static bool gb_eval__open_outputs(GbEvalRun *r, GbError *err)
{
    const GbEvalConfig *cfg = r->cfg;
    if (cfg->cache_dir && !gb_eval__mkdirs(cfg->cache_dir)) {
        gb_error_set(err, "%s: cannot create the cache directory: %s", cfg->cache_dir, strerror(errno));
        return false;
    }
    struct stat cst;
    if (cfg->cache_dir && (stat(cfg->cache_dir, &cst) != 0 || !S_ISDIR(cst.st_mode))) {
        gb_error_set(err, "%s: --cache takes a directory, and this is not one", cfg->cache_dir);
        return false;
    }
    if (!cfg->results_path) return true;
    r->out = fopen(cfg->results_path, cfg->resume ? "a+" : "w");
    if (!r->out) {
        gb_error_set(err, "%s: cannot write the results: %s", cfg->results_path, strerror(errno));
        return false;
    }
    /* A run killed mid-line left a torn last line: cut it off, so that the file holds only
     * whole records and the next one starts a line (its sample is scored again). */
    if (cfg->resume && fseek(r->out, 0, SEEK_END) == 0) {
        long end = ftell(r->out), keep = end;
        while (keep > 0 && fseek(r->out, keep - 1, SEEK_SET) == 0 && fgetc(r->out) != '\n') keep--;
        fseek(r->out, 0, SEEK_END); /* a positioning call between reading and writing */
        if (keep < end && (fflush(r->out) != 0 || ftruncate(fileno(r->out), keep) != 0)) {
            gb_error_set(err, "%s: cannot cut off the torn last line: %s", cfg->results_path, strerror(errno));
            return false;
        }
        fseek(r->out, 0, SEEK_END);
    }
    return true;
}

/* A job per sample slot that has a prompt and no verdict yet, in slot order. */
static void gb_eval__plan(GbEvalRun *r)
{
    r->jobs = gb_calloc(r->nslots ? r->nslots : 1, sizeof *r->jobs);
    for (size_t v = 0; v < r->nv; v++)
        for (size_t i = 0; i < r->nitems; i++) {
            size_t first = gb_eval__slot(r, v, i, 0);
            for (long s = 0; s < r->cfg->samples; s++) {
                size_t slot = gb_eval__slot(r, v, i, s);
                if (!r->hashes[slot] || r->verdict[slot] != GB_V_NONE) continue;
                GbEvalJob *jb = &r->jobs[r->njobs++];
                *jb = (GbEvalJob){.item = i,
                                  .version = v,
                                  .sample = s,
                                  .task = r->views[v * r->nitems + i],
                                  .prompt = r->prompts[first]};
                memcpy(jb->hash, r->hashes[slot], 65);
            }
        }
}

/* Do the jobs on cfg->concurrency threads (fewer when there are fewer jobs). */
static void gb_eval__work(GbEvalRun *r)
{
    r->t0 = gb_now();
    long nt = r->cfg->concurrency < 1 ? 1 : r->cfg->concurrency;
    if ((size_t)nt > r->njobs) nt = r->njobs ? (long)r->njobs : 1;
    pthread_t *th = gb_calloc((size_t)nt, sizeof *th);
    for (long i = 0; i < nt; i++) pthread_create(&th[i], NULL, gb_eval__worker, r);
    for (long i = 0; i < nt; i++) pthread_join(th[i], NULL);
    free(th);
    gb_eval__progress(r, true);
}

static void gb_eval__run_destroy(GbEvalRun *r)
{
    if (r->out) fclose(r->out);
    for (size_t i = 0; i < r->nslots; i++) {
        free(r->hashes[i]);
        free(r->prompts[i]);
    }
    free(r->hashes);
    free(r->prompts);
    for (size_t i = 0; i < r->owned_views.len; i++) {
        gb_task_destroy(r->owned_views.items[i]);
        free(r->owned_views.items[i]);
    }
    gb_array_free(&r->owned_views);
    free(r->views);
    free(r->jobs);
    free(r->verdict);
    free(r->truncated);
    free(r->plus);
    for (size_t i = 0; r->refs && i < r->nitems; i++) gb_eval_plus_delete(r->refs[i]);
    free(r->refs);
    for (size_t i = 0; i < r->shown.len; i++) free(r->shown.items[i]);
    gb_array_free(&r->shown);
    free(r->params_json);
    for (size_t i = 0; i < r->nitems; i++) free(r->items[i].id);
    free(r->items);
    for (size_t t = 0; t < r->versions[0].bench->tasks.len; t++) gb_eval_pairs_destroy(&r->pairs[t]);
    free(r->pairs);
    pthread_mutex_destroy(&r->mu);
}

bool gb_eval_run(const GbEvalConfig *cfg, GbHttpClient *http, GbPool *pool, const GbEvalVersion *versions, size_t nv,
                 char **summary_json, char **text, size_t *errors, GbError *err)
{
    *summary_json = *text = NULL;
    *errors = 0;
    const GbEvalTaskType *type = gb_eval_task_type(cfg->task);
    GbEvalRun r = {.cfg = cfg,
                   .type = type,
                   .input = &gb_eval__inputs[type->input],
                   .http = http,
                   .pool = pool,
                   .versions = versions,
                   .nv = nv};
    pthread_mutex_init(&r.mu, NULL);
    r.requests0 = http ? gb_http_client_requests(http) : 0;
    TSParser *parser = gb_parser_new();
    gb_eval__items(&r, parser);
    r.nslots = nv * r.nitems * (size_t)cfg->samples;
    r.hashes = gb_calloc(r.nslots ? r.nslots : 1, sizeof *r.hashes);
    r.prompts = gb_calloc(r.nslots ? r.nslots : 1, sizeof *r.prompts);
    r.verdict = gb_calloc(r.nslots ? r.nslots : 1, 1);
    r.truncated = gb_calloc(r.nslots ? r.nslots : 1, 1);
    r.plus = gb_calloc(r.nslots ? r.nslots : 1, 1);
    r.params_json = gb_eval__params_json(&cfg->params);
    bool ok = false;
    if (!r.nitems) {
        gb_error_set(err, "%s: %s", versions[0].path, r.input->none);
        goto out;
    }
    if (!gb_eval__views(&r, err) || !gb_eval__prompts(&r, parser, err)) goto out;
    gb_eval__context_warning(&r);
    if (cfg->prompts_out) {
        ok = gb_eval__write_prompts(&r, parser, err);
        goto out;
    }
    if (type->input == GB_EVAL_IN_BUGS) gb_eval__plus_refs(&r, parser);
    if (cfg->resume && cfg->results_path && !gb_eval__resume(&r, (const char *const *)r.hashes, &r.kept, err)) goto out;
    if (!gb_eval__open_outputs(&r, err)) goto out;
    gb_eval__plan(&r);
    gb_eval__work(&r);
    if (r.failed_io) {
        gb_error_set(err, "%s: %zu result lines could not be written", cfg->results_path, r.failed_io);
        goto out;
    }
    gb_eval__summary(&r, r.without, r.kept, summary_json, text);
    size_t cut = 0;
    for (size_t i = 0; i < r.nslots; i++) cut += r.truncated[i];
    if (cut && cfg->warn)
        fprintf(cfg->warn,
                "genebench eval: warning: %zu replies were cut at the token limit (finish_reason length): the "
                "summary's \"truncation\" counts them and gives the drop without them; raise --max-tokens\n",
                cut);
    for (size_t i = 0; i < r.nslots; i++) *errors += r.verdict[i] == GB_V_ERROR;
    ok = true;
out:
    ts_parser_delete(parser);
    gb_eval__run_destroy(&r);
    return ok;
}
