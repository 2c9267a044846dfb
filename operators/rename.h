#pragma once
/* Scope-aware renaming of one variable across a whole program: the
 * machinery of N1 RenameVariable, N2 RenameFunction and the natural-naming step.
 *
 * A variable is (module, scope, name): the binding of `name` held by scope `scope` of the
 * module's scope analysis (src/python/scope.h). Renaming it rewrites, never by substring:
 *   - every binding and every use in the module that resolves to it, in its own scope and in
 *     nested scopes that see it as a free variable (closures, lambdas, comprehensions), and
 *     its `global`/`nonlocal` declarations;
 *   - imports that bind it: `import x` / `from m import x` become `... x as NEW`, an alias
 *     `as x` becomes `as NEW`;
 *   - for a parameter: the keyword at every call site that resolves to its function
 *     (`f(x=1)` → `f(NEW=1)`); the rename is refused when some call with that keyword (or
 *     with `**kwargs`) might reach the function but cannot be resolved to it (methods,
 *     lambdas, functions passed around or decorated, pinned functions). For a function passed
 *     around as a value, keyword names reach it by other ways too, and the rename is refused
 *     when a string literal of the program or the tests spells the parameter's name (a dict
 *     key: `Thread(target=f, kwargs={'b': 5})`, `run(f, args, {'b': 7})`, `**{'b': 1}`) or
 *     when any call but one of a builtin other than dict passes that keyword (`partial(f,
 *     b=5)`, `executor.submit(f, b=5)`, `dict(b=5)`, a function of the program that may
 *     forward **kwargs);
 *   - for a module-level name: `from <module> import name` in the program's other modules
 *     (and the uses of that import there), `<module>.name` after `import <module>`.
 * Refused outright: pinned names (gb_op_ctx_is_pinned), dunder/mangled names (`__x`),
 * class-level names (class attributes are visible from outside), modules that use
 * eval/exec/globals()/locals()/vars()/dir()/__import__ or getattr/setattr/hasattr/delattr
 * with a non-literal name, star imports, self-documenting f-string fields (`f"{x=}"` prints
 * the name), a string literal equal to a module-level name (`__all__`, getattr), parameters
 * of programs that introspect signatures (inspect, __code__, __annotations__, ...).
 * The new name must be free everywhere (gb_rename_name_ok): then nothing the rename
 * touches can be shadowed by, or shadow, another binding or a builtin.
 *
 * A GbRenamer is a snapshot of the program's analysis; it is only valid until the next edit
 * of the program. Not thread-safe (it uses the context's caches). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "operators/edit.h"
#include "operators/operator.h"
#include "src/base/util.h"

typedef enum {
    GB_SPOT_IDENT,     /* replace the identifier by the new name */
    GB_SPOT_IMPORT_AS, /* the range is the imported dotted name `x`: replace it by `x as NEW` */
} GbSpotKind;

/* One place the rename rewrites. */
typedef struct {
    size_t module;
    uint32_t start, end;
    GbSpotKind kind;
    unsigned flag; /* GB_NAME_* of the occurrence (GB_NAME_READ for keyword arguments and attributes) */
} GbRenameSpot;

typedef struct {
    size_t module; /* the variable */
    int scope;
    char *name;                  /* owned */
    bool is_param;               /* a parameter of a function or lambda */
    GbArray(GbRenameSpot) spots; /* sorted by module and position, no duplicates */
} GbRenamePlan;

void gb_rename_plan_init(GbRenamePlan *plan);
void gb_rename_plan_destroy(GbRenamePlan *plan);

typedef struct GbRenamer GbRenamer;

/* Analyse the program of ctx as it is now (borrows ctx). Owned. */
GbRenamer *gb_renamer_new(GbOpContext *ctx);
void gb_renamer_delete(GbRenamer *r);

/* Plan the rename of the variable (module, scope, name). Returns false with *why set (a short
 * reason, for tests and logs) when it cannot be renamed safely; plan is then empty. plan must
 * be initialised; it is cleared first. */
bool gb_renamer_plan(GbRenamer *r, size_t module, int scope, const char *name, GbRenamePlan *plan, GbError *why);

/* True when name is a valid new name: identifier syntax (ASCII), not a keyword or builtin,
 * not starting with two underscores, and not taken anywhere (gb_op_ctx_name_taken: no
 * identifier, attribute or keyword of any module or of the tests, no module file name). */
bool gb_rename_name_ok(GbOpContext *ctx, const char *name);

/* Add the edits that rename plan's variable to new_name (which must satisfy
 * gb_rename_name_ok) to set. */
void gb_rename_plan_edits(GbOpContext *ctx, const GbRenamePlan *plan, const char *new_name, GbEditSet *set);

/* Plan and commit in one step (a fresh renamer; the program's caches are used). Returns
 * false with err set when the plan is refused or the commit fails (program unchanged). */
bool gb_rename_variable(GbOpContext *ctx, size_t module, int scope, const char *name, const char *new_name,
                        GbError *err);
