#pragma once
/* The gates an offspring passes before it joins the population, one X-macro row each:
 *     GB_GATE(ID, key, label, rule)
 * ID names the enum constant GB_GATE_<ID>; key is the name in the output record ("gates",
 * "gates_by_operator") and the summary; label is the short name of the `evolve` progress line;
 * rule is the one-line rule a child must satisfy to pass (it is rejected otherwise), as README.md
 * lists it (tests/test_docs.c compares them).
 * Each row is checked by gb_evolve__pass_<ID> in nsga2/evolve.c, called in list order.
 * The rows are in cost order, the order the gates run in; the order is part of the output format
 * (the keys of "gates") and of reproducibility. Never reorder rows; insert one only as a
 * deliberate change of the output format (EQUIV was inserted between TESTS and LINT: one sandbox
 * run like TESTS, and it runs only on children that pass their tests; LINT costs several times
 * more per child. DOMINATED was inserted before TESTS: a child its own parent dominates can never be
 * the final pick and is almost never bred from, so it is not worth a sandbox run). */
#define GB_GATE_LIST                                                                                                   \
    GB_GATE(PARSE, "parse", "parse", "the result re-parses with no error and CPython compiles every module.")          \
    GB_GATE(READABILITY, "readability", "read",                                                                        \
            "no R_j above its threshold RT_j (where the original is already above RT_j, no R_j above the "             \
            "original's value).")                                                                                      \
    GB_GATE(DUPLICATE, "duplicate", "dup", "not the same token sequence as an existing individual.")                   \
    GB_GATE(DOMINATED, "dominated", "dom",                                                                             \
            "not dominated by its parent: better than the parent in at least one objective (RC, RR, and with "         \
            "earlier versions the distance from them) or equal in all.")                                               \
    GB_GATE(TESTS, "tests", "tests", "the task's original tests pass.")                                                \
    GB_GATE(EQUIV, "equiv", "equiv",                                                                                   \
            "agrees with the original on every input derived from the tests (value or exception type, "                \
            "arguments after the call, stdout) and costs at most R x the original's time on the larger ones "          \
            "(+ slack).")                                                                                              \
    GB_GATE(LINT, "lint", "lint", "the pylint score is not below the original's.")

typedef enum {
#define GB_GATE(id, key, label, rule) GB_GATE_##id,
    GB_GATE_LIST
#undef GB_GATE
        GB_GATE_COUNT
} GbGate;

/* The gate's key ("parse", ...), its progress-line label ("read", ...) and its README
 * description (static strings). */
const char *gb_gate_name(GbGate g);
const char *gb_gate_label(GbGate g);
const char *gb_gate_description(GbGate g);
