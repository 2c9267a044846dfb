#pragma once
/* Helpers shared by the operator and edit-layer tests: a one-task program with its context,
 * site queries by source text, and running Python (always /usr/bin/python3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "operators/edit.h"
#include "operators/operator.h"
#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

typedef struct {
    GbTask task;
    GbProgram prog;
    TSParser *parser;
    GbOpContext ctx;
    GbSiteList sites;
} OpEnv;

/* The harness rules op_env_open gives its task (tests of harness-dependent operators set it). */
static GbHarnessRules op_env_harness = GB_HARNESS_NONE;
/* The kind of tests op_env_open gives its task (the script forms of S6 need stdio). */
static GbTestKind op_env_kind = GB_TESTS_ASSERT;

static inline void op_env_open(OpEnv *e, const char *src, const char *entry_point, const char *test_code)
{
    gb_task_init(&e->task);
    e->task.harness = op_env_harness;
    e->task.kind = op_env_kind;
    e->task.id = gb_strdup("test/0");
    e->task.source = gb_strdup(src);
    e->task.entry_point = entry_point ? gb_strdup(entry_point) : NULL;
    e->task.test_code = test_code ? gb_strdup(test_code) : NULL;
    e->parser = gb_parser_new();
    gb_program_from_task(&e->prog, &e->task);
    gb_op_ctx_init(&e->ctx, &e->prog, &e->task, e->parser);
    gb_site_list_init(&e->sites);
}

static inline void op_env_close(OpEnv *e)
{
    gb_site_list_destroy(&e->sites);
    gb_op_ctx_destroy(&e->ctx);
    gb_program_destroy(&e->prog);
    ts_parser_delete(e->parser);
    gb_task_destroy(&e->task);
}

static inline const char *op_env_src(const OpEnv *e)
{
    return e->prog.modules.items[0].source;
}

/* Find the sites of op on the current program (into e->sites). */
static inline void op_env_find(OpEnv *e, GbOperatorId op)
{
    gb_op_find_sites(&e->ctx, gb_operator(op), &e->sites);
}

/* Index of the first site (of the last find) whose source text starts with text, or -1. */
static inline long op_env_site(const OpEnv *e, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < e->sites.len; i++) {
        const GbSite *s = &e->sites.items[i];
        const char *src = e->prog.modules.items[s->module].source;
        if (s->end - s->start >= n && strncmp(src + s->start, text, n) == 0) return (long)i;
    }
    return -1;
}

/* Find op's sites, apply at the one whose text starts with text (must exist), seed the rng. */
static inline void op_env_apply(OpEnv *e, GbOperatorId op, const char *text, uint64_t seed)
{
    op_env_find(e, op);
    long i = op_env_site(e, text);
    if (i < 0) fail_msg("%s: no site at '%s' in:\n%s", gb_operator(op)->name, text, op_env_src(e));
    GbRng rng;
    gb_rng_seed(&rng, seed, 7);
    GbError err = {{0}};
    GbApplyStatus st = gb_op_apply(&e->ctx, gb_operator(op), &e->sites.items[i], &rng, &err);
    if (st != GB_APPLY_OK) fail_msg("%s at '%s': %s", gb_operator(op)->name, text, err.msg);
}

/* Run a Python script with /usr/bin/python3; returns its stdout+stderr (owned) and the exit
 * status in *status. */
static inline char *op_run_python(const char *script, int *status)
{
    char path[] = "/tmp/gb_test_py_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(script);
    assert_int_equal(write(fd, script, len), (ssize_t)len);
    close(fd);
    char *cmd = gb_asprintf("/usr/bin/python3 %s 2>&1", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) gb_str_append_n(&out, buf, n);
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    unlink(path);
    free(cmd);
    return gb_str_take(&out);
}
