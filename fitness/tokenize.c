#include "fitness/tokenize.h"

#include "fitness/unicode_tables.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- Unicode helpers */

/* Decode the code point at s[i] (n = total length). Invalid bytes decode as themselves. */
static uint32_t tk__cp(const char *s, size_t n, size_t i, size_t *adv)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char c = u[i];
    if (c < 0x80) {
        *adv = 1;
        return c;
    }
    size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (k == 1 || i + k > n) {
        *adv = 1;
        return c;
    }
    uint32_t cp = c & (k == 2 ? 0x1F : k == 3 ? 0x0F : 0x07);
    for (size_t j = 1; j < k; j++) {
        if ((u[i + j] & 0xC0) != 0x80) {
            *adv = 1;
            return c;
        }
        cp = (cp << 6) | (u[i + j] & 0x3F);
    }
    *adv = k;
    return cp;
}

/* Start of the code point that ends just before byte i (i > 0). */
static size_t tk__prev(const char *s, size_t i)
{
    size_t j = i - 1;
    while (j > 0 && ((unsigned char)s[j] & 0xC0) == 0x80 && i - j < 4) j--;
    return j;
}

/* Python str.isspace() / re \s. */
static bool tk__space(uint32_t c)
{
    if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

static bool tk__in(const uint32_t (*r)[2], size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid][0])
            hi = mid;
        else if (c > r[mid][1])
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* Python re \d. */
static bool tk__digit(uint32_t c)
{
    if (c < 0x80) return c >= '0' && c <= '9';
    return tk__in(gb_uni_digit, gb_uni_digit_len, c);
}

/* Python re \w: letters, digits, underscore. */
static bool tk__word(uint32_t c)
{
    if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    return tk__in(gb_uni_word, gb_uni_word_len, c);
}

static bool tk__upper(uint32_t c)
{
    if (c < 0x80) return c >= 'A' && c <= 'Z';
    return tk__in(gb_uni_upper, gb_uni_upper_len, c);
}

static bool tk__lower(uint32_t c)
{
    if (c < 0x80) return c >= 'a' && c <= 'z';
    return tk__in(gb_uni_lower, gb_uni_lower_len, c);
}

static bool tk__space_at(const char *s, size_t n, size_t i, size_t *adv)
{
    return tk__space(tk__cp(s, n, i, adv));
}

/* ---------------------------------------------------------------- Treebank passes
 * Each pass reads s[0..n) and writes the substituted text to `out`, exactly as Python's
 * re.sub with the NLTK 3.8 pattern would (non-overlapping matches, left to right). Text
 * between matches is copied in runs: `run` is the start of the pending unmatched text. */

#define TK_PASS(name) static void name(const char *s, size_t n, GbStr *out)
#define TK_FLUSH(upto) gb_str_append_n(out, s + run, (upto)-run)

static void tk__put(GbStr *o, const char *s, size_t n)
{
    gb_str_append_n(o, s, n);
}

static bool tk__at(const char *s, size_t n, size_t i, const char *lit)
{
    size_t k = strlen(lit);
    return i + k <= n && memcmp(s + i, lit, k) == 0;
}

/* ([«“‘„]|[`]+) -> " \1 " */
TK_PASS(tk__sq1)
{
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t m = 0;
        if (c == '`') {
            while (i + m < n && s[i + m] == '`') m++;
        } else if (c == 0xC2 && tk__at(s, n, i, "\xC2\xAB")) {
            m = 2;
        } else if (c == 0xE2 && (tk__at(s, n, i, "\xE2\x80\x9C") || tk__at(s, n, i, "\xE2\x80\x98") ||
                                 tk__at(s, n, i, "\xE2\x80\x9E"))) {
            m = 3;
        }
        if (!m) {
            i++;
            continue;
        }
        TK_FLUSH(i);
        tk__put(out, " ", 1);
        tk__put(out, s + i, m);
        tk__put(out, " ", 1);
        i += m;
        run = i;
    }
    TK_FLUSH(n);
}

/* ^\" -> `` */
TK_PASS(tk__sq2)
{
    if (n && s[0] == '"') {
        tk__put(out, "``", 2);
        tk__put(out, s + 1, n - 1);
    } else {
        tk__put(out, s, n);
    }
}

