/* Equivalence beyond the tests: inputs, the original's record, the check (equiv.h). */
#include "nsga2/equiv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/base/rng.h"
#include "src/base/util.h"
#include "nsga2/equiv_private.h"
#include "nsga2/equiv_steps.h"
#include "src/model/calls.h"
#include "src/model/perturb.h"
#include "src/model/sequences.h"

/* gb_equiv_check's cost cut, in multiples of the CPU bound (below). */
#define GB_EQUIV_COST_CUT 2.0

void gb_equiv_config_defaults(GbEquivConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->inputs = 24;
    cfg->large = 4;
    cfg->size = 4096;
    cfg->large_s = 0.1;
    cfg->cost_ratio = 4.0;
    cfg->cost_slack_s = 0.02;
    cfg->large_slack_s = 0.005;
    cfg->wall_slack_s = 0.25;
    cfg->limit_s = 2.0;
    cfg->budget_s = 6.0;
    cfg->search = 3;
    cfg->mined = 160;
}

void gb_equiv_inputs_destroy(GbEquivInputs *in)
{
    free(in->entry);
    for (size_t i = 0; i < in->inputs.len; i++) free(in->inputs.items[i]);
    gb_array_free(&in->inputs);
    gb_array_free(&in->large);
    gb_array_free(&in->grown);
    memset(in, 0, sizeof *in);
}

/* Append text (taken; NULL: nothing) unless it is already there. */
static void gb_equiv__add(GbEquivInputs *in, char *text, bool large)
{
    if (!text) return;
    for (size_t i = 0; i < in->inputs.len; i++)
        if (strcmp(in->inputs.items[i], text) == 0) {
            free(text);
            return;
        }
    gb_array_push(&in->inputs, text);
    gb_array_push(&in->large, large);
}

/* The sequence text with every step's arguments perturbed (grow 0: gb_perturb_args), or grown
 * to about grow elements (gb_perturb_grow); owned, or NULL when it is malformed. */
static char *gb_equiv__perturb_sequence(TSParser *parser, const char *text, GbRng *rng, size_t grow)
{
    GbSeqSteps steps = {0};
    char *cur = NULL;
    if (gb_sequence_steps(text, &steps)) {
        cur = gb_strdup(text);
        for (size_t k = 0; k < steps.len; k++) {
            GbSeqSteps now = {0};
            if (!gb_sequence_steps(cur, &now) || now.len != steps.len) {
                gb_array_free(&now);
                break;
            }
            char *args = gb_strndup(now.items[k].args, now.items[k].args_len);
            char *p = !*args ? NULL
                      : grow ? gb_perturb_grow(parser, args, rng, grow, 0)
                             : gb_perturb_args(parser, args, rng, 1);
            if (p) {
                char *next = gb_sequence_with(now.items, now.len, k, p);
                free(cur);
                cur = next;
            }
            free(p);
            free(args);
            gb_array_free(&now);
        }
    }
    gb_array_free(&steps);
    return cur;
}

char *gb_equiv_grow(const GbEquivConfig *cfg, TSParser *parser, const GbEquivInputs *in, uint64_t key, size_t base,
                    uint32_t j, size_t size)
{
    GbRng rng;
    gb_rng_init_keyed(&rng, cfg->seed, key, in->mode == GB_PROBE_CLASS ? 6 : 2, j);
    const char *b = in->inputs.items[base];
    return in->mode == GB_PROBE_CLASS ? gb_equiv__perturb_sequence(parser, b, &rng, size)
                                      : gb_perturb_grow(parser, b, &rng, size, in->counts);
}

/* Up to cfg->large larger inputs, each from one of the tests' own (round robin). */
static void gb_equiv__add_large(const GbEquivConfig *cfg, TSParser *parser, uint64_t key, GbEquivInputs *in)
{
    size_t before = in->inputs.len;
    for (int j = 0; in->from_tests > 0 && j < 3 * cfg->large && in->inputs.len < before + (size_t)cfg->large; j++) {
        size_t base = (size_t)j % in->from_tests, at = in->inputs.len;
        gb_equiv__add(in, gb_equiv_grow(cfg, parser, in, key, base, (uint32_t)j, (size_t)cfg->size), true);
        if (in->inputs.len > at) gb_array_push(&in->grown, ((GbEquivGrown){at, base, (uint32_t)j, 0}));
    }
}

/* Class-level tasks: the tests' call sequences (src/model/sequences.h), then derived and larger
 * ones with every step's arguments perturbed. */
static void gb_equiv__inputs_class(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, uint64_t key,
                                   GbEquivInputs *out)
{
    GbSeqList seqs = {0};
    gb_sequences_extract(parser, task, &seqs);
    out->mode = GB_PROBE_CLASS;
    if (seqs.len > 0) {
        out->entry = gb_strdup(task->entry_point);
        for (size_t i = 0; i < seqs.len; i++) gb_equiv__add(out, seqs.items[i], false);
        out->from_tests = out->inputs.len;
        for (int j = 0; j < 3 * cfg->inputs && out->inputs.len < out->from_tests + (size_t)cfg->inputs; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 5, (uint64_t)j);
            const char *base = out->inputs.items[(size_t)j % out->from_tests];
            gb_equiv__add(out, gb_equiv__perturb_sequence(parser, base, &rng, 0), false);
        }
        gb_equiv__add_large(cfg, parser, key, out);
    }
    gb_array_free(&seqs);
}

