/* Small helpers of the CodeBLEU files: Python's notion of whitespace and columns, UTF-8,
 * hashing, sorted key counts. */
#include "src/measure/codebleu_private.h"

#include <stdlib.h>
#include <string.h>

uint32_t cb__decode(const unsigned char *s, size_t len, size_t *adv)
{
    unsigned char c = s[0];
    if (c < 0x80 || len < 2) {
        *adv = 1;
        return c;
    }
    if ((c & 0xE0) == 0xC0) {
        *adv = 2;
        return ((uint32_t)(c & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if ((c & 0xF0) == 0xE0 && len >= 3) {
        *adv = 3;
        return ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
    if ((c & 0xF8) == 0xF0 && len >= 4) {
        *adv = 4;
        return ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) | ((uint32_t)(s[2] & 0x3F) << 6) |
               (s[3] & 0x3F);
    }
    *adv = 1;
    return c;
}

/* Python's str.isspace() / str.split() whitespace (Py_UNICODE_ISSPACE). */
bool cb__py_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Python's s.strip(): the byte range [*a, *b) of s without leading/trailing whitespace. */
void cb__py_strip(const char *s, size_t len, size_t *a, size_t *b)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, adv;
    while (i < len && cb__py_space(cb__decode(u + i, len - i, &adv))) i += adv;
    size_t last = i; /* end of the last non-space code point */
    for (size_t j = i; j < len; j += adv) {
        if (!cb__py_space(cb__decode(u + j, len - j, &adv))) last = j + adv;
    }
    *a = i;
    *b = last;
}

bool cb__blank(const char *s, size_t len)
{
    size_t a, b;
    cb__py_strip(s, len, &a, &b);
    return a == b;
}

/* Number of code points in s[0, off): Python's str columns. */
long cb__cp(const char *s, size_t off)
{
    long n = 0;
    for (size_t i = 0; i < off; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

uint64_t cb__mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

int cb__cmp_count(const void *a, const void *b)
{
    uint64_t x = ((const CbCount *)a)->key, y = ((const CbCount *)b)->key;
    return x < y ? -1 : x > y;
}

int cb__cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort keys and collapse equal ones into counts. Returns the number of distinct keys; the
 * counts array (owned) goes to *out. */
size_t cb__count_keys(uint64_t *keys, size_t n, CbCount **out)
{
    if (n > 1) qsort(keys, n, sizeof *keys, cb__cmp_u64);
    CbCount *c = gb_malloc((n ? n : 1) * sizeof *c);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && c[m - 1].key == keys[i]) {
            c[m - 1].count++;
        } else {
            c[m].key = keys[i];
            c[m].count = 1;
            c[m].weight = 1.0f;
            m++;
        }
    }
    *out = c;
    return m;
}

/* Count of key in a sorted count array (binary search). */
uint32_t cb__lookup(const CbCount *c, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < n && c[lo].key == key ? c[lo].count : 0;
}

/* Σ over a's keys of min(count_a, count_b) (both sorted). */
size_t cb__clipped(const CbCount *a, size_t na, const CbCount *b, size_t nb)
{
    size_t i = 0, j = 0, s = 0;
    while (i < na && j < nb) {
        if (a[i].key < b[j].key) {
            i++;
        } else if (a[i].key > b[j].key) {
            j++;
        } else {
            s += a[i].count < b[j].count ? a[i].count : b[j].count;
            i++;
            j++;
        }
    }
    return s;
}
