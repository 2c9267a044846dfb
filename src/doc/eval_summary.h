#pragma once
/* The summary of `genebench eval` (--summary FILE): one compact JSON object and a newline. This
 * module is its only writer and its only parser; eval fills the struct and writes it, the report
 * reads it back. Keys, in this order:
 *   model, task, samples, temperature, top_p, max_tokens, seed, k: [k...], items,
 *   tasks_without_items, samples_planned, samples_scored, samples_resumed, samples_cached,
 *   requests, complete, stopped_by ("time budget" | "interrupt" | null),
 *   versions: [{version, file, items_scored, pass_at: {"<k>": p...}, verdicts: {"<verdict>": n...}}],
 *   comparisons: [{version, file, items, both_pass, lost, gained, both_fail, pass1_original,
 *                  pass1_version, relative_drop, drop_ci95: [lo, hi],
 *                  bootstrap: {resamples, seed, undefined}}],
 *   across_versions: {versions, relative_drop: {mean, min, max}, pass1: {mean, min, max}} | null,
 *   truncation: {samples, versions: [{version, truncated}],
 *                without: [{version, items, pass1_original, pass1_version, relative_drop}]},
 *   provenance: {command_line, tool_version, git_commit, date, inputs: [{path, sha256}],
 *                source ("server" | "answers"), server_url, server_model, server_context, api,
 *                system_sha256, answers: {path, sha256} | null, prompt_version, sandbox}
 * truncation counts the samples cut at the token limit (finish_reason "length") and gives each
 * comparison again over the items none of whose samples (original or version) was cut.
 * truncation and provenance are optional when parsing (older summaries have neither).
 * A rate that is undefined (no item, pass@1 of the original 0, ...) is null (NAN in the struct).
 * Numbers that are whole are written as integers, others with 12 significant digits. */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/eval_verdict.h"

typedef struct {
    long version;
    char *file; /* owned */
    size_t items_scored;
    double *pass_at;             /* owned: one per GbEvalSummary.k, NAN when undefined */
    size_t verdicts[GB_V_COUNT]; /* samples per verdict; [GB_V_NONE] is not written */
} GbEvalSummaryVersion;

typedef struct {
    long version;
    char *file; /* owned */
    size_t items, both_pass, lost, gained, both_fail;
    double pass1_original, pass1_version, relative_drop, drop_lo, drop_hi; /* NAN: undefined */
    size_t resamples;
    unsigned long boot_seed;
    size_t undefined; /* resamples whose drop was undefined */
} GbEvalComparison;

typedef struct {
    size_t versions;                         /* hardened versions */
    double drop_mean, drop_min, drop_max;    /* of the defined relative drops; NAN: none */
    double pass1_mean, pass1_min, pass1_max; /* of the versions' pass@1; NAN: none */
} GbEvalAcross;

typedef struct {
    long version;
    size_t truncated; /* samples of the version cut at the token limit */
} GbEvalTruncVersion;

typedef struct {
    long version;
    size_t items;                                        /* paired items without a truncated sample */
    double pass1_original, pass1_version, relative_drop; /* NAN: undefined */
} GbEvalTruncDrop;

typedef struct {
    char *path;      /* owned */
    char sha256[65]; /* "" when the file could not be read */
} GbEvalInputFile;

/* Where a summary came from; every string owned, NULL written as null. */
typedef struct {
    char *command_line, *tool_version, *git_commit, *date;
    GbArray(GbEvalInputFile) inputs;
    char *source; /* "server" or "answers" */
    char *server_url, *server_model;
    long server_context; /* -1: not reported */
    char *api;           /* "chat" or "completions" */
    char *system_sha256; /* NULL: no system message */
    bool has_answers;
    GbEvalInputFile answers;
    char *prompt_version, *sandbox;
} GbEvalProvenance;

/* A deep copy of p into out (caller storage). */
void gb_eval_provenance_copy(GbEvalProvenance *out, const GbEvalProvenance *p);
void gb_eval_provenance_destroy(GbEvalProvenance *p);

typedef struct {
    char *model; /* owned */
    char *task;  /* owned: the task type's name ("output", "input", ...) */
    long samples;
    double temperature, top_p;
    long max_tokens, seed;
    long *k; /* owned: the k of pass@k */
    size_t nk;
    size_t items, tasks_without_items, samples_planned, samples_scored, samples_resumed, samples_cached;
    long requests;
    bool complete;
    char *stopped_by;                       /* owned; NULL: not stopped */
    GbArray(GbEvalSummaryVersion) versions; /* owned */
    GbArray(GbEvalComparison) comparisons;  /* owned: versions 1.. against version 0 */
    bool has_across;                        /* across_versions is written only for 2+ versions */
    GbEvalAcross across;
    bool has_truncation; /* eval always sets it; false when parsing an older summary (then not written) */
    size_t truncated;    /* samples cut at the token limit, all versions */
    GbArray(GbEvalTruncVersion) trunc_versions;
    GbArray(GbEvalTruncDrop) trunc_drops; /* versions 1.. */
    bool has_provenance;
    GbEvalProvenance provenance;
} GbEvalSummary;

/* Free what s owns (s itself is caller storage); a zeroed struct is fine. */
void gb_eval_summary_destroy(GbEvalSummary *s);

/* The summary as JSON text (owned, ends with a newline). */
char *gb_eval_summary_write(const GbEvalSummary *s);

/* Parse a summary (name: the file, for messages). False with err naming the file and the key
 * when the text is not JSON or a key is missing or of the wrong type; *out is then zeroed. A
 * JSON object without "versions" and "comparisons" lists is "not the summary of `genebench
 * eval`". */
bool gb_eval_summary_parse(const char *text, size_t len, const char *name, GbEvalSummary *out, GbError *err);
/* Read and parse the file at path (as gb_eval_summary_parse). */
bool gb_eval_summary_read(const char *path, GbEvalSummary *out, GbError *err);