void gb_equiv_inputs(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, GbEquivInputs *out)
{
    memset(out, 0, sizeof *out);
    uint64_t key = gb_hash64(task->id ? task->id : "", task->id ? strlen(task->id) : 0, 0x5EED5EEDULL);
    if (task->kind == GB_TESTS_STDIO) {
        out->mode = GB_PROBE_STDIO;
        size_t n = task->cases.len;
        for (size_t k = 0; k < n; k++)
            gb_equiv__add(out, gb_strdup(task->cases.items[k].stdin_text ? task->cases.items[k].stdin_text : ""),
                          false);
        out->from_tests = out->inputs.len;
        /* duplicates are dropped: up to three tries per wanted input */
        for (int j = 0; n > 0 && j < 3 * cfg->inputs && out->inputs.len < out->from_tests + (size_t)cfg->inputs; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 3, (uint64_t)j);
            const char *base = task->cases.items[(size_t)j % n].stdin_text;
            gb_equiv__add(out, gb_perturb_stdin(base ? base : "", &rng), false);
        }
        return;
    }
    if (task->kind == GB_TESTS_UNITTEST) {
        gb_equiv__inputs_class(cfg, task, parser, key, out);
        return;
    }
    if (task->kind != GB_TESTS_ASSERT) return;
    out->mode = GB_PROBE_CALL;
    const char *entry = task->entry_point;
    GbCallList calls = {0};
    gb_calls_extract(parser, task, &calls);
    GbArray(const char *) base = {0};
    for (size_t i = 0; i < calls.len; i++) {
        const GbCall *c = &calls.items[i];
        bool ok = (entry && strcmp(c->callee, entry) == 0) || strcmp(c->callee, "candidate") == 0 ||
                  (strcmp(c->callee, "f") == 0 && (!entry || strcmp(entry, "f") == 0));
        if (!ok) continue;
        bool dup = false;
        for (size_t k = 0; k < base.len && !dup; k++) dup = strcmp(base.items[k], c->args) == 0;
        if (!dup) gb_array_push(&base, c->args);
    }
    if (base.len > 0) {
        out->entry = gb_strdup(entry ? entry : "f");
        for (size_t i = 0; i < base.len; i++) gb_equiv__add(out, gb_strdup(base.items[i]), false);
        out->from_tests = out->inputs.len;
        for (int j = 0; j < 3 * cfg->inputs && out->inputs.len < out->from_tests + (size_t)cfg->inputs; j++) {
            GbRng rng;
            gb_rng_init_keyed(&rng, cfg->seed, key, 1, (uint64_t)j);
            gb_equiv__add(out, gb_perturb_args(parser, base.items[(size_t)j % base.len], &rng, 1), false);
        }
        out->counts = gb_perturb_counts(parser, task->source, out->entry);
        gb_equiv__add_large(cfg, parser, key, out);
    }
    gb_array_free(&base);
    gb_call_list_destroy(&calls);
}

/* ---- mined literals and boundary values (CALL mode) ---- */

/* Append t (taken) unless it is there or s holds cap already. */
static void gb_equiv__strs_add(GbEquivStrs *s, char *t, size_t cap)
{
    if (!t) return;
    for (size_t i = 0; i < s->len; i++)
        if (strcmp(s->items[i], t) == 0) {
            free(t);
            return;
        }
    if (s->len >= cap) {
        free(t);
        return;
    }
    gb_array_push(s, t);
}

static void gb_equiv__strs_free(GbEquivStrs *s)
{
    for (size_t i = 0; i < s->len; i++) free(s->items[i]);
    gb_array_free(s);
}

/* Integer and plain string literals of node's subtree: each integer n as n - 1, n, n + 1 (the
 * thresholds of comparisons sit there), each short one-line string as written. */
static void gb_equiv__mine_node(TSNode node, const char *src, GbEquivStrs *ints, GbEquivStrs *strs, int depth)
{
    if (depth > 200) return;
    const char *type = ts_node_type(node);
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    if (strcmp(type, "integer") == 0 && b - a < 12) {
        char buf[16], *end = NULL;
        memcpy(buf, src + a, b - a);
        buf[b - a] = '\0';
        long v = strtol(buf, &end, 0);
        if (end && *end == '\0')
            for (long d = -1; d <= 1; d++) gb_equiv__strs_add(ints, gb_asprintf("%ld", v + d), 48);
        return;
    }
    if (strcmp(type, "string") == 0) {
        if (b - a <= 42 && (src[a] == '\'' || src[a] == '"') && !memchr(src + a, '\n', b - a) &&
            !memchr(src + a, '{', b - a))
            gb_equiv__strs_add(strs, gb_strndup(src + a, b - a), 32);
        return;
    }
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; i++) gb_equiv__mine_node(ts_node_child(node, i), src, ints, strs, depth + 1);
}

static void gb_equiv__mine(TSParser *parser, const char *src, GbEquivStrs *ints, GbEquivStrs *strs)
{
    if (!src) return;
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
    if (!tree) return;
    gb_equiv__mine_node(ts_tree_root_node(tree), src, ints, strs, 0);
    ts_tree_delete(tree);
}

/* The values tried in place of an argument written as node (boundary values of its type,
 * then the mined literals that fit it). */
static void gb_equiv__values(TSNode node, const char *src, const GbEquivStrs *ints, const GbEquivStrs *strs,
                             bool thresholds, GbEquivStrs *out)
{
    static const char *const num[] = {"0", "1", "-1", "2", "10000", "-10000", "None"};
    static const char *const flt[] = {"0.0", "-1.5", "0.5", "1000000.0", "0", "None"};
    static const char *const str[] = {"''",
                                      "' '",
                                      "'a'",
                                      "'A b C'",
                                      "'-7'",
                                      "'3.5'",
                                      "'abc123'",
                                      "'\\u00e9t\\u00e9'",
                                      "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'",
                                      "None"};
    static const char *const lst[] = {"[]", "[0]", "[-1, -1]", "[None]", "[1, 'a']", "[[1, 2], [3]]", "None"};
    static const char *const other[] = {"None", "0", "''", "[]"};
    const char *type = ts_node_type(node);
    if (thresholds) {
        /* only the mined integers, in place of a number */
        bool number = strcmp(type, "integer") == 0 || strcmp(type, "unary_operator") == 0 || strcmp(type, "float") == 0;
        for (size_t i = 0; number && i < ints->len; i++) gb_equiv__strs_add(out, gb_strdup(ints->items[i]), SIZE_MAX);
        return;
    }
    const char *const *base = other;
    size_t nbase = sizeof other / sizeof *other;
    bool want_ints = false, want_strs = false;
    if (strcmp(type, "integer") == 0 || strcmp(type, "unary_operator") == 0) {
        base = num, nbase = sizeof num / sizeof *num, want_ints = true;
    } else if (strcmp(type, "float") == 0) {
        base = flt, nbase = sizeof flt / sizeof *flt, want_ints = true;
    } else if (strcmp(type, "string") == 0 || strcmp(type, "concatenated_string") == 0) {
        base = str, nbase = sizeof str / sizeof *str, want_strs = true;
    } else if (strcmp(type, "list") == 0) {
        base = lst, nbase = sizeof lst / sizeof *lst, want_ints = true;
    } else if (strcmp(type, "true") == 0 || strcmp(type, "false") == 0) {
        static const char *const bools[] = {"True", "False", "None"};
        base = bools, nbase = 3;
    } else if (strcmp(type, "dictionary") == 0) {
        static const char *const dicts[] = {"{}", "None"};
        base = dicts, nbase = 2, want_strs = true;
    } else if (strcmp(type, "tuple") == 0) {
        static const char *const tuples[] = {"()", "None"};
        base = tuples, nbase = 2;
    }
    for (size_t i = 0; i < nbase; i++) gb_equiv__strs_add(out, gb_strdup(base[i]), SIZE_MAX);
    if (strcmp(type, "list") == 0 && ts_node_named_child_count(node) > 0) {
        /* duplicates: the first element twice, and the list followed by its first element */
        TSNode first = ts_node_named_child(node, 0);
        uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(first);
        uint32_t la = ts_node_start_byte(node), lb = ts_node_end_byte(node);
        gb_equiv__strs_add(out, gb_asprintf("[%.*s, %.*s]", (int)(b - a), src + a, (int)(b - a), src + a), SIZE_MAX);
        gb_equiv__strs_add(out, gb_asprintf("%.*s, %.*s]", (int)(lb - 1 - la), src + la, (int)(b - a), src + a),
                           SIZE_MAX);
        for (size_t i = 0; want_ints && i < ints->len; i++)
            gb_equiv__strs_add(out, gb_asprintf("[%s]", ints->items[i]), SIZE_MAX);
        return;
    }
    if (strcmp(type, "dictionary") == 0) {
        /* a mined key added in front, with the value of the first pair */
        const char *val = "0";
        char *own = NULL;
        TSNode pair = ts_node_named_child(node, 0);
        if (!ts_node_is_null(pair) && strcmp(ts_node_type(pair), "pair") == 0) {
            TSNode v = ts_node_child_by_field_name(pair, "value", 5);
            if (!ts_node_is_null(v)) {
                own = gb_strndup(src + ts_node_start_byte(v), ts_node_end_byte(v) - ts_node_start_byte(v));
                val = own;
            }
        }
        uint32_t la = ts_node_start_byte(node), lb = ts_node_end_byte(node);
        bool empty = ts_node_named_child_count(node) == 0;
        for (size_t i = 0; i < strs->len; i++)
            gb_equiv__strs_add(
                out,
                gb_asprintf("{%s: %s%s%.*s", strs->items[i], val, empty ? "" : ", ", (int)(lb - la - 1), src + la + 1),
                SIZE_MAX);
        free(own);
        return;
    }
    for (size_t i = 0; want_ints && i < ints->len; i++) gb_equiv__strs_add(out, gb_strdup(ints->items[i]), SIZE_MAX);
    for (size_t i = 0; want_strs && i < strs->len; i++) gb_equiv__strs_add(out, gb_strdup(strs->items[i]), SIZE_MAX);
}

