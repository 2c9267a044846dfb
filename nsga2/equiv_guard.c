/* The time guard of the larger inputs (nsga2/equiv.h, "Time guard"). */
#include <stdlib.h>
#include <string.h>

#include "nsga2/equiv_private.h"

/* The CPU seconds the original may take on one larger input: large_s, and under a task budget B
 * at most B / GB_EQUIV_LARGE_SHARE (every child is probed on the larger inputs). */
static double gb_equiv__large_s(const GbEquivConfig *cfg)
{
    double s = cfg->task_budget_s > 0 ? cfg->task_budget_s / GB_EQUIV_LARGE_SHARE : cfg->large_s;
    return s < cfg->large_s ? s : cfg->large_s;
}

/* Whether the original ran a larger input fast enough for it to bound the cost: finished within
 * gb_equiv__large_s CPU seconds, without running out of time, stack or memory. */
static bool gb_equiv__fast(const GbProbeItem *it, const GbEquivConfig *cfg)
{
    /* CPU time, not wall time: the sizes should not depend on how loaded the machine is */
    if (it->status != GB_PROBE_OK || it->cpu_s > gb_equiv__large_s(cfg)) return false;
    static const char *const refused[] = {"raise=RecursionError", "raise=MemoryError", "raise=ProbeTimeout"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        if (strstr(it->value, refused[i])) return false;
    return true;
}

/* Drop the larger inputs marked with level UINT32_MAX from in. */
static void gb_equiv__drop_grown(GbEquivInputs *in)
{
    size_t w = 0, g = 0, gw = 0;
    for (size_t i = 0; i < in->inputs.len; i++) {
        while (g < in->grown.len && in->grown.items[g].input < i) g++;
        bool grown = g < in->grown.len && in->grown.items[g].input == i;
        if (grown && in->grown.items[g].level == UINT32_MAX) {
            free(in->inputs.items[i]);
            continue;
        }
        if (grown) {
            in->grown.items[g].input = w;
            in->grown.items[gw++] = in->grown.items[g];
        }
        in->inputs.items[w] = in->inputs.items[i];
        in->large.items[w++] = in->large.items[i];
    }
    in->inputs.len = in->large.len = w;
    in->grown.len = gw;
}

bool gb_equiv_guard(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg, TSParser *parser,
                    uint64_t key, double share, GbEquivInputs *in, GbError *err)
{
    GbArray(size_t) todo = {0};
    for (size_t g = 0; g < in->grown.len; g++) gb_array_push(&todo, g);
    /* per larger input: the levels of its last step down, and the fast text while twice its size is tried */
    uint32_t *jump = gb_calloc(in->grown.len + 1, sizeof *jump);
    char **fast = gb_calloc(in->grown.len + 1, sizeof *fast);
    double limit = 5 * gb_equiv__large_s(cfg) < 0.5 ? 0.5 : 5 * gb_equiv__large_s(cfg), t0 = gb_now();
    if (limit > cfg->limit_s) limit = cfg->limit_s;
    bool ok = true;
    while (ok && todo.len > 0) {
        if (share > 0 && gb_now() - t0 > share) {
            for (size_t i = 0; i < todo.len; i++) {
                GbEquivGrown *g = &in->grown.items[todo.items[i]];
                if (!fast[todo.items[i]]) {
                    g->level = UINT32_MAX;
                    continue;
                }
                free(in->inputs.items[g->input]);
                in->inputs.items[g->input] = fast[todo.items[i]];
                fast[todo.items[i]] = NULL;
            }
            break;
        }
        GbArray(const char *) texts = {0};
        for (size_t i = 0; i < todo.len; i++)
            gb_array_push(&texts, in->inputs.items[in->grown.items[todo.items[i]].input]);
        GbProbeSpec spec = {in->mode, in->entry, texts.items, texts.len, limit, limit * (double)texts.len + 1, false, NULL, 0};
        GbProbeResult r;
        ok = gb_pool_probe(pool, task, prog, &spec, &r, err);
        size_t left = 0;
        /* a failed probe of the original leaves the inputs as they are: the record reports it */
        for (size_t i = 0; ok && r.run.status == GB_RUN_PASS && i < todo.len; i++) {
            size_t x = todo.items[i];
            GbEquivGrown *g = &in->grown.items[x];
            const GbProbeItem *it = &r.items.items[i];
            char **text = &in->inputs.items[g->input];
            if (gb_equiv__fast(it, cfg)) {
                free(fast[x]); /* twice the size was fast too */
                fast[x] = NULL;
                if (jump[x] < 2) continue;
                char *t = gb_equiv_grow(cfg, parser, in, key, g->base, g->j, (size_t)cfg->size >> (g->level - 1));
                if (!t) continue;
                fast[x] = *text;
                *text = t;
                g->level--;
                jump[x] = 0;
                todo.items[left++] = x;
                continue;
            }
            if (fast[x]) { /* twice the size was too slow: back to the size that was fast */
                free(*text);
                *text = fast[x];
                fast[x] = NULL;
                g->level++;
                continue;
            }
            /* a cubic original needs an eighth of the size to take a twentieth of the time */
            jump[x] = it->status != GB_PROBE_OK ? 3 : it->cpu_s > 4 * gb_equiv__large_s(cfg) ? 2 : 1;
            g->level += jump[x];
            size_t size = g->level < 32 ? (size_t)cfg->size >> g->level : 0;
            char *t = size >= 8 ? gb_equiv_grow(cfg, parser, in, key, g->base, g->j, size) : NULL;
            if (!t) {
                g->level = UINT32_MAX;
                continue;
            }
            free(*text);
            *text = t;
            todo.items[left++] = x;
        }
        todo.len = left;
        gb_probe_result_destroy(&r);
        gb_array_free(&texts);
    }
    for (size_t x = 0; x < in->grown.len; x++) free(fast[x]);
    free(fast);
    free(jump);
    gb_array_free(&todo);
    gb_equiv__drop_grown(in);
    return ok;
}

