#pragma once
/* The metrics (GB_METRIC_COUNT, 21 in the paper), one X-macro row each:
 *     GB_METRIC(id, key, kind, short, label)
 * short is the column heading of `genebench metrics` (at most 6 characters).
 * Order is fixed (C1..C7, then R1..R14 in the reference's key order) and is part of the
 * output format. kind: 'C' complexity, 'R' readability; the complexity rows come first.
 * Everything that counts metrics (GB_METRIC_COUNT, GB_N_COMPLEXITY, GB_N_READABILITY) is
 * derived from this list. */
#define GB_METRIC_LIST                                                                                                 \
    GB_METRIC(C1, "C1", 'C', "C1", "cyclomatic complexity (interprocedural CFG)")                                      \
    GB_METRIC(C2, "C2", 'C', "C2", "predicates with operators")                                                        \
    GB_METRIC(C3, "C3", 'C', "C3", "nesting levels")                                                                   \
    GB_METRIC(C4, "C4", 'C', "C4", "complex code structures")                                                          \
    GB_METRIC(C5, "C5", 'C', "C5", "third-party / library calls")                                                      \
    GB_METRIC(C6, "C6", 'C', "C6", "inter-module / inter-class dependencies")                                          \
    GB_METRIC(C7, "C7", 'C', "C7", "intra-module dependencies")                                                        \
    GB_METRIC(R1, "num_tokens", 'R', "tok", "tokens")                                                                  \
    GB_METRIC(R2, "lines_of_code", 'R', "loc", "lines of code")                                                        \
    GB_METRIC(R3, "num_conditions", 'R', "cond", "conditions")                                                         \
    GB_METRIC(R4, "num_loops", 'R', "loop", "loops")                                                                   \
    GB_METRIC(R5, "num_assignments", 'R', "asgn", "assignments")                                                       \
    GB_METRIC(R6, "num_max_nested_loop", 'R', "nloop", "max nested loop")                                              \
    GB_METRIC(R7, "num_max_nested_if", 'R', "nif", "max nested if")                                                    \
    GB_METRIC(R8, "num_max_conditions_in_if", 'R', "cif", "max conditions in an if")                                   \
    GB_METRIC(R9, "max_line_tokens", 'R', "ltok", "max tokens per line")                                               \
    GB_METRIC(R10, "num_of_variables", 'R', "var", "variables")                                                        \
    GB_METRIC(R11, "num_of_arrays", 'R', "arr", "arrays")                                                              \
    GB_METRIC(R12, "num_of_operators", 'R', "op", "operators")                                                         \
    GB_METRIC(R13, "num_of_nested_casting", 'R', "cast", "nested casting")                                             \
    GB_METRIC(R14, "entropy", 'R', "ent", "naturalness (token entropy, bits)")