/* Every argument list that differs from args in one argument replaced by one of its values
 * (gb_equiv__values), whitelisted (src/model/calls.h), appended to out. */
static void gb_equiv__substitute(TSParser *parser, const char *args, const GbEquivStrs *ints, const GbEquivStrs *strs,
                                 bool thresholds, GbEquivStrs *out)
{
    char *src = gb_asprintf("f(%s)", args);
    TSTree *tree = ts_parser_parse_string(parser, NULL, src, (uint32_t)strlen(src));
    TSNode root = ts_tree_root_node(tree);
    TSNode stmt = ts_node_named_child(root, 0);
    TSNode call = ts_node_is_null(stmt) ? stmt : ts_node_named_child(stmt, 0);
    TSNode list = ts_node_is_null(call) ? call : ts_node_child_by_field_name(call, "arguments", 9);
    uint32_t n = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
    for (uint32_t k = 0; k < n && k < 8; k++) {
        TSNode arg = ts_node_named_child(list, k);
        if (strcmp(ts_node_type(arg), "keyword_argument") == 0) arg = ts_node_child_by_field_name(arg, "value", 5);
        if (ts_node_is_null(arg) || strcmp(ts_node_type(arg), "comment") == 0) continue;
        uint32_t a = ts_node_start_byte(arg) - 2, b = ts_node_end_byte(arg) - 2;
        GbEquivStrs vals = {0};
        gb_equiv__values(arg, src, ints, strs, thresholds, &vals);
        for (size_t i = 0; i < vals.len; i++) {
            char *t = gb_asprintf("%.*s%s%s", (int)a, args, vals.items[i], args + b);
            char why[128];
            if (gb_literal_args_ok(parser, t, why, sizeof why))
                gb_equiv__strs_add(out, t, SIZE_MAX);
            else
                free(t);
        }
        gb_equiv__strs_free(&vals);
    }
    ts_tree_delete(tree);
    free(src);
}

/* The sequence of steps with step k (not the constructor) taken times times: 0 drops it (owned). */
static char *gb_equiv__restep(const GbSeqSteps *steps, size_t k, size_t times)
{
    GbStr o;
    gb_str_init(&o);
    for (size_t i = 0; i < steps->len; i++)
        for (size_t r = 0; r < (i == k ? times : 1); r++) {
            const GbSeqStep *st = &steps->items[i];
            if (o.len) gb_str_append_n(&o, (const char[]){GB_SEQ_SEP}, 1);
            gb_str_append_n(&o, st->head, st->head_len);
            gb_str_append_n(&o, st->args, st->args_len);
            if (st->head[st->head_len - 1] == '(') gb_str_append(&o, ")");
        }
    char *t = gb_str_take(&o);
    return t ? t : gb_strdup("");
}

/* A call sequence's variants (src/model/sequences.h): each of its first 12 method steps dropped,
 * taken twice and taken 8 times (emptiness and capacity are reached by how often a method
 * runs, not by its arguments), and gb_equiv__substitute on the arguments of each step,
 * thresholds into thr and the others into all. */
static void gb_equiv__substitute_steps(TSParser *parser, const char *seq, const GbEquivStrs *ints,
                                       const GbEquivStrs *strs, GbEquivStrs *thr, GbEquivStrs *all)
{
    GbSeqSteps steps = {0};
    if (gb_sequence_steps(seq, &steps))
        for (size_t k = 0; k < steps.len && k < 12; k++) {
            for (size_t times = 0; k > 0 && times <= 8; times += times == 0 ? 2 : 6)
                if (steps.len - 1 + times <= GB_SEQ_MAX_STEPS)
                    gb_equiv__strs_add(all, gb_equiv__restep(&steps, k, times), SIZE_MAX);
            char *args = gb_strndup(steps.items[k].args, steps.items[k].args_len);
            for (int t = 0; t < 2; t++) {
                GbEquivStrs vals = {0};
                gb_equiv__substitute(parser, args, ints, strs, t == 0, &vals);
                for (size_t i = 0; i < vals.len; i++)
                    gb_equiv__strs_add(t == 0 ? thr : all, gb_sequence_with(steps.items, steps.len, k, vals.items[i]),
                                       SIZE_MAX);
                gb_equiv__strs_free(&vals);
            }
            free(args);
        }
    gb_array_free(&steps);
}

