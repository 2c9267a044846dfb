#pragma once
/* Behaviour checks for operator tests: variants of a program run under /usr/bin/python3 and
 * compared with the original, and site listings checked against what must (not) be offered.
 * Shared by the structural operators' tests. */
#include "fitness/fitness.h"
#include "operators/harness_policy.h"
#include "tests/unit/op_helpers.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* ---- helpers ---- */

/* Append src as a Python string literal. */
static inline void py_literal(GbStr *out, const char *src)
{
    gb_str_append(out, "\"");
    for (const char *p = src; *p; p++) {
        if (*p == '\\' || *p == '"')
            gb_str_appendf(out, "\\%c", *p);
        else if (*p == '\n')
            gb_str_append(out, "\\n");
        else if (*p == '\t')
            gb_str_append(out, "\\t");
        else
            gb_str_append_n(out, p, 1);
    }
    gb_str_append(out, "\"");
}

/* Append Python code that writes the program's helper modules into a fresh directory on
 * sys.path, executes its main module in a namespace `ns`, then runs `check` there. */
static inline void append_variant(GbStr *script, const GbProgram *p, const char *check)
{
    gb_str_append(script, "ns = {'__name__': 'main'}\nd = tempfile.mkdtemp()\nsys.path.insert(0, d)\n");
    for (size_t m = 1; m < p->modules.len; m++) {
        gb_str_append(script, "open(os.path.join(d, ");
        py_literal(script, p->modules.items[m].path);
        gb_str_append(script, "), 'w').write(");
        py_literal(script, p->modules.items[m].source);
        gb_str_append(script, ")\n");
    }
    gb_str_append(script, "exec(");
    py_literal(script, p->modules.items[0].source);
    gb_str_append(script, ", ns)\nexec(");
    py_literal(script, check);
    gb_str_append(script, ", ns)\nsys.path.remove(d)\nshutil.rmtree(d)\n");
    for (size_t m = 1; m < p->modules.len; m++) {
        gb_str_append(script, "sys.modules.pop(");
        const char *path = p->modules.items[m].path;
        char *mod = gb_strndup(path, strlen(path) - 3);
        py_literal(script, mod);
        free(mod);
        gb_str_append(script, ", None)\n");
    }
}

static const char *const script_header = "import os, shutil, sys, tempfile\n";

/* For seeds 0..n-1, apply op at the site starting with `at` (NULL: at every site, one at a
 * time) and append each variant followed by `check` to one Python script. Returns the script
 * (owned); *count gets the number of variants. */
static inline char *variants_script(GbOperatorId op, const char *src, const char *at, int n, const char *check,
                                    int *count)
{
    GbStr script;
    gb_str_init(&script);
    gb_str_append(&script, script_header);
    *count = 0;
    for (int seed = 0; seed < n; seed++) {
        OpEnv e;
        op_env_open(&e, src, NULL, NULL);
        op_env_find(&e, op);
        size_t n_sites = at ? 1 : e.sites.len;
        op_env_close(&e);
        for (size_t k = 0; k < n_sites; k++) {
            op_env_open(&e, src, NULL, NULL);
            if (at) {
                op_env_apply(&e, op, at, (uint64_t)seed);
            } else {
                op_env_find(&e, op);
                GbRng rng;
                gb_rng_seed(&rng, (uint64_t)seed, 7);
                GbError err = {{0}};
                if (gb_op_apply(&e.ctx, gb_operator(op), &e.sites.items[k], &rng, &err) != GB_APPLY_OK)
                    fail_msg("%s at site %zu: %s", gb_operator(op)->name, k, err.msg);
            }
            append_variant(&script, &e.prog, check);
            (*count)++;
            op_env_close(&e);
        }
    }
    return gb_str_take(&script);
}

/* Apply op `times` times at random sites (seeded), then append the variant. */
static inline char *chain_script(GbOperatorId op, const char *src, int times, int n, const char *check)
{
    GbStr script;
    gb_str_init(&script);
    gb_str_append(&script, script_header);
    for (int seed = 0; seed < n; seed++) {
        OpEnv e;
        op_env_open(&e, src, NULL, NULL);
        GbRng rng;
        gb_rng_seed(&rng, (uint64_t)seed, 3);
        for (int i = 0; i < times; i++) {
            GbError err = {{0}};
            if (gb_op_apply_random(&e.ctx, gb_operator(op), &rng, NULL, &err) == GB_APPLY_REJECTED)
                fail_msg("%s rejected: %s", gb_operator(op)->name, err.msg);
        }
        append_variant(&script, &e.prog, check);
        op_env_close(&e);
    }
    return gb_str_take(&script);
}

