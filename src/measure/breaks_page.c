/* The page of `genebench breaks`: the pass@1 charts as SVG, the tables and per task its ladder
 * with the diff of the breaking rung. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/linediff.h"
#include "src/measure/breaks.h"

/* The chart export of the page's self-contained part: the figure's SVG as a file, or drawn on a
 * canvas at twice its size as a PNG. */
#define GB_BREAKS_SCRIPT                                                                                               \
    "function gbBreaksGet(u,n){var a=document.createElement('a');a.href=u;a.download=n;"                               \
    "document.body.appendChild(a);a.click();a.remove();}"                                                              \
    "function gbBreaksSave(b,kind){var f=b.closest('figure'),n=f.dataset.name,"                                        \
    "x=new XMLSerializer().serializeToString(f.querySelector('svg')),"                                                 \
    "u=URL.createObjectURL(new Blob([x],{type:'image/svg+xml'}));"                                                     \
    "if(kind==='svg'){gbBreaksGet(u,n+'.svg');return;}"                                                                \
    "var i=new Image();i.onload=function(){var c=document.createElement('canvas');"                                    \
    "c.width=2*i.width;c.height=2*i.height;var g=c.getContext('2d');g.fillStyle='#fff';"                               \
    "g.fillRect(0,0,c.width,c.height);g.drawImage(i,0,0,c.width,c.height);"                                            \
    "c.toBlob(function(p){gbBreaksGet(URL.createObjectURL(p),n+'.png');});};i.src=u;}"

const char *const gb_breaks_chart_names[GB_BREAKS_CHARTS] = {"curve_level.svg", "curve_rc.svg", "curve_tokens.svg"};
static const char *const gb_breaks__chart_x[GB_BREAKS_CHARTS] = {"level (version)", "mean RC", "mean tokens"};

/* The chart's frame: margins, the plot's size and the range of x. */
typedef struct {
    double w, h, ml, mb, mt, mr, pw, ph, xmin, xmax;
} GbBreaksFrame;

static void gb_breaks__axes(GbStr *o, const GbBreaksFrame *c, const char *xlabel)
{
    gb_str_appendf(o,
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                   "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">"
                   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>",
                   c->w, c->h, c->w, c->h);
    gb_str_appendf(o, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>", c->ml, c->mt + c->ph,
                   c->ml + c->pw, c->mt + c->ph);
    gb_str_appendf(o, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>", c->ml, c->mt, c->ml,
                   c->mt + c->ph);
    for (int t = 0; t <= 4; t++) {
        double y = c->mt + c->ph - c->ph * t / 4.0;
        gb_str_appendf(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>", c->ml - 4, y + 4, t / 4.0);
        double xv = c->xmin + (c->xmax - c->xmin) * t / 4.0;
        gb_str_appendf(o, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.3g</text>", c->ml + c->pw * t / 4.0,
                       c->mt + c->ph + 14, xv);
    }
    gb_str_appendf(o, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", c->ml + c->pw / 2, c->h - 6);
    gb_html_escape(o, xlabel, strlen(xlabel));
    gb_str_appendf(o,
                   "</text><text x=\"12\" y=\"%.0f\" transform=\"rotate(-90 12 %.0f)\" "
                   "text-anchor=\"middle\">pass@1</text>",
                   c->mt + c->ph / 2, c->mt + c->ph / 2);
}

/* A chart of pass@1 (with its interval) against x per version, as standalone SVG. */
static void gb_breaks__svg(GbStr *o, const char *xlabel, const double *x, const GbBreaksLevel *L, size_t n)
{
    GbBreaksFrame c = {420, 260, 50, 40, 20, 20, 0, 0, INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            c.xmin = fmin(c.xmin, x[i]);
            c.xmax = fmax(c.xmax, x[i]);
        }
    if (!(c.xmax > c.xmin)) {
        c.xmin = isfinite(c.xmin) ? c.xmin - 1 : 0;
        c.xmax = c.xmin + 2;
    }
    c.pw = c.w - c.ml - c.mr;
    c.ph = c.h - c.mt - c.mb;
    gb_breaks__axes(o, &c, xlabel);
    GbStr path;
    gb_str_init(&path);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !L[i].items) continue;
        double px = c.ml + c.pw * (x[i] - c.xmin) / (c.xmax - c.xmin);
        double py = c.mt + c.ph * (1 - L[i].pass), plo = c.mt + c.ph * (1 - L[i].lo), phi = c.mt + c.ph * (1 - L[i].hi);
        gb_str_appendf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>", px, plo, px, phi);
        gb_str_appendf(o,
                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#1f77b4\"><title>version %zu: %.3f [%.3f, "
                       "%.3f]</title></circle>",
                       px, py, i, L[i].pass, L[i].lo, L[i].hi);
        gb_str_appendf(&path, "%s%.1f,%.1f", path.len ? " L" : "M", px, py);
    }
    if (path.len) gb_str_appendf(o, "<path d=\"%s\" fill=\"none\" stroke=\"#1f77b4\"/>", path.data);
    gb_str_destroy(&path);
    gb_str_append(o, "</svg>\n");
}