/* Shuffle l in place by rng (Fisher-Yates) and append its first cap entries to in (the rest freed). */
static void gb_equiv__shuffle_add(GbEquivStrs *l, GbRng *rng, size_t cap, GbEquivInputs *in)
{
    for (size_t i = l->len; i > 1; i--) {
        size_t j = gb_rng_bounded(rng, (uint32_t)i);
        char *t = l->items[i - 1];
        l->items[i - 1] = l->items[j];
        l->items[j] = t;
    }
    for (size_t i = 0; i < l->len; i++) {
        if (i < cap)
            gb_equiv__add(in, l->items[i], false);
        else
            free(l->items[i]);
    }
    gb_array_free(l);
}

/* Up to GB_EQUIV__THRESHOLDS inputs from the tests' calls with a number replaced by a mined
 * integer (n - 1, n, n + 1 of the program's and tests' integers), then up to cfg->mined more with
 * one argument replaced by a boundary value or a mined literal, each group in an order shuffled
 * by (seed, task). Returns how many inputs the first group added. */
enum { GB_EQUIV__THRESHOLDS = 24 };
static size_t gb_equiv__mined(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, uint64_t key,
                              GbEquivInputs *in)
{
    GbEquivStrs ints = {0}, strs = {0}, thr = {0}, all = {0};
    gb_equiv__mine(parser, task->source, &ints, &strs);
    gb_equiv__mine(parser, task->test_code, &ints, &strs);
    for (size_t i = 0; i < in->from_tests && i < 8; i++) {
        if (in->mode == GB_PROBE_CLASS) {
            gb_equiv__substitute_steps(parser, in->inputs.items[i], &ints, &strs, &thr, &all);
            continue;
        }
        gb_equiv__substitute(parser, in->inputs.items[i], &ints, &strs, true, &thr);
        gb_equiv__substitute(parser, in->inputs.items[i], &ints, &strs, false, &all);
    }
    GbRng rng;
    gb_rng_init_keyed(&rng, cfg->seed, key, 4, 0);
    size_t before = in->inputs.len;
    gb_equiv__shuffle_add(&thr, &rng, GB_EQUIV__THRESHOLDS, in);
    size_t nthr = in->inputs.len - before;
    gb_equiv__shuffle_add(&all, &rng, cfg->mined > 0 ? (size_t)cfg->mined : 0, in);
    gb_equiv__strs_free(&ints);
    gb_equiv__strs_free(&strs);
    return nthr;
}

/* Up to cfg->mined stdin texts from the tests' own, each with one integer token (among the first
 * 16 of the text) replaced by a boundary value (0, 1, 2, -1, 10000) or a mined integer (n - 1, n,
 * n + 1); whitespace and line structure are kept byte for byte. Shuffled by (seed, task). */
static void gb_equiv__mined_stdin(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, uint64_t key,
                                  GbEquivInputs *in)
{
    static const char *const bounds[] = {"0", "1", "2", "-1", "10000"};
    GbEquivStrs ints = {0}, strs = {0}, all = {0};
    gb_equiv__mine(parser, task->source, &ints, &strs);
    for (size_t i = 0; i < sizeof bounds / sizeof *bounds; i++) gb_equiv__strs_add(&ints, gb_strdup(bounds[i]), 64);
    for (size_t k = 0; k < in->from_tests && k < 4; k++) {
        const char *t = in->inputs.items[k];
        size_t pos = 0, tokens = 0, len = strlen(t);
        while (pos < len && tokens < 16) {
            while (pos < len && strchr(" \t\r\n", t[pos])) pos++;
            size_t end = pos;
            while (end < len && !strchr(" \t\r\n", t[end])) end++;
            if (end == pos) break;
            tokens++;
            size_t d = pos + (t[pos] == '-');
            bool integer = d < end;
            for (size_t c = d; c < end && integer; c++) integer = t[c] >= '0' && t[c] <= '9';
            for (size_t i = 0; integer && i < ints.len; i++)
                gb_equiv__strs_add(&all, gb_asprintf("%.*s%s%s", (int)pos, t, ints.items[i], t + end), SIZE_MAX);
            pos = end;
        }
    }
    GbRng rng;
    gb_rng_init_keyed(&rng, cfg->seed, key, 4, 1);
    gb_equiv__shuffle_add(&all, &rng, cfg->mined > 0 ? (size_t)cfg->mined : 0, in);
    gb_equiv__strs_free(&ints);
    gb_equiv__strs_free(&strs);
}

/* ---- the original's record ---- */

void gb_equiv_delete(GbEquiv *e)
{
    if (!e) return;
    gb_equiv_inputs_destroy(&e->in);
    for (size_t i = 0; i < e->value.len; i++) free(e->value.items[i]);
    for (size_t i = 0; i < e->out.len; i++) free(e->out.items[i]);
    gb_array_free(&e->kept);
    gb_array_free(&e->kept_large);
    gb_array_free(&e->value);
    gb_array_free(&e->out);
    gb_array_free(&e->cpu);
    gb_array_free(&e->wall);
    gb_array_free(&e->kept_at);
    gb_array_free(&e->screen);
    gb_array_free(&e->chosen);
    for (size_t i = 0; i < e->reach.len; i++) free(e->reach.items[i]);
    gb_array_free(&e->reach);
    free(e->branches);
    free(e->uncovered);
    free(e);
}

size_t gb_equiv_kept(const GbEquiv *e)
{
    return e ? e->kept.len : 0;
}

size_t gb_equiv_derived(const GbEquiv *e)
{
    return e ? e->in.inputs.len : 0;
}

size_t gb_equiv_large(const GbEquiv *e)
{
    size_t n = 0;
    for (size_t i = 0; e && i < e->kept_large.len; i++) n += e->kept_large.items[i];
    return n;
}

/* Whether kept input i counts for the cost bound. */
static bool gb_equiv__costs(const GbEquiv *e, size_t i)
{
    return gb_equiv_large(e) == 0 || e->kept_large.items[i];
}

double gb_equiv_cost(const GbEquiv *e)
{
    double s = 0;
    for (size_t i = 0; e && i < e->kept.len; i++)
        if (gb_equiv__costs(e, i)) s += e->cpu.items[i];
    return s;
}

static char *gb_equiv__probe_failure(const GbProbeResult *r)
{
    const GbRunResult *x = &r->run;
    return gb_asprintf("%s%s%s%s%s%s%s", gb_run_status_name(x->status), x->failed_test ? ": " : "",
                       x->failed_test ? x->failed_test : "", x->exc_type ? " -- " : "", x->exc_type ? x->exc_type : "",
                       x->exc_message ? ": " : "", x->exc_message ? x->exc_message : "");
}

/* How many space-separated ids s holds. */
static size_t gb_equiv__count(const char *s)
{
    size_t n = 0;
    for (const char *p = s; p && *p;) {
        while (*p == ' ') p++;
        size_t k = strcspn(p, " ");
        n += k > 0;
        p += k;
    }
    return n;
}

