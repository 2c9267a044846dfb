/* The HTTP client against a real server on 127.0.0.1 (tests/fakes/model_server.py) in each of its
 * modes, and against a port where nothing listens. */
#include "src/base/http.h"

#include "tests/unit/helpers.h"
#include "tests/unit/test_server.h"

static GbTestServer server;

static int setup(void **state)
{
    (void)state;
    return gb_test_server_start(&server) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gb_test_server_stop(&server);
    return 0;
}

static GbHttpClient *client(const char *url, const char *key, long timeout_ms, int retries)
{
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = url;
    o.api_key = key;
    o.timeout_ms = timeout_ms;
    o.max_retries = retries;
    o.retry_base_ms = 1;
    o.retry_max_ms = 5;
    GbError err;
    GbHttpClient *c = gb_http_client_new(&o, &err);
    assert_non_null(c);
    return c;
}

static void mode(const char *json)
{
    assert_true(gb_test_server_control(&server, json));
}

static void test_http_chat_normal_sends_model_key_seed(void **state)
{
    (void)state;
    mode("{\"mode\":\"normal\"}");
    char url[96];
    snprintf(url, sizeof url, "%s/v1/", server.url); /* a trailing /v1/ is tolerated */
    GbHttpClient *c = client(url, "sk-test", 5000, 2);
    assert_string_equal(gb_http_client_base(c), server.url);
    char *reply = NULL;
    GbError err;
    assert_true(gb_llm_chat(c, "tiny-model", "You name variables.", "name these", 7, &reply, &err));
    assert_string_equal(reply, "echo: name these");
    free(reply);
    assert_int_equal(gb_test_server_stat(&server, "chat"), 1);
    assert_int_equal(gb_test_server_stat(&server, "last_seed"), 7);
    char *auth = gb_test_server_stat_str(&server, "last_auth");
    assert_string_equal(auth, "Bearer sk-test");
    free(auth);
    char *model = gb_test_server_stat_str(&server, "last_model");
    assert_string_equal(model, "tiny-model");
    free(model);
    assert_int_equal(gb_http_client_requests(c), 1);
    gb_http_client_delete(c);
}

static void test_http_embeddings_sorted_by_index(void **state)
{
    (void)state;
    mode("{\"mode\":\"normal\",\"dim\":8}");
    GbHttpClient *c = client(server.url, NULL, 5000, 2);
    const char *texts[] = {"def f(x):\n    return x\n", "x = 1\n", "print('hello')\n"};
    double *v = NULL;
    size_t dim = 0;
    GbError err;
    assert_true(gb_embed_batch(c, "emb", texts, 3, &v, &dim, &err));
    assert_int_equal(dim, 8);
    /* The server sends data in reverse order; rows must follow the inputs: embedding the
     * texts one at a time gives the same rows. */
    for (size_t i = 0; i < 3; i++) {
        double *one = NULL;
        size_t d1 = 0;
        assert_true(gb_embed_batch(c, "emb", &texts[i], 1, &one, &d1, &err));
        assert_int_equal(d1, 8);
        for (size_t t = 0; t < 8; t++) assert_near(v[i * 8 + t], one[t], 1e-12);
        free(one);
    }
    char *fmt = gb_test_server_stat_str(&server, "last_encoding_format");
    assert_string_equal(fmt, "float");
    free(fmt);
    assert_null(gb_test_server_stat_str(&server, "last_auth")); /* no key, no header */
    free(v);
    gb_http_client_delete(c);
}