/* Run the script; its output must be `expected` repeated n times. */
static inline void expect_output_repeated(const char *script, const char *expected, int n)
{
    int status;
    char *out = op_run_python(script, &status);
    GbStr want;
    gb_str_init(&want);
    gb_str_append(&want, "");
    for (int i = 0; i < n; i++) gb_str_append(&want, expected);
    if (status != 0 || strcmp(out, want.data) != 0)
        fail_msg("python exit %d, output:\n%s\nexpected %d times:\n%s", status, out, n, expected);
    gb_str_destroy(&want);
    free(out);
}

/* The behaviour of every single-site variant (and of random chains) equals the original's. */
static inline void expect_same_behaviour(GbOperatorId op, const char *src, const char *check, int seeds)
{
    GbStr orig;
    gb_str_init(&orig);
    gb_str_append(&orig, script_header);
    {
        OpEnv e;
        op_env_open(&e, src, NULL, NULL);
        append_variant(&orig, &e.prog, check);
        op_env_close(&e);
    }
    int status;
    char *expected = op_run_python(orig.data, &status);
    if (status != 0) fail_msg("original fails: %s", expected);
    int count;
    char *s = variants_script(op, src, NULL, seeds, check, &count);
    assert_true(count > 0);
    expect_output_repeated(s, expected, count);
    free(s);
    s = chain_script(op, src, 4, seeds, check);
    expect_output_repeated(s, expected, seeds);
    free(s);
    free(expected);
    gb_str_destroy(&orig);
}

/* Apply op at the site whose text starts with `at` and whose key ends with `:tag`. */
static inline void expect_applied_tag(GbOperatorId op, const char *src, const char *at, const char *tag, uint64_t seed,
                                      const char *want)
{
    OpEnv e;
    op_env_open(&e, src, NULL, NULL);
    op_env_find(&e, op);
    long found = -1;
    size_t n = strlen(at), tl = strlen(tag);
    for (size_t i = 0; i < e.sites.len && found < 0; i++) {
        const GbSite *st = &e.sites.items[i];
        size_t kl = strlen(st->key);
        if (strncmp(op_env_src(&e) + st->start, at, n) == 0 && kl > tl && strcmp(st->key + kl - tl, tag) == 0 &&
            st->key[kl - tl - 1] == ':')
            found = (long)i;
    }
    if (found < 0) fail_msg("no site '%s' with tag %s", at, tag);
    GbRng rng;
    gb_rng_seed(&rng, seed, 7);
    GbError err = {{0}};
    if (gb_op_apply(&e.ctx, gb_operator(op), &e.sites.items[found], &rng, &err) != GB_APPLY_OK) fail_msg("%s", err.msg);
    if (strcmp(op_env_src(&e), want) != 0) fail_msg("got:\n%s\nwant:\n%s", op_env_src(&e), want);
    op_env_close(&e);
}

static inline void expect_applied(GbOperatorId op, const char *src, const char *at, uint64_t seed, const char *want)
{
    OpEnv e;
    op_env_open(&e, src, NULL, NULL);
    op_env_apply(&e, op, at, seed);
    if (strcmp(op_env_src(&e), want) != 0) fail_msg("got:\n%s\nwant:\n%s", op_env_src(&e), want);
    op_env_close(&e);
}

/* Every text in `listed` must start a site; no text in `refused` may. */
static inline void expect_sites_t(GbOperatorId op, const char *src, const char *tests, const char *const *listed,
                                  size_t n_listed, const char *const *refused, size_t n_refused)
{
    OpEnv e;
    op_env_open(&e, src, NULL, tests);
    op_env_find(&e, op);
    for (size_t i = 0; i < n_listed; i++)
        if (op_env_site(&e, listed[i]) < 0)
            fail_msg("%s: '%s' should be a site in:\n%s", gb_operator(op)->name, listed[i], src);
    for (size_t i = 0; i < n_refused; i++)
        if (op_env_site(&e, refused[i]) >= 0)
            fail_msg("%s: '%s' must not be a site in:\n%s", gb_operator(op)->name, refused[i], src);
    op_env_close(&e);
}

static inline void expect_sites(GbOperatorId op, const char *src, const char *const *listed, size_t n_listed,
                                const char *const *refused, size_t n_refused)
{
    expect_sites_t(op, src, NULL, listed, n_listed, refused, n_refused);
}

static inline size_t count_sites(GbOperatorId op, const char *src, const char *tests)
{
    OpEnv e;
    op_env_open(&e, src, NULL, tests);
    op_env_find(&e, op);
    size_t n = e.sites.len;
    op_env_close(&e);
    return n;
}

/* ---- S4 AddThread ---- */
