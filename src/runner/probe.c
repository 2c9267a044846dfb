/* Probes for the equivalence check (runner.h: gb_pool_probe): one sandboxed run of kind
 * "probe" per program, its per-input results read from the sealed result record; with
 * GbPoolConfig.probes_apart, a run judged apart (harness_probe_apart.py) or, for stdio, one
 * ordinary stdio run per input. */
#include "src/runner/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/runner/runner_private.h"

/* A stdio probe run's wall-clock limit beyond the input's: the fork and the interpreter's start. */
#define GB_PROBE_START_S 1.0

void gb_probe_result_destroy(GbProbeResult *r)
{
    if (!r) return;
    gb_run_result_destroy(&r->run);
    for (size_t i = 0; i < r->items.len; i++) {
        free(r->items.items[i].value);
        free(r->items.items[i].out);
        free(r->items.items[i].branches);
    }
    gb_array_free(&r->items);
    free(r->branches);
    r->branches = NULL;
}

/* The per-input fields of a passing probe's record; false when one is missing or malformed
 * (then the run is a failure: a probe that completes always sends them all). */
static bool gb_probe__items(const GbRec *c, size_t n, GbProbeResult *out)
{
    if (gb_rec_long(c, "n", -1) != (long)n) return false;
    for (size_t i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "s%zu", i);
        GbProbeItem it = {GB_PROBE_SKIPPED, NULL, NULL, 0, 0, NULL};
        if (gb_rec_is(c, key, "ok"))
            it.status = GB_PROBE_OK;
        else if (gb_rec_is(c, key, "timeout"))
            it.status = GB_PROBE_TIMEOUT;
        else if (!gb_rec_is(c, key, "skip"))
            return false;
        if (it.status != GB_PROBE_SKIPPED) {
            snprintf(key, sizeof key, "v%zu", i);
            it.value = gb_rec_dup(c, key);
            snprintf(key, sizeof key, "o%zu", i);
            it.out = gb_rec_dup(c, key);
            snprintf(key, sizeof key, "c%zu", i);
            it.cpu_s = gb_rec_double(c, key, 0);
            snprintf(key, sizeof key, "w%zu", i);
            it.wall_s = gb_rec_double(c, key, 0);
            snprintf(key, sizeof key, "b%zu", i);
            it.branches = gb_rec_dup(c, key);
        }
        if (!it.value) it.value = gb_strdup("");
        if (!it.out) it.out = gb_strdup("");
        if (!it.branches) it.branches = gb_strdup("");
        if (it.status == GB_PROBE_TIMEOUT) {
            it.value[0] = '\0';
            it.out[0] = '\0';
        }
        gb_array_push(&out->items, it);
    }
    return true;
}

/* A stdio input's item from its ordinary stdio run (false: the run could not be made). */
static bool gb_probe__stdio_item(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbProbeSpec *spec,
                                 const char *input, GbProbeItem *it, GbError *err)
{
    GbRunSpec rs = {.kind = "stdio", .prog = prog, .task = task, .stdin_text = input, .out_cap = pool->cfg.output_cap};
    rs.timeout_s = spec->limit_s + GB_PROBE_START_S;
    GbRaw raw;
    gb_raw_init(&raw);
    GbRunResult res;
    gb_run_result_init(&res);
    bool ok = gb_pool_run_spec(pool, &rs, &raw, err);
    if (ok) gb_runner_map(pool, &raw, &res);
    if (ok && res.status == GB_RUN_ERROR) {
        gb_error_set(err, "task %s: a stdio probe run failed: %s", task->id ? task->id : "?",
                     res.exc_message ? res.exc_message : "runner error");
        ok = false;
    }
    if (ok) {
        it->status = res.status == GB_RUN_TIMEOUT ? GB_PROBE_TIMEOUT : GB_PROBE_OK;
        const char *type = res.exc_type ? res.exc_type : "";
        const char *msg = res.exc_message ? res.exc_message : "";
        if (res.status == GB_RUN_PASS)
            it->value = gb_strdup("exit=0");
        else if (res.status == GB_RUN_CRASH)
            it->value = gb_asprintf("crash=%d", res.signal);
        else if (strcmp(type, "SystemExit") == 0 && strncmp(msg, "exit status ", 12) == 0)
            it->value = gb_asprintf("exit=%s", msg + 12);
        else
            it->value = gb_asprintf("raise=%s", type);
        it->out = gb_strndup(res.out, strnlen(res.out, (size_t)1 << 14));
        it->cpu_s = raw.cpu;
        it->wall_s = res.wall_s;
    }
    gb_run_result_destroy(&res);
    gb_raw_destroy(&raw);
    return ok;
}