static void test_http_500_then_ok_is_retried(void **state)
{
    (void)state;
    mode("{\"mode\":\"fail_then_ok\",\"count\":2}");
    GbHttpClient *c = client(server.url, "k", 5000, 3);
    char *reply = NULL;
    GbError err;
    assert_true(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_string_equal(reply, "echo: hi");
    free(reply);
    assert_int_equal(gb_http_client_requests(c), 3);
    assert_int_equal(gb_test_server_stat(&server, "requests"), 3);
    gb_http_client_delete(c);
}

static void test_http_500_gives_up_after_retries_with_server_message(void **state)
{
    (void)state;
    mode("{\"mode\":\"fail_then_ok\",\"count\":100}");
    GbHttpClient *c = client(server.url, "k", 5000, 2);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_null(reply);
    assert_non_null(strstr(err.msg, "HTTP 500"));
    assert_non_null(strstr(err.msg, "model overloaded, try again"));
    assert_non_null(strstr(err.msg, "after 3 attempts"));
    assert_int_equal(gb_test_server_stat(&server, "requests"), 3);
    gb_http_client_delete(c);
}

static void test_http_429_is_retried(void **state)
{
    (void)state;
    mode("{\"mode\":\"429\",\"count\":1}");
    GbHttpClient *c = client(server.url, "k", 5000, 2);
    const char *texts[] = {"a"};
    double *v = NULL;
    size_t dim = 0;
    GbError err;
    assert_true(gb_embed_batch(c, "m", texts, 1, &v, &dim, &err));
    free(v);
    assert_int_equal(gb_test_server_stat(&server, "requests"), 2);
    mode("{\"mode\":\"429\",\"count\":100}");
    assert_false(gb_embed_batch(c, "m", texts, 1, &v, &dim, &err));
    assert_non_null(strstr(err.msg, "HTTP 429"));
    assert_non_null(strstr(err.msg, "rate limit reached"));
    gb_http_client_delete(c);
}

/* A Retry-After larger than a long: honoured up to the back-off cap, without overflow (UBSan). */
static void test_http_huge_retry_after_is_capped(void **state)
{
    (void)state;
    mode("{\"mode\":\"429_huge\",\"count\":1}");
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = server.url;
    o.max_retries = 2;
    o.retry_base_ms = 1;
    o.retry_max_ms = 5;
    GbError err;
    GbHttpClient *c = gb_http_client_new(&o, &err);
    assert_non_null(c);
    const char *texts[] = {"a"};
    double *v = NULL;
    size_t dim = 0;
    double t0 = gb_now();
    assert_true(gb_embed_batch(c, "m", texts, 1, &v, &dim, &err));
    assert_true(gb_now() - t0 < 5.0);
    free(v);
    assert_int_equal(gb_test_server_stat(&server, "requests"), 2);
    gb_http_client_delete(c);
}

/* Per-request budgets (eval's): one call's budget is its own, so calls one after the other (or
 * at once, from several threads) each get the whole of it; with no client budget nothing adds
 * up across them. */
static void test_http_request_budget_is_per_call(void **state)
{
    (void)state;
    mode("{\"mode\":\"slow\",\"delay\":0.4}");
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = server.url;
    o.timeout_ms = 5000;
    o.max_retries = 0;
    o.budget_ms = -1;
    o.request_budget_ms = 1500;
    GbError err;
    GbHttpClient *c = gb_http_client_new(&o, &err);
    assert_non_null(c);
    for (int k = 0; k < 5; k++) { /* 5 x 0.4 s: more than one budget in all, each call within its own */
        char *reply = NULL;
        if (!gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err)) fail_msg("call %d: %s", k, err.msg);
        free(reply);
    }
    mode("{\"mode\":\"slow\",\"delay\":3}");
    char *reply = NULL;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "timeout"));
    gb_http_client_delete(c);
}

static void test_http_slow_server_times_out(void **state)
{
    (void)state;
    mode("{\"mode\":\"slow\",\"delay\":3}");
    GbHttpClient *c = client(server.url, "k", 200, 1);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "timeout"));
    assert_int_equal(gb_http_client_requests(c), 2); /* a timeout is retried */
    gb_http_client_delete(c);
}

/* A reply larger than max_reply_bytes is refused while it arrives, not read whole. */
static void test_http_huge_reply_is_refused(void **state)
{
    (void)state;
    mode("{\"mode\":\"huge\",\"count\":50000000}");
    GbHttpClient *c = client(server.url, "k", 20000, 3);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "larger than 16777216 bytes"));
    assert_int_equal(gb_http_client_requests(c), 1); /* not retried */
    gb_http_client_delete(c);
}

/* A slow server: the client's budget bounds the time of all requests and retries together,
 * and a request after the budget is spent fails at once without reaching the server. */
static void test_http_budget_caps_a_slow_server(void **state)
{
    (void)state;
    mode("{\"mode\":\"slow\",\"delay\":2}");
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = server.url;
    o.timeout_ms = 400;
    o.max_retries = 20;
    o.retry_base_ms = 1;
    o.retry_max_ms = 5;
    o.budget_ms = 1000;
    GbError err;
    GbHttpClient *c = gb_http_client_new(&o, &err);
    assert_non_null(c);
    char *reply = NULL;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "time budget of 1 s"));
    long sent = gb_http_client_requests(c);
    assert_true(sent >= 2 && sent <= 4); /* 400 + 400 + what is left, not 21 attempts */
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "time budget of 1 s for requests to this server is spent"));
    assert_int_equal(gb_http_client_requests(c), sent);
    gb_http_client_delete(c);
}