/* Replace every non-overlapping occurrence of the 2-byte string `pat` by `rep`. */
static void tk__replace2(const char *s, size_t n, GbStr *out, const char *pat, const char *rep)
{
    size_t run = 0, lr = strlen(rep);
    for (size_t i = 0; i + 1 < n;) {
        if (s[i] == pat[0] && s[i + 1] == pat[1]) {
            TK_FLUSH(i);
            tk__put(out, rep, lr);
            i += 2;
            run = i;
        } else {
            i++;
        }
    }
    TK_FLUSH(n);
}

/* (``) -> " \1 " */
TK_PASS(tk__sq3)
{
    tk__replace2(s, n, out, "``", " `` ");
}

/* ([ \(\[{<])(\"|\'{2}) -> "\1 `` " */
TK_PASS(tk__sq4)
{
    size_t run = 0;
    for (size_t i = 0; i + 1 < n;) {
        char c = s[i];
        if (c == ' ' || c == '(' || c == '[' || c == '{' || c == '<') {
            size_t m = 0;
            if (s[i + 1] == '"')
                m = 1;
            else if (i + 2 < n && s[i + 1] == '\'' && s[i + 2] == '\'')
                m = 2;
            if (m) {
                TK_FLUSH(i + 1);
                tk__put(out, " `` ", 4);
                i += 1 + m;
                run = i;
                continue;
            }
        }
        i++;
    }
    TK_FLUSH(n);
}

/* (?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b -> "\1 \2" */
TK_PASS(tk__sq5)
{
    size_t run = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != '\'') continue;
        size_t a1, a2 = 0;
        uint32_t c = tk__cp(s, n, i + 1, &a1);
        if (!tk__word(c)) continue;
        if (i + 1 + a1 < n && tk__word(tk__cp(s, n, i + 1 + a1, &a2))) continue;
        uint32_t lc = (c >= 'A' && c <= 'Z') ? c + 32 : c;
        if (lc == 'm' || lc == 't' || lc == 's' || lc == 'd' || lc == 'n') continue;
        TK_FLUSH(i + 1);
        tk__put(out, " ", 1);
        run = i + 1;
        i += a1;
    }
    TK_FLUSH(n);
}

/* Closing characters of the final-period rules. wide: ]})>"' plus » ” ’ and space. */
static size_t tk__closer(const char *s, size_t n, size_t i, bool wide)
{
    char c = s[i];
    if (c == ']' || c == ')' || c == '}' || c == '>' || c == '"' || c == '\'') return 1;
    if (!wide) return 0;
    if (c == ' ') return 1;
    if (tk__at(s, n, i, "\xC2\xBB")) return 2;
    if (tk__at(s, n, i, "\xE2\x80\x9D") || tk__at(s, n, i, "\xE2\x80\x99")) return 3;
    return 0;
}

/* ([^\.])(\.)([closers]*)\s*$ -> "\1 \2 \3 " (wide) or "\1 \2\3 " (narrow). Only the last
 * period of the text can match (a period is neither a closer nor whitespace). */
static void tk__final_period(const char *s, size_t n, GbStr *out, bool wide)
{
    const char *dot = n ? memrchr(s, '.', n) : NULL;
    if (dot && dot > s && dot[-1] != '.') {
        size_t p = (size_t)(dot - s), q = p + 1, k;
        while (q < n && (k = tk__closer(s, n, q, wide)) > 0) q += k;
        size_t r = q, adv;
        while (r < n && tk__space_at(s, n, r, &adv)) r += adv;
        if (r == n) {
            tk__put(out, s, p);
            tk__put(out, wide ? " . " : " .", wide ? 3 : 2);
            tk__put(out, s + p + 1, q - p - 1);
            tk__put(out, " ", 1);
            return;
        }
    }
    tk__put(out, s, n);
}

TK_PASS(tk__p1)
{
    tk__final_period(s, n, out, true);
}

/* ([:,])([^\d]) -> " \1 \2" */
TK_PASS(tk__p2)
{
    size_t run = 0;
    for (size_t i = 0; i + 1 < n;) {
        if (s[i] == ':' || s[i] == ',') {
            size_t adv;
            uint32_t c = tk__cp(s, n, i + 1, &adv);
            if (!tk__digit(c)) {
                TK_FLUSH(i);
                tk__put(out, " ", 1);
                tk__put(out, s + i, 1);
                tk__put(out, " ", 1);
                tk__put(out, s + i + 1, adv);
                i += 1 + adv;
                run = i;
                continue;
            }
        }
        i++;
    }
    TK_FLUSH(n);
}

