/* Unstable steps of a call sequence (equiv_steps.h). */
#include "nsga2/equiv_steps.h"

#include <string.h>

#include "src/base/util.h"
#include "src/runner/runner.h"

/* The end of the step description starting at p. */
static const char *gb_equiv_steps__end(const char *p)
{
    const char *q = strchr(p, GB_PROBE_STEP_SEP);
    return q ? q : p + strlen(p);
}

bool gb_equiv_step_unstable(const char *p)
{
    size_t n = strlen(GB_EQUIV_UNSTABLE);
    return (size_t)(gb_equiv_steps__end(p) - p) == n && memcmp(p, GB_EQUIV_UNSTABLE, n) == 0;
}

char *gb_equiv_steps_mask(const char *a, const char *b)
{
    GbStr o;
    gb_str_init(&o);
    size_t stable = 0, steps = 0;
    const char *pa = a, *pb = b;
    for (;;) {
        const char *ea = gb_equiv_steps__end(pa), *eb = gb_equiv_steps__end(pb);
        bool same = ea - pa == eb - pb && memcmp(pa, pb, (size_t)(ea - pa)) == 0;
        if (steps++) gb_str_append_n(&o, (const char[]){GB_PROBE_STEP_SEP}, 1);
        if (same) {
            gb_str_append_n(&o, pa, (size_t)(ea - pa));
            stable += steps > 1;
        } else {
            gb_str_append(&o, GB_EQUIV_UNSTABLE);
        }
        if (!*ea || !*eb) {
            if (*ea || *eb || stable == 0) {
                gb_str_destroy(&o);
                return NULL;
            }
            break;
        }
        pa = ea + 1;
        pb = eb + 1;
    }
    char *t = gb_str_take(&o);
    return t ? t : gb_strdup("");
}

bool gb_equiv_steps_match(const char *rec, const char *got)
{
    const char *pr = rec, *pg = got;
    for (;;) {
        const char *er = gb_equiv_steps__end(pr), *eg = gb_equiv_steps__end(pg);
        if (!gb_equiv_step_unstable(pr) && (er - pr != eg - pg || memcmp(pr, pg, (size_t)(er - pr)) != 0)) return false;
        if (!*er || !*eg) return !*er && !*eg;
        pr = er + 1;
        pg = eg + 1;
    }
}
