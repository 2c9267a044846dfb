#include "src/model/task.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void gb_task_init(GbTask *t)
{
    memset(t, 0, sizeof *t);
    t->kind = GB_TESTS_ASSERT;
    t->meta_json = gb_strdup("{}");
}

static void gb_task__free_strings(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
}

void gb_task_destroy(GbTask *t)
{
    if (!t) return;
    free(t->id);
    free(t->source);
    free(t->entry_point);
    free(t->test_code);
    gb_task__free_strings(t->test_classes.items, t->test_classes.len);
    gb_array_free(&t->test_classes);
    for (size_t i = 0; i < t->cases.len; i++) {
        free(t->cases.items[i].stdin_text);
        free(t->cases.items[i].stdout_text);
    }
    gb_array_free(&t->cases);
    for (size_t i = 0; i < t->extra_files.len; i++) {
        free(t->extra_files.items[i].path);
        free(t->extra_files.items[i].source);
    }
    gb_array_free(&t->extra_files);
    gb_task__free_strings(t->pinned.items, t->pinned.len);
    gb_array_free(&t->pinned);
    free(t->meta_json);
    for (size_t i = 0; i < t->fields.len; i++) {
        free(t->fields.items[i].key);
        free(t->fields.items[i].json);
    }
    gb_array_free(&t->fields);
    free(t->harness_prelude);
    memset(t, 0, sizeof *t);
}

void gb_task_copy(GbTask *dst, const GbTask *src)
{
    memset(dst, 0, sizeof *dst);
    dst->id = gb_strdup(src->id);
    dst->source = gb_strdup(src->source);
    dst->entry_point = gb_strdup(src->entry_point);
    dst->kind = src->kind;
    dst->test_code = gb_strdup(src->test_code);
    for (size_t i = 0; i < src->test_classes.len; i++)
        gb_array_push(&dst->test_classes, gb_strdup(src->test_classes.items[i]));
    for (size_t i = 0; i < src->cases.len; i++) {
        GbStdioCase c = {gb_strdup(src->cases.items[i].stdin_text), gb_strdup(src->cases.items[i].stdout_text)};
        gb_array_push(&dst->cases, c);
    }
    for (size_t i = 0; i < src->extra_files.len; i++) {
        GbFile f = {gb_strdup(src->extra_files.items[i].path), gb_strdup(src->extra_files.items[i].source)};
        gb_array_push(&dst->extra_files, f);
    }
    for (size_t i = 0; i < src->pinned.len; i++) gb_array_push(&dst->pinned, gb_strdup(src->pinned.items[i]));
    dst->meta_json = gb_strdup(src->meta_json ? src->meta_json : "{}");
    for (size_t i = 0; i < src->fields.len; i++) {
        GbField f = {gb_strdup(src->fields.items[i].key), gb_strdup(src->fields.items[i].json)};
        gb_array_push(&dst->fields, f);
    }
    dst->line = src->line;
    dst->harness = src->harness;
    dst->harness_prelude = src->harness_prelude ? gb_strdup(src->harness_prelude) : NULL;
    dst->tests_together = src->tests_together;
}

const char *gb_harness_rules_name(GbHarnessRules rules)
{
    switch (rules) {
    case GB_HARNESS_GUARD:
        return "guard";
    case GB_HARNESS_CLASSEVAL:
        return "classeval";
    case GB_HARNESS_NONE:
        break;
    }
    return "none";
}

void gb_task_set_field(GbTask *t, const char *key, const char *json)
{
    for (size_t i = 0; i < t->fields.len; i++) {
        if (strcmp(t->fields.items[i].key, key) == 0) {
            free(t->fields.items[i].json);
            t->fields.items[i].json = gb_strdup(json);
            return;
        }
    }
    GbField f = {gb_strdup(key), gb_strdup(json)};
    gb_array_push(&t->fields, f);
}

const char *gb_task_get_field(const GbTask *t, const char *key)
{
    for (size_t i = 0; i < t->fields.len; i++)
        if (strcmp(t->fields.items[i].key, key) == 0) return t->fields.items[i].json;
    return NULL;
}