/* ([:,])$ -> " \1 "   ($ = end of text or before a final newline) */
TK_PASS(tk__p3)
{
    size_t at = SIZE_MAX;
    if (n && (s[n - 1] == ':' || s[n - 1] == ','))
        at = n - 1;
    else if (n >= 2 && s[n - 1] == '\n' && (s[n - 2] == ':' || s[n - 2] == ','))
        at = n - 2;
    if (at == SIZE_MAX) {
        tk__put(out, s, n);
        return;
    }
    tk__put(out, s, at);
    tk__put(out, " ", 1);
    tk__put(out, s + at, 1);
    tk__put(out, " ", 1);
    tk__put(out, s + at + 1, n - at - 1);
}

/* \.{2,} -> " \g<0> " */
TK_PASS(tk__p4)
{
    size_t run = 0;
    for (size_t i = 0; i + 1 < n;) {
        if (s[i] == '.' && s[i + 1] == '.') {
            size_t m = 0;
            while (i + m < n && s[i + m] == '.') m++;
            TK_FLUSH(i);
            tk__put(out, " ", 1);
            tk__put(out, s + i, m);
            tk__put(out, " ", 1);
            i += m;
            run = i;
        } else {
            i++;
        }
    }
    TK_FLUSH(n);
}

/* Pad every byte of the set with spaces: " \g<0> ". */
static void tk__pad_set(const char *s, size_t n, GbStr *out, const char *set)
{
    bool in[256] = {false};
    for (const char *p = set; *p; p++) in[(unsigned char)*p] = true;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (!in[(unsigned char)s[i]]) continue;
        TK_FLUSH(i);
        tk__put(out, " ", 1);
        tk__put(out, s + i, 1);
        tk__put(out, " ", 1);
        run = i + 1;
    }
    TK_FLUSH(n);
}

TK_PASS(tk__p5)
{
    tk__pad_set(s, n, out, ";@#$%&");
}

TK_PASS(tk__p6)
{
    tk__final_period(s, n, out, false);
}

TK_PASS(tk__p7)
{
    tk__pad_set(s, n, out, "?!");
}

/* ([^'])' -> "\1 ' "  (the character before the quote is one code point) */
TK_PASS(tk__p8)
{
    size_t run = 0;
    for (size_t i = 0; i + 2 < n; i++) {
        if (s[i + 1] != '\'' || s[i + 2] != ' ') continue;
        /* s[i] is the last byte of the preceding character; find where that character starts. */
        size_t st = i;
        while (st > run && ((unsigned char)s[st] & 0xC0) == 0x80) st--;
        if (s[st] == '\'') continue;
        TK_FLUSH(i + 1);
        tk__put(out, " ' ", 3);
        i += 2;
        run = i + 1;
    }
    TK_FLUSH(n);
}

TK_PASS(tk__p9)
{
    tk__pad_set(s, n, out, "*");
}

TK_PASS(tk__parens)
{
    tk__pad_set(s, n, out, "[](){}<>");
}

/* -- -> " -- " */
TK_PASS(tk__dashes)
{
    tk__replace2(s, n, out, "--", " -- ");
}

/* ([»”’]) -> " \1 " */
TK_PASS(tk__eq1)
{
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t m = 0;
        if (c == 0xC2 && tk__at(s, n, i, "\xC2\xBB"))
            m = 2;
        else if (c == 0xE2 && (tk__at(s, n, i, "\xE2\x80\x9D") || tk__at(s, n, i, "\xE2\x80\x99")))
            m = 3;
        if (!m) {
            i++;
            continue;
        }
        TK_FLUSH(i);
        tk__put(out, " ", 1);
        tk__put(out, s + i, m);
        tk__put(out, " ", 1);
        i += m;
        run = i;
    }
    TK_FLUSH(n);
}

/* '' -> " '' " */
TK_PASS(tk__eq2)
{
    tk__replace2(s, n, out, "''", " '' ");
}

/* " -> " '' " */
TK_PASS(tk__eq3)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '"') continue;
        TK_FLUSH(i);
        tk__put(out, " '' ", 4);
        run = i + 1;
    }
    TK_FLUSH(n);
}

