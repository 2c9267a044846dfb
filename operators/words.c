#include "operators/words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"
#include "src/python/scope.h"

#define N_OF(a) ((uint32_t)(sizeof(a) / sizeof *(a)))

static const char *const gb_words__verbs[] = {
    "compute", "derive",    "resolve",  "collect",  "measure",   "gather",  "adjust", "combine", "reduce", "scan",
    "fold",    "select",    "count",    "build",    "shape",     "settle",  "form",   "prepare", "track",  "weigh",
    "assess",  "tally",     "apply",    "refine",   "obtain",    "produce", "locate", "extract", "update", "fill",
    "map",     "merge",     "split",    "trim",     "align",     "rank",    "sort",   "pick",    "check",  "convert",
    "render",  "encode",    "parse",    "load",     "store",     "sample",  "group",  "filter",  "join",   "clip",
    "scale",   "normalize", "estimate", "evaluate", "summarize", "balance", "bundle", "lookup",  "fetch",  "emit"};

static const char *const gb_words__nouns[] = {
    "total",  "span",   "value",   "share",   "limit",   "offset", "margin",  "step",   "score",  "count",   "level",
    "ratio",  "window", "bound",   "index",   "delta",   "weight", "sum",     "pair",   "result", "key",     "entry",
    "slot",   "ledger", "frame",   "cell",    "batch",   "token",  "item",    "point",  "record", "range",   "metric",
    "track",  "table",  "layer",   "chunk",   "factor",  "target", "state",   "price",  "rate",   "quota",   "budget",
    "stock",  "order",  "invoice", "balance", "reading", "sample", "signal",  "pulse",  "grade",  "rank",    "mark",
    "label",  "field",  "column",  "row",     "grid",    "node",   "edge",    "path",   "route",  "segment", "interval",
    "period", "phase",  "cycle",   "round",   "turn",    "move",   "tile",    "block",  "page",   "line",    "word",
    "phrase", "symbol", "digit",   "unit",    "amount",  "volume", "density", "length", "width",  "height",  "depth",
    "area",   "angle",  "vector",  "matrix",  "buffer",  "queue",  "stack",   "heap"};

static const char *const gb_words__kinds[] = {
    "utils",   "helpers",  "ops",        "tools",     "support", "logic",   "rules",  "kit",
    "methods", "routines", "service",    "core",      "model",   "engine",  "policy", "toolkit",
    "handler", "manager",  "registry",   "builder",   "planner", "catalog", "mixin",  "workbench",
    "desk",    "pipeline", "calculator", "inspector", "agent",   "broker",  "keeper"};

static const char *const gb_words__roles[] = {
    "adapter",  "handler", "binding",  "layer", "stage",  "hook",     "policy",    "scope",  "aspect",
    "context",  "guard",   "shim",     "relay", "bridge", "filter",   "probe",     "tracer", "monitor",
    "listener", "gate",    "envelope", "shell", "proxy",  "sentinel", "checkpoint"};

static const char *const gb_words__callable[] = {
    "func",      "function",  "fn",        "target",     "callee", "handler",     "routine",   "method",
    "action",    "operation", "step",      "task",       "job",    "worker",      "procedure", "callback",
    "op",        "hook",      "unit",      "body",       "fun",    "call_target", "delegate",  "command",
    "behaviour", "job_fn",    "transform", "compute_fn", "proc"};
static const char *const gb_words__inner[] = {
    "wrapper",       "inner",      "call",    "invoke",       "run",       "dispatch", "execute",      "perform",
    "handle",        "process",    "apply",   "proceed",      "forward",   "relay",    "delegate",     "trigger",
    "launch",        "fire",       "go",      "enact",        "carry_out", "do_call",  "wrapped_call", "pass_through",
    "invoke_target", "inner_call", "guarded", "call_through", "run_once",  "traced"};
static const char *const gb_words__args[] = {
    "args",         "params",   "values",    "items",        "operands",  "inputs",     "parts", "fields",
    "positional",   "argv",     "arguments", "pos_args",     "data_args", "call_args",  "vals",  "elements",
    "entries",      "given",    "supplied",  "payload",      "members",   "components", "terms", "bits",
    "operand_list", "arg_list", "sequence",  "ordered_args", "extra_args"};
static const char *const gb_words__kwargs[] = {
    "kwargs",       "options",       "named",        "settings", "extras",     "keywords",    "flags",
    "config",       "overrides",     "keyword_args", "kw",       "named_args", "kw_args",     "opts",
    "parameters",   "props",         "attrs",        "tuning",   "choices",    "preferences", "knobs",
    "labeled",      "extra_options", "named_values", "kwds",     "modifiers",  "switches",    "arguments_by_name",
    "named_params", "configuration"};
