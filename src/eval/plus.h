#pragma once
/* Repair scored beyond the task's tests ("plus", as EvalPlus scores its plus tests): a repaired
 * program must also agree with the correct program on the inputs the equivalence gate derives
 * from the tests (nsga2/equiv.h, src/model/perturb.h).
 *
 * The correct program of a bug is its buggy original with the bug's "mutations" (inject-bugs
 * output: module, line 1-based, column 0-based in bytes, before, after) reverted: each `after`
 * text must stand at its place in the buggy program (columns shifted by the earlier mutations of
 * the same line), else there is no reference. Its results on the derived inputs are recorded
 * once per item (two probes in the sandbox); a repaired program that passes the tests is then
 * probed on them and passes "plus" when every input gives the same value, arguments after the
 * call and stdout. Unittest tasks and tests without literal calls have no derived inputs: no
 * plus verdict.
 *
 * Thread-safety: a recorded GbEvalPlus is read-only; gb_eval_plus_check may run concurrently on
 * it. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/doc/eval_verdict.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

/* The bug's correct program: a copy of bug (owned) with the mutations reverted; NULL with why
 * when bug has no "mutations" field or a mutation is not where it says. */
GbTask *gb_eval_plus_reference(const GbTask *bug, char *why, size_t why_size);

typedef struct GbEvalPlus GbEvalPlus;

/* Record the reference's results on the derived inputs of its tests (seed: the derivation's).
 * Owned; NULL with why when there is no input to compare on or the probes failed. */
GbEvalPlus *gb_eval_plus_new(GbPool *pool, const GbTask *reference, unsigned long seed, TSParser *parser, char *why,
                             size_t why_size);
void gb_eval_plus_delete(GbEvalPlus *p);
/* The inputs compared. */
size_t gb_eval_plus_inputs(const GbEvalPlus *p);

/* The plus verdict of program (a task: its program and tests) that passed the tests: pass when
 * it agrees on every input, else fail (*error, owned, says on which input); error when the probe
 * could not run. */
GbVerdict gb_eval_plus_check(const GbEvalPlus *p, GbPool *pool, const GbTask *program, char **error);
