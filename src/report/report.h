#pragma once
/* The visual report of hardening runs (`genebench report`): reads the output of
 * `genebench evolve` (src/evolve.h: hardened JSONL + OUT.summary.json) and of `genebench versions`
 * (a directory of seed-<S>.jsonl runs + similarity.json) and of `genebench eval` (summary JSON +
 * per-sample results JSONL) and writes one self-contained HTML file.
 * The charts are Vega-Lite specifications rendered by vega/vega-lite/vega-embed, whose minified
 * builds are inlined into the page, so it opens offline.
 *
 * Reading is tolerant: optional fields (front, lint, gates, summary, similarity, thresholds) may
 * be missing and the matching panel says so; a malformed line is reported as a warning naming
 * file, line and task and skipped. Not thread-safe: one GbReport per thread. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct GbReport GbReport;

typedef struct {
    const char *assets_dir;  /* borrowed; NULL: <source_root>/third_party (where src/setup.sh puts them) */
    const char *source_root; /* borrowed; NULL: GB_SOURCE_ROOT of the build */
    const char *thresholds;  /* borrowed; NULL: the thresholds file each run names */
    const char *title;       /* borrowed; NULL: "genebench report" */
} GbReportOptions;

/* A new empty report (owned; free with gb_report_delete). opt may be NULL; the strings it points
 * to must outlive the report. */
GbReport *gb_report_new(const GbReportOptions *opt);
void gb_report_delete(GbReport *r);

/* Add one input: a hardened JSONL file (one benchmark run) or a directory (every *.jsonl in it,
 * in natural order, as versions of one benchmark, plus its similarity.json when present).
 * Returns false with err set when the input cannot be read or holds no task at all; problems
 * with single lines become warnings. */
bool gb_report_add_input(GbReport *r, const char *path, GbError *err);

/* Add one run of `genebench eval`: its summary (--summary FILE) and, optionally (results_path
 * NULL: none), its per-sample results (-o FILE), which give the list of items whose outcome
 * changed; they are checked against the summary's paired counts (a mismatch is a warning). The
 * report then has a "Model evaluation" panel: pass@k per task type and version, the relative drop
 * with its interval, the per-item outcome counts and the items that changed. A report may have
 * only eval inputs. False with err when the summary cannot be read or is not an eval summary, or
 * the results cannot be read or hold no result line. */
bool gb_report_add_eval(GbReport *r, const char *summary_path, const char *results_path, GbError *err);
size_t gb_report_eval_count(const GbReport *r);

/* The markers around the self-contained part of `genebench breaks`'s breaks.html (its charts with
 * their export, the tables, the ladders; style and script scoped to it). */
#define GB_REPORT_BREAKS_BEGIN "<!-- gb-breaks -->"
#define GB_REPORT_BREAKS_END "<!-- /gb-breaks -->"

/* Add the output of `genebench breaks` in dir: the report then has a "Where the model breaks"
 * panel with the part of dir/breaks.html between the markers. False with err when the file cannot
 * be read or has no marked part. */
bool gb_report_add_breaks(GbReport *r, const char *dir, GbError *err);

/* Warnings collected so far ("FILE:LINE: task ID: what"), borrowed. */
size_t gb_report_warning_count(const GbReport *r);
const char *gb_report_warning(const GbReport *r, size_t i);
/* Number of tasks read over all inputs. */
size_t gb_report_task_count(const GbReport *r);

/* Resolve the three minified scripts: for each NAME in vega, vega-lite, vega-embed, the first of
 * DIR/NAME/build/NAME.min.js and DIR/NAME.min.js that exists. On failure err names the missing
 * file and says to run src/setup.sh. paths_out gets three owned strings. */
bool gb_report_find_assets(const char *dir, char *paths_out[3], GbError *err);

/* Render the whole page. Returns the HTML (owned) or NULL with err set when no input was added or
 * an asset cannot be read. */
char *gb_report_render(GbReport *r, GbError *err);
