#pragma once
/* The original's record (nsga2/equiv.h), shared by the files of the equivalence gate. */
#include <stdbool.h>
#include <stddef.h>

#include "nsga2/equiv.h"
#include "src/base/util.h"

struct GbEquiv {
    GbEquivInputs in;           /* every derived input */
    GbArray(const char *) kept; /* borrowed from in: the inputs compared */
    GbArray(bool) kept_large;
    GbArray(char *) value; /* owned, per kept input */
    GbArray(char *) out;   /* owned, per kept input */
    GbArray(double) cpu;   /* per kept input: the smaller CPU time of the two probes */
    GbArray(double) wall;  /* per kept input: the smaller wall time */
    GbArray(size_t) kept_at; /* per kept input: its index in in */
    GbArray(bool) screen;    /* per kept input: in the screen (empty: no screen) */
    size_t nscreen;          /* kept inputs in the screen */
    double limit_s;
    size_t old_n;          /* the first old_n inputs are the tests' own and the derived ones */
    size_t thr_end;        /* inputs old_n..thr_end-1 cross the mined thresholds */
    GbArray(bool) chosen;  /* per input: probed in the record (old ones, and those the search kept) */
    GbArray(char *) reach; /* owned, per input: the outcomes the search saw it reach */
    char *branches;        /* owned: every outcome id of the original's source, or NULL (no search) */
    size_t total, covered, covered_before;
    bool untraced;   /* the search was not run (GB_EQUIV_TRACE_SLOWDOWN) */
    char *uncovered; /* owned: the outcomes no kept input reaches, or NULL */
};

/* A set of branch-outcome ids ("12f", "20x"), owned strings. */
typedef GbArray(char *) GbEquivStrs;

/* How many of the outcome ids of reach (space-separated) u lacks; commit: add them to u. */
size_t gb_equiv_new_ids(GbEquivStrs *u, const char *reach, bool commit);

/* The screen (nsga2/equiv_screen.c): under a time budget, when a check of every kept input would
 * take the original more than budget_s wall seconds, the kept inputs a child is checked on. */
void gb_equiv_screen_choose(GbEquiv *e, double budget_s);

/* Larger input j of in, made from input base at about size elements (owned; NULL: none). */
char *gb_equiv_grow(const GbEquivConfig *cfg, TSParser *parser, const GbEquivInputs *in, uint64_t key, size_t base,
                    uint32_t j, size_t size);

/* The time guard of the larger inputs (nsga2/equiv_guard.c): the original is probed on them, and one it is not fast on
 * (gb_equiv__fast) is made again at half the size (a quarter when it took over 4 x the CPU it may,
 * an eighth when it did not even finish within 5 x, at least 0.5 s), until it is; after a jump of
 * more than half, twice the size that was fast is tried once more and kept when fast too (so that
 * the larger input stays large beside a child's constant costs). One still slow below 8 elements,
 * or when the guard has spent share seconds (0: no limit), is dropped. An honest program is then
 * never over the cost bound because its original is already quadratic or worse, and the gate's
 * cost per offspring stays bounded. */
bool gb_equiv_guard(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg, TSParser *parser,
                    uint64_t key, double share, GbEquivInputs *in, GbError *err);
