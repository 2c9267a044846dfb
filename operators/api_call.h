#pragma once
/* The shared machinery of the library-call operators A1 AddBase64 .. A8 AddTime (GB_API_OPERATOR_LIST):
 * insert a realistic call of a library whose result is used in a way that
 * cannot change what the program does or prints.
 *
 * Sites: statements inside function bodies (any nesting of if/try/with blocks) before which
 * the call is inserted, at the statement's indentation, and, in stdio scripts (which keep most of
 * their logic at module level), module-level statements that no loop encloses (they run once),
 * other than definitions and the leading imports (the call's own import goes there, so it runs
 * first); a new name at module level is a module constant, in upper case. Refused:
 * docstrings (the call never
 * displaces one), statements sharing a line, class bodies (a new name would become a class
 * attribute), statements inside a loop of their function or module, and functions that
 * may run many times, so that the program's run time stays bounded whatever the call costs:
 * a function is "hot" when it is recursive, decorated, a special method called implicitly,
 * referred to other than by a call (passed as a callback, key=, target=), or called inside a
 * loop, comprehension or lambda, or from a hot function (names are matched conservatively:
 * any function of that name anywhere; the tests' loops count too, `candidate` standing for
 * the entry point).
 *
 * Templates: each operator gives several call shapes; the rng picks one and fills its
 * constants. A template is Python code (4-space indentation, "\n" between statements) with
 * placeholders:
 *   {0} {1}       the names its imports are bound to (gb_edits_add_import: placed after the
 *                 docstring and __future__ imports; an identical leading import is reused when
 *                 nothing else binds its name; otherwise the name is one that occurs nowhere in
 *                 the program or tests, so it never shadows or is shadowed by a user name)
 *   {v} {w}       fresh local variables (only used where the function has no
 *                 locals()/vars()/dir()/eval()/exec(), and always read by a later statement)
 *   {d}           8-12 random digits      {a}  a random lower-case word
 *   {k} {k2}      integers 1..9           {h}  0..23
 *   {Y} {M} {D}   a year, month and day of a valid date; {M2} {D2} {H2} {I2} two-digit forms
 *   {host} {p}    a host name and a port (no connection is ever made)
 *   {xs} {ys}     two lists of the same length (4-6) of distinct floats
 *   {ints}        a list of 4-6 distinct integers;  {bits} {bits2}  two 0/1 lists of length 6
 *   {f1} {f2} {f3} distinct floats;   {n} {r}  integers with 5 <= n <= 12, 1 <= r <= 4
 *   {pt} {pt2}    2-D points as lists of two floats
 * Templates whose library the tests mock are not used (see gb_api_find).
 * The last statement of a template is a call (never a bare expression or an unused variable,
 * which pylint would flag). The calls must never print, warn, sleep, touch the network,
 * change global state or raise; every template is checked by the operator tests. */
#include <stdbool.h>
#include <stddef.h>

#include "operators/operator.h"
#include "src/base/rng.h"
#include "src/base/util.h"

typedef struct {
    const char *module;   /* "base64", "dateutil.parser" */
    const char *attr;     /* NULL: `import module`; else `from module import attr` */
    const char *names[3]; /* preferred bound names, best first (NULL-terminated; first NULL: default) */
} GbApiImport;

typedef struct {
    const char *code;       /* the template */
    GbApiImport imports[2]; /* {0}, {1} (module NULL: unused) */
    const char *vars[2];    /* base names of {v}, {w} (NULL: unused) */
} GbApiTemplate;

/* Append every site (statement) where one of the n templates may be inserted. No site when
 * no template is usable for the task: tests that mock (mock, patch, MagicMock, monkeypatch)
 * and name a template's library could count or fake its calls, so such templates are left
 * out. */
void gb_api_find(GbOpContext *ctx, GbSiteList *out, const GbApiTemplate *templates, size_t n);

/* Insert one of the n templates (chosen by rng) before the site's statement, with its
 * imports. op names the operator in error messages. */
bool gb_api_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, const GbApiTemplate *templates, size_t n,
                  const char *op, GbError *err);

/* The template text with its placeholders filled (imports and vars given, constants from
 * rng). Owned. For tests and the operators. */
char *gb_api_fill(const char *code, const char *const *imports, const char *const *vars, GbRng *rng);

/* One operator's templates. */
typedef struct {
    const GbApiTemplate *templates;
    size_t n;
} GbApiTable;
/* The library-call operators, one X-macro row each: GB_API_OPERATOR(code, snake), code and snake
 * as in operators/operator_list.h, in its order. Each row's templates are defined next to its
 * operator, in operators/<snake>.c, as gb_<snake>_table. test_operators_api checks that the rows
 * are exactly the operator list's A codes and that the test workers preload every library
 * they import (src/runner/library_list.h and harness.py's STDLIB_PRELOAD). */
#define GB_API_OPERATOR_LIST                                                                                           \
    GB_API_OPERATOR(A1, add_base64)                                                                                    \
    GB_API_OPERATOR(A2, add_crypto)                                                                                    \
    GB_API_OPERATOR(A3, add_datetime)                                                                                  \
    GB_API_OPERATOR(A4, add_dateutil)                                                                                  \
    GB_API_OPERATOR(A5, add_http)                                                                                      \
    GB_API_OPERATOR(A6, add_scipy)                                                                                     \
    GB_API_OPERATOR(A7, add_sklearn)                                                                                   \
    GB_API_OPERATOR(A8, add_time)

#define GB_API_OPERATOR(code, snake) extern const GbApiTable gb_##snake##_table;
GB_API_OPERATOR_LIST
#undef GB_API_OPERATOR

/* The templates of a library-call operator, NULL for the other operators (borrowed, static). */
const GbApiTable *gb_api_table(GbOperatorId id);

/* A Python program that imports and calls every template of A1..A8 once, plus what S4
 * (concurrent.futures, threading), S8 (functools.wraps) and S9 (numpy) add: the lint
 * workers' warm-up program (GbPoolConfig.lint_warm), so that astroid has parsed every
 * library an evolved program can import before the first lint. Owned. */
char *gb_api_warm_program(void);