/* Whether a searched input on which the original ended this way may be kept: not when its
 * arguments were of a type the program does not handle (a rewrite may fail there otherwise). */
static bool gb_equiv__keepable(const GbProbeItem *it, double limit_s, GbProbeMode mode)
{
    if (it->status != GB_PROBE_OK || it->wall_s > limit_s / 2) return false;
    /* a stdio program that fails on a changed input read it in a way a rewrite may read otherwise */
    if (mode == GB_PROBE_STDIO) return strcmp(it->value, "exit=0") == 0;
    static const char *const refused[] = {"raise=TypeError", "raise=AttributeError", "raise=RecursionError",
                                          "raise=ProbeTimeout", "raise=MemoryError"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        /* a call sequence: any step */
        if (mode == GB_PROBE_CLASS && strstr(it->value, refused[i])) return false;
        if (strncmp(it->value, refused[i], strlen(refused[i])) == 0) return false;
    }
    return true;
}

/* The coverage-guided search: probe the inputs from first on with branch tracing (the larger
 * ones last, so that the probe's budget runs out on them rather than on the others), mark those
 * below first (always kept) and those that reach an outcome not reached yet. */
static bool gb_equiv__search_round(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg,
                                   double budget, GbEquiv *e, size_t first, GbEquivStrs *u, GbError *err)
{
    size_t n = e->in.inputs.len - first;
    if (n == 0) return true;
    GbArray(size_t) at = {0};
    GbArray(const char *) texts = {0};
    for (int large = 0; large < 2; large++)
        for (size_t i = first; i < e->in.inputs.len; i++)
            if (e->in.large.items[i] == (large == 1)) {
                gb_array_push(&at, i);
                gb_array_push(&texts, e->in.inputs.items[i]);
            }
    /* within a task budget's share an input may not take longer than the share itself */
    double limit = budget < cfg->limit_s ? budget : cfg->limit_s;
    GbProbeSpec spec = {e->in.mode, e->in.entry, texts.items, n, limit, budget, true, NULL, 0};
    GbProbeResult r;
    bool ok = gb_pool_probe(pool, task, prog, &spec, &r, err);
    if (ok && r.run.status == GB_RUN_PASS) {
        if (!e->branches) {
            e->branches = gb_strdup(r.branches);
            e->total = gb_equiv__count(r.branches);
        }
        /* the old inputs first: what they reach alone is the coverage without the search */
        for (size_t k = 0; k < n; k++) {
            const GbProbeItem *it = &r.items.items[k];
            size_t i = at.items[k];
            free(e->reach.items[i]);
            e->reach.items[i] = gb_strdup(it->status == GB_PROBE_OK ? it->branches : "");
            if (i < e->old_n) gb_equiv_new_ids(u, e->reach.items[i], true);
        }
        if (first == 0) e->covered_before = u->len;
        for (size_t k = 0; k < n; k++) {
            const GbProbeItem *it = &r.items.items[k];
            size_t i = at.items[k];
            if (i < e->old_n) continue;
            /* a threshold input is kept when the original handles it: coverage cannot tell the two
             * sides of a comparison the tests already took both ways */
            bool threshold = i < e->thr_end;
            if (gb_equiv__keepable(it, cfg->limit_s, e->in.mode) &&
                (threshold || gb_equiv_new_ids(u, it->branches, false) > 0)) {
                gb_equiv_new_ids(u, it->branches, true);
                e->chosen.items[i] = true;
            }
        }
    }
    gb_probe_result_destroy(&r);
    gb_array_free(&at);
    gb_array_free(&texts);
    return ok;
}

/* Append an input found by the search (taken), with its bookkeeping. */
static void gb_equiv__add_searched(GbEquiv *e, char *text)
{
    size_t before = e->in.inputs.len;
    gb_equiv__add(&e->in, text, false);
    for (size_t i = before; i < e->in.inputs.len; i++) {
        gb_array_push(&e->chosen, false);
        gb_array_push(&e->reach, gb_strdup(""));
    }
}

/* e->uncovered: the outcomes of e->branches not in u (reached), in source order. */
static void gb_equiv__set_uncovered(GbEquiv *e, GbEquivStrs *u)
{
    if (!e->branches) return;
    GbStr miss;
    gb_str_init(&miss);
    for (const char *p = e->branches; *p;) {
        while (*p == ' ') p++;
        size_t k = strcspn(p, " ");
        if (k == 0) break;
        char *id = gb_strndup(p, k);
        if (gb_equiv_new_ids(u, id, false) > 0) {
            if (miss.len) gb_str_append(&miss, " ");
            gb_str_append(&miss, id);
        }
        free(id);
        p += k;
    }
    e->uncovered = gb_str_take(&miss);
}

