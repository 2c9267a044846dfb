/* CodeBLEU's comment and docstring removal (remove_comments_and_docstrings): a port of
 * Python 3.11's pure-Python tokenize (the package runs it through `tokenize.generate_tokens`)
 * feeding the package's output loop. Python 3.12 replaced tokenize with the C tokenizer
 * (f-strings become FSTRING_* tokens and are then no longer dropped as docstrings); we follow
 * 3.11, the Python of Debian 12. Columns are code points, as in Python. Non-ASCII characters
 * count as word characters (\w), which is right for identifiers and irrelevant inside strings
 * and comments. */
#include "src/measure/codebleu_private.h"

#include <string.h>

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

/* The tokenizer's state over the whole source (tokenize.py's generate_tokens locals). */
typedef struct {
    const char *src;
    size_t len;
    CbStripOut o;
    GbArray(long) indents;
    long lnum;
    int parenlev;
    bool continued, contstr, needcont, contq_triple, failed;
    char contq;
    size_t cont_start;         /* source offset where the continued string starts */
    long str_line, str_col;    /* where it starts, in lines and code points */
    size_t off;                /* start of the next line */
    size_t line_off, line_len; /* the current line */
    size_t last_off, last_len; /* the line before it */
    bool have_line;
} CbTok;

/* What to do with the current line after its first step. */
typedef enum { CB_LINE_TOKENS, CB_LINE_NEXT, CB_LINE_STOP } CbLineStep;

/* readline(): the next line (empty at the end). */
static void cb__tok_next_line(CbTok *t)
{
    t->last_off = t->line_off;
    t->last_len = t->have_line ? t->line_len : 0;
    if (t->off < t->len) {
        const char *nl = memchr(t->src + t->off, '\n', t->len - t->off);
        t->line_off = t->off;
        t->line_len = nl ? (size_t)(nl - (t->src + t->off)) + 1 : t->len - t->off;
        t->off += t->line_len;
    } else {
        t->line_off = t->len;
        t->line_len = 0;
    }
    t->have_line = true;
    t->lnum++;
}

/* A line inside a string continued from an earlier line (contstr). */
static CbLineStep cb__tok_string_cont(CbTok *t, const char *line, size_t max, size_t *pos)
{
    if (!max) {
        t->failed = true; /* TokenError: EOF in multi-line string */
        return CB_LINE_STOP;
    }
    long end = cb__endprog(line, 0, max, t->contq, t->contq_triple);
    if (end >= 0) {
        *pos = (size_t)end;
        cb__out_token(&t->o, CB_STRING, t->str_line, t->str_col, t->lnum, cb__cp(line, *pos), t->src + t->cont_start,
                      t->line_off + *pos - t->cont_start);
        t->contstr = t->needcont = false;
        return CB_LINE_TOKENS;
    }
    if (t->needcont && !(max >= 2 && line[max - 2] == '\\' && line[max - 1] == '\n') &&
        !(max >= 3 && line[max - 3] == '\\' && line[max - 2] == '\r' && line[max - 1] == '\n')) {
        cb__out_token(&t->o, CB_ERRORTOKEN, t->str_line, t->str_col, t->lnum, cb__cp(line, max), t->src + t->cont_start,
                      t->line_off + max - t->cont_start);
        t->contstr = false;
    }
    return CB_LINE_NEXT;
}

/* The start of a new statement's line: its indentation (INDENT/DEDENT), or a comment or
 * blank line (COMMENT, NL). */
