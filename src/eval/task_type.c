/* The registry of eval task types (src/eval/task_list.h) and what their scorers share. */
#include "src/eval/task_type.h"

#include <assert.h>
#include <stdlib.h>

#include "src/eval/prompt.h"

const char *const gb_eval_task_names[GB_EVAL_TASK_COUNT + 1] = {
#define GB_EVAL_TASK(ID, name, help) #name,
    GB_EVAL_TASK_LIST
#undef GB_EVAL_TASK
        NULL,
};

static const GbEvalTaskType *const gb_eval__task_types[GB_EVAL_TASK_COUNT] = {
#define GB_EVAL_TASK(ID, name, help) &gb_eval_task_##name,
    GB_EVAL_TASK_LIST
#undef GB_EVAL_TASK
};

const GbEvalTaskType *gb_eval_task_type(GbEvalTask task)
{
    assert((unsigned)task < GB_EVAL_TASK_COUNT);
    return gb_eval__task_types[task];
}

double gb_eval_task_run_timeout(GbEvalTask task)
{
    return gb_eval_task_type(task)->run_timeout_s;
}

bool gb_eval_task_needs_java(GbEvalTask task)
{
    return gb_eval_task_type(task)->java;
}

void gb_eval_answer_destroy(GbEvalAnswer *a)
{
    free(a->text);
    free(a->cls);
    if (a->program) gb_task_destroy(a->program);
    free(a->program);
    *a = (GbEvalAnswer){0};
}

/* The verdict of a run that reached the program (not GB_RUN_ERROR). */
static GbVerdict gb_eval__verdict_of_status(GbRunStatus status)
{
    switch (status) {
    case GB_RUN_PASS:
        return GB_V_PASS;
    case GB_RUN_TIMEOUT:
        return GB_V_TIMEOUT;
    case GB_RUN_CRASH:
        return GB_V_CRASH;
    default:
        return GB_V_FAIL;
    }
}

GbVerdict gb_eval_verdict_of_run(bool ok, const GbRunResult *res, const GbError *e, bool with_test, char **error)
{
    if (!ok || res->status == GB_RUN_ERROR) {
        const char *why = e->msg[0] ? e->msg : with_test && res->exc_message ? res->exc_message : "error";
        *error = gb_asprintf("runner: %s", why);
        return GB_V_ERROR;
    }
    GbVerdict v = gb_eval__verdict_of_status(res->status);
    if (v == GB_V_PASS || (!res->exc_type && !res->exc_message)) return v;
    const char *test = with_test && res->failed_test ? res->failed_test : NULL;
    *error = gb_asprintf("%s%s%s%s%.300s", test ? test : "", test ? ": " : "", res->exc_type ? res->exc_type : "",
                         res->exc_message ? ": " : "", res->exc_message ? res->exc_message : "");
    return v;
}

GbVerdict gb_eval_score_assert(const GbEvalSample *s, const char *check_code, char **error)
{
    GbTask run;
    gb_task_copy(&run, s->task);
    free(run.test_code);
    run.test_code = gb_strdup(check_code);
    run.kind = GB_TESTS_ASSERT;
    /* The answer is in check_code only as whitelisted literal data (answer.h), and the program is
     * the version's: no code of the answer runs, so nothing needs the judge apart, and the tests
     * stay in the program's process, as evolve's (src/runner/README.md: half the forks). */
    run.tests_together = true;
    GbRunResult res;
    GbError e = {0};
    bool ok = gb_pool_run(s->pool, &run, NULL, &res, &e);
    GbVerdict v = gb_eval_verdict_of_run(ok, &res, &e, false, error);
    gb_run_result_destroy(&res);
    gb_task_destroy(&run);
    return v;
}

char *gb_eval_prediction_prompt(const GbEvalSample *s, GbAnswerPart part)
{
    const char *program = s->task->source, *args = s->pair->args, *expected = s->pair->expected;
    if (s->tmpl) {
        char *assert_line = part == GB_ANSWER_VALUE ? gb_asprintf("assert %s(%s) == ?\?", s->entry, args)
                                                    : gb_asprintf("assert %s(?\?) == %s", s->entry, expected);
        GbEvalPromptFill f = {{0}};
        f.v[GB_EVAL_PH_PROGRAM] = program;
        f.v[GB_EVAL_PH_LANGUAGE] = "Python";
        f.v[GB_EVAL_PH_ENTRY] = s->entry;
        f.v[part == GB_ANSWER_VALUE ? GB_EVAL_PH_INPUT : GB_EVAL_PH_OUTPUT] = part == GB_ANSWER_VALUE ? args : expected;
        f.v[GB_EVAL_PH_ASSERT] = assert_line;
        char *p = gb_eval_template_expand(s->tmpl, &f);
        free(assert_line);
        return p;
    }
    if (s->style == GB_EVAL_STYLE_CRUXEVAL) return gb_eval_cruxeval_prompt(part, program, s->entry, args, expected);
    return gb_answer_prompt(part, program, s->entry, args, expected);
}

bool gb_eval_prediction_extract(const GbEvalSample *s, GbAnswerPart part, const char *reply, GbEvalAnswer *a, char *why,
                                size_t why_size)
{
    if (s->style == GB_EVAL_STYLE_CRUXEVAL)
        return gb_answer_extract_cruxeval(s->parser, reply, part, s->entry, &a->text, why, why_size);
    return gb_answer_extract(s->parser, reply, part, s->entry, &a->text, why, why_size);
}