/* Start of the character that ends at byte i (inclusive), not before `floor`. */
static size_t tk__char_start(const char *s, size_t i, size_t floor)
{
    while (i > floor && ((unsigned char)s[i] & 0xC0) == 0x80) i--;
    return i;
}

/* ([^' ])('[sS]|'[mM]|'[dD]|') -> "\1 \2 " */
TK_PASS(tk__eq4)
{
    size_t run = 0;
    for (size_t j = 1; j + 1 < n; j++) {
        if (s[j] != '\'') continue;
        size_t st = tk__char_start(s, j - 1, run);
        if (st < run || s[st] == '\'' || s[st] == ' ') continue;
        size_t g = 0;
        if (j + 2 < n && s[j + 1] && strchr("sSmMdD", s[j + 1]) && s[j + 2] == ' ')
            g = 2;
        else if (s[j + 1] == ' ')
            g = 1;
        if (!g) continue;
        TK_FLUSH(j);
        tk__put(out, " ", 1);
        tk__put(out, s + j, g);
        tk__put(out, " ", 1);
        j += g;
        run = j + 1;
    }
    TK_FLUSH(n);
}

/* ([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) -> "\1 \2 " */
TK_PASS(tk__eq5)
{
    static const char *const cl[] = {"'ll", "'LL", "'re", "'RE", "'ve", "'VE", "n't", "N'T"};
    size_t run = 0;
    for (size_t j = 1; j + 3 < n; j++) {
        char c = s[j];
        if (c != '\'' && c != 'n' && c != 'N') continue;
        if (s[j + 3] != ' ') continue;
        int hit = -1;
        for (int k = 0; k < 8 && hit < 0; k++)
            if (memcmp(s + j, cl[k], 3) == 0) hit = k;
        if (hit < 0) continue;
        size_t st = tk__char_start(s, j - 1, run);
        if (st < run || s[st] == '\'' || s[st] == ' ') continue;
        if (j - 1 < run) continue;
        TK_FLUSH(j);
        tk__put(out, " ", 1);
        tk__put(out, s + j, 3);
        tk__put(out, " ", 1);
        j += 3;
        run = j + 1;
    }
    TK_FLUSH(n);
}

static bool tk__word_before(const char *s, size_t n, size_t i)
{
    if (i == 0) return false;
    size_t adv;
    return tk__word(tk__cp(s, n, tk__prev(s, i), &adv));
}

static bool tk__word_at(const char *s, size_t n, size_t i)
{
    size_t adv;
    return i < n && tk__word(tk__cp(s, n, i, &adv));
}

static bool tk__ieq(const char *s, size_t n, size_t i, const char *lit)
{
    size_t k = strlen(lit);
    if (i + k > n) return false;
    for (size_t j = 0; j < k; j++) {
        char a = s[i + j], b = lit[j];
        if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
        if (a != b) return false;
    }
    return true;
}

/* (?i)\b(A)(B)\b -> " \1 \2 "; lookahead_space: (?=\s) instead of the final \b. */
static void tk__contraction(const char *s, size_t n, GbStr *out, const char *a, const char *b, bool lookahead_space)
{
    size_t la = strlen(a), lb = strlen(b), run = 0;
    char a0 = a[0], A0 = (char)(a[0] - 32);
    for (size_t i = 0; i < n;) {
        if ((s[i] == a0 || s[i] == A0) && !tk__word_before(s, n, i) && tk__ieq(s, n, i, a) &&
            tk__ieq(s, n, i + la, b)) {
            size_t e = i + la + lb, adv;
            bool ok = lookahead_space ? (e < n && tk__space_at(s, n, e, &adv)) : !tk__word_at(s, n, e);
            if (ok) {
                TK_FLUSH(i);
                tk__put(out, " ", 1);
                tk__put(out, s + i, la);
                tk__put(out, " ", 1);
                tk__put(out, s + i + la, lb);
                tk__put(out, " ", 1);
                i = e;
                run = i;
                continue;
            }
        }
        i++;
    }
    TK_FLUSH(n);
}