static CbLineStep cb__tok_line_start(CbTok *t, const char *line, size_t max, size_t *pos_out)
{
    if (!max) return CB_LINE_STOP;
    size_t pos = 0;
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
    if (pos == max) return CB_LINE_STOP;
    long lnum = t->lnum;
    if (line[pos] == '#' || line[pos] == '\r' || line[pos] == '\n') {
        if (line[pos] == '#') {
            size_t e = max;
            while (e > pos && (line[e - 1] == '\r' || line[e - 1] == '\n')) e--;
            long c0 = cb__cp(line, pos);
            cb__out_token(&t->o, CB_COMMENT, lnum, c0, lnum, c0 + cb__cp(line + pos, e - pos), line + pos, e - pos);
            pos = e;
        }
        cb__out_token(&t->o, CB_NL, lnum, cb__cp(line, pos), lnum, cb__cp(line, max), line + pos, max - pos);
        return CB_LINE_NEXT;
    }
    if (column > t->indents.items[t->indents.len - 1]) {
        gb_array_push(&t->indents, column);
        cb__out_token(&t->o, CB_INDENT, lnum, 0, lnum, cb__cp(line, pos), line, pos);
    }
    while (column < t->indents.items[t->indents.len - 1]) {
        bool known = false;
        for (size_t k = 0; k < t->indents.len; k++) known |= t->indents.items[k] == column;
        if (!known) {
            t->failed = true; /* IndentationError: unindent does not match */
            return CB_LINE_STOP;
        }
        t->indents.len--;
        long c = cb__cp(line, pos);
        cb__out_token(&t->o, CB_DEDENT, lnum, c, lnum, c, "", 0);
    }
    *pos_out = pos;
    return CB_LINE_TOKENS;
}

/* PseudoToken at start (whitespace already skipped): false when nothing matches; else the
 * token's end, whether it opens a triple-quoted string and whether it is a backslash
 * continuation. */