void gb_breaks_chart(const GbBreaksAnalysis *a, int k, GbStr *out)
{
    size_t nv = a->b->nver;
    double *x = gb_malloc((nv + 1) * sizeof *x);
    for (size_t v = 0; v < nv; v++) x[v] = k == 0 ? (double)v : k == 1 ? a->levels[v].rc : a->levels[v].tokens;
    gb_breaks__svg(out, gb_breaks__chart_x[k], x, a->levels, nv);
    free(x);
}

static void gb_breaks__charts_html(const GbBreaksAnalysis *a, GbStr *html)
{
    gb_str_append(html, "<div class=\"gb-breaks\"><style>"
                        ".gb-breaks{font-family:sans-serif}.gb-breaks table{border-collapse:collapse}.gb-breaks td,"
                        ".gb-breaks th{border:1px solid #ccc;padding:2px 6px;font-size:12px}.gb-breaks .diff td{"
                        "font-family:monospace;white-space:pre}.gb-breaks .del{background:#fdd}.gb-breaks .ins{"
                        "background:#dfd}.gb-breaks .chg{background:#ffd}.gb-breaks .P{color:green}.gb-breaks .F{"
                        "color:red}.gb-breaks figure{display:inline-block;margin:0 1em 1em 0}</style><h2>pass@1 "
                        "against level, RC and tokens (95% Wilson intervals)</h2><div class=\"curves\">");
    for (int k = 0; k < GB_BREAKS_CHARTS; k++) {
        const char *name = gb_breaks_chart_names[k];
        gb_str_appendf(html, "<figure data-name=\"%.*s\">", (int)(strlen(name) - 4), name);
        gb_breaks_chart(a, k, html);
        gb_str_append(html, "<figcaption><button type=\"button\" onclick=\"gbBreaksSave(this,'svg')\">SVG</button> "
                            "<button type=\"button\" onclick=\"gbBreaksSave(this,'png')\">PNG</button>"
                            "</figcaption></figure>");
    }
}

