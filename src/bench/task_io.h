#pragma once
/* Reading and writing benchmarks in the canonical JSONL format (src/model/task.h), and the
 * upstream formats (HumanEval, CRUXEval, ClassEval, Avatar). The only module that uses
 * jansson. Bad input never aborts a whole file: every bad line is reported as one
 * message naming file, line and task id, and the other lines are still read. */
#include <stdbool.h>
#include <tree_sitter/api.h>

#include "src/model/program.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* Collected problems, one line each: "FILE:LINE: task ID: what is wrong". */
typedef struct {
    GbArray(char *) messages; /* owned strings */
} GbDiag;
void gb_diag_init(GbDiag *d);
void gb_diag_destroy(GbDiag *d);
void gb_diag_add(GbDiag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a canonical JSONL benchmark. Good tasks are appended to out; each bad line
 * (malformed JSON, missing/mistyped field, non-UTF-8, duplicate id, ...) adds a message
 * to diag and is skipped. An empty file is reported as a problem. Returns false only when
 * the file cannot be read at all (message in diag). */
bool gb_bench_read(const char *path, GbBench *out, GbDiag *diag);
/* One task as a single line of compact JSON (no newline), fields in canonical order
 * followed by the task's extra fields in their order. Owned string. */
char *gb_task_to_json(const GbTask *t);
/* Parse one line of canonical JSON into t (caller storage, initialised here). Checks UTF-8
 * first, then JSON syntax, required fields and types. "meta" and unknown top-level keys keep
 * their original text. An absent "pinned" leaves t->pinned empty (gb_bench_read computes it).
 * On error returns false, writes a message (without the file:line prefix) into err, and leaves
 * t holding only the id when it could be read (destroy t in both cases). */
bool gb_task_from_json(const char *line, GbTask *t, GbError *err);
/* Write a whole benchmark atomically (temporary file + rename). */
bool gb_bench_write(const char *path, const GbBench *b, GbError *err);

/* Check that every module of t (source, each extra file) and its test code parse as
 * Python. On the first ERROR/MISSING node returns false and writes "Python syntax error
 * in MODULE at line L, column C" (1-based) into err. parser: the caller's (one per thread). */
bool gb_task_check_syntax(const GbTask *t, TSParser *parser, GbError *err);
/* Add a task read from path (t->line set) to b, taking ownership of *t (it is reset to
 * zero; destroyed when rejected). Rejects, with one message "PATH:LINE: task ID: ..." in
 * diag, a task whose Python does not parse and a task whose id is already in b (the first
 * one wins). Computes t->pinned (src/model/pinned.h) when compute_pinned. Returns true when added. */
bool gb_bench_add_take(GbBench *b, GbTask *t, TSParser *parser, bool compute_pinned, const char *path, GbDiag *diag);
/* The whole benchmark as JSONL text (one gb_task_to_json line + "\n" per task). Owned. */
char *gb_bench_to_jsonl(const GbBench *b);

/* True when path is acceptable as an extra file of a task: a relative module path inside the
 * program's directory (no absolute path, no "." or ".." component, not the main module's own
 * name). */
bool gb_task_file_path_ok(const char *path);
