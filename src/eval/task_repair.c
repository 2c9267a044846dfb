/* Program repair: the prompt shows the specification, the buggy program and how it fails its
 * tests as the sandbox reports it; the reply's program replaces the version's modules it names
 * (repair.h) and the task's own tests decide. */
#include "src/eval/task_type.h"

#include <stdio.h>
#include <stdlib.h>

#include "src/eval/prompt.h"
#include "src/eval/repair.h"

/* How the buggy program fails its tests (owned), as the sandbox reports it. */
static char *gb_eval_repair__failure(GbPool *pool, const GbTask *t, GbError *err)
{
    GbRunResult res;
    if (!gb_pool_run(pool, t, NULL, &res, err) || res.status == GB_RUN_ERROR) {
        if (!err->msg[0]) gb_error_set(err, "%s", res.exc_message ? res.exc_message : "runner error");
        gb_run_result_destroy(&res);
        return NULL;
    }
    GbStr s;
    gb_str_init(&s);
    if (res.status == GB_RUN_PASS) {
        gb_str_append(&s, "(the tests passed when the buggy program was run for this prompt)");
    } else {
        if (res.failed_tests.len > 1) {
            gb_str_append(&s, "failing tests:");
            for (size_t k = 0; k < res.failed_tests.len && k < 8; k++)
                gb_str_appendf(&s, " %s", res.failed_tests.items[k]);
            if (res.failed_tests.len > 8) gb_str_appendf(&s, " (%zu in all)", res.failed_tests.len);
            gb_str_append(&s, "\n");
        }
        if (res.failed_test) gb_str_appendf(&s, "%.400s\n", res.failed_test);
        gb_str_appendf(&s, "%s%s%.600s", res.exc_type ? res.exc_type : gb_run_status_name(res.status),
                       res.exc_message && *res.exc_message ? ": " : "", res.exc_message ? res.exc_message : "");
    }
    gb_run_result_destroy(&res);
    return gb_str_take(&s);
}

/* The buggy program runs once here, per item and version, before any prompt is sent. */
static char *gb_eval_repair__prompt(const GbEvalSample *s, GbError *err)
{
    const GbTask *vt = s->task;
    char *failure = gb_eval_repair__failure(s->pool, vt, err);
    if (!failure) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        gb_error_set(err, "task %s: the buggy program could not be run: %s", vt->id, msg);
        return NULL;
    }
    char *spec = gb_eval_spec(s->parser, vt->source, vt->entry_point);
    char *program = gb_eval_program_text(vt);
    char *p;
    if (s->tmpl) {
        GbEvalPromptFill f = {{0}};
        f.v[GB_EVAL_PH_PROGRAM] = program;
        f.v[GB_EVAL_PH_LANGUAGE] = "Python";
        f.v[GB_EVAL_PH_ENTRY] = vt->entry_point ? vt->entry_point : "";
        f.v[GB_EVAL_PH_SPECIFICATION] = spec ? spec : "";
        f.v[GB_EVAL_PH_FAILURE] = failure;
        p = gb_eval_template_expand(s->tmpl, &f);
    } else {
        p = gb_eval_repair_prompt(spec, program, vt->entry_point, failure);
    }
    free(program);
    free(spec);
    free(failure);
    return p;
}

/* The reply's program replaces the version's main module (its helper modules stay unless the
 * reply names them). */
static bool gb_eval_repair__extract(const GbEvalSample *s, const char *reply, GbEvalAnswer *a, char *why,
                                    size_t why_size)
{
    a->program = gb_malloc(sizeof *a->program);
    gb_task_copy(a->program, s->task);
    if (gb_eval_repair_apply(reply, a->program, &a->text)) return true;
    snprintf(why, why_size, "no program in the reply (a ```python block, or blocks starting with # file: PATH)");
    return false;
}

static GbVerdict gb_eval_repair__score(const GbEvalSample *s, const GbEvalAnswer *a, char **error)
{
    GbRunResult res;
    GbError e = {0};
    bool ok = gb_pool_run(s->pool, a->program, NULL, &res, &e);
    GbVerdict v = gb_eval_verdict_of_run(ok, &res, &e, true, error);
    gb_run_result_destroy(&res);
    return v;
}

const GbEvalTaskType gb_eval_task_repair = {
    .title = "program repair",
    .input = GB_EVAL_IN_BUGS,
    .run_timeout_s = 10,
    .prompt = gb_eval_repair__prompt,
    .extract = gb_eval_repair__extract,
    .score = gb_eval_repair__score,
};
