/* The operator registry: generated from operators/operator_list.h so that the enum, the
 * count and the table cannot drift. */
#include "operators/operator.h"

#include <strings.h>

static const GbOperator gb_operators[GB_OP_COUNT] = {
#define GB_OPERATOR(code, Name, snake) \
    {GB_OP_##code, #code, #Name, #snake, gb_op_##snake##_find, gb_op_##snake##_apply},
    GB_OPERATOR_LIST
#undef GB_OPERATOR
};

const GbOperator *gb_operator(GbOperatorId id)
{
    if ((int)id < 0 || id >= GB_OP_COUNT) return NULL;
    return &gb_operators[id];
}

const GbOperator *gb_operator_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < GB_OP_COUNT; i++) {
        const GbOperator *op = &gb_operators[i];
        if (strcasecmp(name, op->name) == 0 || strcasecmp(name, op->snake) == 0 || strcasecmp(name, op->code) == 0)
            return op;
    }
    return NULL;
}
