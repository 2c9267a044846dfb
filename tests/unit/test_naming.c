/* Natural names (operators/naming.h): the built-in vocabulary (what a value is, how it is used), and
 * the LLM path against tests/fakes/model_server.py on 127.0.0.1 started by the test itself, with its
 * failure modes (slow, HTTP 500, malformed JSON, prose, wrong names, connection refused) all
 * falling back to built-in names. Every renamed program must still print what it printed. */
#include "operators/naming.h"
#include "tests/unit/op_helpers.h"
#include "tests/unit/test_server.h"

/* Operators' fresh names, as they come out of collisions (`_1`, `_2`, ...). */
static const char *const synthetic_prog = "import queue\n"
                                          "import threading\n"
                                          "from dateutil.parser import parse as parse_1\n"
                                          "\n"
                                          "\n"
                                          "def parse(text):\n"
                                          "    return text.split()\n"
                                          "\n"
                                          "\n"
                                          "def add_1(a, b):\n"
                                          "    return a + b\n"
                                          "\n"
                                          "\n"
                                          "def work(price, items):\n"
                                          "    pending_1 = True\n"
                                          "    total = 0\n"
                                          "    while pending_1:\n"
                                          "        for attempt_2 in range(1):\n"
                                          "            total = add_1(total, price)\n"
                                          "        pending_1 = False\n"
                                          "    price_2 = price\n"
                                          "    limit_3 = 7\n"
                                          "    if limit_3 > 6:\n"
                                          "        total += price_2\n"
                                          "    queue_4 = queue.Queue()\n"
                                          "    thread_5 = threading.Thread(target=queue_4.put, args=(total,))\n"
                                          "    thread_5.start()\n"
                                          "    thread_5.join()\n"
                                          "    parse_1(\"2020-01-02\")\n"
                                          "    return queue_4.get(), parse(\"a b\"), items\n"
                                          "\n"
                                          "\n"
                                          "print(work(3, []))\n";

static const char *const synthetic_names[] = {"parse_1", "add_1",   "pending_1", "attempt_2",
                                              "price_2", "limit_3", "queue_4",   "thread_5"};

/* The built-in names of synthetic_prog, in the order they are given (module, then scope,
 * then name). */
#define BUILTIN_JSON                                                                                                   \
    "{\"add_1\":\"add_values\",\"parse_1\":\"dateutil_parse\",\"attempt_2\":\"attempt\",\"limit_3\":\"threshold\","    \
    "\"pending_1\":\"ready\",\"price_2\":\"price_value\",\"queue_4\":\"results\",\"thread_5\":\"worker\"}"

typedef struct {
    GbTask task;
    GbProgram prog;
    TSParser *parser;
} NamingEnv;

static void nenv_open(NamingEnv *e, const char *pinned)
{
    gb_task_init(&e->task);
    e->task.id = gb_strdup("test/naming");
    e->task.source = gb_strdup(synthetic_prog);
    if (pinned) {
        char *p = gb_strdup(pinned);
        gb_array_push(&e->task.pinned, p);
    }
    e->parser = gb_parser_new();
    gb_program_from_task(&e->prog, &e->task);
    for (size_t i = 0; i < sizeof synthetic_names / sizeof *synthetic_names; i++)
        gb_program_add_synthetic(&e->prog, synthetic_names[i]);
}

static void nenv_close(NamingEnv *e)
{
    gb_program_destroy(&e->prog);
    ts_parser_delete(e->parser);
    gb_task_destroy(&e->task);
}

/* The renamed program parses, has no digits left in synthetic names it could rename, and
 * prints what the original printed. */
static void expect_valid_program(const char *src)
{
    unsigned row, col;
    TSParser *p = gb_parser_new();
    assert_true(gb_source_parses(p, src, strlen(src), &row, &col));
    ts_parser_delete(p);
    int s1, s2;
    char *want = op_run_python(synthetic_prog, &s1);
    char *got = op_run_python(src, &s2);
    assert_int_equal(s1, 0);
    if (s2 != 0 || strcmp(want, got) != 0) fail_msg("output changed:\n%s\nvs\n%s\nprogram:\n%s", got, want, src);
    free(want);
    free(got);
}

