#include "src/base/linediff.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;
    size_t len;
} GbLine;

typedef GbArray(GbLine) GbLines;

static void gb_diff__split(const char *text, GbLines *out)
{
    if (!text) return;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        GbLine l = {p, len};
        gb_array_push(out, l);
        if (!nl) break;
        p = nl + 1;
    }
}

size_t gb_diff_line_count(const char *text)
{
    GbLines lines = {0};
    gb_diff__split(text, &lines);
    size_t n = lines.len;
    gb_array_free(&lines);
    return n;
}

/* Give every distinct line one integer so that the diff compares integers. Open addressing
 * over the lines of both texts; the table is sized to at least twice the line count. */
static void gb_diff__intern(const GbLines *a, const GbLines *b, int *ida, int *idb)
{
    size_t total = a->len + b->len, cap = 16;
    while (cap < total * 2) cap *= 2;
    size_t *slot = gb_malloc(cap * sizeof *slot); /* index+1 into the concatenated lines, 0 = empty */
    memset(slot, 0, cap * sizeof *slot);
    int next = 0;
    for (size_t i = 0; i < total; i++) {
        const GbLine *l = i < a->len ? &a->items[i] : &b->items[i - a->len];
        int *id = i < a->len ? &ida[i] : &idb[i - a->len];
        size_t h = (size_t)gb_hash64(l->text, l->len, 0) & (cap - 1);
        for (;;) {
            if (slot[h] == 0) {
                slot[h] = i + 1;
                *id = next++;
                break;
            }
            size_t j = slot[h] - 1;
            const GbLine *o = j < a->len ? &a->items[j] : &b->items[j - a->len];
            if (o->len == l->len && memcmp(o->text, l->text, l->len) == 0) {
                *id = j < a->len ? ida[j] : idb[j - a->len];
                break;
            }
            h = (h + 1) & (cap - 1);
        }
    }
    free(slot);
}

typedef struct {
    const int *a;
    const int *b;
    long *vf; /* forward furthest x per diagonal, offset by vlen/2 */
    long *vb; /* backward furthest x per diagonal (reversed coordinates) */
    size_t vlen;
    GbDiffOps *out;
} GbDiffCtx;

static void gb_diff__push(GbDiffOps *out, GbDiffKind kind, size_t a, size_t b)
{
    GbDiffOp op = {kind, a, b};
    gb_array_push(out, op);
}

/* Find the middle snake of A[a0,a1) vs B[b0,b1) (both non-empty after trimming, so D >= 2):
 * sets the snake's start (*x,*y) and end (*u,*v), relative to a0/b0. */
static void gb_diff__middle_snake(GbDiffCtx *c, size_t a0, size_t a1, size_t b0, size_t b1, long *x_out, long *y_out,
                                  long *u_out, long *v_out)
{
    const long n = (long)(a1 - a0), m = (long)(b1 - b0), delta = n - m;
    const int odd = (int)(delta & 1);
    const long dmax = (n + m + 1) / 2;
    const long off = dmax + 1;
    long *vf = c->vf, *vb = c->vb;
    vf[off + 1] = 0;
    vb[off + 1] = 0;
    for (long d = 0; d <= dmax; d++) {
        for (long k = -d; k <= d; k += 2) {
            long x = (k == -d || (k != d && vf[off + k - 1] < vf[off + k + 1])) ? vf[off + k + 1] : vf[off + k - 1] + 1;
            long y = x - k, x0 = x, y0 = y;
            while (x < n && y < m && c->a[a0 + x] == c->b[b0 + y]) x++, y++;
            vf[off + k] = x;
            long kb = delta - k;
            if (odd && kb >= -(d - 1) && kb <= d - 1 && x + vb[off + kb] >= n) {
                *x_out = x0, *y_out = y0, *u_out = x, *v_out = y;
                return;
            }
        }
        for (long k = -d; k <= d; k += 2) {
            long x = (k == -d || (k != d && vb[off + k - 1] < vb[off + k + 1])) ? vb[off + k + 1] : vb[off + k - 1] + 1;
            long y = x - k, x0 = x, y0 = y;
            while (x < n && y < m && c->a[a1 - 1 - x] == c->b[b1 - 1 - y]) x++, y++;
            vb[off + k] = x;
            long kf = delta - k;
            if (!odd && kf >= -d && kf <= d && x + vf[off + kf] >= n) {
                *x_out = n - x, *y_out = m - y, *u_out = n - x0, *v_out = m - y0;
                return;
            }
        }
    }
    /* Unreachable: the two searches always meet by d = ceil((n+m)/2). */
    abort();
}

