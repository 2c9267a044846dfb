#pragma once
/* Generation apart from scoring (genebench eval --write-prompts / --answers).
 *
 * Prompts file (written and parsed by src/doc/eval_prompts.h): one compact JSON line per sample,
 * in the run's order (version, item, sample):
 *   {"task_id": "ITEM@vVERSION", "item", "version", "sample", "task", "api",
 *    "messages": [{"role","content"}...]  (api "chat")  |  "prompt": TEXT  (api "completions"),
 *    "stop": [...], "expected": TEXT | null, "prompt_sha256"}
 * expected is what the original says the answer is (output: the value; input: the original's
 * arguments; repair and translate: null, the tests decide).
 *
 * Answers file: one JSON line per sample, either
 *   {"item", "version", "sample", "answer", "finish_reason"?, "prompt_tokens"?, "completion_tokens"?}
 * or human-eval's {"task_id": "ITEM@vVERSION", "completion"} (also with the optional keys), where
 * the n-th line of a task_id is sample n. A sample with no line is not scored (verdict error).
 *
 * Thread-safety: a read answers table is immutable; lookups may run on many threads. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/base/util.h"

typedef struct {
    char *key;                             /* owned: item, version and sample */
    char *text, *finish_reason;            /* owned; finish_reason NULL when not given */
    long prompt_tokens, completion_tokens; /* -1: not given */
} GbEvalAnswer1;

typedef struct GbEvalAnswers {
    GbEvalAnswer1 *items; /* owned, sorted by key */
    size_t len;
} GbEvalAnswers;

/* Read an answers file (plain or .gz). NULL with err naming the file and line on a malformed
 * line, a line with neither form, or a sample given twice. Owned: gb_eval_answers_delete. */
GbEvalAnswers *gb_eval_answers_read(const char *path, GbError *err);
void gb_eval_answers_delete(GbEvalAnswers *a);
/* The answer of a sample (borrowed), NULL when the file has none. */
const GbEvalAnswer1 *gb_eval_answers_find(const GbEvalAnswers *a, const char *item, long version, long sample);
