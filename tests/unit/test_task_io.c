/* Canonical task I/O: round trips, unknown fields, bad input at the function level,
 * benchmark files (syntax errors, duplicates, empty files) and the Python-compatible
 * JSON serialiser used by the exporters. */
#include "src/bench/task_io.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/bench/pyjson.h"
#include "tests/unit/helpers.h"

static char *tmp_dir(void)
{
    char tmpl[] = "/tmp/gb_test_task_io_XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    return gb_strdup(d);
}

static char *write_tmp(const char *dir, const char *name, const char *text, size_t len)
{
    char *path = gb_asprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    return path;
}

static void rm_dir(char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char *p = gb_asprintf("%s/%s", dir, e->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

static void build_full_task(GbTask *t, GbTestKind kind)
{
    gb_task_init(t);
    t->id = gb_strdup(kind == GB_TESTS_STDIO ? "io/1" : "demo/\"q\"");
    t->source = gb_strdup("from helpers import twice\n\ndef f(x):\n    return twice(x) + 1  # é ✓\n");
    t->kind = kind;
    if (kind != GB_TESTS_STDIO) t->entry_point = gb_strdup("f");
    if (kind == GB_TESTS_ASSERT) t->test_code = gb_strdup("assert f(2) == 5\n");
    if (kind == GB_TESTS_UNITTEST) {
        t->test_code = gb_strdup("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        "
                                 "self.assertEqual(f(1), 3)\n");
        gb_array_push(&t->test_classes, gb_strdup("T"));
        gb_array_push(&t->test_classes, gb_strdup("U"));
    }
    if (kind == GB_TESTS_STDIO) {
        GbStdioCase c1 = {gb_strdup("1 2\n"), gb_strdup("3\n")};
        GbStdioCase c2 = {gb_strdup(""), gb_strdup("\t\n")};
        gb_array_push(&t->cases, c1);
        gb_array_push(&t->cases, c2);
    }
    gb_task_set_file(t, "helpers.py", "def twice(x):\n    return 2 * x\n");
    gb_task_set_file(t, "a/util.py", "X = 1\n");
    if (kind != GB_TESTS_STDIO) gb_array_push(&t->pinned, gb_strdup("f"));
    free(t->meta_json);
    t->meta_json = gb_strdup("{\"format\":\"demo\",\"n\":[1,2.5,null]}");
    gb_task_set_field(t, "zeta", "{\"deep\":[true,false]}");
    gb_task_set_field(t, "alpha", "\"last\"");
}

static void assert_tasks_equal(const GbTask *a, const GbTask *b)
{
    assert_string_equal(a->id, b->id);
    assert_string_equal(a->source, b->source);
    if (a->entry_point || b->entry_point) assert_string_equal(a->entry_point, b->entry_point);
    assert_int_equal(a->kind, b->kind);
    if (a->test_code || b->test_code) assert_string_equal(a->test_code, b->test_code);
    assert_int_equal(a->test_classes.len, b->test_classes.len);
    for (size_t i = 0; i < a->test_classes.len; i++)
        assert_string_equal(a->test_classes.items[i], b->test_classes.items[i]);
    assert_int_equal(a->cases.len, b->cases.len);
    for (size_t i = 0; i < a->cases.len; i++) {
        assert_string_equal(a->cases.items[i].stdin_text, b->cases.items[i].stdin_text);
        assert_string_equal(a->cases.items[i].stdout_text, b->cases.items[i].stdout_text);
    }
    assert_int_equal(a->extra_files.len, b->extra_files.len);
    for (size_t i = 0; i < a->extra_files.len; i++) {
        assert_string_equal(a->extra_files.items[i].path, b->extra_files.items[i].path);
        assert_string_equal(a->extra_files.items[i].source, b->extra_files.items[i].source);
    }
    assert_int_equal(a->pinned.len, b->pinned.len);
    for (size_t i = 0; i < a->pinned.len; i++) assert_string_equal(a->pinned.items[i], b->pinned.items[i]);
    assert_string_equal(a->meta_json, b->meta_json);
    assert_int_equal(a->fields.len, b->fields.len);
    for (size_t i = 0; i < a->fields.len; i++) {
        assert_string_equal(a->fields.items[i].key, b->fields.items[i].key);
        assert_string_equal(a->fields.items[i].json, b->fields.items[i].json);
    }
}

static void test_task_round_trip_every_kind(void **state)
{
    (void)state;
    GbTestKind kinds[] = {GB_TESTS_ASSERT, GB_TESTS_UNITTEST, GB_TESTS_STDIO};
    for (size_t k = 0; k < 3; k++) {
        GbTask t, back;
        build_full_task(&t, kinds[k]);
        char *line = gb_task_to_json(&t);
        assert_null(strchr(line, '\n'));
        GbError err = {{0}};
        assert_true(gb_task_from_json(line, &back, &err));
        assert_tasks_equal(&t, &back);
        char *again = gb_task_to_json(&back);
        assert_string_equal(line, again);
        free(again);
        free(line);
        gb_task_destroy(&t);
        gb_task_destroy(&back);
    }
}

static void test_task_canonical_key_order(void **state)
{
    (void)state;
    GbTask t;
    build_full_task(&t, GB_TESTS_UNITTEST);
    char *line = gb_task_to_json(&t);
    const char *keys[] = {"{\"id\":",
                          ",\"source\":",
                          ",\"entry_point\":",
                          ",\"tests\":{\"kind\":\"unittest\",\"code\":",
                          ",\"classes\":[\"T\",\"U\"]}",
                          ",\"extra_files\":{\"a/util.py\":",
                          ",\"helpers.py\":",
                          ",\"pinned\":[\"f\"]",
                          ",\"meta\":{\"format\":\"demo\"",
                          ",\"zeta\":{\"deep\":[true,false]}",
                          ",\"alpha\":\"last\"}"};
    const char *pos = line;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *p = strstr(pos, keys[i]);
        if (!p) print_error("key %s not found in order in %s\n", keys[i], line);
        assert_non_null(p);
        pos = p + 1;
    }
    assert_true(strncmp(line, "{\"id\":", 6) == 0);
    free(line);
    gb_task_destroy(&t);
}

static void test_task_unknown_fields_kept_verbatim(void **state)
{
    (void)state;
    const char *line = "{\"z_first\": [1.10, 2e3 , {\"k\" : \"v\"}], \"id\":\"u/1\",\"source\":\"x = 1\\n\","
                       "\"middle\":null,\"tests\":{\"kind\":\"assert\",\"code\":\"assert x == 1\\n\"},"
                       "\"meta\": {\"a\": 1.50},\"last\":\"\\u00e9\"}";
    GbTask t;
    GbError err = {{0}};
    assert_true(gb_task_from_json(line, &t, &err));
    assert_int_equal(t.fields.len, 3);
    assert_string_equal(t.fields.items[0].key, "z_first");
    assert_string_equal(t.fields.items[0].json, "[1.10, 2e3 , {\"k\" : \"v\"}]");
    assert_string_equal(t.fields.items[1].key, "middle");
    assert_string_equal(t.fields.items[1].json, "null");
    assert_string_equal(t.fields.items[2].key, "last");
    assert_string_equal(t.fields.items[2].json, "\"\\u00e9\"");
    assert_string_equal(t.meta_json, "{\"a\": 1.50}");
    assert_null(t.entry_point);
    char *out = gb_task_to_json(&t);
    assert_non_null(strstr(out, ",\"meta\":{\"a\": 1.50},\"z_first\":[1.10, 2e3 , {\"k\" : \"v\"}],\"middle\":null,"
                                "\"last\":\"\\u00e9\"}"));
    assert_non_null(strstr(out, "\"entry_point\":null"));
    free(out);
    gb_task_destroy(&t);
}

typedef struct {
    const char *name;
    const char *line;
    const char *message; /* substring of the error */
    const char *id;      /* id kept for the message, or NULL */
} BadCase;

static const BadCase bad_cases[] = {
    {"malformed json", "{\"id\": \"b/1\", \"source\": ", "malformed JSON", NULL},
    {"not an object", "[1, 2]", "must be a JSON object", NULL},
    {"missing id", "{\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}", "missing field \"id\"",
     NULL},
    {"empty id", "{\"id\":\"\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}", "\"id\" is empty",
     NULL},
    {"missing source", "{\"id\":\"b/2\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}", "missing field \"source\"",
     "b/2"},
    {"missing tests", "{\"id\":\"b/3\",\"source\":\"x=1\"}", "missing field \"tests\"", "b/3"},
    {"source not a string", "{\"id\":\"b/4\",\"source\":12,\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}",
     "field \"source\" must be a string, got an integer", "b/4"},
    {"id not a string", "{\"id\":7,\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}",
     "field \"id\" must be a string", NULL},
    {"entry point wrong type",
     "{\"id\":\"b/5\",\"source\":\"x\",\"entry_point\":[],\"tests\":{\"kind\":\"assert\","
     "\"code\":\"pass\"}}",
     "\"entry_point\" must be a string or null", "b/5"},
    {"tests not an object", "{\"id\":\"b/6\",\"source\":\"x\",\"tests\":\"assert x\"}",
     "field \"tests\" must be an object, got a string", "b/6"},
    {"bad kind", "{\"id\":\"b/7\",\"source\":\"x\",\"tests\":{\"kind\":\"pytest\",\"code\":\"pass\"}}",
     "\"tests.kind\" must be", "b/7"},
    {"missing code", "{\"id\":\"b/8\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\"}}",
     "missing field \"tests.code\"", "b/8"},
    {"classes missing", "{\"id\":\"b/9\",\"source\":\"x\",\"tests\":{\"kind\":\"unittest\",\"code\":\"pass\"}}",
     "missing field \"tests.classes\"", "b/9"},
    {"classes item wrong",
     "{\"id\":\"b/10\",\"source\":\"x\",\"tests\":{\"kind\":\"unittest\",\"code\":\"pass\","
     "\"classes\":[\"A\",3]}}",
     "\"tests.classes[1]\" must be a string", "b/10"},
    {"cases not array", "{\"id\":\"b/11\",\"source\":\"x\",\"tests\":{\"kind\":\"stdio\",\"cases\":{}}}",
     "\"tests.cases\" must be an array", "b/11"},
    {"case without stdout",
     "{\"id\":\"b/12\",\"source\":\"x\",\"tests\":{\"kind\":\"stdio\",\"cases\":[{\"stdin\":\"\"}]}}",
     "missing field \"tests.cases[0].stdout\"", "b/12"},
    {"empty cases", "{\"id\":\"b/13\",\"source\":\"x\",\"tests\":{\"kind\":\"stdio\",\"cases\":[]}}",
     "\"tests.cases\" is empty", "b/13"},
    {"unknown tests key",
     "{\"id\":\"b/14\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\",\"cases\":[]}}",
     "unknown field \"tests.cases\"", "b/14"},
    {"extra file not a string",
     "{\"id\":\"b/15\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"},"
     "\"extra_files\":{\"h.py\":1}}",
     "\"extra_files.h.py\" must be a string", "b/15"},
    {"extra file escapes",
     "{\"id\":\"b/16\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"},"
     "\"extra_files\":{\"../h.py\":\"\"}}",
     "not a relative module path", "b/16"},
    {"pinned not array",
     "{\"id\":\"b/17\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"},"
     "\"pinned\":\"f\"}",
     "\"pinned\" must be an array", "b/17"},
    {"meta not object",
     "{\"id\":\"b/18\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"},\"meta\":[]}",
     "\"meta\" must be an object", "b/18"},
    {"duplicate key",
     "{\"id\":\"b/19\",\"id\":\"b/20\",\"source\":\"x\",\"tests\":{\"kind\":\"assert\",\"code\":\"p\"}}", "duplicate",
     NULL},
    {"non-utf8", "{\"id\":\"b/21\",\"source\":\"x = '\xff'\",\"tests\":{\"kind\":\"assert\",\"code\":\"pass\"}}",
     "invalid UTF-8: byte 0xff at column 29", NULL},
};

