/* Queries over a built scope tree (scope.h): the innermost scope at a position, and whether two
 * scopes see one variable under a name. */
#include "src/python/scope.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int gb_scopes_at(const GbScopes *s, uint32_t pos)
{
    int best = 0;
    for (size_t i = 1; i < s->scopes.len; i++) {
        const GbScope *sc = &s->scopes.items[i];
        if (pos < sc->start || pos >= sc->end) continue;
        if (sc->skip_end && pos >= sc->skip_start && pos < sc->skip_end) continue;
        /* Later scopes are nested deeper or come later in the text: the last match is innermost. */
        best = (int)i;
    }
    return best;
}

GbResolution gb_scopes_resolve(const GbScopes *s, int scope, const char *name, int *def_scope)
{
    int dummy;
    if (!def_scope) def_scope = &dummy;
    *def_scope = 0;
    const GbScope *sc = &s->scopes.items[scope];
    const GbScopeName *n = gb_scope_name(sc, name);
    bool skip_self = false;
    if (scope == 0 || (n && (n->flags & GB_NAME_GLOBAL))) {
        const GbScopeName *m = gb_scope_name(&s->scopes.items[0], name);
        if (m && (m->flags & GB_NAME_BINDS)) return GB_RESOLVE_GLOBAL;
        /* A `global x` declaration in some function binds x at module level too. */
        for (size_t i = 1; i < s->scopes.len; i++) {
            const GbScopeName *g = gb_scope_name(&s->scopes.items[i], name);
            if (g && (g->flags & GB_NAME_GLOBAL) && (g->flags & GB_NAME_BINDS)) return GB_RESOLVE_GLOBAL;
        }
        if (n && (n->flags & GB_NAME_GLOBAL)) return GB_RESOLVE_GLOBAL;
        return s->scopes.items[0].star_import ? GB_RESOLVE_UNKNOWN : GB_RESOLVE_BUILTIN;
    }
    if (n && (n->flags & GB_NAME_NONLOCAL)) skip_self = true;
    if (!skip_self && n && (n->flags & GB_NAME_BINDS)) {
        *def_scope = scope;
        return GB_RESOLVE_LOCAL;
    }
    for (int p = sc->parent; p >= 0; p = s->scopes.items[p].parent) {
        const GbScope *ps = &s->scopes.items[p];
        if (p == 0) return gb_scopes_resolve(s, 0, name, def_scope);
        if (ps->kind == GB_SCOPE_CLASS) continue;
        const GbScopeName *pn = gb_scope_name(ps, name);
        if (!pn) continue;
        if (pn->flags & GB_NAME_GLOBAL) return gb_scopes_resolve(s, 0, name, def_scope);
        if (pn->flags & GB_NAME_NONLOCAL) continue;
        if (pn->flags & GB_NAME_BINDS) {
            *def_scope = p;
            return GB_RESOLVE_FREE;
        }
    }
    return gb_scopes_resolve(s, 0, name, def_scope);
}

bool gb_scopes_same_variable(const GbScopes *s, int scope_a, int scope_b, const char *name)
{
    int da, db;
    GbResolution ra = gb_scopes_resolve(s, scope_a, name, &da), rb = gb_scopes_resolve(s, scope_b, name, &db);
    bool ga = ra == GB_RESOLVE_GLOBAL || ra == GB_RESOLVE_BUILTIN || ra == GB_RESOLVE_UNKNOWN;
    bool gbl = rb == GB_RESOLVE_GLOBAL || rb == GB_RESOLVE_BUILTIN || rb == GB_RESOLVE_UNKNOWN;
    if (ga || gbl) return ga && gbl;
    return da == db;
}
