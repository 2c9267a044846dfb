/* Prompts written and answers read for scoring apart from generation (offline.h). */
#include "src/eval/offline.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/gzip.h"

static char *gb_offline__key(const char *item, long version, long sample)
{
    return gb_asprintf("%s\x1f%ld\x1f%ld", item, version, sample);
}

static int gb_offline__cmp(const void *a, const void *b)
{
    return strcmp(((const GbEvalAnswer1 *)a)->key, ((const GbEvalAnswer1 *)b)->key);
}

/* "ITEM@vV" into the item (owned) and the version; false when it is not of that form. */
static bool gb_offline__task_id(const char *id, char **item, long *version)
{
    const char *at = strrchr(id, '@');
    if (!at || at[1] != 'v' || !at[2]) return false;
    char *end;
    long v = strtol(at + 2, &end, 10);
    if (*end || v < 0) return false;
    *item = gb_strndup(id, (size_t)(at - id));
    *version = v;
    return true;
}

static long gb_offline__long(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

typedef GbArray(GbEvalAnswer1) GbOfflineList;

/* One line into list (counts: occurrences of each human-eval task_id so far, as answers with
 * sample -1 keyed by task_id). False with why. */
static bool gb_offline__line(json_t *o, GbOfflineList *list, GbOfflineList *counts, char *why, size_t size)
{
    json_t *item = json_object_get(o, "item"), *tid = json_object_get(o, "task_id");
    json_t *text = json_object_get(o, json_is_string(item) ? "answer" : "completion");
    char *it = NULL;
    long version, sample;
    if (json_is_string(item) && json_is_string(text) && json_is_integer(json_object_get(o, "version")) &&
        json_is_integer(json_object_get(o, "sample"))) {
        it = gb_strdup(json_string_value(item));
        version = gb_offline__long(o, "version");
        sample = gb_offline__long(o, "sample");
    } else if (json_is_string(tid) && json_is_string(text) &&
               gb_offline__task_id(json_string_value(tid), &it, &version)) {
        sample = 0;
        for (size_t i = 0; i < counts->len; i++)
            if (strcmp(counts->items[i].key, json_string_value(tid)) == 0) sample = ++counts->items[i].prompt_tokens;
        if (!sample) {
            GbEvalAnswer1 c = {.key = gb_strdup(json_string_value(tid))};
            gb_array_push(counts, c);
        }
    } else {
        snprintf(why, size,
                 "expected {\"item\", \"version\", \"sample\", \"answer\"} or {\"task_id\": \"ITEM@vVERSION\", "
                 "\"completion\"}");
        return false;
    }
    json_t *fr = json_object_get(o, "finish_reason");
    GbEvalAnswer1 a = {.key = gb_offline__key(it, version, sample),
                       .text = gb_strdup(json_string_value(text)),
                       .finish_reason = json_is_string(fr) ? gb_strdup(json_string_value(fr)) : NULL,
                       .prompt_tokens = gb_offline__long(o, "prompt_tokens"),
                       .completion_tokens = gb_offline__long(o, "completion_tokens")};
    free(it);
    gb_array_push(list, a);
    return true;
}

GbEvalAnswers *gb_eval_answers_read(const char *path, GbError *err)
{
    size_t len;
    char *data = gb_read_data_file(path, &len, err);
    if (!data) return NULL;
    GbOfflineList list = {0}, counts = {0};
    bool ok = true;
    size_t lineno = 0;
    for (char *p = data; ok && p < data + len;) {
        char *nl = memchr(p, '\n', (size_t)(data + len - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(data + len - p);
        lineno++;
        json_error_t je;
        json_t *o = n && strspn(p, " \t\r") < n ? json_loadb(p, n, 0, &je) : NULL;
        char why[200] = "";
        if (n && strspn(p, " \t\r") < n) {
            if (!json_is_object(o))
                snprintf(why, sizeof why, "not a JSON object%s%s", o ? "" : ": ", o ? "" : je.text);
            else
                gb_offline__line(o, &list, &counts, why, sizeof why);
            if (why[0]) {
                gb_error_set(err, "%s:%zu: %s", path, lineno, why);
                ok = false;
            }
        }
        json_decref(o);
        p += n + 1;
    }
    free(data);
    for (size_t i = 0; i < counts.len; i++) free(counts.items[i].key);
    gb_array_free(&counts);
    GbEvalAnswers *a = gb_calloc(1, sizeof *a);
    a->items = list.items;
    a->len = list.len;
    if (a->len) qsort(a->items, a->len, sizeof *a->items, gb_offline__cmp);
    for (size_t i = 1; ok && i < a->len; i++)
        if (strcmp(a->items[i].key, a->items[i - 1].key) == 0) {
            char *k = gb_strdup(a->items[i].key);
            for (char *c = k; *c; c++)
                if (*c == '\x1f') *c = ' ';
            gb_error_set(err, "%s: the sample (item, version, sample) %s is given twice", path, k);
            free(k);
            ok = false;
        }
    if (!ok) {
        gb_eval_answers_delete(a);
        return NULL;
    }
    return a;
}

void gb_eval_answers_delete(GbEvalAnswers *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->len; i++) {
        free(a->items[i].key);
        free(a->items[i].text);
        free(a->items[i].finish_reason);
    }
    free(a->items);
    free(a);
}

const GbEvalAnswer1 *gb_eval_answers_find(const GbEvalAnswers *a, const char *item, long version, long sample)
{
    GbEvalAnswer1 probe = {.key = gb_offline__key(item, version, sample)};
    const GbEvalAnswer1 *hit = a->len ? bsearch(&probe, a->items, a->len, sizeof *a->items, gb_offline__cmp) : NULL;
    free(probe.key);
    return hit;
}
