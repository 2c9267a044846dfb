/* src/eval: pass@k, paired counts, the drop and its bootstrap interval (hand-computed numbers),
 * items from assert tests, answer extraction and the whitelist that keeps cheats out; repair and
 * translation: code blocks, the specification, the prompts, programs of several modules, Java
 * class names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/eval/answer.h"
#include "src/eval/eval.h"
#include "src/eval/repair.h"
#include "src/eval/stats.h"
#include "src/eval/task_type.h"
#include "src/python/pyparse.h"

#include "tests/unit/helpers.h"

static void test_eval_pass_at_k(void **state)
{
    (void)state;
    assert_float_equal(gb_pass_at_k(5, 2, 1), 0.4, 1e-12);
    assert_float_equal(gb_pass_at_k(5, 2, 2), 1.0 - 3.0 / 10.0, 1e-12); /* C(3,2)/C(5,2) */
    assert_float_equal(gb_pass_at_k(5, 2, 3), 1.0 - 1.0 / 10.0, 1e-12); /* C(3,3)/C(5,3) */
    assert_float_equal(gb_pass_at_k(5, 2, 4), 1.0, 1e-12);              /* n - c < k */
    assert_float_equal(gb_pass_at_k(10, 3, 5), 1.0 - 21.0 / 252.0, 1e-12);
    assert_float_equal(gb_pass_at_k(10, 0, 5), 0.0, 1e-12);
    assert_float_equal(gb_pass_at_k(1, 1, 1), 1.0, 1e-12);
    assert_true(isnan(gb_pass_at_k(3, 1, 5)));
    assert_true(isnan(gb_pass_at_k(0, 0, 1)));
}

static void test_eval_paired_and_drop(void **state)
{
    (void)state;
    const double po[] = {1, 1, 0, 0, 0.5, 0.25}, ph[] = {1, 0, 1, 0, 0.5, 1};
    GbPaired p;
    gb_paired_count(po, ph, 6, &p);
    assert_int_equal(p.both_pass, 2);
    assert_int_equal(p.lost, 1);
    assert_int_equal(p.gained, 2);
    assert_int_equal(p.both_fail, 1);
    const double a[] = {1, 1, 1, 1}, b[] = {1, 0, 1, 0};
    assert_float_equal(gb_relative_drop(a, b, 4), 0.5, 1e-12);
    const double z[] = {0, 0};
    assert_true(isnan(gb_relative_drop(z, z, 2)));
    const double q[] = {1, 2, 3, 4};
    assert_float_equal(gb_quantile_sorted(q, 4, 0.25), 1.75, 1e-12);
    assert_float_equal(gb_quantile_sorted(q, 4, 0.5), 2.5, 1e-12);
    assert_float_equal(gb_quantile_sorted(q, 4, 1.0), 4, 1e-12);
}

static void test_eval_bootstrap(void **state)
{
    (void)state;
    GbDropCI ci, again;
    const double one[] = {1, 1, 1, 1}, zero[] = {0, 0, 0, 0};
    gb_drop_bootstrap(one, zero, 4, 1000, 1, &ci);
    assert_float_equal(ci.drop, 1, 1e-12);
    assert_float_equal(ci.lo, 1, 1e-12);
    assert_float_equal(ci.hi, 1, 1e-12);
    gb_drop_bootstrap(one, one, 4, 1000, 1, &ci);
    assert_float_equal(ci.lo, 0, 1e-12);
    assert_float_equal(ci.hi, 0, 1e-12);
    /* Two items, one lost: a resample's drop is 0 (p = 1/4), 1/2 (1/2) or 1 (1/4), so with 1000
     * resamples the 2.5% and 97.5% percentiles are 0 and 1. */
    const double o2[] = {1, 1}, h2[] = {1, 0};
    gb_drop_bootstrap(o2, h2, 2, 1000, 7, &ci);
    assert_float_equal(ci.drop, 0.5, 1e-12);
    assert_float_equal(ci.lo, 0, 1e-12);
    assert_float_equal(ci.hi, 1, 1e-12);
    assert_int_equal(ci.undefined, 0);
    gb_drop_bootstrap(o2, h2, 2, 1000, 7, &again);
    assert_true(ci.lo == again.lo && ci.hi == again.hi);
    /* The original never passes: every resample is undefined. */
    gb_drop_bootstrap(zero, zero, 4, 100, 1, &ci);
    assert_int_equal(ci.undefined, 100);
    assert_true(isnan(ci.lo) && isnan(ci.drop));
}