GbEquiv *gb_equiv_record(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg,
                         TSParser *parser, GbError *err)
{
    GbEquiv *e = gb_calloc(1, sizeof *e);
    e->limit_s = cfg->limit_s;
    double share = cfg->task_budget_s > 0 ? cfg->task_budget_s / GB_EQUIV_BUDGET_SHARE : 0;
    gb_equiv_inputs(cfg, task, parser, &e->in);
    uint64_t key = gb_hash64(task->id ? task->id : "", task->id ? strlen(task->id) : 0, 0x5EED5EEDULL);
    if (!gb_equiv_guard(pool, task, prog, cfg, parser, key, share, &e->in, err)) {
        gb_equiv_delete(e);
        return NULL;
    }
    e->old_n = e->in.inputs.len;
    if (e->old_n == 0) return e;
    for (size_t i = 0; i < e->old_n; i++) {
        gb_array_push(&e->chosen, true);
        gb_array_push(&e->reach, gb_strdup(""));
    }
    /* a traced run of one test case would outlast the search's share: it could find nothing */
    e->untraced = cfg->search > 0 && share > 0 && cfg->case_wall_s * GB_EQUIV_TRACE_SLOWDOWN > share;
    if (cfg->search > 0 && !e->untraced) {
        if (e->in.mode != GB_PROBE_STDIO) {
            size_t before = e->in.inputs.len;
            e->thr_end = before + gb_equiv__mined(cfg, task, parser, key, &e->in);
        } else {
            gb_equiv__mined_stdin(cfg, task, parser, key, &e->in);
        }
        for (size_t i = e->old_n; i < e->in.inputs.len; i++) {
            gb_array_push(&e->chosen, false);
            gb_array_push(&e->reach, gb_strdup(""));
        }
        GbEquivStrs u = {0};
        /* a round's probe budget; under a task budget, all rounds together stop at its share */
        double t_search = gb_now(), round_budget = 2 * cfg->budget_s + 4;
        if (share > 0 && round_budget > share) round_budget = share;
        bool ok = gb_equiv__search_round(pool, task, prog, cfg, round_budget, e, 0, &u, err);
        /* later rounds perturb the inputs that reached something new, while outcomes are left */
        for (int round = 1; ok && round < cfg->search && u.len < e->total; round++) {
            double left = share > 0 ? share - (gb_now() - t_search) : round_budget;
            if (left <= 0) break;
            size_t first = e->in.inputs.len;
            GbArray(size_t) seeds = {0};
            for (size_t i = e->old_n; i < first; i++)
                if (e->chosen.items[i]) gb_array_push(&seeds, i);
            for (size_t i = 0; i < e->in.from_tests; i++) gb_array_push(&seeds, i);
            for (int j = 0; seeds.len > 0 && j < cfg->mined; j++) {
                GbRng rng;
                gb_rng_init_keyed(&rng, cfg->seed, key, 8 + (uint64_t)round, (uint64_t)j);
                const char *base = e->in.inputs.items[seeds.items[(size_t)j % seeds.len]];
                gb_equiv__add_searched(e, e->in.mode == GB_PROBE_STDIO ? gb_perturb_stdin(base, &rng)
                                          : e->in.mode == GB_PROBE_CLASS
                                              ? gb_equiv__perturb_sequence(parser, base, &rng, 0)
                                              : gb_perturb_args(parser, base, &rng, 1));
            }
            gb_array_free(&seeds);
            ok = gb_equiv__search_round(pool, task, prog, cfg, left < round_budget ? left : round_budget, e, first, &u,
                                        err);
        }
        gb_equiv__strs_free(&u);
        if (!ok) {
            gb_equiv_delete(e);
            return NULL;
        }
    }
    GbArray(const char *) probe_in = {0};
    GbArray(size_t) probe_at = {0};
    for (size_t i = 0; i < e->in.inputs.len; i++)
        if (e->chosen.items[i]) {
            gb_array_push(&probe_in, e->in.inputs.items[i]);
            gb_array_push(&probe_at, i);
        }
    size_t n = probe_in.len;
    /* the searched inputs come on top of the budget of the tests' own and derived ones */
    double budget = cfg->budget_s + (n > e->old_n ? cfg->budget_s : 0);
    if (share > 0 && budget > share) budget = share;
    GbProbeSpec spec = {e->in.mode, e->in.entry, probe_in.items, n, cfg->limit_s, budget, false, NULL, 0};
    GbProbeResult r[2];
    bool ok = true;
    int ran = 0;
    bool clockless = gb_equiv_clockless(parser, task, prog);
    for (int k = 0; k < 2 && ok; k++, ran++) {
        /* a result that reads a clock in whole seconds differs between the two probes only when a
         * second boundary lies between its two reads: unless the program cannot read a clock, the
         * second probe starts 1.1 s after the first ended (not after it started: a first probe
         * slow to reach an input and a second fast to reach it could read the same second) */
        if (k == 1 && !clockless) nanosleep(&(struct timespec){1, 100000000L}, NULL);
        ok = gb_pool_probe(pool, task, prog, &spec, &r[k], err);
        if (ok && r[k].run.status != GB_RUN_PASS) {
            char *why = gb_equiv__probe_failure(&r[k]);
            gb_error_set(err, "task %s: the probe of the original failed: %s", task->id, why);
            free(why);
            ok = false;
        }
    }
    GbEquivStrs u = {0};
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            const GbProbeItem *a = &r[0].items.items[i], *b = &r[1].items.items[i];
            if (a->status != GB_PROBE_OK || b->status != GB_PROBE_OK) continue;
            if (a->wall_s > cfg->limit_s / 2 || b->wall_s > cfg->limit_s / 2) continue; /* slow */
            /* nondeterministic: dropped; a call sequence keeps its stable steps (equiv_steps.h) */
            char *value = strcmp(a->out, b->out) != 0       ? NULL
                          : strcmp(a->value, b->value) == 0 ? gb_strdup(a->value)
                          : e->in.mode == GB_PROBE_CLASS    ? gb_equiv_steps_mask(a->value, b->value)
                                                            : NULL;
            if (!value) continue;
            size_t at = probe_at.items[i];
            gb_array_push(&e->kept, e->in.inputs.items[at]);
            gb_array_push(&e->kept_large, e->in.large.items[at]);
            gb_array_push(&e->value, value);
            gb_array_push(&e->out, gb_strdup(a->out));
            gb_array_push(&e->cpu, a->cpu_s < b->cpu_s ? a->cpu_s : b->cpu_s);
            gb_array_push(&e->wall, a->wall_s < b->wall_s ? a->wall_s : b->wall_s);
            gb_array_push(&e->kept_at, at);
            gb_equiv_new_ids(&u, e->reach.items[at], true);
        }
    }
    e->covered = u.len;
    gb_equiv__set_uncovered(e, &u);
    gb_equiv__strs_free(&u);
    gb_array_free(&probe_in);
    gb_array_free(&probe_at);
    for (int k = 0; k < ran; k++) gb_probe_result_destroy(&r[k]);
    if (!ok) {
        gb_equiv_delete(e);
        return NULL;
    }
    if (cfg->task_budget_s > 0) gb_equiv_screen_choose(e, cfg->task_budget_s / GB_EQUIV_SCREEN_SHARE);
    return e;
}

size_t gb_equiv_branches(const GbEquiv *e)
{
    return e ? e->total : 0;
}

bool gb_equiv_untraced(const GbEquiv *e)
{
    return e && e->untraced;
}

size_t gb_equiv_covered(const GbEquiv *e)
{
    return e ? e->covered : 0;
}

size_t gb_equiv_covered_before(const GbEquiv *e)
{
    return e ? e->covered_before : 0;
}

const char *gb_equiv_uncovered(const GbEquiv *e)
{
    return e && e->uncovered ? e->uncovered : "";
}

/* ---- the check ---- */

void gb_equiv_verdict_destroy(GbEquivVerdict *v)
{
    free(v->input);
    free(v->expected);
    free(v->got);
    free(v->why);
    memset(v, 0, sizeof *v);
}

/* The end of the step description that starts at p (src/runner/runner.h, GB_PROBE_STEP_SEP). */
static const char *gb_equiv__step_end(const char *p)
{
    const char *q = strchr(p, GB_PROBE_STEP_SEP);
    return q ? q : p + strlen(p);
}

/* Call sequences: replace *a and *b (owned) by the first step where the two results differ,
 * named with the step ("step 3 .pop(): ret=1;state={...}"), when they differ in a step. */
