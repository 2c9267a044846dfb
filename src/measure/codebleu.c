#include "src/measure/codebleu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* ------------------------------------------------------------------------------------------
 * Small helpers: Python's notion of whitespace, UTF-8, hashing, a uint64 -> uint32 map.
 * ------------------------------------------------------------------------------------------ */

/* Decode one UTF-8 code point at s (len bytes available); *adv gets its byte length.
 * Invalid bytes decode as themselves, one byte long. */
static uint32_t cb__decode(const unsigned char *s, size_t len, size_t *adv)
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
static bool cb__py_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* Python's s.strip(): the byte range [*a, *b) of s without leading/trailing whitespace. */
static void cb__py_strip(const char *s, size_t len, size_t *a, size_t *b)
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

static bool cb__blank(const char *s, size_t len)
{
    size_t a, b;
    cb__py_strip(s, len, &a, &b);
    return a == b;
}

/* Number of code points in s[0, off): Python's str columns. */
static long cb__cp(const char *s, size_t off)
{
    long n = 0;
    for (size_t i = 0; i < off; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static uint64_t cb__mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Open-addressing map from uint64 keys to uint32 values. */
typedef struct {
    uint64_t *keys;
    uint32_t *vals;
    unsigned char *used;
    size_t cap, len;
} CbMap;

static void cb__map_init(CbMap *m, size_t expect)
{
    size_t cap = 16;
    while (cap < expect * 2) cap *= 2;
    m->keys = gb_malloc(cap * sizeof *m->keys);
    m->vals = gb_malloc(cap * sizeof *m->vals);
    m->used = gb_calloc(cap, 1);
    m->cap = cap;
    m->len = 0;
}

static void cb__map_destroy(CbMap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
}

static uint32_t *cb__map_slot(CbMap *m, uint64_t key, bool *found);

static void cb__map_grow(CbMap *m)
{
    CbMap n;
    cb__map_init(&n, m->cap);
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        bool f;
        *cb__map_slot(&n, m->keys[i], &f) = m->vals[i];
    }
    cb__map_destroy(m);
    *m = n;
}

/* The value slot of key, inserting it (value unset) when absent. */
static uint32_t *cb__map_slot(CbMap *m, uint64_t key, bool *found)
{
    if ((m->len + 1) * 2 > m->cap) cb__map_grow(m);
    size_t i = cb__mix(key) & (m->cap - 1);
    while (m->used[i]) {
        if (m->keys[i] == key) {
            *found = true;
            return &m->vals[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->len++;
    *found = false;
    return &m->vals[i];
}

static const uint32_t *cb__map_get(const CbMap *m, uint64_t key)
{
    size_t i = cb__mix(key) & (m->cap - 1);
    while (m->used[i]) {
        if (m->keys[i] == key) return &m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* A key with its multiplicity (and, for unigrams, the package's keyword weight). */
typedef struct {
    uint64_t key;
    uint32_t count;
    float weight;
} CbCount;

static int cb__cmp_count(const void *a, const void *b)
{
    uint64_t x = ((const CbCount *)a)->key, y = ((const CbCount *)b)->key;
    return x < y ? -1 : x > y;
}

static int cb__cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort keys and collapse equal ones into counts. Returns the number of distinct keys; the
 * counts array (owned) goes to *out. */
static size_t cb__count_keys(uint64_t *keys, size_t n, CbCount **out)
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

/* ------------------------------------------------------------------------------------------
 * remove_comments_and_docstrings: a port of Python 3.11's pure-Python tokenize (the package
 * runs it through `tokenize.generate_tokens`) feeding the package's output loop. Python 3.12
 * replaced tokenize with the C tokenizer (f-strings become FSTRING_* tokens and are then no
 * longer dropped as docstrings); we follow 3.11, the Python of Debian 12.
 * Columns are code points, as in Python. Non-ASCII characters count as word characters
 * (\w), which is right for identifiers and irrelevant inside strings and comments.
 * ------------------------------------------------------------------------------------------ */

enum { CB_COMMENT, CB_NL, CB_NEWLINE, CB_INDENT, CB_DEDENT, CB_STRING, CB_NAME, CB_NUMBER, CB_OP, CB_ERRORTOKEN };

typedef struct {
    GbStr out;
    int prev;
    long last_lineno, last_col;
} CbStripOut;

/* The package's loop body for one token. */
static void cb__out_token(CbStripOut *o, int type, long sl, long sc, long el, long ec, const char *text, size_t tlen)
{
    if (sl > o->last_lineno) o->last_col = 0;
    for (long i = o->last_col; i < sc; i++) gb_str_append_n(&o->out, " ", 1);
    if (type == CB_COMMENT) {
        /* dropped */
    } else if (type == CB_STRING) {
        /* A docstring is a string right after INDENT or NEWLINE, or one starting at column 0
         * (a string after a comment line follows NL, so it is kept: the package's rule). */
        if (o->prev != CB_INDENT && o->prev != CB_NEWLINE && sc > 0) gb_str_append_n(&o->out, text, tlen);
    } else {
        gb_str_append_n(&o->out, text, tlen);
    }
    o->prev = type;
    o->last_col = ec;
    o->last_lineno = el;
}

static bool cb__word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static bool cb__digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Length of a valid string prefix (b, r, u, f, br, rb, fr, rf; any case) at s followed by a
 * quote, or -1. */
static int cb__string_prefix(const char *s, size_t avail)
{
    for (int plen = 0; plen <= 2 && (size_t)plen < avail; plen++) {
        char q = s[plen];
        if (q != '\'' && q != '"') continue;
        if (plen == 0) return 0;
        char a = (char)(s[0] | 0x20), b = plen == 2 ? (char)(s[1] | 0x20) : 0;
        if (plen == 1 && (a == 'b' || a == 'r' || a == 'u' || a == 'f')) return 1;
        if (plen == 2 &&
            ((a == 'b' && b == 'r') || (a == 'r' && b == 'b') || (a == 'f' && b == 'r') || (a == 'r' && b == 'f')))
            return 2;
        return -1;
    }
    return -1;
}

/* `[0-9](?:_?[0-9])*` at i: the end, or i when no match. */
static size_t cb__digitpart(const char *s, size_t i, size_t max)
{
    if (i >= max || !cb__digit((unsigned char)s[i])) return i;
    i++;
    for (;;) {
        if (i < max && cb__digit((unsigned char)s[i])) {
            i++;
        } else if (i + 1 < max && s[i] == '_' && cb__digit((unsigned char)s[i + 1])) {
            i += 2;
        } else {
            return i;
        }
    }
}

static size_t cb__exponent(const char *s, size_t i, size_t max)
{
    if (i >= max || (s[i] != 'e' && s[i] != 'E')) return i;
    size_t j = i + 1;
    if (j < max && (s[j] == '+' || s[j] == '-')) j++;
    size_t k = cb__digitpart(s, j, max);
    return k == j ? i : k;
}

/* Floatnumber: Pointfloat (digits '.' digits? | '.' digits) exponent?, or Expfloat. */
static size_t cb__float(const char *s, size_t i, size_t max)
{
    size_t d = cb__digitpart(s, i, max);
    if (d > i && d < max && s[d] == '.') return cb__exponent(s, cb__digitpart(s, d + 1, max), max);
    if (d == i && i < max && s[i] == '.') {
        size_t f = cb__digitpart(s, i + 1, max);
        if (f > i + 1) return cb__exponent(s, f, max);
        return i;
    }
    if (d > i) {
        size_t e = cb__exponent(s, d, max);
        if (e > d) return e;
    }
    return i;
}

/* Python's Number = Imagnumber | Floatnumber | Intnumber, first alternative that matches. */
static size_t cb__number(const char *s, size_t i, size_t max)
{
    size_t d = cb__digitpart(s, i, max);
    if (d > i && d < max && (s[d] == 'j' || s[d] == 'J')) return d + 1;
    size_t f = cb__float(s, i, max);
    if (f > i && f < max && (s[f] == 'j' || s[f] == 'J')) return f + 1;
    if (f > i) return f;
    if (i + 2 < max + 1 && s[i] == '0' && i + 1 < max) {
        char x = (char)(s[i + 1] | 0x20);
        const char *set = x == 'x' ? "0123456789abcdefABCDEF" : x == 'b' ? "01" : x == 'o' ? "01234567" : NULL;
        if (set) {
            size_t j = i + 2, k = j;
            for (;;) {
                if (k < max && s[k] && strchr(set, s[k])) {
                    k++;
                } else if (k + 1 < max && s[k] == '_' && s[k + 1] && strchr(set, s[k + 1])) {
                    k += 2;
                } else {
                    break;
                }
            }
            if (k > j) return k;
        }
    }
    if (i < max && s[i] == '0') {
        size_t k = i + 1;
        for (;;) {
            if (k < max && s[k] == '0') {
                k++;
            } else if (k + 1 < max && s[k] == '_' && s[k + 1] == '0') {
                k += 2;
            } else {
                break;
            }
        }
        return k;
    }
    return d;
}

/* Operators of Python 3.11's EXACT_TOKEN_TYPES (longest match, as the reverse-sorted
 * alternation gives). */
static size_t cb__operator(const char *s, size_t i, size_t max)
{
    static const char *const three[] = {"**=", "...", "//=", "<<=", ">>="};
    static const char *const two[] = {"!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=",
                                      ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|="};
    if (i + 3 <= max)
        for (size_t k = 0; k < sizeof three / sizeof three[0]; k++)
            if (memcmp(s + i, three[k], 3) == 0) return i + 3;
    if (i + 2 <= max)
        for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
            if (memcmp(s + i, two[k], 2) == 0) return i + 2;
    if (i < max && s[i] && strchr("%&()*+,-./:;<=>@[]^{|}~", s[i])) return i + 1;
    return i;
}

/* ContStr at i (prefix known): quote, body, then the closing quote or a backslash-newline.
 * Returns the end or i when no match. */
static size_t cb__contstr(const char *s, size_t i, size_t max, int plen)
{
    char q = s[i + plen];
    size_t k = i + plen + 1;
    while (k < max) {
        char c = s[k];
        if (c == '\n') return i;
        if (c == q) return k + 1;
        if (c == '\\') {
            if (k + 1 < max && s[k + 1] == '\n') return k + 2;
            if (k + 2 < max && s[k + 1] == '\r' && s[k + 2] == '\n') return k + 3;
            if (k + 1 < max) {
                k += 2;
                continue;
            }
            return i;
        }
        k++;
    }
    return i;
}

/* endpats: the end of a string whose opening was already consumed, searched from i in one
 * line. triple: ''' or """; otherwise the single quote. Returns the end or -1. */
static long cb__endprog(const char *s, size_t i, size_t max, char q, bool triple)
{
    while (i < max) {
        char c = s[i];
        if (c == '\\') {
            if (i + 1 < max && s[i + 1] != '\n') {
                i += 2;
                continue;
            }
            return -1;
        }
        if (c == q) {
            if (!triple) return (long)i + 1;
            if (i + 2 < max && s[i + 1] == q && s[i + 2] == q) return (long)i + 3;
        }
        i++;
    }
    return -1;
}

char *gb_codebleu_strip_comments(const char *src, size_t len)
{
    CbStripOut o;
    gb_str_init(&o.out);
    gb_str_append(&o.out, "");
    o.prev = CB_INDENT;
    o.last_lineno = -1;
    o.last_col = 0;

    GbArray(long) indents = {0};
    gb_array_push(&indents, 0L);
    long lnum = 0;
    int parenlev = 0;
    bool continued = false, contstr = false, needcont = false, contq_triple = false, failed = false;
    char contq = 0;
    size_t cont_start = 0; /* source offset where the continued string starts */
    long str_line = 0, str_col = 0;
    size_t off = 0;                    /* start of the next line */
    size_t line_off = 0, line_len = 0; /* the current line */
    size_t last_off = 0, last_len = 0; /* the line before it */
    bool have_line = false;

    for (;;) {
        last_off = line_off;
        last_len = have_line ? line_len : 0;
        if (off < len) {
            const char *nl = memchr(src + off, '\n', len - off);
            line_off = off;
            line_len = nl ? (size_t)(nl - (src + off)) + 1 : len - off;
            off += line_len;
        } else {
            line_off = len;
            line_len = 0;
        }
        have_line = true;
        lnum++;
        const char *line = src + line_off;
        size_t pos = 0, max = line_len;

        if (contstr) {
            if (!line_len) {
                failed = true; /* TokenError: EOF in multi-line string */
                break;
            }
            long end = cb__endprog(line, 0, max, contq, contq_triple);
            if (end >= 0) {
                pos = (size_t)end;
                cb__out_token(&o, CB_STRING, str_line, str_col, lnum, cb__cp(line, pos), src + cont_start,
                              line_off + pos - cont_start);
                contstr = needcont = false;
            } else if (needcont && !(max >= 2 && line[max - 2] == '\\' && line[max - 1] == '\n') &&
                       !(max >= 3 && line[max - 3] == '\\' && line[max - 2] == '\r' && line[max - 1] == '\n')) {
                cb__out_token(&o, CB_ERRORTOKEN, str_line, str_col, lnum, cb__cp(line, max), src + cont_start,
                              line_off + max - cont_start);
                contstr = false;
                continue;
            } else {
                continue;
            }
        } else if (parenlev == 0 && !continued) {
            if (!line_len) break;
            long column = 0;
            while (pos < max) {
                if (line[pos] == ' ') {
                    column++;
                } else if (line[pos] == '\t') {
                    column = (column / 8 + 1) * 8;
                } else if (line[pos] == '\f') {
                    column = 0;
                } else {
                    break;
                }
                pos++;
            }
            if (pos == max) break;
            if (line[pos] == '#' || line[pos] == '\r' || line[pos] == '\n') {
                if (line[pos] == '#') {
                    size_t e = max;
                    while (e > pos && (line[e - 1] == '\r' || line[e - 1] == '\n')) e--;
                    long c0 = cb__cp(line, pos);
                    cb__out_token(&o, CB_COMMENT, lnum, c0, lnum, c0 + cb__cp(line + pos, e - pos), line + pos,
                                  e - pos);
                    pos = e;
                }
                cb__out_token(&o, CB_NL, lnum, cb__cp(line, pos), lnum, cb__cp(line, max), line + pos, max - pos);
                continue;
            }
            if (column > indents.items[indents.len - 1]) {
                gb_array_push(&indents, column);
                cb__out_token(&o, CB_INDENT, lnum, 0, lnum, cb__cp(line, pos), line, pos);
            }
            while (column < indents.items[indents.len - 1]) {
                bool known = false;
                for (size_t k = 0; k < indents.len; k++) known |= indents.items[k] == column;
                if (!known) {
                    failed = true; /* IndentationError: unindent does not match */
                    break;
                }
                indents.len--;
                long c = cb__cp(line, pos);
                cb__out_token(&o, CB_DEDENT, lnum, c, lnum, c, "", 0);
            }
            if (failed) break;
        } else {
            if (!line_len) {
                failed = true; /* TokenError: EOF in multi-line statement */
                break;
            }
            continued = false;
        }

        while (pos < max) {
            size_t start = pos;
            while (start < max && (line[start] == ' ' || line[start] == '\f' || line[start] == '\t')) start++;
            size_t end = start;
            bool matched = true, triple = false, is_cont = false;
            int plen;
            if (start < max && line[start] == '\\' &&
                ((start + 1 < max && line[start + 1] == '\n') ||
                 (start + 2 < max && line[start + 1] == '\r' && line[start + 2] == '\n'))) {
                end = start + (line[start + 1] == '\n' ? 2 : 3);
                is_cont = true;
            } else if (start == max) {
                end = start; /* \Z */
            } else if (line[start] == '#') {
                end = start;
                while (end < max && line[end] != '\r' && line[end] != '\n') end++;
            } else if ((plen = cb__string_prefix(line + start, max - start)) >= 0 && start + plen + 2 < max &&
                       line[start + plen + 1] == line[start + plen] && line[start + plen + 2] == line[start + plen]) {
                end = start + plen + 3;
                triple = true;
            } else if ((cb__digit((unsigned char)line[start]) ||
                        (line[start] == '.' && start + 1 < max && cb__digit((unsigned char)line[start + 1]))) &&
                       (end = cb__number(line, start, max)) > start) {
                /* number */
            } else if (line[start] == '\n') {
                end = start + 1;
            } else if (line[start] == '\r' && start + 1 < max && line[start + 1] == '\n') {
                end = start + 2;
            } else if ((end = cb__operator(line, start, max)) > start) {
                /* operator */
            } else if ((plen = cb__string_prefix(line + start, max - start)) >= 0 &&
                       (end = cb__contstr(line, start, max, plen)) > start) {
                /* single-quoted string, maybe continued */
            } else if (cb__word((unsigned char)line[start])) {
                end = start;
                while (end < max && cb__word((unsigned char)line[end])) end++;
            } else {
                matched = false;
            }
            if (!matched) {
                size_t adv;
                cb__decode((const unsigned char *)line + pos, max - pos, &adv);
                long c = cb__cp(line, pos);
                cb__out_token(&o, CB_ERRORTOKEN, lnum, c, lnum, c + 1, line + pos, adv);
                pos += adv;
                continue;
            }
            pos = end;
            if (start == end) continue;
            long sc = cb__cp(line, start), ec = sc + cb__cp(line + start, end - start);
            const char *tok = line + start;
            size_t tlen = end - start;
            unsigned char initial = (unsigned char)tok[0];
            if (cb__digit(initial) || (initial == '.' && !(tlen == 1 || (tlen == 3 && memcmp(tok, "...", 3) == 0)))) {
                cb__out_token(&o, CB_NUMBER, lnum, sc, lnum, ec, tok, tlen);
            } else if (initial == '\r' || initial == '\n') {
                cb__out_token(&o, parenlev > 0 ? CB_NL : CB_NEWLINE, lnum, sc, lnum, ec, tok, tlen);
            } else if (initial == '#') {
                cb__out_token(&o, CB_COMMENT, lnum, sc, lnum, ec, tok, tlen);
            } else if (triple) {
                char q = tok[tlen - 1];
                long e = cb__endprog(line, pos, max, q, true);
                if (e >= 0) {
                    pos = (size_t)e;
                    cb__out_token(&o, CB_STRING, lnum, sc, lnum, cb__cp(line, pos), tok, pos - start);
                } else {
                    str_line = lnum;
                    str_col = sc;
                    cont_start = line_off + start;
                    contstr = true;
                    contq = q;
                    contq_triple = true;
                    needcont = false;
                    break;
                }
            } else if (initial == '\'' || initial == '"' || cb__string_prefix(tok, tlen) > 0) {
                if (tok[tlen - 1] == '\n') {
                    str_line = lnum;
                    str_col = sc;
                    cont_start = line_off + start;
                    contstr = true;
                    contq = tok[cb__string_prefix(tok, tlen)];
                    contq_triple = false;
                    needcont = true;
                    break;
                }
                cb__out_token(&o, CB_STRING, lnum, sc, lnum, ec, tok, tlen);
            } else if (is_cont) {
                continued = true;
            } else if (cb__word(initial)) {
                cb__out_token(&o, CB_NAME, lnum, sc, lnum, ec, tok, tlen);
            } else {
                if (initial == '(' || initial == '[' || initial == '{') parenlev++;
                if (initial == ')' || initial == ']' || initial == '}') parenlev--;
                cb__out_token(&o, CB_OP, lnum, sc, lnum, ec, tok, tlen);
            }
        }
    }
    if (failed) {
        gb_array_free(&indents);
        gb_str_destroy(&o.out);
        return NULL;
    }
    /* The implicit NEWLINE after a last line without one (unless it is a comment line). */
    if (last_len && src[last_off + last_len - 1] != '\n' && src[last_off + last_len - 1] != '\r') {
        size_t a, b;
        cb__py_strip(src + last_off, last_len, &a, &b);
        if (!(b > a && src[last_off + a] == '#')) {
            long c = cb__cp(src + last_off, last_len);
            cb__out_token(&o, CB_NEWLINE, lnum - 1, c, lnum - 1, c + 1, "", 0);
        }
    }
    for (size_t k = 1; k < indents.len; k++) cb__out_token(&o, CB_DEDENT, lnum, 0, lnum, 0, "", 0);
    gb_array_free(&indents);

    /* Drop whitespace-only lines; join with "\n". */
    GbStr res;
    gb_str_init(&res);
    gb_str_append(&res, "");
    const char *p = o.out.data, *end = o.out.data + o.out.len;
    bool first = true;
    while (p <= end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        if (!cb__blank(p, (size_t)(e - p))) {
            if (!first) gb_str_append_n(&res, "\n", 1);
            gb_str_append_n(&res, p, (size_t)(e - p));
            first = false;
        }
        if (!nl) break;
        p = nl + 1;
    }
    gb_str_destroy(&o.out);
    return gb_str_take(&res);
}

/* ------------------------------------------------------------------------------------------
 * Data flow: a port of the package's DFG_python and get_data_flow.
 * ------------------------------------------------------------------------------------------ */

/* Python's default recursion limit is 1000 frames; DFG_python recurses once per tree level
 * and a RecursionError is caught by get_data_flow (empty graph). The package's own frames
 * below it take a few; the exact limit depends on the caller's stack. */
#define CB_PY_DEPTH_LIMIT 990
/* Work budget in node visits: the package walks every for/while body twice, so nested loops
 * cost 2^depth; beyond this we give up as if the package had failed. */
#define CB_DFG_BUDGET 4000000L

enum { CB_COMES_FROM = 0, CB_COMPUTED_FROM = 1 };

/* A leaf of tree_to_token_index: position key, interned text, token index. */
typedef struct {
    uint32_t code; /* interned text id */
    uint32_t idx;  /* token index */
} CbLeaf;

typedef GbArray(const CbLeaf *) CbLeafVec;
typedef GbArray(TSNode) CbNodeVec;
typedef GbArray(uint32_t) CbU32Vec;
typedef GbArray(uint64_t) CbU64Vec;

/* An immutable sorted list of token indices (a `states` value). */
typedef struct {
    uint32_t n;
    uint32_t v[];
} CbList;

typedef struct {
    uint32_t code, idx;
    uint8_t rel;
    uint32_t names_off, names_n; /* parent texts (code ids) in the names pool */
    uint32_t idxs_off, idxs_n;   /* parent token indices in the idxs pool */
} CbEdge;

typedef struct {
    GbArray(const char *) line_ptr; /* code.split("\n") */
    GbArray(size_t) line_len;
    GbArray(bool) line_ascii; /* byte columns are code-point columns */
    CbMap pos2leaf;           /* (start_byte, end_byte) -> leaf index (last one wins) */
    GbArray(CbLeaf) leaves;
    CbMap text2code;           /* text hash -> code id */
    GbArray(char *) code_text; /* code id -> text (owned) */
    GbArray(CbList *) lists;   /* every allocated state list (owned) */
    CbList **single;           /* per token index: the list [idx] (owned via lists) */
    GbArray(CbEdge) edges;
    GbArray(uint32_t) names;
    GbArray(uint32_t) idxs;
    long visits;
    bool abort;
} CbDfg;

static uint64_t cb__pos_key(TSNode n)
{
    return ((uint64_t)ts_node_start_byte(n) << 32) | ts_node_end_byte(n);
}

static bool cb__is_leaf(TSNode n, const char *type)
{
    return (ts_node_child_count(n) == 0 || strcmp(type, "string_literal") == 0 || strcmp(type, "string") == 0 ||
            strcmp(type, "character_literal") == 0) &&
           strcmp(type, "comment") != 0;
}

/* index_to_code_token: the package slices Python str lines with tree-sitter's *byte*
 * columns, so on non-ASCII lines the text is taken by code-point index. Lines of a
 * multi-line token are joined without their newlines. */
static void cb__slice_cp(const char *line, size_t len, bool ascii, long a, long b, const char **out, size_t *out_len)
{
    if (ascii) {
        size_t ia = a < 0 ? 0 : (size_t)a > len ? len : (size_t)a, ib = b < 0 ? 0 : (size_t)b > len ? len : (size_t)b;
        if (ib < ia) ib = ia;
        *out = line + ia;
        *out_len = ib - ia;
        return;
    }
    size_t ncp = (size_t)cb__cp(line, len);
    size_t ia = a < 0 ? 0 : (size_t)a, ib = b < 0 ? 0 : (size_t)b;
    if (ia > ncp) ia = ncp;
    if (ib > ncp) ib = ncp;
    if (ib < ia) ib = ia;
    /* byte offset of code point k */
    size_t off = 0, cp = 0, boff_a = len, boff_b = len;
    for (off = 0; off <= len; off++) {
        if (off == len || ((unsigned char)line[off] & 0xC0) != 0x80) {
            if (cp == ia) boff_a = off;
            if (cp == ib) {
                boff_b = off;
                break;
            }
            cp++;
        }
    }
    if (boff_a > boff_b) boff_a = boff_b;
    *out = line + boff_a;
    *out_len = boff_b - boff_a;
}

static void cb__token_text(const CbDfg *g, TSNode n, GbStr *s)
{
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    gb_str_clear(s);
    gb_str_append(s, "");
    size_t nl = g->line_ptr.len;
    const char *p;
    size_t plen;
    if (a.row == b.row) {
        if (a.row < nl) {
            cb__slice_cp(g->line_ptr.items[a.row], g->line_len.items[a.row], g->line_ascii.items[a.row], a.column,
                         b.column, &p, &plen);
            gb_str_append_n(s, p, plen);
        }
        return;
    }
    if (a.row < nl) {
        cb__slice_cp(g->line_ptr.items[a.row], g->line_len.items[a.row], g->line_ascii.items[a.row], a.column, 1L << 40,
                     &p, &plen);
        gb_str_append_n(s, p, plen);
    }
    for (uint32_t r = a.row + 1; r < b.row && r < nl; r++)
        gb_str_append_n(s, g->line_ptr.items[r], g->line_len.items[r]);
    if (b.row < nl) {
        cb__slice_cp(g->line_ptr.items[b.row], g->line_len.items[b.row], g->line_ascii.items[b.row], 0, b.column, &p,
                     &plen);
        gb_str_append_n(s, p, plen);
    }
}

static uint32_t cb__intern(CbDfg *g, const char *text, size_t len)
{
    uint64_t h = gb_hash64(text, len, 0x636f6465ULL);
    bool found;
    uint32_t *slot = cb__map_slot(&g->text2code, h, &found);
    if (!found) {
        *slot = (uint32_t)g->code_text.len;
        gb_array_push(&g->code_text, gb_strndup(text, len));
    }
    return *slot;
}

/* tree_to_token_index, iterative (depth is checked separately). */
static void cb__collect_leaves(CbDfg *g, TSNode root, GbStr *tmp)
{
    GbArray(TSNode) stack = {0};
    gb_array_push(&stack, root);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        const char *type = ts_node_type(n);
        if (cb__is_leaf(n, type)) {
            cb__token_text(g, n, tmp);
            CbLeaf leaf = {cb__intern(g, tmp->data, tmp->len), (uint32_t)g->leaves.len};
            bool found;
            *cb__map_slot(&g->pos2leaf, cb__pos_key(n), &found) = (uint32_t)g->leaves.len;
            gb_array_push(&g->leaves, leaf);
            continue;
        }
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = c; i > 0; i--) gb_array_push(&stack, ts_node_child(n, i - 1));
    }
    gb_array_free(&stack);
}

static const CbLeaf *cb__leaf(const CbDfg *g, TSNode n)
{
    const uint32_t *i = cb__map_get(&g->pos2leaf, cb__pos_key(n));
    return i ? &g->leaves.items[*i] : NULL;
}

static bool cb__type_is_text(const CbDfg *g, TSNode n, const CbLeaf *l)
{
    return strcmp(ts_node_type(n), g->code_text.items[l->code]) == 0;
}

/* tree_to_variable_index: leaves under n whose text differs from their node type. */
static void cb__var_leaves(const CbDfg *g, TSNode n, CbLeafVec *out)
{
    const char *type = ts_node_type(n);
    if (cb__is_leaf(n, type)) {
        const CbLeaf *l = cb__leaf(g, n);
        if (l && !cb__type_is_text(g, n, l)) gb_array_push(out, l);
        return;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) cb__var_leaves(g, ts_node_child(n, i), out);
}

static CbList *cb__list_new(CbDfg *g, uint32_t n)
{
    CbList *l = gb_malloc(sizeof *l + n * sizeof l->v[0]);
    l->n = n;
    gb_array_push(&g->lists, l);
    return l;
}

static void cb__emit(CbDfg *g, uint32_t code, uint32_t idx, uint8_t rel, const uint32_t *names, uint32_t nn,
                     const uint32_t *idxs, uint32_t ni)
{
    CbEdge e = {code, idx, rel, (uint32_t)g->names.len, nn, (uint32_t)g->idxs.len, ni};
    for (uint32_t i = 0; i < nn; i++) gb_array_push(&g->names, names[i]);
    for (uint32_t i = 0; i < ni; i++) gb_array_push(&g->idxs, idxs[i]);
    gb_array_push(&g->edges, e);
}

typedef CbList **CbStates; /* code id -> list or NULL; size = number of code ids */

static CbStates cb__states_clone(const CbDfg *g, CbStates st)
{
    CbStates c = gb_malloc((g->code_text.len ? g->code_text.len : 1) * sizeof *c);
    memcpy(c, st, g->code_text.len * sizeof *c);
    return c;
}

static int cb__cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Stable sort of edges [from, edges.len) by token index (insertion sort on runs is too slow
 * for big ranges: merge sort through a buffer). */
static void cb__sort_edges(CbDfg *g, size_t from)
{
    size_t n = g->edges.len - from;
    if (n < 2) return;
    CbEdge *a = g->edges.items + from;
    CbEdge *buf = gb_malloc(n * sizeof *buf);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) buf[k++] = a[j].idx < a[i].idx ? a[j++] : a[i++];
            while (i < mid) buf[k++] = a[i++];
            while (j < hi) buf[k++] = a[j++];
        }
        memcpy(a, buf, n * sizeof *a);
    }
    free(buf);
}

/* The for/while merge: edges of [from, end) with the same (text, index, relation) become one
 * whose parent texts are the union (package: list(set(...)), hash-ordered; here first
 * appearance) and parent indices the sorted union; then sorted by index (stable). */
static void cb__merge_loop(CbDfg *g, size_t from)
{
    size_t n = g->edges.len - from;
    if (n < 2) return;
    CbMap seen;
    cb__map_init(&seen, n);
    GbArray(CbEdge) out = {0};
    GbArray(CbU32Vec) nm = {0}, ix = {0};
    for (size_t i = from; i < g->edges.len; i++) {
        CbEdge e = g->edges.items[i];
        uint64_t key = ((uint64_t)e.code << 33) ^ ((uint64_t)e.idx << 1) ^ e.rel;
        bool found;
        uint32_t *slot = cb__map_slot(&seen, key, &found);
        if (!found) {
            *slot = (uint32_t)out.len;
            gb_array_push(&out, e);
            CbU32Vec a = {0}, b = {0};
            gb_array_push(&nm, a);
            gb_array_push(&ix, b);
        }
        size_t k = *slot;
        for (uint32_t j = 0; j < e.names_n; j++) {
            uint32_t v = g->names.items[e.names_off + j];
            bool dup = false;
            if (found)
                for (size_t t = 0; t < nm.items[k].len && !dup; t++) dup = nm.items[k].items[t] == v;
            if (!dup) gb_array_push(&nm.items[k], v);
        }
        for (uint32_t j = 0; j < e.idxs_n; j++) gb_array_push(&ix.items[k], g->idxs.items[e.idxs_off + j]);
    }
    cb__map_destroy(&seen);
    g->edges.len = from;
    for (size_t k = 0; k < out.len; k++) {
        /* sorted(set(idxs)) */
        if (ix.items[k].len > 1) qsort(ix.items[k].items, ix.items[k].len, sizeof(uint32_t), cb__cmp_u32);
        size_t m = 0;
        for (size_t t = 0; t < ix.items[k].len; t++)
            if (!m || ix.items[k].items[m - 1] != ix.items[k].items[t]) ix.items[k].items[m++] = ix.items[k].items[t];
        cb__emit(g, out.items[k].code, out.items[k].idx, out.items[k].rel, nm.items[k].items, (uint32_t)nm.items[k].len,
                 ix.items[k].items, (uint32_t)m);
        gb_array_free(&nm.items[k]);
        gb_array_free(&ix.items[k]);
    }
    gb_array_free(&out);
    gb_array_free(&nm);
    gb_array_free(&ix);
    cb__sort_edges(g, from);
}

/* Children of n except "," (the package's `[x for x in node.children if x.type != ","]`). */
static void cb__children_no_comma(TSNode n, CbNodeVec *out)
{
    out->len = 0;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) != GB_NK_COMMA) gb_array_push(out, ch);
    }
}

