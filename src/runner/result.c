/* Run results: init/destroy, status names, config defaults, and mapping a raw run (the
 * worker's and the child's records) to a GbRunResult. */
#include "src/runner/runner.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "src/runner/runner_private.h"

void gb_run_result_init(GbRunResult *r)
{
    memset(r, 0, sizeof *r);
    r->status = GB_RUN_ERROR;
}

void gb_run_result_destroy(GbRunResult *r)
{
    if (!r) return;
    free(r->failed_test);
    free(r->exc_type);
    free(r->exc_message);
    free(r->out);
    free(r->err);
    for (size_t i = 0; i < r->failed_tests.len; i++) free(r->failed_tests.items[i]);
    gb_array_free(&r->failed_tests);
    memset(r, 0, sizeof *r);
}

const char *gb_run_status_name(GbRunStatus s)
{
    switch (s) {
    case GB_RUN_PASS:
        return "pass";
    case GB_RUN_FAIL:
        return "fail";
    case GB_RUN_TIMEOUT:
        return "timeout";
    case GB_RUN_CRASH:
        return "crash";
    case GB_RUN_ERROR:
        return "error";
    }
    return "?";
}

void gb_pool_config_defaults(GbPoolConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->python = GB_DEFAULT_PYTHON;
    cfg->workers = 0;
    cfg->timeout_s = 10.0;
    cfg->cpu_s = 10.0;
    cfg->mem_mb = 4096;
    cfg->fsize_mb = 64;
    cfg->nofile = 256;
    cfg->nproc = 64;
    cfg->output_cap = 64 * 1024;
    cfg->stderr_fails = false;
    cfg->lint = false;
    cfg->sandbox = GB_SANDBOX_AUTO;
    cfg->disk_mb = 256;
}

static char *gb_runner__take_str(GbStr *s)
{
    return gb_str_take(s);
}

/* What every kind of run reports the same way: wall time, peak memory, outputs, signal. */
static void gb_runner__take_outputs(GbRaw *raw, GbRunResult *out)
{
    out->wall_s = raw->wall;
    out->peak_rss_kb = raw->maxrss;
    free(out->out);
    free(out->err);
    out->out_total = raw->out_total;
    out->out = gb_runner__take_str(&raw->out);
    out->err = gb_runner__take_str(&raw->err);
    out->signal = raw->signal;
}

