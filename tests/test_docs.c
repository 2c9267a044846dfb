/* The docs agree with the lists: every "<N> operators", "<N> metrics" and "<N> gates" in the
 * repository's Markdown files (the top level and one folder down) states GB_OP_COUNT,
 * GB_METRIC_COUNT or GB_GATE_COUNT, and README.md lists the gates of nsga2/gate_list.h in order,
 * with their rules. */
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "nsga2/gate_list.h"
#include "operators/operator.h"
#include "src/base/util.h"
#include "tests/helpers.h"

/* Count statements in text that disagree with the lists; each is printed with name:line. */
static int check_counts(const char *text, const char *name)
{
    /* A number, then only words that mean the whole set, then the noun. */
    regex_t re;
    int rc =
        regcomp(&re,
                "(^|[^0-9A-Za-z.])([0-9]+)[ \n]((transformation|hardening|semantics-preserving|raw|NSGA-II)[ \n]+)*"
                "(operators|metrics|gates)([^A-Za-z]|$)",
                REG_EXTENDED);
    assert_int_equal(rc, 0);
    int bad = 0;
    const char *p = text;
    regmatch_t m[7];
    while (regexec(&re, p, 7, m, p == text ? 0 : REG_NOTBOL) == 0) {
        long n = strtol(p + m[2].rm_so, NULL, 10);
        const char *noun = p + m[5].rm_so;
        long want = strncmp(noun, "operators", 9) == 0 ? GB_OP_COUNT
                    : strncmp(noun, "metrics", 7) == 0 ? GB_METRIC_COUNT
                                                       : GB_GATE_COUNT;
        if (n != want) {
            size_t line = 1;
            for (const char *q = text; q < p + m[2].rm_so; q++) line += *q == '\n';
            print_error("%s:%zu: \"%.*s\" but the list has %ld\n", name, line, (int)(m[5].rm_eo - m[2].rm_so),
                        p + m[2].rm_so, want);
            bad++;
        }
        p += m[5].rm_eo;
    }
    regfree(&re);
    return bad;
}

static char *read_root_file(const char *rel)
{
    const char *root = getenv("GB_SOURCE_ROOT");
    assert_non_null(root);
    char *path = gb_asprintf("%s/%s", root, rel);
    GbError err;
    size_t len;
    char *text = gb_read_file(path, &len, &err);
    free(path);
    return text;
}

static bool ends_with_md(const char *s)
{
    size_t n = strlen(s);
    return n > 3 && strcmp(s + n - 3, ".md") == 0;
}

static void test_docs_state_the_list_counts(void **state)
{
    (void)state;
    const char *root = getenv("GB_SOURCE_ROOT");
    assert_non_null(root);
    int bad = 0, files = 0;
    DIR *d = opendir(root);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "build") == 0 || strcmp(e->d_name, "third_party") == 0) continue;
        if (ends_with_md(e->d_name)) {
            char *text = read_root_file(e->d_name);
            if (text) bad += check_counts(text, e->d_name), files++;
            free(text);
            continue;
        }
        char *sub = gb_asprintf("%s/%s", root, e->d_name);
        DIR *sd = opendir(sub);
        struct dirent *f;
        while (sd && (f = readdir(sd)) != NULL) {
            if (!ends_with_md(f->d_name)) continue;
            char *rel = gb_asprintf("%s/%s", e->d_name, f->d_name);
            char *text = read_root_file(rel);
            if (text) bad += check_counts(text, rel), files++;
            free(text);
            free(rel);
        }
        if (sd) closedir(sd);
        free(sub);
    }
    closedir(d);
    assert_true(files >= 2); /* README.md and src/README.md at least */
    if (bad) fail_msg("%d statement(s) disagree with the lists", bad);
}

/* The checker finds a wrong count (so the test above can fail). */
static void test_docs_checker_finds_wrong_counts(void **state)
{
    (void)state;
    char *text = gb_asprintf("ok: %d operators and %d metrics.\nthe 23 operators\n7 complexity metrics are fine\n"
                             "%d raw\nmetrics, 3 gates\n",
                             GB_OP_COUNT, GB_METRIC_COUNT, GB_METRIC_COUNT + 1);
    assert_int_equal(check_counts(text, "sample"), 3);
    free(text);
}

/* README.md's numbered list of the gates is the gate list: same order, same rules. */
static void test_readme_lists_the_gates(void **state)
{
    (void)state;
    char *readme = read_root_file("README.md");
    assert_non_null(readme);
    const char *at = readme;
    for (int g = 0; g < GB_GATE_COUNT; g++) {
        char *line = gb_asprintf("\n%d. **%s**: %s\n", g + 1, gb_gate_name((GbGate)g), gb_gate_description((GbGate)g));
        const char *p = strstr(at, line);
        if (!p) fail_msg("README.md lacks (after the previous gate) the line:%s", line);
        at = p + strlen(line) - 1; /* the line's own newline */
        free(line);
    }
    /* No further gate after the last one. */
    char *extra = gb_asprintf("\n%d. ", GB_GATE_COUNT + 1);
    if (strncmp(at, extra, strlen(extra)) == 0) fail_msg("README.md lists more gates than nsga2/gate_list.h");
    free(extra);
    free(readme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_state_the_list_counts),
        cmocka_unit_test(test_docs_checker_finds_wrong_counts),
        cmocka_unit_test(test_readme_lists_the_gates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