static void test_builtin_names_from_context(void **state)
{
    (void)state;
    NamingEnv e;
    nenv_open(&e, NULL);
    char *json = NULL;
    const char *mode = NULL;
    assert_true(gb_naming_apply(&e.prog, &e.task, e.parser, NULL, &json, &mode, NULL));
    assert_string_equal(mode, "builtin");
    assert_string_equal(json, BUILTIN_JSON);
    const char *src = e.prog.modules.items[0].source;
    assert_non_null(strstr(src, "from dateutil.parser import parse as dateutil_parse\n"));
    assert_non_null(strstr(src, "    while ready:\n        for attempt in range(1):\n"
                                "            total = add_values(total, price)\n"));
    assert_non_null(strstr(src, "    results = queue.Queue()\n    worker = threading.Thread(target=results.put"));
    for (const char *p = src; *p; p++) assert_false(*p >= '0' && *p <= '9' && p > src && (p[-1] == '_'));
    expect_valid_program(src);
    free(json);
    nenv_close(&e);
}

static void test_builtin_disambiguates_with_words(void **state)
{
    (void)state;
    /* every natural candidate of `attempt_1` is taken: words, never digits */
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("t");
    t.source = gb_strdup("def f(attempt, single_pass, trial, round, item, element, entry, attempt_value,\n"
                         "      current_attempt, attempt_item, local_attempt):\n"
                         "    for attempt_1 in range(1):\n"
                         "        attempt += attempt_1\n"
                         "    return attempt, single_pass, trial, round, item, element, entry\n");
    TSParser *parser = gb_parser_new();
    GbProgram prog;
    gb_program_from_task(&prog, &t);
    gb_program_add_synthetic(&prog, "attempt_1");
    char *json = NULL;
    const char *mode;
    assert_true(gb_naming_apply(&prog, &t, parser, NULL, &json, &mode, NULL));
    assert_string_equal(json, "{\"attempt_1\":\"inner_attempt\"}");
    free(json);
    /* nothing synthetic left to rename: false, no JSON */
    assert_false(gb_naming_apply(&prog, &t, parser, NULL, &json, &mode, NULL));
    assert_null(json);
    gb_program_destroy(&prog);
    ts_parser_delete(parser);
    gb_task_destroy(&t);
}

static void test_builtin_keeps_pinned_names(void **state)
{
    (void)state;
    NamingEnv e;
    nenv_open(&e, "queue_4");
    char *json = NULL;
    const char *mode;
    assert_true(gb_naming_apply(&e.prog, &e.task, e.parser, NULL, &json, &mode, NULL));
    assert_null(strstr(json, "queue_4"));
    assert_non_null(strstr(e.prog.modules.items[0].source, "queue_4 = queue.Queue()"));
    free(json);
    nenv_close(&e);
}

/* ---- LLM ---- */

typedef struct {
    GbTestServer server;
} LlmFixture;

