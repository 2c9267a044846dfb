#include "nsga2/gate_list.h"

#include <assert.h>

const char *gb_gate_name(GbGate g)
{
    static const char *const keys[GB_GATE_COUNT] = {
#define GB_GATE(id, cost, key, label, rule) key,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return keys[g];
}

const char *gb_gate_label(GbGate g)
{
    static const char *const labels[GB_GATE_COUNT] = {
#define GB_GATE(id, cost, key, label, rule) label,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return labels[g];
}

const char *gb_gate_description(GbGate g)
{
    static const char *const rules[GB_GATE_COUNT] = {
#define GB_GATE(id, cost, key, label, rule) rule,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return rules[g];
}

GbGateCost gb_gate_cost(GbGate g)
{
    static const GbGateCost costs[GB_GATE_COUNT] = {
#define GB_GATE(id, cost, key, label, rule) GB_GATE_COST_##cost,
        GB_GATE_LIST
#undef GB_GATE
    };
    assert(g >= 0 && g < GB_GATE_COUNT);
    return costs[g];
}

bool gb_gate_runs_before(GbGate a, GbGate b)
{
    GbGateCost ca = gb_gate_cost(a), cb = gb_gate_cost(b);
    return ca < cb || (ca == cb && a < b);
}