/* Fill out from one raw run (status, exception, outputs). */
void gb_runner_map(const GbPool *pool, GbRaw *raw, GbRunResult *out)
{
    const GbRec *c = &raw->child_rec;
    gb_runner__take_outputs(raw, out);
    if (raw->interrupted) {
        out->status = GB_RUN_ERROR;
        out->exc_message = gb_strdup("interrupted");
        return;
    }
    if (raw->timed_out) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("wall-clock limit of %g s exceeded", pool->cfg.timeout_s);
        return;
    }
    if (raw->worker_died) {
        out->status = GB_RUN_CRASH;
        out->exc_message = gb_strdup("the worker process died during the run (the program killed it, or it was "
                                     "killed from outside twice)");
        return;
    }
    if (raw->signal == SIGXCPU || (raw->signal == SIGKILL && raw->cpu + 0.05 >= pool->cfg.cpu_s)) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("CPU limit of %g s exceeded", pool->cfg.cpu_s);
        return;
    }
    if (raw->signal != 0) {
        out->status = GB_RUN_CRASH;
        out->exc_type = gb_strdup("Signal");
        out->exc_message = gb_asprintf("killed by signal %d (%s)", raw->signal, strsignal(raw->signal));
        return;
    }
    if (!gb_rec_find(c, "outcome")) {
        out->status = GB_RUN_FAIL;
        out->exc_type = gb_strdup("ProcessExit");
        out->exc_message = gb_asprintf("the process ended (exit status %d) before the tests finished", raw->exit_code);
        return;
    }
    /* The seal (harness_seal.py): a record counts only when it carries the token the worker gave
     * this run after the fork, and the child then exited with status 0 (the harness always
     * does); anything else was written by the program. */
    const GbRecField *want = gb_rec_find(&raw->done_rec, "token"), *got = gb_rec_find(c, "token");
    if (!want || want->vlen == 0 || !got || got->vlen != want->vlen || memcmp(got->val, want->val, want->vlen) != 0) {
        out->status = GB_RUN_FAIL;
        out->exc_type = gb_strdup("Tampering");
        out->exc_message = gb_strdup("the result record does not carry the run's token: it was not written by the "
                                     "harness");
        return;
    }
    if (raw->exit_code != 0) {
        out->status = GB_RUN_FAIL;
        out->exc_type = gb_strdup("ProcessExit");
        out->exc_message =
            gb_asprintf("the process exited with status %d after its result was written", raw->exit_code);
        return;
    }
    out->exc_type = gb_rec_dup(c, "exc_type");
    out->exc_message = gb_rec_dup(c, "exc_message");
    out->failed_test = gb_rec_dup(c, "failed_test");
    if (out->exc_type && !*out->exc_type) {
        free(out->exc_type);
        out->exc_type = NULL;
    }
    if (out->failed_test && !*out->failed_test) {
        free(out->failed_test);
        out->failed_test = NULL;
    }
    if (gb_rec_is(c, "outcome", "pass")) {
        out->status = GB_RUN_PASS;
    } else if (gb_rec_is(c, "outcome", "fail")) {
        out->status = GB_RUN_FAIL;
        char *list = gb_rec_dup(c, "failed_tests");
        if (list) {
            char *save = NULL;
            for (char *t = strtok_r(list, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
                gb_array_push(&out->failed_tests, gb_strdup(t));
            free(list);
        }
    } else {
        out->status = GB_RUN_ERROR;
        if (!out->exc_message) out->exc_message = gb_strdup("the harness reported an error");
    }
    out->tests_run = (int)gb_rec_long(c, "tests_run", out->status == GB_RUN_PASS || out->status == GB_RUN_FAIL ? 1 : 0);
}

void gb_runner_map_exec(GbRaw *raw, double timeout_s, double cpu_s, GbRunResult *out)
{
    const GbRec *c = &raw->child_rec;
    gb_runner__take_outputs(raw, out);
    out->tests_run = 1;
    if (raw->interrupted) {
        out->status = GB_RUN_ERROR;
        out->exc_message = gb_strdup("interrupted");
        return;
    }
    if (raw->timed_out) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("wall-clock limit of %g s exceeded", timeout_s);
        return;
    }
    if (raw->worker_died) {
        out->status = GB_RUN_CRASH;
        out->exc_message = gb_strdup("the worker process died during the run");
        return;
    }
    if (raw->signal == SIGXCPU || (raw->signal == SIGKILL && raw->cpu + 0.05 >= cpu_s)) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("CPU limit of %g s exceeded", cpu_s);
        return;
    }
    if (raw->signal != 0) {
        out->status = GB_RUN_CRASH;
        out->exc_type = gb_strdup("Signal");
        out->exc_message = gb_asprintf("killed by signal %d (%s)", raw->signal, strsignal(raw->signal));
        return;
    }
    /* The command cannot write a record (its pipe was closed before the exec): a record means
     * the harness failed before the exec, and it counts only with the run's token. */
    if (c->fields.len) {
        const GbRecField *want = gb_rec_find(&raw->done_rec, "token"), *got = gb_rec_find(c, "token");
        bool sealed = want && want->vlen && got && got->vlen == want->vlen && !memcmp(got->val, want->val, want->vlen);
        if (!sealed) {
            out->status = GB_RUN_FAIL;
            out->exc_type = gb_strdup("Tampering");
            out->exc_message = gb_strdup("a result record that the harness did not write");
            return;
        }
        out->status = GB_RUN_ERROR;
        char *type = gb_rec_dup(c, "exc_type"), *msg = gb_rec_dup(c, "exc_message");
        out->exc_message = gb_asprintf("the sandbox could not start the command: %s%s%s", type ? type : "",
                                       type ? ": " : "", msg ? msg : "");
        free(type);
        free(msg);
        return;
    }
    if (raw->exit_code != 0) {
        out->status = GB_RUN_FAIL;
        out->exc_type = gb_strdup("ExitStatus");
        out->exc_message = gb_asprintf("exit status %d", raw->exit_code);
        return;
    }
    out->status = GB_RUN_PASS;
}

void gb_runner_fail_stderr(GbRunResult *out)
{
    if (out->status != GB_RUN_PASS || !out->err || !*out->err) return;
    out->status = GB_RUN_FAIL;
    free(out->exc_type);
    free(out->exc_message);
    out->exc_type = gb_strdup("StderrOutput");
    size_t n = strlen(out->err);
    out->exc_message = gb_asprintf("output on stderr: %.200s%s", out->err, n > 200 ? "..." : "");
}

void gb_runner_clear_outcome(GbRunResult *r)
{
    free(r->failed_test);
    free(r->exc_type);
    free(r->exc_message);
    r->failed_test = r->exc_type = r->exc_message = NULL;
}

char *gb_runner_excerpt(const char *s)
{
    size_t n = strlen(s);
    GbStr o;
    gb_str_init(&o);
    gb_str_append(&o, "'");
    for (size_t i = 0; i < n && i < 120; i++) {
        if (s[i] == '\n')
            gb_str_append(&o, "\\n");
        else
            gb_str_append_n(&o, s + i, 1);
    }
    gb_str_append(&o, n > 120 ? "...'" : "'");
    return gb_str_take(&o);
}
