/* The docs agree with the lists. Every Markdown file of the repository (any folder depth, but not
 * build directories, third_party/ or hidden folders): each "<N> operators", "<N> metrics" and
 * "<N> gates" states GB_OP_COUNT, GB_METRIC_COUNT or GB_GATE_COUNT. nsga2/README.md lists the gates
 * of nsga2/gate_list.h in order, with their rules. README.md names every other README.md (its
 * pointers) and has a row in its subcommand table for every command of src/cli/command_list.h. */
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "nsga2/gate_list.h"
#include "operators/operator.h"
#include "src/base/util.h"
#include "tests/unit/helpers.h"

/* The command names of the CLI as typed on the command line (inject_bugs -> inject-bugs). */
static const char *const command_names[] = {
#define GB_COMMAND(name, summary) #name,
#include "src/cli/command_list.h"
#undef GB_COMMAND
};
enum { COMMAND_COUNT = sizeof command_names / sizeof command_names[0] };

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

/* Count the gates that text does not list as a numbered "N. **key**: rule" line after the gate
 * before it, plus one if a gate follows the last one; each problem is printed with name. */
static int check_gate_list(const char *text, const char *name)
{
    int bad = 0;
    const char *at = text;
    for (int g = 0; g < GB_GATE_COUNT; g++) {
        char *line = gb_asprintf("\n%d. **%s**: %s\n", g + 1, gb_gate_name((GbGate)g), gb_gate_description((GbGate)g));
        const char *p = strstr(at, line);
        if (p) {
            at = p + strlen(line) - 1; /* the line's own newline */
        } else {
            print_error("%s lacks (after the previous gate) the line:%s", name, line);
            bad++;
        }
        free(line);
    }
    char *extra = gb_asprintf("\n%d. ", GB_GATE_COUNT + 1);
    if (strncmp(at, extra, strlen(extra)) == 0) {
        print_error("%s lists more gates than nsga2/gate_list.h\n", name);
        bad++;
    }
    free(extra);
    return bad;
}

/* Count the commands of command_list.h that have no table row "| `name` |" in text. */
static int check_command_table(const char *text, const char *name)
{
    int bad = 0;
    for (int c = 0; c < COMMAND_COUNT; c++) {
        char *cmd = gb_strdup(command_names[c]);
        for (char *q = cmd; *q; q++)
            if (*q == '_') *q = '-';
        char *row = gb_asprintf("\n| `%s` |", cmd);
        if (!strstr(text, row)) {
            print_error("%s: the subcommand table has no row for `%s`\n", name, cmd);
            bad++;
        }
        free(row);
        free(cmd);
    }
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

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The repository's Markdown files, as paths relative to the root (owned). */
typedef GbArray(char *) MdFiles;

/* Walk the folder rel ("" for the root) and every folder below it. */
static void md_files_collect(MdFiles *files, const char *root, const char *rel)
{
    char *dir = *rel ? gb_asprintf("%s/%s", root, rel) : gb_strdup(root);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "third_party") == 0) continue;
        char *child = *rel ? gb_asprintf("%s/%s", rel, e->d_name) : gb_strdup(e->d_name);
        char *full = gb_asprintf("%s/%s", root, child);
        DIR *sub = opendir(full);
        if (sub) {
            closedir(sub);
            /* Build directories (build/, build-asan/, ...) hold generated files, not docs. */
            bool build = strncmp(e->d_name, "build", 5) == 0 && !*rel;
            if (!build) md_files_collect(files, root, child);
            free(child);
        } else if (ends_with(e->d_name, ".md")) {
            gb_array_push(files, child);
        } else {
            free(child);
        }
        free(full);
    }
    closedir(d);
    free(dir);
}

static MdFiles md_files(void)
{
    const char *root = getenv("GB_SOURCE_ROOT");
    assert_non_null(root);
    MdFiles files = {0};
    md_files_collect(&files, root, "");
    return files;
}

static void md_files_destroy(MdFiles *files)
{
    for (size_t i = 0; i < files->len; i++) free(files->items[i]);
    gb_array_free(files);
}

static bool md_files_has(const MdFiles *files, const char *rel)
{
    for (size_t i = 0; i < files->len; i++)
        if (strcmp(files->items[i], rel) == 0) return true;
    return false;
}

