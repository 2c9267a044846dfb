#pragma once
/* gzip on whole files: benchmark and results files may be plain text or gzip (as HumanEval ships
 * HumanEval.jsonl.gz); reading detects gzip by its content (the magic bytes 1f 8b), writing
 * compresses when the path ends in ".gz". Inflation stops at a size cap, so a small file that
 * expands to gigabytes is an error naming the file instead of an out-of-memory abort.
 * Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* The cap on the inflated size of a gzip file read by gb_read_data_file (512 MiB: far above any
 * benchmark or results file, far below what a gzip bomb asks for). */
#define GB_GZIP_MAX_INFLATED ((size_t)512 << 20)

/* True when data starts with the gzip magic bytes. */
bool gb_gzip_detect(const char *data, size_t len);
/* Inflate the gzip data (concatenated members included) into out (caller storage, initialised
 * here; NUL-terminated). name names the data in messages. Fails with "NAME: not a valid gzip
 * file (...)" or "NAME: decompresses to more than CAP bytes (limit ...)" when the inflated size
 * would exceed cap; out is destroyed on failure. */
bool gb_gunzip(const char *name, const char *data, size_t len, size_t cap, GbStr *out, GbError *err);
/* Compress data as one gzip member (no file name, mtime 0: the bytes depend on data only) into
 * out (caller storage, initialised here). */
void gb_gzip(const char *data, size_t len, GbStr *out);
/* Read a whole file (owned, NUL-terminated, length in *len_out), inflated when it is gzip, with
 * the cap GB_GZIP_MAX_INFLATED. NULL with a message naming the file on failure. */
char *gb_read_data_file(const char *path, size_t *len_out, GbError *err);
/* As gb_read_data_file with the cap given (tests use a small one). */
char *gb_read_data_file_capped(const char *path, size_t cap, size_t *len_out, GbError *err);
/* Write a whole file atomically (src/base/util.h gb_write_file_atomic), gzip-compressed when
 * path ends in ".gz". */
bool gb_write_data_file_atomic(const char *path, const char *data, size_t len, GbError *err);
/* When the file at path is gzip, replace it (atomically) by its inflated text, so that lines can be
 * appended to it again; a plain file is left as it is. */
bool gb_gunzip_file_in_place(const char *path, GbError *err);
