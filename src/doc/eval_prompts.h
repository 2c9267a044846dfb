#pragma once
/* One line of the prompts file of `genebench eval --write-prompts FILE`: one compact JSON object
 * per sample, non-ASCII escaped, for a model run elsewhere (its answers come back through
 * --answers, src/eval/offline.h). This module is its only writer and its only parser. Keys, in
 * this order: task_id ("<item>@v<version>"), item, version, sample, task, api ("chat" |
 * "completions"), then messages ([{role: "system", content}?, {role: "user", content}]) for chat
 * or prompt for completions, stop (a list of strings), expected (null: none) and prompt_sha256
 * (the results' key of the prompt). Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

typedef struct {
    const char *item;
    long version, sample;
    const char *task;
    bool chat;               /* "api": "chat" (messages) or "completions" (prompt) */
    const char *system;      /* chat only; NULL: no system message */
    const char *prompt;      /* the user message (chat) or the plain prompt */
    const char *const *stop; /* NULL-terminated; NULL: none */
    const char *expected;    /* NULL: null */
    const char *prompt_sha256;
    void *storage_; /* the parsed text the strings point into (parse only) */
} GbEvalPromptLine;

/* The line (owned, with its newline). The strings are borrowed from the caller; bytes that are
 * not UTF-8 are written as \uFFFD. */
char *gb_eval_prompt_line_write(const GbEvalPromptLine *p);

/* Parse one line (where: "<file>:<line>", for messages). On success the strings of *out point into
 * storage that gb_eval_prompt_line_destroy frees. False with err naming where and the key that is
 * missing, mistyped or unknown (or a task_id that is not "<item>@v<version>"); *out is then empty. */
bool gb_eval_prompt_line_parse(const char *line, size_t len, const char *where, GbEvalPromptLine *out, GbError *err);
void gb_eval_prompt_line_destroy(GbEvalPromptLine *p);
