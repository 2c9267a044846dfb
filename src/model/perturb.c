/* Type-preserving perturbation of literal arguments and stdin (perturb.h). */
#include "src/model/perturb.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"
#include "src/model/calls.h"
#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

#define GB_PERTURB_MAX_DEPTH 100

typedef struct {
    const char *src;
    GbRng *rng;
    GbStr *out;
    bool spread; /* grown inputs: an integer element's copies are shifted by their position */
} GbPerturb;

static void gb_perturb__copy(GbPerturb *p, TSNode n)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    gb_str_append_n(p->out, p->src + a, b - a);
}

/* The integer written in text (underscores allowed, any base); false when it does not fit. */
static bool gb_perturb__int_value(const char *text, size_t len, long long *v)
{
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '_') continue;
        if (k + 1 >= sizeof buf) return false;
        buf[k++] = text[i];
    }
    buf[k] = '\0';
    if (k > 1 && buf[0] == '0' && isdigit((unsigned char)buf[1])) return false; /* not Python */
    errno = 0;
    char *end;
    long long x = strtoll(buf, &end, 0);
    if (errno || *end || x > (1LL << 53) || x < -(1LL << 53)) return false;
    *v = x;
    return true;
}

static void gb_perturb__emit_int(GbPerturb *p, long long v)
{
    if (v < 0)
        gb_str_appendf(p->out, "(%lld)", v);
    else
        gb_str_appendf(p->out, "%lld", v);
}

static long long gb_perturb__int(GbRng *rng, long long v)
{
    long long r;
    switch (gb_rng_bounded(rng, 8)) {
    case 0:
        r = v + 1;
        break;
    case 1:
        r = v - 1;
        break;
    case 2:
        r = v + 2 + gb_rng_bounded(rng, 4);
        break;
    case 3:
        r = v - 2 - gb_rng_bounded(rng, 4);
        break;
    case 4:
        r = v * 2;
        break;
    case 5:
        r = v / 2;
        break;
    case 6:
        r = v + 1 + gb_rng_bounded(rng, 10);
        break;
    default:
        r = v;
        break;
    }
    if (v >= 0 && r < 0) r = -r;
    return r;
}

static void gb_perturb__emit_float(GbPerturb *p, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    if (v < 0)
        gb_str_appendf(p->out, "(%s)", buf);
    else
        gb_str_append(p->out, buf);
}

static double gb_perturb__float(GbRng *rng, double v)
{
    switch (gb_rng_bounded(rng, 6)) {
    case 0:
        return v * 0.5;
    case 1:
        return v * 1.5;
    case 2:
        return v + 0.25;
    case 3:
        return v + 1.0;
    case 4:
        return v - 0.5;
    default:
        return v;
    }
}

/* A number node (integer, float, or unary minus on one) perturbed; false when it is none. */
static bool gb_perturb__number(GbPerturb *p, TSNode n, bool perturb)
{
    bool neg = false;
    TSNode num = n;
    if (gb_node_is_kind(n, GB_NK_UNARY_OPERATOR) && ts_node_named_child_count(n) == 1) {
        TSNode op = ts_node_child(n, 0);
        if (!gb_node_text_eq(op, p->src, "-")) return false;
        num = ts_node_named_child(n, 0);
        neg = true;
    }
    uint32_t a = ts_node_start_byte(num), b = ts_node_end_byte(num);
    if (gb_node_is_kind(num, GB_NK_INTEGER)) {
        long long v;
        if (!gb_perturb__int_value(p->src + a, b - a, &v)) return false;
        if (neg) v = -v;
        gb_perturb__emit_int(p, perturb ? gb_perturb__int(p->rng, v) : v);
        return true;
    }
    if (gb_node_is_kind(num, GB_NK_FLOAT)) {
        char *t = gb_strndup(p->src + a, b - a);
        char *w = t;
        for (char *r = t; *r; r++)
            if (*r != '_') *w++ = *r;
        *w = '\0';
        char *end;
        double v = strtod(t, &end);
        bool ok = *end == '\0' && isfinite(v);
        free(t);
        if (!ok) return false;
        if (neg) v = -v;
        double r = perturb ? gb_perturb__float(p->rng, v) : v;
        if (!isfinite(r)) r = v;
        gb_perturb__emit_float(p, r);
        return true;
    }
    return false;
}

