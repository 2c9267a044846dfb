/* CodeBLEU's n-gram match: corpus BLEU-4 over whitespace tokens (s.split()). */
#include "src/measure/codebleu_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The hashed n-gram keys of th[0..ntok), n = k + 1; owned array of max(ntok - k, 0) keys in *out. */
static size_t cb__ngram_keys(const uint64_t *th, size_t ntok, int k, uint64_t **out)
{
    size_t cnt = ntok >= (size_t)(k + 1) ? ntok - (size_t)k : 0;
    uint64_t *keys = gb_malloc((cnt ? cnt : 1) * sizeof *keys);
    for (size_t j = 0; j < cnt; j++) {
        uint64_t h = (uint64_t)k + 1;
        for (int t = 0; t <= k; t++) h = cb__mix(h * 0x100000001B3ULL + th[j + (size_t)t]);
        keys[j] = h;
    }
    *out = keys;
    return cnt;
}

/* Unigram counts that keep each key's keyword weight: sort (key, weight) together. */
static size_t cb__unigram_counts(const uint64_t *keys, const float *weights, size_t cnt, CbCount **out)
{
    CbCount *c = gb_malloc((cnt ? cnt : 1) * sizeof *c);
    for (size_t j = 0; j < cnt; j++) c[j] = (CbCount){keys[j], 1, weights[j]};
    qsort(c, cnt, sizeof *c, cb__cmp_count);
    size_t m = 0;
    for (size_t j = 0; j < cnt; j++) {
        if (m && c[m - 1].key == c[j].key) {
            c[m - 1].count++;
        } else {
            c[m++] = c[j];
        }
    }
    *out = c;
    return m;
}

void cb__doc_ngrams(GbCodeBleuDoc *d, const char *stripped, size_t n)
{
    /* s.split(): whitespace tokens. */
    GbArray(uint64_t) th = {0};
    GbArray(float) tw = {0};
    const unsigned char *u = (const unsigned char *)stripped;
    size_t i = 0, adv;
    while (i < n) {
        while (i < n && cb__py_space(cb__decode(u + i, n - i, &adv))) i += adv;
        if (i >= n) break;
        size_t st = i;
        while (i < n && !cb__py_space(cb__decode(u + i, n - i, &adv))) i += adv;
        gb_array_push(&th, gb_hash64(stripped + st, i - st, 0x746f6bULL));
        gb_array_push(&tw, gb_codebleu_is_keyword(stripped + st, i - st) ? 1.0f : 0.2f);
    }
    d->ntok = th.len;
    for (int k = 0; k < 4; k++) {
        uint64_t *keys;
        size_t cnt = cb__ngram_keys(th.items, th.len, k, &keys);
        if (k == 0) {
            d->ng_len[0] = cb__unigram_counts(keys, tw.items, cnt, &d->ng[0]);
        } else {
            d->ng_len[k] = cb__count_keys(keys, cnt, &d->ng[k]);
        }
        free(keys);
    }
    gb_array_free(&th);
    gb_array_free(&tw);
}

void cb__ngram_add(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *const *refs, size_t nrefs)
{
    size_t c = hyp->ntok;
    for (int k = 0; k < 4; k++) {
        size_t num = 0, total = 0;
        for (size_t i = 0; i < hyp->ng_len[k]; i++) {
            uint32_t best = 0;
            for (size_t r = 0; r < nrefs; r++) {
                uint32_t rc = cb__lookup(refs[r]->ng[k], refs[r]->ng_len[k], hyp->ng[k][i].key);
                if (rc > best) best = rc;
            }
            num += hyp->ng[k][i].count < best ? hyp->ng[k][i].count : best;
            total += hyp->ng[k][i].count;
        }
        acc->bleu_num[k] += (double)num;
        acc->bleu_den[k] += (double)(total > 1 ? total : 1);
    }
    size_t closest = refs[0]->ntok;
    for (size_t r = 1; r < nrefs; r++) {
        size_t rl = refs[r]->ntok;
        size_t dr = rl > c ? rl - c : c - rl, dc = closest > c ? closest - c : c - closest;
        if (dr < dc || (dr == dc && rl < closest)) closest = rl;
    }
    acc->bleu_hyp_len += (double)c;
    acc->bleu_ref_len += (double)closest;
}

static double cb__brevity(double ref_len, double hyp_len)
{
    if (hyp_len > ref_len) return 1;
    if (hyp_len == 0) return 0;
    return exp(1 - ref_len / hyp_len);
}

double cb__bleu(const double *num, const double *den, double ref_len, double hyp_len)
{
    if (num[0] == 0) return 0;
    double s = 0;
    for (int k = 0; k < 4; k++) s += 0.25 * log((num[k] == 0 ? 0.1 : num[k]) / den[k]);
    return cb__brevity(ref_len, hyp_len) * exp(s);
}
