#pragma once
/* Private to src/bench: what the per-format files (humaneval.c, cruxeval.c, classeval.c,
 * avatar.c; one row each in src/bench/format_list.h) share with the format-independent parts
 * in upstream.c (the format table, reading JSONL records, the export driver). Nothing outside
 * src/bench includes this header. Thread-safe: no shared state. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/bench/task_io.h"
#include "src/bench/upstream.h"
#include "src/model/task.h"

/* How an exported benchmark is laid out: one JSONL file, one JSON array file (written as
 * json.dumps(indent=4, ensure_ascii=False)), or a directory of files. */
typedef enum { GB_UP_LAYOUT_JSONL, GB_UP_LAYOUT_JSON_ARRAY, GB_UP_LAYOUT_DIRECTORY } GbUpLayout;

/* One import in progress. */
typedef struct {
    GbUpstream format;
    const char *path; /* the upstream file (borrowed) */
    char *dir;        /* its directory (owned) */
    TSParser *parser; /* borrowed */
    GbBench *out;     /* borrowed: tasks are appended here */
    GbDiag *diag;     /* borrowed */
    const char *file; /* Avatar: the .jsonl name kept in meta.file (NULL: the base name of path) */
} GbUpImport;

/* One export in progress. */
typedef struct {
    GbUpstream format;
    const char *bench_path;  /* where the benchmark was read from, for messages (borrowed) */
    const char *out_path;    /* borrowed */
    TSParser *parser;        /* owned by the export driver */
    GbDiag *diag;            /* borrowed */
    GbStr jsonl;             /* JSONL and directory layouts: the records written so far */
    json_t *array;           /* JSON array layout */
    GbArray(GbFile) written; /* directory layout: files to write at the end (path -> content), to detect clashes */
    char *jsonl_name;        /* directory layout: name of the .jsonl inside it (owned; NULL: the format's default) */
} GbUpExport;

/* Fill t from one upstream record (t->line is set). On failure sets err (and t->id when known). */
typedef bool (*GbUpRecordFn)(GbUpImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err);

/* The per-format functions named by src/bench/format_list.h. import: read a whole upstream
 * file's text (data, len) and add its tasks with gb_up_accept; count the records seen in
 * *n_records. export: rebuild rec (a deep copy of meta.upstream) from t; false with err set
 * when the format cannot hold t. */
#define GB_UPSTREAM_FORMAT(ID, snake, layout, rules, purpose, command)                                                 \
    void gb_##snake##_import(GbUpImport *im, const char *data, size_t len, size_t *n_records);                         \
    bool gb_##snake##_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err);
GB_UPSTREAM_FORMAT_LIST
#undef GB_UPSTREAM_FORMAT

/* Avatar: import AVATAR's own layout, a directory with Code/<id>.py and TestCases/<id>_<k>.in/.out
 * (im->path = im->dir = that directory). Returns false when it has no Code/ (message in diag). */
bool gb_avatar_import_dir(GbUpImport *im);

/* A required string member of an upstream record (borrowed); no NUL inside. */
bool gb_up_str(const json_t *rec, const char *key, const char **out, GbError *err);
/* The directory part of path ("." when none). Owned. */
char *gb_up_dirname(const char *path);
/* The last component of path. Borrowed (points into path). */
const char *gb_up_basename(const char *path);
/* A relative path without empty or ".." components: it stays inside the directory it is relative to. */
bool gb_up_relative_path_ok(const char *path);
/* Read dir/rel, a text file (UTF-8, no NUL) that belongs to a task. Owned, or NULL with err set. */
char *gb_up_read_text(const char *dir, const char *rel, GbError *err);
/* mkdir -p. */
bool gb_up_mkdirs(const char *dir, GbError *err);
/* Turn one upstream record into a task with fn and add it to im->out (meta gets
 * {"format", ..., "upstream": rec}); a bad record is one message in im->diag. */
void gb_up_accept(GbUpImport *im, json_t *rec, size_t line, GbUpRecordFn fn);
/* Each non-blank line of a JSONL file is one record, given to gb_up_accept with fn. */
void gb_up_jsonl(GbUpImport *im, const char *data, size_t len, GbUpRecordFn fn, size_t *n_records);