static void gb_breaks__levels_html(const GbBreaksAnalysis *a, GbStr *html)
{
    const GbBreaks *b = a->b;
    gb_str_append(html, "</div><h2>Per level</h2><table><tr><th>version</th><th>file</th><th>items</th><th>pass@1</"
                        "th><th>95%</th><th>RC</th><th>RR</th><th>tokens</th><th>lines</th><th>rung</th></tr>");
    for (size_t v = 0; v < b->nver; v++) {
        const GbBreaksLevel *L = &a->levels[v];
        gb_str_appendf(html, "<tr><td>%zu</td><td>", v);
        gb_html_escape(html, b->files.items[v], strlen(b->files.items[v]));
        gb_str_appendf(html,
                       "</td><td>%ld</td><td>%.4f</td><td>[%.4f, %.4f]</td><td>%.4f</td><td>%.4f</td><td>%.1f</"
                       "td><td>%.1f</td><td>%.2f</td></tr>",
                       L->items, L->pass, L->lo, L->hi, L->rc, L->rr, L->tokens, L->lines, L->rung);
    }
    gb_str_append(html, "</table><h2>Per source benchmark (meta.format)</h2><table><tr><th>format</th>");
    for (size_t v = 0; v < b->nver; v++) gb_str_appendf(html, "<th>v%zu pass@1</th>", v);
    gb_str_append(html, "</tr>");
    for (size_t k = 0; k < a->formats.len; k++) {
        gb_str_append(html, "<tr><td>");
        gb_html_escape(html, a->formats.items[k], strlen(a->formats.items[k]));
        gb_str_append(html, "</td>");
        for (size_t v = 0; v < b->nver; v++) {
            GbBreaksLevel F = gb_breaks_level(b, v, a->formats.items[k]);
            gb_str_appendf(html, "<td>%.3f (%ld)</td>", F.pass, F.items);
        }
        gb_str_append(html, "</tr>");
    }
}

static void gb_breaks__ops_html(const GbBreaksAnalysis *a, GbStr *html)
{
    gb_str_append(html, "</table><h2>Breaking operators</h2><p>applied: steps from a passed level on which the "
                        "operator was applied; broke: of those, steps after which the item failed.</p><table><tr>"
                        "<th>op</th><th>applied</th><th>broke</th><th>rate</th><th>95%</th></tr>");
    for (size_t i = 0; i < a->ops.len; i++) {
        const GbBreaksOp *op = &a->ops.items[i];
        double lo, hi;
        gb_wilson(op->broke, op->applied, 1.96, &lo, &hi);
        gb_str_appendf(html, "<tr><td>%s</td><td>%ld</td><td>%ld</td><td>%.3f</td><td>[%.3f, %.3f]</td></tr>", op->op,
                       op->applied, op->broke, op->applied ? (double)op->broke / (double)op->applied : NAN, lo, hi);
    }
}

static void gb_breaks__size_html(const GbBreaksAnalysis *a, GbStr *html)
{
    const GbBreaksFlips *fl = &a->flips;
    const GbMatchedPairs *s = &a->at_size, *r = &a->at_rc;
    gb_str_appendf(html,
                   "</table><h2>Complexity or size</h2><p>success&rarr;failure: %zu programs, median RC %.4f; "
                   "success&rarr;success: %zu, median RC %.4f; Mann-Whitney U = %.1f, p = %.3g.</p>"
                   "<p>Size-matched comparisons (each failure matched with one success): with the same lines and "
                   "tokens within %.0f%%, %ld of %ld failures found a success of different RC, and the failure "
                   "had the higher RC in %ld (rate %.3f [%.3f, %.3f], sign test p = %.3g); with RC within %.3g, "
                   "%ld of %ld found a success of different lines, and the failure was the longer one in %ld "
                   "(rate %.3f "
                   "[%.3f, %.3f], p = %.3g). The failures follow <b>%s</b>.</p><p>Logistic models of failure "
                   "on %zu steps (beside the pairs; RC and size rise together along a ladder, so their z "
                   "values share the evidence): RC z = %.2f, log tokens z = %.2f (%s); RC z = %.2f, log lines "
                   "z = %.2f (%s).</p>",
                   fl->rc_fail.len, gb_breaks_median(fl->rc_fail.items, fl->rc_fail.len), fl->rc_pass.len,
                   gb_breaks_median(fl->rc_pass.items, fl->rc_pass.len), a->u, a->p, 100 * a->params.size_tolerance,
                   s->pairs, s->cases, s->higher_failed, s->rate, s->lo, s->hi, s->p, a->params.rc_tolerance, r->pairs,
                   r->cases, r->higher_failed, r->rate, r->lo, r->hi, r->p, a->points, fl->y.len, a->fit_tokens.z[1],
                   a->fit_tokens.z[2], a->fit_tokens.points, a->fit_lines.z[1], a->fit_lines.z[2], a->fit_lines.points);
}

