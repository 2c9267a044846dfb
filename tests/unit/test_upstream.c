/* Upstream formats: AVATAR (de)tokenisation, the HumanEval prompt split, format names,
 * and import/export of records at the function level. */
#include "src/bench/upstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "operators/harness_policy.h"
#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

typedef struct {
    const char *name;
    const char *tokens;
    const char *python;
} DetokCase;

static const DetokCase detok_cases[] = {
    {"blocks and dedent",
     "def f ( x ) : NEW_LINE INDENT if x : NEW_LINE INDENT return 1 NEW_LINE DEDENT return 2 "
     "NEW_LINE DEDENT print ( f ( 0 ) ) NEW_LINE",
     "def f ( x ) :\n    if x :\n        return 1\n    return 2\nprint ( f ( 0 ) )\n"},
    {"two dedents on one line",
     "for i in a : NEW_LINE INDENT for j in b : NEW_LINE INDENT s += j NEW_LINE DEDENT "
     "DEDENT print ( s ) NEW_LINE",
     "for i in a :\n    for j in b :\n        s += j\nprint ( s )\n"},
    {"strings split into pieces", "print ( \" a , \xe2\x96\x81 b \" , ' \xe2\x96\x81 ' ) NEW_LINE",
     "print ( \"a, b\" , ' ' )\n"},
    {"prefix as its own token", "x = f \" { y } \" + r '\\d' NEW_LINE", "x = f\"{y}\" + r'\\d'\n"},
    {"escaped quote inside", "s = \" say \xe2\x96\x81 \\\" hi \\\" \" NEW_LINE", "s = \"say \\\"hi\\\"\"\n"},
    {"triple quoted with newline", "d = \"\"\" a STRNEWLINE b TABSYMBOL c \"\"\" NEW_LINE",
     "d = \"\"\"a\nb\tc\"\"\"\n"},
    {"empty strings", "e = \" \" + '' NEW_LINE", "e = \"\" + ''\n"},
    {"attribute dots joined", "n = sys . stdin . readline ( ) . strip ( ) NEW_LINE",
     "n = sys.stdin.readline ( ).strip ( )\n"},
    {"relative import keeps its dot", "from . import mod NEW_LINE from . . pkg import x NEW_LINE",
     "from . import mod\nfrom ..pkg import x\n"},
    {"string then method", "print ( ' \xe2\x96\x81 ' . join ( a ) ) NEW_LINE", "print ( ' '.join ( a ) )\n"},
    {"trailing dedents and no final NEW_LINE", "while b : NEW_LINE INDENT b -= 1 NEW_LINE DEDENT",
     "while b :\n    b -= 1\n"},
};

static void test_avatar_detokenize_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof detok_cases / sizeof detok_cases[0]; i++) {
        char *got = gb_avatar_detokenize(detok_cases[i].tokens);
        if (strcmp(got, detok_cases[i].python) != 0) {
            print_error("case '%s':\n got: %s\nwant: %s\n", detok_cases[i].name, got, detok_cases[i].python);
            fail();
        }
        free(got);
    }
}

typedef struct {
    const char *name;
    const char *source;
    const char *tokens;
    const char *back; /* detokenised tokens */
} TokCase;

static const TokCase tok_cases[] = {
    {"blocks, comments and strings",
     "import sys\n\n\ndef main():\n    # a comment\n    words = sys.stdin.read().split()\n    for w in words:\n"
     "        if w:\n            print(\"got \" + w)\n    print('done\\tnow')\n\n\nmain()\n",
     "import sys NEW_LINE def main ( ) : NEW_LINE INDENT words = sys . stdin . read ( ) . split ( ) NEW_LINE for w in "
     "words : NEW_LINE INDENT if w : NEW_LINE INDENT print ( \"got \xe2\x96\x81 \" + w ) NEW_LINE DEDENT DEDENT print "
     "( "
     "'done\\tnow' ) NEW_LINE DEDENT main ( ) NEW_LINE",
     "import sys\ndef main ( ) :\n    words = sys.stdin.read ( ).split ( )\n    for w in words :\n        if w :\n"
     "            print ( \"got \" + w )\n    print ( 'done\\tnow' )\nmain ( )\n"},
    {"brackets and backslash continue a line", "x = [1,\n     2]\ny = 1 + \\\n    2\nz = '''a\nb'''\n",
     "x = [ 1 , 2 ] NEW_LINE y = 1 + 2 NEW_LINE z = '''a STRNEWLINE b''' NEW_LINE",
     "x = [ 1 , 2 ]\ny = 1 + 2\nz = '''a\nb'''\n"},
    {"docstring kept, nested dedent at end",
     "class A:\n    \"\"\"Doc string.\"\"\"\n    def f(self):\n        return 1\n",
     "class A : NEW_LINE INDENT \"\"\"Doc \xe2\x96\x81 string.\"\"\" NEW_LINE def f ( self ) : NEW_LINE INDENT return "
     "1 NEW_LINE "
     "DEDENT DEDENT",
     "class A :\n    \"\"\"Doc string.\"\"\"\n    def f ( self ) :\n        return 1\n"},
};

