#pragma once
/* One line of the per-sample results of `genebench eval` (-o FILE): one compact JSON object per
 * scored sample, non-ASCII escaped. This module is its only writer and its only parser. Keys, in
 * this order: task, item, version, file, sample, model, prompt_sha256, raw (null: no reply),
 * extracted (null: nothing extracted), verdict (eval_verdict.h), error (null: none), cached,
 * finish_reason (null: none given), prompt_tokens, completion_tokens (null: not reported),
 * latency_ms (null: no request was made), truncated (the reply was cut at the token limit).
 * The last five are optional when parsing (older results files). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/eval_verdict.h"

typedef struct {
    const char *task, *item;
    long version;
    const char *file;
    long sample;
    const char *model, *prompt_sha256;
    const char *raw, *extracted; /* NULL: null */
    GbVerdict verdict;
    const char *error; /* NULL: null */
    bool cached;
    const char *finish_reason;             /* NULL: null */
    long prompt_tokens, completion_tokens; /* < 0: null */
    double latency_ms;                     /* < 0: null */
    bool truncated;
    void *storage_; /* the parsed text the strings point into (parse only) */
} GbEvalResult;

/* The line (owned, without its newline). The strings are borrowed from the caller; bytes that are
 * not UTF-8 are written as U+FFFD, so the line is always valid JSON. */
char *gb_eval_result_write(const GbEvalResult *r);

/* Parse one line. On success the strings of *out point into storage that gb_eval_result_destroy
 * frees. False with err ("malformed JSON: ..." or the key that is missing or mistyped); *out is
 * then empty. */
bool gb_eval_result_parse(const char *line, size_t len, GbEvalResult *out, GbError *err);
void gb_eval_result_destroy(GbEvalResult *r);
