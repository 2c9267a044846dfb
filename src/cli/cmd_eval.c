/* genebench eval ORIG.jsonl HARD.jsonl [HARD2.jsonl ...]: output / input prediction, program
 * repair and Python -> Java translation by a model behind an OpenAI-compatible server, on the
 * original and hardened versions (src/eval/eval.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/base/sha256.h"

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/eval/eval.h"
#include "src/eval/offline.h"
#include "src/eval/prompt.h"

#define GB_EVAL_MAX_K 16

typedef struct {
    long v[GB_EVAL_MAX_K];
    size_t n;
} GbEvalKs;

typedef struct {
    const char *url, *model, *output, *summary, *cache, *python, *java_home, *system, *write_prompts, *answers,
        *prompt_template;
    int task, api, prompt_style;
    long samples, max_tokens, seed, concurrency, workers, retries, timeout_ms, resamples, boot_seed, max_same_errors,
        context;
    double temperature, top_p, time_budget, run_timeout, compile_timeout;
    long java_mem;
    bool resume, quiet;
    GbEvalKs k;
    const GbEvalTemplate *tmpl; /* loaded from prompt_template (not an option) */
} GbEvalOptions;

static bool gb_eval__parse_k(const char *value, void *dest, char *msg, size_t size)
{
    GbEvalKs *k = dest;
    k->n = 0;
    const char *p = value;
    while (*p) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < 1 || x > 1000000 || (*end && *end != ',') || k->n == GB_EVAL_MAX_K) {
            snprintf(msg, size, "needs up to %d positive integers separated by commas, e.g. 1,5", GB_EVAL_MAX_K);
            return false;
        }
        k->v[k->n++] = x;
        p = *end ? end + 1 : end;
    }
    if (!k->n) {
        snprintf(msg, size, "needs at least one k");
        return false;
    }
    return true;
}

static const char *const gb_eval__apis[] = {"chat", "completions", NULL};
static const char *const gb_eval__styles[] = {"genebench", "cruxeval", NULL};

