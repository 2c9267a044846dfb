#pragma once
/* Unstable steps of a call sequence (nsga2/equiv.h): the original's two recording probes describe a
 * sequence step by step (src/runner/runner.h, GB_PROBE_STEP_SEP); a step whose description differs
 * between them depends on the clock, randomness or object ids, and is marked as not compared
 * (GB_EQUIV_UNSTABLE in place of its description) instead of the whole sequence being dropped.
 *
 * Thread-safety: pure functions. */
#include <stdbool.h>
#include <stddef.h>

#define GB_EQUIV_UNSTABLE "?"

/* The description a with every step that differs from b's replaced by GB_EQUIV_UNSTABLE (owned),
 * or NULL when a and b have different numbers of steps or no step is left to compare (the
 * constructor's step counts only when a later step is stable too). */
char *gb_equiv_steps_mask(const char *a, const char *b);
/* Whether got matches the recorded description rec step by step, a step marked unstable in rec
 * matching any. */
bool gb_equiv_steps_match(const char *rec, const char *got);
/* Whether the step description starting at p (up to GB_PROBE_STEP_SEP or the end) is marked. */
bool gb_equiv_step_unstable(const char *p);
