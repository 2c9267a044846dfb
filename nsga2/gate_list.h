#pragma once
#include <stdbool.h>

/* The gates an offspring passes before it joins the population, one X-macro row each:
 *     GB_GATE(ID, cost, key, label, rule)
 * ID names the enum constant GB_GATE_<ID>; cost is what the gate costs per child (a GbGateCost:
 * where it runs and how long it takes); key is the name in the output record ("gates",
 * "gates_by_operator") and the summary; label is the short name of the `evolve` progress line;
 * rule is the one-line rule a child must satisfy to pass (it is rejected otherwise), as nsga2/README.md
 * lists it (tests/unit/test_docs.c compares them).
 * Each row is checked by gb_evolve__pass_<ID> in nsga2/gates.c.
 *
 * The gates run cheapest first: by cost, and rows of the same cost in list order (a row may use
 * what a row above it of the same cost found: READABILITY and DOMINATED read the metrics that
 * PARSE measured). The run order is part of reproducibility (which gate rejects a child); the
 * list order is part of the output format (the keys of "gates"). Today the two agree, and the
 * documented order (nsga2/README.md) is both. Insert a row only as a deliberate change of the output
 * format (EQUIV was inserted between TESTS and LINT: one sandbox run like TESTS, and it runs only
 * on children that pass their tests; DOMINATED was inserted before TESTS: a child its own parent
 * dominates can never be the final pick and is almost never bred from, so it is not worth a
 * sandbox run). */

/* What a gate costs per child, cheapest first. TREE gates run on the task's own thread, one wave
 * of children at a time, against the individuals accepted so far; the others run in parallel on
 * the task's helper threads (nsga2/README.md: waves), RUN and LINT as separate work items. */
typedef enum {
    GB_GATE_COST_TREE, /* in process, on the child's syntax tree and metrics (microseconds) */
    GB_GATE_COST_RUN,  /* one sandbox run in the pool (tens of milliseconds) */
    GB_GATE_COST_LINT, /* a pylint run on the lint worker (several times a sandbox run) */
    GB_GATE_COST_COUNT
} GbGateCost;

#define GB_GATE_LIST                                                                                                   \
    GB_GATE(PARSE, TREE, "parse", "parse", "the result re-parses with no error and CPython compiles every module.")    \
    GB_GATE(READABILITY, TREE, "readability", "read",                                                                  \
            "no R_j above its threshold RT_j (where the original is already above RT_j, no R_j above the "             \
            "original's value).")                                                                                      \
    GB_GATE(DUPLICATE, TREE, "duplicate", "dup", "not the same token sequence as an existing individual.")             \
    GB_GATE(DOMINATED, TREE, "dominated", "dom",                                                                       \
            "not dominated by its parent: better than the parent in at least one objective (RC, RR, and with "         \
            "earlier versions the distance from them) or equal in all.")                                               \
    GB_GATE(TESTS, RUN, "tests", "tests", "the task's original tests pass.")                                           \
    GB_GATE(EQUIV, RUN, "equiv", "equiv",                                                                              \
            "agrees with the original on every input derived from the tests (value or exception type, "                \
            "arguments after the call, stdout) and costs at most R x the original's time on the larger ones "          \
            "(+ slack).")                                                                                              \
    GB_GATE(LINT, LINT, "lint", "lint", "the pylint score is not below the original's.")

typedef enum {
#define GB_GATE(id, cost, key, label, rule) GB_GATE_##id,
    GB_GATE_LIST
#undef GB_GATE
        GB_GATE_COUNT
} GbGate;

/* The gate's key ("parse", ...), its progress-line label ("read", ...) and its README
 * description (static strings). */
const char *gb_gate_name(GbGate g);
const char *gb_gate_label(GbGate g);
const char *gb_gate_description(GbGate g);

/* The gate's cost (its row's cost column). */
GbGateCost gb_gate_cost(GbGate g);

/* Whether gate a runs before gate b: a costs less, or the same and stands above b in the list. */
bool gb_gate_runs_before(GbGate a, GbGate b);