/* (?i) ('t)(is)\b -> " \1 \2 " */
static void tk__contraction3(const char *s, size_t n, GbStr *out, const char *b)
{
    size_t lb = strlen(b), run = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == ' ' && tk__ieq(s, n, i + 1, "'t") && tk__ieq(s, n, i + 3, b) && !tk__word_at(s, n, i + 3 + lb)) {
            TK_FLUSH(i);
            tk__put(out, " ", 1);
            tk__put(out, s + i + 1, 2);
            tk__put(out, " ", 1);
            tk__put(out, s + i + 3, lb);
            tk__put(out, " ", 1);
            i += 3 + lb;
            run = i;
            continue;
        }
        i++;
    }
    TK_FLUSH(n);
}

typedef void (*TkPass)(const char *s, size_t n, GbStr *out);

static void tk__run(GbTokenizer *tk, TkPass pass)
{
    gb_str_clear(&tk->b);
    pass(tk->a.data ? tk->a.data : "", tk->a.len, &tk->b);
    GbStr t = tk->a;
    tk->a = tk->b;
    tk->b = t;
}

static size_t tk__split(const char *s, size_t n, GbTokenFn fn, void *ctx)
{
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        size_t adv;
        if (tk__space_at(s, n, i, &adv)) {
            i += adv;
            continue;
        }
        size_t j = i;
        while (j < n && !tk__space_at(s, n, j, &adv)) j += adv;
        if (fn) fn(ctx, s + i, j - i);
        count++;
        i = j;
    }
    return count;
}

size_t gb_treebank_tokenize(GbTokenizer *tk, const char *text, size_t len, GbTokenFn fn, void *ctx)
{
    static const TkPass passes1[] = {tk__sq1, tk__sq2, tk__sq3, tk__sq4, tk__sq5, tk__p1, tk__p2,     tk__p3,
                                     tk__p4,  tk__p5,  tk__p6,  tk__p7,  tk__p8,  tk__p9, tk__parens, tk__dashes};
    static const TkPass passes2[] = {tk__eq1, tk__eq2, tk__eq3, tk__eq4, tk__eq5};
    static const char *const c2[][2] = {{"can", "not"}, {"d", "'ye"},  {"gim", "me"}, {"gon", "na"},
                                        {"got", "ta"},  {"lem", "me"}, {"more", "'n"}};
    gb_str_clear(&tk->a);
    gb_str_append_n(&tk->a, text, len);
    for (size_t i = 0; i < sizeof passes1 / sizeof passes1[0]; i++) tk__run(tk, passes1[i]);
    /* text = " " + text + " " */
    gb_str_clear(&tk->b);
    gb_str_append(&tk->b, " ");
    gb_str_append_n(&tk->b, tk->a.data ? tk->a.data : "", tk->a.len);
    gb_str_append(&tk->b, " ");
    GbStr t = tk->a;
    tk->a = tk->b;
    tk->b = t;
    for (size_t i = 0; i < sizeof passes2 / sizeof passes2[0]; i++) tk__run(tk, passes2[i]);
    for (size_t k = 0; k < sizeof c2 / sizeof c2[0]; k++) {
        gb_str_clear(&tk->b);
        tk__contraction(tk->a.data, tk->a.len, &tk->b, c2[k][0], c2[k][1], false);
        t = tk->a;
        tk->a = tk->b;
        tk->b = t;
    }
    gb_str_clear(&tk->b);
    tk__contraction(tk->a.data, tk->a.len, &tk->b, "wan", "na", true);
    t = tk->a;
    tk->a = tk->b;
    tk->b = t;
    static const char *const c3[] = {"is", "was"};
    for (size_t k = 0; k < 2; k++) {
        gb_str_clear(&tk->b);
        tk__contraction3(tk->a.data, tk->a.len, &tk->b, c3[k]);
        t = tk->a;
        tk->a = tk->b;
        tk->b = t;
    }
    return tk__split(tk->a.data, tk->a.len, fn, ctx);
}

/* ---------------------------------------------------------------- Punkt */

/* English abbreviations (lower case, without the final period). */
static const char *const tk__abbrevs[] = {
    "a.m", "al",  "apr",  "approx", "aug", "ca",  "cf",  "ch",  "co",   "corp", "dec", "dept", "dr", "e.g",
    "ed",  "eds", "eq",   "eqs",    "est", "etc", "feb", "fig", "figs", "i.e",  "inc", "jan",  "jr", "jul",
    "jun", "ltd", "mar",  "mr",     "mrs", "ms",  "no",  "nos", "nov",  "oct",  "p.m", "ph.d", "pp", "prof",
    "sec", "sep", "sept", "sr",     "st",  "u.k", "u.s", "viz", "vol",  "vols", "vs",
};

