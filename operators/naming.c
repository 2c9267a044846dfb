/* Natural names for synthetic identifiers (operators/naming.h): choosing a name among the
 * candidates and applying the names, from the model (naming_llm.c) or the built-in vocabulary
 * (naming_words.c, naming_values.c, naming_uses.c, naming_functions.c, naming_candidates.c). */
#include "operators/naming.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/scope.h"
#include "operators/naming_private.h"

void gb_naming_config_default(GbNamingConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->connect_timeout_ms = 5000;
    cfg->timeout_ms = 60000;
    cfg->max_retries = 2;
    cfg->retry_base_ms = 500;
    cfg->seed = -1;
}

void gb_name_list_destroy(GbNameList *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->len; i++) free(l->items[i]);
    gb_array_free(l);
}

bool gb_naming_is_natural(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && !isdigit((unsigned char)name[n - 1]);
}

bool gb_naming_is_numbered(const char *name)
{
    size_t n = strlen(name);
    size_t k = n;
    while (k > 0 && isdigit((unsigned char)name[k - 1])) k--;
    return k < n && k > 1 && name[k - 1] == '_';
}

static const char *const gb_nm_prefixes[] = {"inner",  "outer", "extra",  "other", "spare",  "next", "local",
                                             "second", "third", "fourth", "final", "backup", NULL};

static const char *const gb_nm_suffixes[] = {"alt", "again", "copy", "more", "too", "also", NULL};

char *gb_naming_pick(GbOpContext *ctx, const GbNameList *candidates, const GbNames *avoid)
{
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < candidates->len; i++) {
            const char *c = candidates->items[i];
            if (round == 0) {
                if (gb_naming_is_natural(c) && gb_rename_name_ok(ctx, c) && !(avoid && gb_names_has(avoid, c)))
                    return gb_strdup(c);
                continue;
            }
            const char *const *words = round == 1 ? gb_nm_prefixes : gb_nm_suffixes;
            const char *under = c[0] == '_' ? "_" : "";
            const char *base = c[0] == '_' ? c + 1 : c;
            for (size_t k = 0; words[k]; k++) {
                char *v = round == 1 ? gb_asprintf("%s%s_%s", under, words[k], base)
                                     : gb_asprintf("%s%s_%s", under, base, words[k]);
                if (gb_naming_is_natural(v) && gb_rename_name_ok(ctx, v) && !(avoid && gb_names_has(avoid, v)))
                    return v;
                free(v);
            }
        }
    }
    return NULL;
}

/* How many of the best candidates N1/N2 choose among: enough that one common name (`values`,
 * `high`) is not in most tasks of a benchmark, few enough that the name still fits. */
#define GB_NAMING_CHOICES 4

char *gb_naming_choose(GbOpContext *ctx, const GbRenamePlan *plan, GbRng *rng)
{
    GbNameList cands = {0};
    gb_naming_candidates(ctx, plan, &cands);
    GbNameList avail = {0};
    for (size_t i = 0; i < cands.len && avail.len < GB_NAMING_CHOICES; i++)
        if (gb_naming_is_natural(cands.items[i]) && gb_rename_name_ok(ctx, cands.items[i])) {
            char *c = gb_strdup(cands.items[i]);
            gb_array_push(&avail, c);
        }
    char *pick = NULL;
    if (avail.len)
        pick = gb_strdup(avail.items[gb_rng_bounded(rng, (uint32_t)avail.len)]);
    else
        pick = gb_naming_pick(ctx, &cands, NULL);
    char *name = gb_op_ctx_fresh_name(ctx, pick ? pick : "value");
    free(pick);
    gb_name_list_destroy(&avail);
    gb_name_list_destroy(&cands);
    return name;
}

void gb_nm__vars_destroy(GbNmVars *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->items[i].name);
    gb_array_free(v);
}

/* Every variable of the program whose name is synthetic. */
void gb_nm__synthetic_vars(GbOpContext *ctx, GbNmVars *out)
{
    const GbProgram *p = ctx->prog;
    if (p->synthetic.len == 0) return;
    for (size_t m = 0; m < p->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        for (size_t s = 0; s < sc->scopes.len; s++) {
            const GbScope *scope = &sc->scopes.items[s];
            for (size_t k = 0; k < scope->names.len; k++) {
                const GbScopeName *n = &scope->names.items[k];
                if (!(n->flags & GB_NAME_BINDS) || (n->flags & (GB_NAME_GLOBAL | GB_NAME_NONLOCAL))) continue;
                if (!gb_program_is_synthetic(p, n->name)) continue;
                GbNmVar v = {m, (int)s, gb_strdup(n->name)};
                gb_array_push(out, v);
            }
        }
    }
}

