#pragma once
/* The task types of genebench eval (GB_EVAL_TASK_COUNT), one X-macro row each:
 *     GB_EVAL_TASK(ID, name, help)
 * name is the value of `genebench eval --task` and the summary's "task"; help its line in
 * `genebench eval --help`. The row is implemented by src/eval/task_<name>.c, which defines
 *     const GbEvalTaskType gb_eval_task_<name>;
 * (its input kind, prompt, answer extractor and scorer: src/eval/task_type.h). The order is that
 * of --task's choices. Everything that names or counts the task types is derived from this list. */
#define GB_EVAL_TASK_LIST                                                                                              \
    GB_EVAL_TASK(OUTPUT, output, "predict what the call returns")                                                      \
    GB_EVAL_TASK(INPUT, input, "find arguments for the given return value")                                            \
    GB_EVAL_TASK(REPAIR, repair, "fix the bug of each task of inject-bugs output")                                     \
    GB_EVAL_TASK(TRANSLATE, translate, "translate stdio tasks to Java")
