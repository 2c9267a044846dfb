/* Call sequences of a class-level task, from its test methods (sequences.h). */
#include "src/model/sequences.h"

#include <stdlib.h>
#include <string.h>

#include "src/model/calls.h"
#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

#define GB_SEQ_MAX_BYTES 16384

typedef struct {
    char *name;  /* owned: a local name */
    char *value; /* owned: the literal data it is bound to */
} GbSeqBinding;

typedef struct {
    char *var; /* owned: the text that names the object (`obj`, `self.obj`) */
    GbStr text;
    size_t steps;
} GbSeqObject;

typedef struct {
    TSParser *parser;
    const char *src;
    const char *cls;
    GbArray(GbSeqBinding) names;
    GbArray(GbSeqObject) objs;
    GbSeqList *out;
} GbSeqWalk;

static void gb_seq__unbind(GbSeqWalk *w, TSNode name)
{
    for (size_t i = 0; i < w->names.len; i++)
        if (gb_node_text_eq(name, w->src, w->names.items[i].name)) {
            free(w->names.items[i].name);
            free(w->names.items[i].value);
            w->names.items[i] = w->names.items[--w->names.len];
            return;
        }
}

static const char *gb_seq__bound(const GbSeqWalk *w, TSNode name)
{
    for (size_t i = 0; i < w->names.len; i++)
        if (gb_node_text_eq(name, w->src, w->names.items[i].name)) return w->names.items[i].value;
    return NULL;
}

/* node's text with every name bound to literal data replaced by that data in parentheses
 * (keyword names and attribute names kept), appended to o. */
static void gb_seq__resolve(const GbSeqWalk *w, TSNode node, GbStr *o)
{
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    if (gb_node_is_kind(node, GB_NK_IDENTIFIER) || gb_node_is_kind(node, GB_NK_ATTRIBUTE)) {
        const char *v = gb_seq__bound(w, node);
        if (v) {
            gb_str_appendf(o, "(%s)", v);
            return;
        }
    }
    uint32_t n = ts_node_child_count(node), at = a;
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_child(node, i);
        uint32_t ca = ts_node_start_byte(c), cb = ts_node_end_byte(c);
        gb_str_append_n(o, w->src + at, ca - at);
        bool keep = (gb_node_is_kind(node, GB_NK_KEYWORD_ARGUMENT) && i == 0) ||
                    (gb_node_is_kind(node, GB_NK_ATTRIBUTE) && i > 0);
        if (keep)
            gb_str_append_n(o, w->src + ca, cb - ca);
        else
            gb_seq__resolve(w, c, o);
        at = cb;
    }
    gb_str_append_n(o, w->src + at, b - at);
}

/* The arguments of call (or, args false, the expression node) with bound names resolved, when
 * they are literal data (owned), else NULL. */
static char *gb_seq__literal(const GbSeqWalk *w, TSNode node, bool args)
{
    GbStr o;
    gb_str_init(&o);
    if (args) {
        TSNode list = gb_node_field(node, "arguments");
        if (!gb_node_is_kind(list, GB_NK_ARGUMENT_LIST)) return NULL;
        uint32_t n = ts_node_child_count(list);
        /* the children between the parentheses */
        for (uint32_t i = 1; i + 1 < n; i++) {
            TSNode c = ts_node_child(list, i);
            if (i > 1) {
                uint32_t pe = ts_node_end_byte(ts_node_child(list, i - 1));
                gb_str_append_n(&o, w->src + pe, ts_node_start_byte(c) - pe);
            }
            gb_seq__resolve(w, c, &o);
        }
    } else {
        gb_seq__resolve(w, node, &o);
    }
    char *t = gb_str_take(&o);
    if (!t) t = gb_strdup("");
    char why[160];
    bool ok = args ? gb_literal_args_ok(w->parser, t, why, sizeof why) : gb_literal_ok(w->parser, t, why, sizeof why);
    if (!ok || strlen(t) > GB_SEQ_MAX_BYTES / 4) {
        free(t);
        return NULL;
    }
    return t;
}

