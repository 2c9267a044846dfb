/* The summary of `genebench inject-bugs`: writer and parser (inject_bugs.h). */
#include "src/doc/inject_bugs.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

void gb_inject_bugs_doc_destroy(GbInjectBugsDoc *doc)
{
    if (!doc) return;
    free(doc->version);
    free(doc->original);
    free(doc->hardened);
    free(doc->python);
    gb_array_free(&doc->orders);
    memset(doc, 0, sizeof *doc);
}

/* The top-level counts, in their order (the writer and the parser walk the same table). */
#define GB_INJECT_BUGS_DOC__COUNTS(doc)                                                                                \
    {"tasks", &(doc)->tasks}, {"processed", &(doc)->processed}, {"skipped", &(doc)->skipped},                          \
        {"errors", &(doc)->errors}, {"unmatched", &(doc)->unmatched}, {"bad_lines", &(doc)->bad_lines},                \
    {                                                                                                                  \
        "mutants", &(doc)->mutants                                                                                     \
    }
#define GB_INJECT_BUGS_DOC__SITES(doc)                                                                                 \
    {"found", &(doc)->sites_found}, {"shared", &(doc)->sites_shared}, {"unmapped", &(doc)->sites_unmapped},            \
        {"moved", &(doc)->sites_moved},                                                                                \
    {                                                                                                                  \
        "no_common_variant", &(doc)->sites_no_common_variant                                                           \
    }

typedef struct {
    const char *key;
    const size_t *v;
} GbInjectBugsDocCount;

typedef struct {
    const char *key;
    size_t *v;
} GbInjectBugsDocSlot;

static void gb_inject_bugs_doc__order(GbStr *out, const GbInjectBugsOrder *t)
{
    bool f = true;
    gb_str_append(out, "{");
    gb_doc_put_number(out, "tasks_with_mutant", (double)t->tasks_with_mutant, &f);
    gb_doc_put_number(out, "share", t->share, &f);
    for (int x = 0; x < GB_MUTANT_OUTCOME_COUNT; x++)
        gb_doc_put_number(out, gb_mutant_outcome_name((GbMutantOutcome)x), (double)t->outcome[x], &f);
    gb_doc_put_number(out, "unusable", (double)t->unusable, &f);
    if (t->has_duplicate) gb_doc_put_number(out, "duplicate", (double)t->duplicate, &f);
    gb_doc_put_number(out, "tasks_exhausted", (double)t->tasks_exhausted, &f);
    gb_str_append(out, "}");
}

void gb_inject_bugs_doc_write(GbStr *out, const GbInjectBugsDoc *doc)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_doc_put_string(out, "tool", GB_INJECT_BUGS_DOC_TOOL, &first);
    gb_doc_put_string(out, "version", doc->version, &first);
    gb_doc_put_string(out, "original", doc->original, &first);
    gb_doc_put_string(out, "hardened", doc->hardened, &first);
    gb_json_key(out, "seed", &first);
    gb_str_appendf(out, "%llu", doc->seed);
    gb_json_key(out, "orders", &first);
    gb_str_append(out, "[");
    gb_json_integer(out, doc->order_min);
    gb_str_append(out, ", ");
    gb_json_integer(out, doc->order_max);
    gb_str_append(out, "]");
    gb_doc_put_number(out, "max_per_task", (double)doc->max_per_task, &first);
    gb_doc_put_number(out, "max_attempts", (double)doc->max_attempts, &first);
    gb_doc_put_number(out, "timeout_s", doc->timeout_s, &first);
    gb_doc_put_string(out, "python", doc->python, &first);
    const GbInjectBugsDocCount counts[] = {GB_INJECT_BUGS_DOC__COUNTS(doc)}, sites[] = {GB_INJECT_BUGS_DOC__SITES(doc)};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        gb_doc_put_number(out, counts[i].key, (double)*counts[i].v, &first);
    gb_json_key(out, "sites", &first);
    bool f = true;
    gb_str_append(out, "{");
    for (size_t i = 0; i < sizeof sites / sizeof *sites; i++)
        gb_doc_put_number(out, sites[i].key, (double)*sites[i].v, &f);
    gb_str_append(out, "}");
    gb_json_key(out, "by_order", &first);
    gb_str_append(out, "{");
    f = true;
    for (size_t i = 0; i < doc->orders.len; i++) {
        char key[24];
        snprintf(key, sizeof key, "%d", doc->order_min + (int)i);
        gb_json_key(out, key, &f);
        gb_inject_bugs_doc__order(out, &doc->orders.items[i]);
    }
    gb_str_append(out, "}");
    gb_doc_put_number(out, "time_s", doc->time_s, &first);
    gb_str_append(out, "}\n");
}