static int llm_setup(void **state)
{
    LlmFixture *f = gb_calloc(1, sizeof *f);
    if (!gb_test_server_start(&f->server)) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int llm_teardown(void **state)
{
    LlmFixture *f = *state;
    gb_test_server_stop(&f->server);
    free(f);
    return 0;
}

/* Run the naming step against the server in its current mode. */
static bool run_llm(LlmFixture *f, NamingEnv *e, long timeout_ms, int retries, char **json, const char **mode,
                    char **llm_error)
{
    GbNamingConfig cfg;
    gb_naming_config_default(&cfg);
    cfg.url = f->server.url;
    cfg.model = "test-model";
    cfg.api_key = "sk-test";
    cfg.timeout_ms = timeout_ms;
    cfg.max_retries = retries;
    cfg.retry_base_ms = 5;
    return gb_naming_apply(&e->prog, &e->task, e->parser, &cfg, json, mode, llm_error);
}

static void test_llm_names_are_used(void **state)
{
    LlmFixture *f = *state;
    assert_true(gb_test_server_control(&f->server, "{\"mode\":\"names\"}"));
    NamingEnv e;
    nenv_open(&e, NULL);
    char *json = NULL, *err = NULL;
    const char *mode;
    assert_true(run_llm(f, &e, 5000, 0, &json, &mode, &err));
    assert_string_equal(mode, "llm");
    if (err) fail_msg("unexpected error: %s", err);
    const char *src = e.prog.modules.items[0].source;
    assert_non_null(strstr(src, "    while chosen_pending:\n        for chosen_attempt in range(1):\n"));
    assert_non_null(strstr(src, "from dateutil.parser import parse as chosen_parse\n"));
    assert_non_null(strstr(json, "\"thread_5\":\"chosen_thread\""));
    assert_int_equal(gb_test_server_stat(&f->server, "chat"), 1);
    char *auth = gb_test_server_stat_str(&f->server, "last_auth");
    assert_string_equal(auth, "Bearer sk-test");
    free(auth);
    expect_valid_program(src);
    free(json);
    nenv_close(&e);
}

static void test_llm_invalid_names_are_refused_one_by_one(void **state)
{
    LlmFixture *f = *state;
    /* keyword, digits, existing name, builtin, pinned, duplicate, not an identifier, unknown
     * key: refused; the two good names are applied; the rest get built-in names */
    assert_true(gb_test_server_control(
        &f->server,
        "{\"mode\":\"normal\",\"reply\":\"{\\\"add_1\\\": \\\"class\\\", \\\"pending_1\\\": \\\"flag2\\\", "
        "\\\"attempt_2\\\": \\\"total\\\", \\\"price_2\\\": \\\"len\\\", \\\"limit_3\\\": \\\"secret\\\", "
        "\\\"queue_4\\\": \\\"outbox\\\", \\\"thread_5\\\": \\\"outbox\\\", \\\"parse_1\\\": \\\"date-parse\\\", "
        "\\\"nosuch\\\": \\\"whatever\\\", \\\"attempt_2 \\\": \\\"x\\\"}\"}"));
    NamingEnv e;
    nenv_open(&e, "secret");
    char *json = NULL, *err = NULL;
    const char *mode;
    assert_true(run_llm(f, &e, 5000, 0, &json, &mode, &err));
    assert_string_equal(mode, "llm");
    assert_non_null(err);
    assert_non_null(strstr(err, "add_1 -> class (a keyword)"));
    assert_non_null(strstr(err, "pending_1 -> flag2 (a digit suffix)"));
    assert_non_null(strstr(err, "attempt_2 -> total (already used)"));
    assert_non_null(strstr(err, "price_2 -> len (a builtin)"));
    assert_non_null(strstr(err, "limit_3 -> secret (pinned by the tests)"));
    assert_non_null(strstr(err, "thread_5 -> outbox (already used)"));
    assert_non_null(strstr(err, "parse_1 -> date-parse (not an identifier)"));
    assert_non_null(strstr(json, "\"queue_4\":\"outbox\""));
    assert_non_null(strstr(json, "\"thread_5\":\"worker\""));
    assert_non_null(strstr(json, "\"pending_1\":\"ready\""));
    expect_valid_program(e.prog.modules.items[0].source);
    free(err);
    free(json);
    nenv_close(&e);
}

static void test_llm_reply_shapes(void **state)
{
    LlmFixture *f = *state;
    /* the reference tool's array shape, inside prose */
    assert_true(gb_test_server_control(
        &f->server, "{\"mode\":\"normal\",\"reply\":\"Sure! [{\\\"original name\\\": \\\"thread_5\\\", "
                    "\\\"variable name\\\": \\\"background_job\\\"}] Hope this helps.\"}"));
    NamingEnv e;
    nenv_open(&e, NULL);
    char *json = NULL, *err = NULL;
    const char *mode;
    assert_true(run_llm(f, &e, 5000, 0, &json, &mode, &err));
    assert_string_equal(mode, "llm");
    assert_non_null(strstr(json, "\"thread_5\":\"background_job\""));
    assert_non_null(strstr(json, "\"queue_4\":\"results\"")); /* not named by the model: built-in */
    free(err);
    free(json);
    nenv_close(&e);
}

/* Failure modes: the program is always renamed with built-in names, never lost. */
static void expect_fallback(LlmFixture *f, const char *control, long timeout_ms, int retries, const char *err_part)
{
    assert_true(gb_test_server_control(&f->server, control));
    NamingEnv e;
    nenv_open(&e, NULL);
    char *json = NULL, *err = NULL;
    const char *mode;
    assert_true(run_llm(f, &e, timeout_ms, retries, &json, &mode, &err));
    assert_string_equal(mode, "builtin");
    if (!err || !strstr(err, err_part)) fail_msg("%s: error '%s' lacks '%s'", control, err ? err : "(none)", err_part);
    assert_string_equal(json, BUILTIN_JSON);
    expect_valid_program(e.prog.modules.items[0].source);
    free(err);
    free(json);
    nenv_close(&e);
}

static void test_llm_failures_fall_back_to_builtin(void **state)
{
    LlmFixture *f = *state;
    expect_fallback(f, "{\"mode\":\"fail_then_ok\",\"count\":100}", 5000, 1, "500");
    expect_fallback(f, "{\"mode\":\"malformed\"}", 5000, 0, "JSON");
    expect_fallback(f, "{\"mode\":\"nonsense\"}", 5000, 0, "not JSON");
    expect_fallback(f, "{\"mode\":\"wrong_names\"}", 5000, 0, "not a synthetic name");
    expect_fallback(f, "{\"mode\":\"missing\"}", 5000, 0, "choices");
    expect_fallback(f, "{\"mode\":\"slow\",\"delay\":2}", 300, 0, "");
    assert_int_equal(gb_test_server_stat(&f->server, "chat"), 1); /* slow: one attempt, timed out */
}

/* A shared client (GbNamingConfig.client): its time budget caps every naming request
 * together. Against a slow server the first program spends it; the next ones fall back to
 * built-in names at once, without a request. */
static void test_llm_shared_client_budget(void **state)
{
    LlmFixture *f = *state;
    assert_true(gb_test_server_control(&f->server, "{\"mode\":\"slow\",\"delay\":2}"));
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = f->server.url;
    o.timeout_ms = 300;
    o.max_retries = 5;
    o.retry_base_ms = 1;
    o.budget_ms = 500;
    GbError herr;
    GbHttpClient *client = gb_http_client_new(&o, &herr);
    assert_non_null(client);
    GbNamingConfig cfg;
    gb_naming_config_default(&cfg);
    cfg.url = f->server.url;
    cfg.client = client;
    for (int k = 0; k < 3; k++) {
        NamingEnv e;
        nenv_open(&e, NULL);
        char *json = NULL, *err = NULL;
        const char *mode;
        assert_true(gb_naming_apply(&e.prog, &e.task, e.parser, &cfg, &json, &mode, &err));
        if (strcmp(mode, "llm") == 0)
            fail_msg("program %d named by the model (%ld requests, server saw %ld): %s", k,
                     gb_http_client_requests(client), (long)gb_test_server_stat(&f->server, "chat"), json ? json : "");
        assert_non_null(err);
        if (k > 0) assert_non_null(strstr(err, "time budget"));
        expect_valid_program(e.prog.modules.items[0].source);
        free(err);
        free(json);
        nenv_close(&e);
    }
    assert_true(gb_http_client_requests(client) <= 3); /* 300 + 200 ms, then nothing */
    gb_http_client_delete(client);
}

static void test_llm_retries_then_succeeds(void **state)
{
    LlmFixture *f = *state;
    assert_true(gb_test_server_control(
        &f->server, "{\"mode\":\"fail_then_ok\",\"count\":1,\"reply\":\"{\\\"thread_5\\\": \\\"helper_thread\\\"}\"}"));
    NamingEnv e;
    nenv_open(&e, NULL);
    char *json = NULL, *err = NULL;
    const char *mode;
    /* the 500 is retried, the second answer is used */
    assert_true(run_llm(f, &e, 5000, 2, &json, &mode, &err));
    assert_int_equal(gb_test_server_stat(&f->server, "chat"), 2);
    assert_string_equal(mode, "llm");
    assert_non_null(strstr(json, "\"thread_5\":\"helper_thread\""));
    free(err);
    free(json);
    nenv_close(&e);
}

static void test_llm_connection_refused(void **state)
{
    (void)state;
    NamingEnv e;
    nenv_open(&e, NULL);
    GbNamingConfig cfg;
    gb_naming_config_default(&cfg);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", gb_test_closed_port());
    cfg.url = url;
    char *json = NULL, *err = NULL;
    const char *mode;
    assert_true(gb_naming_apply(&e.prog, &e.task, e.parser, &cfg, &json, &mode, &err));
    assert_string_equal(mode, "builtin");
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot connect"));
    assert_non_null(strstr(json, "\"thread_5\":\"worker\""));
    free(err);
    free(json);
    nenv_close(&e);
}

int main(void)
{
    const struct CMUnitTest builtin[] = {
        cmocka_unit_test(test_builtin_names_from_context),
        cmocka_unit_test(test_builtin_disambiguates_with_words),
        cmocka_unit_test(test_builtin_keeps_pinned_names),
        cmocka_unit_test(test_llm_connection_refused),
    };
    const struct CMUnitTest llm[] = {
        cmocka_unit_test(test_llm_names_are_used),
        cmocka_unit_test(test_llm_invalid_names_are_refused_one_by_one),
        cmocka_unit_test(test_llm_reply_shapes),
        cmocka_unit_test(test_llm_failures_fall_back_to_builtin),
        cmocka_unit_test(test_llm_shared_client_budget),
        cmocka_unit_test(test_llm_retries_then_succeeds),
    };
    int failed = cmocka_run_group_tests_name("builtin", builtin, NULL, NULL);
    failed += cmocka_run_group_tests_name("llm", llm, llm_setup, llm_teardown);
    return failed;
}