/* The units of a string's body: one escape sequence or one UTF-8 character each. */
typedef struct {
    uint32_t start, len;
} GbUnit;

static size_t gb_perturb__units(const char *s, size_t n, GbUnit *u)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t l = 1;
        if (s[i] == '\\' && i + 1 < n) {
            char c = s[i + 1];
            l = 2;
            size_t more = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
            if (c >= '0' && c <= '7') {
                while (l < 4 && i + l < n && s[i + l] >= '0' && s[i + l] <= '7') l++;
            } else if (c == 'N') {
                while (i + l < n && s[i + l - 1] != '}') l++;
            }
            l += more;
        } else {
            unsigned char c = (unsigned char)s[i];
            l = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        }
        if (i + l > n) l = n - i;
        u[k].start = (uint32_t)i;
        u[k].len = (uint32_t)l;
        k++;
        i += l;
    }
    return k;
}

static bool gb_perturb__plain_alnum(const char *s, GbUnit u)
{
    return u.len == 1 && isalnum((unsigned char)s[u.start]);
}

static char gb_perturb__same_class(GbRng *rng, char c)
{
    if (isdigit((unsigned char)c)) return (char)('0' + (c - '0' + 1 + gb_rng_bounded(rng, 9)) % 10);
    if (isupper((unsigned char)c)) return (char)('A' + (c - 'A' + 1 + gb_rng_bounded(rng, 25)) % 26);
    return (char)('a' + (c - 'a' + 1 + gb_rng_bounded(rng, 25)) % 26);
}

/* A string: the body's units edited once or twice (scale 1) or repeated scale times. */
static bool gb_perturb__string(GbPerturb *p, TSNode n, int scale)
{
    uint32_t nc = ts_node_child_count(n);
    if (nc < 2) return false;
    TSNode first = ts_node_child(n, 0), last = ts_node_child(n, nc - 1);
    if (!gb_node_is_kind(first, GB_NK_STRING_START) || !gb_node_is_kind(last, GB_NK_STRING_END)) return false;
    uint32_t s0 = ts_node_start_byte(first), s1 = ts_node_end_byte(first);
    for (uint32_t i = s0; i < s1; i++)
        if (p->src[i] == 'f' || p->src[i] == 'F') return false;
    uint32_t e0 = ts_node_start_byte(last);
    const char *body = p->src + s1;
    size_t blen = e0 - s1;
    GbUnit *u = gb_malloc((blen + 1) * sizeof *u);
    size_t nu = gb_perturb__units(body, blen, u);
    gb_str_append_n(p->out, p->src + s0, s1 - s0);
    if (scale > 1) {
        for (int r = 0; r < scale; r++) {
            for (size_t i = 0; i < nu; i++) {
                if (r > 0 && gb_perturb__plain_alnum(body, u[i]) && gb_rng_bounded(p->rng, 4) == 0) {
                    char c = gb_perturb__same_class(p->rng, body[u[i].start]);
                    gb_str_append_n(p->out, &c, 1);
                } else {
                    gb_str_append_n(p->out, body + u[i].start, u[i].len);
                }
            }
        }
    } else {
        /* one or two edits at unit positions: 0 change, 1 insert, 2 drop */
        int edits = 1 + (int)gb_rng_bounded(p->rng, 2);
        long at[2] = {-1, -1};
        int what[2] = {0, 0};
        for (int e = 0; e < edits; e++) {
            at[e] = nu ? (long)gb_rng_bounded(p->rng, (uint32_t)nu + 1) : 0;
            what[e] = (int)gb_rng_bounded(p->rng, 3);
        }
        for (size_t i = 0; i <= nu; i++) {
            bool dropped = false, changed = false;
            for (int e = 0; e < edits; e++) {
                if (at[e] != (long)i) continue;
                if (what[e] == 1 || i == nu) {
                    /* insert a copy of a nearby letter/digit, else a lowercase letter */
                    char c = (char)('a' + gb_rng_bounded(p->rng, 26));
                    if (i < nu && gb_perturb__plain_alnum(body, u[i]))
                        c = gb_perturb__same_class(p->rng, body[u[i].start]);
                    gb_str_append_n(p->out, &c, 1);
                } else if (what[e] == 2) {
                    dropped = true;
                } else if (gb_perturb__plain_alnum(body, u[i])) {
                    changed = true;
                }
            }
            if (i == nu) break;
            if (dropped) continue;
            if (changed) {
                char c = gb_perturb__same_class(p->rng, body[u[i].start]);
                gb_str_append_n(p->out, &c, 1);
            } else {
                gb_str_append_n(p->out, body + u[i].start, u[i].len);
            }
        }
    }
    gb_str_append_n(p->out, body + blen, ts_node_end_byte(n) - e0);
    free(u);
    return true;
}