static void test_eval_literal_whitelist(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    char why[256];
    const char *good[] = {"'abba'",      "[('b', 1), ('c', 2)]",
                          "-1.5",        "{'a': [1, {2}]}",
                          "set()",       "float('inf')",
                          "\"a\" \"b\"", "(1,)",
                          "b'x'",        "\"\"\"two\nlines\"\"\"",
                          "(1 +\n 2)",   "True",
                          "None",        "frozenset({1, 2})",
                          "dict(a=1)",   "2 ** 10",
                          "'%s' % 3",    "...",
                          "r'\\d'",      NULL};
    for (size_t i = 0; good[i]; i++) {
        bool ok = gb_answer_literal_ok(p, good[i], why, sizeof why);
        if (!ok) fprintf(stderr, "refused %s: %s\n", good[i], why);
        assert_true(ok);
    }
    const char *bad[] = {"1 or True",
                         "__import__('os')._exit(0)",
                         "1; import sys",
                         "x",
                         "f(1)",
                         "lambda: 1",
                         "(x := 1)",
                         "f\"{x}\"",
                         "f'{__import__(\"os\")._exit(0)}'",
                         "1 == 1",
                         "[i for i in (1, 2)]",
                         "().__class__",
                         "'ab'[0]",
                         "1 # c",
                         "1\n2",
                         "print(1)",
                         "1 if True else 2",
                         "not 1",
                         "",
                         "type('E', (), {'__eq__': lambda s, o: True})()",
                         "1) or (True",
                         "[*x]",
                         "{**d}",
                         "set(x for x in (1,))",
                         "globals()",
                         "1 \\\n+ 2",
                         "(yield)",
                         "await x",
                         NULL};
    for (size_t i = 0; bad[i]; i++) {
        bool ok = gb_answer_literal_ok(p, bad[i], why, sizeof why);
        if (ok) fprintf(stderr, "accepted %s\n", bad[i]);
        assert_false(ok);
    }
    const char *good_args[] = {"'ab'", "[1, 2], y=1", "", "{'a': 3}, 2", NULL};
    for (size_t i = 0; good_args[i]; i++) assert_true(gb_answer_args_ok(p, good_args[i], why, sizeof why));
    const char *bad_args[] = {"1), (2", "*[1]",       "**{}", "x=lambda: 1", "1) or (True", "1)\nimport os\nf(1",
                              "y",      "x=(z := 1)", NULL};
    for (size_t i = 0; bad_args[i]; i++) {
        bool ok = gb_answer_args_ok(p, bad_args[i], why, sizeof why);
        if (ok) fprintf(stderr, "accepted args %s\n", bad_args[i]);
        assert_false(ok);
    }
    ts_parser_delete(p);
}

static void expect_extract(TSParser *p, const char *reply, GbAnswerPart part, const char *want)
{
    char *answer = NULL, why[256];
    bool ok = gb_answer_extract(p, reply, part, "f", &answer, why, sizeof why);
    if (want) {
        if (!ok) fprintf(stderr, "%s: %s\n", reply, why);
        assert_true(ok);
        assert_string_equal(answer, want);
    } else {
        if (ok) fprintf(stderr, "accepted %s as %s\n", reply, answer);
        assert_false(ok);
    }
    free(answer);
}

static void test_eval_extract(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    expect_extract(p, "Let me think.\n[ANSWER]\nassert f(17) == 17\n[/ANSWER]\nbye", GB_ANSWER_VALUE, "17");
    expect_extract(p, "[ANSWER]\nassert f(17) == 17\n[/ANSWER]", GB_ANSWER_ARGS, "17");
    expect_extract(p, "```python\nx = 1\n```\nthen\n```python\nassert f('a') == 'ab'\n```", GB_ANSWER_VALUE, "'ab'");
    expect_extract(p, "assert f(17) == 17 # done", GB_ANSWER_VALUE, "17");
    expect_extract(p, "[1, 2]", GB_ANSWER_VALUE, "[1, 2]");
    expect_extract(p, "f([1, 2], y=3)", GB_ANSWER_ARGS, "[1, 2], y=3");
    expect_extract(p, "[ANSWER]\nassert candidate('x') == 1\n[/ANSWER]", GB_ANSWER_ARGS, "'x'");
    expect_extract(p, "assert f(1) == 2 or True", GB_ANSWER_VALUE, NULL);
    expect_extract(p, "assert g(1) == 2", GB_ANSWER_ARGS, NULL);
    expect_extract(p, "assert f(1) == f(1)", GB_ANSWER_VALUE, NULL);
    expect_extract(p, "[ANSWER]\n1; import os\n[/ANSWER]", GB_ANSWER_VALUE, NULL);
    expect_extract(p, "I do not know.", GB_ANSWER_VALUE, NULL);
    expect_extract(p, "assert f(__import__('os')) == 1", GB_ANSWER_ARGS, NULL);
    char *code = gb_answer_check_code(GB_ANSWER_VALUE, "f", "'abba'", "'ab' 'ba'");
    assert_string_equal(code, "assert ('abba') == ('ab' 'ba')\n");
    free(code);
    code = gb_answer_check_code(GB_ANSWER_ARGS, "g", "3", "1, 2");
    assert_string_equal(code, "assert (3) == g(1, 2)\n");
    free(code);
    char *prompt = gb_answer_prompt(GB_ANSWER_ARGS, "def g(a, b):\n    return a + b", "g", "1, 2", "3");
    assert_non_null(strstr(prompt, "[PYTHON]\ndef g(a, b):\n    return a + b\nassert g(?\?) == 3\n[/PYTHON]"));
    free(prompt);
    ts_parser_delete(p);
}