static void cb__dfg(CbDfg *g, TSNode n, CbStates st, int depth);

/* computedFrom edges for each (left, right) pair, then states[left] = [idx]. */
static void cb__assign_pairs(CbDfg *g, const TSNode *left, const TSNode *right, size_t npairs, CbStates st)
{
    CbLeafVec L = {0}, R = {0};
    CbU32Vec rn = {0}, ri = {0};
    for (size_t p = 0; p < npairs; p++) {
        L.len = R.len = rn.len = ri.len = 0;
        cb__var_leaves(g, left[p], &L);
        cb__var_leaves(g, right[p], &R);
        for (size_t j = 0; j < R.len; j++) {
            gb_array_push(&rn, R.items[j]->code);
            gb_array_push(&ri, R.items[j]->idx);
        }
        for (size_t i = 0; i < L.len; i++) {
            cb__emit(g, L.items[i]->code, L.items[i]->idx, CB_COMPUTED_FROM, rn.items, (uint32_t)rn.len, ri.items,
                     (uint32_t)ri.len);
            st[L.items[i]->code] = g->single[L.items[i]->idx];
        }
    }
    gb_array_free(&L);
    gb_array_free(&R);
    gb_array_free(&rn);
    gb_array_free(&ri);
}

/* The package's left/right node lists of an assignment or for statement. */
static void cb__sides(TSNode left, TSNode right, CbNodeVec *lefts, CbNodeVec *rights)
{
    cb__children_no_comma(left, lefts);
    cb__children_no_comma(right, rights);
    if (lefts->len != rights->len) {
        lefts->len = rights->len = 0;
        gb_array_push(lefts, left);
        gb_array_push(rights, right);
    }
    if (lefts->len == 0) gb_array_push(lefts, left);
    if (rights->len == 0) gb_array_push(rights, right);
}