static void gb_perturb__value(GbPerturb *p, TSNode n, int scale, int depth);

/* An integer literal n written perturbed and shifted by by; false when it does not fit. */
static bool gb_perturb__shifted(GbPerturb *p, TSNode n, long long by)
{
    long long v;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (!gb_perturb__int_value(p->src + a, b - a, &v)) return false;
    gb_perturb__emit_int(p, gb_perturb__int(p->rng, v) + by);
    return true;
}

/* Elements of a list/set (scale 1: dropped, duplicated, perturbed or kept; scale k: each
 * element k times, the copies after the first perturbed). Returns how many were written. */
static size_t gb_perturb__elements(GbPerturb *p, TSNode n, int scale, int depth, bool keep_len)
{
    size_t written = 0;
    uint32_t nc = ts_node_named_child_count(n);
    int reps = scale > 1 && !keep_len ? scale : 1;
    for (int r = 0; r < reps; r++) {
        for (uint32_t i = 0; i < nc; i++) {
            TSNode e = ts_node_named_child(n, i);
            if (gb_node_is_kind(e, GB_NK_COMMENT)) continue;
            int copies = 1;
            bool perturb = true;
            if (scale > 1) {
                perturb = r > 0;
            } else if (!keep_len) {
                uint32_t c = gb_rng_bounded(p->rng, 8);
                if (c == 0) copies = 0;
                if (c == 1) copies = 2;
                if (c >= 5) perturb = false;
            } else {
                perturb = gb_rng_bounded(p->rng, 3) != 0;
            }
            for (int k = 0; k < copies; k++) {
                if (written) gb_str_append(p->out, ", ");
                if (gb_node_is_kind(e, GB_NK_PAIR)) {
                    TSNode key = gb_node_field(e, "key"), val = gb_node_field(e, "value");
                    /* copies of a pair need a different key; scale 1 keeps keys */
                    if ((k > 0 || r > 0) && !ts_node_is_null(key))
                        gb_perturb__value(p, key, 1, depth + 1);
                    else
                        gb_perturb__copy(p, key);
                    gb_str_append(p->out, ": ");
                    if (perturb || scale > 1)
                        gb_perturb__value(p, val, scale > 1 ? 1 : 1, depth + 1);
                    else
                        gb_perturb__copy(p, val);
                } else if (p->spread && r > 0 && !keep_len && gb_node_is_kind(e, GB_NK_INTEGER) &&
                           gb_perturb__shifted(p, e, (long long)written)) {
                    /* distinct values, so that a lookup in what was seen grows with the input */
                } else if (perturb) {
                    gb_perturb__value(p, e, scale > 1 ? (keep_len ? scale : 1) : 1, depth + 1);
                } else if (scale > 1 && keep_len) {
                    gb_perturb__value(p, e, scale, depth + 1);
                } else {
                    gb_perturb__copy(p, e);
                }
                written++;
            }
        }
    }
    return written;
}

