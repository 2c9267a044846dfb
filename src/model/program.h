#pragma once
/* A program under transformation: its modules (the main module first, then helper
 * modules sorted by path) and the history of operators applied to it. Operators are
 * source-to-source; a program is a plain value that can be copied between individuals.
 * Not shared between threads while being modified. */
#include <stdbool.h>
#include <stddef.h>

#include "src/model/task.h"
#include "src/base/util.h"

/* The file name the main module gets when written to disk for a test run. Helper
 * modules import from it under this name (without .py). */
#define GB_MAIN_MODULE "main.py"

/* One applied transformation: which operator, at which site (a stable key the operator
 * chose, e.g. "main.py:123:for"), and the byte ranges it replaced in the module it edited. */
typedef struct {
    char *op;                       /* owned: operator name */
    char *site_key;                 /* owned */
    char *module;                   /* owned: module path that was edited */
    size_t start, old_end, new_end; /* byte range of the edit in that module (before/after) */
} GbApplied;

typedef struct {
    GbArray(GbFile) modules;    /* modules.items[0] is the main module (path GB_MAIN_MODULE) */
    GbArray(GbApplied) history; /* in order of application */
    /* Synthetic identifiers: every name an operator invented (each name handed out by
     * gb_op_ctx_fresh_name, including N1/N2 rename targets and import aliases), in the order
     * they were handed out, without duplicates. Append-only; a name stays listed after it
     * disappears from the source. The naming step (operators/naming.h) gives the ones still
     * present natural names before a program is output. */
    GbArray(char *) synthetic;
} GbProgram;

void gb_program_init(GbProgram *p);
void gb_program_destroy(GbProgram *p);
/* Deep copy (caller storage). */
void gb_program_copy(GbProgram *dst, const GbProgram *src);
/* Build from a task: main module = task->source, helpers = task->extra_files. */
void gb_program_from_task(GbProgram *p, const GbTask *t);
/* Write the program back into a task (replaces source and extra_files). */
void gb_program_to_task(const GbProgram *p, GbTask *t);
/* Module by path, or NULL (borrowed). */
GbFile *gb_program_module(GbProgram *p, const char *path);
/* Replace a module's source (takes ownership of source). */
void gb_program_set_source_take(GbProgram *p, size_t module, char *source);
/* Add a helper module (copied), keeping helpers sorted by path after the main module. */
void gb_program_add_module(GbProgram *p, const char *path, const char *source);
/* Record an applied operator (strings copied). */
void gb_program_record(GbProgram *p, const char *op, const char *site_key, const char *module, size_t start,
                       size_t old_end, size_t new_end);
/* True when operator op was already applied at site_key. */
bool gb_program_was_applied(const GbProgram *p, const char *op, const char *site_key);
/* All modules concatenated in a fixed order (main first, then by path), each preceded by
 * a "# module: PATH" line when there is more than one module. Owned string. Used by
 * metrics/similarity that measure multi-module programs as a whole. */
char *gb_program_concat(const GbProgram *p);
/* Record name as synthetic (copied; no-op when already recorded). */
void gb_program_add_synthetic(GbProgram *p, const char *name);
/* True when name was recorded by gb_program_add_synthetic. */
bool gb_program_is_synthetic(const GbProgram *p, const char *name);
