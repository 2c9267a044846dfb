#include "src/base/linediff.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/rng.h"
#include "tests/unit/helpers.h"

/* Split like the module does (on '\n', no extra line after a final newline), into owned copies. */
typedef GbArray(char *) Lines;
static void split(const char *t, Lines *out)
{
    const char *p = t;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = gb_strndup(p, n);
        gb_array_push(out, line);
        if (!nl) break;
        p = nl + 1;
    }
}
static void free_lines(Lines *l)
{
    for (size_t i = 0; i < l->len; i++) free(l->items[i]);
    gb_array_free(l);
}

/* Longest common subsequence length by the textbook dynamic programme. */
static size_t lcs(const Lines *a, const Lines *b)
{
    size_t *prev = calloc(b->len + 1, sizeof *prev), *cur = calloc(b->len + 1, sizeof *cur);
    for (size_t i = 1; i <= a->len; i++) {
        for (size_t j = 1; j <= b->len; j++)
            cur[j] = strcmp(a->items[i - 1], b->items[j - 1]) == 0 ? prev[j - 1] + 1
                     : prev[j] > cur[j - 1]                        ? prev[j]
                                                                   : cur[j - 1];
        size_t *t = prev;
        prev = cur, cur = t;
    }
    size_t n = prev[b->len];
    free(prev);
    free(cur);
    return n;
}

/* The script is a valid edit script of a into b whose EQUAL lines are a longest common
 * subsequence: returns the number of EQUAL ops, or (size_t)-1 when the script is invalid. */
static size_t check_script(const char *ta, const char *tb, const GbDiffOps *ops)
{
    Lines a = {0}, b = {0};
    split(ta, &a);
    split(tb, &b);
    size_t ia = 0, ib = 0, eq = 0;
    bool ok = true;
    for (size_t k = 0; k < ops->len && ok; k++) {
        const GbDiffOp *op = &ops->items[k];
        switch (op->kind) {
        case GB_DIFF_EQUAL:
            ok = op->a == ia && op->b == ib && ia < a.len && ib < b.len && strcmp(a.items[ia], b.items[ib]) == 0;
            ia++, ib++, eq++;
            break;
        case GB_DIFF_DELETE:
            ok = op->a == ia && ia < a.len;
            ia++;
            break;
        case GB_DIFF_INSERT:
            ok = op->b == ib && ib < b.len;
            ib++;
            break;
        }
    }
    ok = ok && ia == a.len && ib == b.len;
    size_t best = lcs(&a, &b);
    free_lines(&a);
    free_lines(&b);
    if (!ok) return (size_t)-1;
    if (eq != best) print_error("script keeps %zu equal lines, the LCS has %zu\n", eq, best);
    return eq == best ? eq : (size_t)-1;
}

static void test_linediff_cases_are_shortest_scripts(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        size_t equal;
    } cases[] = {
        {"", "", 0},
        {NULL, "x\ny\n", 0},
        {"x\ny\n", "", 0},
        {"a\nb\nc\n", "a\nb\nc", 3}, /* a final newline is not a line */
        {"a\nb\nc\n", "a\nx\nc\n", 2},
        {"a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n", 4}, /* Myers' paper example: D = 5 */
        {"def f(x):\n    return x\n",
         "import base64\ndef f(x):\n    try:\n        return x\n    except E:\n        raise\n", 1},
        {"same\nsame\nsame\n", "same\nsame\n", 2},
        {"a\n\nb\n", "a\nb\n\n", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbDiffOps ops = {0};
        gb_diff_lines(cases[i].a, cases[i].b, &ops);
        size_t eq = check_script(cases[i].a, cases[i].b, &ops);
        if (eq != cases[i].equal) print_error("case %zu: %zu equal lines, expected %zu\n", i, eq, cases[i].equal);
        assert_int_equal(eq, cases[i].equal);
        gb_array_free(&ops);
    }
}

/* Many random pairs over a small alphabet (so lines repeat a lot): the script is always valid and
 * keeps a longest common subsequence. Fixed seed. */