static void test_task_from_json_bad_input(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const BadCase *c = &bad_cases[i];
        GbTask t;
        GbError err = {{0}};
        bool ok = gb_task_from_json(c->line, &t, &err);
        if (ok || !strstr(err.msg, c->message)) {
            print_error("case '%s': ok=%d message '%s', expected '%s'\n", c->name, ok, err.msg, c->message);
            fail();
        }
        if (c->id) {
            assert_non_null(t.id);
            assert_string_equal(t.id, c->id);
        }
        gb_task_destroy(&t);
    }
}

static const char *good_line(const char *id, const char *source)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "{\"id\":\"%s\",\"source\":\"%s\",\"entry_point\":\"f\",\"tests\":{\"kind\":\"assert\",\"code\":"
             "\"assert f(1) == 2\\n\"}}\n",
             id, source);
    return buf;
}

static void test_bench_read_reports_each_bad_line(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, good_line("ok/1", "def f(x):\\n    return x + 1\\n"));      /* line 1 */
    gb_str_append(&s, "{\"id\": \"bad/json\", \"source\": \n");                   /* line 2 */
    gb_str_append(&s, "\n");                                                      /* line 3: blank */
    gb_str_append(&s, good_line("bad/syntax", "def f(x)\\n    return x + 1\\n")); /* line 4 */
    gb_str_append(&s, good_line("ok/1", "def f(x):\\n    return x + 2\\n"));      /* line 5: dup */
    gb_str_append(&s, "{\"id\":\"bad/utf8\",\"source\":\"# \xc3\x28\"}\n");       /* line 6 */
    gb_str_append(&s, "{\"id\":\"bad/missing\",\"source\":\"x = 1\\n\"}\r\n");    /* line 7 */
    gb_str_append(&s, good_line("ok/2", "def f(x):\\n    return 2 * x\\n"));      /* line 8 */
    char *path = write_tmp(dir, "b.jsonl", s.data, s.len);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);

    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_bench_read(path, &b, &d));
    assert_int_equal(b.tasks.len, 2);
    assert_string_equal(b.tasks.items[0].id, "ok/1");
    assert_int_equal(b.tasks.items[0].line, 1);
    assert_string_equal(b.tasks.items[1].id, "ok/2");
    assert_int_equal(b.tasks.items[1].line, 8);
    /* pinned was absent: computed */
    assert_int_equal(b.tasks.items[1].pinned.len, 1);
    assert_string_equal(b.tasks.items[1].pinned.items[0], "f");

    const char *expected[] = {":2: task bad/json: malformed JSON",
                              ":4: task bad/syntax: Python syntax error in source (main.py) at line 1, column",
                              ":5: task ok/1: duplicate id (first on line 1)", ":6: task bad/utf8: invalid UTF-8",
                              ":7: task bad/missing: missing field \"tests\""};
    assert_int_equal(d.messages.len, 5);
    for (size_t i = 0; i < 5; i++) {
        if (strncmp(d.messages.items[i], path, strlen(path)) != 0 || !strstr(d.messages.items[i], expected[i])) {
            print_error("message %zu: '%s', expected '%s'\n", i, d.messages.items[i], expected[i]);
            fail();
        }
    }
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(before.st_size, after.st_size);
    assert_int_equal(before.st_mtime, after.st_mtime);
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    gb_str_destroy(&s);
    free(path);
    rm_dir(dir);
}

