#include "nsga2/gate_list.h"

#include <assert.h>

const char *gb_gate_name(GbGate g)
{
    static const char *const keys[GB_GATE_COUNT] = {
#define GB_GATE(id, key, label, rule) key,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return keys[g];
}

const char *gb_gate_label(GbGate g)
{
    static const char *const labels[GB_GATE_COUNT] = {
#define GB_GATE(id, key, label, rule) label,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return labels[g];
}

const char *gb_gate_description(GbGate g)
{
    static const char *const rules[GB_GATE_COUNT] = {
#define GB_GATE(id, key, label, rule) rule,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return rules[g];
}
