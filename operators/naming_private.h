#pragma once
/* Private to operators/: what the naming files share (naming.c was split into the built-in
 * vocabulary, the model client and the naming itself). Nothing but the naming files includes
 * this header; the public API is operators/naming.h.
 *
 *   naming.c             choosing among candidates, applying names (model, then built-in)
 *   naming_words.c       stems, name lists, the words of library calls
 *   naming_values.c      words for what is bound to a name
 *   naming_uses.c        words for how a name is used
 *   naming_functions.c   words for what a function does
 *   naming_candidates.c  the candidate names of one variable or function
 *   naming_llm.c         the model: prompt, request, reply, checks */
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <tree_sitter/api.h>

#include "operators/naming.h"
#include "src/python/scope.h"

/* How a name is used (gb_nm__use), as bits. */
enum {
    GB_NM_USE_LOOP_GUARD = 1u << 0,
    GB_NM_USE_FLAG = 1u << 1,
    GB_NM_USE_QUEUE = 1u << 2,
    GB_NM_USE_THREAD = 1u << 3,
    GB_NM_USE_LIST = 1u << 4,
    GB_NM_USE_SET = 1u << 5,
    GB_NM_USE_DICT = 1u << 6,
    GB_NM_USE_TEXT = 1u << 7,
    GB_NM_USE_SEQUENCE = 1u << 8,
    GB_NM_USE_LIMIT = 1u << 9,
    GB_NM_USE_COUNTER = 1u << 10,
    GB_NM_USE_ACCUMULATE = 1u << 11,
    GB_NM_USE_CONNECTION = 1u << 12,
    GB_NM_USE_LOOP_CHECK = 1u << 13,
    GB_NM_USE_GUARD_VALUE = 1u << 14,
};

/* A variable whose name is synthetic: its module, scope and name (owned). */
typedef struct {
    size_t module;
    int scope;
    char *name;
} GbNmVar;
typedef GbArray(GbNmVar) GbNmVars;

typedef struct {
    GbOpContext *ctx;
    json_t *renamed; /* {"old": "new"} in order */
    bool llm_used;
} GbNmRun;

/* ---- naming.c ---- */

void gb_nm__vars_destroy(GbNmVars *v);
/* Every variable of the program whose name is synthetic. */
void gb_nm__synthetic_vars(GbOpContext *ctx, GbNmVars *out);
/* Rename one variable to new_name; false (program unchanged) when the renamer refuses. */
bool gb_nm__rename(GbNmRun *run, const GbNmVar *v, const char *new_name);

/* ---- naming_words.c ---- */

/* Verb prefixes of function names (NULL-terminated). */
extern const char *const gb_nm_verbs[];

/* A lower-case snake_case stem of an identifier without a digit suffix ("newFunc0_3" ->
 * "new_func", "attempt_2" -> "attempt"; inner digits stay: "base64_codec"), or NULL when
 * nothing is left. Owned. */
char *gb_nm__stem(const char *s);
/* Append an already clean candidate (identifier, no digit suffix) unless present. */
void gb_nm__add_raw(GbNameList *out, const char *name);
/* Append a candidate: cleaned of digits and repeated underscores; duplicates dropped. */
void gb_nm__add(GbNameList *out, const char *name);
void gb_nm__addf(GbNameList *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gb_nm__add_words(GbNameList *out, const char *const *words);
/* Singular of a plural stem ("prices" -> "price", "entries" -> "entry"), or NULL. Owned. */
char *gb_nm__singular(const char *s);
/* Text of a node as an owned string. */
char *gb_nm__text(TSNode n, const char *src);
/* The stem of a node's text (owned, may be NULL). */
char *gb_nm__node_stem(TSNode n, const char *src);
/* The last name of a callee: `f` for f(...), `attr` for x.y.attr(...); NULL otherwise. */
char *gb_nm__callee_name(TSNode call, const char *src);
TSNode gb_nm__first_arg(TSNode call);
size_t gb_nm__arg_count(TSNode call);
bool gb_nm__call_words(const char *callee, GbNameList *out);

/* ---- naming_values.c ---- */

/* The element a literal subscript picks (`[x][0]`, `(x, 7)[0]`, `{"k": x}["k"]`), or null. */
TSNode gb_nm__picked(const char *src, TSNode sub);
void gb_nm__value(const char *src, TSNode v, GbNameList *out, GbNameList *weak, int depth);
/* What a loop variable over iterable `it` holds. */
void gb_nm__iter(const char *src, TSNode it, GbNameList *out, GbNameList *weak);

/* ---- naming_uses.c ---- */

unsigned gb_nm__use(const char *src, TSNode id);
void gb_nm__use_words(unsigned uses, bool boolean, GbNameList *out, GbNameList *weak);

/* ---- naming_functions.c ---- */

/* Names for a function called `old` (verb synonyms, or a verb in front). */
void gb_nm__function_variants(const char *old, GbNameList *out);
void gb_nm__function(const char *src, TSNode fn, GbNameList *out);

/* ---- naming_llm.c ---- */

/* Ask the model to name the program's synthetic names and apply the valid proposals; what
 * went wrong (owned) in *llm_error when llm_error is not NULL. */
void gb_nm__llm(GbNmRun *run, const GbNamingConfig *cfg, char **llm_error);