static const char *const gb_words__result[] = {
    "result",   "value",     "output",   "outcome",  "answer",   "ret",          "res",           "out",
    "produced", "returned",  "computed", "reply",    "response", "product",      "yielded",       "payload",
    "final",    "obtained",  "got",      "answered", "resolved", "return_value", "outcome_value", "computed_value",
    "fetched",  "collected", "gained",   "derived",  "observed"};

static const char *const gb_words__executor[] = {
    "executor",    "pool",        "worker_pool", "runner",      "lane",        "crew",        "dispatcher",
    "scheduler",   "thread_pool", "background",  "offload",     "side_lane",   "job_pool",    "task_pool",
    "helper_pool", "queue_pool",  "service",     "spare_pool",  "async_lane",  "work_queue",  "relay_pool",
    "shift",       "team",        "batch_pool",  "station",     "bench",       "workshop",    "line_pool"};
static const char *const gb_words__loop_var[] = {
    "_attempt", "_iteration", "_pass_index", "_repeat", "_cycle",  "_round", "_trial", "_sweep",
    "_turn",    "_lap",       "_stage",      "_tick",   "_epoch",  "_phase", "_rep",   "_visit",
    "_shot",    "_go",        "_run_index",  "_wave",   "_step_no", "_beat", "_spin",  "_take"};
static const char *const gb_words__flag[] = {
    "pending",   "first_pass", "remaining", "run_once",   "todo",      "active",    "needs_run", "fresh",
    "unvisited", "armed",      "go_ahead",  "awaiting",   "first_time", "not_done", "queued",    "due",
    "primed",    "live",       "in_progress", "open_slot", "ready_once", "waiting", "untouched", "outstanding"};

static const char *gb_words__one(GbRng *rng, const char *const *list, uint32_t n)
{
    return list[gb_rng_bounded(rng, n)];
}

char *gb_words_pick(GbRng *rng, GbWordsKind kind)
{
    switch (kind) {
    case GB_WORDS_FUNCTION: {
        const char *v = gb_words__one(rng, gb_words__verbs, N_OF(gb_words__verbs));
        return gb_asprintf("%s_%s", v, gb_words__one(rng, gb_words__nouns, N_OF(gb_words__nouns)));
    }
    case GB_WORDS_CLASS: {
        const char *n = gb_words__one(rng, gb_words__nouns, N_OF(gb_words__nouns));
        char *s = gb_asprintf("%s%s", n, gb_words__one(rng, gb_words__kinds, N_OF(gb_words__kinds)));
        s[0] = (char)toupper((unsigned char)s[0]);
        s[strlen(n)] = (char)toupper((unsigned char)s[strlen(n)]);
        return s;
    }
    case GB_WORDS_MODULE: {
        const char *n = gb_words__one(rng, gb_words__nouns, N_OF(gb_words__nouns));
        return gb_asprintf("%s_%s", n, gb_words__one(rng, gb_words__kinds, N_OF(gb_words__kinds)));
    }
    case GB_WORDS_DECORATOR: {
        const char *n = gb_words__one(rng, gb_words__nouns, N_OF(gb_words__nouns));
        return gb_asprintf("%s_%s", n, gb_words__one(rng, gb_words__roles, N_OF(gb_words__roles)));
    }
    case GB_WORDS_CALLABLE:
        return gb_strdup(gb_words__one(rng, gb_words__callable, N_OF(gb_words__callable)));
    case GB_WORDS_INNER:
        return gb_strdup(gb_words__one(rng, gb_words__inner, N_OF(gb_words__inner)));
    case GB_WORDS_ARGS:
        return gb_strdup(gb_words__one(rng, gb_words__args, N_OF(gb_words__args)));
    case GB_WORDS_KWARGS:
        return gb_strdup(gb_words__one(rng, gb_words__kwargs, N_OF(gb_words__kwargs)));
    case GB_WORDS_RESULT:
        return gb_strdup(gb_words__one(rng, gb_words__result, N_OF(gb_words__result)));
    case GB_WORDS_NOUN: {
        /* a builtin would only come back as "sum_1": skip to the next noun that is none */
        uint32_t i = gb_rng_bounded(rng, N_OF(gb_words__nouns));
        while (gb_python_is_builtin(gb_words__nouns[i])) i = (i + 1) % N_OF(gb_words__nouns);
        return gb_strdup(gb_words__nouns[i]);
    }
    case GB_WORDS_EXECUTOR:
        return gb_strdup(gb_words__one(rng, gb_words__executor, N_OF(gb_words__executor)));
    case GB_WORDS_LOOP_VAR:
        return gb_strdup(gb_words__one(rng, gb_words__loop_var, N_OF(gb_words__loop_var)));
    case GB_WORDS_FLAG:
        return gb_strdup(gb_words__one(rng, gb_words__flag, N_OF(gb_words__flag)));
    }
    return gb_strdup("value");
}