static void test_bench_read_skips_byte_order_mark(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "\xef\xbb\xbf");
    gb_str_append(&s, good_line("bom/1", "def f(x):\\n    return x + 1\\n"));
    char *path = write_tmp(dir, "bom.jsonl", s.data, s.len);
    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_bench_read(path, &b, &d));
    assert_int_equal(d.messages.len, 0);
    assert_int_equal(b.tasks.len, 1);
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    gb_str_destroy(&s);
    free(path);
    rm_dir(dir);
}

static void test_bench_read_syntax_error_in_extra_file_and_tests(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    const char *text =
        "{\"id\":\"x/1\",\"source\":\"import h\\n\",\"tests\":{\"kind\":\"assert\",\"code\":\"assert h.g() == 1\\n\"},"
        "\"extra_files\":{\"h.py\":\"def g():\\n    return (1\\n\"}}\n"
        "{\"id\":\"x/2\",\"source\":\"x = 1\\n\",\"tests\":{\"kind\":\"assert\",\"code\":\"assert x ==\\n\"}}\n";
    char *path = write_tmp(dir, "s.jsonl", text, strlen(text));
    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_bench_read(path, &b, &d));
    assert_int_equal(b.tasks.len, 0);
    assert_int_equal(d.messages.len, 2);
    assert_non_null(strstr(d.messages.items[0], ":1: task x/1: Python syntax error in extra file h.py at line"));
    assert_non_null(strstr(d.messages.items[1], ":2: task x/2: Python syntax error in tests.code at line 1"));
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    free(path);
    rm_dir(dir);
}