static void test_linediff_random_pairs_match_dynamic_programme(void **state)
{
    (void)state;
    GbRng rng;
    gb_rng_seed(&rng, 2024u, 7u);
    for (int round = 0; round < 400; round++) {
        GbStr a, b;
        gb_str_init(&a);
        gb_str_init(&b);
        gb_str_append(&a, "");
        gb_str_append(&b, "");
        uint32_t na = gb_rng_bounded(&rng, 30), nb = gb_rng_bounded(&rng, 30), alpha = 2 + gb_rng_bounded(&rng, 5);
        for (uint32_t i = 0; i < na; i++) gb_str_appendf(&a, "l%u\n", gb_rng_bounded(&rng, alpha));
        /* b is mostly an edit of a, sometimes unrelated. */
        if (round % 3 == 0) {
            for (uint32_t i = 0; i < nb; i++) gb_str_appendf(&b, "l%u\n", gb_rng_bounded(&rng, alpha));
        } else {
            const char *p = a.data;
            while (*p) {
                const char *nl = strchr(p, '\n');
                uint32_t r = gb_rng_bounded(&rng, 10);
                if (r == 0) gb_str_appendf(&b, "new%u\n", gb_rng_bounded(&rng, 3));
                if (r != 1) gb_str_append_n(&b, p, (size_t)(nl - p) + 1);
                p = nl + 1;
            }
        }
        GbDiffOps ops = {0};
        gb_diff_lines(a.data, b.data, &ops);
        assert_true(check_script(a.data, b.data, &ops) != (size_t)-1);
        gb_array_free(&ops);
        gb_str_destroy(&a);
        gb_str_destroy(&b);
    }
}

static void test_linediff_line_count(void **state)
{
    (void)state;
    assert_int_equal(gb_diff_line_count(NULL), 0);
    assert_int_equal(gb_diff_line_count(""), 0);
    assert_int_equal(gb_diff_line_count("a"), 1);
    assert_int_equal(gb_diff_line_count("a\n"), 1);
    assert_int_equal(gb_diff_line_count("a\n\n"), 2);
    assert_int_equal(gb_diff_line_count("\n"), 1);
}

static void test_linediff_html_escape(void **state)
{
    (void)state;
    GbStr s;
    gb_str_init(&s);
    const char *t = "if a < b and c > d: s = \"x\" + 'y' & z";
    gb_html_escape(&s, t, strlen(t));
    assert_string_equal(s.data, "if a &lt; b and c &gt; d: s = &quot;x&quot; + &#39;y&#39; &amp; z");
    gb_str_clear(&s);
    gb_html_escape(&s, "</script>", 9);
    assert_string_equal(s.data, "&lt;/script&gt;");
    gb_str_destroy(&s);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static void test_linediff_render_pairs_changes_and_escapes(void **state)
{
    (void)state;
    GbStr s;
    gb_str_init(&s);
    gb_diff_render_html(&s, "a\nif x < 1:\nc\nold\n", "a\nif x <= 1:\nc\nnew1\nnew2\nd\n");
    assert_int_equal(count(s.data, "<tr class=\"eq\">"), 2);  /* a, c */
    assert_int_equal(count(s.data, "<tr class=\"chg\">"), 2); /* the if line; old/new1 */
    assert_int_equal(count(s.data, "<tr class=\"ins\">"), 2); /* new2, d */
    assert_int_equal(count(s.data, "<tr class=\"del\">"), 0);
    assert_non_null(strstr(s.data, "if x &lt;= 1:"));
    assert_null(strstr(s.data, "x <"));
    /* Line numbers are 1-based on each side: "d" is line 6 of the right side. */
    assert_non_null(strstr(s.data, "<td class=\"ln\">6</td><td class=\"code\">d</td>"));
    gb_str_destroy(&s);
}

/* The unified diff reads like `diff -u` (expected output taken from GNU diff 3.8). */
static void test_linediff_unified_like_diff_u(void **state)
{
    (void)state;
    const char *a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n";
    const char *b = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nM\nn\nz\n";
    GbStr out;
    gb_str_init(&out);
    gb_diff_render_unified(&out, "main.py", a, b);
    assert_string_equal(out.data, "--- a/main.py\n+++ b/main.py\n"
                                  "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
                                  "@@ -10,5 +10,6 @@\n j\n k\n l\n-m\n+M\n n\n+z\n");
    gb_str_clear(&out);
    gb_diff_render_unified(&out, "main.py", a, a);
    assert_int_equal(out.len, 0);
    gb_diff_render_unified(&out, "new.py", "", "x = 1\n");
    assert_string_equal(out.data, "--- a/new.py\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n");
    gb_str_destroy(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linediff_cases_are_shortest_scripts),
        cmocka_unit_test(test_linediff_random_pairs_match_dynamic_programme),
        cmocka_unit_test(test_linediff_line_count),
        cmocka_unit_test(test_linediff_unified_like_diff_u),
        cmocka_unit_test(test_linediff_html_escape),
        cmocka_unit_test(test_linediff_render_pairs_changes_and_escapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