static void cb__dfg(CbDfg *g, TSNode n, CbStates st, int depth)
{
    if (g->abort) return;
    if (depth > CB_PY_DEPTH_LIMIT || ++g->visits > CB_DFG_BUDGET) {
        g->abort = true;
        return;
    }
    const char *type = ts_node_type(n);
    if (cb__is_leaf(n, type)) {
        const CbLeaf *l = cb__leaf(g, n);
        if (!l || cb__type_is_text(g, n, l)) return;
        if (st[l->code]) {
            CbList *s = st[l->code];
            cb__emit(g, l->code, l->idx, CB_COMES_FROM, &l->code, 1, s->v, s->n);
        } else {
            if (strcmp(type, "identifier") == 0) st[l->code] = g->single[l->idx];
            cb__emit(g, l->code, l->idx, CB_COMES_FROM, NULL, 0, NULL, 0);
        }
        return;
    }
    if (strcmp(type, "default_parameter") == 0) {
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        TSNode value = ts_node_child_by_field_name(n, "value", 5);
        if (ts_node_is_null(name)) {
            g->abort = true; /* the package raises (None has no children) */
            return;
        }
        CbLeafVec N = {0}, V = {0};
        cb__var_leaves(g, name, &N);
        if (ts_node_is_null(value)) {
            for (size_t i = 0; i < N.len; i++) {
                cb__emit(g, N.items[i]->code, N.items[i]->idx, CB_COMES_FROM, NULL, 0, NULL, 0);
                st[N.items[i]->code] = g->single[N.items[i]->idx];
            }
        } else {
            cb__var_leaves(g, value, &V);
            cb__dfg(g, value, st, depth + 1);
            for (size_t i = 0; i < N.len; i++) {
                for (size_t j = 0; j < V.len; j++)
                    cb__emit(g, N.items[i]->code, N.items[i]->idx, CB_COMES_FROM, &V.items[j]->code, 1,
                             &V.items[j]->idx, 1);
                st[N.items[i]->code] = g->single[N.items[i]->idx];
            }
        }
        gb_array_free(&N);
        gb_array_free(&V);
        return;
    }
    bool is_for_in = strcmp(type, "for_in_clause") == 0;
    if (is_for_in || strcmp(type, "assignment") == 0 || strcmp(type, "augmented_assignment") == 0) {
        CbNodeVec lefts = {0}, rights = {0};
        if (is_for_in) {
            uint32_t c = ts_node_child_count(n);
            TSNode left = ts_node_child_by_field_name(n, "left", 4);
            if (c == 0 || ts_node_is_null(left)) {
                g->abort = true;
                return;
            }
            gb_array_push(&rights, ts_node_child(n, c - 1));
            gb_array_push(&lefts, left);
        } else {
            TSNode right = ts_node_child_by_field_name(n, "right", 5);
            if (ts_node_is_null(right)) return;
            TSNode left = ts_node_child_by_field_name(n, "left", 4);
            if (ts_node_is_null(left)) {
                g->abort = true;
                return;
            }
            cb__sides(left, right, &lefts, &rights);
        }
        for (size_t i = 0; i < rights.len; i++) cb__dfg(g, rights.items[i], st, depth + 1);
        size_t np = lefts.len < rights.len ? lefts.len : rights.len;
        cb__assign_pairs(g, lefts.items, rights.items, np, st);
        gb_array_free(&lefts);
        gb_array_free(&rights);
        return;
    }
    if (strcmp(type, "if_statement") == 0) {
        size_t ncodes = g->code_text.len;
        CbStates cur = cb__states_clone(g, st);
        GbArray(CbStates) others = {0};
        bool tag = false;
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode ch = ts_node_child(n, i);
            const char *ct = ts_node_type(ch);
            if (strstr(ct, "else")) tag = true;
            if (strcmp(ct, "elif_clause") != 0 && strcmp(ct, "else_clause") != 0) {
                cb__dfg(g, ch, cur, depth + 1);
            } else {
                CbStates branch = cb__states_clone(g, st);
                cb__dfg(g, ch, branch, depth + 1);
                gb_array_push(&others, branch);
            }
        }
        gb_array_push(&others, cur);
        if (!tag) gb_array_push(&others, cb__states_clone(g, st));
        /* new_states[key] = sorted(set(union of the branches' lists)) */
        GbArray(uint32_t) tmp = {0};
        for (size_t k = 0; k < ncodes; k++) {
            CbList *only = NULL;
            bool same = true, any = false;
            for (size_t b = 0; b < others.len; b++) {
                CbList *l = others.items[b][k];
                if (!l) continue;
                if (!any) {
                    only = l;
                    any = true;
                } else if (l != only) {
                    same = false;
                }
            }
            if (!any) {
                st[k] = NULL;
                continue;
            }
            if (same) {
                st[k] = only;
                continue;
            }
            tmp.len = 0;
            for (size_t b = 0; b < others.len; b++) {
                CbList *l = others.items[b][k];
                if (l)
                    for (uint32_t t = 0; t < l->n; t++) gb_array_push(&tmp, l->v[t]);
            }
            if (tmp.len > 1) qsort(tmp.items, tmp.len, sizeof(uint32_t), cb__cmp_u32);
            size_t m = 0;
            for (size_t t = 0; t < tmp.len; t++)
                if (!m || tmp.items[m - 1] != tmp.items[t]) tmp.items[m++] = tmp.items[t];
            CbList *l = cb__list_new(g, (uint32_t)m);
            memcpy(l->v, tmp.items, m * sizeof(uint32_t));
            st[k] = l;
        }
        gb_array_free(&tmp);
        for (size_t b = 0; b < others.len; b++) free(others.items[b]);
        gb_array_free(&others);
        return;
    }
    if (strcmp(type, "for_statement") == 0) {
        size_t from = g->edges.len;
        TSNode left = ts_node_child_by_field_name(n, "left", 4);
        TSNode right = ts_node_child_by_field_name(n, "right", 5);
        if (ts_node_is_null(left) || ts_node_is_null(right)) {
            g->abort = true;
            return;
        }
        uint32_t c = ts_node_child_count(n);
        TSNode last = ts_node_child(n, c - 1);
        bool body = gb_node_kind(last) == GB_NK_BLOCK; /* not walked when there is an else */
        CbNodeVec lefts = {0}, rights = {0};
        for (int pass = 0; pass < 2; pass++) {
            cb__sides(left, right, &lefts, &rights);
            for (size_t i = 0; i < rights.len; i++) cb__dfg(g, rights.items[i], st, depth + 1);
            size_t np = lefts.len < rights.len ? lefts.len : rights.len;
            cb__assign_pairs(g, lefts.items, rights.items, np, st);
            if (body) cb__dfg(g, last, st, depth + 1);
        }
        gb_array_free(&lefts);
        gb_array_free(&rights);
        if (!g->abort) cb__merge_loop(g, from);
        return;
    }
    if (strcmp(type, "while_statement") == 0) {
        size_t from = g->edges.len;
        uint32_t c = ts_node_child_count(n);
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t i = 0; i < c; i++) cb__dfg(g, ts_node_child(n, i), st, depth + 1);
        if (!g->abort) cb__merge_loop(g, from);
        return;
    }
    /* Anything else: for_in_clause children first, then the others. */
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) == GB_NK_FOR_IN_CLAUSE) cb__dfg(g, ch, st, depth + 1);
    }
    for (uint32_t i = 0; i < c; i++) {
        TSNode ch = ts_node_child(n, i);
        if (gb_node_kind(ch) != GB_NK_FOR_IN_CLAUSE) cb__dfg(g, ch, st, depth + 1);
    }
}