static void test_avatar_tokenize_round_trip(void **state)
{
    (void)state;
    TSParser *parser = gb_parser_new();
    for (size_t i = 0; i < sizeof tok_cases / sizeof tok_cases[0]; i++) {
        const TokCase *c = &tok_cases[i];
        char *tokens = gb_avatar_tokenize(c->source, parser);
        if (strcmp(tokens, c->tokens) != 0) {
            print_error("case '%s' tokens:\n got: %s\nwant: %s\n", c->name, tokens, c->tokens);
            fail();
        }
        char *back = gb_avatar_detokenize(tokens);
        if (strcmp(back, c->back) != 0) {
            print_error("case '%s' back:\n got: %s\nwant: %s\n", c->name, back, c->back);
            fail();
        }
        unsigned row, col;
        assert_true(gb_source_parses(parser, back, strlen(back), &row, &col));
        free(back);
        free(tokens);
    }
    ts_parser_delete(parser);
}

typedef struct {
    const char *name;
    const char *source;
    const char *entry;
    long prompt_len; /* -1: no such function */
} SplitCase;

static const SplitCase split_cases[] = {
    {"docstring", "import math\n\n\ndef f(x):\n    \"\"\"Doc.\n    more\n    \"\"\"\n    return x\n", "f", 53},
    {"no docstring", "def f(x):  # sig\n    y = x\n    return y\n", "f", 17},
    {"helper before, entry last", "def g():\n    return 1\n\ndef f():\n    'doc'\n    return g()\n", "f", 42},
    {"decorated entry", "import functools\n@functools.lru_cache\ndef f(n):\n    \"\"\"d\"\"\"\n    return n\n", "f",
     60},
    {"single-line def", "def f(x): return x\n", "f", 9},
    {"missing entry", "def g():\n    pass\n", "f", -1},
    {"nested def with same name is not the entry", "def h():\n    def f():\n        pass\n", "f", -1},
};

static void test_humaneval_prompt_end(void **state)
{
    (void)state;
    TSParser *parser = gb_parser_new();
    for (size_t i = 0; i < sizeof split_cases / sizeof split_cases[0]; i++) {
        const SplitCase *c = &split_cases[i];
        size_t end = 0;
        bool found = gb_humaneval_prompt_end(c->source, c->entry, parser, &end);
        if (found != (c->prompt_len >= 0) || (found && (long)end != c->prompt_len)) {
            print_error("case '%s': found=%d end=%zu, expected %ld\n", c->name, found, end, c->prompt_len);
            fail();
        }
    }
    ts_parser_delete(parser);
}

static void test_upstream_names(void **state)
{
    (void)state;
    const char *names[] = {"humaneval", "cruxeval", "classeval", "avatar"};
    for (size_t i = 0; i < 4; i++) {
        GbUpstream f;
        assert_true(gb_upstream_from_name(names[i], &f));
        assert_int_equal(f, (GbUpstream)i);
        assert_string_equal(gb_upstream_name(f), names[i]);
    }
    GbUpstream f;
    assert_false(gb_upstream_from_name("mbpp", &f));
    assert_false(gb_upstream_from_name("HumanEval", &f));
}

