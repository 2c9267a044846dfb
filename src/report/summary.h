#pragma once
/* The run summary of `evolve`/`merge` (format in nsga2/evolve.h), computed from the output
 * tasks' output records (read through src/bench/record.h), so a resumed or merged run is
 * summarised exactly like a run done in one go. jansson (for the summary's own JSON) stays inside
 * src/report/summary.c. Not thread-safe (call once, at the end). */
#include <stdbool.h>

#include "src/model/task.h"
#include "src/base/util.h"

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
} GbRunFacts;

/* Build the summary JSON (owned, pretty-printed, ends with a newline) over the tasks. */
char *gb_summary_build(const GbBench *out, const GbRunFacts *facts);
/* The "index" of a task's output record, or -1 when absent or unreadable. */
long gb_summary_task_index(const GbTask *t);
/* One-line human summary (owned): tasks, hardened, failed, RC/RR before→after. */
char *gb_summary_line(const GbBench *out);
