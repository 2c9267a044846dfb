#pragma once
/* The outcome of one injected bug (src/inject/inject.h classifies it): the words of the summary of
 * `genebench inject-bugs` (src/doc/inject_bugs.h), one list so the injector, the command and the
 * document share the spelling. The order is the order of the summary's counts. */
#include <stdbool.h>

typedef enum {
    GB_MUTANT_KEPT,       /* both versions fail, with the same failing-test set */
    GB_MUTANT_EQUIVALENT, /* no test fails in either version */
    GB_MUTANT_DIVERGENT,  /* one version fails and the other passes, or different failing sets */
    GB_MUTANT_TIMEOUT,    /* a version hit the time limit */
    GB_MUTANT_CRASH,      /* a version was killed by a signal (memory limit, ...) */
    GB_MUTANT_ERROR,      /* the runner could not run it (infrastructure) */
    GB_MUTANT_OUTCOME_COUNT
} GbMutantOutcome;

/* "kept", "equivalent", "divergent", "timeout", "crash", "error" (static); "?" out of range. */
const char *gb_mutant_outcome_name(GbMutantOutcome o);
