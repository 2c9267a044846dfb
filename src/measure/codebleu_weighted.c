/* CodeBLEU's weighted n-gram match: a recall of the reference n-grams, unigrams weighted by
 * the package's keyword list. */
#include "src/measure/codebleu_private.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------
 * Keywords (codebleu/keywords/python.txt: 38 lines; CodeXGLUE has the first 35).
 * ------------------------------------------------------------------------------------------ */

static const char *const cb__keywords[] = {
    "False",    "None",   "True",  "and",  "as",     "assert",   "async",   "await", "break", "class",
    "continue", "def",    "del",   "elif", "else",   "except",   "finally", "for",   "from",  "global",
    "if",       "import", "in",    "is",   "lambda", "nonlocal", "not",     "or",    "pass",  "raise",
    "return",   "try",    "while", "with", "yield",  "match",    "case",    "type",
};

bool gb_codebleu_is_keyword(const char *tok, size_t len)
{
    for (size_t i = 0; i < sizeof cb__keywords / sizeof cb__keywords[0]; i++) {
        if (strlen(cb__keywords[i]) == len && memcmp(cb__keywords[i], tok, len) == 0) return true;
    }
    return false;
}

void cb__weighted_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *const *refs, size_t nrefs)
{
    for (size_t r = 0; r < nrefs; r++) {
        const GbCodeBleuDoc *ref = refs[r];
        for (int k = 0; k < 4; k++) {
            double num = 0, den = 0;
            for (size_t i = 0; i < ref->ng_len[k]; i++) {
                uint32_t hc = cb__lookup(hyp->ng[k], hyp->ng_len[k], ref->ng[k][i].key);
                uint32_t rc = ref->ng[k][i].count;
                double w = k == 0 ? (double)ref->ng[k][i].weight : 1.0;
                num += (double)(rc < hc ? rc : hc) * w;
                den += (double)rc * w;
            }
            acc->w_num[k] += num;
            acc->w_den[k] += den > 1 ? den : 1;
        }
    }
    acc->w_hyp_len += (double)hyp->ntok;
    acc->w_ref_len += 2; /* len([tokens, weights]) */
}
