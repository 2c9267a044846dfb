#pragma once
/* The run summary of `evolve`/`merge` (the document src/doc/run_summary.h owns and documents),
 * computed from the output tasks' output records (read through src/bench/record.h), so a resumed
 * or merged run is summarised exactly like a run done in one go. Not thread-safe (call once, at
 * the end). */
#include <stdbool.h>

#include "fitness/fitness.h"
#include "nsga2/record.h"
#include "src/model/task.h"
#include "src/base/util.h"
#include "src/doc/run_summary.h"

/* Per-metric change over the tasks that evolved: for each metric of
 * fitness/metric_list.h, the sums of its values before and after, and in how many tasks it
 * went up or down. A task counts when its status is "hardened" or "unchanged" (tasks whose
 * original fails its tests, or that hit an error, are left out: they have no hardened
 * program) and, per metric, when both its before and after values are finite. The summary's
 * "metrics" object and the report's per-metric table are both computed with this. */
typedef struct {
    double before_sum, after_sum;
    long raised;  /* after > before */
    long lowered; /* after < before */
    long tasks;   /* tasks counted for this metric */
} GbMetricChange;

/* Add one output record to ch (caller storage, zeroed first, GB_METRIC_COUNT entries). */
void gb_metric_change_add(GbMetricChange *ch, const GbRecord *r);

typedef struct {
    unsigned long long seed;
    int generations;
    double time_budget;
    double breed;
    const char *thresholds;
    bool lint;
    double time_s;           /* wall time of this invocation */
    long validated_this_run; /* offspring validated by this invocation (for offspring/s) */
    const char *python;      /* interpreter path */
    const char *python_json; /* JSON object of library versions (or NULL) */
    int accept;              /* children joining per generation (0: all validated) */
    const char *objective;   /* "balanced" | "rc" (NULL: not written, e.g. merge) */
    int away_versions;       /* earlier versions evolved away from (0: none) */
    double away_target;
    /* provenance (written as "provenance" when command_line is not NULL): the command line, the
     * input benchmark and the SHA-256 of its bytes ("" when unreadable), the date (UTC) */
    const char *command_line, *input_path, *input_sha256, *date;
} GbRunFacts;

/* Fill *s (initialised here; gb_run_summary_destroy frees it) over the tasks: counts, the means
 * rounded to 4 decimals, per-gate, per-operator and per-metric figures, and the run's facts. */
void gb_summary_fill(const GbBench *out, const GbRunFacts *facts, GbRunSummary *s);
/* The summary document (owned, as gb_run_summary_write writes it) over the tasks. */
char *gb_summary_build(const GbBench *out, const GbRunFacts *facts);
/* The "index" of a task's output record, or -1 when absent or unreadable. */
long gb_summary_task_index(const GbTask *t);
/* One-line human summary (owned): tasks, hardened, failed, RC/RR before→after. */
char *gb_summary_line(const GbBench *out);
/* The complexity metrics' change, one line per metric C1..C7, each indented by two spaces and
 * ending with a newline ("  C1 3.20 -> 7.94 (raised in 14/16)  cyclomatic complexity ..."),
 * over the tasks that evolved; "" when none did. Owned. */
char *gb_summary_metric_lines(const GbBench *out);
