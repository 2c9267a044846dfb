#pragma once
/* How eval's prompts are written: genebench's own wording (the task types, task_<name>.c), a
 * user's template file (--prompt-template), or CRUXEval's own format (--prompt-style cruxeval).
 *
 * A template is the whole text of a prompt with placeholders {{NAME}} (spaces inside the braces
 * allowed), each replaced by one value of the item as its version shows it
 * (GB_EVAL_PLACEHOLDER_LIST below says which task types have which). Any other text, `{{` that
 * does not start a placeholder included, is kept as it is. A placeholder the task type does not
 * have is an error that names the file and line: unknown names, and the answer itself ({{output}}
 * in output prediction, {{input}} in input prediction).
 *
 * CRUXEval's format is the direct (no chain of thought) prompt of its output and input
 * prediction, word for word with its two worked examples, ending in an open [ANSWER] block; its
 * answer is taken out as CRUXEval takes it (gb_answer_extract_cruxeval, answer.h).
 *
 * Thread-safety: a loaded template is read-only and may be expanded from any thread. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/eval/eval.h"

/* The placeholders, one X-macro row each: GB_EVAL_PH(ID, name, tasks, help); tasks is a mask of
 * GB_EVAL_PH_TASK(OUTPUT)... */
#define GB_EVAL_PH_TASK(ID) (1u << GB_EVAL_TASK_##ID)
#define GB_EVAL_PH_ALL                                                                                                 \
    (GB_EVAL_PH_TASK(OUTPUT) | GB_EVAL_PH_TASK(INPUT) | GB_EVAL_PH_TASK(REPAIR) | GB_EVAL_PH_TASK(TRANSLATE))
#define GB_EVAL_PLACEHOLDER_LIST                                                                                       \
    GB_EVAL_PH(PROGRAM, program, GB_EVAL_PH_ALL, "the version's program (repair: every module, `# file:` lines)")      \
    GB_EVAL_PH(LANGUAGE, language, GB_EVAL_PH_ALL, "the program's language: Python")                                   \
    GB_EVAL_PH(ENTRY, entry, GB_EVAL_PH_TASK(OUTPUT) | GB_EVAL_PH_TASK(INPUT) | GB_EVAL_PH_TASK(REPAIR),               \
               "the function the tests call")                                                                          \
    GB_EVAL_PH(INPUT, input, GB_EVAL_PH_TASK(OUTPUT), "the call's arguments as the test writes them")                  \
    GB_EVAL_PH(OUTPUT, output, GB_EVAL_PH_TASK(INPUT), "the value the call must return")                               \
    GB_EVAL_PH(ASSERT, assert, GB_EVAL_PH_TASK(OUTPUT) | GB_EVAL_PH_TASK(INPUT),                                       \
               "the assert with ?? for the answer: `assert f(ARGS) == ?\?` or `assert f(?\?) == VALUE`")               \
    GB_EVAL_PH(SPECIFICATION, specification, GB_EVAL_PH_TASK(REPAIR), "the entry point's docstring (may be empty)")    \
    GB_EVAL_PH(FAILURE, failure, GB_EVAL_PH_TASK(REPAIR), "how the buggy program fails its tests")                     \
    GB_EVAL_PH(TARGET_LANGUAGE, target_language, GB_EVAL_PH_TASK(TRANSLATE), "the language to translate to: Java")

typedef enum {
#define GB_EVAL_PH(ID, name, tasks, help) GB_EVAL_PH_##ID,
    GB_EVAL_PLACEHOLDER_LIST
#undef GB_EVAL_PH
        GB_EVAL_PH_COUNT
} GbEvalPlaceholder;

/* The values of one prompt, indexed by GbEvalPlaceholder (borrowed; NULL: the task type has none). */
typedef struct {
    const char *v[GB_EVAL_PH_COUNT];
} GbEvalPromptFill;

typedef struct GbEvalTemplate GbEvalTemplate;

/* Read and check the template at path for task (owned; NULL with err "PATH:LINE: ..." on an
 * unknown placeholder or one the task type does not have, or "PATH: ..." when it cannot be read
 * or is empty). */
GbEvalTemplate *gb_eval_template_load(const char *path, GbEvalTask task, GbError *err);
void gb_eval_template_delete(GbEvalTemplate *t);
/* The SHA-256 of the file's bytes (borrowed, 64 hex digits). */
const char *gb_eval_template_sha256(const GbEvalTemplate *t);
/* The prompt (owned): the template with every placeholder replaced by its value in fill (a
 * checked template only uses values the task type sets). */
char *gb_eval_template_expand(const GbEvalTemplate *t, const GbEvalPromptFill *fill);

/* CRUXEval's direct prompt (owned) for output prediction (GB_ANSWER_VALUE: the program, the
 * call's arguments) or input prediction (GB_ANSWER_ARGS: the program, the expected value). The
 * program's trailing newlines are dropped, as CRUXEval's records have none. */
char *gb_eval_cruxeval_prompt(GbAnswerPart part, const char *program, const char *entry, const char *args,
                              const char *expected);

/* The prompt version recorded in the summary's provenance for a style and template. */
const char *gb_eval_prompt_version(GbEvalPromptStyle style, bool template_given);