/* The walk finds the READMEs in every folder depth. */
static void test_docs_walk_finds_every_readme(void **state)
{
    (void)state;
    MdFiles files = md_files();
    const char *expected[] = {
        "README.md",          "src/README.md",        "nsga2/README.md", "fitness/README.md", "src/runner/README.md",
        "src/eval/README.md", "tests/bench/README.md"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!md_files_has(&files, expected[i])) fail_msg("the walk did not find %s", expected[i]);
    md_files_destroy(&files);
}

static void test_docs_state_the_list_counts(void **state)
{
    (void)state;
    MdFiles files = md_files();
    int bad = 0;
    for (size_t i = 0; i < files.len; i++) {
        char *text = read_root_file(files.items[i]);
        if (!text) fail_msg("cannot read %s", files.items[i]);
        bad += check_counts(text, files.items[i]);
        free(text);
    }
    md_files_destroy(&files);
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

/* nsga2/README.md's numbered list of the gates is the gate list: same order, same rules. */
static void test_nsga2_readme_lists_the_gates(void **state)
{
    (void)state;
    char *text = read_root_file("nsga2/README.md");
    assert_non_null(text);
    int bad = check_gate_list(text, "nsga2/README.md");
    free(text);
    if (bad) fail_msg("nsga2/README.md: %d gate(s) differ from nsga2/gate_list.h", bad);
}

/* The gate checker finds a missing or swapped gate, a changed rule and an extra gate. */
static void test_docs_gate_checker_finds_differences(void **state)
{
    (void)state;
    char *good = gb_strdup("intro\n");
    for (int g = 0; g < GB_GATE_COUNT; g++) {
        char *next =
            gb_asprintf("%s%d. **%s**: %s\n", good, g + 1, gb_gate_name((GbGate)g), gb_gate_description((GbGate)g));
        free(good);
        good = next;
    }
    assert_int_equal(check_gate_list(good, "sample"), 0);

    char *extra = gb_asprintf("%s%d. **more**: a gate the list lacks.\n", good, GB_GATE_COUNT + 1);
    assert_int_equal(check_gate_list(extra, "sample"), 1);
    free(extra);

    /* The first two gates swapped: neither stands under its own number. */
    char *swapped =
        gb_asprintf("intro\n1. **%s**: %s\n2. **%s**: %s\n", gb_gate_name((GbGate)1), gb_gate_description((GbGate)1),
                    gb_gate_name((GbGate)0), gb_gate_description((GbGate)0));
    assert_true(check_gate_list(swapped, "sample") > 0);
    free(swapped);

    char *changed = gb_strdup(good);
    char *colon = strstr(changed, "**: ");
    assert_non_null(colon);
    colon[4] = colon[4] == 'X' ? 'Y' : 'X';
    assert_int_equal(check_gate_list(changed, "sample"), 1);
    free(changed);
    free(good);
}

/* README.md names every other README of the repository, so a reader finds each of them. */
static void test_readme_points_to_every_readme(void **state)
{
    (void)state;
    MdFiles files = md_files();
    char *readme = read_root_file("README.md");
    assert_non_null(readme);
    int bad = 0;
    for (size_t i = 0; i < files.len; i++) {
        const char *rel = files.items[i];
        if (strcmp(rel, "README.md") == 0 || !ends_with(rel, "/README.md")) continue;
        char *quoted = gb_asprintf("`%s`", rel);
        if (!strstr(readme, quoted)) {
            print_error("README.md does not point to %s\n", rel);
            bad++;
        }
        free(quoted);
    }
    free(readme);
    md_files_destroy(&files);
    if (bad) fail_msg("README.md lacks %d pointer(s)", bad);
}

/* README.md's subcommand table has a row for every command; the checker finds a missing one. */
static void test_readme_lists_every_command(void **state)
{
    (void)state;
    char *readme = read_root_file("README.md");
    assert_non_null(readme);
    int bad = check_command_table(readme, "README.md");
    free(readme);
    if (bad) fail_msg("README.md's subcommand table lacks %d command(s)", bad);

    char *partial =
        gb_strdup("| command | what | example |\n|---|---|---|\n| `version` | prints | `genebench version` |\n");
    assert_int_equal(check_command_table(partial, "sample"), COMMAND_COUNT - 1);
    free(partial);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_walk_finds_every_readme),
        cmocka_unit_test(test_docs_state_the_list_counts),
        cmocka_unit_test(test_docs_checker_finds_wrong_counts),
        cmocka_unit_test(test_nsga2_readme_lists_the_gates),
        cmocka_unit_test(test_docs_gate_checker_finds_differences),
        cmocka_unit_test(test_readme_points_to_every_readme),
        cmocka_unit_test(test_readme_lists_every_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