static void gb_perturb__value(GbPerturb *p, TSNode n, int scale, int depth)
{
    if (depth > GB_PERTURB_MAX_DEPTH) {
        gb_perturb__copy(p, n);
        return;
    }
    GbNodeKind k = gb_node_kind(n);
    switch (k) {
    case GB_NK_INTEGER:
    case GB_NK_FLOAT:
    case GB_NK_UNARY_OPERATOR:
        if (!gb_perturb__number(p, n, scale == 1)) gb_perturb__copy(p, n);
        return;
    case GB_NK_TRUE:
    case GB_NK_FALSE:
        if (scale == 1 && gb_rng_bounded(p->rng, 3) == 0)
            gb_str_append(p->out, k == GB_NK_TRUE ? "False" : "True");
        else
            gb_perturb__copy(p, n);
        return;
    case GB_NK_STRING:
        if (!gb_perturb__string(p, n, scale)) gb_perturb__copy(p, n);
        return;
    case GB_NK_LIST:
        gb_str_append(p->out, "[");
        gb_perturb__elements(p, n, scale, depth, false);
        gb_str_append(p->out, "]");
        return;
    case GB_NK_SET: {
        GbStr inner, *saved = p->out;
        gb_str_init(&inner);
        p->out = &inner;
        size_t w = gb_perturb__elements(p, n, scale, depth, false);
        p->out = saved;
        if (w == 0)
            gb_str_append(p->out, "set()");
        else
            gb_str_appendf(p->out, "{%s}", inner.data);
        gb_str_destroy(&inner);
        return;
    }
    case GB_NK_DICTIONARY:
        gb_str_append(p->out, "{");
        gb_perturb__elements(p, n, scale, depth, false);
        gb_str_append(p->out, "}");
        return;
    case GB_NK_TUPLE: {
        gb_str_append(p->out, "(");
        size_t w = gb_perturb__elements(p, n, scale, depth, true);
        gb_str_append(p->out, w == 1 ? ",)" : ")");
        return;
    }
    case GB_NK_PARENTHESIZED_EXPRESSION:
        if (ts_node_named_child_count(n) == 1) {
            gb_str_append(p->out, "(");
            gb_perturb__value(p, ts_node_named_child(n, 0), scale, depth + 1);
            gb_str_append(p->out, ")");
        } else {
            gb_perturb__copy(p, n);
        }
        return;
    case GB_NK_CALL: {
        TSNode fn = gb_node_field(n, "function"), args = gb_node_field(n, "arguments");
        if (!gb_node_is_kind(args, GB_NK_ARGUMENT_LIST)) {
            gb_perturb__copy(p, n);
            return;
        }
        gb_perturb__copy(p, fn);
        gb_str_append(p->out, "(");
        uint32_t nc = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < nc; i++) {
            if (i) gb_str_append(p->out, ", ");
            gb_perturb__value(p, ts_node_named_child(args, i), scale, depth + 1);
        }
        gb_str_append(p->out, ")");
        return;
    }
    case GB_NK_KEYWORD_ARGUMENT: {
        TSNode name = gb_node_field(n, "name"), value = gb_node_field(n, "value");
        gb_perturb__copy(p, name);
        gb_str_append(p->out, "=");
        gb_perturb__value(p, value, scale, depth + 1);
        return;
    }
    default:
        gb_perturb__copy(p, n);
        return;
    }
}

char *gb_perturb_args(TSParser *parser, const char *args, GbRng *rng, int scale)
{
    char why[160];
    if (!gb_literal_args_ok(parser, args, why, sizeof why)) return NULL;
    char *call = gb_asprintf("_gb_call(%s)", args);
    TSTree *tree = gb_parse(parser, call, strlen(call));
    TSNode st = ts_node_child(ts_tree_root_node(tree), 0);
    TSNode e = ts_node_child(st, 0);
    TSNode list = gb_node_field(e, "arguments");
    GbStr out;
    gb_str_init(&out);
    GbPerturb p = {call, rng, &out, false};
    uint32_t nc = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < nc; i++) {
        if (i) gb_str_append(&out, ", ");
        TSNode a = ts_node_named_child(list, i);
        /* at scale 1 an argument is kept as written one time in four */
        if (scale == 1 && gb_rng_bounded(rng, 4) == 0)
            gb_perturb__copy(&p, a);
        else
            gb_perturb__value(&p, a, scale, 0);
    }
    ts_tree_delete(tree);
    free(call);
    char *r = gb_str_take(&out);
    if (!r) r = gb_strdup("");
    /* never hand out something that is not literal data (a bug here must not reach a run) */
    if (!gb_literal_args_ok(parser, r, why, sizeof why)) {
        free(r);
        return NULL;
    }
    return r;
}