static void gb_diff__rec(GbDiffCtx *c, size_t a0, size_t a1, size_t b0, size_t b1)
{
    while (a0 < a1 && b0 < b1 && c->a[a0] == c->b[b0]) gb_diff__push(c->out, GB_DIFF_EQUAL, a0++, b0++);
    size_t suffix = 0;
    while (a0 < a1 - suffix && b0 < b1 - suffix && c->a[a1 - 1 - suffix] == c->b[b1 - 1 - suffix]) suffix++;
    a1 -= suffix, b1 -= suffix;
    if (a0 == a1) {
        for (size_t j = b0; j < b1; j++) gb_diff__push(c->out, GB_DIFF_INSERT, 0, j);
    } else if (b0 == b1) {
        for (size_t i = a0; i < a1; i++) gb_diff__push(c->out, GB_DIFF_DELETE, i, 0);
    } else {
        long x, y, u, v;
        gb_diff__middle_snake(c, a0, a1, b0, b1, &x, &y, &u, &v);
        gb_diff__rec(c, a0, a0 + (size_t)x, b0, b0 + (size_t)y);
        for (long i = 0; i < u - x; i++)
            gb_diff__push(c->out, GB_DIFF_EQUAL, a0 + (size_t)(x + i), b0 + (size_t)(y + i));
        gb_diff__rec(c, a0 + (size_t)u, a1, b0 + (size_t)v, b1);
    }
    for (size_t i = 0; i < suffix; i++) gb_diff__push(c->out, GB_DIFF_EQUAL, a1 + i, b1 + i);
}

static void gb_diff__run(const GbLines *la, const GbLines *lb, GbDiffOps *out)
{
    int *ida = gb_malloc((la->len + 1) * sizeof *ida);
    int *idb = gb_malloc((lb->len + 1) * sizeof *idb);
    gb_diff__intern(la, lb, ida, idb);
    GbDiffCtx c = {.a = ida, .b = idb, .out = out};
    c.vlen = la->len + lb->len + 4;
    c.vf = gb_malloc(c.vlen * sizeof *c.vf);
    c.vb = gb_malloc(c.vlen * sizeof *c.vb);
    gb_diff__rec(&c, 0, la->len, 0, lb->len);
    free(c.vf);
    free(c.vb);
    free(ida);
    free(idb);
}

void gb_diff_lines(const char *a, const char *b, GbDiffOps *out)
{
    GbLines la = {0}, lb = {0};
    gb_diff__split(a, &la);
    gb_diff__split(b, &lb);
    gb_diff__run(&la, &lb, out);
    gb_array_free(&la);
    gb_array_free(&lb);
}

void gb_html_escape(GbStr *out, const char *text, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (text[i]) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        default:
            break;
        }
        if (!rep) continue;
        gb_str_append_n(out, text + start, i - start);
        gb_str_append(out, rep);
        start = i + 1;
    }
    gb_str_append_n(out, text + start, n - start);
}

static void gb_diff__cell(GbStr *out, const GbLine *l, size_t index)
{
    if (!l) {
        gb_str_append(out, "<td class=\"ln\"></td><td class=\"code\"></td>");
        return;
    }
    gb_str_appendf(out, "<td class=\"ln\">%zu</td><td class=\"code\">", index + 1);
    /* Drop a '\r' of CRLF text so that it does not show as a stray character. */
    size_t len = l->len;
    if (len && l->text[len - 1] == '\r') len--;
    gb_html_escape(out, l->text, len);
    gb_str_append(out, "</td>");
}

void gb_diff_render_html(GbStr *out, const char *a, const char *b)
{
    GbLines la = {0}, lb = {0};
    gb_diff__split(a, &la);
    gb_diff__split(b, &lb);
    GbDiffOps ops = {0};
    gb_diff__run(&la, &lb, &ops);
    gb_str_append(out, "<table class=\"diff\">");
    size_t i = 0;
    while (i < ops.len) {
        if (ops.items[i].kind == GB_DIFF_EQUAL) {
            gb_str_append(out, "<tr class=\"eq\">");
            gb_diff__cell(out, &la.items[ops.items[i].a], ops.items[i].a);
            gb_diff__cell(out, &lb.items[ops.items[i].b], ops.items[i].b);
            gb_str_append(out, "</tr>");
            i++;
            continue;
        }
        /* A block of changes: pair its deleted lines with its inserted lines, row by row. */
        size_t j = i;
        GbArray(size_t) del = {0}, ins = {0};
        while (j < ops.len && ops.items[j].kind != GB_DIFF_EQUAL) {
            if (ops.items[j].kind == GB_DIFF_DELETE)
                gb_array_push(&del, ops.items[j].a);
            else
                gb_array_push(&ins, ops.items[j].b);
            j++;
        }
        size_t rows = del.len > ins.len ? del.len : ins.len;
        for (size_t r = 0; r < rows; r++) {
            const char *cls = r < del.len && r < ins.len ? "chg" : r < del.len ? "del" : "ins";
            gb_str_appendf(out, "<tr class=\"%s\">", cls);
            gb_diff__cell(out, r < del.len ? &la.items[del.items[r]] : NULL, r < del.len ? del.items[r] : 0);
            gb_diff__cell(out, r < ins.len ? &lb.items[ins.items[r]] : NULL, r < ins.len ? ins.items[r] : 0);
            gb_str_append(out, "</tr>");
        }
        gb_array_free(&del);
        gb_array_free(&ins);
        i = j;
    }
    gb_str_append(out, "</table>");
    gb_array_free(&ops);
    gb_array_free(&la);
    gb_array_free(&lb);
}