/* One row of a task's ladder: version v's program and the verdicts of the task's items
 * [first, end). */
static void gb_breaks__rung_html(const GbBreaks *b, size_t first, size_t end, size_t v, GbStr *html)
{
    const char *task = b->items.items[first].task;
    const GbBreaksProg *pr = gb_breaks_prog(b, v, task), *pp = v ? gb_breaks_prog(b, v - 1, task) : NULL;
    if (!pr) return;
    GbStr added;
    gb_str_init(&added);
    bool none = true;
    if (pp) gb_breaks_step_ops(pp, pr, &added, &none);
    gb_str_appendf(html, "<tr><td>%zu</td><td>%ld</td><td>%s</td><td>%.4f</td><td>%.0f</td><td>%.0f</td><td>", v,
                   pr->rung, added.len ? added.data : "", pr->rc, pr->tokens, pr->lines);
    gb_str_destroy(&added);
    for (size_t j = first; j < end; j++) {
        int ps = gb_breaks_pass(&b->items.items[j], v);
        const char *w = ps < 0 ? "." : ps ? "P" : "F";
        gb_str_appendf(html, "<span class=\"%s\">%s</span>", ps < 0 ? "" : w, w);
    }
    gb_str_append(html, "</td></tr>");
}

/* A task's ladder: its items are [first, end) (a task's items are contiguous). */
static void gb_breaks__ladder_html(const GbBreaks *b, size_t first, size_t end, GbStr *html)
{
    const char *task = b->items.items[first].task;
    gb_str_append(html, "<h3>");
    gb_html_escape(html, task, strlen(task));
    gb_str_append(html, "</h3><table><tr><th>version</th><th>rung</th><th>added</th><th>RC</th><th>tokens</"
                        "th><th>lines</th><th>verdicts (items)</th></tr>");
    size_t first_break = 0, break_item = 0;
    for (size_t j = first; j < end; j++) {
        size_t bv = gb_breaks_breaking(&b->items.items[j], b->nver);
        if (bv && (!first_break || bv < first_break)) {
            first_break = bv;
            break_item = j;
        }
    }
    for (size_t v = 0; v < b->nver; v++) gb_breaks__rung_html(b, first, end, v, html);
    gb_str_append(html, "</table>");
    if (!first_break) return;
    const GbBreaksProg *pa = gb_breaks_prog(b, first_break - 1, task), *pb = gb_breaks_prog(b, first_break, task);
    gb_str_appendf(html, "<p>breaking step: version %zu &rarr; %zu (item ", first_break - 1, first_break);
    gb_html_escape(html, b->items.items[break_item].item, strlen(b->items.items[break_item].item));
    gb_str_append(html, ")</p>");
    if (pa && pb) gb_diff_render_html(html, pa->source, pb->source);
}

void gb_breaks_panel(const GbBreaksAnalysis *a, GbStr *out)
{
    const GbBreaks *b = a->b;
    gb_breaks__charts_html(a, out);
    gb_breaks__levels_html(a, out);
    gb_breaks__ops_html(a, out);
    gb_breaks__size_html(a, out);
    gb_str_append(out, "<h2>Ladders</h2>");
    for (size_t i = 0; i < b->items.len; i++) {
        if (i && strcmp(b->items.items[i - 1].task, b->items.items[i].task) == 0) continue;
        size_t end = i;
        while (end < b->items.len && strcmp(b->items.items[end].task, b->items.items[i].task) == 0) end++;
        gb_breaks__ladder_html(b, i, end, out);
    }
    gb_str_append(out, "<script>" GB_BREAKS_SCRIPT "</script></div>");
}