/* One token of stdin perturbed into out. */
static void gb_perturb__token(const char *t, size_t n, GbRng *rng, GbStr *out)
{
    if (gb_rng_bounded(rng, 3) != 0) {
        gb_str_append_n(out, t, n);
        return;
    }
    size_t i = (n > 1 && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
    bool digits = i < n, dot = false;
    for (size_t k = i; k < n; k++) {
        if (t[k] == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!isdigit((unsigned char)t[k])) digits = false;
    }
    if (digits && !dot && n - i <= 15) {
        long long v = strtoll(t, NULL, 10);
        long long d = 1 + gb_rng_bounded(rng, 3);
        long long r = gb_rng_bounded(rng, 2) ? v + d : v - d;
        if (v >= 0 && r < 0) r = v + d;
        if (v > 0 && r <= 0) r = v + d;
        gb_str_appendf(out, "%lld", r);
        return;
    }
    if (digits && dot && isdigit((unsigned char)t[n - 1])) {
        /* nudge the last digit, carrying nothing: keeps the number of decimals */
        char *c = gb_strndup(t, n);
        c[n - 1] = (char)('0' + (c[n - 1] - '0' + 1 + gb_rng_bounded(rng, 9)) % 10);
        gb_str_append(out, c);
        free(c);
        return;
    }
    size_t letters = 0;
    for (size_t k = 0; k < n; k++) letters += isalpha((unsigned char)t[k]) != 0;
    if (letters == 0) {
        gb_str_append_n(out, t, n);
        return;
    }
    size_t pick = gb_rng_bounded(rng, (uint32_t)letters);
    for (size_t k = 0; k < n; k++) {
        char c = t[k];
        if (isalpha((unsigned char)c) && pick-- == 0) c = gb_perturb__same_class(rng, c);
        gb_str_append_n(out, &c, 1);
    }
}

char *gb_perturb_stdin(const char *text, GbRng *rng)
{
    GbStr out;
    gb_str_init(&out);
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        if (isspace((unsigned char)text[i])) {
            gb_str_append_n(&out, text + i, 1);
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && !isspace((unsigned char)text[j])) j++;
        gb_perturb__token(text + i, j - i, rng, &out);
        i = j;
    }
    char *r = gb_str_take(&out);
    return r ? r : gb_strdup("");
}

/* How many elements or string units n holds (a tuple: the most of its elements', since its
 * elements are grown and not its length); 0 for anything else. */
static size_t gb_perturb__size(TSNode n, int depth)
{
    if (depth > 4) return 0;
    switch (gb_node_kind(n)) {
    case GB_NK_LIST:
    case GB_NK_SET:
    case GB_NK_DICTIONARY:
        return ts_node_named_child_count(n);
    case GB_NK_STRING: {
        uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
        return b - a > 2 ? b - a - 2 : 0;
    }
    case GB_NK_TUPLE:
    case GB_NK_PARENTHESIZED_EXPRESSION:
    case GB_NK_KEYWORD_ARGUMENT: {
        size_t most = 0;
        uint32_t nc = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < nc; i++) {
            size_t s = gb_perturb__size(ts_node_named_child(n, i), depth + 1);
            if (s > most) most = s;
        }
        return most;
    }
    default:
        return 0;
    }
}

/* Whether n is a non-negative integer literal below target (a count to raise). */
static bool gb_perturb__small_count(TSNode n, const char *src, size_t target)
{
    if (gb_node_is_kind(n, GB_NK_KEYWORD_ARGUMENT)) return false;
    if (!gb_node_is_kind(n, GB_NK_INTEGER)) return false;
    long long v;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return gb_perturb__int_value(src + a, b - a, &v) && v >= 0 && (unsigned long long)v < target;
}

char *gb_perturb_grow(TSParser *parser, const char *args, GbRng *rng, size_t target, uint32_t counts)
{
    char why[160];
    if (target < 2 || !gb_literal_args_ok(parser, args, why, sizeof why)) return NULL;
    char *call = gb_asprintf("_gb_call(%s)", args);
    TSTree *tree = gb_parse(parser, call, strlen(call));
    TSNode list = gb_node_field(ts_node_child(ts_node_child(ts_tree_root_node(tree), 0), 0), "arguments");
    GbStr out;
    gb_str_init(&out);
    GbPerturb p = {call, rng, &out, true};
    uint32_t nc = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < nc; i++) {
        if (i) gb_str_append(&out, ", ");
        TSNode a = ts_node_named_child(list, i);
        if (i < 32 && (counts >> i & 1u) && gb_perturb__small_count(a, call, target)) {
            gb_str_appendf(&out, "%zu", target);
            continue;
        }
        size_t size = gb_perturb__size(a, 0), bytes = ts_node_end_byte(a) - ts_node_start_byte(a) + 1;
        size_t scale = size ? (target + size - 1) / size : 1;
        /* a collection of large elements grows less: the text stays within GB_PERTURB_GROW_BYTES */
        if (scale > GB_PERTURB_GROW_BYTES / bytes) scale = GB_PERTURB_GROW_BYTES / bytes;
        if (scale > 1)
            gb_perturb__value(&p, a, (int)scale, 0);
        else
            gb_perturb__copy(&p, a);
    }
    ts_tree_delete(tree);
    free(call);
    char *r = gb_str_take(&out);
    if (!r) r = gb_strdup("");
    if (!gb_literal_args_ok(parser, r, why, sizeof why)) {
        free(r);
        return NULL;
    }
    return r;
}

