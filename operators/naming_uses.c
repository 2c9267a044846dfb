/* The naming vocabulary: words for how a name is used (a counter, a guard, a limit, ...). */
#include "operators/naming_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

static bool gb_nm__attr_in(const char *attr, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(attr, list[i]) == 0) return true;
    return false;
}

unsigned gb_nm__use(const char *src, TSNode id)
{
    TSNode p = ts_node_parent(id);
    if (ts_node_is_null(p)) return 0;
    /* Climb the condition expression the name is part of. */
    TSNode top = id;
    TSNode up = p;
    while (gb_node_is_kind(up, GB_NK_NOT_OPERATOR) || gb_node_is_kind(up, GB_NK_COMPARISON_OPERATOR) ||
           gb_node_is_kind(up, GB_NK_BOOLEAN_OPERATOR) || gb_node_is_kind(up, GB_NK_BINARY_OPERATOR) ||
           gb_node_is_kind(up, GB_NK_PARENTHESIZED_EXPRESSION)) {
        top = up;
        up = ts_node_parent(up);
    }
    bool bare =
        ts_node_eq(top, id) || (gb_node_is_kind(top, GB_NK_NOT_OPERATOR) && ts_node_eq(ts_node_parent(id), top));
    if (gb_node_is_kind(up, GB_NK_WHILE_STATEMENT) && ts_node_eq(gb_node_field(up, "condition"), top))
        return bare ? GB_NM_USE_LOOP_GUARD : GB_NM_USE_LOOP_CHECK;
    if ((gb_node_is_kind(up, GB_NK_IF_STATEMENT) || gb_node_is_kind(up, GB_NK_ELIF_CLAUSE)) &&
        ts_node_eq(gb_node_field(up, "condition"), top))
        return bare ? GB_NM_USE_FLAG : GB_NM_USE_GUARD_VALUE;
    if (gb_node_is_kind(p, GB_NK_BOOLEAN_OPERATOR)) return GB_NM_USE_FLAG;
    if (gb_node_is_kind(p, GB_NK_COMPARISON_OPERATOR)) return GB_NM_USE_LIMIT;
    if (gb_node_is_kind(p, GB_NK_SUBSCRIPT) && ts_node_eq(gb_node_field(p, "value"), id)) return GB_NM_USE_SEQUENCE;
    if (gb_node_is_kind(p, GB_NK_ATTRIBUTE) && ts_node_eq(gb_node_field(p, "object"), id)) {
        char *a = gb_nm__text(gb_node_field(p, "attribute"), src);
        unsigned u = 0;
        static const char *const q[] = {"put", "get", "get_nowait", "put_nowait", "qsize", "empty", "task_done", NULL};
        static const char *const th[] = {"start", "join", "is_alive", "daemon", NULL};
        static const char *const li[] = {"append", "extend", "insert", "remove", "sort", "reverse", NULL};
        static const char *const se[] = {"add", "discard", "union", "intersection", NULL};
        static const char *const di[] = {"keys", "values", "items", "setdefault", "update", NULL};
        static const char *const tx[] = {"split",    "strip",   "lower",   "upper",   "startswith",
                                         "endswith", "replace", "isdigit", "isalpha", NULL};
        static const char *const co[] = {"request", "getresponse", "close", "connect", "set_debuglevel", NULL};
        if (gb_nm__attr_in(a, q))
            u = GB_NM_USE_QUEUE;
        else if (gb_nm__attr_in(a, th))
            u = GB_NM_USE_THREAD;
        else if (gb_nm__attr_in(a, li))
            u = GB_NM_USE_LIST;
        else if (gb_nm__attr_in(a, se))
            u = GB_NM_USE_SET;
        else if (gb_nm__attr_in(a, di))
            u = GB_NM_USE_DICT;
        else if (gb_nm__attr_in(a, tx))
            u = GB_NM_USE_TEXT;
        else if (gb_nm__attr_in(a, co))
            u = GB_NM_USE_CONNECTION;
        free(a);
        return u;
    }
    if (gb_node_is_kind(p, GB_NK_ARGUMENT_LIST)) {
        TSNode call = ts_node_parent(p);
        char *callee = gb_node_is_kind(call, GB_NK_CALL) ? gb_nm__callee_name(call, src) : NULL;
        unsigned u = 0;
        if (callee && (strcmp(callee, "len") == 0 || strcmp(callee, "sorted") == 0 || strcmp(callee, "sum") == 0))
            u = GB_NM_USE_SEQUENCE;
        if (callee && strcmp(callee, "range") == 0) u = GB_NM_USE_LIMIT;
        free(callee);
        return u;
    }
    if (gb_node_is_kind(p, GB_NK_FOR_STATEMENT) && ts_node_eq(gb_node_field(p, "right"), id)) return GB_NM_USE_SEQUENCE;
    return 0;
}

