#include "nsga2/dominance.h"

#include <assert.h>
#include <math.h>

GbDominance gb_dominance_compare(const double *a, const double *b, size_t k)
{
    assert(k >= 1);
    bool a_better = false, b_better = false;
    for (size_t i = 0; i < k; i++) {
        assert(isfinite(a[i]) && isfinite(b[i]));
        if (a[i] > b[i])
            a_better = true;
        else if (b[i] > a[i])
            b_better = true;
        /* Both better somewhere: nothing more can change the answer. */
        if (a_better && b_better) return GB_DOM_NEITHER;
    }
    if (a_better) return GB_DOM_A;
    if (b_better) return GB_DOM_B;
    return GB_DOM_NEITHER;
}

bool gb_dominates(const double *a, const double *b, size_t k)
{
    return gb_dominance_compare(a, b, k) == GB_DOM_A;
}