static int cb__tree_depth(TSNode root)
{
    int maxd = 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    int d = 1;
    maxd = 1;
    for (;;) {
        if (ts_tree_cursor_goto_first_child(&cur)) {
            d++;
            if (d > maxd) maxd = d;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return maxd;
            }
            d--;
        }
    }
}

/* get_data_flow + normalize_dataflow: the normalised items of code as hashed keys. Returns
 * false when the walk was aborted (the items are then empty, as in the package). */
static bool cb__dataflow_items(TSTree *tree, const char *code, CbU64Vec *items)
{
    items->len = 0;
    TSNode root = ts_tree_root_node(tree);
    CbDfg g;
    memset(&g, 0, sizeof g);
    for (const char *p = code;;) {
        const char *nl = strchr(p, '\n');
        gb_array_push(&g.line_ptr, p);
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        bool ascii = true;
        for (size_t k = 0; k < ll && ascii; k++) ascii = (unsigned char)p[k] < 0x80;
        gb_array_push(&g.line_len, ll);
        gb_array_push(&g.line_ascii, ascii);
        if (!nl) break;
        p = nl + 1;
    }
    cb__map_init(&g.pos2leaf, 256);
    cb__map_init(&g.text2code, 256);
    bool ok = cb__tree_depth(root) <= CB_PY_DEPTH_LIMIT;
    if (ok) {
        GbStr tmp;
        gb_str_init(&tmp);
        cb__collect_leaves(&g, root, &tmp);
        gb_str_destroy(&tmp);
        g.single = gb_malloc((g.leaves.len ? g.leaves.len : 1) * sizeof *g.single);
        for (size_t i = 0; i < g.leaves.len; i++) {
            CbList *l = cb__list_new(&g, 1);
            l->v[0] = (uint32_t)i;
            g.single[i] = l;
        }
        CbStates st = gb_calloc(g.code_text.len ? g.code_text.len : 1, sizeof *st);
        cb__dfg(&g, root, st, 1);
        free(st);
        ok = !g.abort;
    }
    if (ok) {
        cb__sort_edges(&g, 0);
        /* Keep edges whose index has parents or is someone's parent. */
        size_t nleaves = g.leaves.len;
        unsigned char *keep = gb_calloc(nleaves ? nleaves : 1, 1);
        for (size_t i = 0; i < g.edges.len; i++) {
            const CbEdge *e = &g.edges.items[i];
            if (e->idxs_n) keep[e->idx] = 1;
            for (uint32_t j = 0; j < e->idxs_n; j++) keep[g.idxs.items[e->idxs_off + j]] = 1;
        }
        /* Merge by index (later text and relation win; parent texts united in first-appearance
         * order where the package uses a hash-ordered set), then normalise var names. */
        GbArray(CbEdge) merged = {0};
        GbArray(CbU32Vec) mnames = {0};
        for (size_t i = 0; i < g.edges.len; i++) {
            const CbEdge *e = &g.edges.items[i];
            if (!keep[e->idx]) continue;
            if (merged.len && merged.items[merged.len - 1].idx == e->idx) {
                CbEdge *m = &merged.items[merged.len - 1];
                m->code = e->code;
                m->rel = e->rel;
                CbU32Vec *nm = &mnames.items[mnames.len - 1];
                for (uint32_t j = 0; j < e->names_n; j++) {
                    uint32_t v = g.names.items[e->names_off + j];
                    bool dup = false;
                    for (size_t t = 0; t < nm->len && !dup; t++) dup = nm->items[t] == v;
                    if (!dup) gb_array_push(nm, v);
                }
                /* A merged list is a set: drop duplicates the first edge itself carried. */
                size_t m2 = 0;
                for (size_t t = 0; t < nm->len; t++) {
                    bool dup = false;
                    for (size_t u = 0; u < m2 && !dup; u++) dup = nm->items[u] == nm->items[t];
                    if (!dup) nm->items[m2++] = nm->items[t];
                }
                nm->len = m2;
            } else {
                gb_array_push(&merged, *e);
                CbU32Vec nm = {0};
                for (uint32_t j = 0; j < e->names_n; j++) gb_array_push(&nm, g.names.items[e->names_off + j]);
                gb_array_push(&mnames, nm);
            }
        }
        free(keep);
        uint32_t *var = gb_malloc((g.code_text.len ? g.code_text.len : 1) * sizeof *var);
        for (size_t k = 0; k < g.code_text.len; k++) var[k] = UINT32_MAX;
        uint32_t next = 0;
        GbArray(uint64_t) buf = {0};
        for (size_t i = 0; i < merged.len; i++) {
            const CbEdge *e = &merged.items[i];
            for (size_t j = 0; j < mnames.items[i].len; j++) {
                uint32_t c = mnames.items[i].items[j];
                if (var[c] == UINT32_MAX) var[c] = next++;
            }
            if (var[e->code] == UINT32_MAX) var[e->code] = next++;
            buf.len = 0;
            gb_array_push(&buf, (uint64_t)var[e->code]);
            gb_array_push(&buf, (uint64_t)e->rel);
            gb_array_push(&buf, (uint64_t)mnames.items[i].len);
            for (size_t j = 0; j < mnames.items[i].len; j++)
                gb_array_push(&buf, (uint64_t)var[mnames.items[i].items[j]]);
            gb_array_push(items, gb_hash64(buf.items, buf.len * sizeof(uint64_t), 0x6466ULL));
            gb_array_free(&mnames.items[i]);
        }
        gb_array_free(&buf);
        gb_array_free(&mnames);
        gb_array_free(&merged);
        free(var);
    }
    for (size_t i = 0; i < g.lists.len; i++) free(g.lists.items[i]);
    gb_array_free(&g.lists);
    free(g.single);
    for (size_t i = 0; i < g.code_text.len; i++) free(g.code_text.items[i]);
    gb_array_free(&g.code_text);
    gb_array_free(&g.leaves);
    gb_array_free(&g.edges);
    gb_array_free(&g.names);
    gb_array_free(&g.idxs);
    gb_array_free(&g.line_ptr);
    gb_array_free(&g.line_len);
    gb_array_free(&g.line_ascii);
    cb__map_destroy(&g.pos2leaf);
    cb__map_destroy(&g.text2code);
    return ok;
}