static void test_bench_read_empty_and_missing_files(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    const char *contents[] = {"", "\n\n  \n", "\xef\xbb\xbf\n"};
    for (size_t i = 0; i < 3; i++) {
        char *path = write_tmp(dir, "e.jsonl", contents[i], strlen(contents[i]));
        GbBench b;
        gb_bench_init(&b);
        GbDiag d;
        gb_diag_init(&d);
        assert_true(gb_bench_read(path, &b, &d));
        assert_int_equal(b.tasks.len, 0);
        assert_int_equal(d.messages.len, 1);
        assert_non_null(strstr(d.messages.items[0], "empty file: no tasks"));
        assert_true(strncmp(d.messages.items[0], path, strlen(path)) == 0);
        gb_diag_destroy(&d);
        gb_bench_destroy(&b);
        free(path);
    }
    char *missing = gb_asprintf("%s/none.jsonl", dir);
    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_false(gb_bench_read(missing, &b, &d));
    assert_int_equal(d.messages.len, 1);
    assert_non_null(strstr(d.messages.items[0], "none.jsonl: cannot open"));
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    free(missing);
    rm_dir(dir);
}

static void test_bench_write_is_atomic_and_reads_back(void **state)
{
    (void)state;
    char *dir = tmp_dir();
    GbBench b;
    gb_bench_init(&b);
    GbTestKind kinds[] = {GB_TESTS_ASSERT, GB_TESTS_STDIO};
    for (size_t k = 0; k < 2; k++) {
        GbTask t;
        build_full_task(&t, kinds[k]);
        gb_array_push(&b.tasks, t);
    }
    char *path = gb_asprintf("%s/out.jsonl", dir);
    GbError err = {{0}};
    assert_true(gb_bench_write(path, &b, &err));
    /* only the output is left in the directory: no temporary file */
    DIR *dd = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(dd);
    assert_int_equal(n, 1);

    GbBench back;
    gb_bench_init(&back);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_bench_read(path, &back, &d));
    for (size_t i = 0; i < d.messages.len; i++) print_error("%s\n", d.messages.items[i]);
    assert_int_equal(d.messages.len, 0);
    assert_int_equal(back.tasks.len, 2);
    for (size_t i = 0; i < 2; i++) {
        back.tasks.items[i].line = 0;
        assert_tasks_equal(&b.tasks.items[i], &back.tasks.items[i]);
    }
    char *a = gb_bench_to_jsonl(&b), *c = gb_bench_to_jsonl(&back);
    assert_string_equal(a, c);
    free(a);
    free(c);
    gb_diag_destroy(&d);
    gb_bench_destroy(&back);
    gb_bench_destroy(&b);
    free(path);
    rm_dir(dir);
}