/* Rename one variable to new_name; false (program unchanged) when the renamer refuses. */
bool gb_nm__rename(GbNmRun *run, const GbNmVar *v, const char *new_name)
{
    GbError err;
    if (!gb_rename_variable(run->ctx, v->module, v->scope, v->name, new_name, &err)) return false;
    json_object_set_new(run->renamed, v->name, json_string(new_name));
    return true;
}

/* The built-in names: every synthetic variable whose name is not natural. */
static void gb_nm__builtin(GbNmRun *run, const GbNames *avoid)
{
    GbNames skip = {0};
    for (;;) {
        GbNmVars vars = {0};
        gb_nm__synthetic_vars(run->ctx, &vars);
        GbNmVar *v = NULL;
        char *key = NULL;
        for (size_t i = 0; i < vars.len && !v; i++) {
            if (!gb_naming_is_numbered(vars.items[i].name)) continue;
            char *k = gb_asprintf("%zu:%d:%s", vars.items[i].module, vars.items[i].scope, vars.items[i].name);
            if (gb_names_has(&skip, k)) {
                free(k);
                continue;
            }
            v = &vars.items[i];
            key = k;
        }
        if (!v) {
            gb_nm__vars_destroy(&vars);
            break;
        }
        gb_names_add(&skip, key);
        GbRenamer *r = gb_renamer_new(run->ctx);
        GbRenamePlan plan;
        gb_rename_plan_init(&plan);
        GbError why;
        char *name = NULL;
        if (gb_renamer_plan(r, v->module, v->scope, v->name, &plan, &why)) {
            GbNameList cands = {0};
            gb_naming_candidates(run->ctx, &plan, &cands);
            name = avoid ? gb_naming_pick(run->ctx, &cands, avoid) : NULL;
            if (!name) name = gb_naming_pick(run->ctx, &cands, NULL);
            gb_name_list_destroy(&cands);
        }
        gb_renamer_delete(r);
        gb_rename_plan_destroy(&plan);
        if (name) gb_nm__rename(run, v, name);
        free(name);
        free(key);
        gb_nm__vars_destroy(&vars);
    }
    gb_names_destroy(&skip);
}

/* Run the naming step; returns the renames {"old": "new"} in order (owned). */
static json_t *gb_naming__run(GbProgram *prog, const GbTask *task, TSParser *parser, const GbNamingConfig *cfg,
                              const GbNames *avoid, const char **mode, char **llm_error)
{
    if (llm_error) *llm_error = NULL;
    bool use_llm = cfg && cfg->url && *cfg->url;
    *mode = use_llm ? "llm" : "builtin";
    GbOpContext ctx;
    gb_op_ctx_init(&ctx, prog, task, parser);
    GbNmRun run = {&ctx, json_object(), false};
    if (use_llm) gb_nm__llm(&run, cfg, llm_error);
    gb_nm__builtin(&run, avoid);
    gb_op_ctx_destroy(&ctx);
    *mode = run.llm_used ? "llm" : "builtin";
    return run.renamed;
}

bool gb_naming_apply(GbProgram *prog, const GbTask *task, TSParser *parser, const GbNamingConfig *cfg,
                     char **renamed_json, const char **mode, char **llm_error)
{
    *renamed_json = NULL;
    json_t *renamed = gb_naming__run(prog, task, parser, cfg, NULL, mode, llm_error);
    bool any = json_object_size(renamed) > 0;
    if (any) *renamed_json = json_dumps(renamed, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(renamed);
    return any;
}

void gb_rename_list_destroy(GbRenameList *l)
{
    for (size_t i = 0; i < l->len; i++) {
        free(l->items[i].old_name);
        free(l->items[i].new_name);
    }
    gb_array_free(l);
}

bool gb_naming_apply_fn(GbProgram *prog, const GbTask *task, TSParser *parser, void *arg, const GbNames *avoid,
                        GbRenameList *renamed, const char **mode)
{
    json_t *obj = gb_naming__run(prog, task, parser, (const GbNamingConfig *)arg, avoid, mode, NULL);
    bool any = json_object_size(obj) > 0;
    const char *old_name;
    json_t *new_name;
    json_object_foreach(obj, old_name, new_name)
    {
        GbRename r = {gb_strdup(old_name), gb_strdup(json_string_value(new_name))};
        gb_array_push(renamed, r);
    }
    json_decref(obj);
    return any;
}