static bool tk__is_abbrev(const char *s, size_t n)
{
    char buf[16];
    if (n == 0 || n >= sizeof buf) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        buf[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    buf[n] = 0;
    for (size_t i = 0; i < sizeof tk__abbrevs / sizeof tk__abbrevs[0]; i++)
        if (strcmp(buf, tk__abbrevs[i]) == 0) return true;
    return false;
}

/* Punkt's NonWord characters: )";}]*:@'({[ plus ? and ! */
static bool tk__nonword(char c)
{
    return c && strchr(")\";}]*:@'({[?!", c) != NULL;
}

/* Punkt MultiChar at i: -{2,} | \.{2,} | (?:\.\s){2,}\. ; returns the match length or 0. */
static size_t tk__multichar(const char *s, size_t n, size_t i)
{
    if (i + 1 >= n) return 0;
    if (s[i] == '-' && s[i + 1] == '-') {
        size_t m = 0;
        while (i + m < n && s[i + m] == '-') m++;
        return m;
    }
    if (s[i] != '.') return 0;
    if (s[i + 1] == '.') {
        size_t m = 0;
        while (i + m < n && s[i + m] == '.') m++;
        return m;
    }
    /* (\.\s){2,}\. */
    size_t p = i, pairs = 0, last_pair_start = i, adv;
    while (p < n && s[p] == '.' && p + 1 < n && tk__space_at(s, n, p + 1, &adv)) {
        last_pair_start = p;
        p += 1 + adv;
        pairs++;
    }
    if (pairs >= 2 && p < n && s[p] == '.') return p + 1 - i;
    if (pairs >= 3) return last_pair_start + 1 - i;
    return 0;
}

static bool tk__word_end(const char *s, size_t n, size_t j)
{
    size_t adv;
    if (j >= n) return true;
    if (tk__space_at(s, n, j, &adv)) return true;
    if (tk__nonword(s[j]) || tk__multichar(s, n, j)) return true;
    if (s[j] == ',') {
        size_t k = j + 1;
        return k >= n || tk__space_at(s, n, k, &adv) || tk__nonword(s[k]) || tk__multichar(s, n, k);
    }
    return false;
}

typedef struct {
    size_t start, len;
    bool sentbreak, abbr, ellipsis;
} TkPTok;
typedef GbArray(TkPTok) TkPToks;

/* Punkt's word tokenizer on one line (no newline inside), appending to toks. */
static void tk__punkt_words(const char *s, size_t n, TkPToks *toks)
{
    for (size_t i = 0; i < n;) {
        size_t adv;
        uint32_t c = tk__cp(s, n, i, &adv);
        if (tk__space(c)) {
            i += adv;
            continue;
        }
        size_t m = tk__multichar(s, n, i);
        if (!m) {
            if (!(c < 0x80 && strchr("(\"`{[:;&#*@)}]-,", (int)c))) {
                size_t k = i + adv;
                while (!tk__word_end(s, n, k)) {
                    size_t a2;
                    tk__cp(s, n, k, &a2);
                    k += a2;
                }
                m = k - i;
            } else {
                m = adv;
            }
        }
        TkPTok t = {.start = i, .len = m};
        gb_array_push(toks, t);
        i += m;
    }
}

/* ^-?[\.,]?\d[\d,\.-]*\.?$ */
static bool tk__numeric(const char *s, size_t n)
{
    size_t i = 0, adv;
    if (i < n && s[i] == '-') i++;
    if (i < n && (s[i] == '.' || s[i] == ',')) i++;
    if (i >= n || !tk__digit(tk__cp(s, n, i, &adv))) return false;
    i += adv;
    while (i < n) {
        uint32_t c = tk__cp(s, n, i, &adv);
        if (!(tk__digit(c) || c == ',' || c == '.' || c == '-')) return false;
        i += adv;
    }
    return true;
}

/* [^\W\d]\.$ */
static bool tk__initial(const char *s, size_t n)
{
    size_t adv;
    if (n < 2) return false;
    uint32_t c = tk__cp(s, n, 0, &adv);
    return tk__word(c) && !tk__digit(c) && adv + 1 == n && s[adv] == '.';
}

/* Punkt's text_contains_sentbreak on a candidate context, with empty trained statistics. */
static bool tk__contains_sentbreak(const char *s, size_t n)
{
    TkPToks toks = {0};
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && s[e] != '\n') e++;
        size_t before = toks.len;
        tk__punkt_words(s + i, e - i, &toks);
        for (size_t k = before; k < toks.len; k++) toks.items[k].start += i;
        i = e + 1;
    }
    /* First pass. */
    for (size_t k = 0; k < toks.len; k++) {
        TkPTok *t = &toks.items[k];
        const char *w = s + t->start;
        size_t l = t->len;
        bool all_dots = l >= 2;
        for (size_t j = 0; j < l && all_dots; j++) all_dots = w[j] == '.';
        if (l == 1 && (w[0] == '.' || w[0] == '?' || w[0] == '!')) {
            t->sentbreak = true;
        } else if (all_dots) {
            t->ellipsis = true;
        } else if (w[l - 1] == '.' && !(l >= 2 && w[l - 2] == '.')) {
            const char *dash = NULL;
            for (size_t j = 0; j + 1 < l; j++)
                if (w[j] == '-') dash = w + j;
            bool ab = tk__is_abbrev(w, l - 1) || (dash && tk__is_abbrev(dash + 1, (size_t)(w + l - 1 - dash - 1)));
            if (ab)
                t->abbr = true;
            else
                t->sentbreak = true;
        }
    }
    /* Second pass (only initials and numbers can change without trained statistics), then
     * "is there a break before the last token". */
    bool found = false, result = false;
    for (size_t k = 0; k < toks.len; k++) {
        TkPTok *t = &toks.items[k];
        const char *w = s + t->start;
        size_t l = t->len;
        if (k + 1 < toks.len && w[l - 1] == '.') {
            const TkPTok *t2 = &toks.items[k + 1];
            const char *w2 = s + t2->start;
            bool initial = tk__initial(w, l);
            bool number = tk__numeric(w, l);
            if (initial || number) {
                size_t adv;
                uint32_t c2 = tk__cp(w2, t2->len, 0, &adv);
                bool punct = t2->len == 1 && strchr(";:,.!?", w2[0]) && w2[0];
                if (punct || tk__lower(c2)) {
                    t->sentbreak = false;
                    t->abbr = true;
                } else if (initial && tk__upper(c2)) {
                    t->sentbreak = false;
                    t->abbr = true;
                }
            }
        }
        if (found) {
            result = true;
            break;
        }
        if (t->sentbreak) found = true;
    }
    gb_array_free(&toks);
    return result;
}

