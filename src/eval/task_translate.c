/* Python -> Java translation of stdio tasks: the reply's Java is compiled with javac and run on
 * the task's stdio cases, both in the sandbox (java.h). */
#include "src/eval/task_type.h"

#include <stdio.h>

#include "src/eval/prompt.h"
#include "src/eval/repair.h"

static char *gb_eval_translate__prompt(const GbEvalSample *s, GbError *err)
{
    (void)err;
    if (s->tmpl) {
        GbEvalPromptFill f = {{0}};
        f.v[GB_EVAL_PH_PROGRAM] = s->task->source;
        f.v[GB_EVAL_PH_LANGUAGE] = "Python";
        f.v[GB_EVAL_PH_TARGET_LANGUAGE] = "Java";
        return gb_eval_template_expand(s->tmpl, &f);
    }
    return gb_eval_translate_prompt(s->task->source);
}

static bool gb_eval_translate__extract(const GbEvalSample *s, const char *reply, GbEvalAnswer *a, char *why,
                                       size_t why_size)
{
    (void)s;
    return gb_eval_java_extract(reply, &a->text, &a->cls, why, why_size);
}

static GbVerdict gb_eval_translate__score(const GbEvalSample *s, const GbEvalAnswer *a, char **error)
{
    GbRunResult res;
    GbError e = {0};
    bool ok = gb_java_score(s->pool, s->java, s->task, a->text, a->cls, &res, &e);
    GbVerdict v = gb_eval_verdict_of_run(ok, &res, &e, true, error);
    gb_run_result_destroy(&res);
    return v;
}

const GbEvalTaskType gb_eval_task_translate = {
    .title = "Python to Java translation",
    .input = GB_EVAL_IN_STDIO_TASKS,
    .run_timeout_s = 10, /* of each Java case; javac has GbJavaConfig's own */
    .java = true,
    .prompt = gb_eval_translate__prompt,
    .extract = gb_eval_translate__extract,
    .score = gb_eval_translate__score,
};
