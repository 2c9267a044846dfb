/* Repair scored on derived inputs: the reference program and its recorded results (plus.h). */
#include "src/eval/plus.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2/equiv.h"
#include "src/model/program.h"

typedef struct {
    const char *module, *before, *after;
    long line, column;
} GbPlusEdit;

static int gb_eval_plus__cmp(const void *a, const void *b)
{
    const GbPlusEdit *x = a, *y = b;
    int m = strcmp(x->module, y->module);
    if (m) return m;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->column < y->column ? -1 : x->column > y->column;
}

/* The text of module path in t (borrowed slot), NULL when t has none. */
static char **gb_eval_plus__module(GbTask *t, const char *path)
{
    if (strcmp(path, GB_MAIN_MODULE) == 0) return &t->source;
    for (size_t i = 0; i < t->extra_files.len; i++)
        if (strcmp(t->extra_files.items[i].path, path) == 0) return &t->extra_files.items[i].source;
    return NULL;
}

/* Revert edits e[0..n) (one module, sorted by place) in *text. */
static bool gb_eval_plus__revert(char **text, const GbPlusEdit *e, size_t n, char *why, size_t why_size)
{
    long *col = gb_malloc((n ? n : 1) * sizeof *col);
    for (size_t i = 0; i < n; i++) {
        /* the buggy program's column: the earlier edits of the line moved it */
        col[i] = e[i].column;
        for (size_t j = 0; j < i; j++)
            if (e[j].line == e[i].line) col[i] += (long)strlen(e[j].after) - (long)strlen(e[j].before);
    }
    bool ok = true;
    for (size_t k = n; ok && k-- > 0;) {
        const char *s = *text;
        size_t off = 0;
        for (long l = 1; l < e[k].line && s[off]; l++) {
            const char *nl = strchr(s + off, '\n');
            off = nl ? (size_t)(nl - s) + 1 : strlen(s);
        }
        size_t la = strlen(e[k].after);
        if (col[k] < 0 || off + (size_t)col[k] > strlen(s) || strncmp(s + off + (size_t)col[k], e[k].after, la) != 0) {
            snprintf(why, why_size, "%s line %ld column %ld: the mutation's text `%s` is not there", e[k].module,
                     e[k].line, e[k].column, e[k].after);
            ok = false;
            break;
        }
        size_t at = off + (size_t)col[k];
        char *r = gb_asprintf("%.*s%s%s", (int)at, s, e[k].before, s + at + la);
        free(*text);
        *text = r;
    }
    free(col);
    return ok;
}

GbTask *gb_eval_plus_reference(const GbTask *bug, char *why, size_t why_size)
{
    const char *field = gb_task_get_field(bug, "mutations");
    json_t *doc = field ? json_loads(field, 0, NULL) : NULL;
    if (!json_is_array(doc) || json_array_size(doc) == 0) {
        snprintf(why, why_size, "no \"mutations\" list (not inject-bugs output)");
        json_decref(doc);
        return NULL;
    }
    size_t n = json_array_size(doc);
    GbPlusEdit *e = gb_calloc(n, sizeof *e);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        json_t *m = json_array_get(doc, i);
        json_t *mod = json_object_get(m, "module"), *line = json_object_get(m, "line"),
               *col = json_object_get(m, "column"), *before = json_object_get(m, "before"),
               *after = json_object_get(m, "after");
        ok = json_is_string(mod) && json_is_integer(line) && json_is_integer(col) && json_is_string(before) &&
             json_is_string(after);
        if (!ok) break;
        e[i] = (GbPlusEdit){json_string_value(mod), json_string_value(before), json_string_value(after),
                            (long)json_integer_value(line), (long)json_integer_value(col)};
        /* lines are counted in the buggy program: an edit across lines would move them */
        ok = !strchr(e[i].before, '\n') && !strchr(e[i].after, '\n');
    }
    GbTask *t = NULL;
    if (!ok) {
        snprintf(why, why_size, "a mutation lacks module, line, column, before or after, or spans lines");
    } else {
        qsort(e, n, sizeof *e, gb_eval_plus__cmp);
        t = gb_malloc(sizeof *t);
        gb_task_copy(t, bug);
        for (size_t i = 0; ok && i < n;) {
            size_t j = i;
            while (j < n && strcmp(e[j].module, e[i].module) == 0) j++;
            char **text = gb_eval_plus__module(t, e[i].module);
            if (!text)
                snprintf(why, why_size, "a mutation names module %s, which the program lacks", e[i].module), ok = false;
            else
                ok = gb_eval_plus__revert(text, e + i, j - i, why, why_size);
            i = j;
        }
        if (!ok) {
            gb_task_destroy(t);
            free(t);
            t = NULL;
        }
    }
    free(e);
    json_decref(doc);
    return t;
}

struct GbEvalPlus {
    GbEquiv *equiv;
    GbEquivConfig cfg;
};

GbEvalPlus *gb_eval_plus_new(GbPool *pool, const GbTask *reference, unsigned long seed, TSParser *parser, char *why,
                             size_t why_size)
{
    GbEvalPlus *p = gb_malloc(sizeof *p);
    gb_equiv_config_defaults(&p->cfg);
    p->cfg.seed = seed;
    p->cfg.large = 0; /* the larger inputs bound the cost, not the correctness */
    GbError err = {0};
    p->equiv = gb_equiv_record(pool, reference, NULL, &p->cfg, parser, &err);
    if (!p->equiv || gb_equiv_kept(p->equiv) == 0) {
        snprintf(why, why_size, "%s",
                 p->equiv ? "no derived input (unittest tests, or no call with literal arguments)" : err.msg);
        gb_eval_plus_delete(p);
        return NULL;
    }
    return p;
}

void gb_eval_plus_delete(GbEvalPlus *p)
{
    if (!p) return;
    gb_equiv_delete(p->equiv);
    free(p);
}

size_t gb_eval_plus_inputs(const GbEvalPlus *p)
{
    return gb_equiv_kept(p->equiv);
}

GbVerdict gb_eval_plus_check(const GbEvalPlus *p, GbPool *pool, const GbTask *program, char **error)
{
    GbProgram prog;
    gb_program_from_task(&prog, program);
    GbEquivVerdict v = {0};
    GbError err = {0};
    GbVerdict out;
    if (!gb_equiv_check(p->equiv, &p->cfg, pool, program, &prog, &v, &err)) {
        *error = gb_asprintf("plus: %s", err.msg);
        out = GB_V_ERROR;
    } else if (v.agree) {
        out = GB_V_PASS;
    } else {
        *error = v.input ? gb_asprintf("plus: input %s: expected %s, got %s", v.input, v.expected ? v.expected : "?",
                                       v.got ? v.got : "?")
                         : gb_asprintf("plus: %s", v.why ? v.why : "the derived inputs did not all agree");
        out = GB_V_FAIL;
    }
    gb_equiv_verdict_destroy(&v);
    gb_program_destroy(&prog);
    return out;
}
