/* Embeddings: SHA-256 (cache keys), the built-in TF-IDF and structural embeddings, and the HTTP
 * embeddings (OpenAI /v1/embeddings and llama.cpp's /embedding with pooling) with batching and
 * the disk cache against tests/fakes/model_server.py on 127.0.0.1. */
#include "src/measure/embedding.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/base/sha256.h"
#include "tests/unit/helpers.h"
#include "tests/unit/test_server.h"

static GbTestServer server;
static TSParser *parser;

static int setup(void **state)
{
    (void)state;
    parser = gb_parser_new();
    return parser && gb_test_server_start(&server) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gb_test_server_stop(&server);
    ts_parser_delete(parser);
    return 0;
}

static void test_embed_sha256_vectors(void **state)
{
    (void)state;
    char hex[65];
    gb_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    gb_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    gb_sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', fed in uneven pieces */
    GbSha256 s;
    gb_sha256_init(&s);
    char buf[997];
    memset(buf, 'a', sizeof buf);
    size_t left = 1000000;
    while (left) {
        size_t k = left < sizeof buf ? left : sizeof buf;
        gb_sha256_update(&s, buf, k);
        left -= k;
    }
    unsigned char d[32];
    gb_sha256_final(&s, d);
    assert_int_equal(d[0], 0xcd);
    assert_int_equal(d[1], 0xc7);
    assert_int_equal(d[31], 0xd0);
}

static double dot(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t i = 0; i < d; i++) s += a[i] * b[i];
    return s;
}

static void test_embed_builtin_deterministic_normalised_and_discriminating(void **state)
{
    (void)state;
    const char *texts[] = {
        "def add(a, b):\n    return a + b\n",
        "def add(x, y):\n    # sum\n    return x + y\n",
        "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, v):\n"
        "        self.items.append(v)\n",
        "",
    };
    size_t dim = 256;
    double *a = gb_malloc(4 * dim * sizeof *a), *b = gb_malloc(4 * dim * sizeof *b);
    gb_embed_builtin(parser, texts, 4, dim, a);
    gb_embed_builtin(parser, texts, 4, dim, b);
    assert_memory_equal(a, b, 4 * dim * sizeof *a);
    for (size_t i = 0; i < 3; i++) assert_near(dot(a + i * dim, a + i * dim, dim), 1.0, 1e-12);
    assert_near(dot(a + 3 * dim, a + 3 * dim, dim), 0.0, 1e-12); /* no tokens: zero vector */
    /* the two adders are closer to each other than to the class */
    assert_true(dot(a, a + dim, dim) > dot(a, a + 2 * dim, dim));
    assert_true(dot(a, a + dim, dim) < 1.0);
    free(a);
    free(b);
}

static void test_embed_structural_sees_shape_not_names(void **state)
{
    (void)state;
    const char *texts[] = {
        /* 0 and 1: the same shape, other names and values */
        "def add(a, b):\n    total = a + b\n    return total\n",
        "def mul(x, y):\n    product = x * y\n    return product\n",
        /* 2: 0 with its statements wrapped in a loop and a try (what hardening does) */
        "def add(a, b):\n    for _ in range(1):\n        try:\n            total = a + b\n"
        "        except ValueError:\n            raise\n    return total\n",
        /* 3: another shape */
        "class Stack:\n    def __init__(self):\n        self.items = []\n",
        "",
    };
    size_t dim = 512;
    double *a = gb_malloc(5 * dim * sizeof *a), *b = gb_malloc(5 * dim * sizeof *b);
    gb_embed_structural(parser, texts, 5, dim, a);
    gb_embed_structural(parser, texts, 5, dim, b);
    assert_memory_equal(a, b, 5 * dim * sizeof *a);
    for (size_t i = 0; i < 4; i++) assert_near(dot(a + i * dim, a + i * dim, dim), 1.0, 1e-12);
    assert_near(dot(a + 4 * dim, a + 4 * dim, dim), 0.0, 1e-12);
    double same_shape = dot(a, a + dim, dim), wrapped = dot(a, a + 2 * dim, dim), other = dot(a, a + 3 * dim, dim);
    /* names and values do not count, except the one operator that differs (+ against *) */
    print_message("structural cosines: same shape %.4f, wrapped %.4f, other %.4f\n", same_shape, wrapped, other);
    assert_true(same_shape > 0.9);
    /* wrapping moves the program: its statements now sit deeper, under other parents */
    assert_true(wrapped < same_shape);
    assert_true(other < wrapped);
    /* the token embedding says the opposite: the wrapped copy keeps every token of 0 */
    gb_embed_builtin(parser, texts, 5, dim, b);
    assert_true(dot(b, b + 2 * dim, dim) > dot(b, b + dim, dim));
    free(a);
    free(b);
}

static size_t count_files(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *sub = gb_asprintf("%s/%s", dir, e->d_name);
        DIR *s = opendir(sub);
        if (s) {
            struct dirent *f;
            while ((f = readdir(s)))
                if (f->d_name[0] != '.') n++;
            closedir(s);
        }
        free(sub);
    }
    closedir(d);
    return n;
}