/* A stdio probe judged apart: every input is an ordinary stdio run of the program, recorded
 * here; the program cannot tell it from a test run (src/runner/README.md). */
static bool gb_probe__stdio_runs(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbProbeSpec *spec,
                                 GbProbeResult *out, GbError *err)
{
    double t0 = gb_now(), cost_cpu = 0;
    for (size_t i = 0; i < spec->n; i++) {
        GbProbeItem it = {GB_PROBE_SKIPPED, NULL, NULL, 0, 0, NULL};
        bool cost = spec->cost && spec->cost[i];
        if (gb_now() - t0 <= spec->budget_s && !(cost && cost_cpu > spec->cost_cpu_s) &&
            !gb_probe__stdio_item(pool, task, prog, spec, spec->inputs[i], &it, err)) {
            free(it.value);
            free(it.out);
            return false;
        }
        if (cost) cost_cpu += it.cpu_s;
        if (!it.value || it.status == GB_PROBE_TIMEOUT) {
            free(it.value);
            it.value = gb_strdup("");
        }
        if (!it.out || it.status == GB_PROBE_TIMEOUT) {
            free(it.out);
            it.out = gb_strdup("");
        }
        it.branches = gb_strdup("");
        gb_array_push(&out->items, it);
    }
    out->run.status = GB_RUN_PASS;
    return true;
}

bool gb_pool_probe(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbProbeSpec *spec, GbProbeResult *out,
                   GbError *err)
{
    memset(out, 0, sizeof *out);
    gb_run_result_init(&out->run);
    GbProgram own;
    bool own_used = false;
    if (!prog) {
        gb_program_from_task(&own, task);
        prog = &own;
        own_used = true;
    }
    bool apart = pool->cfg.probes_apart && !spec->cover;
    if (apart && spec->mode == GB_PROBE_STDIO) {
        bool ok = gb_probe__stdio_runs(pool, task, prog, spec, out, err);
        if (!ok) out->run.status = GB_RUN_ERROR;
        out->branches = gb_strdup("");
        if (own_used) gb_program_destroy(&own);
        return ok;
    }
    GbStr extra, inputs;
    gb_str_init(&extra);
    gb_str_init(&inputs);
    for (size_t i = 0; i < spec->n; i++) {
        if (i) gb_str_append_n(&inputs, "", 1);
        gb_str_append(&inputs, spec->inputs[i]);
    }
    gb_rec_add(&extra, "mode",
               spec->mode == GB_PROBE_STDIO   ? "stdio"
               : spec->mode == GB_PROBE_CLASS ? "class"
                                              : "call");
    gb_rec_add(&extra, "entry", spec->entry ? spec->entry : "");
    gb_rec_add_n(&extra, "inputs", inputs.data ? inputs.data : "", inputs.len);
    gb_rec_addf(&extra, "limit", "%.6f", spec->limit_s);
    gb_rec_addf(&extra, "budget", "%.6f", spec->budget_s);
    if (spec->cost) {
        char *mask = gb_malloc(spec->n + 1);
        for (size_t i = 0; i < spec->n; i++) mask[i] = spec->cost[i] ? '1' : '0';
        mask[spec->n] = '\0';
        gb_rec_add(&extra, "cost", mask);
        free(mask);
        gb_rec_addf(&extra, "costcpu", "%.6f", spec->cost_cpu_s);
    }
    if (spec->cover) gb_rec_add(&extra, "cover", "1");
    GbRunSpec rs = {.kind = "probe", .prog = prog, .task = task, .out_cap = pool->cfg.output_cap, .extra = &extra};
    rs.apart = apart;
    GbRaw raw;
    gb_raw_init(&raw);
    bool ok = gb_pool_run_spec(pool, &rs, &raw, err);
    if (ok) {
        gb_runner_map(pool, &raw, &out->run);
        if (out->run.status == GB_RUN_PASS) out->branches = gb_rec_dup(&raw.child_rec, "branches");
        if (out->run.status == GB_RUN_PASS && !gb_probe__items(&raw.child_rec, spec->n, out)) {
            out->run.status = GB_RUN_FAIL;
            free(out->run.exc_message);
            out->run.exc_message = gb_strdup("the probe's result record is incomplete");
        }
        if (out->run.status == GB_RUN_ERROR && raw.interrupted) {
            gb_error_set(err, "task %s: interrupted", task->id ? task->id : "?");
            ok = false;
        }
    }
    if (!ok) out->run.status = GB_RUN_ERROR;
    if (!out->branches) out->branches = gb_strdup("");
    gb_raw_destroy(&raw);
    gb_str_destroy(&extra);
    gb_str_destroy(&inputs);
    if (own_used) gb_program_destroy(&own);
    return ok;
}