/* A hunk range as diff -u writes it: "START,COUNT" (1-based), "START" alone for one line,
 * and the line before for an empty range. */
static void gb_diff__range(GbStr *out, size_t before, size_t count)
{
    if (count == 1)
        gb_str_appendf(out, "%zu", before + 1);
    else
        gb_str_appendf(out, "%zu,%zu", count ? before + 1 : before, count);
}

void gb_diff_render_unified(GbStr *out, const char *path, const char *a, const char *b)
{
    if (strcmp(a ? a : "", b ? b : "") == 0) return;
    GbLines la = {0}, lb = {0};
    gb_diff__split(a, &la);
    gb_diff__split(b, &lb);
    GbDiffOps ops = {0};
    gb_diff__run(&la, &lb, &ops);
    /* within each block of changes, deletions before insertions (as diff -u prints them) */
    for (size_t i = 0; i < ops.len;) {
        if (ops.items[i].kind == GB_DIFF_EQUAL) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < ops.len && ops.items[j].kind != GB_DIFF_EQUAL) j++;
        GbDiffOps block = {0};
        for (int pass = 0; pass < 2; pass++)
            for (size_t q = i; q < j; q++)
                if ((ops.items[q].kind == GB_DIFF_DELETE) == (pass == 0)) gb_array_push(&block, ops.items[q]);
        memcpy(&ops.items[i], block.items, (j - i) * sizeof *block.items);
        gb_array_free(&block);
        i = j;
    }
    /* position in A and in B before each op, for the hunk headers */
    size_t *pa = gb_calloc(ops.len + 1, sizeof *pa), *pb = gb_calloc(ops.len + 1, sizeof *pb);
    for (size_t q = 0; q < ops.len; q++) {
        pa[q + 1] = pa[q] + (ops.items[q].kind != GB_DIFF_INSERT);
        pb[q + 1] = pb[q] + (ops.items[q].kind != GB_DIFF_DELETE);
    }
    gb_str_appendf(out, "--- a/%s\n+++ b/%s\n", path, path);
    const size_t ctx = 3;
    size_t k = 0;
    while (k < ops.len) {
        while (k < ops.len && ops.items[k].kind == GB_DIFF_EQUAL) k++;
        if (k == ops.len) break;
        size_t start = k >= ctx ? k - ctx : 0, end = k;
        /* one hunk while changes are within 2 * ctx lines of each other */
        for (;;) {
            while (end < ops.len && ops.items[end].kind != GB_DIFF_EQUAL) end++;
            size_t run = end;
            while (run < ops.len && ops.items[run].kind == GB_DIFF_EQUAL && run - end < 2 * ctx) run++;
            if (run < ops.len && ops.items[run].kind != GB_DIFF_EQUAL) {
                end = run;
                continue;
            }
            end = end + ctx < ops.len ? end + ctx : ops.len;
            break;
        }
        size_t na = pa[end] - pa[start], nb = pb[end] - pb[start];
        gb_str_append(out, "@@ -");
        gb_diff__range(out, pa[start], na);
        gb_str_append(out, " +");
        gb_diff__range(out, pb[start], nb);
        gb_str_append(out, " @@\n");
        for (size_t q = start; q < end; q++) {
            const GbDiffOp *op = &ops.items[q];
            const GbLine *l = op->kind == GB_DIFF_INSERT ? &lb.items[op->b] : &la.items[op->a];
            char mark = op->kind == GB_DIFF_EQUAL ? ' ' : op->kind == GB_DIFF_DELETE ? '-' : '+';
            gb_str_appendf(out, "%c%.*s\n", mark, (int)l->len, l->text);
        }
        k = end;
    }
    free(pa);
    free(pb);
    gb_array_free(&ops);
    gb_array_free(&la);
    gb_array_free(&lb);
}
