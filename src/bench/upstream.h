#pragma once
/* Conversion between the canonical task format (src/model/task.h) and the formats the upstream
 * benchmarks distribute: HumanEval (JSONL), CRUXEval (JSONL), ClassEval (a JSON array) and
 * Avatar (JSONL + Code/ + TestCases/, in the PLTranslationEmpirical "dev" form or AVATAR's
 * tokenised NEW_LINE/INDENT/DEDENT form). Part of the task I/O module (uses jansson
 * inside). One file per format (src/bench/<name>.c), one row each in src/bench/format_list.h;
 * this file's functions dispatch on that table. Thread-safe: no shared state.
 *
 * Import keeps the whole upstream record in meta: {"format": NAME, "upstream": RECORD, ...};
 * export rebuilds the record from meta.upstream (same keys, same order), taking the program
 * (and, where the format allows, the tests) from the task, and writes it as the upstream
 * project serialises it. An unchanged task is written back byte for byte. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/model/task.h"
#include "src/bench/task_io.h"

#include "src/bench/format_list.h"

/* One constant per row of src/bench/format_list.h, in its order. */
typedef enum {
#define GB_UPSTREAM_FORMAT(ID, snake, layout, rules, purpose, command) GB_UPSTREAM_##ID,
    GB_UPSTREAM_FORMAT_LIST
#undef GB_UPSTREAM_FORMAT
        GB_UPSTREAM_COUNT
} GbUpstream;

/* A format's name on the command line (the row's snake of format_list.h) <-> enum. */
bool gb_upstream_from_name(const char *name, GbUpstream *out);
const char *gb_upstream_name(GbUpstream format);

/* What a hardened record of format is for: which field holds the hardened program and what
 * stays upstream's (static string, from src/bench/format_list.h). */
const char *gb_upstream_purpose(GbUpstream format);
/* The command a researcher runs with the upstream harness on an exported file (static string). */
const char *gb_upstream_command(GbUpstream format);

/* The execution rules of the harness a task came from, read from its meta ("format" and,
 * for ClassEval, "upstream"."import_statement"): *rules (GB_HARNESS_NONE for a task not
 * imported from an upstream format) and *prelude (owned, NULL when none). Never fails: meta
 * that does not name a known format gives GB_HARNESS_NONE. */
void gb_upstream_harness(const char *meta_json, GbHarnessRules *rules, char **prelude);

/* Read an upstream benchmark file (Avatar: the .jsonl; its test case files are found
 * relative to it) and append its tasks to out, with pinned names computed. Every bad record
 * is one message "PATH:LINE: task ID: ..." in diag and is skipped. Returns false only when
 * the file cannot be read at all (message in diag). Never modifies the input. */
bool gb_upstream_import(GbUpstream format, const char *path, GbBench *out, GbDiag *diag);

/* Write tasks in an upstream format. out_path is a file (HumanEval, CRUXEval: JSONL;
 * ClassEval: a JSON array) or, for Avatar, a directory that receives the .jsonl (named
 * after the imported file), Code/<id>.py and the TestCases files. Every file is written
 * atomically. A task that cannot be expressed (not imported from this format, tests changed
 * in a way the format cannot hold, ...) is one message "BENCH_PATH:LINE: task ID: ..." in
 * diag (bench_path: where b was read from, for the messages) and is left out. A record that
 * differs from upstream gets one more key, "genebench": {"hardened_by", "purpose", "command"}
 * (gb_upstream_purpose, gb_upstream_command). Files are written only after every task was
 * converted: when no task can be written, nothing is written and false is returned with a
 * message. *n_written gets the number of tasks written. Returns false when an output file could
 * not be written. */
bool gb_upstream_export(GbUpstream format, const GbBench *b, const char *bench_path, const char *out_path, GbDiag *diag,
                        size_t *n_written);

/* AVATAR tokenised code ("def f ( ) : NEW_LINE INDENT return 1 NEW_LINE DEDENT") to
 * runnable Python: logical lines at NEW_LINE, four spaces per INDENT, string literals
 * re-assembled (▁ -> space, STRNEWLINE -> newline, TABSYMBOL -> tab), attribute dots
 * re-joined. Owned string ending in a newline. */
char *gb_avatar_detokenize(const char *tokens);
/* The inverse direction for export: Python source to AVATAR's tokenised form (comments
 * dropped, one NEW_LINE per logical line, INDENT/DEDENT for blocks, string literals as
 * one token with ▁/STRNEWLINE/TABSYMBOL). gb_avatar_detokenize of the result runs like the
 * source. parser: the caller's. Owned string. */
char *gb_avatar_tokenize(const char *source, TSParser *parser);

/* Where a HumanEval prompt ends in source: just after the line that ends the entry point's
 * signature and docstring (the signature alone when there is no docstring). Returns false
 * when source has no top-level function named entry. */
bool gb_humaneval_prompt_end(const char *source, const char *entry, TSParser *parser, size_t *end);
