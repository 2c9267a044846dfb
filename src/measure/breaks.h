#pragma once
/* Where a model breaks along the complexity levels of `genebench levels` (`genebench breaks`):
 * the eval results over the level files read back with the programs of every level, per-level
 * pass@1, breaking rungs, the operators on breaking steps, the flips from the original's success
 * and what they follow (rank test, logistic fits, size-matched pairs); breaks.json, items.csv
 * and the page written from them. Not thread-safe per object; objects are independent. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/bench/task_io.h"
#include "src/doc/breaks.h"
#include "src/measure/drop_stats.h"

/* One program of one version: what the level file says about a task. */
typedef struct {
    char *task, *format; /* owned */
    char *source;        /* owned: concatenated program */
    double rc, rr, tokens, lines;
    long rung;
    GbArray(char *) ops; /* owned codes, lineage order */
} GbBreaksProg;

/* One item: its samples per version. */
typedef struct {
    char *task, *item; /* owned */
    long *n, *c;       /* owned, per version: scored samples, passed */
} GbBreaksItem;

/* The results and the programs of every version (level). */
typedef struct {
    size_t nver;
    GbArray(char *) files; /* owned, per version */
    GbArray(GbBreaksProg) progs;
    size_t *prog_start; /* owned, per version: first index in progs (a version's progs are contiguous) */
    size_t *prog_count; /* owned */
    GbArray(GbBreaksItem) items;
} GbBreaks;

/* Per version (and format): pass@1 and its interval, means of the programs. */
typedef struct {
    long items, passed;
    double pass, lo, hi, rc, rr, tokens, lines, rung;
} GbBreaksLevel;

/* Per operator: applied on steps from a passed version, and on breaking steps. */
typedef struct {
    char *op; /* owned: one operator code (a stacked rung's "A2+A7" counts for each) */
    long applied, broke;
} GbBreaksOp;

/* What failure after the original's success follows: the transitions of every item that passed
 * version 0, one per distinct rung. */
typedef struct {
    GbArray(double) d_rc, d_tok, lines, log_lines, rc_fail, rc_pass;
    GbArray(int) y;
} GbBreaksFlips;

/* One logistic fit of failure on RC and a size measure. */
typedef struct {
    double beta[3], se[3], z[3];
    const char *points; /* static: the larger positive z's measure, "neither" or "undetermined" */
} GbBreaksFit;

/* The tuning of the analysis (the options of `genebench breaks`). */
typedef struct {
    double ridge, size_tolerance, rc_tolerance;
} GbBreaksParams;

/* Everything `breaks` reports, computed from a GbBreaks (borrowed, must outlive it). */
typedef struct {
    const GbBreaks *b;
    GbBreaksParams params;
    GbBreaksLevel *levels;   /* owned, per version */
    GbArray(char *) formats; /* borrowed strings: meta.format of version 0's programs, first-seen order */
    GbArray(GbBreaksOp) ops; /* sorted by rate, breaks, code */
    GbBreaksFlips flips;
    double u, p; /* Mann-Whitney of the flips' RC: failures against successes */
    bool both;   /* both outcomes among the flips */
    GbBreaksFit fit_tokens, fit_lines;
    double auc_rc, auc_tokens, auc_lines;
    GbMatchedPairs at_size, at_rc;
    const char *points; /* static: "size", "complexity", "both", "neither" or "undetermined" */
} GbBreaksAnalysis;

/* Read the results of `genebench eval` over the level files (path) and every level file they
 * name into b (caller storage, initialised here; destroy it even on failure). Problems are added
 * to diag, naming the file and line. Returns false on any problem. */
bool gb_breaks_read(GbBreaks *b, const char *path, GbDiag *diag);
void gb_breaks_destroy(GbBreaks *b);

/* Pass of an item at version v: 1, 0, or -1 when it has no scored sample. */
int gb_breaks_pass(const GbBreaksItem *it, size_t v);
/* The breaking version of an item: the first failed one after a passed one (0: none). */
size_t gb_breaks_breaking(const GbBreaksItem *it, size_t nver);
/* The program of a task at version v; borrowed, NULL when the level has none. */
const GbBreaksProg *gb_breaks_prog(const GbBreaks *b, size_t v, const char *task);
/* pass@1 and means at version v over the items whose program has this format (NULL: all). */
GbBreaksLevel gb_breaks_level(const GbBreaks *b, size_t v, const char *format);
/* Append the operators applied between the rungs of two versions' programs (the later's lineage
 * past the earlier's rung), joined by '+'; *first says whether nothing was appended yet. */
void gb_breaks_step_ops(const GbBreaksProg *a, const GbBreaksProg *b, GbStr *out, bool *first);
/* Median of n values (NAN for none). */
double gb_breaks_median(const double *x, size_t n);

/* Compute every figure (caller storage; destroy with gb_breaks_analysis_destroy). */
void gb_breaks_analyse(GbBreaksAnalysis *a, const GbBreaks *b, const GbBreaksParams *params);
void gb_breaks_analysis_destroy(GbBreaksAnalysis *a);

/* breaks.json as its document (caller storage, initialised here; gb_breaks_doc_destroy), and
 * items.csv appended to out. */
void gb_breaks_doc_fill(const GbBreaksAnalysis *a, GbBreaksDoc *doc);
void gb_breaks_csv(const GbBreaksAnalysis *a, GbStr *out);

/* The chart file names of the page (curve_level.svg, curve_rc.svg, curve_tokens.svg). */
#define GB_BREAKS_CHARTS 3
extern const char *const gb_breaks_chart_names[GB_BREAKS_CHARTS];
/* The chart of pass@1 against level, mean RC or mean tokens (k < GB_BREAKS_CHARTS) as a standalone
 * SVG, appended to out. */
void gb_breaks_chart(const GbBreaksAnalysis *a, int k, GbStr *out);
/* The page's self-contained part (scoped style, charts with their export buttons, the tables,
 * the ladders, the script), appended to out; `genebench report --breaks` shows it as a panel. */
void gb_breaks_panel(const GbBreaksAnalysis *a, GbStr *out);