static GbHttpClient *client(void)
{
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = server.url;
    o.retry_base_ms = 1;
    o.retry_max_ms = 5;
    o.max_retries = 2;
    GbError err;
    GbHttpClient *c = gb_http_client_new(&o, &err);
    assert_non_null(c);
    return c;
}

static void test_embed_remote_batches_and_cache_makes_reruns_free(void **state)
{
    (void)state;
    assert_true(gb_test_server_control(&server, "{\"mode\":\"normal\",\"dim\":12}"));
    char dir[] = "/tmp/gb_embed_cache.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *cache = gb_asprintf("%s/nested/cache", dir); /* created on demand */
    const char *texts[] = {"a = 1\n", "b = 2\n", "c = 3\n", "d = 4\n", "e = 5\n"};
    GbHttpClient *c = client();
    double *v1, *v2, *v3;
    size_t d1, d2, d3;
    GbEmbedStats st;
    GbError err;
    assert_true(gb_embed_remote(c, "emb-a", texts, 5, 2, cache, &v1, &d1, &st, &err));
    assert_int_equal(d1, 12);
    assert_int_equal(st.fetched, 5);
    assert_int_equal(st.cached, 0);
    assert_int_equal(st.requests, 3); /* batches of 2, 2, 1 */
    assert_int_equal(gb_test_server_stat(&server, "embeddings"), 3);
    assert_int_equal(count_files(cache), 5);

    /* Second run: every vector from the cache, zero requests, identical vectors. */
    assert_true(gb_test_server_control(&server, "{\"mode\":\"normal\",\"dim\":12}")); /* resets counters */
    assert_true(gb_embed_remote(c, "emb-a", texts, 5, 2, cache, &v2, &d2, &st, &err));
    assert_int_equal(st.cached, 5);
    assert_int_equal(st.requests, 0);
    assert_int_equal(gb_test_server_stat(&server, "requests"), 0);
    assert_int_equal(d2, 12);
    assert_memory_equal(v1, v2, 5 * 12 * sizeof *v1);

    /* Another model is another key: fetched again. */
    assert_true(gb_embed_remote(c, "emb-b", texts, 2, 8, cache, &v3, &d3, &st, &err));
    assert_int_equal(st.fetched, 2);
    assert_int_equal(st.requests, 1);
    assert_int_equal(gb_test_server_stat(&server, "inputs"), 2);
    free(v3);

    /* A server error mid-way is reported; nothing is lost from the cache. */
    assert_true(gb_test_server_control(&server, "{\"mode\":\"unauthorized\"}"));
    const char *more[] = {"a = 1\n", "zz = 26\n"};
    assert_false(gb_embed_remote(c, "emb-a", more, 2, 4, cache, &v3, &d3, &st, &err));
    assert_non_null(strstr(err.msg, "invalid api key"));
    assert_int_equal(st.cached, 1);

    gb_http_client_delete(c);
    free(v1);
    free(v2);
    char *cmd = gb_asprintf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(cache);
}

static void test_embed_remote_without_cache_and_refused(void **state)
{
    (void)state;
    assert_true(gb_test_server_control(&server, "{\"mode\":\"normal\",\"dim\":4}"));
    const char *texts[] = {"x\n", "y\n", "z\n"};
    GbHttpClient *c = client();
    double *v;
    size_t d;
    GbEmbedStats st;
    GbError err;
    assert_true(gb_embed_remote(c, "m", texts, 3, 64, NULL, &v, &d, &st, &err));
    assert_int_equal(st.requests, 1);
    free(v);
    assert_true(gb_embed_remote(c, "m", texts, 3, 64, NULL, &v, &d, &st, &err));
    assert_int_equal(st.requests, 1); /* no cache: asked again */
    free(v);
    gb_http_client_delete(c);

    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", gb_test_closed_port());
    GbHttpOptions o;
    gb_http_options_default(&o);
    o.base_url = url;
    c = gb_http_client_new(&o, &err);
    assert_false(gb_embed_remote(c, "m", texts, 3, 64, NULL, &v, &d, &st, &err));
    assert_non_null(strstr(err.msg, "cannot connect"));
    gb_http_client_delete(c);
}