/* The id index of a bench: every added task is found, a missing id is not, and a task pushed
 * directly (which makes the index stale) is still found, by a scan, until the next add
 * rebuilds the index. */
static void test_bench_id_index(void **state)
{
    (void)state;
    GbBench b;
    gb_bench_init(&b);
    enum { N = 3000 };
    for (int i = 0; i < N; i++) {
        GbTask t;
        gb_task_init(&t);
        t.id = gb_asprintf("idx/%d", i);
        gb_bench_add_task(&b, &t);
        assert_null(t.id); /* taken */
    }
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "idx/%d", i);
        assert_int_equal(gb_bench_find(&b, id), i);
    }
    assert_int_equal(gb_bench_find(&b, "idx/-1"), -1);
    assert_int_equal(gb_bench_find(&b, ""), -1);
    GbTask direct;
    gb_task_init(&direct);
    direct.id = gb_strdup("pushed/directly");
    gb_array_push(&b.tasks, direct);
    assert_int_equal(gb_bench_find(&b, "pushed/directly"), N);
    GbTask more;
    gb_task_init(&more);
    more.id = gb_strdup("added/after");
    gb_bench_add_task(&b, &more);
    assert_int_equal(gb_bench_find(&b, "pushed/directly"), N);
    assert_int_equal(gb_bench_find(&b, "added/after"), N + 1);
    assert_int_equal(gb_bench_find(&b, "idx/17"), 17);
    gb_bench_destroy(&b);
}