/* ------------------------------------------------------------------------------------------
 * Syntax: the S-expression (ts_node_string) of the root and of every node with children.
 * ------------------------------------------------------------------------------------------ */

/* Strings are compared through a polynomial hash modulo 2^61-1 (about 4e-13 chance that
 * two of a thousand subtrees collide), mixed to 64 bits. A substring's hash comes from
 * prefix hashes in O(1), so the S-expression of every subtree can be taken from the root's
 * S-expression, which contains them all. */
#define CB_MOD ((1ULL << 61) - 1)
#define CB_BASE 1000003ULL

static uint64_t cb__mulmod(uint64_t a, uint64_t b)
{
    __uint128_t p = (__uint128_t)a * b;
    uint64_t lo = (uint64_t)(p & CB_MOD), hi = (uint64_t)(p >> 61);
    uint64_t r = lo + hi;
    return r >= CB_MOD ? r - CB_MOD : r;
}

typedef struct {
    uint64_t *p, *w; /* prefix hashes and powers of the base */
} CbPrefix;

static void cb__prefix_init(CbPrefix *h, const char *s, size_t len)
{
    h->p = gb_malloc((len + 1) * sizeof(uint64_t));
    h->w = gb_malloc((len + 1) * sizeof(uint64_t));
    h->p[0] = 0;
    h->w[0] = 1;
    for (size_t i = 0; i < len; i++) {
        uint64_t x = cb__mulmod(h->p[i], CB_BASE) + (unsigned char)s[i] + 1;
        h->p[i + 1] = x >= CB_MOD ? x - CB_MOD : x;
        h->w[i + 1] = cb__mulmod(h->w[i], CB_BASE);
    }
}