static void test_http_malformed_json_is_an_error_not_retried(void **state)
{
    (void)state;
    mode("{\"mode\":\"malformed\"}");
    GbHttpClient *c = client(server.url, "k", 5000, 3);
    const char *texts[] = {"a", "b"};
    double *v = NULL;
    size_t dim = 0;
    GbError err;
    assert_false(gb_embed_batch(c, "m", texts, 2, &v, &dim, &err));
    assert_null(v);
    assert_non_null(strstr(err.msg, "malformed JSON"));
    assert_int_equal(gb_http_client_requests(c), 1);
    gb_http_client_delete(c);
}

static void test_http_missing_fields(void **state)
{
    (void)state;
    mode("{\"mode\":\"missing\"}");
    GbHttpClient *c = client(server.url, "k", 5000, 0);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", "s", "u", 1, &reply, &err));
    assert_non_null(strstr(err.msg, "no \"choices\""));
    const char *texts[] = {"a"};
    double *v = NULL;
    size_t dim = 0;
    assert_false(gb_embed_batch(c, "m", texts, 1, &v, &dim, &err));
    assert_non_null(strstr(err.msg, "no \"data\""));
    gb_http_client_delete(c);
}

static void test_http_nonsense_replies(void **state)
{
    (void)state;
    GbHttpClient *c = client(server.url, "k", 5000, 0);
    GbError err;
    /* Embeddings: one vector short. */
    mode("{\"mode\":\"nonsense\"}");
    const char *texts[] = {"a", "b", "c"};
    double *v = NULL;
    size_t dim = 0;
    assert_false(gb_embed_batch(c, "m", texts, 3, &v, &dim, &err));
    assert_non_null(strstr(err.msg, "asked for 3 embeddings, the reply has 2"));
    /* Chat: prose or invalid names come back verbatim; judging them is the caller's job. */
    char *reply = NULL;
    assert_true(gb_llm_chat(c, "m", NULL, "give names", -1, &reply, &err));
    assert_non_null(strstr(reply, "cannot rename"));
    free(reply);
    mode("{\"mode\":\"wrong_names\"}");
    assert_true(gb_llm_chat(c, "m", NULL, "give names", -1, &reply, &err));
    assert_non_null(strstr(reply, "\"class\""));
    free(reply);
    gb_http_client_delete(c);
}

static void test_http_unauthorized_is_not_retried(void **state)
{
    (void)state;
    mode("{\"mode\":\"unauthorized\"}");
    GbHttpClient *c = client(server.url, "wrong", 5000, 3);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "HTTP 401: invalid api key"));
    assert_int_equal(gb_http_client_requests(c), 1);
    gb_http_client_delete(c);
}

static void test_http_connection_refused(void **state)
{
    (void)state;
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", gb_test_closed_port());
    GbHttpClient *c = client(url, "k", 2000, 3);
    char *reply = NULL;
    GbError err;
    assert_false(gb_llm_chat(c, "m", NULL, "hi", -1, &reply, &err));
    assert_non_null(strstr(err.msg, "cannot connect"));
    assert_non_null(strstr(err.msg, "is the server running?"));
    assert_int_equal(gb_http_client_requests(c), 1);
    gb_http_client_delete(c);
}

static void test_http_bad_urls_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {"", "127.0.0.1:8080", "ftp://x"};
    for (size_t i = 0; i < 3; i++) {
        GbHttpOptions o;
        gb_http_options_default(&o);
        o.base_url = bad[i];
        GbError err;
        assert_null(gb_http_client_new(&o, &err));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_chat_normal_sends_model_key_seed),
        cmocka_unit_test(test_http_embeddings_sorted_by_index),
        cmocka_unit_test(test_http_500_then_ok_is_retried),
        cmocka_unit_test(test_http_500_gives_up_after_retries_with_server_message),
        cmocka_unit_test(test_http_429_is_retried),
        cmocka_unit_test(test_http_huge_retry_after_is_capped),
        cmocka_unit_test(test_http_request_budget_is_per_call),
        cmocka_unit_test(test_http_slow_server_times_out),
        cmocka_unit_test(test_http_huge_reply_is_refused),
        cmocka_unit_test(test_http_budget_caps_a_slow_server),
        cmocka_unit_test(test_http_malformed_json_is_an_error_not_retried),
        cmocka_unit_test(test_http_missing_fields),
        cmocka_unit_test(test_http_nonsense_replies),
        cmocka_unit_test(test_http_unauthorized_is_not_retried),
        cmocka_unit_test(test_http_connection_refused),
        cmocka_unit_test(test_http_bad_urls_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
