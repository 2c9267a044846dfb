#pragma once
/* breaks.json, the analysis `genebench breaks` writes (what the figures mean: src/measure/README.md).
 * This module is its only writer and its only parser. One JSON object; keys, in this order:
 *   levels: per version {version, file, items, pass_at_1, ci95: [lo, hi], mean_rc, mean_rr,
 *           mean_tokens, mean_lines, mean_rung};
 *   by_format: {format: [the same per version, without file]};
 *   items: [{task, item, verdicts ("P", "F", "." per version), breaking_version (null, or the
 *           version followed by rungs: [from, to] and operators: "op+op")}];
 *   operators: [{op, applied, breaking, rate, ci95}];
 *   rank_test: {success_to_failure, success_to_success, median_rc_failure, median_rc_success, u, p};
 *   complexity_vs_size: {n, ridge, logistic_tokens, logistic_lines (each {intercept, rc, log_tokens
 *           or log_lines: {beta, se, z}, points_at}), auc_rc, auc_log_tokens, auc_lines,
 *           size_tolerance, rc_tolerance, rc_at_equal_size, lines_at_equal_rc (each {failures,
 *           pairs, higher_failed, rate, ci95, p, mean_gap}), points_at}.
 * Reals are written by src/base/json_write.h gb_json_number (not finite: null, NAN here). Every
 * string is owned. Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* pass@1 of one version (file is NULL in by_format). */
typedef struct {
    long version;
    char *file;
    long items;
    double pass_at_1, lo, hi, mean_rc, mean_rr, mean_tokens, mean_lines, mean_rung;
} GbBreaksDocLevel;

typedef GbArray(GbBreaksDocLevel) GbBreaksDocLevels;

typedef struct {
    char *format;
    GbBreaksDocLevels levels;
} GbBreaksDocFormat;

typedef struct {
    char *task, *item, *verdicts;
    long breaking_version; /* 0: none (null); then rungs and operators are absent */
    long rung_from, rung_to;
    char *operators;
} GbBreaksDocItem;

typedef struct {
    char *op;
    long applied, breaking;
    double rate, lo, hi;
} GbBreaksDocOp;

/* A logistic fit: intercept, rc and the size measure, each {beta, se, z}. */
typedef struct {
    double beta[3], se[3], z[3];
    char *points_at;
} GbBreaksDocFit;

typedef struct {
    long failures, pairs, higher_failed;
    double rate, lo, hi, p, mean_gap;
} GbBreaksDocPairs;

typedef struct {
    GbBreaksDocLevels levels;
    GbArray(GbBreaksDocFormat) by_format;
    GbArray(GbBreaksDocItem) items;
    GbArray(GbBreaksDocOp) operators;
    long success_to_failure, success_to_success;
    double median_rc_failure, median_rc_success, u, p;
    long n;
    double ridge;
    GbBreaksDocFit logistic_tokens, logistic_lines;
    double auc_rc, auc_log_tokens, auc_lines, size_tolerance, rc_tolerance;
    GbBreaksDocPairs rc_at_equal_size, lines_at_equal_rc;
    char *points_at;
} GbBreaksDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_breaks_doc_destroy(GbBreaksDoc *doc);
/* Append the document (its newline included) to out. */
void gb_breaks_doc_write(GbStr *out, const GbBreaksDoc *doc);
/* Parse text (name: the file, for messages) into doc (caller storage, initialised here). False
 * with err naming the file and the key that is missing, mistyped or unknown; doc is then empty. */
bool gb_breaks_doc_parse(const char *text, size_t len, const char *name, GbBreaksDoc *doc, GbError *err);
