/* The screen of the kept inputs under a time budget (nsga2/equiv.h, "Screen"). */
#include <stdlib.h>
#include <string.h>

#include "nsga2/equiv_private.h"

static bool gb_screen__has(const GbEquivStrs *u, const char *p, size_t n)
{
    for (size_t i = 0; i < u->len; i++)
        if (strlen(u->items[i]) == n && memcmp(u->items[i], p, n) == 0) return true;
    return false;
}

size_t gb_equiv_new_ids(GbEquivStrs *u, const char *reach, bool commit)
{
    size_t fresh = 0;
    for (const char *p = reach; p && *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (!gb_screen__has(u, p, n)) {
            fresh++;
            if (commit) gb_array_push(u, gb_strndup(p, n));
        }
        p += n;
    }
    return fresh;
}

static void gb_screen__take(GbEquiv *e, size_t i, GbEquivStrs *u, double *spent)
{
    e->screen.items[i] = true;
    e->nscreen++;
    *spent += e->wall.items[i];
    gb_equiv_new_ids(u, e->reach.items[e->kept_at.items[i]], true);
}

static int gb_screen__by_wall(const void *a, const void *b, void *arg)
{
    const GbEquiv *e = arg;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double wx = e->wall.items[x], wy = e->wall.items[y];
    if (wx != wy) return wx < wy ? -1 : 1;
    return x < y ? -1 : x > y;
}

void gb_equiv_screen_choose(GbEquiv *e, double budget_s)
{
    size_t n = e->kept.len;
    gb_array_free(&e->screen);
    e->nscreen = 0;
    double total = 0;
    for (size_t i = 0; i < n; i++) total += e->wall.items[i];
    if (budget_s <= 0 || total <= budget_s) return;
    for (size_t i = 0; i < n; i++) gb_array_push(&e->screen, false);
    GbEquivStrs u = {0};
    double spent = 0;
    /* the larger inputs: the cost bound is taken on them; a stdio task's own cases: its tests gate
     * runs them anyway, and judges them from this probe when it holds them all (gb_equiv_check_cases) */
    for (size_t i = 0; i < n; i++)
        if (e->kept_large.items[i] || (e->in.mode == GB_PROBE_STDIO && e->kept_at.items[i] < e->in.from_tests))
            gb_screen__take(e, i, &u, &spent);
    /* every outcome the kept inputs reach, most new outcomes per second first */
    for (;;) {
        size_t best = n;
        double best_rate = 0;
        for (size_t i = 0; i < n; i++) {
            if (e->screen.items[i]) continue;
            size_t fresh = gb_equiv_new_ids(&u, e->reach.items[e->kept_at.items[i]], false);
            double rate = (double)fresh / (e->wall.items[i] + 1e-3);
            if (fresh > 0 && rate > best_rate) {
                best = i;
                best_rate = rate;
            }
        }
        if (best == n) break;
        gb_screen__take(e, best, &u, &spent);
    }
    /* then the cheapest of the rest, within the budget, and up to GB_EQUIV_SCREEN_MIN inputs
     * beyond it those that alone fit in it (an input the original takes longer on than the
     * whole budget would only double a slow script's check: the final check has it) */
    size_t *order = gb_malloc(n * sizeof *order), m = 0;
    for (size_t i = 0; i < n; i++)
        if (!e->screen.items[i]) order[m++] = i;
    qsort_r(order, m, sizeof *order, gb_screen__by_wall, e);
    for (size_t k = 0; k < m; k++) {
        size_t i = order[k];
        if (spent + e->wall.items[i] > budget_s && (e->nscreen >= GB_EQUIV_SCREEN_MIN || e->wall.items[i] > budget_s))
            break;
        gb_screen__take(e, i, &u, &spent);
    }
    free(order);
    for (size_t i = 0; i < u.len; i++) free(u.items[i]);
    gb_array_free(&u);
    if (e->nscreen == n) { /* it took them all: no screen */
        gb_array_free(&e->screen);
        e->nscreen = 0;
    }
}
