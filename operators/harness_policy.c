#include "operators/harness_policy.h"

#include <stddef.h>
#include <string.h>

const char *gb_op_refusal_under(GbHarnessRules rules, GbOperatorId op)
{
    switch (rules) {
    case GB_HARNESS_GUARD:
        if (op == GB_OP_A7) return "reliability_guard() makes `import sklearn` fail (os.putenv and joblib are None)";
        return NULL;
    case GB_HARNESS_CLASSEVAL:
        /* CreateFunction and IntroduceDecorator put their defs inside the class there
         * (operators/create_function.c, operators/introduce_decorator.c). */
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

uint32_t gb_harness_rewritten_head(GbHarnessRules rules, const char *src)
{
    if (rules != GB_HARNESS_CLASSEVAL || !src) return 0;
    for (const char *line = src; *line;) {
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r') p++;
        if (strncmp(p, "class", 5) == 0) return (uint32_t)(line - src);
        const char *nl = strchr(line, '\n');
        if (!nl) break;
        line = nl + 1;
    }
    return (uint32_t)strlen(src);
}
