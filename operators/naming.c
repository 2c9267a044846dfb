#include "operators/naming.h"

#include <ctype.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/http.h"
#include "src/python/pyparse.h"
#include "src/python/scope.h"

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

/* ---- Words ---- */

/* A lower-case snake_case stem of an identifier without a digit suffix ("newFunc0_3" ->
 * "new_func", "attempt_2" -> "attempt"; inner digits stay: "base64_codec"), or NULL when
 * nothing is left. Owned. */
static char *gb_nm__stem(const char *s)
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
static void gb_nm__add_raw(GbNameList *out, const char *name)
{
    if (!name || !gb_naming_is_natural(name)) return;
    for (size_t i = 0; i < out->len; i++)
        if (strcmp(out->items[i], name) == 0) return;
    char *c = gb_strdup(name);
    gb_array_push(out, c);
}

/* Append a candidate: cleaned of digits and repeated underscores; duplicates dropped. */
static void gb_nm__add(GbNameList *out, const char *name)
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

static void gb_nm__addf(GbNameList *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gb_nm__addf(GbNameList *out, const char *fmt, ...)
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

static void gb_nm__add_words(GbNameList *out, const char *const *words)
{
    for (size_t i = 0; words[i]; i++) gb_nm__add(out, words[i]);
}

/* Singular of a plural stem ("prices" -> "price", "entries" -> "entry"), or NULL. Owned. */
static char *gb_nm__singular(const char *s)
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
static char *gb_nm__text(TSNode n, const char *src)
{
    return gb_node_text(n, src);
}

/* The stem of a node's text (owned, may be NULL). */
static char *gb_nm__node_stem(TSNode n, const char *src)
{
    if (ts_node_is_null(n)) return NULL;
    char *t = gb_node_text(n, src);
    char *s = gb_nm__stem(t);
    free(t);
    return s;
}

/* The last name of a callee: `f` for f(...), `attr` for x.y.attr(...); NULL otherwise. */
static char *gb_nm__callee_name(TSNode call, const char *src)
{
    TSNode f = gb_node_field(call, "function");
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) return gb_nm__text(f, src);
    if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        TSNode a = gb_node_field(f, "attribute");
        if (!ts_node_is_null(a)) return gb_nm__text(a, src);
    }
    return NULL;
}

static TSNode gb_nm__first_arg(TSNode call)
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

static size_t gb_nm__arg_count(TSNode call)
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

static bool gb_nm__call_words(const char *callee, GbNameList *out)
{
    for (size_t i = 0; i < sizeof gb_nm_calls / sizeof *gb_nm_calls; i++)
        if (strcmp(gb_nm_calls[i][0], callee) == 0) {
            gb_nm__add_words(out, gb_nm_calls[i] + 1);
            return true;
        }
    return false;
}

static const char *const gb_nm_verbs[] = {"get_",      "compute_", "calc_",  "calculate_", "make_",      "build_",
                                          "find_",     "load_",    "read_",  "parse_",     "create_",    "fetch_",
                                          "generate_", "to_",      "count_", "collect_",   "determine_", NULL};

/* ---- Values ---- */

static void gb_nm__value(const char *src, TSNode v, GbNameList *out, GbNameList *weak, int depth);

/* The element a literal subscript picks (`[x][0]`, `(x, 7)[0]`, `{"k": x}["k"]`), or null. */
static TSNode gb_nm__picked(const char *src, TSNode sub)
{
    TSNode null = {0};
    TSNode obj = gb_node_field(sub, "value"), idx = gb_node_field(sub, "subscript");
    if (ts_node_is_null(obj) || ts_node_is_null(idx)) return null;
    if (gb_node_is_kind(obj, GB_NK_LIST) || gb_node_is_kind(obj, GB_NK_TUPLE)) {
        if (!gb_node_is_kind(idx, GB_NK_INTEGER) && !gb_node_is_kind(idx, GB_NK_UNARY_OPERATOR)) return null;
        char *t = gb_nm__text(idx, src);
        long i = strtol(t, NULL, 10);
        free(t);
        long n = 0;
        TSNode items[16];
        uint32_t c = ts_node_named_child_count(obj);
        for (uint32_t k = 0; k < c && n < 16; k++) {
            TSNode e = ts_node_named_child(obj, k);
            if (!gb_node_is_kind(e, GB_NK_COMMENT)) items[n++] = e;
        }
        if (i < 0) i += n;
        return i >= 0 && i < n ? items[i] : null;
    }
    if (gb_node_is_kind(obj, GB_NK_DICTIONARY)) {
        uint32_t c = ts_node_named_child_count(obj);
        for (uint32_t k = 0; k < c; k++) {
            TSNode p = ts_node_named_child(obj, k);
            if (!gb_node_is_kind(p, GB_NK_PAIR)) continue;
            TSNode key = gb_node_field(p, "key");
            uint32_t a = ts_node_start_byte(key), b = ts_node_end_byte(key);
            uint32_t ia = ts_node_start_byte(idx), ib = ts_node_end_byte(idx);
            if (b - a == ib - ia && memcmp(src + a, src + ia, b - a) == 0) return gb_node_field(p, "value");
        }
    }
    return null;
}