static bool cb__tok_match(const char *line, size_t start, size_t max, size_t *end_out, bool *triple, bool *is_cont)
{
    size_t end = start;
    bool matched = true;
    int plen;
    if (start < max && line[start] == '\\' &&
        ((start + 1 < max && line[start + 1] == '\n') ||
         (start + 2 < max && line[start + 1] == '\r' && line[start + 2] == '\n'))) {
        end = start + (line[start + 1] == '\n' ? 2 : 3);
        *is_cont = true;
    } else if (start == max) {
        end = start; /* \Z */
    } else if (line[start] == '#') {
        end = start;
        while (end < max && line[end] != '\r' && line[end] != '\n') end++;
    } else if ((plen = cb__string_prefix(line + start, max - start)) >= 0 && start + plen + 2 < max &&
               line[start + plen + 1] == line[start + plen] && line[start + plen + 2] == line[start + plen]) {
        end = start + plen + 3;
        *triple = true;
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
    *end_out = end;
    return matched;
}

/* A string that goes on past this line: remember where it started. */
static void cb__tok_open_string(CbTok *t, size_t start, long sc, char q, bool triple)
{
    t->str_line = t->lnum;
    t->str_col = sc;
    t->cont_start = t->line_off + start;
    t->contstr = true;
    t->contq = q;
    t->contq_triple = triple;
    t->needcont = !triple;
}

/* The token line[start, end): its type and output. *pos may move past a triple-quoted
 * string. False when a string goes on past this line (the rest of the line is its). */
static bool cb__tok_emit(CbTok *t, const char *line, size_t start, size_t end, size_t *pos, size_t max, bool triple,
                         bool is_cont)
{
    long lnum = t->lnum, sc = cb__cp(line, start), ec = sc + cb__cp(line + start, end - start);
    const char *tok = line + start;
    size_t tlen = end - start;
    unsigned char initial = (unsigned char)tok[0];
    if (cb__digit(initial) || (initial == '.' && !(tlen == 1 || (tlen == 3 && memcmp(tok, "...", 3) == 0)))) {
        cb__out_token(&t->o, CB_NUMBER, lnum, sc, lnum, ec, tok, tlen);
    } else if (initial == '\r' || initial == '\n') {
        cb__out_token(&t->o, t->parenlev > 0 ? CB_NL : CB_NEWLINE, lnum, sc, lnum, ec, tok, tlen);
    } else if (initial == '#') {
        cb__out_token(&t->o, CB_COMMENT, lnum, sc, lnum, ec, tok, tlen);
    } else if (triple) {
        char q = tok[tlen - 1];
        long e = cb__endprog(line, *pos, max, q, true);
        if (e < 0) {
            cb__tok_open_string(t, start, sc, q, true);
            return false;
        }
        *pos = (size_t)e;
        cb__out_token(&t->o, CB_STRING, lnum, sc, lnum, cb__cp(line, *pos), tok, *pos - start);
    } else if (initial == '\'' || initial == '"' || cb__string_prefix(tok, tlen) > 0) {
        if (tok[tlen - 1] == '\n') {
            cb__tok_open_string(t, start, sc, tok[cb__string_prefix(tok, tlen)], false);
            return false;
        }
        cb__out_token(&t->o, CB_STRING, lnum, sc, lnum, ec, tok, tlen);
    } else if (is_cont) {
        t->continued = true;
    } else if (cb__word(initial)) {
        cb__out_token(&t->o, CB_NAME, lnum, sc, lnum, ec, tok, tlen);
    } else {
        if (initial == '(' || initial == '[' || initial == '{') t->parenlev++;
        if (initial == ')' || initial == ']' || initial == '}') t->parenlev--;
        cb__out_token(&t->o, CB_OP, lnum, sc, lnum, ec, tok, tlen);
    }
    return true;
}

/* The tokens of line[pos, max). */
static void cb__tok_line_tokens(CbTok *t, const char *line, size_t pos, size_t max)
{
    while (pos < max) {
        size_t start = pos;
        while (start < max && (line[start] == ' ' || line[start] == '\f' || line[start] == '\t')) start++;
        size_t end;
        bool triple = false, is_cont = false;
        if (!cb__tok_match(line, start, max, &end, &triple, &is_cont)) {
            size_t adv;
            cb__decode((const unsigned char *)line + pos, max - pos, &adv);
            long c = cb__cp(line, pos);
            cb__out_token(&t->o, CB_ERRORTOKEN, t->lnum, c, t->lnum, c + 1, line + pos, adv);
            pos += adv;
            continue;
        }
        pos = end;
        if (start == end) continue;
        if (!cb__tok_emit(t, line, start, end, &pos, max, triple, is_cont)) break;
    }
}

/* After the last line: the implicit NEWLINE after a last line without one (unless it is a
 * comment line), then a DEDENT per open indentation. */
static void cb__tok_finish(CbTok *t)
{
    const char *src = t->src;
    size_t last_off = t->last_off, last_len = t->last_len;
    if (last_len && src[last_off + last_len - 1] != '\n' && src[last_off + last_len - 1] != '\r') {
        size_t a, b;
        cb__py_strip(src + last_off, last_len, &a, &b);
        if (!(b > a && src[last_off + a] == '#')) {
            long c = cb__cp(src + last_off, last_len);
            cb__out_token(&t->o, CB_NEWLINE, t->lnum - 1, c, t->lnum - 1, c + 1, "", 0);
        }
    }
    for (size_t k = 1; k < t->indents.len; k++) cb__out_token(&t->o, CB_DEDENT, t->lnum, 0, t->lnum, 0, "", 0);
}

/* The package's last step: whitespace-only lines dropped, the rest joined with "\n".
 * Returns an owned string. */
static char *cb__drop_blank_lines(const GbStr *out)
{
    GbStr res;
    gb_str_init(&res);
    gb_str_append(&res, "");
    const char *p = out->data, *end = out->data + out->len;
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
    return gb_str_take(&res);
}

char *gb_codebleu_strip_comments(const char *src, size_t len)
{
    CbTok t;
    memset(&t, 0, sizeof t);
    t.src = src;
    t.len = len;
    gb_str_init(&t.o.out);
    gb_str_append(&t.o.out, "");
    t.o.prev = CB_INDENT;
    t.o.last_lineno = -1;
    t.o.last_col = 0;
    gb_array_push(&t.indents, 0L);
    for (;;) {
        cb__tok_next_line(&t);
        const char *line = src + t.line_off;
        size_t pos = 0, max = t.line_len;
        CbLineStep step;
        if (t.contstr) {
            step = cb__tok_string_cont(&t, line, max, &pos);
        } else if (t.parenlev == 0 && !t.continued) {
            step = cb__tok_line_start(&t, line, max, &pos);
        } else if (!max) {
            t.failed = true; /* TokenError: EOF in multi-line statement */
            step = CB_LINE_STOP;
        } else {
            t.continued = false;
            step = CB_LINE_TOKENS;
        }
        if (step == CB_LINE_STOP) break;
        if (step == CB_LINE_TOKENS) cb__tok_line_tokens(&t, line, pos, max);
    }
    char *res = NULL;
    if (!t.failed) {
        cb__tok_finish(&t);
        res = cb__drop_blank_lines(&t.o.out);
    }
    gb_array_free(&t.indents);
    gb_str_destroy(&t.o.out);
    return res;
}
