/* The helper threads of a task (nsga2/evolve_private.h: GbEvolveCrew) and the validation
 * slots they borrow (nsga2/evolve.h: GbEvolveSlots). A helper breeds and validates whatever the
 * task thread publishes (nsga2/breed.c, nsga2/wave.c) until the task ends. */
#include "nsga2/evolve_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "src/python/pyparse.h"

void gb_evolve_slots_init(GbEvolveSlots *s, int n)
{
    atomic_init(&s->free, n);
}

/* Take up to want free slots without waiting; returns how many were taken. */
static int gb_evolve__slots_borrow(GbEvolveSlots *s, int want)
{
    if (!s || want <= 0) return 0;
    int cur = atomic_load(&s->free);
    for (;;) {
        int take = cur < want ? cur : want;
        if (take <= 0) return 0;
        if (atomic_compare_exchange_weak(&s->free, &cur, cur - take)) return take;
    }
}

void gb_evolve_slots_give(GbEvolveSlots *s, int n)
{
    if (s && n > 0) atomic_fetch_add(&s->free, n);
}

typedef struct {
    GbEvolveCrew *crew;
    const GbEvolveConfig *cfg;
} GbHelperArg;

static void *gb_evolve__helper(void *arg)
{
    GbHelperArg *ha = arg;
    GbEvolveCrew *crew = ha->crew;
    const GbEvolveConfig *cfg = ha->cfg;
    free(ha);
    TSParser *parser = gb_parser_new();
    GbLintSession *lint = cfg->lint ? gb_lint_session_new(cfg->pool) : NULL;
    pthread_mutex_lock(&crew->mu);
    while (!crew->quit) {
        if (crew->bp && gb_evolve_breed_next(crew, crew->bp, parser)) continue;
        if (crew->ph && crew->ph->open && gb_evolve_eval_next(crew, crew->ph, parser, lint)) continue;
        pthread_cond_wait(&crew->wake, &crew->mu); /* nothing to do: until a phase is posted */
    }
    pthread_mutex_unlock(&crew->mu);
    gb_lint_session_delete(lint);
    ts_parser_delete(parser);
    return NULL;
}

void gb_evolve_crew_end(GbRun *run)
{
    GbEvolveCrew *crew = run->crew;
    if (!crew) return;
    pthread_mutex_lock(&crew->mu);
    crew->quit = true;
    pthread_cond_broadcast(&crew->wake);
    pthread_mutex_unlock(&crew->mu);
    for (int h = 0; h < crew->n; h++) pthread_join(crew->tids[h], NULL);
    run->crew = NULL;
    gb_evolve_slots_give(run->cfg->slots, crew->n);
    pthread_cond_destroy(&crew->wake);
    pthread_cond_destroy(&crew->done);
    pthread_mutex_destroy(&crew->mu);
    free(crew);
}

int gb_evolve_crew_ready(const GbEvolveConfig *cfg, GbRun *run, int want)
{
    if (!cfg->slots) return 0;
    if (run->crew && atomic_load(&cfg->slots->free) < 0) gb_evolve_crew_end(run);
    if (want > GB_EVOLVE_WAVE) want = GB_EVOLVE_WAVE;
    int have = run->crew ? run->crew->n : 0;
    if (have >= want) return have;
    int more = gb_evolve__slots_borrow(cfg->slots, want - have);
    if (more == 0) return have;
    if (!run->crew) {
        GbEvolveCrew *crew = gb_calloc(1, sizeof *crew);
        pthread_mutex_init(&crew->mu, NULL);
        pthread_cond_init(&crew->wake, NULL);
        pthread_cond_init(&crew->done, NULL);
        run->crew = crew;
    }
    GbEvolveCrew *crew = run->crew;
    int started = 0;
    for (int h = 0; h < more; h++) {
        GbHelperArg *ha = gb_malloc(sizeof *ha);
        ha->crew = crew;
        ha->cfg = cfg;
        if (pthread_create(&crew->tids[crew->n], NULL, gb_evolve__helper, ha) != 0) {
            free(ha);
            continue;
        }
        crew->n++;
        started++;
    }
    gb_evolve_slots_give(cfg->slots, more - started);
    return crew->n;
}