static GbSeqObject *gb_seq__object(GbSeqWalk *w, TSNode var)
{
    for (size_t i = 0; i < w->objs.len; i++)
        if (gb_node_text_eq(var, w->src, w->objs.items[i].var)) return &w->objs.items[i];
    return NULL;
}

/* Hand the object's sequence to the output (taken) and forget it. */
static void gb_seq__finish(GbSeqWalk *w, size_t i)
{
    GbSeqObject *o = &w->objs.items[i];
    char *t = gb_str_take(&o->text);
    bool dup = false;
    for (size_t k = 0; t && k < w->out->len && !dup; k++) dup = strcmp(w->out->items[k], t) == 0;
    if (t && !dup)
        gb_array_push(w->out, t);
    else
        free(t);
    free(o->var);
    memmove(&w->objs.items[i], &w->objs.items[i + 1], (w->objs.len - i - 1) * sizeof *w->objs.items);
    w->objs.len--;
}

static void gb_seq__step(GbSeqObject *o, const char *head, const char *name, const char *args, const char *tail)
{
    if (o->steps >= GB_SEQ_MAX_STEPS || o->text.len + strlen(args) + strlen(name) + 4 > GB_SEQ_MAX_BYTES) return;
    gb_str_append_n(&o->text, (const char[]){GB_SEQ_SEP}, 1);
    gb_str_appendf(&o->text, "%s%s%s%s", head, name, args, tail);
    o->steps++;
}

/* The class's constructor call with literal arguments: a new object named var. */
static bool gb_seq__construct(GbSeqWalk *w, TSNode var, TSNode value)
{
    if (!gb_node_is_kind(value, GB_NK_CALL)) return false;
    TSNode fn = gb_node_field(value, "function");
    if (!gb_node_is_kind(fn, GB_NK_IDENTIFIER) || !gb_node_text_eq(fn, w->src, w->cls)) return false;
    if (!gb_node_is_kind(var, GB_NK_IDENTIFIER) && !gb_node_is_kind(var, GB_NK_ATTRIBUTE)) return false;
    for (size_t i = 0; i < w->objs.len; i++)
        if (gb_node_text_eq(var, w->src, w->objs.items[i].var)) {
            gb_seq__finish(w, i);
            break;
        }
    char *args = gb_seq__literal(w, value, true);
    if (!args) return true;
    GbSeqObject o = {gb_node_text(var, w->src), {0}, 1};
    gb_str_init(&o.text);
    gb_str_appendf(&o.text, "%s(%s)", w->cls, args);
    free(args);
    gb_array_push(&w->objs, o);
    return true;
}

static void gb_seq__walk(GbSeqWalk *w, TSNode n, int depth);

/* A method called on the class itself (`Builder.select('t')`, a static or class method): the
 * calls of one test method go to one sequence on the class (first step `Builder=`). NULL when var
 * is not the class's name. */
static GbSeqObject *gb_seq__class_object(GbSeqWalk *w, TSNode var)
{
    if (!gb_node_is_kind(var, GB_NK_IDENTIFIER) || !gb_node_text_eq(var, w->src, w->cls)) return NULL;
    GbSeqObject o = {gb_node_text(var, w->src), {0}, 1};
    gb_str_init(&o.text);
    gb_str_appendf(&o.text, "%s=", w->cls);
    gb_array_push(&w->objs, o);
    return &w->objs.items[w->objs.len - 1];
}

/* `for NAME in [literal, ...]:` (a list, tuple or set written out, at most 16 elements, no else):
 * the body walked once per element with NAME bound to it. False when the loop is not of that form. */
