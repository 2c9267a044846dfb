#pragma once
/* The run summary of `evolve` and `merge` (OUT.summary.json, or --summary FILE): this module is
 * its only writer and its only parser. src/report/summary.h fills it from the output records.
 *
 * The document, keys in this order (pretty-printed, 2 spaces, a newline at the end):
 *   "tool": "genebench", "version", "seed", "generations", "time_budget", "breed", "thresholds",
 *   "lint", then "objective" ("balanced" | "rc") and "accept" and, with earlier versions,
 *   "away": {"versions", "target"} (merge writes none of the three), "python": {"version",
 *   <library>: version or null ..., "interpreter"}, "tasks", "hardened", "unchanged", "failed",
 *   "rc_before_mean", "rr_before_mean", "rc_after_mean", "rr_after_mean", "time_s",
 *   "offspring_validated", "offspring_validated_this_run", "offspring_per_s",
 *   "gates": {"offered", <gate of nsga2/gate_list.h>..., "accepted"} ({} when no record had gate
 *   counts), "operators": {<code>: {...}} (every operator of operators/operator_list.h),
 *   "metrics": {<key of fitness/metric_list.h>: {"before_mean", "after_mean", "raised",
 *   "lowered", "tasks"}}, "added_text": {"tasks", "sentence", "sentence_tasks", "sentence_share",
 *   "name", "name_tasks", "name_share"}, and, when evolve ran (merge writes none),
 *   "provenance": {"command_line", "tool_version", "git_commit", "date" (when known),
 *   "inputs": [{"path", "sha256" (when the file could be read)}]}.
 * An operator's entry holds "name", "offered", "accepted", "rejected" (per gate; {} when the
 * operator was never offered), "in_picks" and "mean_rc_delta"; its key order is the one the
 * summary has always had: name, mean_rc_delta, offered, accepted, in_picks, rejected when it was
 * never offered; else name, offered, accepted, rejected, then in_picks before mean_rc_delta when
 * it is in some pick, after it when not.
 * "metrics" is over the tasks that evolved (status "hardened" or "unchanged"; per metric only
 * tasks whose before and after values are finite): "tasks" is how many were counted,
 * "raised"/"lowered" in how many the value after is above/below the value before, and the means
 * are rounded to 4 decimals (0 when tasks is 0), as are the RC/RR means, time_s and
 * offspring_per_s (the writer writes the values it is given; src/report/summary.c rounds).
 * "added_text" measures how recognisable the added text is (src/report/added_text.h): over the
 * hardened and unchanged tasks, the docstring or comment sentence and the identifier (not a
 * builtin, not one an import binds, not an attribute name) found in the most picks but not in
 * their originals (null when none), in how many tasks, and that share (rounded to 4 decimals).
 * Summaries written before "added_text" and "provenance" existed have neither; the parser takes
 * them without and the writer then writes neither.
 * Reals are written with 10 significant digits (a whole value as "3.0"). Not thread-safe per
 * object; distinct objects are independent. */
#include <stdbool.h>
#include <stddef.h>

#include "fitness/fitness.h"
#include "nsga2/gate_list.h"
#include "nsga2/record.h"
#include "operators/operator.h"
#include "src/base/util.h"

/* One Python library of "python": its version, NULL when it could not be imported (null). */
typedef struct {
    char *name;    /* owned */
    char *version; /* owned, may be NULL */
} GbRunSummaryLib;

/* One operator's entry; counts.offered == 0: never offered (no per-gate "rejected"). */
typedef struct {
    GbGateCounts counts;
    long in_picks;
    double mean_rc_delta;
} GbRunSummaryOperator;

/* One metric's change over the tasks that evolved. */
typedef struct {
    double before_mean, after_mean;
    long raised, lowered, tasks;
} GbRunSummaryMetric;

/* "added_text": the most frequent added sentence and name (NULL: none, written null). */
typedef struct {
    long tasks;
    char *sentence; /* owned, may be NULL */
    long sentence_tasks;
    double sentence_share;
    char *name; /* owned, may be NULL */
    long name_tasks;
    double name_share;
} GbRunSummaryAddedText;

/* One input file of "provenance". */
typedef struct {
    char *path;      /* owned */
    char sha256[65]; /* "" when the file could not be read ("sha256" is then not written) */
} GbRunSummaryInput;

/* "provenance": where the run came from. */
typedef struct {
    char *command_line, *tool_version, *git_commit; /* owned */
    char *date;                                     /* owned; NULL: not written */
    GbArray(GbRunSummaryInput) inputs;              /* owned */
} GbRunSummaryProvenance;

typedef struct {
    char *version; /* owned: genebench's version */
    unsigned long long seed;
    long generations;
    double time_budget, breed;
    char *thresholds; /* owned ("" when none) */
    bool lint;
    char *objective; /* owned; NULL: "objective", "accept" and "away" are not written (merge) */
    long accept;
    long away_versions; /* 0: no "away" */
    double away_target;
    char *interpreter;     /* owned */
    GbRunSummaryLib *libs; /* owned, n_libs entries, in "python" order (before "interpreter") */
    size_t n_libs;
    long tasks, hardened, unchanged, failed;
    double rc_before_mean, rr_before_mean, rc_after_mean, rr_after_mean;
    double time_s;
    long offspring_validated, offspring_validated_this_run;
    double offspring_per_s;
    bool has_gates; /* false: "gates" is {} */
    GbGateCounts gates;
    GbRunSummaryOperator operators[GB_OP_COUNT];
    GbRunSummaryMetric metrics[GB_METRIC_COUNT];
    bool has_added_text; /* false: no "added_text" (an older summary) */
    GbRunSummaryAddedText added_text;
    bool has_provenance; /* false: no "provenance" (merge, or an older summary) */
    GbRunSummaryProvenance provenance;
} GbRunSummary;

/* Zero s (caller storage). */
void gb_run_summary_init(GbRunSummary *s);
void gb_run_summary_destroy(GbRunSummary *s);

/* Set the "python" libraries from the JSON object text the interpreter printed (names to version
 * strings or null). NULL, malformed text or a value that is neither leaves no library; a value of
 * another type is taken as null. Replaces the libraries set before. */
void gb_run_summary_set_libs(GbRunSummary *s, const char *python_json);

/* The document (owned, ends with a newline). Strings that are not UTF-8 are written with U+FFFD. */
char *gb_run_summary_write(const GbRunSummary *s);

/* Parse text (the file `name`, for messages) into *out (initialised here). False with err naming
 * the file and the key that is missing, mistyped or unknown; *out is then empty. */
bool gb_run_summary_parse(const char *text, size_t len, const char *name, GbRunSummary *out, GbError *err);
/* Read and parse the file at path. */
bool gb_run_summary_read(const char *path, GbRunSummary *out, GbError *err);
