#include "operators/harness_policy.h"

#include <stddef.h>

const char *gb_op_refusal_under(GbHarnessRules rules, GbOperatorId op)
{
    switch (rules) {
    case GB_HARNESS_GUARD:
        if (op == GB_OP_A7) return "reliability_guard() makes `import sklearn` fail (os.putenv and joblib are None)";
        return NULL;
    case GB_HARNESS_CLASSEVAL:
        return NULL;
    case GB_HARNESS_NONE:
        break;
    }
    return NULL;
}

bool gb_op_allowed_under(GbHarnessRules rules, GbOperatorId op)
{
    return gb_op_refusal_under(rules, op) == NULL;
}
