#pragma once
/* The metrics (GB_METRIC_COUNT, 21 in the paper), one X-macro row each: GB_METRIC(id, key, kind, label).
 * Order is fixed (C1..C7, then R1..R14 in the reference's key order) and is part of the
 * output format. kind: 'C' complexity, 'R' readability. */
#define GB_METRIC_LIST                                                              \
    GB_METRIC(C1, "C1", 'C', "cyclomatic complexity (interprocedural CFG)")         \
    GB_METRIC(C2, "C2", 'C', "predicates with operators")                           \
    GB_METRIC(C3, "C3", 'C', "nesting levels")                                      \
    GB_METRIC(C4, "C4", 'C', "complex code structures")                             \
    GB_METRIC(C5, "C5", 'C', "third-party / library calls")                         \
    GB_METRIC(C6, "C6", 'C', "inter-module dependencies")                           \
    GB_METRIC(C7, "C7", 'C', "intra-module dependencies")                           \
    GB_METRIC(R1, "num_tokens", 'R', "tokens")                                      \
    GB_METRIC(R2, "lines_of_code", 'R', "lines of code")                            \
    GB_METRIC(R3, "num_conditions", 'R', "conditions")                              \
    GB_METRIC(R4, "num_loops", 'R', "loops")                                        \
    GB_METRIC(R5, "num_assignments", 'R', "assignments")                            \
    GB_METRIC(R6, "num_max_nested_loop", 'R', "max nested loop")                    \
    GB_METRIC(R7, "num_max_nested_if", 'R', "max nested if")                        \
    GB_METRIC(R8, "num_max_conditions_in_if", 'R', "max conditions in an if")       \
    GB_METRIC(R9, "max_line_tokens", 'R', "max tokens per line")                    \
    GB_METRIC(R10, "num_of_variables", 'R', "variables")                            \
    GB_METRIC(R11, "num_of_arrays", 'R', "arrays")                                  \
    GB_METRIC(R12, "num_of_operators", 'R', "operators")                            \
    GB_METRIC(R13, "num_of_nested_casting", 'R', "nested casting")                  \
    GB_METRIC(R14, "entropy", 'R', "naturalness (token entropy, bits)")