static void gb_nm__binary(const char *op, GbNameList *out)
{
    const char *const *const rows[] = {
        (const char *const[]){"+", "total", "combined", "sum_value", NULL},
        (const char *const[]){"-", "difference", "delta", "remaining", NULL},
        (const char *const[]){"*", "product", "scaled", "multiple", NULL},
        (const char *const[]){"/", "ratio", "share", "average", NULL},
        (const char *const[]){"//", "quotient", "whole_part", NULL},
        (const char *const[]){"%", "remainder", "leftover", NULL},
        (const char *const[]){"**", "power", "raised", NULL},
        (const char *const[]){"&", "mask", "common_bits", NULL},
        (const char *const[]){"|", "merged_bits", "mask", NULL},
        (const char *const[]){"^", "toggled", "flipped_bits", NULL},
        (const char *const[]){"<<", "shifted", "scaled_up", NULL},
        (const char *const[]){">>", "shifted", "scaled_down", NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (strcmp(rows[i][0], op) == 0) gb_nm__add_words(out, rows[i] + 1);
}

static void gb_nm__call_value(const char *src, TSNode v, GbNameList *out, int depth)
{
    char *callee = gb_nm__callee_name(v, src);
    if (!callee) {
        gb_nm__add(out, "result");
        return;
    }
    TSNode f = gb_node_field(v, "function");
    if (strcmp(callee, "copy") == 0 && gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        char *obj = gb_nm__node_stem(gb_node_field(f, "object"), src);
        if (obj) gb_nm__addf(out, "%s_copy", obj);
        free(obj);
    }
    if (strcmp(callee, "len") == 0) {
        TSNode a = gb_nm__first_arg(v);
        if (gb_node_is_kind(a, GB_NK_IDENTIFIER)) {
            char *t = gb_nm__text(a, src), *s = gb_nm__stem(t);
            char *one = s ? gb_nm__singular(s) : NULL;
            if (one)
                gb_nm__addf(out, "%s_count", one);
            else if (s)
                gb_nm__addf(out, "%s_length", s);
            free(one);
            free(s);
            free(t);
        }
    }
    if ((strcmp(callee, "sorted") == 0 || strcmp(callee, "reversed") == 0 || strcmp(callee, "list") == 0 ||
         strcmp(callee, "set") == 0) &&
        gb_node_is_kind(gb_nm__first_arg(v), GB_NK_IDENTIFIER)) {
        char *t = gb_nm__text(gb_nm__first_arg(v), src), *s = gb_nm__stem(t);
        if (s) {
            if (strcmp(callee, "sorted") == 0)
                gb_nm__addf(out, "sorted_%s", s);
            else if (strcmp(callee, "reversed") == 0)
                gb_nm__addf(out, "reversed_%s", s);
            else if (strcmp(callee, "set") == 0)
                gb_nm__addf(out, "unique_%s", s);
            else
                gb_nm__addf(out, "%s_list", s);
        }
        free(s);
        free(t);
    }
    if (!gb_nm__call_words(callee, out)) {
        char *stem = gb_nm__stem(callee);
        if (stem) {
            bool verb = false;
            for (size_t i = 0; gb_nm_verbs[i]; i++) {
                size_t n = strlen(gb_nm_verbs[i]);
                if (strncmp(stem, gb_nm_verbs[i], n) == 0 && stem[n]) {
                    gb_nm__add(out, stem + n);
                    verb = true;
                }
            }
            gb_nm__addf(out, "%s_result", stem);
            if (!verb) gb_nm__addf(out, "%s_value", stem);
        }
        free(stem);
        gb_nm__add(out, "result");
    }
    free(callee);
    (void)depth;
}

static void gb_nm__value(const char *src, TSNode v, GbNameList *out, GbNameList *weak, int depth)
{
    if (ts_node_is_null(v) || depth > 6) return;
    GbNodeKind t = gb_node_kind(v);
    if (t == GB_NK_CALL) {
        gb_nm__call_value(src, v, out, depth);
    } else if (t == GB_NK_IDENTIFIER) {
        char *s = gb_nm__node_stem(v, src);
        if (s) {
            gb_nm__addf(out, "%s_value", s);
            gb_nm__addf(out, "current_%s", s);
            gb_nm__addf(out, "%s_copy", s);
            gb_nm__addf(out, "saved_%s", s);
        }
        free(s);
    } else if (t == GB_NK_ATTRIBUTE) {
        char *a = gb_nm__node_stem(gb_node_field(v, "attribute"), src);
        TSNode o = gb_node_field(v, "object");
        char *os = gb_node_is_kind(o, GB_NK_IDENTIFIER) ? gb_nm__node_stem(o, src) : NULL;
        if (a) {
            gb_nm__add(out, a);
            if (os && strcmp(os, "self") != 0) gb_nm__addf(out, "%s_%s", os, a);
            gb_nm__addf(out, "%s_value", a);
        }
        free(a);
        free(os);
    } else if (t == GB_NK_SUBSCRIPT) {
        TSNode picked = gb_nm__picked(src, v);
        if (!ts_node_is_null(picked)) {
            gb_nm__value(src, picked, out, weak, depth + 1);
            return;
        }
        TSNode o = gb_node_field(v, "value");
        if (gb_node_is_kind(o, GB_NK_IDENTIFIER) || gb_node_is_kind(o, GB_NK_ATTRIBUTE)) {
            TSNode name = gb_node_is_kind(o, GB_NK_ATTRIBUTE) ? gb_node_field(o, "attribute") : o;
            char *s = gb_nm__node_stem(name, src);
            char *one = s ? gb_nm__singular(s) : NULL;
            if (one) gb_nm__add(out, one);
            if (s && strlen(one ? one : s) > 2) gb_nm__addf(out, "%s_item", one ? one : s);
            free(one);
            free(s);
        }
        gb_nm__add(weak, "item");
        gb_nm__add(weak, "entry");
    } else if (t == GB_NK_TRUE || t == GB_NK_FALSE) {
        static const char *const w[] = {"flag", "enabled", "ok", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_INTEGER) {
        static const char *const w[] = {"count", "limit", "size", "number", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_FLOAT) {
        static const char *const w[] = {"amount", "rate", "ratio", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_STRING || t == GB_NK_CONCATENATED_STRING) {
        static const char *const w[] = {"text", "label", "message", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_NONE) {
        static const char *const w[] = {"result", "found", "current", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_LIST || t == GB_NK_LIST_COMPREHENSION) {
        static const char *const w[] = {"items", "values", "collected", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_DICTIONARY || t == GB_NK_DICTIONARY_COMPREHENSION) {
        static const char *const w[] = {"mapping", "lookup", "table", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_SET || t == GB_NK_SET_COMPREHENSION) {
        static const char *const w[] = {"seen", "unique_items", "members", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_TUPLE || t == GB_NK_EXPRESSION_LIST) {
        static const char *const w[] = {"pair", "record", "entry", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_GENERATOR_EXPRESSION) {
        static const char *const w[] = {"stream", "lazy_items", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_BINARY_OPERATOR) {
        TSNode op = gb_node_field(v, "operator");
        if (!ts_node_is_null(op)) {
            char *o = gb_nm__text(op, src);
            gb_nm__binary(o, out);
            free(o);
        }
    } else if (t == GB_NK_BOOLEAN_OPERATOR || t == GB_NK_NOT_OPERATOR || t == GB_NK_COMPARISON_OPERATOR) {
        static const char *const w[] = {"is_valid", "matches", "condition", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_CONDITIONAL_EXPRESSION) {
        static const char *const w[] = {"choice", "selected", "picked", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_LAMBDA) {
        static const char *const w[] = {"callback", "handler", "key_func", NULL};
        gb_nm__add_words(weak, w);
    } else if (t == GB_NK_UNARY_OPERATOR) {
        TSNode a = gb_node_field(v, "argument");
        if (gb_node_is_kind(a, GB_NK_INTEGER) || gb_node_is_kind(a, GB_NK_FLOAT))
            gb_nm__value(src, a, out, weak, depth + 1);
        else
            gb_nm__add(out, "negated");
    } else if (t == GB_NK_PARENTHESIZED_EXPRESSION || t == GB_NK_AWAIT) {
        if (ts_node_named_child_count(v) > 0) gb_nm__value(src, ts_node_named_child(v, 0), out, weak, depth + 1);
    }
}

/* What a loop variable over iterable `it` holds. */
static void gb_nm__iter(const char *src, TSNode it, GbNameList *out, GbNameList *weak)
{
    static const char *const once[] = {"attempt", "single_pass", "trial", "round", NULL};
    if (gb_node_is_kind(it, GB_NK_CALL)) {
        char *callee = gb_nm__callee_name(it, src);
        if (callee && strcmp(callee, "range") == 0) {
            TSNode a = gb_nm__first_arg(it);
            bool one = gb_nm__arg_count(it) == 1 && gb_node_is_kind(a, GB_NK_INTEGER) && gb_node_text_eq(a, src, "1");
            if (gb_nm__arg_count(it) >= 2) {
                /* range(k, k + 1) and range(k + 1, k, -1) run once */
                TSNode args = gb_node_field(it, "arguments");
                TSNode b = ts_node_named_child(args, 1);
                one = gb_node_is_kind(b, GB_NK_INTEGER) && gb_node_is_kind(a, GB_NK_INTEGER);
                if (one) {
                    char *ta = gb_nm__text(a, src), *tb = gb_nm__text(b, src);
                    long x = strtol(ta, NULL, 10), y = strtol(tb, NULL, 10);
                    one = x - y == 1 || y - x == 1;
                    free(ta);
                    free(tb);
                }
            }
            if (one) {
                gb_nm__add_words(out, once);
            } else {
                static const char *const w[] = {"index", "position", "step", "offset", NULL};
                gb_nm__add_words(out, w);
            }
        } else if (callee &&
                   (strcmp(callee, "enumerate") == 0 || strcmp(callee, "zip") == 0 || strcmp(callee, "items") == 0)) {
            static const char *const w[] = {"pair", "entry", "numbered_item", NULL};
            gb_nm__add_words(out, w);
        } else if (callee && strcmp(callee, "keys") == 0) {
            gb_nm__add(out, "key");
            gb_nm__add(out, "name");
        } else if (callee && strcmp(callee, "values") == 0) {
            gb_nm__add(out, "value");
            gb_nm__add(out, "amount");
        } else if (callee && strcmp(callee, "split") == 0) {
            static const char *const w[] = {"word", "token", "part", NULL};
            gb_nm__add_words(out, w);
        } else if (callee && (strcmp(callee, "sorted") == 0 || strcmp(callee, "reversed") == 0 ||
                              strcmp(callee, "list") == 0 || strcmp(callee, "set") == 0)) {
            TSNode a = gb_nm__first_arg(it);
            if (!ts_node_is_null(a)) gb_nm__iter(src, a, out, weak);
        }
        free(callee);
    } else if (gb_node_is_kind(it, GB_NK_LIST) || gb_node_is_kind(it, GB_NK_TUPLE)) {
        if (ts_node_named_child_count(it) == 1) {
            gb_nm__add_words(out, once);
        } else {
            static const char *const w[] = {"item", "element", "choice", NULL};
            gb_nm__add_words(out, w);
        }
    } else if (gb_node_is_kind(it, GB_NK_STRING)) {
        if (ts_node_end_byte(it) - ts_node_start_byte(it) <= 3) {
            gb_nm__add_words(out, once);
        } else {
            static const char *const w[] = {"char", "letter", "symbol", NULL};
            gb_nm__add_words(out, w);
        }
    } else if (gb_node_is_kind(it, GB_NK_IDENTIFIER) || gb_node_is_kind(it, GB_NK_ATTRIBUTE)) {
        TSNode name = gb_node_is_kind(it, GB_NK_ATTRIBUTE) ? gb_node_field(it, "attribute") : it;
        char *s = gb_nm__node_stem(name, src);
        char *one = s ? gb_nm__singular(s) : NULL;
        /* the characters of a string */
        size_t n = s ? strlen(s) : 0;
        if (s && (strcmp(s, "s") == 0 || (n >= 3 && strcmp(s + n - 3, "str") == 0) ||
                  (n >= 4 && strcmp(s + n - 4, "text") == 0) || (n >= 6 && strcmp(s + n - 6, "string") == 0) ||
                  (n >= 4 && strcmp(s + n - 4, "word") == 0))) {
            static const char *const w[] = {"char", "letter", "symbol", NULL};
            gb_nm__add_words(out, w);
        }
        if (one) gb_nm__add(out, one);
        if (s && strlen(one ? one : s) > 2) gb_nm__addf(out, "%s_item", one ? one : s);
        free(one);
        free(s);
    }
    static const char *const w[] = {"item", "element", "entry", NULL};
    gb_nm__add_words(weak, w);
}

/* ---- Uses ---- */

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

static bool gb_nm__attr_in(const char *attr, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(attr, list[i]) == 0) return true;
    return false;
}

static unsigned gb_nm__use(const char *src, TSNode id)
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

static void gb_nm__use_words(unsigned uses, bool boolean, GbNameList *out, GbNameList *weak)
{
    if (uses & GB_NM_USE_LOOP_GUARD) {
        static const char *const w[] = {"ready", "running", "keep_going", "pending", "active", NULL};
        static const char *const w2[] = {"remaining", "budget", "steps_left", NULL};
        gb_nm__add_words(out, boolean ? w : w2);
    }
    if ((uses & GB_NM_USE_LOOP_CHECK) && (uses & GB_NM_USE_COUNTER)) {
        static const char *const w[] = {"passes", "rounds", "loop_count", "steps", NULL};
        gb_nm__add_words(out, w);
    } else if (uses & GB_NM_USE_LOOP_CHECK) {
        static const char *const w[] = {"stage", "phase", "state_marker", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_GUARD_VALUE) {
        static const char *const w[] = {"threshold", "cutoff", "bound", "level", NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_FLAG) {
        static const char *const w[] = {"enabled", "allowed", "should_run", "is_ready", NULL};
        static const char *const w2[] = {"value", "present", NULL};
        gb_nm__add_words(boolean ? out : weak, boolean ? w : w2);
    }
    if (uses & GB_NM_USE_QUEUE) {
        static const char *const w[] = {"results", "outbox", "pending_results", "channel", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_THREAD) {
        static const char *const w[] = {"worker", "background_worker", "helper_thread", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_LIST) {
        static const char *const w[] = {"collected", "results", "items", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_SET) {
        static const char *const w[] = {"seen", "visited", "members", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_DICT) {
        static const char *const w[] = {"mapping", "lookup", "table", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_TEXT) {
        static const char *const w[] = {"text", "line", "word", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_CONNECTION) {
        static const char *const w[] = {"connection", "conn", "client", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_SEQUENCE) {
        static const char *const w[] = {"values", "items", "sequence", NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_LIMIT) {
        static const char *const w[] = {"limit", "threshold", "bound", NULL};
        gb_nm__add_words(weak, w);
    }
    if (uses & GB_NM_USE_COUNTER) {
        static const char *const w[] = {"count", "counter", "steps", "tally", NULL};
        gb_nm__add_words(out, w);
    }
    if (uses & GB_NM_USE_ACCUMULATE) {
        static const char *const w[] = {"total", "running_total", "accumulated", NULL};
        gb_nm__add_words(out, w);
    }
}

/* ---- Functions ---- */

typedef struct {
    bool loops, nested_def, puts, returns_inner;
} GbNmBody;

static void gb_nm__body_scan(const char *src, TSNode n, GbNmBody *b, int depth)
{
    GbNodeKind t = gb_node_kind(n);
    if (depth > 0 && (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_LAMBDA)) {
        b->nested_def = true;
        return;
    }
    if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT) b->loops = true;
    if (t == GB_NK_CALL) {
        char *c = gb_nm__callee_name(n, src);
        if (c && strcmp(c, "put") == 0 && gb_node_is_kind(gb_node_field(n, "function"), GB_NK_ATTRIBUTE))
            b->puts = true;
        free(c);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_nm__body_scan(src, ts_node_named_child(n, i), b, depth + 1);
}

/* Verb synonyms for renaming functions: row = verb, then its replacements. */
static const char *const *const gb_nm_verb_rows[] = {
    (const char *const[]){"get", "fetch", "obtain", "retrieve", NULL},
    (const char *const[]){"compute", "calculate", "evaluate", "derive", NULL},
    (const char *const[]){"calc", "compute", "calculate", NULL},
    (const char *const[]){"calculate", "compute", "evaluate", NULL},
    (const char *const[]){"find", "locate", "search", "lookup", NULL},
    (const char *const[]){"make", "build", "create", "construct", NULL},
    (const char *const[]){"build", "make", "construct", "assemble", NULL},
    (const char *const[]){"create", "make", "build", NULL},
    (const char *const[]){"check", "verify", "validate", "test", NULL},
    (const char *const[]){"count", "tally", "number", NULL},
    (const char *const[]){"parse", "read", "decode", "interpret", NULL},
    (const char *const[]){"convert", "transform", "translate", NULL},
    (const char *const[]){"solve", "resolve", "work_out", NULL},
    (const char *const[]){"process", "handle", "treat", NULL},
    (const char *const[]){"sort", "order", "arrange", NULL},
    (const char *const[]){"remove", "drop", "strip", NULL},
    (const char *const[]){"add", "append", "insert", NULL},
    (const char *const[]){"update", "refresh", "modify", NULL},
    (const char *const[]){"generate", "produce", "make", NULL},
    (const char *const[]){"validate", "check", "verify", NULL},
    (const char *const[]){"is", "check_is", "test_is", NULL},
    (const char *const[]){"has", "check_has", "contains", NULL},
};

/* Names for a function called `old` (verb synonyms, or a verb in front). */
static void gb_nm__function_variants(const char *old, GbNameList *out)
{
    char *stem = gb_nm__stem(old);
    if (!stem) return;
    const char *under = old[0] == '_' ? "_" : "";
    bool done = false;
    for (size_t r = 0; r < sizeof gb_nm_verb_rows / sizeof *gb_nm_verb_rows && !done; r++) {
        const char *verb = gb_nm_verb_rows[r][0];
        size_t n = strlen(verb);
        if (strncmp(stem, verb, n) != 0 || (stem[n] != '_' && stem[n] != '\0')) continue;
        const char *rest = stem[n] ? stem + n : "";
        for (size_t k = 1; gb_nm_verb_rows[r][k]; k++) gb_nm__addf(out, "%s%s%s", under, gb_nm_verb_rows[r][k], rest);
        done = true;
    }
    if (!done) {
        gb_nm__addf(out, "%scompute_%s", under, stem);
        gb_nm__addf(out, "%sget_%s", under, stem);
        gb_nm__addf(out, "%s%s_helper", under, stem);
        gb_nm__addf(out, "%shandle_%s", under, stem);
        gb_nm__addf(out, "%sdo_%s", under, stem);
    }
    gb_nm__addf(out, "%s%s_impl", under, stem);
    free(stem);
}

static void gb_nm__function(const char *src, TSNode fn, GbNameList *out)
{
    TSNode body = gb_node_field(fn, "body");
    if (ts_node_is_null(body)) return;
    GbNmBody b = {0};
    gb_nm__body_scan(src, body, &b, 0);
    TSNode first = {0}, last = {0};
    uint32_t c = ts_node_named_child_count(body);
    size_t stmts = 0;
    for (uint32_t i = 0; i < c; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (gb_node_is_kind(s, GB_NK_COMMENT)) continue;
        if (gb_node_is_kind(s, GB_NK_EXPRESSION_STATEMENT) && stmts == 0 && ts_node_named_child_count(s) == 1 &&
            gb_node_is_kind(ts_node_named_child(s, 0), GB_NK_STRING))
            continue; /* docstring */
        if (!stmts) first = s;
        last = s;
        stmts++;
    }
    /* a decorator returns the function it defines */
    bool returns_inner = b.nested_def && gb_node_is_kind(last, GB_NK_RETURN_STATEMENT) &&
                         ts_node_named_child_count(last) == 1 &&
                         gb_node_is_kind(ts_node_named_child(last, 0), GB_NK_IDENTIFIER);
    if (returns_inner) {
        static const char *const w[] = {"wrap", "decorate", "with_wrapper", "wrap_call", NULL};
        gb_nm__add_words(out, w);
    }
    if (b.puts) {
        static const char *const w[] = {"run_in_thread", "thread_body", "worker_task", "background_task", NULL};
        gb_nm__add_words(out, w);
    }
    if (stmts == 1 && gb_node_is_kind(first, GB_NK_RETURN_STATEMENT) && ts_node_named_child_count(first) == 1) {
        TSNode e = ts_node_named_child(first, 0);
        if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
            const char *const *const rows[] = {
                (const char *const[]){"+", "add_values", "combine", "sum_of", NULL},
                (const char *const[]){"-", "subtract", "difference_of", NULL},
                (const char *const[]){"*", "multiply", "scale", "product_of", NULL},
                (const char *const[]){"/", "divide", "ratio_of", NULL},
                (const char *const[]){"//", "floor_divide", "whole_quotient", NULL},
                (const char *const[]){"%", "remainder_of", "modulo", NULL},
                (const char *const[]){"**", "power_of", "raise_power", NULL},
            };
            char *op = gb_nm__text(gb_node_field(e, "operator"), src);
            for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
                if (strcmp(rows[i][0], op) == 0) gb_nm__add_words(out, rows[i] + 1);
            free(op);
        } else if (gb_node_is_kind(e, GB_NK_COMPARISON_OPERATOR) || gb_node_is_kind(e, GB_NK_BOOLEAN_OPERATOR)) {
            static const char *const w[] = {"compare", "is_match", "check_condition", NULL};
            gb_nm__add_words(out, w);
        } else if (gb_node_is_kind(e, GB_NK_CALL)) {
            char *callee = gb_nm__callee_name(e, src);
            char *s = callee ? gb_nm__stem(callee) : NULL;
            if (s) {
                gb_nm__addf(out, "call_%s", s);
                gb_nm__addf(out, "%s_wrapper", s);
                gb_nm__addf(out, "run_%s", s);
            }
            free(s);
            free(callee);
        }
    }
    if (b.loops) {
        static const char *const w[] = {"process_items", "walk_items", "scan_values", NULL};
        gb_nm__add_words(out, w);
    }
}

/* ---- Candidates ---- */

/* Synonyms of common variable names: row = name, then its alternatives. */
static const char *const *const gb_nm_synonyms[] = {
    (const char *const[]){"total", "running_total", "sum_so_far", "accumulated", NULL},
    (const char *const[]){"count", "tally", "num_items", "counter", NULL},
    (const char *const[]){"counter", "count", "tally", NULL},
    (const char *const[]){"result", "outcome", "answer", "output", NULL},
    (const char *const[]){"results", "outcomes", "collected", "output", NULL},
    (const char *const[]){"value", "amount", "current_value", NULL},
    (const char *const[]){"values", "amounts", "numbers", NULL},
    (const char *const[]){"items", "elements", "entries", NULL},
    (const char *const[]){"item", "element", "entry", NULL},
    (const char *const[]){"index", "position", "idx", NULL},
    (const char *const[]){"text", "content", "string_value", NULL},
    (const char *const[]){"string", "text", "chars", NULL},
    (const char *const[]){"word", "token", "term", NULL},
    (const char *const[]){"words", "tokens", "terms", NULL},
    (const char *const[]){"number", "num", "amount", NULL},
    (const char *const[]){"numbers", "nums", "values", NULL},
    (const char *const[]){"length", "size", "span", NULL},
    (const char *const[]){"size", "length", "extent", NULL},
    (const char *const[]){"key", "name", "label", NULL},
    (const char *const[]){"char", "character", "symbol", NULL},
    (const char *const[]){"left", "lo", "start", NULL},
    (const char *const[]){"right", "hi", "end", NULL},
    (const char *const[]){"low", "lo", "lower", NULL},
    (const char *const[]){"high", "hi", "upper", NULL},
    (const char *const[]){"start", "begin", "first", NULL},
    (const char *const[]){"end", "stop", "last", NULL},
    (const char *const[]){"output", "out", "result", NULL},
    (const char *const[]){"cur", "current", "now_value", NULL},
    (const char *const[]){"current", "cur", "present", NULL},
    (const char *const[]){"prev", "previous", "last_value", NULL},
    (const char *const[]){"previous", "prev", "last_value", NULL},
    (const char *const[]){"temp", "scratch", "held", NULL},
    (const char *const[]){"data", "payload", "content", NULL},
    (const char *const[]){"line", "row", "text_line", NULL},
    (const char *const[]){"lines", "rows", "text_lines", NULL},
    (const char *const[]){"matrix", "grid", "table", NULL},
    (const char *const[]){"grid", "matrix", "board", NULL},
    (const char *const[]){"stack", "pile", "pending", NULL},
    (const char *const[]){"queue", "pending", "backlog", NULL},
    (const char *const[]){"seen", "visited", "known", NULL},
    (const char *const[]){"visited", "seen", "explored", NULL},
    (const char *const[]){"depth", "level", "nesting", NULL},
    (const char *const[]){"level", "depth", "tier", NULL},
    (const char *const[]){"flag", "marker", "switch", NULL},
    (const char *const[]){"found", "located", "hit", NULL},
    (const char *const[]){"name", "label", "title", NULL},
    (const char *const[]){"names", "labels", "titles", NULL},
    (const char *const[]){"price", "cost", "amount", NULL},
    (const char *const[]){"score", "points", "rating", NULL},
    (const char *const[]){"message", "msg", "note", NULL},
    (const char *const[]){"response", "reply", "answer", NULL},
    (const char *const[]){"request", "query", "call", NULL},
    (const char *const[]){"num", "number", "amount", NULL},
    (const char *const[]){"nums", "numbers", "values", NULL},
    (const char *const[]){"arr", "array", "values", NULL},
    (const char *const[]){"lst", "items", "elements", NULL},
    (const char *const[]){"dp", "table", "memo", NULL},
    (const char *const[]){"memo", "cache", "table", NULL},
    (const char *const[]){"ans", "answer", "result", NULL},
    (const char *const[]){"mid", "middle", "center", NULL},
    (const char *const[]){"diff", "difference", "gap", NULL},
    (const char *const[]){"delta", "change", "step", NULL},
    (const char *const[]){"step", "stride", "increment", NULL},
    (const char *const[]){"pos", "position", "offset", NULL},
    (const char *const[]){"freq", "frequency", "occurrences", NULL},
    (const char *const[]){"counts", "tallies", "frequencies", NULL},
};

/* Variations of a variable's own (user) name: expansions of short names, then suffixes. */
static void gb_nm__variable_variants(const char *old, GbNameList *out, GbNameList *suffixed)
{
    const char *const *const rows[] = {
        (const char *const[]){"i", "index", "idx", "position", NULL},
        (const char *const[]){"j", "inner_index", "col", "other_index", NULL},
        (const char *const[]){"k", "key", "step", "offset", NULL},
        (const char *const[]){"n", "count", "size", "length", NULL},
        (const char *const[]){"m", "middle", "width", NULL},
        (const char *const[]){"s", "text", "string_value", NULL},
        (const char *const[]){"x", "value", "item", NULL},
        (const char *const[]){"y", "other_value", "second", NULL},
        (const char *const[]){"c", "char", "character", NULL},
        (const char *const[]){"ch", "char", "character", NULL},
        (const char *const[]){"d", "mapping", "delta", NULL},
        (const char *const[]){"l", "items", "values", NULL},
        (const char *const[]){"lst", "items", "values", NULL},
        (const char *const[]){"arr", "values", "array", NULL},
        (const char *const[]){"res", "result", "outcome", NULL},
        (const char *const[]){"ret", "result", "outcome", NULL},
        (const char *const[]){"tmp", "temp_value", "scratch", NULL},
        (const char *const[]){"num", "number", "amount", NULL},
        (const char *const[]){"cnt", "count", "tally", NULL},
        (const char *const[]){"idx", "index", "position", NULL},
        (const char *const[]){"val", "value", "amount", NULL},
        (const char *const[]){"st", "stack", "start", NULL},
        (const char *const[]){"ans", "answer", "result", NULL},
        (const char *const[]){"a", "first", "values", NULL},
        (const char *const[]){"b", "second", "other", NULL},
        (const char *const[]){"w", "word", "width", NULL},
        (const char *const[]){"e", "element", "entry", NULL},
        (const char *const[]){"t", "text", "target", NULL},
        (const char *const[]){"p", "point", "part", NULL},
        (const char *const[]){"q", "queue_items", "query", NULL},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        if (strcmp(rows[r][0], old) == 0) gb_nm__add_words(out, rows[r] + 1);
    for (size_t r = 0; r < sizeof gb_nm_synonyms / sizeof *gb_nm_synonyms; r++)
        if (strcmp(gb_nm_synonyms[r][0], old) == 0) gb_nm__add_words(out, gb_nm_synonyms[r] + 1);
    char *stem = gb_nm__stem(old);
    if (!stem) return;
    gb_nm__addf(suffixed, "%s_value", stem);
    gb_nm__addf(suffixed, "current_%s", stem);
    gb_nm__addf(suffixed, "%s_item", stem);
    gb_nm__addf(suffixed, "local_%s", stem);
    free(stem);
}

/* Names for an import alias: `from dateutil.parser import parse` -> dateutil_parse;
 * `from cryptography.fernet import Fernet` -> FernetCipher (classes keep CapWords);
 * `import time` -> clock, timer. */
static void gb_nm__import_words(const char *src, TSNode mod, TSNode name, GbNameList *out)
{
    const char *const *const modules[] = {
        (const char *const[]){"base64", "codec", "encoding", NULL},
        (const char *const[]){"time", "clock", "timer", NULL},
        (const char *const[]){"datetime", "dt", "dates", NULL},
        (const char *const[]){"http.client", "http_lib", "httplib", NULL},
        (const char *const[]){"random", "rand", "rng_module", NULL},
        (const char *const[]){"math", "maths", "math_lib", NULL},
        (const char *const[]){"numpy", "np", "numeric", NULL},
    };
    char *n = gb_node_text(name, src);
    const char *last = strrchr(n, '.') ? strrchr(n, '.') + 1 : n;
    if (ts_node_is_null(mod)) {
        for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
            if (strcmp(modules[i][0], n) == 0) gb_nm__add_words(out, modules[i] + 1);
        char *ls = gb_nm__stem(last);
        if (ls) gb_nm__addf(out, "%s_module", ls);
        free(ls);
    } else if (isupper((unsigned char)last[0])) {
        /* a class: CapWords, without digits */
        static const char *const suffixes[] = {"Class", "Type", "Impl"};
        for (size_t i = 0; i < 3; i++) {
            char *c = gb_asprintf("%s%s", last, suffixes[i]);
            if (gb_naming_is_natural(c)) {
                bool dup = false;
                for (size_t k = 0; k < out->len; k++) dup = dup || strcmp(out->items[k], c) == 0;
                if (!dup) {
                    gb_array_push(out, c);
                    c = NULL;
                }
            }
            free(c);
        }
    } else {
        char *m = gb_node_text(mod, src);
        char *dot = strchr(m, '.');
        if (dot) *dot = '\0';
        char *top = gb_nm__stem(m), *ls = gb_nm__stem(last);
        if (top && ls) gb_nm__addf(out, "%s_%s", top, ls);
        if (ls) gb_nm__addf(out, "%s_func", ls);
        free(top);
        free(ls);
        free(m);
    }
    free(n);
}

static TSNode gb_nm__ident(TSNode root, uint32_t s, uint32_t e)
{
    TSNode n = ts_node_descendant_for_byte_range(root, s, e);
    while (!ts_node_is_null(n) && !gb_node_is_kind(n, GB_NK_IDENTIFIER) && ts_node_start_byte(n) == s)
        n = ts_node_parent(n);
    return n;
}

void gb_naming_candidates(GbOpContext *ctx, const GbRenamePlan *plan, GbNameList *out)
{
    GbNameList value = {0}, weak = {0}, weak_uses = {0};
    unsigned uses = 0;
    bool boolean = false, literal = false, is_def = false;
    TSNode def_node = {0};
    const char *def_src = NULL;
    for (size_t i = 0; i < plan->spots.len; i++) {
        const GbRenameSpot *sp = &plan->spots.items[i];
        const char *src = gb_op_ctx_source(ctx, sp->module);
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, sp->module));
        TSNode id = gb_nm__ident(root, sp->start, sp->end);
        if (sp->kind == GB_SPOT_IMPORT_AS)
            id = ts_node_named_child(ts_node_descendant_for_byte_range(root, sp->start, sp->end), 0);
        if (ts_node_is_null(id)) continue;
        TSNode p = ts_node_parent(id);
        switch (sp->flag) {
        case GB_NAME_READ:
            uses |= gb_nm__use(src, id);
            break;
        case GB_NAME_AUG: {
            TSNode r = gb_node_field(p, "right");
            if (gb_node_is_kind(r, GB_NK_INTEGER))
                uses |= GB_NM_USE_COUNTER;
            else
                uses |= GB_NM_USE_ACCUMULATE;
            break;
        }
        case GB_NAME_ASSIGN:
            if (gb_node_is_kind(p, GB_NK_ASSIGNMENT) && ts_node_eq(gb_node_field(p, "left"), id)) {
                TSNode v = gb_node_field(p, "right");
                /* a = b = value */
                while (gb_node_is_kind(v, GB_NK_ASSIGNMENT)) v = gb_node_field(v, "right");
                TSNode picked = gb_node_is_kind(v, GB_NK_SUBSCRIPT) ? gb_nm__picked(src, v) : v;
                if (ts_node_is_null(picked)) picked = v;
                GbNodeKind t = gb_node_kind(picked);
                if (t == GB_NK_TRUE || t == GB_NK_FALSE) boolean = true;
                if (boolean || t == GB_NK_INTEGER || t == GB_NK_FLOAT || t == GB_NK_STRING ||
                    t == GB_NK_UNARY_OPERATOR || t == GB_NK_LIST)
                    literal = true;
                gb_nm__value(src, v, &value, &weak, 0);
            } else if ((gb_node_is_kind(p, GB_NK_FOR_STATEMENT) || gb_node_is_kind(p, GB_NK_FOR_IN_CLAUSE)) &&
                       ts_node_eq(gb_node_field(p, "left"), id)) {
                gb_nm__iter(src, gb_node_field(p, "right"), &value, &weak);
            } else if (gb_node_is_kind(p, GB_NK_NAMED_EXPRESSION)) {
                gb_nm__value(src, gb_node_field(p, "value"), &value, &weak, 0);
            } else if (gb_node_is_kind(p, GB_NK_AS_PATTERN_TARGET)) {
                TSNode ap = ts_node_parent(p);
                TSNode up = ts_node_parent(ap);
                if (gb_node_is_kind(up, GB_NK_EXCEPT_CLAUSE)) {
                    static const char *const w[] = {"error", "exc", "failure", NULL};
                    gb_nm__add_words(&value, w);
                } else if (ts_node_named_child_count(ap) > 0) {
                    gb_nm__value(src, ts_node_named_child(ap, 0), &value, &weak, 0);
                    static const char *const w[] = {"handle", "resource", NULL};
                    gb_nm__add_words(&value, w);
                }
            }
            break;
        case GB_NAME_PARAM:
            if (gb_node_is_kind(p, GB_NK_DEFAULT_PARAMETER) || gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER))
                gb_nm__value(src, gb_node_field(p, "value"), &weak, &weak, 0);
            break;
        case GB_NAME_DEF:
            if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION)) {
                is_def = true;
                def_node = p;
                def_src = src;
            }
            break;
        case GB_NAME_IMPORT: {
            /* what is imported: `from dateutil.parser import parse as x`, `import time as x` */
            TSNode item = p;
            while (!ts_node_is_null(item) && !gb_node_is_kind(item, GB_NK_ALIASED_IMPORT) &&
                   !gb_node_is_kind(item, GB_NK_DOTTED_NAME))
                item = ts_node_parent(item);
            TSNode name = gb_node_is_kind(item, GB_NK_ALIASED_IMPORT) ? gb_node_field(item, "name") : item;
            TSNode st = ts_node_parent(item);
            TSNode mod =
                gb_node_is_kind(st, GB_NK_IMPORT_FROM_STATEMENT) ? gb_node_field(st, "module_name") : (TSNode){0};
            if (!ts_node_is_null(name)) gb_nm__import_words(src, mod, name, &value);
            break;
        }
        default:
            break;
        }
    }
    if (is_def) gb_nm__function(def_src, def_node, &value);
    /* a literal tested in a condition is a bound or a threshold; a computed value is not */
    if (!literal) uses &= ~(unsigned)(GB_NM_USE_GUARD_VALUE | GB_NM_USE_LIMIT);
    gb_nm__use_words(uses, boolean, &value, &weak_uses);
    /* A name a person chose keeps its meaning (synonyms, then suffix variants, then context);
     * short names get strong context first (what a call returns, what is iterated, how the value
     * is used), then their conventional expansions (i -> index, s -> text), then weak context
     * (how a literal is tested, the type of a literal); machine names are named by context. */
    GbNameList own = {0}, suffixed = {0};
    if (is_def)
        gb_nm__function_variants(plan->name, &own);
    else
        gb_nm__variable_variants(plan->name, &own, &suffixed);
    bool synthetic = gb_naming_is_numbered(plan->name) || gb_program_is_synthetic(ctx->prog, plan->name);
    bool meaningful = !synthetic && strlen(plan->name) > 2;
    const GbNameList *order[5];
    if (meaningful) {
        order[0] = &own, order[1] = &suffixed, order[2] = &value, order[3] = &weak_uses, order[4] = &weak;
    } else if (!synthetic) {
        order[0] = &value, order[1] = &own, order[2] = &weak_uses, order[3] = &weak, order[4] = &suffixed;
    } else {
        order[0] = &value, order[1] = &weak_uses, order[2] = &weak, order[3] = &own, order[4] = &suffixed;
    }
    /* a leading underscore (private, or an unused loop variable) stays */
    bool under = plan->name[0] == '_';
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < order[k]->len; i++) {
            const char *c = order[k]->items[i];
            if (under && c[0] != '_') {
                char *u = gb_asprintf("_%s", c);
                gb_nm__add_raw(out, u);
                free(u);
            } else {
                gb_nm__add_raw(out, c);
            }
        }
    gb_name_list_destroy(&own);
    gb_name_list_destroy(&suffixed);
    if (out->len == 0) gb_nm__add_raw(out, is_def ? "helper" : "value");
    gb_name_list_destroy(&value);
    gb_name_list_destroy(&weak);
    gb_name_list_destroy(&weak_uses);
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

char *gb_naming_choose(GbOpContext *ctx, const GbRenamePlan *plan, GbRng *rng)
{
    GbNameList cands = {0};
    gb_naming_candidates(ctx, plan, &cands);
    GbNameList avail = {0};
    for (size_t i = 0; i < cands.len && avail.len < 2; i++)
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

/* ---- Applying names ---- */

typedef struct {
    size_t module;
    int scope;
    char *name;
} GbNmVar;
typedef GbArray(GbNmVar) GbNmVars;

static void gb_nm__vars_destroy(GbNmVars *v)
{
    for (size_t i = 0; i < v->len; i++) free(v->items[i].name);
    gb_array_free(v);
}

/* Every variable of the program whose name is synthetic. */
static void gb_nm__synthetic_vars(GbOpContext *ctx, GbNmVars *out)
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

typedef struct {
    GbOpContext *ctx;
    json_t *renamed; /* {"old": "new"} in order */
    bool llm_used;
} GbNmRun;

/* Rename one variable to new_name; false (program unchanged) when the renamer refuses. */
static bool gb_nm__rename(GbNmRun *run, const GbNmVar *v, const char *new_name)
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

/* The first JSON value ({...} or [...]) in a model's reply, fences and prose around it ignored. */
static json_t *gb_nm__reply_json(const char *reply)
{
    for (const char *p = reply; *p; p++) {
        if (*p != '{' && *p != '[') continue;
        json_error_t e;
        json_t *j = json_loads(p, JSON_DISABLE_EOF_CHECK, &e);
        if (j) return j;
    }
    return NULL;
}

static const char *gb_nm__str_member(json_t *o, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++) {
        json_t *v = json_object_get(o, keys[i]);
        if (json_is_string(v)) return json_string_value(v);
    }
    return NULL;
}

/* Pairs (old, new) from the reply: {"old": "new"}, {"renames": {...}} or
 * [{"old": ..., "new": ...}] (also the reference tool's "original name"/"variable name"). */
static void gb_nm__reply_pairs(json_t *j, GbNameList *olds, GbNameList *news)
{
    if (json_is_object(j)) {
        static const char *const wrappers[] = {"renames", "names", "mapping", "identifiers", "variables", NULL};
        for (size_t i = 0; wrappers[i]; i++) {
            json_t *inner = json_object_get(j, wrappers[i]);
            if (json_is_object(inner) || json_is_array(inner)) {
                gb_nm__reply_pairs(inner, olds, news);
                return;
            }
        }
        const char *k;
        json_t *v;
        json_object_foreach(j, k, v)
        {
            if (!json_is_string(v)) continue;
            gb_array_push(olds, gb_strdup(k));
            gb_array_push(news, gb_strdup(json_string_value(v)));
        }
    } else if (json_is_array(j)) {
        static const char *const old_keys[] = {"old", "original", "original name", "original_name", "from", NULL};
        static const char *const new_keys[] = {"new", "name", "variable name", "new_name", "to", NULL};
        size_t i;
        json_t *v;
        json_array_foreach(j, i, v)
        {
            if (!json_is_object(v)) continue;
            const char *o = gb_nm__str_member(v, old_keys), *n = gb_nm__str_member(v, new_keys);
            if (!o || !n) continue;
            gb_array_push(olds, gb_strdup(o));
            gb_array_push(news, gb_strdup(n));
        }
    }
}

static bool gb_nm__ident_syntax(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_')) return false;
    return true;
}

/* Why a proposed name is refused (static text), or NULL when it is acceptable. */
static const char *gb_nm__refusal(GbOpContext *ctx, const char *name)
{
    if (!gb_nm__ident_syntax(name)) return "not an identifier";
    if (gb_python_is_keyword(name)) return "a keyword";
    if (gb_python_is_builtin(name)) return "a builtin";
    if (!gb_naming_is_natural(name)) return "a digit suffix";
    if (strncmp(name, "__", 2) == 0) return "a dunder name";
    if (gb_op_ctx_is_pinned(ctx, name)) return "pinned by the tests";
    if (!gb_rename_name_ok(ctx, name)) return "already used";
    return NULL;
}

static void gb_nm__llm(GbNmRun *run, const GbNamingConfig *cfg, char **llm_error)
{
    GbOpContext *ctx = run->ctx;
    GbNmVars vars = {0};
    gb_nm__synthetic_vars(ctx, &vars);
    GbNames wanted = {0};
    GbStr list;
    gb_str_init(&list);
    gb_str_append(&list, "");
    for (size_t i = 0; i < vars.len; i++) {
        if (gb_names_has(&wanted, vars.items[i].name)) continue;
        gb_names_add(&wanted, vars.items[i].name);
        gb_str_appendf(&list, "%s%s", list.len ? ", " : "", vars.items[i].name);
    }
    if (wanted.len == 0) {
        gb_str_destroy(&list);
        gb_nm__vars_destroy(&vars);
        return;
    }
    char *code = gb_program_concat(ctx->prog);
    GbStr user;
    gb_str_init(&user);
    gb_str_appendf(
        &user,
        "The following Python program contains machine-generated identifiers: %s.\n"
        "Propose a natural, human-readable name for each of them that says what the value holds or "
        "what the function does. Rules: Python identifiers in snake_case, no digit suffixes, not a keyword or "
        "builtin, not a name the program already uses, all different. The program's behaviour must not "
        "change.\n"
        "Reply with only a JSON object that maps each listed identifier to its new name, for example "
        "{\"%s\": \"new_name\"}.\n\nProgram:\n```python\n%s%s```\n",
        list.data, wanted.items[0], code, (*code && code[strlen(code) - 1] != '\n') ? "\n" : "");
    free(code);
    gb_str_destroy(&list);

    GbHttpOptions opts;
    gb_http_options_default(&opts);
    opts.base_url = cfg->url;
    opts.api_key = cfg->api_key;
    opts.connect_timeout_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 5000;
    opts.timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000;
    opts.max_retries = cfg->max_retries >= 0 ? cfg->max_retries : 2;
    opts.retry_base_ms = cfg->retry_base_ms >= 0 ? cfg->retry_base_ms : 500;
    GbError err;
    GbHttpClient *own = cfg->client ? NULL : gb_http_client_new(&opts, &err);
    GbHttpClient *client = cfg->client ? cfg->client : own;
    char *reply = NULL;
    bool ok = client && gb_llm_chat(client, cfg->model ? cfg->model : "default",
                                    "You are a careful Python developer who gives machine-generated identifiers "
                                    "natural, descriptive names.",
                                    user.data, cfg->seed, &reply, &err);
    gb_http_client_delete(own);
    gb_str_destroy(&user);
    if (!ok) {
        if (llm_error) *llm_error = gb_strdup(err.msg);
        gb_names_destroy(&wanted);
        gb_nm__vars_destroy(&vars);
        return;
    }
    json_t *j = gb_nm__reply_json(reply);
    GbNameList olds = {0}, news = {0};
    if (j) gb_nm__reply_pairs(j, &olds, &news);
    json_decref(j);
    GbStr rejected;
    gb_str_init(&rejected);
    gb_str_append(&rejected, "");
    size_t applied = 0;
    for (size_t i = 0; i < olds.len; i++) {
        const char *o = olds.items[i], *n = news.items[i];
        const char *why = NULL;
        if (!gb_names_has(&wanted, o))
            why = "not a synthetic name of the program";
        else if (strcmp(o, n) == 0)
            why = "unchanged";
        else
            why = gb_nm__refusal(ctx, n);
        if (!why) {
            /* the first variable with this name (the others keep theirs for the built-in step) */
            GbNmVars now = {0};
            gb_nm__synthetic_vars(ctx, &now);
            why = "cannot be renamed safely";
            for (size_t k = 0; k < now.len; k++)
                if (strcmp(now.items[k].name, o) == 0) {
                    if (gb_nm__rename(run, &now.items[k], n)) why = NULL;
                    break;
                }
            gb_nm__vars_destroy(&now);
        }
        if (why) {
            if (rejected.len < 400) gb_str_appendf(&rejected, "%s%s -> %s (%s)", rejected.len ? ", " : "", o, n, why);
        } else {
            applied++;
        }
    }
    if (applied) run->llm_used = true;
    if (llm_error && (!j || applied < wanted.len)) {
        if (!j)
            *llm_error = gb_asprintf("%s/v1/chat/completions: the model's reply is not JSON: %.120s", cfg->url, reply);
        else if (olds.len == 0)
            *llm_error = gb_asprintf("%s/v1/chat/completions: the model's reply has no names: %.120s", cfg->url, reply);
        else if (rejected.len)
            *llm_error = gb_asprintf("%s/v1/chat/completions: names refused: %s", cfg->url, rejected.data);
    }
    gb_str_destroy(&rejected);
    gb_name_list_destroy(&olds);
    gb_name_list_destroy(&news);
    free(reply);
    gb_names_destroy(&wanted);
    gb_nm__vars_destroy(&vars);
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