/* Python's string.whitespace (ASCII only). */
static bool tk__ascii_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c';
}

typedef struct {
    size_t pos;      /* index of the sentence-end character */
    size_t next_tok; /* start of the next token, or SIZE_MAX when after_tok is punctuation */
    size_t ctx_end;  /* end of after_tok */
    size_t word_start;
} TkCand;

void gb_punkt_sentences(GbTokenizer *tk, const char *s, size_t n)
{
    tk->spans.len = 0;
    GbArray(TkCand) cands = {0};
    /* period_context_re matches */
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c != '.' && c != '?' && c != '!') continue;
        if (i + 1 >= n) continue;
        TkCand cd = {.pos = i, .next_tok = SIZE_MAX};
        size_t adv;
        if (tk__nonword(s[i + 1])) {
            cd.ctx_end = i + 2;
        } else if (tk__space_at(s, n, i + 1, &adv)) {
            size_t k = i + 1;
            while (k < n && tk__space_at(s, n, k, &adv)) k += adv;
            if (k >= n) continue;
            size_t e = k;
            while (e < n && !tk__space_at(s, n, e, &adv)) e += adv;
            cd.next_tok = k;
            cd.ctx_end = e;
        } else {
            continue;
        }
        gb_array_push(&cands, cd);
    }
    /* _match_potential_end_contexts: previous word, dropping overlapping candidates. */
    GbArray(TkCand) ctx = {0};
    size_t prev_start = 0, prev_stop = 0;
    bool have_prev = false;
    TkCand prev = {0};
    for (size_t k = 0; k < cands.len; k++) {
        TkCand m = cands.items[k];
        size_t last_ws = 0; /* _get_last_whitespace_index of text[prev_stop:m.pos] */
        for (size_t j = m.pos; j > prev_stop; j--) {
            if (tk__ascii_ws(s[j - 1])) {
                last_ws = j - 1 - prev_stop;
                break;
            }
        }
        size_t ws_start = last_ws ? prev_stop + last_ws + 1 : prev_start;
        if (have_prev && prev_stop <= ws_start) {
            prev.word_start = prev_start;
            gb_array_push(&ctx, prev);
        }
        prev = m;
        have_prev = true;
        prev_start = ws_start;
        prev_stop = m.pos;
    }
    if (have_prev) {
        prev.word_start = prev_start;
        gb_array_push(&ctx, prev);
    }
    /* _slices_from_text */
    GbArray(size_t) slices = {0};
    size_t last_break = 0;
    for (size_t k = 0; k < ctx.len; k++) {
        TkCand m = ctx.items[k];
        if (tk__contains_sentbreak(s + m.word_start, m.ctx_end - m.word_start)) {
            gb_array_push(&slices, last_break);
            gb_array_push(&slices, m.pos + 1);
            last_break = m.next_tok != SIZE_MAX ? m.next_tok : m.pos + 1;
        }
    }
    size_t end = n, adv;
    while (end > 0) {
        size_t p = tk__prev(s, end);
        if (!tk__space_at(s, n, p, &adv)) break;
        end = p;
    }
    gb_array_push(&slices, last_break);
    gb_array_push(&slices, end);
    /* _realign_boundaries */
    size_t realign = 0;
    size_t ns = slices.len / 2;
    for (size_t k = 0; k < ns; k++) {
        size_t s1a = slices.items[2 * k] + realign, s1b = slices.items[2 * k + 1];
        if (k + 1 == ns) {
            if (s1b > s1a) {
                gb_array_push(&tk->spans, s1a);
                gb_array_push(&tk->spans, s1b);
            }
            continue;
        }
        size_t s2a = slices.items[2 * k + 2], s2b = slices.items[2 * k + 3];
        /* re_boundary_realignment: ["\')\]}]+?(?:\s+|(?=--)|$) (MULTILINE), matched at s2a. */
        size_t mlen = 0, mend = 0;
        bool matched = false;
        for (size_t q = s2a; q < s2b && strchr("\"')]}", s[q]) && s[q]; q++) {
            size_t r = q + 1;
            if (r < s2b && tk__space_at(s, s2b, r, &adv)) {
                size_t w = r;
                while (w < s2b && tk__space_at(s, s2b, w, &adv)) w += adv;
                mlen = r - s2a;
                mend = w - s2a;
                matched = true;
            } else if (r + 1 < s2b && s[r] == '-' && s[r + 1] == '-') {
                mlen = mend = r - s2a;
                matched = true;
            } else if (r == s2b) {
                mlen = mend = r - s2a;
                matched = true;
            }
            if (matched) break;
        }
        if (matched) {
            gb_array_push(&tk->spans, s1a);
            gb_array_push(&tk->spans, s2a + mlen);
            realign = mend;
        } else {
            realign = 0;
            if (s1b > s1a) {
                gb_array_push(&tk->spans, s1a);
                gb_array_push(&tk->spans, s1b);
            }
        }
    }
    gb_array_free(&slices);
    gb_array_free(&ctx);
    gb_array_free(&cands);
}

size_t gb_word_tokenize(GbTokenizer *tk, const char *text, size_t len, GbTokenFn fn, void *ctx)
{
    gb_punkt_sentences(tk, text, len);
    size_t count = 0;
    /* Copy the spans: gb_treebank_tokenize does not touch tk->spans, but keep the loop simple. */
    for (size_t k = 0; k + 1 < tk->spans.len; k += 2) {
        size_t a = tk->spans.items[k], b = tk->spans.items[k + 1];
        count += gb_treebank_tokenize(tk, text + a, b - a, fn, ctx);
    }
    return count;
}

void gb_tokenizer_init(GbTokenizer *tk)
{
    memset(tk, 0, sizeof *tk);
    gb_str_init(&tk->a);
    gb_str_init(&tk->b);
}

void gb_tokenizer_destroy(GbTokenizer *tk)
{
    gb_str_destroy(&tk->a);
    gb_str_destroy(&tk->b);
    gb_array_free(&tk->spans);
    gb_array_free(&tk->cand);
}