static void cb__prefix_destroy(CbPrefix *h)
{
    free(h->p);
    free(h->w);
}

/* The hash of s[a, b). */
static uint64_t cb__substring_hash(const CbPrefix *h, size_t a, size_t b)
{
    uint64_t x = h->p[b] + CB_MOD - cb__mulmod(h->p[a], h->w[b - a]);
    if (x >= CB_MOD) x -= CB_MOD;
    return cb__mix(x ^ ((uint64_t)(b - a) << 61));
}

static uint64_t cb__string_hash(const char *s)
{
    CbPrefix h;
    size_t len = strlen(s);
    cb__prefix_init(&h, s, len);
    uint64_t r = cb__substring_hash(&h, 0, len);
    cb__prefix_destroy(&h);
    return r;
}

/* Fallback: ts_node_string() of the root and of every node with children. */
static void cb__subtrees_exact(TSNode root, CbU64Vec *out)
{
    CbNodeVec stack = {0};
    gb_array_push(&stack, root);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        char *s = ts_node_string(n);
        gb_array_push(out, cb__string_hash(s));
        free(s);
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode ch = ts_node_child(n, i);
            if (ts_node_child_count(ch) > 0) gb_array_push(&stack, ch);
        }
    }
    gb_array_free(&stack);
}

