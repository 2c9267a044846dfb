/* Benchmark-level similarity on benchmarks built in C: matching by id, identical and
 * renamed programs, multi-module programs, summaries, thread independence, JSON helpers. */
#include "src/base/json_write.h"
#include "src/measure/similarity.h"

#include <stdlib.h>
#include <string.h>

#include "tests/unit/helpers.h"

static void add_task(GbBench *b, const char *id, const char *source, const char *helper)
{
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup(id);
    t.source = gb_strdup(source);
    t.entry_point = gb_strdup("f");
    t.kind = GB_TESTS_ASSERT;
    t.test_code = gb_strdup("assert f(1) == 2\n");
    if (helper) gb_task_set_file(&t, "helpers.py", helper);
    gb_array_push(&b->tasks, t);
}

static void build(GbBench *a, GbBench *b)
{
    gb_bench_init(a);
    gb_bench_init(b);
    add_task(a, "T/1", "def f(x):\n    return x + 1\n", NULL);
    add_task(b, "T/1", "def f(x):\n    return x + 1\n", NULL);
    add_task(a, "T/2", "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n",
             NULL);
    add_task(b, "T/2", "def f(count):\n    acc = 0\n    for k in range(count):\n        acc += k\n    return acc\n",
             NULL);
    add_task(a, "T/3", "from helpers import g\n\ndef f(x):\n    return g(x)\n", "def g(v):\n    return v * 2\n");
    add_task(b, "T/3", "from helpers import g\n\ndef f(x):\n    return g(x)\n", "def g(v):\n    return v * 3\n");
    add_task(a, "only-a", "x = 1\n", NULL);
    add_task(b, "only-b", "y = 2\n", NULL);
}

static void test_similarity_matches_by_id(void **state)
{
    (void)state;
    GbBench a, b;
    build(&a, &b);
    GbCodeBleuOptions o;
    gb_codebleu_options_default(&o);
    GbSimReport r;
    gb_similarity_compare(&a, &b, &o, 1, &r);
    assert_int_equal(r.tasks.len, 3);
    assert_string_equal(r.tasks.items[0].id, "T/1");
    assert_int_equal(r.only_a.len, 1);
    assert_string_equal(r.only_a.items[0], "only-a");
    assert_int_equal(r.only_b.len, 1);
    assert_string_equal(r.only_b.items[0], "only-b");
    /* identical */
    assert_near(r.tasks.items[0].codebleu.codebleu, 1.0, 1e-12);
    assert_near(r.tasks.items[0].cosine, 1.0, 1e-12);
    assert_near(r.tasks.items[0].jaccard, 1.0, 1e-12);
    /* renamed: same structure and data flow, fewer shared tokens */
    const GbSimTask *t2 = &r.tasks.items[1];
    assert_near(t2->codebleu.syntax, 1.0, 1e-12);
    assert_near(t2->codebleu.dataflow, 1.0, 1e-12);
    assert_true(t2->codebleu.ngram < 0.6);
    assert_true(t2->jaccard > 0.2 && t2->jaccard < 1.0);
    assert_true(t2->cosine > 0.2 && t2->cosine < 1.0);
    /* the helper module differs: compared as the concatenated program */
    const GbSimTask *t3 = &r.tasks.items[2];
    assert_true(t3->codebleu.codebleu < 1.0 && t3->codebleu.codebleu > 0.8);
    assert_true(t3->jaccard < 1.0);
    /* the same with 2 threads */
    GbSimReport r2;
    gb_similarity_compare(&a, &b, &o, 2, &r2);
    for (size_t i = 0; i < 3; i++) {
        assert_near(r2.tasks.items[i].codebleu.codebleu, r.tasks.items[i].codebleu.codebleu, 0);
        assert_near(r2.tasks.items[i].jaccard, r.tasks.items[i].jaccard, 0);
    }
    assert_near(r2.corpus.codebleu, r.corpus.codebleu, 0);
    gb_sim_report_destroy(&r);
    gb_sim_report_destroy(&r2);
    gb_bench_destroy(&a);
    gb_bench_destroy(&b);
}

static void test_similarity_summary_quartiles(void **state)
{
    (void)state;
    const double v[] = {4, 1, 3, 2};
    GbSummary s;
    gb_summary_compute(v, 4, &s);
    assert_near(s.mean, 2.5, 1e-12);
    assert_near(s.median, 2.5, 1e-12);
    assert_near(s.q1, 1.75, 1e-12); /* numpy.percentile([1,2,3,4], 25) */
    assert_near(s.q3, 3.25, 1e-12);
    assert_near(s.min, 1, 1e-12);
    assert_near(s.max, 4, 1e-12);
    gb_summary_compute(v, 1, &s);
    assert_near(s.q1, 4, 1e-12);
    assert_near(s.q3, 4, 1e-12);
    gb_summary_compute(v, 0, &s);
    assert_int_equal(s.n, 0);
}

static void test_similarity_json_helpers(void **state)
{
    (void)state;
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    gb_json_string(&s, "a\"b\\c\nd\x01");
    gb_str_append(&s, " ");
    gb_json_number(&s, 0.5);
    gb_str_append(&s, " ");
    gb_json_number(&s, NAN);
    assert_string_equal(s.data, "\"a\\\"b\\\\c\\nd\\u0001\" 0.5 null");
    gb_str_destroy(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_similarity_matches_by_id),
        cmocka_unit_test(test_similarity_summary_quartiles),
        cmocka_unit_test(test_similarity_json_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