void gb_task_set_file(GbTask *t, const char *path, const char *source)
{
    for (size_t i = 0; i < t->extra_files.len; i++) {
        if (strcmp(t->extra_files.items[i].path, path) == 0) {
            free(t->extra_files.items[i].source);
            t->extra_files.items[i].source = gb_strdup(source);
            return;
        }
    }
    GbFile f = {gb_strdup(path), gb_strdup(source)};
    gb_array_push(&t->extra_files, f);
    /* keep sorted by path: insertion step */
    for (size_t i = t->extra_files.len - 1; i > 0; i--) {
        if (strcmp(t->extra_files.items[i - 1].path, t->extra_files.items[i].path) <= 0) break;
        GbFile tmp = t->extra_files.items[i - 1];
        t->extra_files.items[i - 1] = t->extra_files.items[i];
        t->extra_files.items[i] = tmp;
    }
}

bool gb_task_is_pinned(const GbTask *t, const char *name)
{
    for (size_t i = 0; i < t->pinned.len; i++)
        if (strcmp(t->pinned.items[i], name) == 0) return true;
    if (t->entry_point && strcmp(t->entry_point, name) == 0) return true;
    return false;
}

const char *gb_test_kind_name(GbTestKind kind)
{
    switch (kind) {
    case GB_TESTS_ASSERT:
        return "assert";
    case GB_TESTS_UNITTEST:
        return "unittest";
    case GB_TESTS_STDIO:
        return "stdio";
    }
    return "?";
}

void gb_bench_init(GbBench *b)
{
    memset(b, 0, sizeof *b);
}

/* Open addressing over task positions: slots[k] = position + 1, 0 = empty; at most half full. */
struct GbIdIndex {
    size_t n;   /* tasks indexed: b->tasks.items[0 .. n-1] */
    size_t cap; /* a power of two */
    size_t *slots;
};

static uint64_t gb_bench__hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void gb_bench__index_put(GbIdIndex *ix, const GbBench *b, size_t pos)
{
    const char *id = b->tasks.items[pos].id;
    size_t k = (size_t)gb_bench__hash(id ? id : "") & (ix->cap - 1);
    while (ix->slots[k]) k = (k + 1) & (ix->cap - 1);
    ix->slots[k] = pos + 1;
}

/* (Re)build the index over every task, with room for more. */
static void gb_bench__index_rebuild(GbBench *b)
{
    GbIdIndex *ix = b->index ? b->index : gb_calloc(1, sizeof *ix);
    size_t cap = 64;
    while (cap < 2 * (b->tasks.len + 1)) cap *= 2;
    free(ix->slots);
    ix->slots = gb_calloc(cap, sizeof *ix->slots);
    ix->cap = cap;
    ix->n = b->tasks.len;
    for (size_t i = 0; i < b->tasks.len; i++) gb_bench__index_put(ix, b, i);
    b->index = ix;
}

void gb_bench_destroy(GbBench *b)
{
    if (!b) return;
    for (size_t i = 0; i < b->tasks.len; i++) gb_task_destroy(&b->tasks.items[i]);
    gb_array_free(&b->tasks);
    if (b->index) free(b->index->slots);
    free(b->index);
    b->index = NULL;
}

long gb_bench_find(const GbBench *b, const char *id)
{
    const GbIdIndex *ix = b->index;
    if (ix && ix->n == b->tasks.len) {
        for (size_t k = (size_t)gb_bench__hash(id) & (ix->cap - 1); ix->slots[k]; k = (k + 1) & (ix->cap - 1)) {
            const char *have = b->tasks.items[ix->slots[k] - 1].id;
            if (have && strcmp(have, id) == 0) return (long)(ix->slots[k] - 1);
        }
        return -1;
    }
    for (size_t i = 0; i < b->tasks.len; i++)
        if (b->tasks.items[i].id && strcmp(b->tasks.items[i].id, id) == 0) return (long)i;
    return -1;
}

void gb_bench_add_task(GbBench *b, GbTask *t)
{
    if (!b->index || b->index->n != b->tasks.len || 2 * (b->tasks.len + 1) > b->index->cap) gb_bench__index_rebuild(b);
    gb_array_push(&b->tasks, *t);
    memset(t, 0, sizeof *t);
    gb_bench__index_put(b->index, b, b->tasks.len - 1);
    b->index->n = b->tasks.len;
}
