/* The evaluation run: jobs, threads, cache, resume and results (eval.h); its items are built in
 * eval_items.c and its summary in eval_summarize.c. */
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

#include "src/eval/eval_private.h"

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
GbEvalSample gb_eval_sample(const GbEvalRun *r, TSParser *parser, const GbTask *task, size_t item)
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
    GbEvalSample s = gb_eval_sample(r, parser, j->task, j->item);
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

/* ---- the run ---------------------------------------------------------------------------- */

static void gb_eval__num(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%.12g", x); /* more digits than gb_json_number: the tests check 6/7 */
    else
        gb_str_append(s, "null");
}

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
            GbEvalSample s = gb_eval_sample(r, parser, vt, i);
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
            GbEvalSample smp = gb_eval_sample(r, parser, r->views[v * r->nitems + i], i);
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
    gb_eval_items(&r, parser);
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
    if (!gb_eval_views(&r, err)) goto out;
    /* before the prompts: a repair prompt shows how the buggy program fails, judged as its answers will be */
    if (type->input == GB_EVAL_IN_BUGS && r.pool) gb_eval_split_fit(&r);
    if (!gb_eval__prompts(&r, parser, err)) goto out;
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
    gb_eval_summarize(&r, r.without, r.kept, summary_json, text);
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