/* Whether node's subtree names an identifier spelled as name (len bytes). */
static bool gb_perturb__mentions(TSNode node, const char *src, const char *name, size_t len, int depth)
{
    if (depth > 60) return false;
    if (gb_node_is_kind(node, GB_NK_IDENTIFIER)) {
        uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
        return b - a == len && memcmp(src + a, name, len) == 0;
    }
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (gb_perturb__mentions(ts_node_named_child(node, i), src, name, len, depth + 1)) return true;
    return false;
}

/* Whether some range(...) call under node mentions name in its arguments. */
static bool gb_perturb__ranged(TSNode node, const char *src, const char *name, size_t len, int depth)
{
    if (depth > 200) return false;
    if (gb_node_is_kind(node, GB_NK_CALL) && gb_node_text_eq(gb_node_field(node, "function"), src, "range") &&
        gb_perturb__mentions(gb_node_field(node, "arguments"), src, name, len, 0))
        return true;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (gb_perturb__ranged(ts_node_named_child(node, i), src, name, len, depth + 1)) return true;
    return false;
}

/* The first function definition named entry under node (depth-first), or a null node. */
static TSNode gb_perturb__find_def(TSNode node, const char *src, const char *entry, int depth)
{
    if (depth < 40 && gb_node_is_kind(node, GB_NK_FUNCTION_DEFINITION) &&
        gb_node_text_eq(gb_node_field(node, "name"), src, entry))
        return node;
    uint32_t n = depth < 40 ? ts_node_named_child_count(node) : 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = gb_perturb__find_def(ts_node_named_child(node, i), src, entry, depth + 1);
        if (!ts_node_is_null(d)) return d;
    }
    return (TSNode){0};
}

uint32_t gb_perturb_counts(TSParser *parser, const char *source, const char *entry)
{
    if (!source || !entry) return 0;
    TSTree *tree = gb_parse(parser, source, strlen(source));
    TSNode def = gb_perturb__find_def(ts_tree_root_node(tree), source, entry, 0);
    uint32_t mask = 0;
    TSNode params = ts_node_is_null(def) ? def : gb_node_field(def, "parameters");
    TSNode body = ts_node_is_null(def) ? def : gb_node_field(def, "body");
    uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0, pos = 0; i < np && pos < 32; i++) {
        TSNode prm = ts_node_named_child(params, i);
        TSNode name = gb_node_is_kind(prm, GB_NK_IDENTIFIER) ? prm : gb_node_field(prm, "name");
        if (gb_node_is_kind(prm, GB_NK_DEFAULT_PARAMETER) || gb_node_is_kind(prm, GB_NK_TYPED_PARAMETER) ||
            gb_node_is_kind(prm, GB_NK_TYPED_DEFAULT_PARAMETER)) {
            if (gb_node_is_kind(prm, GB_NK_TYPED_PARAMETER)) name = ts_node_named_child(prm, 0);
        } else if (!gb_node_is_kind(prm, GB_NK_IDENTIFIER)) {
            break; /* *args, **kwargs, / or *: the positions after it are not plain ones */
        }
        if (gb_node_is_kind(name, GB_NK_IDENTIFIER)) {
            uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
            if (!ts_node_is_null(body) && gb_perturb__ranged(body, source, source + a, b - a, 0)) mask |= 1u << pos;
        }
        pos++;
    }
    ts_tree_delete(tree);
    return mask;
}