static void test_embed_llamacpp_pools_token_vectors(void **state)
{
    (void)state;
    const char *texts[] = {"def f(x):\n    return x + 1\n", "print('hello world')\n", "a = [1, 2, 3]\n"};
    GbHttpClient *c = client();
    double *srv, *mean, *last, *first, *flat;
    size_t d, rows[3];
    GbError err;
    /* the server's own mean pooling (/v1/embeddings, "hidden") is the reference */
    assert_true(gb_test_server_control(&server, "{\"embed\":\"hidden\",\"dim\":24}"));
    assert_true(gb_embed_batch(c, "m", texts, 3, &srv, &d, &err));
    assert_int_equal(d, 24);
    /* --pooling none on the server: one row per token, mean-pooled here: same direction */
    assert_true(gb_test_server_control(&server, "{\"pooling\":\"none\",\"dim\":24}"));
    assert_true(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_MEAN, &mean, &d, rows, &err));
    assert_int_equal(d, 24);
    assert_int_equal(rows[0], 10); /* def f ( x ) : return x + 1 */
    assert_int_equal(rows[2], 9);
    for (size_t i = 0; i < 3; i++) {
        double n = sqrt(dot(mean + i * d, mean + i * d, d));
        assert_near(dot(mean + i * d, srv + i * d, d) / n, 1.0, 1e-9);
    }
    /* last and first token: other vectors, and not the mean */
    assert_true(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_LAST, &last, &d, rows, &err));
    assert_true(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_FIRST, &first, &d, rows, &err));
    for (size_t i = 0; i < 3; i++) {
        double nl = sqrt(dot(last + i * d, last + i * d, d)), nm = sqrt(dot(mean + i * d, mean + i * d, d));
        assert_true(dot(last + i * d, mean + i * d, d) / (nl * nm) < 0.999);
        assert_true(fabs(last[i * d] - first[i * d]) > 1e-9);
    }
    /* server-side pooling: one row per text, used as it is whatever --pooling says */
    assert_true(gb_test_server_control(&server, "{\"pooling\":\"mean\",\"dim\":24}"));
    double *pooled;
    assert_true(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_LAST, &pooled, &d, rows, &err));
    assert_int_equal(rows[1], 1);
    assert_memory_equal(pooled, srv, 3 * d * sizeof *srv);
    assert_true(gb_test_server_control(&server, "{\"pooling\":\"flat\",\"dim\":24}"));
    assert_true(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_MEAN, &flat, &d, rows, &err));
    assert_memory_equal(flat, srv, 3 * d * sizeof *srv);
    /* one vector too few: a clear error */
    assert_true(gb_test_server_control(&server, "{\"mode\":\"nonsense\",\"pooling\":\"none\"}"));
    double *bad;
    assert_false(gb_embed_llamacpp_batch(c, "m", texts, 3, GB_POOLING_MEAN, &bad, &d, rows, &err));
    assert_non_null(strstr(err.msg, "/embedding: asked for 3 embeddings, the reply has 2"));
    free(srv);
    free(mean);
    free(last);
    free(first);
    free(pooled);
    free(flat);
    gb_http_client_delete(c);
}

static void test_embed_llamacpp_cache_is_keyed_on_pooling(void **state)
{
    (void)state;
    assert_true(gb_test_server_control(&server, "{\"pooling\":\"none\",\"dim\":8}"));
    char dir[] = "/tmp/gb_embed_cache.XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *texts[] = {"x = 1\n", "y = [x]\n"};
    GbHttpClient *c = client();
    double *v1, *v2, *v3;
    size_t d;
    GbEmbedStats st;
    GbError err;
    assert_true(
        gb_embed_remote_api(c, GB_EMBED_API_LLAMACPP, GB_POOLING_MEAN, "m", texts, 2, 8, dir, &v1, &d, &st, &err));
    assert_int_equal(st.fetched, 2);
    assert_int_equal(st.server_pooled, 0);
    assert_int_equal(st.token_rows, 3 + 5);
    assert_true(
        gb_embed_remote_api(c, GB_EMBED_API_LLAMACPP, GB_POOLING_MEAN, "m", texts, 2, 8, dir, &v2, &d, &st, &err));
    assert_int_equal(st.cached, 2);
    assert_memory_equal(v1, v2, 2 * d * sizeof *v1);
    /* another pooling is another vector: not taken from the cache */
    assert_true(
        gb_embed_remote_api(c, GB_EMBED_API_LLAMACPP, GB_POOLING_LAST, "m", texts, 2, 8, dir, &v3, &d, &st, &err));
    assert_int_equal(st.cached, 0);
    assert_int_equal(st.fetched, 2);
    assert_true(memcmp(v1, v3, 2 * d * sizeof *v1) != 0);
    free(v1);
    free(v2);
    free(v3);
    gb_http_client_delete(c);
    char *cmd = gb_asprintf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

static void test_embed_default_cache_dir(void **state)
{
    (void)state;
    char *old = getenv("XDG_CACHE_HOME") ? gb_strdup(getenv("XDG_CACHE_HOME")) : NULL;
    setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    char *d = gb_embed_default_cache_dir();
    assert_string_equal(d, "/tmp/xdg/genebench/embeddings");
    free(d);
    unsetenv("XDG_CACHE_HOME");
    d = gb_embed_default_cache_dir();
    if (getenv("HOME")) assert_non_null(strstr(d, "/.cache/genebench/embeddings"));
    free(d);
    if (old) setenv("XDG_CACHE_HOME", old, 1);
    free(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embed_sha256_vectors),
        cmocka_unit_test(test_embed_builtin_deterministic_normalised_and_discriminating),
        cmocka_unit_test(test_embed_structural_sees_shape_not_names),
        cmocka_unit_test(test_embed_remote_batches_and_cache_makes_reruns_free),
        cmocka_unit_test(test_embed_remote_without_cache_and_refused),
        cmocka_unit_test(test_embed_llamacpp_pools_token_vectors),
        cmocka_unit_test(test_embed_llamacpp_cache_is_keyed_on_pooling),
        cmocka_unit_test(test_embed_default_cache_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