static bool gb_seq__unroll(GbSeqWalk *w, TSNode loop, int depth)
{
    TSNode left = gb_node_field(loop, "left"), right = gb_node_field(loop, "right"), body = gb_node_field(loop, "body");
    if (!gb_node_is_kind(left, GB_NK_IDENTIFIER) || ts_node_is_null(body) ||
        !ts_node_is_null(gb_node_field(loop, "alternative")))
        return false;
    if (!gb_node_is_kind(right, GB_NK_LIST) && !gb_node_is_kind(right, GB_NK_TUPLE) &&
        !gb_node_is_kind(right, GB_NK_SET))
        return false;
    uint32_t n = ts_node_named_child_count(right);
    if (n > 16) return false;
    for (uint32_t i = 0; i < n; i++) {
        char *v = gb_seq__literal(w, ts_node_named_child(right, i), false);
        if (!v) return false;
        free(v);
    }
    for (uint32_t i = 0; i < n; i++) {
        char *v = gb_seq__literal(w, ts_node_named_child(right, i), false);
        gb_seq__unbind(w, left);
        GbSeqBinding b = {gb_node_text(left, w->src), v};
        gb_array_push(&w->names, b);
        gb_seq__walk(w, body, depth + 1);
    }
    gb_seq__unbind(w, left);
    return true;
}

static void gb_seq__walk(GbSeqWalk *w, TSNode n, int depth)
{
    if (depth > 100) return;
    GbNodeKind k = gb_node_kind(n);
    if (k == GB_NK_FUNCTION_DEFINITION || k == GB_NK_CLASS_DEFINITION || k == GB_NK_LAMBDA) return;
    if (k == GB_NK_ASSIGNMENT) {
        TSNode left = gb_node_field(n, "left"), right = gb_node_field(n, "right");
        if (ts_node_is_null(right)) return;
        if (gb_seq__construct(w, left, right)) return;
        gb_seq__walk(w, right, depth + 1);
        GbSeqObject *o =
            gb_node_is_kind(left, GB_NK_ATTRIBUTE) ? gb_seq__object(w, gb_node_field(left, "object")) : NULL;
        if (o) {
            char *v = gb_seq__literal(w, right, false);
            if (v) {
                char *name = gb_node_text(gb_node_field(left, "attribute"), w->src);
                gb_seq__step(o, ".", name, "=", v);
                free(name);
                free(v);
            }
        } else if (gb_node_is_kind(left, GB_NK_IDENTIFIER) || gb_node_is_kind(left, GB_NK_ATTRIBUTE)) {
            /* a name, or an attribute of another object (`self.path = 'a.db'` in setUp) */
            char *v = gb_seq__literal(w, right, false);
            gb_seq__unbind(w, left);
            if (v) {
                GbSeqBinding b = {gb_node_text(left, w->src), v};
                gb_array_push(&w->names, b);
            }
        }
        return;
    }
    if (k == GB_NK_FOR_STATEMENT && gb_seq__unroll(w, n, depth)) return;
    if (k == GB_NK_CALL) {
        TSNode args = gb_node_field(n, "arguments");
        if (!ts_node_is_null(args)) gb_seq__walk(w, args, depth + 1);
        TSNode fn = gb_node_field(n, "function");
        if (gb_node_is_kind(fn, GB_NK_ATTRIBUTE)) {
            GbSeqObject *o = gb_seq__object(w, gb_node_field(fn, "object"));
            if (!o) o = gb_seq__class_object(w, gb_node_field(fn, "object"));
            char *a = o ? gb_seq__literal(w, n, true) : NULL;
            if (a) {
                char *name = gb_node_text(gb_node_field(fn, "attribute"), w->src);
                GbStr t;
                gb_str_init(&t);
                gb_str_appendf(&t, "(%s)", a);
                gb_seq__step(o, ".", name, t.data, "");
                gb_str_destroy(&t);
                free(name);
                free(a);
            }
            if (!o) gb_seq__walk(w, fn, depth + 1);
        }
        return;
    }
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++) gb_seq__walk(w, ts_node_named_child(n, i), depth + 1);
}

/* The body of the first function definition from *from on (all when from is NULL) directly in
 * the class body body named name (prefix: whose name starts with name), or a null node. */