static void test_pyjson_matches_python(void **state)
{
    (void)state;
    /* expected strings produced by CPython 3.11 json.dumps on the same values */
    const char *in = "{\"a\":[1,2.5,\"\xc3\xa9\\n\\u0001\\u007f\",\"\xf0\x9f\x98\x80\",true,null,1e16,0.1,1e-05,100.0,"
                     "1.5e-07,-0.0,123456789.125,1e22,12345678901234567890.0],\"b\":{},\"c\":[]}";
    json_t *v = json_loads(in, 0, NULL);
    assert_non_null(v);
    GbStr s;
    gb_str_init(&s);
    GbPyJsonStyle def = {.ensure_ascii = true, .indent = -1, .compact = false};
    gb_pyjson_dump(v, def, &s);
    assert_string_equal(s.data, "{\"a\": [1, 2.5, \"\\u00e9\\n\\u0001\\u007f\", \"\\ud83d\\ude00\", true, null, 1e+16, "
                                "0.1, 1e-05, 100.0, 1.5e-07, -0.0, 123456789.125, 1e+22, 1.2345678901234567e+19], "
                                "\"b\": {}, \"c\": []}");
    json_decref(v);
    gb_str_clear(&s);
    v = json_loads("{\"a\":[1,{\"x\":\"\xc3\xa9\"}],\"b\":{},\"c\":[]}", 0, NULL);
    GbPyJsonStyle ind = {.ensure_ascii = false, .indent = 4, .compact = false};
    gb_pyjson_dump(v, ind, &s);
    assert_string_equal(s.data, "{\n    \"a\": [\n        1,\n        {\n            \"x\": \"\xc3\xa9\"\n        }\n"
                                "    ],\n    \"b\": {},\n    \"c\": []\n}");
    json_decref(v);
    gb_str_destroy(&s);
}

static void test_json_spans(void **state)
{
    (void)state;
    const char *text = " { \"a\" : [1, \"]\"] , \"b\":\"x\\\"}\" ,\"c\": 2.50 } ";
    GbJsonSpanArray spans = {0};
    assert_true(gb_json_spans(text, strlen(text), &spans));
    assert_int_equal(spans.len, 3);
    const char *want[] = {"[1, \"]\"]", "\"x\\\"}\"", "2.50"};
    for (size_t i = 0; i < 3; i++) {
        char *got = gb_strndup(text + spans.items[i].start, spans.items[i].end - spans.items[i].start);
        assert_string_equal(got, want[i]);
        free(got);
    }
    gb_array_free(&spans);
    assert_false(gb_json_spans("\"str\"", 5, &spans));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task_round_trip_every_kind),
        cmocka_unit_test(test_task_canonical_key_order),
        cmocka_unit_test(test_task_unknown_fields_kept_verbatim),
        cmocka_unit_test(test_task_from_json_bad_input),
        cmocka_unit_test(test_bench_read_reports_each_bad_line),
        cmocka_unit_test(test_bench_read_skips_byte_order_mark),
        cmocka_unit_test(test_bench_read_syntax_error_in_extra_file_and_tests),
        cmocka_unit_test(test_bench_read_empty_and_missing_files),
        cmocka_unit_test(test_bench_write_is_atomic_and_reads_back),
        cmocka_unit_test(test_bench_id_index),
        cmocka_unit_test(test_pyjson_matches_python),
        cmocka_unit_test(test_json_spans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