/* Main path: ts_node_string(root) prints every named node as a parenthesised group, in
 * pre-order, so group k is the S-expression of the k-th named node of a pre-order walk. The
 * pairing is checked (same count, same type after each "("); quoted text (MISSING "x",
 * UNEXPECTED 'x', which may hold parentheses) or any disagreement falls back to per-node
 * ts_node_string(). Taking the groups from the root's string is not only faster: the 0.20.7
 * runtime's per-node ts_node_string() ignores the alias of a node built from a hidden rule
 * (the block of `if x: continue` prints as ("_simple_statements")(continue_statement)
 * ("_newline"); the `type` of `x: int` as ("expression")("primary_expression")(identifier)),
 * while the root's string, like newer runtimes that py-tree-sitter (the package's) bundles,
 * gives (block (continue_statement)) and (type (identifier)). Returns false for the
 * fallback. */
static bool cb__subtrees_fast(TSNode root, CbU64Vec *out)
{
    char *s = ts_node_string(root);
    size_t len = strlen(s);
    /* open[k], close[k]: the k-th group in order of its "(" */
    GbArray(size_t) open = {0}, close = {0}, stack = {0};
    bool ok = true;
    for (size_t i = 0; i < len && ok; i++) {
        if (s[i] == '(') {
            gb_array_push(&stack, open.len);
            gb_array_push(&open, i);
            gb_array_push(&close, (size_t)0);
        } else if (s[i] == ')') {
            if (!stack.len) {
                ok = false;
                break;
            }
            close.items[stack.items[--stack.len]] = i + 1;
        } else if (s[i] == '"' || s[i] == '\'') {
            ok = false; /* quoted text (MISSING "x", UNEXPECTED 'x') may hold parentheses */
        }
    }
    ok = ok && !stack.len;
    CbPrefix h = {0};
    if (ok) cb__prefix_init(&h, s, len);
    size_t k = 0;
    CbNodeVec walk = {0};
    gb_array_push(&walk, root);
    while (ok && walk.len) {
        TSNode n = walk.items[--walk.len];
        const char *type = ts_node_type(n);
        size_t tl = strlen(type);
        if (k >= open.len || open.items[k] + 1 + tl > len || memcmp(s + open.items[k] + 1, type, tl) != 0 ||
            (s[open.items[k] + 1 + tl] != ' ' && s[open.items[k] + 1 + tl] != ')')) {
            ok = false;
            break;
        }
        if (k == 0 || ts_node_child_count(n) > 0)
            gb_array_push(out, cb__substring_hash(&h, open.items[k], close.items[k]));
        k++;
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = c; i > 0; i--) gb_array_push(&walk, ts_node_named_child(n, i - 1));
    }
    ok = ok && k == open.len;
    if (h.p) cb__prefix_destroy(&h);
    gb_array_free(&walk);
    gb_array_free(&open);
    gb_array_free(&close);
    gb_array_free(&stack);
    free(s);
    return ok;
}

static void cb__subtrees(TSTree *tree, CbU64Vec *out)
{
    out->len = 0;
    TSNode root = ts_tree_root_node(tree);
    if (cb__subtrees_fast(root, out)) return;
    out->len = 0;
    cb__subtrees_exact(root, out);
}

/* ------------------------------------------------------------------------------------------
 * Documents.
 * ------------------------------------------------------------------------------------------ */

struct GbCodeBleuDoc {
    char *clean;    /* what syntax and dataflow see (comments/docstrings removed) */
    size_t ntok;    /* whitespace tokens */
    CbCount *ng[4]; /* n-gram counts, sorted by key; ng[0] carries keyword weights */
    size_t ng_len[4];
    CbCount *subs; /* subtree S-expression hashes with counts */
    size_t nsubs, sub_total;
    CbCount *dfg; /* normalised data-flow items with counts */
    size_t ndfg, dfg_total;
    bool df_truncated;
};

static void cb__doc_structure(GbCodeBleuDoc *d, TSParser *parser)
{
    CbU64Vec keys = {0};
    TSTree *tree = gb_parse(parser, d->clean, strlen(d->clean));
    cb__subtrees(tree, &keys);
    d->sub_total = keys.len;
    d->nsubs = cb__count_keys(keys.items, keys.len, &d->subs);
    d->df_truncated = !cb__dataflow_items(tree, d->clean, &keys);
    ts_tree_delete(tree);
    d->dfg_total = keys.len;
    d->ndfg = cb__count_keys(keys.items, keys.len, &d->dfg);
    gb_array_free(&keys);
}

/* remove_comments_and_docstrings with the package's fallback (keep the input on error). */
static char *cb__clean(const char *s)
{
    char *c = gb_codebleu_strip_comments(s, strlen(s));
    return c ? c : gb_strdup(s);
}

GbCodeBleuDoc *gb_codebleu_doc_new(TSParser *parser, const char *source)
{
    GbCodeBleuDoc *d = gb_calloc(1, sizeof *d);
    size_t len = strlen(source), a, b;
    cb__py_strip(source, len, &a, &b);
    char *stripped = gb_strndup(source + a, b - a);

    /* s.split(): whitespace tokens. */
    GbArray(uint64_t) th = {0};
    GbArray(float) tw = {0};
    const unsigned char *u = (const unsigned char *)stripped;
    size_t n = b - a, i = 0, adv;
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
        size_t cnt = th.len >= (size_t)(k + 1) ? th.len - (size_t)k : 0;
        uint64_t *keys = gb_malloc((cnt ? cnt : 1) * sizeof *keys);
        for (size_t j = 0; j < cnt; j++) {
            uint64_t h = (uint64_t)k + 1;
            for (int t = 0; t <= k; t++) h = cb__mix(h * 0x100000001B3ULL + th.items[j + (size_t)t]);
            keys[j] = h;
        }
        if (k == 0) {
            /* Keep the weight with its key: sort (key, weight) together. */
            CbCount *c = gb_malloc((cnt ? cnt : 1) * sizeof *c);
            for (size_t j = 0; j < cnt; j++) c[j] = (CbCount){keys[j], 1, tw.items[j]};
            qsort(c, cnt, sizeof *c, cb__cmp_count);
            size_t m = 0;
            for (size_t j = 0; j < cnt; j++) {
                if (m && c[m - 1].key == c[j].key) {
                    c[m - 1].count++;
                } else {
                    c[m++] = c[j];
                }
            }
            d->ng[0] = c;
            d->ng_len[0] = m;
        } else {
            d->ng_len[k] = cb__count_keys(keys, cnt, &d->ng[k]);
        }
        free(keys);
    }
    gb_array_free(&th);
    gb_array_free(&tw);

    d->clean = cb__clean(stripped);
    free(stripped);
    cb__doc_structure(d, parser);
    return d;
}

