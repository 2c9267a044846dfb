#pragma once
/* Natural names for synthetic identifiers.
 *
 * Operators invent identifiers: every name handed out by gb_op_ctx_fresh_name is recorded in
 * GbProgram.synthetic (loop variables, guards, helper functions, import aliases, N1/N2 rename
 * targets). Before a program is output, the ones still bound somewhere get natural names:
 *
 *   - With an endpoint (GbNamingConfig.url): one OpenAI-compatible chat completion
 *     (POST {url}/v1/chat/completions, src/base/http.h) gets the program and the list of synthetic
 *     names and must answer a JSON object {"old": "new", ...}. Every proposal is validated:
 *     identifier syntax, no keyword or builtin, no digit suffix, not pinned, no clash with any name
 *     of the program or the tests, no duplicate, no dunder. Valid ones are applied.
 *   - Without an endpoint, or for what the model could not name (connection refused, HTTP
 *     errors, malformed JSON, prose, invalid names), a built-in vocabulary derives names from
 *     context: what is bound to the name (a copy of `price` -> price_value, a queue -> results,
 *     a thread -> worker, a literal True tested by a while loop -> ready, a loop over range(1)
 *     -> attempt) and how it is used. The built-in step renames the synthetic names that end
 *     with `_<digits>` (the suffix fresh names get on a collision; `base64` stays); clashes
 *     are resolved with words (inner_, outer_, extra_, ...), never with digits.
 *
 * Every rename goes through operators/rename.h (scope-aware, all modules, keyword call sites): a
 * name the renamer refuses (for instance because it is pinned) keeps its synthetic name.
 * The caller re-runs the tests and keeps the renamed program only if they pass.
 *
 * Thread-safety: the functions only touch the program and parser they are given; a config
 * may be shared by threads (it is read only). */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "operators/operator.h"
#include "src/model/program.h"
#include "operators/rename.h"
#include "src/base/http.h"
#include "src/base/rng.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* Where natural names come from. */
typedef struct {
    const char *url;         /* base URL of an OpenAI-compatible server; NULL or "": built-in names */
    const char *model;       /* model name sent in the request (NULL: "default") */
    const char *api_key;     /* NULL or "": no Authorization header (commands read GENEBENCH_API_KEY) */
    long connect_timeout_ms; /* <= 0: 5000 */
    long timeout_ms;         /* whole request; <= 0: 60000 */
    int max_retries;         /* < 0: 2 (429/5xx/timeouts, with back-off) */
    long retry_base_ms;      /* < 0: 500 */
    long seed;               /* sent to the model (< 0: not sent) */
    GbHttpClient *client;    /* borrowed, may be NULL: one client for every naming request, so that its
                                time budget (GbHttpOptions.budget_ms) caps them all together; NULL: a
                                client per request, built from the fields above */
} GbNamingConfig;

/* url, model and api_key NULL; the numeric fields at their defaults (the values above). */
void gb_naming_config_default(GbNamingConfig *cfg);

/* A client for cfg's server built from its fields (cfg->client is not consulted), with the
 * default overall time budget (GbHttpOptions.budget_ms): give it to cfg->client so that every
 * naming request of a run shares that cap. NULL and err filled on a bad URL. Owned: free with
 * gb_http_client_delete. */
GbHttpClient *gb_naming_client_new(const GbNamingConfig *cfg, GbError *err);

/* An ordered list of owned names. */
typedef GbArray(char *) GbNameList;
void gb_name_list_destroy(GbNameList *l);

/* Context-derived candidate names for the variable that plan renames (plan from
 * gb_renamer_plan on ctx's current program), best first. Candidates are identifiers without
 * digits; they may be taken (check gb_rename_name_ok). Appends owned strings to out. */
void gb_naming_candidates(GbOpContext *ctx, const GbRenamePlan *plan, GbNameList *out);

/* The first of candidates (else a word-disambiguated variant: inner_x, outer_x, extra_x, ...)
 * that satisfies gb_rename_name_ok and is not in avoid (may be NULL). Owned; NULL if none. */
char *gb_naming_pick(GbOpContext *ctx, const GbNameList *candidates, const GbNames *avoid);

/* The new name of an N1/N2 rename: one of the first two free candidates (gb_naming_candidates)
 * chosen by rng, else a word-disambiguated one (gb_naming_pick), else a fresh name. It is
 * handed out through gb_op_ctx_fresh_name, so it is reserved and recorded as synthetic. Owned. */
char *gb_naming_choose(GbOpContext *ctx, const GbRenamePlan *plan, GbRng *rng);

/* True when name has no digit suffix (does not end with a digit): what every new name must
 * satisfy. */
bool gb_naming_is_natural(const char *name);
/* True when name ends with `_<digits>`, the suffix gb_op_ctx_fresh_name adds on a collision:
 * the synthetic names the built-in step renames. */
bool gb_naming_is_numbered(const char *name);

/* One rename of the naming step. */
typedef struct {
    char *old_name; /* owned */
    char *new_name; /* owned */
} GbRename;
typedef GbArray(GbRename) GbRenameList;
/* Free the strings and the array; the list is left empty. */
void gb_rename_list_destroy(GbRenameList *l);

/* Give the synthetic names of prog natural names, in place (see above). arg points to a
 * GbNamingConfig (NULL: built-in). Returns true when something was renamed; then renamed
 * (caller storage, appended to; owned strings) lists the renames in order and *mode is
 * "llm" when at least one name came from the model, else "builtin" (static strings). When
 * nothing was renamed, renamed is unchanged and *mode still says which path was tried.
 * task (may be NULL) gives pinned names and the test code; parser is the calling thread's.
 * Problems with the endpoint never fail the call: they fall back to the built-in names.
 * avoid (may be NULL): names the built-in step takes only when every other candidate and
 * variant is taken (the names earlier versions of the task introduced: versions that differ). */
bool gb_naming_apply_fn(GbProgram *prog, const GbTask *task, TSParser *parser, void *arg, const GbNames *avoid,
                        GbRenameList *renamed, const char **mode);

/* As gb_naming_apply_fn with the renames as a JSON object {"old": "new", ...} in *renamed_json
 * (owned, NULL when nothing was renamed), and *llm_error (may be NULL) gets the endpoint's problem (owned,
 * NULL when there was none), for commands that report it. */
bool gb_naming_apply(GbProgram *prog, const GbTask *task, TSParser *parser, const GbNamingConfig *cfg,
                     char **renamed_json, const char **mode, char **llm_error);
