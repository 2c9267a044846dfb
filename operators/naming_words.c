/* The naming vocabulary's words: stems, name lists, and the words of library calls. */
#include "operators/naming_private.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* A lower-case snake_case stem of an identifier without a digit suffix ("newFunc0_3" ->
 * "new_func", "attempt_2" -> "attempt"; inner digits stay: "base64_codec"), or NULL when
 * nothing is left. Owned. */
char *gb_nm__stem(const char *s)
{
    size_t len = strlen(s);
    while (len > 0 && (isdigit((unsigned char)s[len - 1]) || s[len - 1] == '_')) len--;
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isupper(c)) {
            if (i > 0 && (islower((unsigned char)s[i - 1]) || isdigit((unsigned char)s[i - 1])) && out.len &&
                out.data[out.len - 1] != '_')
                gb_str_append(&out, "_");
            char lc = (char)tolower(c);
            gb_str_append_n(&out, &lc, 1);
        } else if (isalnum(c) || c == '_') {
            if (c == '_' && (out.len == 0 || out.data[out.len - 1] == '_')) continue;
            if (isdigit(c) && out.len == 0) continue; /* an identifier cannot start with one */
            gb_str_append_n(&out, s + i, 1);
        }
    }
    while (out.len && out.data[out.len - 1] == '_') out.data[--out.len] = '\0';
    if (out.len == 0) {
        gb_str_destroy(&out);
        return NULL;
    }
    return gb_str_take(&out);
}

/* Append an already clean candidate (identifier, no digit suffix) unless present. */
void gb_nm__add_raw(GbNameList *out, const char *name)
{
    if (!name || !gb_naming_is_natural(name)) return;
    for (size_t i = 0; i < out->len; i++)
        if (strcmp(out->items[i], name) == 0) return;
    char *c = gb_strdup(name);
    gb_array_push(out, c);
}

/* Append a candidate: cleaned of digits and repeated underscores; duplicates dropped. */
void gb_nm__add(GbNameList *out, const char *name)
{
    if (!name) return;
    char *s = gb_nm__stem(name);
    if (!s) return;
    /* keep a leading underscore of private names */
    if (name[0] == '_' && s[0] != '_') {
        char *p = gb_asprintf("_%s", s);
        free(s);
        s = p;
    }
    for (size_t i = 0; i < out->len; i++)
        if (strcmp(out->items[i], s) == 0) {
            free(s);
            return;
        }
    gb_array_push(out, s);
}

void gb_nm__addf(GbNameList *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    GbStr s;
    gb_str_init(&s);
    gb_str_vappendf(&s, fmt, ap);
    va_end(ap);
    gb_nm__add(out, s.data);
    gb_str_destroy(&s);
}

void gb_nm__add_words(GbNameList *out, const char *const *words)
{
    for (size_t i = 0; words[i]; i++) gb_nm__add(out, words[i]);
}

/* Singular of a plural stem ("prices" -> "price", "entries" -> "entry"), or NULL. Owned. */
char *gb_nm__singular(const char *s)
{
    size_t n = strlen(s);
    if (n > 4 && strcmp(s + n - 3, "ies") == 0) return gb_asprintf("%.*sy", (int)(n - 3), s);
    if (n > 4 && (strcmp(s + n - 4, "sses") == 0 || strcmp(s + n - 4, "ches") == 0 || strcmp(s + n - 4, "shes") == 0 ||
                  strcmp(s + n - 3, "xes") == 0))
        return gb_strndup(s, n - 2);
    if (n > 2 && s[n - 1] == 's' && s[n - 2] != 's' && s[n - 2] != 'u' && s[n - 2] != 'i') return gb_strndup(s, n - 1);
    return NULL;
}

/* Text of a node as an owned string. */
char *gb_nm__text(TSNode n, const char *src)
{
    return gb_node_text(n, src);
}

/* The stem of a node's text (owned, may be NULL). */
char *gb_nm__node_stem(TSNode n, const char *src)
{
    if (ts_node_is_null(n)) return NULL;
    char *t = gb_node_text(n, src);
    char *s = gb_nm__stem(t);
    free(t);
    return s;
}

/* The last name of a callee: `f` for f(...), `attr` for x.y.attr(...); NULL otherwise. */
char *gb_nm__callee_name(TSNode call, const char *src)
{
    TSNode f = gb_node_field(call, "function");
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) return gb_nm__text(f, src);
    if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        TSNode a = gb_node_field(f, "attribute");
        if (!ts_node_is_null(a)) return gb_nm__text(a, src);
    }
    return NULL;
}