static void test_eval_pairs(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    gb_task_init(&t);
    t.kind = GB_TESTS_ASSERT;
    t.entry_point = gb_strdup("add");
    t.test_code = gb_strdup("def check(candidate):\n    assert candidate(1, 2) == 3\n    xs = [1]\n"
                            "    assert candidate(xs, 0) == [1]\n    assert candidate(1, 1) == 2, 'msg'\n"
                            "    assert abs(candidate(0.1, 0.2) - 0.3) < 1e-9\n    assert candidate(0, 0) != 1\n"
                            "    assert candidate(2, 2) == 4 == 4\n\ncheck(add)\nassert add(b=1, a=2) == 3\n");
    GbEvalPairs pairs = {0};
    gb_eval_pairs(p, &t, &pairs);
    assert_int_equal(pairs.len, 3);
    assert_string_equal(pairs.items[0].args, "1, 2");
    assert_string_equal(pairs.items[0].expected, "3");
    assert_int_equal(pairs.items[0].line, 2);
    assert_string_equal(pairs.items[1].args, "1, 1");
    assert_string_equal(pairs.items[2].args, "b=1, a=2");
    gb_eval_pairs_destroy(&pairs);
    t.kind = GB_TESTS_UNITTEST;
    gb_eval_pairs(p, &t, &pairs);
    assert_int_equal(pairs.len, 0);
    gb_eval_pairs_destroy(&pairs);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

static void test_eval_code_block(void **state)
{
    (void)state;
    char *c = gb_eval_code_block("Fix:\n```python\ndef f():\n    return 1\n```\nand\n```\nx = 2\n```\n", "python");
    assert_string_equal(c, "def f():\n    return 1"); /* the last python block beats a later unlabelled one */
    free(c);
    c = gb_eval_code_block("a\n```py\nfirst\n```\n```Python\nsecond\n```\n", "python");
    assert_string_equal(c, "second");
    free(c);
    c = gb_eval_code_block("```java\nclass A {}\n```\n```text\nnote\n```\n", "python");
    assert_string_equal(c, "note"); /* no python block: the last block */
    free(c);
    c = gb_eval_code_block("  def g(): pass  \n", "python");
    assert_string_equal(c, "def g(): pass"); /* no block: the reply */
    free(c);
    c = gb_eval_code_block("```python\nunclosed = 1\n", "python");
    assert_string_equal(c, "unclosed = 1");
    free(c);
    c = gb_eval_code_block("Fixed:\n```python\nx = 1\ny = f(x)```\n", "python");
    assert_string_equal(c, "x = 1\ny = f(x)"); /* the closing fence glued to the last line */
    free(c);
    assert_null(gb_eval_code_block(" \n\t", "python"));
    assert_null(gb_eval_code_block("```python\n```\n", "python"));
}

static void test_eval_spec_and_prompts(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    char *spec = gb_eval_spec(p,
                              "import os\n\ndef helper():\n    \"\"\"Not this.\"\"\"\n\n@cache\ndef add(a, b):\n"
                              "    \"\"\"Add a and b.\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return a + b\n",
                              "add");
    assert_string_equal(spec, "Add a and b.\n    >>> add(1, 2)\n    3");
    free(spec);
    spec = gb_eval_spec(p, "class Stack:\n    '''A stack.'''\n    def push(self, x): pass\n", "Stack");
    assert_string_equal(spec, "A stack.");
    free(spec);
    spec = gb_eval_spec(p, "\"\"\"Module doc.\"\"\"\nx = 1\n", "missing");
    assert_string_equal(spec, "Module doc.");
    free(spec);
    assert_null(gb_eval_spec(p, "def f():\n    return 1\n", "f"));
    ts_parser_delete(p);

    char *pr = gb_eval_repair_prompt("Add.", "def add(a, b):\n    return a - b\n", "add",
                                     "tests line 2: assert add(1, 2) == 3\nAssertionError");
    assert_non_null(strstr(pr, "Specification:\nAdd.\n"));
    assert_non_null(strstr(pr, "```python\ndef add(a, b):\n    return a - b\n```\n"));
    assert_non_null(strstr(pr, "Failing test:\ntests line 2: assert add(1, 2) == 3\nAssertionError\n"));
    assert_non_null(strstr(pr, "keeping the name add"));
    free(pr);
    pr = gb_eval_translate_prompt("print(input())");
    assert_non_null(strstr(pr, "```python\nprint(input())\n```"));
    assert_non_null(strstr(pr, "public class Main"));
    free(pr);
}

static void test_eval_repair_modules(void **state)
{
    (void)state;
    GbTask t;
    gb_task_init(&t);
    t.source = gb_strdup("from h import g\nprint(g())\n");
    gb_task_set_file(&t, "h.py", "def g():\n    return 2\n");
    char *text = gb_eval_program_text(&t);
    assert_string_equal(text, "# file: main.py\nfrom h import g\nprint(g())\n```\n\n```python\n# file: h.py\n"
                              "def g():\n    return 2\n");
    char *prompt = gb_eval_repair_prompt(NULL, text, NULL, "AssertionError");
    assert_non_null(strstr(prompt, "every module in its own"));
    assert_null(strstr(prompt, "Specification"));
    free(prompt);
    free(text);
    /* blocks with # file: lines replace those modules; unknown names are ignored */
    char *got = NULL;
    assert_true(gb_eval_repair_apply("ok\n```python\n# file: h.py\ndef g():\n    return 3\n```\n"
                                     "```python\n# file: evil.py\nimport os\n```\n",
                                     &t, &got));
    assert_string_equal(t.extra_files.items[0].source, "def g():\n    return 3\n");
    assert_string_equal(t.source, "from h import g\nprint(g())\n");
    assert_int_equal(t.extra_files.len, 1);
    free(got);
    /* one plain block: the main module */
    assert_true(gb_eval_repair_apply("```python\nprint(1)\n```", &t, &got));
    assert_string_equal(t.source, "print(1)\n");
    assert_string_equal(got, "print(1)");
    free(got);
    assert_false(gb_eval_repair_apply("```python\n# file: other.py\nx = 1\n```", &t, &got));
    free(got);
    assert_false(gb_eval_repair_apply("   ", &t, &got));
    free(got);
    gb_task_destroy(&t);
}

static void test_eval_java_extract(void **state)
{
    (void)state;
    char why[128], *code, *cls;
    assert_true(gb_eval_java_extract("```java\nimport java.util.*;\npublic class Main {\n  public static void "
                                     "main(String[] a) {}\n}\n```",
                                     &code, &cls, why, sizeof why));
    assert_string_equal(cls, "Main");
    free(code);
    free(cls);
    /* package removed, the public class named, a class in a comment or string ignored */
    assert_true(gb_eval_java_extract("```\npackage a.b;\n// public class Fake {}\nclass Helper { String s = \"public "
                                     "class Nope\"; }\npublic final class Solution {\n  static class In {}\n  public "
                                     "static void main(String[] a) {}\n}\n```",
                                     &code, &cls, why, sizeof why));
    assert_string_equal(cls, "Solution");
    assert_null(strstr(code, "package"));
    assert_non_null(strstr(code, "class Helper"));
    free(code);
    free(cls);
    /* no public class: the one with main */
    assert_true(
        gb_eval_java_extract("```java\nclass A { void f() {} }\nclass B { static void main(String[] x) {} }\n```",
                             &code, &cls, why, sizeof why));
    assert_string_equal(cls, "B");
    free(code);
    free(cls);
    /* neither: Main */
    assert_true(gb_eval_java_extract("```java\nint x;\n```", &code, &cls, why, sizeof why));
    assert_string_equal(cls, "Main");
    free(code);
    free(cls);
    assert_false(gb_eval_java_extract("\n", &code, &cls, why, sizeof why));
    assert_non_null(strstr(why, "no Java code"));
    free(code);
    free(cls);
}

static void test_eval_task_registry(void **state)
{
    (void)state;
    /* the first rows are the paper's four tasks, --task's default first */
    static const char *const names[] = {"output", "input", "repair", "translate"};
    assert_true(GB_EVAL_TASK_COUNT >= 4);
    for (int i = 0; i < GB_EVAL_TASK_COUNT; i++) {
        if (i < 4) assert_string_equal(gb_eval_task_names[i], names[i]);
        assert_non_null(gb_eval_task_names[i]);
        const GbEvalTaskType *t = gb_eval_task_type((GbEvalTask)i);
        assert_non_null(t->title);
        assert_true(t->prompt && t->extract && t->score);
        assert_true(gb_eval_task_run_timeout((GbEvalTask)i) > 0);
        assert_int_equal(gb_eval_task_needs_java((GbEvalTask)i), t->java);
    }
    assert_true(gb_eval_task_needs_java(GB_EVAL_TASK_TRANSLATE));
    assert_false(gb_eval_task_needs_java(GB_EVAL_TASK_REPAIR));
    assert_null(gb_eval_task_names[GB_EVAL_TASK_COUNT]);
    assert_int_equal(gb_eval_task_type(GB_EVAL_TASK_REPAIR)->input, GB_EVAL_IN_BUGS);
    assert_int_equal(gb_eval_task_type(GB_EVAL_TASK_TRANSLATE)->input, GB_EVAL_IN_STDIO_TASKS);
    assert_int_equal(gb_eval_task_type(GB_EVAL_TASK_INPUT)->input, GB_EVAL_IN_ASSERTS);
}

static void test_eval_task_versions(void **state)
{
    (void)state;
    char *paths[] = {"a.jsonl", "b.jsonl"};
    GbBench benches[2] = {0};
    size_t nv;
    GbEvalVersion *v = gb_eval_versions_new(GB_EVAL_TASK_OUTPUT, paths, benches, 2, &nv);
    assert_int_equal(nv, 2);
    assert_string_equal(v[0].path, "a.jsonl");
    assert_ptr_equal(v[1].bench, &benches[1]);
    free(v);
    /* repair: the first file twice, as the original and as its own first hardened version */
    v = gb_eval_versions_new(GB_EVAL_TASK_REPAIR, paths, benches, 2, &nv);
    assert_int_equal(nv, 3);
    assert_ptr_equal(v[0].bench, &benches[0]);
    assert_ptr_equal(v[1].bench, &benches[0]);
    assert_string_equal(v[2].path, "b.jsonl");
    assert_ptr_equal(v[2].bench, &benches[1]);
    free(v);
}

static void test_eval_task_prediction_rows(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    gb_task_init(&t);
    t.source = gb_strdup("def f(x):\n    return x + 1\n");
    GbEvalPair pair = {.args = "1", .expected = "2"};
    GbEvalSample s = {.parser = p, .task = &t, .entry = "f", .pair = &pair};
    GbError err = {0};
    const GbEvalTaskType *out = gb_eval_task_type(GB_EVAL_TASK_OUTPUT), *in = gb_eval_task_type(GB_EVAL_TASK_INPUT);
    char *prompt = out->prompt(&s, &err);
    assert_non_null(strstr(prompt, "assert f(1) == ?\?\n"));
    free(prompt);
    prompt = in->prompt(&s, &err);
    assert_non_null(strstr(prompt, "assert f(?\?) == 2\n"));
    free(prompt);
    char why[256];
    GbEvalAnswer a = {0};
    assert_true(out->extract(&s, "[ANSWER]\nassert f(1) == 2\n[/ANSWER]", &a, why, sizeof why));
    assert_string_equal(a.text, "2");
    gb_eval_answer_destroy(&a);
    assert_true(in->extract(&s, "[ANSWER]\nassert f(1) == 2\n[/ANSWER]", &a, why, sizeof why));
    assert_string_equal(a.text, "1");
    gb_eval_answer_destroy(&a);
    assert_false(out->extract(&s, "assert f(1) == open('x')", &a, why, sizeof why));
    gb_eval_answer_destroy(&a);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_pass_at_k),
        cmocka_unit_test(test_eval_paired_and_drop),
        cmocka_unit_test(test_eval_bootstrap),
        cmocka_unit_test(test_eval_literal_whitelist),
        cmocka_unit_test(test_eval_extract),
        cmocka_unit_test(test_eval_pairs),
        cmocka_unit_test(test_eval_code_block),
        cmocka_unit_test(test_eval_spec_and_prompts),
        cmocka_unit_test(test_eval_repair_modules),
        cmocka_unit_test(test_eval_java_extract),
        cmocka_unit_test(test_eval_task_registry),
        cmocka_unit_test(test_eval_task_versions),
        cmocka_unit_test(test_eval_task_prediction_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