static char *tmp_file(const char *name, const char *text)
{
    char tmpl[] = "/tmp/gb_test_upstream_XXXXXX";
    char *d = mkdtemp(tmpl);
    assert_non_null(d);
    char *path = gb_asprintf("%s/%s", d, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void rm_file_and_dir(char *path)
{
    unlink(path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    rmdir(path);
    free(path);
}

static void test_import_bad_records(void **state)
{
    (void)state;
    const char *text =
        "{\"task_id\": \"S/0\", \"prompt\": \"def f(x):\\n\", \"entry_point\": \"f\", \"canonical_solution\": \"    "
        "return x\\n\", \"test\": \"def check(c):\\n    assert c(1) == 1\\n\"}\n"
        "{\"task_id\": \"S/1\", \"prompt\": \"def f(x):\\n\", \"entry_point\": \"f\", \"test\": \"\"}\n"
        "{\"task_id\": \"S/2\", \"prompt\": 3}\n"
        "not json\n"
        "{\"task_id\": \"S/3\", \"prompt\": \"def f(x:\\n\", \"entry_point\": \"f\", \"canonical_solution\": \"    "
        "return x\\n\", \"test\": \"def check(c):\\n    pass\\n\"}\n"
        "{\"task_id\": \"S/0\", \"prompt\": \"def f(x):\\n\", \"entry_point\": \"f\", \"canonical_solution\": \"    "
        "return 2\\n\", \"test\": \"def check(c):\\n    pass\\n\"}\n";
    char *path = tmp_file("he.jsonl", text);
    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_upstream_import(GB_UPSTREAM_HUMANEVAL, path, &b, &d));
    assert_int_equal(b.tasks.len, 1);
    const GbTask *t = &b.tasks.items[0];
    assert_string_equal(t->id, "S/0");
    assert_string_equal(t->source, "def f(x):\n    return x\n");
    assert_string_equal(t->test_code, "def check(c):\n    assert c(1) == 1\n\ncheck(f)\n");
    assert_int_equal(t->pinned.len, 1);
    assert_non_null(strstr(t->meta_json, "\"format\":\"humaneval\",\"upstream\":{\"task_id\":\"S/0\""));
    const char *want[] = {":2: task S/1: missing field \"canonical_solution\"",
                          ":3: task S/2: field \"prompt\" must be a string, got an integer",
                          ":4: task (unknown id): malformed JSON",
                          ":5: task S/3: Python syntax error in source (main.py) at line 1",
                          ":6: task S/0: duplicate id (first on line 1)"};
    assert_int_equal(d.messages.len, 5);
    for (size_t i = 0; i < 5; i++) {
        if (!strstr(d.messages.items[i], want[i]) || strncmp(d.messages.items[i], path, strlen(path)) != 0) {
            print_error("message %zu: '%s', expected '%s'\n", i, d.messages.items[i], want[i]);
            fail();
        }
    }
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    rm_file_and_dir(path);
}

static void test_import_classeval_line_numbers_and_empty(void **state)
{
    (void)state;
    const char *text = "[\n    {\n        \"task_id\": \"C_0\",\n        \"solution_code\": \"class A:\\n    pass\",\n"
                       "        \"test\": \"import unittest\\nclass T(unittest.TestCase):\\n    def test(self):\\n"
                       "        A()\",\n        \"class_name\": \"A\",\n        \"test_classes\": [\"T\"]\n    },\n"
                       "    {\n        \"task_id\": \"C_1\",\n        \"class_name\": \"B\"\n    }\n]";
    char *path = tmp_file("ce.json", text);
    GbBench b;
    gb_bench_init(&b);
    GbDiag d;
    gb_diag_init(&d);
    assert_true(gb_upstream_import(GB_UPSTREAM_CLASSEVAL, path, &b, &d));
    assert_int_equal(b.tasks.len, 1);
    assert_int_equal(b.tasks.items[0].line, 2);
    assert_int_equal(b.tasks.items[0].kind, GB_TESTS_UNITTEST);
    assert_int_equal(d.messages.len, 1);
    assert_non_null(strstr(d.messages.items[0], ":9: task C_1: missing field \"solution_code\""));
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    rm_file_and_dir(path);

    const char *empties[] = {"", "[]"};
    const char *msgs[] = {"empty file: no tasks", "empty task list: no tasks"};
    for (size_t i = 0; i < 2; i++) {
        path = tmp_file("ce.json", empties[i]);
        gb_bench_init(&b);
        gb_diag_init(&d);
        assert_true(gb_upstream_import(GB_UPSTREAM_CLASSEVAL, path, &b, &d));
        assert_int_equal(d.messages.len, 1);
        assert_non_null(strstr(d.messages.items[0], msgs[i]));
        gb_diag_destroy(&d);
        gb_bench_destroy(&b);
        rm_file_and_dir(path);
    }
}

static void test_export_refuses_foreign_and_changed_tests(void **state)
{
    (void)state;
    GbBench b;
    gb_bench_init(&b);
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("own/1");
    t.source = gb_strdup("def f(x):\n    return x\n");
    t.entry_point = gb_strdup("f");
    t.test_code = gb_strdup("assert f(1) == 1\n");
    gb_array_push(&b.tasks, t);
    gb_task_init(&t);
    t.id = gb_strdup("sample_z");
    t.source = gb_strdup("def f(x):\n    return x\n");
    t.entry_point = gb_strdup("f");
    t.test_code = gb_strdup("assert f(2) == 2\n");
    free(t.meta_json);
    t.meta_json =
        gb_strdup("{\"format\":\"cruxeval\",\"upstream\":{\"code\":\"def f(x):\\n    return x\",\"input\":\"1\","
                  "\"output\":\"1\",\"id\":\"sample_z\"}}");
    gb_array_push(&b.tasks, t);
    char *path = tmp_file("out.jsonl", "");
    GbDiag d;
    gb_diag_init(&d);
    size_t written = 99;
    /* nothing can be exported: refused with a message, and the (empty) output is left alone */
    assert_false(gb_upstream_export(GB_UPSTREAM_CRUXEVAL, &b, "own.jsonl", path, &d, &written));
    assert_int_equal(written, 0);
    assert_int_equal(d.messages.len, 3);
    assert_non_null(strstr(d.messages.items[0], "own.jsonl:0: task own/1: not imported from cruxeval"));
    assert_non_null(strstr(d.messages.items[1], "own.jsonl:0: task sample_z: tests.code is not"));
    assert_non_null(strstr(d.messages.items[2], "nothing to export: none of the 2 tasks can be written as cruxeval"));
    size_t len = 99;
    GbError err;
    char *text = gb_read_file(path, &len, &err);
    assert_non_null(text);
    assert_int_equal(len, 0);
    free(text);
    gb_diag_destroy(&d);
    gb_bench_destroy(&b);
    rm_file_and_dir(path);
}

/* The execution rules a task gets from its meta, and the operators they leave out. */
static void test_harness_rules_from_meta(void **state)
{
    (void)state;
    static const struct {
        const char *meta;
        GbHarnessRules rules;
        const char *prelude;
    } cases[] = {
        {"{}", GB_HARNESS_NONE, NULL},
        {"not json", GB_HARNESS_NONE, NULL},
        {"{\"format\":\"mbpp\"}", GB_HARNESS_NONE, NULL},
        {"{\"format\":\"humaneval\",\"upstream\":{}}", GB_HARNESS_GUARD, NULL},
        {"{\"format\":\"cruxeval\"}", GB_HARNESS_GUARD, NULL},
        {"{\"format\":\"avatar\"}", GB_HARNESS_NONE, NULL},
        {"{\"format\":\"classeval\",\"upstream\":{\"import_statement\":[\"import os\",\"import re\"]}}",
         GB_HARNESS_CLASSEVAL, "import os\nimport re"},
        {"{\"format\":\"classeval\",\"upstream\":{\"import_statement\":[]}}", GB_HARNESS_CLASSEVAL, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbHarnessRules rules = GB_HARNESS_CLASSEVAL;
        char *prelude = (char *)"unset";
        gb_upstream_harness(cases[i].meta, &rules, &prelude);
        assert_int_equal(rules, cases[i].rules);
        if (cases[i].prelude)
            assert_string_equal(prelude, cases[i].prelude);
        else
            assert_null(prelude);
        free(prelude);
    }
    assert_false(gb_op_allowed_under(GB_HARNESS_GUARD, GB_OP_A7));
    /* S7 moves functions into a helper class of the one file under these rules */
    assert_true(gb_op_allowed_under(GB_HARNESS_GUARD, GB_OP_S7));
    assert_true(gb_op_allowed_under(GB_HARNESS_CLASSEVAL, GB_OP_S7));
    assert_true(gb_op_allowed_under(GB_HARNESS_CLASSEVAL, GB_OP_A7));  /* no guard in ClassEval */
    /* their ClassEval forms define the helper or decorator inside the class */
    assert_true(gb_op_allowed_under(GB_HARNESS_CLASSEVAL, GB_OP_S6));
    assert_true(gb_op_allowed_under(GB_HARNESS_CLASSEVAL, GB_OP_S8));
    assert_true(gb_op_allowed_under(GB_HARNESS_GUARD, GB_OP_S6));
    assert_true(gb_op_allowed_under(GB_HARNESS_GUARD, GB_OP_A6)); /* scipy survives the guard */
    for (int o = 0; o < GB_OP_COUNT; o++) assert_true(gb_op_allowed_under(GB_HARNESS_NONE, (GbOperatorId)o));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avatar_detokenize_cases),
        cmocka_unit_test(test_avatar_tokenize_round_trip),
        cmocka_unit_test(test_humaneval_prompt_end),
        cmocka_unit_test(test_upstream_names),
        cmocka_unit_test(test_import_bad_records),
        cmocka_unit_test(test_import_classeval_line_numbers_and_empty),
        cmocka_unit_test(test_export_refuses_foreign_and_changed_tests),
        cmocka_unit_test(test_harness_rules_from_meta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