static void gb_equiv__first_step(const char *seq, const char *va, const char *vb, char **a, char **b)
{
    GbSeqSteps steps = {0};
    if (!gb_sequence_steps(seq, &steps)) {
        gb_array_free(&steps);
        return;
    }
    const char *pa = va, *pb = vb;
    for (size_t k = 0;; k++) {
        const char *ea = gb_equiv__step_end(pa), *eb = gb_equiv__step_end(pb);
        if (!gb_equiv_step_unstable(pa) && (ea - pa != eb - pb || memcmp(pa, pb, (size_t)(ea - pa)) != 0)) {
            const GbSeqStep *st = k < steps.len ? &steps.items[k] : NULL;
            int hl = st ? (int)st->head_len : 0, al = st ? (int)st->args_len : 0;
            const char *close = st && st->head[st->head_len - 1] == '(' ? ")" : "";
            char *na = gb_asprintf("step %zu %.*s%.*s%s: %.*s", k + 1, hl, st ? st->head : "", al, st ? st->args : "",
                                   close, (int)(ea - pa), pa);
            char *nb = gb_asprintf("step %zu %.*s%.*s%s: %.*s", k + 1, hl, st ? st->head : "", al, st ? st->args : "",
                                   close, (int)(eb - pb), pb);
            free(*a);
            free(*b);
            *a = na;
            *b = nb;
            break;
        }
        if (!*ea || !*eb) break;
        pa = ea + 1;
        pb = eb + 1;
    }
    gb_array_free(&steps);
}

static char *gb_equiv__describe(const char *value, const char *out, GbProbeMode mode)
{
    if (!*out) return gb_strdup(value);
    return gb_asprintf("%s;%s=%s", value, mode == GB_PROBE_STDIO ? "stdout" : "printed", out);
}

/* The stdio cases judged from the same probe (gb_equiv_check_cases): where each case's stdin is among
 * the probed inputs (at[k]), and the result they go to. */
typedef struct {
    size_t *at;
    GbRunResult *tests;
} GbEquivCases;

static bool gb_equiv__check_probe(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                                  const GbProgram *prog, const GbProbeSpec *spec, const size_t *at,
                                  const GbEquivCases *cases, GbEquivVerdict *v, GbError *err);

/* The CPU bound of a child on ncost cost inputs on which the original took orig seconds. */
static double gb_equiv__cpu_bound(const GbEquiv *e, const GbEquivConfig *cfg, double orig, size_t ncost)
{
    double slack = gb_equiv_large(e) > 0 ? cfg->large_slack_s : cfg->cost_slack_s;
    return cfg->cost_ratio * orig + slack * (double)ncost;
}

/* gb_equiv_check (rest false: the screen's inputs, or every kept one without a screen) and
 * gb_equiv_check_rest (rest true: the kept inputs outside the screen). */
static bool gb_equiv__check_part(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                                 const GbProgram *prog, bool rest, GbRunResult *tests, bool *merged, GbEquivVerdict *v,
                                 GbError *err)
{
    if (merged) *merged = false;
    memset(v, 0, sizeof *v);
    v->first = -1;
    v->agree = v->cost_ok = true;
    v->status = GB_RUN_PASS;
    size_t n = e ? e->kept.len : 0;
    if (n == 0) return true;
    /* an input times out only when the program is far slower than the original on it (by the
     * cost ratio, plus 0.5 s for a loaded machine), and never before limit_s */
    double limit = cfg->limit_s;
    for (size_t i = 0; i < n; i++) {
        double l = cfg->cost_ratio * e->wall.items[i] + 0.5;
        if (l > limit) limit = l;
    }
    if (limit > 3600) limit = 3600; /* --no-cost sets a huge ratio; the pool's timeout ends the run anyway */
    /* without a cost bound (--no-cost) the larger inputs, there for the bound, are left out */
    bool cost_off = cfg->cost_ratio >= GB_EQUIV_NO_COST;
    GbArray(const char *) texts = {0};
    GbArray(size_t) at = {0};
    for (size_t i = 0; i < n; i++)
        if ((!cost_off || gb_equiv_large(e) == 0 || !e->kept_large.items[i]) &&
            (e->screen.len == 0 ? !rest : e->screen.items[i] != rest)) {
            gb_array_push(&texts, e->kept.items[i]);
            gb_array_push(&at, i);
        }
    n = at.len;
    GbEquivCases cases = {NULL, tests};
    if (tests && n > 0) {
        /* every case's stdin among the probed inputs, or the cases run on their own */
        cases.at = gb_malloc((task->cases.len + 1) * sizeof *cases.at);
        for (size_t k = 0; k < task->cases.len && cases.at; k++) {
            const char *in = task->cases.items[k].stdin_text ? task->cases.items[k].stdin_text : "";
            size_t j = 0;
            while (j < n && strcmp(texts.items[j], in) != 0) j++;
            if (j == n) {
                free(cases.at);
                cases.at = NULL;
            } else {
                cases.at[k] = j;
            }
        }
    }
    if (n == 0 || (tests && !cases.at)) { /* nothing outside the screen, or a case not probed */
        gb_array_free(&texts);
        gb_array_free(&at);
        return true;
    }
    if (merged) *merged = tests != NULL;
    GbProbeSpec spec = {e->in.mode, e->in.entry, texts.items, n, limit, 1e9, false, NULL, 0};
    /* The cost cut: a child whose CPU time on the cost inputs passes GB_EQUIV_COST_CUT x its
     * bound is over it however the rest would go (the bound's second measurement, for noise,
     * would have to come in at half the first), so the cost inputs left are skipped and the
     * child counts as too slow. Without it, a child made quadratic spent up to 2 x 4 larger
     * inputs' worth of time (5.8 s for one HumanEval child whose original took 2 ms). */
    bool *cost = cost_off ? NULL : gb_malloc((n ? n : 1) * sizeof *cost);
    if (cost) {
        size_t ncost = 0;
        double orig = 0;
        for (size_t k = 0; k < n; k++) {
            cost[k] = gb_equiv__costs(e, at.items[k]);
            if (!cost[k]) continue;
            ncost++;
            orig += e->cpu.items[at.items[k]];
        }
        spec.cost = cost;
        spec.cost_cpu_s = GB_EQUIV_COST_CUT * gb_equiv__cpu_bound(e, cfg, orig, ncost);
    }
    bool ok = gb_equiv__check_probe(e, cfg, pool, task, prog, &spec, at.items, tests ? &cases : NULL, v, err);
    free(cases.at);
    free(cost);
    gb_array_free(&texts);
    gb_array_free(&at);
    return ok;
}

bool gb_equiv_check(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task, const GbProgram *prog,
                    GbEquivVerdict *v, GbError *err)
{
    return gb_equiv__check_part(e, cfg, pool, task, prog, false, NULL, NULL, v, err);
}

