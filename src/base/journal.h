#pragma once
/* Append-only result journal for long runs: each finished task is appended as one
 * complete JSON line with a single write(2) + fsync, so an interrupted run leaves only
 * whole results behind (a torn last line, from a crash mid-write, is detected and
 * dropped on the next open). Used by `evolve --resume` and `versions`.
 * Not thread-safe: callers serialise appends (one critical section). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct {
    int fd;
    char *path; /* owned */
} GbJournal;

/* Open (create) path for appending. When resume is false an existing journal is
 * moved aside to PATH.bak-N (never deleted). When resume is true a torn last line is
 * truncated away. */
bool gb_journal_open(GbJournal *j, const char *path, bool resume, GbError *err);
/* Append one line (a newline is added). */
bool gb_journal_append(GbJournal *j, const char *line, GbError *err);
void gb_journal_close(GbJournal *j);
