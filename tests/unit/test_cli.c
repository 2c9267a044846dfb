#include "src/cli/cli.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/helpers.h"

/* A command with one option of every kind, and a second table at an offset. */
typedef struct {
    long n;
} MoreOpts;

typedef struct {
    bool flag;
    const char *name;
    long count;
    double ratio;
    int mode;
    GbCliList tags;
    int pair[2];
    MoreOpts more;
} Opts;

static bool parse_pair(const char *v, void *dest, char *msg, size_t size)
{
    int *p = dest;
    if (sscanf(v, "%d:%d", &p[0], &p[1]) == 2) return true;
    snprintf(msg, size, "expects A:B");
    return false;
}

static const char *const modes[] = {"fast", "slow", NULL};

static const GbCliOption opts_table[] = {
    GB_CLI_FLAG("flag", 'f', Opts, flag, "a flag"),
    GB_CLI_STRING("name", 'n', Opts, name, "NAME", "anon", "a name"),
    GB_CLI_LONG("count", 0, Opts, count, "N", 1, 10, "3", "a count\nover two lines"),
    GB_CLI_DOUBLE("ratio", 'r', Opts, ratio, "F", 0, 1, "0.5", "a ratio"),
    GB_CLI_ENUM("mode", 0, Opts, mode, NULL, modes, "slow", "a mode"),
    GB_CLI_LIST("tag", 't', Opts, tags, "T", "a tag"),
    GB_CLI_PARSE("pair", 0, Opts, pair, "A:B", parse_pair, NULL, "a pair"),
    GB_CLI_END,
};
static const GbCliOption more_table[] = {
    GB_CLI_LONG("more", 'm', MoreOpts, n, "N", -5, LONG_MAX, NULL, "from the shared table"),
    GB_CLI_END,
};
static const GbCliExit exits[] = {{0, "fine"}, {1, "not fine"}, {2, "usage error"}, {0, NULL}};
static const GbCliCommand cmd = {
    .name = "demo",
    .synopsis = "IN [IN]",
    .about = "  A demo command.\n",
    .options = opts_table,
    .more = more_table,
    .more_offset = offsetof(Opts, more),
    .min_args = 1,
    .max_args = 2,
    .exits = exits,
};

/* Parse a NULL-terminated list of words (copied: getopt reorders argv). */
static int run(Opts *o, GbCliArgs *a, const char *const *words)
{
    static char buf[32][64];
    static char *argv[33];
    int argc = 0;
    for (; words[argc]; argc++) {
        assert_true(argc < 32);
        snprintf(buf[argc], sizeof buf[argc], "%s", words[argc]);
        argv[argc] = buf[argc];
    }
    argv[argc] = NULL;
    gb_cli_list_destroy(&o->tags);
    memset(o, 0, sizeof *o);
    return gb_cli_parse(&cmd, argc, argv, o, a);
}

static void test_cli_defaults_are_set(void **state)
{
    (void)state;
    Opts o = {0};
    GbCliArgs a;
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "in.jsonl", NULL}), GB_CLI_CONTINUE);
    assert_false(o.flag);
    assert_string_equal(o.name, "anon");
    assert_int_equal(o.count, 3);
    assert_true(o.ratio == 0.5);
    assert_int_equal(o.mode, 1);
    assert_int_equal(o.tags.len, 0);
    assert_int_equal(a.count, 1);
    assert_string_equal(a.items[0], "in.jsonl");
}

static void test_cli_every_kind_parses(void **state)
{
    (void)state;
    Opts o = {0};
    GbCliArgs a;
    const char *w[] = {"demo", "-f",  "--name=x", "a",   "--count", "10",  "-r", "0",  "--mode", "fast",
                       "-t",   "one", "--tag",    "two", "--pair",  "4:5", "-m", "-5", "b",      NULL};
    assert_int_equal(run(&o, &a, w), GB_CLI_CONTINUE);
    assert_true(o.flag);
    assert_string_equal(o.name, "x");
    assert_int_equal(o.count, 10);
    assert_true(o.ratio == 0);
    assert_int_equal(o.mode, 0);
    assert_int_equal(o.tags.len, 2);
    assert_string_equal(o.tags.items[1], "two");
    assert_int_equal(o.pair[0], 4);
    assert_int_equal(o.pair[1], 5);
    assert_int_equal(o.more.n, -5);
    /* positional arguments may come between options */
    assert_int_equal(a.count, 2);
    assert_string_equal(a.items[0], "a");
    assert_string_equal(a.items[1], "b");
    gb_cli_list_destroy(&o.tags);
}