#define O GbEvalOptions
static const GbCliOption gb_eval__options[] = {
    GB_CLI_STRING("url", 0, O, url, "URL", NULL,
                  "base URL of the OpenAI-compatible server (required), e.g.\nhttp://127.0.0.1:8000 (with or "
                  "without /v1); the key comes from\n$GENEBENCH_API_KEY, else $OPENAI_API_KEY"),
    GB_CLI_STRING("model", 0, O, model, "M", NULL,
                  "model name sent to the server (required, but with --write-prompts)"),
    GB_CLI_ENUM("api", 0, O, api, "API", gb_eval__apis, "chat",
                "chat: /v1/chat/completions (instruction models)\ncompletions: /v1/completions, a plain prompt and "
                "stop\nsequences (base models)"),
    GB_CLI_STRING("system", 0, O, system, "TEXT", NULL, "chat: a system message before every prompt"),
    GB_CLI_STRING("prompt-template", 0, O, prompt_template, "FILE", NULL,
                  "the prompt of every item from FILE, a template with\nplaceholders such as {{program}} and "
                  "{{assert}}\n(src/eval/README.md lists them per task type)"),
    GB_CLI_ENUM("prompt-style", 0, O, prompt_style, "STYLE", gb_eval__styles, "genebench",
                "output / input: genebench's prompts, or cruxeval: CRUXEval's\nown direct prompts and answer "
                "extraction (numbers\ncomparable with published CRUXEval results)"),
    GB_CLI_STRING("write-prompts", 0, O, write_prompts, "FILE", NULL,
                  "write every sample's prompt to FILE (JSONL) and stop;\nno server is asked"),
    GB_CLI_STRING("answers", 0, O, answers, "FILE", NULL,
                  "score the answers of FILE (JSONL: item, version, sample,\nanswer; or task_id, completion) "
                  "instead of asking a server"),
    GB_CLI_LONG("max-same-errors", 0, O, max_same_errors, "K", 0, 1000000, "10",
                "stop after K identical request errors in a row (0: never)"),
    GB_CLI_LONG("context", 0, O, context, "N", 0, 100000000L, "0",
                "the server's context in tokens, when it does not say\n(warns about prompts that may not fit)"),
#define GB_EVAL_TASK(ID, name, help) #name ": " help "\n"
    GB_CLI_ENUM("task", 0, O, task, "TASK", gb_eval_task_names, "output", GB_EVAL_TASK_LIST),
#undef GB_EVAL_TASK
    GB_CLI_LONG("samples", 'n', O, samples, "N", 1, 1000, "1", "samples per item and version"),
    GB_CLI_DOUBLE("temperature", 0, O, temperature, "T", 0, 2, "0", "sampling temperature"),
    GB_CLI_DOUBLE("top-p", 0, O, top_p, "P", 0, 1, "1", "nucleus sampling top_p"),
    GB_CLI_LONG("max-tokens", 0, O, max_tokens, "K", 0, 1000000, "2048",
                "max_tokens of a reply (0: not sent, the server's default);\na reply cut there is counted apart"),
    GB_CLI_LONG("seed", 0, O, seed, "S", -1, 2147483647L, "-1",
                "seed sent to the server, plus the sample index (-1: not sent)"),
    GB_CLI_PARSE("k", 0, O, k, "K1,K2", gb_eval__parse_k, "1,5", "the k of pass@k (a k above --samples is left out)"),
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL, "per-sample results, one JSON line per sample"),
    GB_CLI_STRING("summary", 0, O, summary, "FILE", NULL, "write the summary JSON to FILE (atomically)"),
    GB_CLI_STRING("cache", 0, O, cache, "DIR", NULL, "cache of the replies (created when missing)"),
    GB_CLI_FLAG("resume", 0, O, resume, "keep the finished samples of --output and do only the others"),
    GB_CLI_LONG("concurrency", 'c', O, concurrency, "N", 1, 256, "4", "requests (and scoring runs) at once"),
    GB_CLI_DOUBLE("time-budget", 0, O, time_budget, "S", 0, 1e9, "0",
                  "start no sample after S seconds (0: no budget); the summary\nsays the run is incomplete"),
    GB_CLI_LONG("workers", 'j', O, workers, "N", 0, 4096, "0", "sandbox worker processes (0: one per core)"),
    GB_CLI_DOUBLE("run-timeout", 0, O, run_timeout, "S", 0, 3600, "0",
                  "wall-clock limit of one scoring run (0: 3 s for output and\ninput, as CRUXEval; 10 s for repair "
                  "and for each Java case)"),
    GB_CLI_DOUBLE("compile-timeout", 0, O, compile_timeout, "S", 1, 3600, "60", "translate: wall-clock limit of javac"),
    GB_CLI_STRING("java-home", 0, O, java_home, "DIR", NULL,
                  "translate: the JDK (default: Debian's OpenJDK 17,\n/usr/lib/jvm/java-17-openjdk-ARCH)"),
    GB_CLI_LONG("java-memory", 0, O, java_mem, "MB", 256, 1048576, "2048",
                "translate: address-space limit of javac and java (MiB)"),
    GB_CLI_LONG("retries", 0, O, retries, "N", 0, 100, "4",
                "further attempts on 429, 5xx, timeouts, dropped connections"),
    GB_CLI_LONG("http-timeout", 0, O, timeout_ms, "MS", 1, 86400000L, "300000", "limit of one request"),
    GB_CLI_LONG("bootstrap", 0, O, resamples, "N", 0, 1000000, "1000", "bootstrap resamples of the drop's interval"),
    GB_CLI_LONG("bootstrap-seed", 0, O, boot_seed, "S", 0, 2147483647L, "1", "seed of the bootstrap"),
    GB_CLI_STRING("python", 0, O, python, "PATH", "/usr/bin/python3", "interpreter of the sandbox workers"),
    GB_CLI_FLAG("quiet", 'q', O, quiet, "no progress line on stderr"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_eval__exits[] = {
    {0, "evaluated (the summary was printed; it says when the time budget stopped it), or the\n"
        "       prompts were written (--write-prompts)"},
    {1, "a benchmark could not be read or had bad lines, no item to predict, the pre-flight request\n"
        "       failed (no server, model not found), some samples got no reply or the runner failed on them\n"
        "       (verdict error), the results could not be written, the sandbox could not start"},
    {2, "usage error (bad option or value, --url or --model missing, an output is an input, the task\n"
        "       type does not fit the file, the prompt template cannot be read or has a placeholder the\n"
        "       task type does not have)"},
    {130, "interrupted (Ctrl-C; 143 for SIGTERM): the finished samples are in --output and the summary\n"
          "       is printed and written; add --resume"},
    {0, NULL},
};

static const GbCliCommand gb_eval__cmd = {
    .name = "eval",
    .synopsis = "ORIG.jsonl HARD.jsonl [HARD2.jsonl ...] --url URL --model M [options]\n"
                "       genebench eval BUGS.jsonl [BUGS2.jsonl ...] --task repair --url URL --model M [options]",
    .about = "  Measure how much a model drops on hardened code, on the four tasks of the GeneBench paper.\n"
             "  output / input: CRUXEval-style prediction on every `assert CALL(literal arguments) ==\n"
             "  literal` of the original's tests (one item per assert), the program shown being each\n"
             "  version's own, the expected value always the original's; answers must be literal data.\n"
             "  repair: every FILE is `genebench inject-bugs` output; one item per bug; version 0 is the\n"
             "  buggy original of the first file, version v the buggy hardened program of file v (a bug\n"
             "  of a later file is paired with the first file's bug that has the same buggy original).\n"
             "  The prompt has the specification (docstring), the buggy program and its failing test as\n"
             "  the sandbox reports it; the reply's program must pass the task's own tests.\n"
             "  translate: one item per stdio task; the reply's Java (class Main, or its public class)\n"
             "  is compiled with javac and run with java on every stdio case, both in the sandbox.\n"
             "  Every answer is scored only by running it in the sandbox. Prints pass@k per version,\n"
             "  the paired comparison of each version with the original and the relative drop of\n"
             "  pass@1 with a bootstrap 95% interval over items.\n",
    .options = gb_eval__options,
    .min_args = 1,
    .max_args = -1,
    .args_error = "genebench eval: needs the original benchmark and any number of hardened versions",
    .exits = gb_eval__exits,
};

/* Usage errors the option table cannot see; true when there is none. */
static bool gb_eval__usage_ok(const GbEvalOptions *opt, const GbCliArgs *args)
{
    if (opt->write_prompts && opt->answers) {
        fprintf(stderr, "genebench eval: --write-prompts and --answers do not go together\n");
        return false;
    }
    if (!opt->write_prompts && ((!opt->url && !opt->answers) || !opt->model)) {
        fprintf(stderr, "genebench eval: --url (or --answers) and --model are required\n");
        return false;
    }
    if (opt->prompt_style == GB_EVAL_STYLE_CRUXEVAL && opt->task != GB_EVAL_TASK_OUTPUT &&
        opt->task != GB_EVAL_TASK_INPUT) {
        fprintf(stderr, "genebench eval: --prompt-style cruxeval is for --task output and input only\n");
        return false;
    }
    if (opt->prompt_style == GB_EVAL_STYLE_CRUXEVAL && opt->prompt_template) {
        fprintf(stderr, "genebench eval: --prompt-style cruxeval and --prompt-template do not go together\n");
        return false;
    }
    if (opt->answers && opt->url) {
        fprintf(stderr, "genebench eval: --answers scores a file: no --url\n");
        return false;
    }
    const char *outs[3] = {opt->output, opt->summary, opt->write_prompts};
    for (int i = 0; i < 3; i++)
        if (gb_cli_refuse_output("eval", outs[i], (const char *const *)args->items, (size_t)args->count)) return false;
    if (opt->output && opt->summary && strcmp(opt->output, opt->summary) == 0) {
        fprintf(stderr, "genebench eval: --output and --summary name the same file\n");
        return false;
    }
    return true;
}

/* Read every file into benches[f] (initialised here); false when one could not be read or had
 * bad lines (said on stderr). */
static bool gb_eval__read(const GbCliArgs *args, GbBench *benches)
{
    size_t bad = 0;
    bool ok = true;
    for (size_t f = 0; f < (size_t)args->count; f++) {
        gb_bench_init(&benches[f]);
        if (!gb_cli_read_bench(args->items[f], &benches[f], "genebench eval", &bad)) ok = false;
    }
    return ok && !bad;
}

/* Whether the task type fits the original file: inject-bugs output (tasks with "hardened_buggy")
 * is for repair only; a prediction or translation on it would score the buggy programs. */
static bool gb_eval__fits(GbEvalTask task, const char *path, const GbBench *b)
{
    size_t bugs = 0;
    for (size_t i = 0; i < b->tasks.len; i++) bugs += gb_task_get_field(&b->tasks.items[i], "hardened_buggy") != NULL;
    if (task != GB_EVAL_TASK_REPAIR && bugs) {
        fprintf(stderr,
                "genebench eval: %s is `genebench inject-bugs` output (%zu of %zu tasks have \"hardened_buggy\"): "
                "--task %s would score the buggy programs; use --task repair\n",
                path, bugs, b->tasks.len, gb_eval_task_names[task]);
        return false;
    }
    return true;
}

/* A file's path and the SHA-256 of its bytes ("" when it cannot be read). */
static GbEvalInputFile gb_eval__input_file(const char *path)
{
    GbEvalInputFile f = {.path = gb_strdup(path)};
    size_t len;
    GbError e = {0};
    char *data = gb_read_file(path, &len, &e);
    if (data) gb_sha256_hex(data, len, f.sha256);
    free(data);
    return f;
}

/* What the summary says of where it came from (the server's part is filled by the pre-flight). */
static void gb_eval__provenance(GbEvalProvenance *p, const GbEvalOptions *opt, const GbCliArgs *args,
                                const char *command_line)
{
    memset(p, 0, sizeof *p);
    p->command_line = gb_strdup(command_line);
    p->tool_version = gb_strdup(GB_VERSION);
    p->git_commit = gb_strdup(GB_GIT_COMMIT);
    char date[32];
    gb_cli_utc_date(date);
    p->date = gb_strdup(date);
    for (int i = 0; i < args->count; i++) {
        GbEvalInputFile f = gb_eval__input_file(args->items[i]);
        gb_array_push(&p->inputs, f);
    }
    p->source = gb_strdup(opt->answers ? "answers" : "server");
    p->server_url = opt->url ? gb_strdup(opt->url) : NULL;
    p->server_context = -1;
    p->api = gb_strdup(gb_eval__apis[opt->api]);
    if (opt->system) {
        char hex[65];
        gb_sha256_hex(opt->system, strlen(opt->system), hex);
        p->system_sha256 = gb_strdup(hex);
    }
    if (opt->answers) {
        p->has_answers = true;
        p->answers = gb_eval__input_file(opt->answers);
    }
    p->prompt_version = gb_strdup(gb_eval_prompt_version((GbEvalPromptStyle)opt->prompt_style, opt->prompt_template));
    if (opt->prompt_template) {
        p->has_template = true;
        p->prompt_template = gb_eval__input_file(opt->prompt_template);
    }
}

/* The pre-flight request: GET /v1/models, before any sample is sent. False (said on stderr) when
 * the server cannot be reached or does not serve the model; a server without /v1/models is
 * only warned about. */
static bool gb_eval__preflight(GbHttpClient *http, const GbEvalOptions *opt, GbEvalProvenance *p)
{
    GbLlmModelInfo info;
    GbError err = {0};
    if (gb_llm_model_info(http, opt->model, &info, &err)) {
        p->server_model = info.id;
        p->server_context = info.context;
        return true;
    }
    if (strstr(err.msg, "HTTP 404") || strstr(err.msg, "HTTP 405")) {
        fprintf(stderr, "genebench eval: warning: %s: the model could not be checked before the run\n", err.msg);
        return true;
    }
    fprintf(stderr, "genebench eval: %s; no sample was sent\n", err.msg);
    return false;
}

#define GB_EVAL_REQUEST_BUDGET_MS 600000L

static GbHttpClient *gb_eval__http_new(const GbEvalOptions *opt, GbError *err)
{
    GbHttpOptions ho;
    gb_http_options_default(&ho);
    ho.base_url = opt->url;
    ho.api_key = getenv("GENEBENCH_API_KEY");
    if (!ho.api_key || !*ho.api_key) ho.api_key = getenv("OPENAI_API_KEY");
    ho.timeout_ms = opt->timeout_ms;
    ho.max_retries = (int)opt->retries;
    /* a budget per request, not one for the whole run: with -c N, N requests wait at once, and
     * the run has its own --time-budget */
    ho.budget_ms = -1;
    ho.request_budget_ms = GB_EVAL_REQUEST_BUDGET_MS;
    const char *rb = getenv("GENEBENCH_RETRY_BASE_MS"); /* tests: short back-off */
    if (rb && *rb) ho.retry_base_ms = atol(rb);
    return gb_http_client_new(&ho, err);
}

/* The wall-clock (and CPU) limit of one scoring run: --run-timeout, else the task type's. */
static double gb_eval__run_timeout(const GbEvalOptions *opt)
{
    return opt->run_timeout > 0 ? opt->run_timeout : gb_eval_task_run_timeout((GbEvalTask)opt->task);
}

static GbEvalConfig gb_eval__config(const GbEvalOptions *opt, const GbJavaConfig *java, volatile sig_atomic_t *stop,
                                    const GbEvalAnswers *answers, const GbEvalProvenance *prov)
{
    GbEvalConfig cfg = {
        .model = opt->model,
        .task = (GbEvalTask)opt->task,
        .samples = opt->samples,
        .cache_dir = opt->cache,
        .results_path = opt->output,
        .resume = opt->resume,
        .concurrency = opt->concurrency,
        .time_budget_s = opt->time_budget,
        .ks = opt->k.v,
        .nk = opt->k.n,
        .resamples = opt->resamples,
        .boot_seed = (unsigned long)opt->boot_seed,
        .progress = opt->quiet ? NULL : stderr,
        .stop = stop,
        .java = java,
        .api = opt->api == 1 ? GB_LLM_COMPLETIONS : GB_LLM_CHAT,
        .system = opt->system,
        .answers = answers,
        .max_same_errors = opt->max_same_errors,
        .progress_lines = !isatty(STDERR_FILENO),
        .warn = stderr,
        .provenance = prov,
        .prompt_style = (GbEvalPromptStyle)opt->prompt_style,
        .prompt_template = opt->tmpl,
        .context = opt->context > 0 ? opt->context
                   : prov           ? prov->server_context
                                    : -1,
    };
    gb_chat_params_default(&cfg.params);
    cfg.params.temperature = opt->temperature;
    cfg.params.top_p = opt->top_p;
    cfg.params.max_tokens = opt->max_tokens;
    cfg.params.seed = opt->seed;
    return cfg;
}

/* Print the summary and write it to --summary. Returns the exit status. */
static int gb_eval__print(const GbEvalOptions *opt, const char *json, const char *text, size_t errors)
{
    int rc = GB_EXIT_OK;
    fputs(text, stdout);
    if (errors) {
        fprintf(stderr,
                "genebench eval: %zu samples could not be scored (no reply from the server, or the runner "
                "failed; their \"error\" field says why): --resume redoes them\n",
                errors);
        rc = GB_EXIT_FAIL;
    }
    if (opt->summary) {
        GbStr s;
        gb_str_init(&s);
        gb_str_append(&s, json);
        if (!gb_cli_write_output("eval", opt->summary, &s)) rc = GB_EXIT_FAIL;
        gb_str_destroy(&s);
    }
    return rc;
}

/* Write every sample's prompt to --write-prompts (no server; a sandbox only for repair, whose
 * prompt shows how the buggy program fails its tests). */
static int gb_eval__write_prompts(const GbEvalOptions *opt, const GbEvalVersion *versions, size_t nv)
{
    GbPool *pool = NULL;
    if (opt->task == GB_EVAL_TASK_REPAIR) {
        GbPoolConfig pc;
        gb_pool_config_defaults(&pc);
        pc.python = opt->python;
        pc.workers = (int)opt->workers;
        pc.timeout_s = pc.cpu_s = gb_eval__run_timeout(opt);
        pool = gb_cli_pool_new("eval", &pc);
        if (!pool) return GB_EXIT_FAIL;
    }
    FILE *f = fopen(opt->write_prompts, "w");
    if (!f) {
        fprintf(stderr, "genebench eval: %s: cannot write the prompts: %m\n", opt->write_prompts);
        if (pool) gb_pool_delete(pool);
        return GB_EXIT_FAIL;
    }
    GbEvalConfig cfg = gb_eval__config(opt, NULL, NULL, NULL, NULL);
    cfg.model = opt->model ? opt->model : "";
    cfg.prompts_out = f;
    cfg.progress = NULL;
    char *json = NULL, *text = NULL;
    size_t errors = 0;
    GbError err = {0};
    bool ok = gb_eval_run(&cfg, NULL, pool, versions, nv, &json, &text, &errors, &err);
    if (pool) gb_pool_delete(pool);
    if (fclose(f) != 0 && ok) {
        gb_error_set(&err, "%s: cannot write the prompts", opt->write_prompts);
        ok = false;
    }
    if (!ok) fprintf(stderr, "genebench eval: %s\n", err.msg);
    return ok ? GB_EXIT_OK : GB_EXIT_FAIL;
}

/* Run the evaluation in a sandbox pool (started and stopped here, Ctrl-C stopping the run) and
 * print it. Returns the exit status (128 + the signal when interrupted). */
static int gb_eval__run(const GbEvalOptions *opt, GbHttpClient *http, const char *java_home,
                        const GbEvalVersion *versions, size_t nv, const GbEvalAnswers *answers,
                        const GbEvalProvenance *prov)
{
    volatile sig_atomic_t stop = 0;
    GbCliSignals sig;
    gb_cli_signals_start(&sig, NULL, &stop);
    GbPoolConfig pc;
    gb_pool_config_defaults(&pc);
    pc.python = opt->python;
    pc.workers = (int)opt->workers;
    pc.timeout_s = pc.cpu_s = gb_eval__run_timeout(opt);
    GbPool *pool = gb_cli_pool_new("eval", &pc);
    if (!pool) {
        gb_cli_signals_stop(&sig);
        return GB_EXIT_FAIL;
    }
    sig.pool = pool;
    GbEvalProvenance full = *prov;
    full.sandbox = (char *)gb_pool_sandbox(pool);
    GbJavaConfig java = {java_home, opt->compile_timeout, gb_eval__run_timeout(opt), opt->java_mem};
    GbEvalConfig cfg = gb_eval__config(opt, &java, &stop, answers, &full);
    char *json = NULL, *text = NULL;
    size_t errors = 0;
    GbError err = {0};
    bool ok = gb_eval_run(&cfg, http, pool, versions, nv, &json, &text, &errors, &err);
    sig.pool = NULL;
    gb_cli_signals_stop(&sig);
    int rc = GB_EXIT_FAIL;
    if (ok)
        rc = gb_eval__print(opt, json, text, errors);
    else
        fprintf(stderr, "genebench eval: %s\n", err.msg);
    if (sig.signo) {
        fprintf(stderr, "genebench eval: interrupted by signal %d; the finished samples are kept (--resume)\n",
                (int)sig.signo);
        rc = 128 + sig.signo;
    }
    free(json);
    free(text);
    gb_pool_delete(pool);
    return rc;
}

int gb_cmd_eval(int argc, char **argv)
{
    GbEvalOptions opt = {0};
    GbCliArgs args;
    char *command_line = gb_cli_command_line("genebench", argc, argv);
    int rc = gb_cli_parse(&gb_eval__cmd, argc, argv, &opt, &args);
    if (rc != GB_CLI_CONTINUE || !gb_eval__usage_ok(&opt, &args)) {
        free(command_line);
        return rc != GB_CLI_CONTINUE ? rc : GB_EXIT_USAGE;
    }
    GbEvalTask task = (GbEvalTask)opt.task;
    GbEvalTemplate *tmpl = NULL;
    if (opt.prompt_template) {
        GbError terr = {0};
        if (!(tmpl = gb_eval_template_load(opt.prompt_template, task, &terr))) {
            fprintf(stderr, "genebench eval: %s\n", terr.msg);
            free(command_line);
            return GB_EXIT_USAGE;
        }
        opt.tmpl = tmpl;
    }
    size_t nfiles = (size_t)args.count, nv;
    GbBench *benches = gb_calloc(nfiles, sizeof *benches);
    GbEvalVersion *versions = gb_eval_versions_new(task, args.items, benches, nfiles, &nv);
    char *java_home = NULL;
    GbHttpClient *http = NULL;
    GbEvalAnswers *answers = NULL;
    GbEvalProvenance prov;
    gb_eval__provenance(&prov, &opt, &args, command_line);
    GbCliLock lock = {.fd = -1};
    bool locked = false;
    GbError err = {0};
    rc = GB_EXIT_FAIL;
    if (!gb_eval__read(&args, benches)) goto out;
    if (!gb_eval__fits(task, args.items[0], &benches[0])) {
        rc = GB_EXIT_USAGE;
        goto out;
    }
    if (opt.write_prompts) {
        rc = gb_eval__write_prompts(&opt, versions, nv);
        goto out;
    }
    if (gb_eval_task_needs_java(task) && !(java_home = gb_java_home_find(opt.java_home, &err))) {
        fprintf(stderr, "genebench eval: %s\n", err.msg);
        goto out;
    }
    if (opt.answers && !(answers = gb_eval_answers_read(opt.answers, &err))) {
        fprintf(stderr, "genebench eval: %s\n", err.msg);
        goto out;
    }
    if (!answers) {
        if (!(http = gb_eval__http_new(&opt, &err))) {
            fprintf(stderr, "genebench eval: %s\n", err.msg);
            rc = GB_EXIT_USAGE;
            goto out;
        }
        if (!gb_eval__preflight(http, &opt, &prov)) goto out;
    }
    if (opt.output && !(locked = gb_cli_lock(&lock, "eval", opt.output))) goto out;
    rc = gb_eval__run(&opt, http, java_home, versions, nv, answers, &prov);
out:
    if (locked) gb_cli_unlock(&lock);
    gb_http_client_delete(http);
    gb_eval_answers_delete(answers);
    gb_eval_template_delete(tmpl);
    gb_eval_provenance_destroy(&prov);
    for (size_t f = 0; f < nfiles; f++) gb_bench_destroy(&benches[f]);
    free(java_home);
    free(benches);
    free(versions);
    free(command_line);
    return rc;
}
