/* The items of an evaluation run and the task each version shows for them (eval_private.h). */
#include "src/eval/eval_private.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/sha256.h"
#include "src/doc/eval_results.h"
#include "src/doc/eval_summary.h"
#include "src/eval/stats.h"

/* ---- the items and the versions' tasks ------------------------------------------------- */

/* What makes two items the same question with the same right answer. A prediction item: the
 * original's prompt (its program and the call or the expected value shown; input prediction
 * scores only `EXPECTED == f(ANSWER)`, so two asserts of one task with the same expected value
 * ask the same) and the expected value. A whole-task item (its prompt may run the program):
 * the program, all modules, and its tests. Owned. */
static char *gb_eval__item_key(const GbEvalRun *r, TSParser *parser, size_t item)
{
    const GbEvalItem *it = &r->items[item];
    const GbTask *t = &r->versions[0].bench->tasks.items[it->task];
    GbStr k;
    gb_str_init(&k);
    for (size_t i = 0; i < t->extra_files.len; i++)
        gb_str_appendf(&k, "%s%c%s%c", t->extra_files.items[i].path, 1, t->extra_files.items[i].source, 1);
    if (r->input->per_assert) {
        GbEvalSample smp = gb_eval_sample(r, parser, t, item);
        GbError e = {0};
        char *prompt = r->type->prompt(&smp, &e);
        gb_str_appendf(&k, "%s%c%s", prompt ? prompt : t->source, 2, it->pair.expected);
        free(prompt);
    } else {
        gb_str_appendf(&k, "%s%c%d%c%s", t->source, 3, (int)t->kind, 3, t->test_code ? t->test_code : "");
        for (size_t i = 0; i < t->cases.len; i++)
            gb_str_appendf(&k, "%c%s%c%s", 3, t->cases.items[i].stdin_text ? t->cases.items[i].stdin_text : "", 3,
                           t->cases.items[i].stdout_text ? t->cases.items[i].stdout_text : "");
    }
    return gb_str_take(&k);
}

/* Drop the items that repeat an earlier one (gb_eval__item_key): a repeat would count one
 * question twice, inflating n and narrowing every interval. The first keeps its id. */
static void gb_eval__dedup(GbEvalRun *r, TSParser *parser)
{
    char **keys = gb_calloc(r->nitems ? r->nitems : 1, sizeof *keys);
    size_t kept = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        char *key = gb_eval__item_key(r, parser, i);
        bool dup = false;
        for (size_t j = 0; j < kept && !dup; j++) dup = strcmp(keys[j], key) == 0;
        if (dup) {
            free(key);
            free(r->items[i].id);
            continue;
        }
        keys[kept] = key;
        r->items[kept++] = r->items[i];
    }
    for (size_t j = 0; j < kept; j++) free(keys[j]);
    free(keys);
    r->nitems = kept;
}

/* The items of the original (see GbEvalInputInfo), without repeats; r->without counts its tasks
 * that have none. */
void gb_eval_items(GbEvalRun *r, TSParser *parser)
{
    const GbBench *ob = r->versions[0].bench;
    GbArray(GbEvalItem) items = {0};
    r->pairs = gb_calloc(ob->tasks.len ? ob->tasks.len : 1, sizeof *r->pairs);
    for (size_t t = 0; t < ob->tasks.len; t++) {
        const GbTask *ot = &ob->tasks.items[t];
        if (!r->input->per_assert) {
            if (!r->input->usable(ot)) {
                r->without++;
                continue;
            }
            GbEvalItem it = {.task = t, .id = gb_strdup(ot->id)};
            gb_array_push(&items, it);
            continue;
        }
        GbEvalPairs *pairs = &r->pairs[t];
        gb_eval_pairs(parser, ot, pairs);
        if (!pairs->len) r->without++;
        for (size_t k = 0; k < pairs->len; k++) {
            GbEvalItem it = {.task = t, .pair = pairs->items[k]};
            it.id = pairs->len == 1 ? gb_strdup(ot->id) : gb_asprintf("%s#%zu", ot->id, k);
            gb_array_push(&items, it);
        }
    }
    r->items = items.items;
    r->nitems = items.len;
    r->before_dedup = items.len;
    gb_eval__dedup(r, parser);
}