TSNode gb_nm__first_arg(TSNode call)
{
    TSNode args = gb_node_field(call, "arguments");
    uint32_t c = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!gb_node_is_kind(a, GB_NK_COMMENT) && !gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT)) return a;
    }
    TSNode null = {0};
    return null;
}

size_t gb_nm__arg_count(TSNode call)
{
    TSNode args = gb_node_field(call, "arguments");
    uint32_t c = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    size_t n = 0;
    for (uint32_t i = 0; i < c; i++) n += !gb_node_is_kind(ts_node_named_child(args, i), GB_NK_COMMENT);
    return n;
}

/* Words for what a call returns, by the callee's name. NULL-terminated rows: callee, words... */
static const char *const *const gb_nm_calls[] = {
    (const char *const[]){"Queue", "results", "outbox", "pending_results", "channel", NULL},
    (const char *const[]){"SimpleQueue", "results", "outbox", "channel", NULL},
    (const char *const[]){"Thread", "worker", "background_worker", "helper_thread", NULL},
    (const char *const[]){"Lock", "lock", "guard", "mutex", NULL},
    (const char *const[]){"Event", "done_event", "signal", NULL},
    (const char *const[]){"b64encode", "encoded", "payload", "encoded_bytes", NULL},
    (const char *const[]){"urlsafe_b64encode", "url_token", "encoded", "safe_payload", NULL},
    (const char *const[]){"standard_b64encode", "encoded", "payload", NULL},
    (const char *const[]){"b32encode", "encoded", "base32_text", NULL},
    (const char *const[]){"b16encode", "hex_encoded", "encoded", NULL},
    (const char *const[]){"encodebytes", "encoded_lines", "encoded", NULL},
    (const char *const[]){"b64decode", "decoded", "raw_bytes", "plain_bytes", NULL},
    (const char *const[]){"urlsafe_b64decode", "decoded", "raw_bytes", NULL},
    (const char *const[]){"generate_key", "secret_key", "key", "fernet_key", NULL},
    (const char *const[]){"Fernet", "cipher", "fernet", "codec", NULL},
    (const char *const[]){"encrypt", "token", "ciphertext", "sealed", NULL},
    (const char *const[]){"decrypt", "plaintext", "opened", NULL},
    (const char *const[]){"Hash", "hasher", "digest_builder", NULL},
    (const char *const[]){"finalize", "digest", "checksum", NULL},
    (const char *const[]){"now", "now", "timestamp", "current_time", NULL},
    (const char *const[]){"today", "today", "current_date", NULL},
    (const char *const[]){"timedelta", "delta", "interval", "offset", NULL},
    (const char *const[]){"isoformat", "iso_stamp", "stamp", "formatted", NULL},
    (const char *const[]){"strftime", "formatted", "stamp", "label", NULL},
    (const char *const[]){"parse", "parsed_date", "moment", "when", NULL},
    (const char *const[]){"isoparse", "parsed_date", "moment", NULL},
    (const char *const[]){"relativedelta", "shift", "delta", "period", NULL},
    (const char *const[]){"easter", "holiday", "easter_day", NULL},
    (const char *const[]){"HTTPConnection", "connection", "conn", "client", NULL},
    (const char *const[]){"ttest_ind", "t_test", "test_result", "comparison", NULL},
    (const char *const[]){"describe", "summary", "stats", NULL},
    (const char *const[]){"pearsonr", "correlation", "pearson", NULL},
    (const char *const[]){"spearmanr", "rank_correlation", "correlation", NULL},
    (const char *const[]){"kendalltau", "tau", "rank_agreement", NULL},
    (const char *const[]){"zscore", "scores", "standardised", NULL},
    (const char *const[]){"comb", "combinations", "choices", NULL},
    (const char *const[]){"factorial", "arrangements", "product", NULL},
    (const char *const[]){"euclidean", "distance", "gap", NULL},
    (const char *const[]){"cityblock", "distance", "manhattan", NULL},
    (const char *const[]){"shuffle", "shuffled", "mixed", NULL},
    (const char *const[]){"resample", "sample", "bootstrap", NULL},
    (const char *const[]){"StandardScaler", "scaler", "standardiser", NULL},
    (const char *const[]){"MinMaxScaler", "scaler", "normaliser", NULL},
    (const char *const[]){"fit_transform", "scaled", "transformed", NULL},
    (const char *const[]){"normalize", "normalised", "unit_rows", NULL},
    (const char *const[]){"accuracy_score", "accuracy", "hit_rate", NULL},
    (const char *const[]){"mean_squared_error", "squared_error", "mse", NULL},
    (const char *const[]){"mean_absolute_error", "absolute_error", "mae", NULL},
    (const char *const[]){"time", "started", "start_time", "tick", NULL},
    (const char *const[]){"perf_counter", "started", "start_time", "tick", NULL},
    (const char *const[]){"monotonic", "started", "tick", "clock_value", NULL},
    (const char *const[]){"process_time", "cpu_time", "cpu_started", NULL},
    (const char *const[]){"localtime", "local_moment", "clock", NULL},
    (const char *const[]){"gmtime", "utc_moment", "epoch_moment", NULL},
    (const char *const[]){"len", "length", "size", "count", NULL},
    (const char *const[]){"sum", "total", "sum_value", NULL},
    (const char *const[]){"max", "largest", "highest", "maximum", NULL},
    (const char *const[]){"min", "smallest", "lowest", "minimum", NULL},
    (const char *const[]){"abs", "magnitude", "absolute", NULL},
    (const char *const[]){"sorted", "ordered", "sorted_items", NULL},
    (const char *const[]){"reversed", "backwards", "reversed_items", NULL},
    (const char *const[]){"list", "items", "values", NULL},
    (const char *const[]){"set", "unique_items", "seen", NULL},
    (const char *const[]){"dict", "mapping", "lookup", NULL},
    (const char *const[]){"tuple", "record", "entry", NULL},
    (const char *const[]){"str", "text", "label", NULL},
    (const char *const[]){"int", "number", "whole", NULL},
    (const char *const[]){"float", "amount", "real_value", NULL},
    (const char *const[]){"round", "rounded", "approx", NULL},
    (const char *const[]){"range", "indices", "positions", NULL},
    (const char *const[]){"enumerate", "numbered", "indexed", NULL},
    (const char *const[]){"zip", "pairs", "zipped", NULL},
    (const char *const[]){"map", "mapped", "converted", NULL},
    (const char *const[]){"filter", "filtered", "kept", NULL},
    (const char *const[]){"input", "line", "raw_line", NULL},
    (const char *const[]){"open", "handle", "stream", NULL},
    (const char *const[]){"any", "found", "any_match", NULL},
    (const char *const[]){"all", "all_ok", "every_match", NULL},
    (const char *const[]){"isinstance", "is_instance", "matches_type", NULL},
    (const char *const[]){"split", "parts", "fields", "words", NULL},
    (const char *const[]){"strip", "cleaned", "trimmed", NULL},
    (const char *const[]){"lower", "lowered", "normalised", NULL},
    (const char *const[]){"upper", "uppered", "shouted", NULL},
    (const char *const[]){"join", "joined", "text", NULL},
    (const char *const[]){"replace", "replaced", "rewritten", NULL},
    (const char *const[]){"get", "entry", "found", NULL},
    (const char *const[]){"pop", "popped", "last_item", NULL},
    (const char *const[]){"items", "pairs", "entries", NULL},
    (const char *const[]){"keys", "keys", "names", NULL},
    (const char *const[]){"values", "values", "amounts", NULL},
    (const char *const[]){"index", "position", "found_at", NULL},
    (const char *const[]){"find", "position", "found_at", NULL},
    (const char *const[]){"count", "occurrences", "count", NULL},
    (const char *const[]){"format", "message", "formatted", NULL},
    (const char *const[]){"read", "content", "data", NULL},
    (const char *const[]){"readline", "line", "raw_line", NULL},
    (const char *const[]){"encode", "encoded", "data", NULL},
    (const char *const[]){"decode", "text", "decoded", NULL},
    (const char *const[]){"copy", "snapshot", "copied", NULL},
    (const char *const[]){"deepcopy", "snapshot", "copied", NULL},
    (const char *const[]){"array", "values", "array", NULL},
};

bool gb_nm__call_words(const char *callee, GbNameList *out)
{
    for (size_t i = 0; i < sizeof gb_nm_calls / sizeof *gb_nm_calls; i++)
        if (strcmp(gb_nm_calls[i][0], callee) == 0) {
            gb_nm__add_words(out, gb_nm_calls[i] + 1);
            return true;
        }
    return false;
}

const char *const gb_nm_verbs[] = {"get_",      "compute_", "calc_",  "calculate_", "make_",      "build_",
                                   "find_",     "load_",    "read_",  "parse_",     "create_",    "fetch_",
                                   "generate_", "to_",      "count_", "collect_",   "determine_", NULL};