bool gb_cases_judge(const GbTask *task, size_t k, const GbProbeItem *it, GbRunResult *out)
{
    const char *want = task->cases.items[k].stdout_text ? task->cases.items[k].stdout_text : "";
    GbRunStatus st =
        it->status == GB_PROBE_TIMEOUT ? GB_RUN_TIMEOUT
        : it->status == GB_PROBE_OK && strcmp(it->value, "exit=0") == 0 && gb_stdio_output_matches(it->out, want)
            ? GB_RUN_PASS
            : GB_RUN_FAIL;
    out->tests_run++;
    out->wall_s += it->wall_s;
    if (st == GB_RUN_PASS) return true;
    gb_array_push(&out->failed_tests, gb_asprintf("%zu", k));
    if (out->status == GB_RUN_PASS) {
        out->status = st;
        out->failed_test = gb_asprintf("case %zu", k);
        /* named as a run of its own would name it */
        if (st == GB_RUN_FAIL)
            out->exc_type =
                gb_strdup(it->status != GB_PROBE_OK                                                 ? "Skipped"
                          : strncmp(it->value, "raise=", 6) == 0                                    ? it->value + 6
                          : strncmp(it->value, "exit=", 5) == 0 && strcmp(it->value, "exit=0") != 0 ? "SystemExit"
                                                                                                    : "WrongOutput");
    }
    return st != GB_RUN_TIMEOUT;
}

bool gb_pool_cases_together_ok(const GbPool *pool, const GbTask *task)
{
    if (task->kind != GB_TESTS_STDIO || task->cases.len == 0 || pool->cfg.stderr_fails) return false;
    for (size_t k = 0; k < task->cases.len; k++) {
        const GbStdioCase *cs = &task->cases.items[k];
        if (cs->stdout_text && strlen(cs->stdout_text) > GB_PROBE_OUT_MAX / 2) return false;
    }
    return true;
}

bool gb_pool_run_cases_together(GbPool *pool, const GbTask *task, const GbProgram *prog, GbRunResult *out, GbError *err)
{
    gb_run_result_init(out);
    if (!gb_pool_cases_together_ok(pool, task)) {
        gb_error_set(err, "task %s: its cases cannot run in one probe", task->id ? task->id : "?");
        return false;
    }
    size_t n = task->cases.len;
    const char **inputs = gb_malloc(n * sizeof *inputs);
    for (size_t k = 0; k < n; k++) inputs[k] = task->cases.items[k].stdin_text ? task->cases.items[k].stdin_text : "";
    GbProbeSpec spec = {GB_PROBE_STDIO, NULL, inputs, n, pool->cfg.timeout_s, pool->cfg.timeout_s * (double)n,
                        false,          NULL, 0};
    GbProbeResult r;
    bool ok = gb_pool_probe(pool, task, prog, &spec, &r, err);
    free(inputs);
    if (!ok) {
        gb_probe_result_destroy(&r);
        return false;
    }
    out->status = r.run.status;
    if (r.run.status != GB_RUN_PASS) {
        /* the program failed before its first case (or the probe itself failed): its reason */
        out->exc_type = r.run.exc_type;
        out->exc_message = r.run.exc_message;
        r.run.exc_type = r.run.exc_message = NULL;
        out->failed_test = gb_strdup("case 0");
        gb_array_push(&out->failed_tests, gb_strdup("0"));
        out->wall_s = r.run.wall_s;
        gb_probe_result_destroy(&r);
        return true;
    }
    for (size_t k = 0; k < n && k < r.items.len; k++)
        if (!gb_cases_judge(task, k, &r.items.items[k], out)) break;
    gb_probe_result_destroy(&r);
    return true;
}