static void gb_inject_bugs_doc__parse_order(GbDocReader *c, const json_t *o, const char *where, GbInjectBugsOrder *t)
{
    const char *keys[GB_MUTANT_OUTCOME_COUNT + 6] = {"tasks_with_mutant", "share"};
    for (int x = 0; x < GB_MUTANT_OUTCOME_COUNT; x++) keys[2 + x] = gb_mutant_outcome_name((GbMutantOutcome)x);
    keys[GB_MUTANT_OUTCOME_COUNT + 2] = "unusable";
    keys[GB_MUTANT_OUTCOME_COUNT + 3] = "tasks_exhausted";
    keys[GB_MUTANT_OUTCOME_COUNT + 4] = "duplicate";
    keys[GB_MUTANT_OUTCOME_COUNT + 5] = NULL;
    gb_doc_keys(c, o, where, keys);
    gb_doc_size(c, o, where, "tasks_with_mutant", &t->tasks_with_mutant);
    gb_doc_real(c, o, where, "share", &t->share);
    for (int x = 0; x < GB_MUTANT_OUTCOME_COUNT; x++) gb_doc_size(c, o, where, keys[2 + x], &t->outcome[x]);
    gb_doc_size(c, o, where, "unusable", &t->unusable);
    t->has_duplicate = json_object_get(o, "duplicate") != NULL;
    if (t->has_duplicate) gb_doc_size(c, o, where, "duplicate", &t->duplicate);
    gb_doc_size(c, o, where, "tasks_exhausted", &t->tasks_exhausted);
}

/* "orders": [min, max] with 1 <= min <= max. */
static void gb_inject_bugs_doc__parse_orders(GbDocReader *c, const json_t *o, GbInjectBugsDoc *doc)
{
    const json_t *a = gb_doc_get(c, o, "", "orders", JSON_ARRAY, "a list");
    if (!a) return;
    const json_t *lo = json_array_get(a, 0), *hi = json_array_get(a, 1);
    if (json_array_size(a) != 2 || !json_is_integer(lo) || !json_is_integer(hi) || json_integer_value(lo) < 1 ||
        json_integer_value(hi) < json_integer_value(lo) || json_integer_value(hi) > 1000) {
        gb_doc_fail(c, "\"orders\": expected [min, max] with 1 <= min <= max");
        return;
    }
    doc->order_min = (int)json_integer_value(lo);
    doc->order_max = (int)json_integer_value(hi);
}

static void gb_inject_bugs_doc__parse(GbDocReader *c, const json_t *o, void *arg)
{
    GbInjectBugsDoc *doc = arg;
    static const char *const keys[] = {"tool",         "version",      "original",  "hardened",  "seed",    "orders",
                                       "max_per_task", "max_attempts", "timeout_s", "python",    "tasks",   "processed",
                                       "skipped",      "errors",       "unmatched", "bad_lines", "mutants", "sites",
                                       "by_order",     "time_s",       NULL};
    static const char *const site_keys[] = {"found", "shared", "unmapped", "moved", "no_common_variant", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_doc_constant(c, o, "", "tool", GB_INJECT_BUGS_DOC_TOOL);
    gb_doc_string(c, o, "", "version", false, &doc->version);
    gb_doc_string(c, o, "", "original", false, &doc->original);
    gb_doc_string(c, o, "", "hardened", false, &doc->hardened);
    long seed = 0;
    gb_doc_long(c, o, "", "seed", &seed);
    doc->seed = (unsigned long long)seed;
    gb_inject_bugs_doc__parse_orders(c, o, doc);
    gb_doc_size(c, o, "", "max_per_task", &doc->max_per_task);
    gb_doc_size(c, o, "", "max_attempts", &doc->max_attempts);
    gb_doc_real(c, o, "", "timeout_s", &doc->timeout_s);
    gb_doc_string(c, o, "", "python", false, &doc->python);
    const GbInjectBugsDocSlot counts[] = {GB_INJECT_BUGS_DOC__COUNTS(doc)}, sites[] = {GB_INJECT_BUGS_DOC__SITES(doc)};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) gb_doc_size(c, o, "", counts[i].key, counts[i].v);
    const json_t *s = gb_doc_get(c, o, "", "sites", JSON_OBJECT, "an object");
    gb_doc_keys(c, s, "sites.", site_keys);
    for (size_t i = 0; i < sizeof sites / sizeof *sites; i++) gb_doc_size(c, s, "sites.", sites[i].key, sites[i].v);
    const json_t *by = gb_doc_get(c, o, "", "by_order", JSON_OBJECT, "an object");
    if (c->ok && json_object_size(by) != (size_t)(doc->order_max - doc->order_min + 1))
        gb_doc_fail(c, "\"by_order\": expected the orders %d to %d", doc->order_min, doc->order_max);
    for (int k = doc->order_min; c->ok && k <= doc->order_max; k++) {
        char key[24];
        snprintf(key, sizeof key, "%d", k);
        char *w = gb_asprintf("by_order.%d.", k);
        const json_t *e = gb_doc_get(c, by, "by_order.", key, JSON_OBJECT, "an object");
        GbInjectBugsOrder t = {0};
        gb_inject_bugs_doc__parse_order(c, e, w, &t);
        gb_array_push(&doc->orders, t);
        free(w);
    }
    gb_doc_real(c, o, "", "time_s", &doc->time_s);
}

bool gb_inject_bugs_doc_parse(const char *text, size_t len, const char *name, GbInjectBugsDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = gb_doc_parse_object(text, len, name, err, gb_inject_bugs_doc__parse, doc);
    if (!ok) gb_inject_bugs_doc_destroy(doc);
    return ok;
}