void gb_codebleu_doc_delete(GbCodeBleuDoc *d)
{
    if (!d) return;
    free(d->clean);
    for (int k = 0; k < 4; k++) free(d->ng[k]);
    free(d->subs);
    free(d->dfg);
    free(d);
}

bool gb_codebleu_doc_dataflow_truncated(const GbCodeBleuDoc *d)
{
    return d->df_truncated;
}

/* ------------------------------------------------------------------------------------------
 * Statistics and scores.
 * ------------------------------------------------------------------------------------------ */

/* Count of key in a sorted count array (binary search). */
static uint32_t cb__lookup(const CbCount *c, size_t n, uint64_t key)
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
static size_t cb__clipped(const CbCount *a, size_t na, const CbCount *b, size_t nb)
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

static void cb__pair_structure(GbCodeBleuStats *acc, const GbCodeBleuDoc *hyp, const GbCodeBleuDoc *ref)
{
    /* syntax: every reference subtree (with multiplicity) found anywhere in the hypothesis */
    size_t i = 0, j = 0;
    while (i < ref->nsubs && j < hyp->nsubs) {
        if (ref->subs[i].key < hyp->subs[j].key) {
            i++;
        } else if (ref->subs[i].key > hyp->subs[j].key) {
            j++;
        } else {
            acc->syntax_match += ref->subs[i].count;
            i++;
            j++;
        }
    }
    acc->syntax_total += (double)ref->sub_total;
    /* dataflow: multiset match; references without data flow add nothing */
    if (ref->dfg_total > 0) {
        acc->df_total += (double)ref->dfg_total;
        acc->df_match += (double)cb__clipped(ref->dfg, ref->ndfg, hyp->dfg, hyp->ndfg);
    }
}

void gb_codebleu_stats_add(GbCodeBleuStats *acc, TSParser *parser, const GbCodeBleuDoc *hyp,
                           const GbCodeBleuDoc *const *refs, size_t nrefs)
{
    size_t c = hyp->ntok;
    /* BLEU: hypothesis n-grams clipped by their maximum count in any reference. */
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

    /* Weighted n-gram recall, summed over references. */
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
    acc->w_hyp_len += (double)c;
    acc->w_ref_len += 2; /* len([tokens, weights]) */

    /* Syntax and dataflow: for the k-th reference the package has stripped the hypothesis
     * k+1 times. */
    const GbCodeBleuDoc *h = hyp;
    GbCodeBleuDoc *tmp = NULL;
    for (size_t r = 0; r < nrefs; r++) {
        if (r > 0) {
            GbCodeBleuDoc *next = gb_calloc(1, sizeof *next);
            next->clean = cb__clean(h->clean);
            cb__doc_structure(next, parser);
            gb_codebleu_doc_delete(tmp);
            tmp = next;
            h = tmp;
        }
        cb__pair_structure(acc, h, refs[r]);
    }
    gb_codebleu_doc_delete(tmp);
}

void gb_codebleu_stats_merge(GbCodeBleuStats *acc, const GbCodeBleuStats *o)
{
    for (int k = 0; k < 4; k++) {
        acc->bleu_num[k] += o->bleu_num[k];
        acc->bleu_den[k] += o->bleu_den[k];
        acc->w_num[k] += o->w_num[k];
        acc->w_den[k] += o->w_den[k];
    }
    acc->bleu_hyp_len += o->bleu_hyp_len;
    acc->bleu_ref_len += o->bleu_ref_len;
    acc->w_hyp_len += o->w_hyp_len;
    acc->w_ref_len += o->w_ref_len;
    acc->syntax_match += o->syntax_match;
    acc->syntax_total += o->syntax_total;
    acc->df_match += o->df_match;
    acc->df_total += o->df_total;
}

static double cb__brevity(double ref_len, double hyp_len)
{
    if (hyp_len > ref_len) return 1;
    if (hyp_len == 0) return 0;
    return exp(1 - ref_len / hyp_len);
}

/* Corpus BLEU-4 with uniform weights and Chen-Cherry method1 (epsilon 0.1). */
static double cb__bleu(const double *num, const double *den, double ref_len, double hyp_len)
{
    if (num[0] == 0) return 0;
    double s = 0;
    for (int k = 0; k < 4; k++) s += 0.25 * log((num[k] == 0 ? 0.1 : num[k]) / den[k]);
    return cb__brevity(ref_len, hyp_len) * exp(s);
}

void gb_codebleu_score(const GbCodeBleuStats *s, const GbCodeBleuOptions *o, GbCodeBleuScore *out)
{
    out->ngram = cb__bleu(s->bleu_num, s->bleu_den, s->bleu_ref_len, s->bleu_hyp_len);
    out->weighted_ngram = cb__bleu(s->w_num, s->w_den, s->w_ref_len, s->w_hyp_len);
    /* The package divides by zero here for an empty corpus; we give 0. */
    out->syntax = s->syntax_total > 0 ? s->syntax_match / s->syntax_total : 0;
    out->dataflow_defined = s->df_total > 0;
    out->dataflow = out->dataflow_defined ? s->df_match / s->df_total : 0;
    double df = out->dataflow;
    if (!o->strict_dataflow && df == 0) df = 1; /* `dataflow_match_score or 1` */
    out->codebleu = o->alpha * out->ngram + o->beta * out->weighted_ngram + o->gamma * out->syntax + o->delta * df;
}

void gb_codebleu_pair(TSParser *parser, const char *prediction, const char *const *references, size_t nrefs,
                      const GbCodeBleuOptions *o, GbCodeBleuScore *out)
{
    GbCodeBleuDoc *hyp = gb_codebleu_doc_new(parser, prediction);
    GbCodeBleuDoc **refs = gb_malloc((nrefs ? nrefs : 1) * sizeof *refs);
    for (size_t i = 0; i < nrefs; i++) refs[i] = gb_codebleu_doc_new(parser, references[i]);
    GbCodeBleuStats st;
    memset(&st, 0, sizeof st);
    gb_codebleu_stats_add(&st, parser, hyp, (const GbCodeBleuDoc *const *)refs, nrefs);
    gb_codebleu_score(&st, o, out);
    for (size_t i = 0; i < nrefs; i++) gb_codebleu_doc_delete(refs[i]);
    free(refs);
    gb_codebleu_doc_delete(hyp);
}

void gb_codebleu_options_default(GbCodeBleuOptions *o)
{
    o->alpha = o->beta = o->gamma = o->delta = 0.25;
    o->strict_dataflow = false;
}

bool gb_codebleu_parse_weights(const char *text, GbCodeBleuOptions *o)
{
    double w[4];
    const char *p = text;
    for (int i = 0; i < 4; i++) {
        char *end;
        w[i] = strtod(p, &end);
        if (end == p || !(w[i] >= 0) || !isfinite(w[i])) return false;
        p = end;
        if (i < 3) {
            if (*p != ',') return false;
            p++;
        }
    }
    if (*p) return false;
    o->alpha = w[0];
    o->beta = w[1];
    o->gamma = w[2];
    o->delta = w[3];
    return true;
}

size_t gb_codebleu_subtree_hashes(TSParser *parser, const char *code, bool exact, uint64_t **out)
{
    CbU64Vec keys = {0};
    TSTree *tree = gb_parse(parser, code, strlen(code));
    TSNode root = ts_tree_root_node(tree);
    if (exact) {
        cb__subtrees_exact(root, &keys);
    } else if (!cb__subtrees_fast(root, &keys)) {
        ts_tree_delete(tree);
        gb_array_free(&keys);
        *out = NULL;
        return SIZE_MAX;
    }
    ts_tree_delete(tree);
    if (keys.len > 1) qsort(keys.items, keys.len, sizeof(uint64_t), cb__cmp_u64);
    *out = keys.items ? keys.items : gb_malloc(1);
    return keys.len;
}
