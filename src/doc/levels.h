#pragma once
/* levels.json, the summary `genebench levels` writes beside its level files. This module is its
 * only writer and its only parser. One JSON object and a newline; keys, in this order:
 *   input (the evolve output read), by ("rungs", "rc" or "size"), k (the highest level),
 *   rc_targets (per level 0..k the RC the level aims at; null when no task has a lineage),
 *   size_budget (the token budget of --by size and of the size-matched level),
 *   levels: one line each {level ("0".."k" or "size"), file (level_<level>.jsonl), tasks,
 *            mean_rc, mean_rr, mean_tokens, mean_lines, mean_rung}.
 * Reals are written by src/base/json_write.h gb_json_number (not finite: null, NAN here). Every
 * string is owned. Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* One level file and the means of its programs. */
typedef struct {
    char *level, *file;
    long tasks;
    double mean_rc, mean_rr, mean_tokens, mean_lines, mean_rung;
} GbLevelsDocLevel;

typedef struct {
    char *input, *by;
    long k;
    GbArray(double) rc_targets;
    double size_budget;
    GbArray(GbLevelsDocLevel) levels;
} GbLevelsDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_levels_doc_destroy(GbLevelsDoc *doc);
/* Append the document (its newline included) to out. */
void gb_levels_doc_write(GbStr *out, const GbLevelsDoc *doc);
/* Parse text (name: the file, for messages) into doc (caller storage, initialised here). False
 * with err naming the file and the key that is missing, mistyped or unknown; doc is then empty. */
bool gb_levels_doc_parse(const char *text, size_t len, const char *name, GbLevelsDoc *doc, GbError *err);
