/* Output prediction (CRUXEval-O): the model says what a call of the program returns, as literal data
 * (answer.h); the original's expected value decides. */
#include "src/eval/task_type.h"

#include <stdlib.h>

static char *gb_eval_output__prompt(const GbEvalSample *s, GbError *err)
{
    (void)err;
    return gb_eval_prediction_prompt(s, GB_ANSWER_VALUE);
}

static bool gb_eval_output__extract(const GbEvalSample *s, const char *reply, GbEvalAnswer *a, char *why,
                                    size_t why_size)
{
    return gb_eval_prediction_extract(s, GB_ANSWER_VALUE, reply, a, why, why_size);
}

static GbVerdict gb_eval_output__score(const GbEvalSample *s, const GbEvalAnswer *a, char **error)
{
    char *code = gb_answer_check_code(GB_ANSWER_VALUE, s->entry, s->pair->expected, a->text);
    GbVerdict v = gb_eval_score_assert(s, code, error);
    free(code);
    return v;
}

const GbEvalTaskType gb_eval_task_output = {
    .title = "output prediction",
    .input = GB_EVAL_IN_ASSERTS,
    .run_timeout_s = 3, /* as CRUXEval */
    .prompt = gb_eval_output__prompt,
    .extract = gb_eval_output__extract,
    .score = gb_eval_output__score,
};
