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
    char *uncovered; /* owned: the outcomes no kept input reaches, or NULL */
};

/* The screen (nsga2/equiv_screen.c): under a time budget, when a check of every kept input would
 * take the original more than budget_s wall seconds, the kept inputs a child is checked on. */
void gb_equiv_screen_choose(GbEquiv *e, double budget_s);