bool gb_equiv_check_cases(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                          const GbProgram *prog, GbEquivVerdict *v, GbRunResult *tests, bool *merged, GbError *err)
{
    gb_run_result_init(tests);
    tests->status = GB_RUN_PASS;
    bool ok = gb_equiv__check_part(e, cfg, pool, task, prog, false, tests, merged, v, err);
    if (!*merged) gb_equiv_verdict_destroy(v);
    return ok;
}

bool gb_equiv_check_rest(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                         const GbProgram *prog, GbEquivVerdict *v, GbError *err)
{
    return gb_equiv__check_part(e, cfg, pool, task, prog, true, NULL, NULL, v, err);
}

bool gb_equiv_screened(const GbEquiv *e, size_t *n)
{
    *n = e ? e->nscreen : 0;
    return e && e->screen.len > 0;
}

/* Compare probe item it with the record of kept input i into v (the first disagreement
 * described); a timeout on a larger input is over the cost bound (*slow), not a disagreement,
 * and so is a cost input skipped because the probe's time was spent (the probe that runs the
 * program apart, src/runner/harness_probe_apart.py, skips what is left after its budget) or
 * its cost cut was passed. */
static void gb_equiv__compare_item(const GbEquiv *e, size_t i, const GbProbeItem *it, double limit, GbEquivVerdict *v,
                                   bool *slow)
{
    v->checked++;
    bool same = it->status == GB_PROBE_OK &&
                (e->in.mode == GB_PROBE_CLASS ? gb_equiv_steps_match(e->value.items[i], it->value)
                                              : strcmp(it->value, e->value.items[i]) == 0) &&
                (e->in.mode == GB_PROBE_STDIO ? gb_stdio_output_matches(it->out, e->out.items[i])
                                              : strcmp(it->out, e->out.items[i]) == 0);
    if (same) {
        v->agreed++;
        return;
    }
    if ((it->status == GB_PROBE_TIMEOUT && e->kept_large.items[i]) ||
        (it->status == GB_PROBE_SKIPPED && gb_equiv__costs(e, i))) {
        v->cut += it->status == GB_PROBE_SKIPPED;
        *slow = true;
        return;
    }
    v->agree = false;
    if (v->first >= 0) return;
    v->first = (long)i;
    v->input = e->in.mode == GB_PROBE_CLASS ? gb_sequence_display(e->kept.items[i]) : gb_strdup(e->kept.items[i]);
    v->expected = gb_equiv__describe(e->value.items[i], e->out.items[i], e->in.mode);
    v->got = it->status == GB_PROBE_TIMEOUT   ? gb_asprintf("timeout (over %g s)", limit)
             : it->status == GB_PROBE_SKIPPED ? gb_strdup("skipped")
                                              : gb_equiv__describe(it->value, it->out, e->in.mode);
    if (e->in.mode == GB_PROBE_CLASS && it->status == GB_PROBE_OK)
        gb_equiv__first_step(e->kept.items[i], e->value.items[i], it->value, &v->expected, &v->got);
}

/* gb_equiv_check on the kept inputs at[0..spec->n - 1], probed as spec says (and with cases, the
 * stdio cases judged from the same items). */
static bool gb_equiv__check_probe(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                                  const GbProgram *prog, const GbProbeSpec *spec, const size_t *at,
                                  const GbEquivCases *cases, GbEquivVerdict *v, GbError *err)
{
    size_t n = spec->n;
    GbProbeResult r;
    if (!gb_pool_probe(pool, task, prog, spec, &r, err)) {
        gb_probe_result_destroy(&r);
        v->status = GB_RUN_ERROR;
        v->agree = false;
        return false;
    }
    v->status = r.run.status;
    if (r.run.status != GB_RUN_PASS) {
        v->agree = false;
        v->why = gb_equiv__probe_failure(&r);
        if (cases) { /* as a run of the cases together reports it */
            cases->tests->status = r.run.status;
            cases->tests->failed_test = gb_strdup("case 0");
            gb_array_push(&cases->tests->failed_tests, gb_strdup("0"));
        }
        gb_probe_result_destroy(&r);
        return true;
    }
    /* a case the probe did not complete (a timeout, a cost cut) is left to the verdict, which
     * rejects the program for it: slow or disagreeing, never passed */
    for (size_t k = 0; cases && k < task->cases.len; k++) {
        const GbProbeItem *it = &r.items.items[cases->at[k]];
        if (it->status == GB_PROBE_OK) gb_cases_judge(task, k, it, cases->tests);
    }
    double *cpu = gb_malloc((n + 1) * sizeof *cpu), *wall = gb_malloc((n + 1) * sizeof *wall);
    bool slow = false;
    for (size_t k = 0; k < n; k++) {
        cpu[k] = r.items.items[k].cpu_s;
        wall[k] = r.items.items[k].wall_s;
        gb_equiv__compare_item(e, at[k], &r.items.items[k], spec->limit_s, v, &slow);
    }
    gb_probe_result_destroy(&r);
    /* the cost bound, on agreeing programs only (a disagreeing one is rejected anyway) */
    size_t ncost = 0;
    for (size_t k = 0; k < n; k++) ncost += gb_equiv__costs(e, at[k]);
    for (int attempt = 0; v->agree && attempt < 2; attempt++) {
        v->cost_orig = v->cost_child = v->wall_orig = v->wall_child = 0;
        for (size_t k = 0; k < n; k++) {
            if (!gb_equiv__costs(e, at[k])) continue;
            v->cost_orig += e->cpu.items[at[k]];
            v->cost_child += cpu[k];
            v->wall_orig += e->wall.items[at[k]];
            v->wall_child += wall[k];
        }
        v->cost_ok = !slow && v->cost_child <= gb_equiv__cpu_bound(e, cfg, v->cost_orig, ncost) &&
                     v->wall_child <= cfg->cost_ratio * v->wall_orig + cfg->wall_slack_s * (double)ncost;
        if (v->cost_ok || slow || attempt == 1) break;
        /* over the bound: measure once more and keep the smaller time per input */
        if (!gb_pool_probe(pool, task, prog, spec, &r, err)) {
            gb_probe_result_destroy(&r);
            free(cpu);
            free(wall);
            return false;
        }
        for (size_t k = 0; r.run.status == GB_RUN_PASS && k < n; k++) {
            const GbProbeItem *it = &r.items.items[k];
            if (it->status != GB_PROBE_OK) continue;
            if (it->cpu_s < cpu[k]) cpu[k] = it->cpu_s;
            if (it->wall_s < wall[k]) wall[k] = it->wall_s;
        }
        gb_probe_result_destroy(&r);
    }
    free(cpu);
    free(wall);
    return true;
}