static TSNode gb_seq__method(TSNode body, const char *src, const char *name, bool prefix, uint32_t *from)
{
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = from ? *from : 0; i < n; i++) {
        TSNode d = ts_node_named_child(body, i);
        if (gb_node_is_kind(d, GB_NK_DECORATED_DEFINITION)) d = gb_node_field(d, "definition");
        if (!gb_node_is_kind(d, GB_NK_FUNCTION_DEFINITION)) continue;
        TSNode nm = gb_node_field(d, "name");
        char *t = gb_node_text(nm, src);
        bool hit = prefix ? strncmp(t, name, strlen(name)) == 0 : strcmp(t, name) == 0;
        free(t);
        if (hit) {
            if (from) *from = i + 1;
            return gb_node_field(d, "body");
        }
    }
    TSNode none = {0};
    if (from) *from = n;
    return none;
}

static void gb_seq__reset(GbSeqWalk *w)
{
    while (w->objs.len > 0) gb_seq__finish(w, 0);
    for (size_t i = 0; i < w->names.len; i++) {
        free(w->names.items[i].name);
        free(w->names.items[i].value);
    }
    w->names.len = 0;
}

void gb_sequences_extract(TSParser *parser, const GbTask *t, GbSeqList *out)
{
    if (t->kind != GB_TESTS_UNITTEST || !t->test_code || !t->entry_point) return;
    const char *src = t->test_code;
    TSTree *tree = gb_parse(parser, src, strlen(src));
    TSNode root = ts_tree_root_node(tree);
    GbSeqWalk w = {parser, src, t->entry_point, {0}, {0}, out};
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (gb_node_is_kind(c, GB_NK_DECORATED_DEFINITION)) c = gb_node_field(c, "definition");
        if (!gb_node_is_kind(c, GB_NK_CLASS_DEFINITION)) continue;
        TSNode body = gb_node_field(c, "body");
        TSNode setup = gb_seq__method(body, src, "setUp", false, NULL);
        for (uint32_t from = 0;;) {
            TSNode test = gb_seq__method(body, src, "test", true, &from);
            if (ts_node_is_null(test)) break;
            if (!ts_node_is_null(setup)) gb_seq__walk(&w, setup, 0);
            gb_seq__walk(&w, test, 0);
            gb_seq__reset(&w); /* the objects' sequences, in the order they were constructed */
        }
    }
    gb_seq__reset(&w);
    gb_array_free(&w.objs);
    gb_array_free(&w.names);
    ts_tree_delete(tree);
}

bool gb_sequence_steps(const char *text, GbSeqSteps *out)
{
    const char *p = text;
    while (p && *p) {
        const char *end = strchr(p, GB_SEQ_SEP);
        if (!end) end = p + strlen(p);
        size_t len = (size_t)(end - p);
        size_t h = strcspn(p, "(=");
        if (h >= len) return false;
        GbSeqStep s = {p, h + 1, p + h + 1, len - h - 1};
        if (p[h] == '(') {
            if (len < h + 2 || p[len - 1] != ')') return false;
            s.args_len--;
        }
        gb_array_push(out, s);
        p = *end ? end + 1 : end;
    }
    return true;
}

char *gb_sequence_with(const GbSeqStep *steps, size_t n, size_t k, const char *args)
{
    GbStr o;
    gb_str_init(&o);
    for (size_t i = 0; i < n; i++) {
        const GbSeqStep *s = &steps[i];
        if (i) gb_str_append_n(&o, (const char[]){GB_SEQ_SEP}, 1);
        gb_str_append_n(&o, s->head, s->head_len);
        if (i == k)
            gb_str_append(&o, args);
        else
            gb_str_append_n(&o, s->args, s->args_len);
        if (s->head[s->head_len - 1] == '(') gb_str_append(&o, ")");
    }
    char *t = gb_str_take(&o);
    return t ? t : gb_strdup("");
}

char *gb_sequence_display(const char *text)
{
    GbStr o;
    gb_str_init(&o);
    for (const char *p = text; p && *p; p++) {
        if (*p == GB_SEQ_SEP)
            gb_str_append(&o, "; ");
        else
            gb_str_append_n(&o, p, 1);
    }
    char *t = gb_str_take(&o);
    return t ? t : gb_strdup("");
}