static bool gb_eval__same_program(const GbTask *a, const GbTask *b)
{
    if (strcmp(a->source, b->source) != 0 || a->extra_files.len != b->extra_files.len) return false;
    for (size_t i = 0; i < a->extra_files.len; i++)
        if (strcmp(a->extra_files.items[i].path, b->extra_files.items[i].path) != 0 ||
            strcmp(a->extra_files.items[i].source, b->extra_files.items[i].source) != 0)
            return false;
    return true;
}

/* BUGS, version v >= 1: the task of versions[v]'s file whose buggy ORIGINAL program is the
 * item's (the same bug in the original), shown and run with its buggy hardened program
 * ("hardened_buggy"). NULL (no error) when that file has no such bug. */
static GbTask *gb_eval__bug_view(const GbEvalVersion *ver, const GbTask *ot, GbError *err)
{
    const GbBench *b = ver->bench;
    const GbTask *bt = NULL;
    long ti = gb_bench_find(b, ot->id);
    if (ti >= 0 && gb_eval__same_program(&b->tasks.items[ti], ot)) bt = &b->tasks.items[ti];
    for (size_t k = 0; !bt && k < b->tasks.len; k++)
        if (gb_eval__same_program(&b->tasks.items[k], ot)) bt = &b->tasks.items[k];
    if (!bt) return NULL;
    const char *field = gb_task_get_field(bt, "hardened_buggy");
    json_t *doc = field ? json_loads(field, 0, NULL) : NULL;
    json_t *src = json_object_get(doc, "source"), *extra = json_object_get(doc, "extra_files");
    if (!json_is_string(src) || (extra && !json_is_object(extra))) {
        gb_error_set(err, "%s:%zu: task %s: \"hardened_buggy\" needs a \"source\" string and an \"extra_files\" object",
                     ver->path, bt->line, bt->id);
        json_decref(doc);
        return NULL;
    }
    GbTask *t = gb_malloc(sizeof *t);
    gb_task_copy(t, bt);
    free(t->source);
    t->source = gb_strdup(json_string_value(src));
    for (size_t i = 0; i < t->extra_files.len; i++) {
        free(t->extra_files.items[i].path);
        free(t->extra_files.items[i].source);
    }
    t->extra_files.len = 0;
    const char *path;
    json_t *val;
    json_object_foreach(extra, path, val)
    {
        if (json_is_string(val)) gb_task_set_file(t, path, json_string_value(val));
    }
    json_decref(doc);
    return t;
}

/* views[v][i]: the version's own task of each item (see GbEvalRun.views). */
bool gb_eval_views(GbEvalRun *r, GbError *err)
{
    const GbBench *ob = r->versions[0].bench;
    r->views = gb_calloc(r->nv * r->nitems + 1, sizeof *r->views);
    bool bugs = r->type->input == GB_EVAL_IN_BUGS;
    for (size_t v = 0; v < r->nv; v++) {
        size_t found = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            const GbTask *ot = &ob->tasks.items[r->items[i].task];
            const GbTask **slot = &r->views[v * r->nitems + i];
            if (bugs && v > 0) {
                GbError e = {0};
                GbTask *t = gb_eval__bug_view(&r->versions[v], ot, &e);
                if (e.msg[0]) {
                    *err = e;
                    return false;
                }
                if (t) gb_array_push(&r->owned_views, t);
                *slot = t;
            } else if (bugs) {
                *slot = ot; /* the buggy original */
            } else {
                long ti = gb_bench_find(r->versions[v].bench, ot->id);
                *slot = ti >= 0 ? &r->versions[v].bench->tasks.items[ti] : NULL;
            }
            found += *slot != NULL;
        }
        /* a version of other tasks (the wrong file) would be scored as empty, not as hard */
        if (!bugs && v > 0 && r->nitems && !found) {
            gb_error_set(err, "%s: no task of it has an id of a task of %s (is it a version of another benchmark?)",
                         r->versions[v].path, r->versions[0].path);
            return false;
        }
    }
    return true;
}