static void test_cli_ranges_are_checked(void **state)
{
    (void)state;
    Opts o = {0};
    GbCliArgs a;
    const char *bad[][4] = {
        {"--count", "0"},
        {"--count", "11"},
        {"--count", "2.5"},
        {"--count", ""},
        {"--count", "9999999999999999999999"},
        {"-r", "1.01"},
        {"-r", "-0.1"},
        {"-r", "nan"},
        {"-r", "NaN"},
        {"-r", "inf"},
        {"-r", "-inf"},
        {"-r", "0.5x"},
        {"--mode", "medium"},
        {"--pair", "4"},
        {"-m", "-6"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *w[] = {"demo", bad[i][0], bad[i][1], "in", NULL};
        assert_int_equal(run(&o, &a, w), GB_EXIT_USAGE);
    }
    /* the ends of a range are in it */
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "--count", "1", "-r", "1", "in", NULL}), GB_CLI_CONTINUE);
    assert_int_equal(o.count, 1);
    assert_true(o.ratio == 1);
}

static void test_cli_usage_errors(void **state)
{
    (void)state;
    Opts o = {0};
    GbCliArgs a;
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "--bogus", "in", NULL}), GB_EXIT_USAGE);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "-z", "in", NULL}), GB_EXIT_USAGE);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "in", "--count", NULL}), GB_EXIT_USAGE);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", NULL}), GB_EXIT_USAGE);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "a", "b", "c", NULL}), GB_EXIT_USAGE);
    /* a second parse starts over (the one optind convention) */
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "-f", "in", NULL}), GB_CLI_CONTINUE);
    assert_true(o.flag);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "--help", NULL}), GB_EXIT_OK);
    assert_int_equal(run(&o, &a, (const char *[]){"demo", "-h", NULL}), GB_EXIT_OK);
}

static void test_cli_help_is_generated(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gb_cli_usage(&cmd, f);
    fclose(f);
    assert_non_null(strstr(text, "usage: genebench demo IN [IN]\n"));
    assert_non_null(strstr(text, "  A demo command.\n"));
    assert_non_null(strstr(text, "  -f, --flag "));
    assert_non_null(strstr(text, "  -n, --name NAME "));
    assert_non_null(strstr(text, "      --count N "));
    /* the second line of a help text is indented to the column, then the default and range */
    assert_non_null(strstr(text, "a count\n                          over two lines (default 3) [1..10]\n"));
    assert_non_null(strstr(text, "a ratio (default 0.5) [0..1]"));
    assert_non_null(strstr(text, "--mode fast|slow"));
    assert_non_null(strstr(text, "a tag (repeatable)"));
    assert_non_null(strstr(text, "-m, --more N"));
    assert_non_null(strstr(text, "[>= -5]"));
    assert_non_null(strstr(text, "-h, --help"));
    assert_non_null(strstr(text, "\nexit status:\n  0    fine\n  1    not fine\n  2    usage error\n"));
    free(text);
}

static void test_cli_refuse_output_sees_links(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb_test_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *in = gb_asprintf("%s/in.jsonl", dir), *hard = gb_asprintf("%s/hard", dir), *sym = gb_asprintf("%s/sym", dir),
         *other = gb_asprintf("%s/other", dir), *absent = gb_asprintf("%s/absent", dir);
    FILE *f = fopen(in, "w");
    fputs("x\n", f);
    fclose(f);
    f = fopen(other, "w");
    fclose(f);
    assert_int_equal(link(in, hard), 0);
    assert_int_equal(symlink(in, sym), 0);
    const char *inputs[] = {other, in};
    assert_true(gb_cli_refuse_output("demo", in, inputs, 2));
    assert_true(gb_cli_refuse_output("demo", hard, inputs, 2));
    assert_true(gb_cli_refuse_output("demo", sym, inputs, 2));
    assert_false(gb_cli_refuse_output("demo", absent, inputs, 2));
    assert_false(gb_cli_refuse_output("demo", NULL, inputs, 2));
    assert_false(gb_cli_refuse_output("demo", other, inputs, 1 - 1));
    unlink(in), unlink(hard), unlink(sym), unlink(other);
    rmdir(dir);
    free(in), free(hard), free(sym), free(other), free(absent);
}

static void test_cli_lock_is_exclusive(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb_test_cli_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *out = gb_asprintf("%s/out.jsonl", dir), *lockfile = gb_asprintf("%s/out.jsonl.lock", dir);
    GbCliLock a, b;
    assert_true(gb_cli_lock(&a, "demo", out));
    /* flock locks belong to the open file: another process is refused */
    pid_t pid = fork();
    if (pid == 0) {
        GbCliLock c;
        _exit(gb_cli_lock(&c, "demo", out) ? 0 : 7);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    /* and so is a second open in this process */
    assert_false(gb_cli_lock(&b, "demo", out));
    gb_cli_unlock(&a);
    assert_int_equal(access(lockfile, F_OK), -1);
    assert_true(gb_cli_lock(&b, "demo", out));
    gb_cli_unlock(&b);
    rmdir(dir);
    free(out), free(lockfile);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_defaults_are_set),   cmocka_unit_test(test_cli_every_kind_parses),
        cmocka_unit_test(test_cli_ranges_are_checked), cmocka_unit_test(test_cli_usage_errors),
        cmocka_unit_test(test_cli_help_is_generated),  cmocka_unit_test(test_cli_refuse_output_sees_links),
        cmocka_unit_test(test_cli_lock_is_exclusive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