void gb_nm__use_words(unsigned uses, bool boolean, GbNameList *out, GbNameList *weak)
{
    if (uses & GB_NM_USE_LOOP_GUARD) {
        static const char *const w[] = {"ready",   "running", "keep_going", "pending", "active", "in_progress",
                                        "looping", "proceed", "go_on",      "live",    NULL};
        static const char *const w2[] = {"remaining", "budget", "steps_left", "left_over", "rounds_left",
                                         "allowance", "quota",  "headroom",   NULL};
        gb_nm__add_words(out, boolean ? w : w2);
    }
    if ((uses & GB_NM_USE_LOOP_CHECK) && (uses & GB_NM_USE_COUNTER)) {
        static const char *const w[] = {"passes", "rounds", "loop_count", "steps", "iterations",
                                        "cycles", "sweeps", "turns",      NULL};
        gb_nm__add_words(out, w);
    } else if (uses & GB_NM_USE_LOOP_CHECK) {
        static const char *const w[] = {"stage",      "phase",    "state_marker", "mode", "status",
                                        "step_state", "progress", "cursor_state", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_GUARD_VALUE) {
        static const char *const w[] = {"threshold", "cutoff",     "bound",    "level",       "margin", "floor_value",
                                        "pivot",     "gate_value", "boundary", "limit_value", NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_FLAG) {
        static const char *const w[] = {"enabled",   "allowed",     "should_run", "is_ready", "permitted",
                                        "is_active", "switched_on", "armed",      "eligible", NULL};
        static const char *const w2[] = {"value", "present", "marker", "indicator", "setting", NULL};
        gb_nm__add_words(boolean ? out : weak, boolean ? w : w2);
    }
    if (uses & GB_NM_USE_QUEUE) {
        static const char *const w[] = {"results", "outbox",       "pending_results",   "channel", "inbox",
                                        "mailbox", "result_queue", "collected_results", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_THREAD) {
        static const char *const w[] = {"worker",   "background_worker", "helper_thread", "runner",
                                        "executor", "job_runner",        "side_thread",   NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_LIST) {
        static const char *const w[] = {"collected", "results", "items",  "gathered", "entries",
                                        "bucket",    "records", "picked", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_SET) {
        static const char *const w[] = {"seen",        "visited",      "members",  "known", "recorded",
                                        "encountered", "unique_items", "observed", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_DICT) {
        static const char *const w[] = {"mapping", "lookup",  "table",     "index_map", "registry",
                                        "by_key",  "catalog", "directory", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_TEXT) {
        static const char *const w[] = {"text",     "line",    "word",       "phrase", "snippet",
                                        "fragment", "message", "label_text", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_CONNECTION) {
        static const char *const w[] = {"connection", "conn", "client", "session", "link", "remote_end", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_SEQUENCE) {
        static const char *const w[] = {"values",     "items",   "sequence", "elements", "entries", "series",
                                        "collection", "members", "contents", "data",     NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_LIMIT) {
        static const char *const w[] = {"limit", "threshold", "bound",   "cap",  "ceiling",
                                        "upper", "max_count", "stop_at", "span", NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_COUNTER) {
        static const char *const w[] = {"count",       "counter",  "steps",   "tally", "hits",
                                        "occurrences", "num_seen", "counted", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_ACCUMULATE) {
        static const char *const w[] = {"total",    "running_total", "accumulated", "aggregate", "sum_so_far",
                                        "subtotal", "grand_total",   "acc",         NULL};
        gb_nm__add_words(out, w);
    }
}
