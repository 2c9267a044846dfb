#pragma once
/* One entry of eval's reply cache (--cache DIR: one file per request, <key>.json, src/eval/eval.c
 * makes the key): one compact JSON object, no newline. This module is its only writer and its only
 * parser. Keys, in this order: model, reply, then finish_reason, prompt_tokens and
 * completion_tokens when the server gave them (absent otherwise; entries written before they
 * existed have none). Every string is owned. Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct {
    char *model, *reply;
    char *finish_reason;                   /* NULL: absent */
    long prompt_tokens, completion_tokens; /* < 0: absent */
} GbEvalCacheEntry;

/* The entry's text (owned). Bytes that are not UTF-8 are written as U+FFFD. */
char *gb_eval_cache_entry_write(const GbEvalCacheEntry *e);
/* Parse an entry (name: its file, for messages) into *out (caller storage, initialised here).
 * False with err naming the file and the key that is missing, mistyped or unknown; *out is then
 * empty. */
bool gb_eval_cache_entry_parse(const char *text, size_t len, const char *name, GbEvalCacheEntry *out, GbError *err);
void gb_eval_cache_entry_destroy(GbEvalCacheEntry *e);