GbEvalVersion *gb_eval_versions_new(GbEvalTask task, char *const *paths, const GbBench *benches, size_t nfiles,
                                    size_t *nv)
{
    /* BUGS: version 0 is the buggy original of the first file, version v the buggy hardened
     * programs of file v */
    size_t shift = gb_eval_task_type(task)->input == GB_EVAL_IN_BUGS ? 1 : 0;
    *nv = nfiles + shift;
    GbEvalVersion *versions = gb_calloc(*nv ? *nv : 1, sizeof *versions);
    for (size_t v = 0; v < *nv; v++) {
        size_t f = v >= shift ? v - shift : 0;
        versions[v] = (GbEvalVersion){paths[f], &benches[f]};
    }
    return versions;
}

/* Whether ref's tests must run in its process: it fails judged apart and passes together. */
static bool gb_eval__needs_together(GbPool *pool, GbTask *ref)
{
    GbRunResult apart, together;
    GbError e = {{0}};
    bool ok = gb_pool_run(pool, ref, NULL, &apart, &e);
    bool fails_apart = ok && apart.status != GB_RUN_PASS && apart.status != GB_RUN_ERROR;
    gb_run_result_destroy(&apart);
    if (!fails_apart) return false;
    ref->tests_together = true;
    ok = gb_pool_run(pool, ref, NULL, &together, &e) && together.status == GB_RUN_PASS;
    gb_run_result_destroy(&together);
    return ok;
}

/* The owned view at slot (v > 0), or a flagged owned copy of the original's task put there (v 0). */
static void gb_eval__flag_view(GbEvalRun *r, const GbTask **slot)
{
    for (size_t k = 0; k < r->owned_views.len; k++)
        if (r->owned_views.items[k] == *slot) {
            r->owned_views.items[k]->tests_together = true;
            return;
        }
    GbTask *copy = gb_malloc(sizeof *copy);
    gb_task_copy(copy, *slot);
    copy->tests_together = true;
    gb_array_push(&r->owned_views, copy);
    *slot = copy;
}

void gb_eval_split_fit(GbEvalRun *r)
{
    size_t n = r->nitems, together = 0;
    GbPool *pool = r->pool;
    const GbTask **first = r->views; /* version 0: the buggy originals, whose mutations give the reference */
    unsigned char *need = gb_calloc(n ? n : 1, 1); /* 0 no reference, 1 splits, 2 needs together */
    int threads = r->cfg->concurrency > 0 ? (int)r->cfg->concurrency : 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic) default(none) shared(n, pool, first, need)
    for (size_t i = 0; i < n; i++) {
        if (!first[i] || !gb_pool_judges_apart(pool, first[i])) continue;
        char why[512];
        GbTask *ref = gb_eval_plus_reference(first[i], why, sizeof why);
        if (!ref) continue;
        need[i] = gb_eval__needs_together(pool, ref) ? 2 : 1;
        gb_task_destroy(ref);
        free(ref);
    }
    /* an item without a reference (its mutations could not be reverted) goes with the items of
     * the same tests: they are bugs of the same original */
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; !need[i] && first[i] && first[i]->test_code && k < n; k++)
            if (need[k] == 2 && first[k]->test_code && strcmp(first[k]->test_code, first[i]->test_code) == 0)
                need[i] = 2;
    /* the tests are the original's in every version: an item's tests split or not in all */
    for (size_t i = 0; i < n; i++) {
        if (need[i] != 2) continue;
        together++;
        for (size_t v = 0; v < r->nv; v++)
            if (r->views[v * n + i]) gb_eval__flag_view(r, &r->views[v * n + i]);
    }
    free(need);
    r->together = together;
    if (together && r->cfg->warn)
        fprintf(r->cfg->warn,
                "genebench eval: %zu of %zu repair items have tests that do not split (their reference passes only "
                "with the tests in its own process): their answers are judged that way, under the seal "
                "(src/runner/README.md)\n",
                together, n);
}
