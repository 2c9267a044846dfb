/* The words of the mutant outcomes (mutant_outcome.h). */
#include "src/doc/mutant_outcome.h"

const char *gb_mutant_outcome_name(GbMutantOutcome o)
{
    static const char *const names[GB_MUTANT_OUTCOME_COUNT] = {"kept",    "equivalent", "divergent",
                                                               "timeout", "crash",      "error"};
    return o < GB_MUTANT_OUTCOME_COUNT ? names[o] : "?";
}
