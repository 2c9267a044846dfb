/* Thresholds files (corpora/NAME.json, schema corpora/thresholds.schema.json): reading, the
 * built-in copies embedded at build time, and writing calibrations. The only place in
 * fitness/ that uses jansson; no json_t leaves this file. */
#include "fitness/fitness.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/builtin_thresholds.h"
#include "fitness/calibrate.h"
#include "gb_config.h"

#define GB_THRESHOLDS_SCHEMA "genebench-thresholds/1"

const char *gb_thresholds_default_path(void)
{
    return GB_THRESHOLDS_BUILTIN_PREFIX "calibrated";
}

void gb_thresholds_destroy(GbThresholds *t)
{
    if (!t) return;
    free(t->name);
    t->name = NULL;
}

/* Read one group ("complexity" or "readability") of metric thresholds. */
static bool gb_thr__group(const char *name, json_t *root, const char *group, int first, int count, double *dst,
                          GbError *err)
{
    json_t *obj = json_object_get(root, group);
    if (!json_is_object(obj)) {
        gb_error_set(err, "%s: missing object \"%s\"", name, group);
        return false;
    }
    for (int i = 0; i < count; i++) {
        const char *key = gb_metric_key((GbMetricId)(first + i));
        json_t *v = json_object_get(obj, key);
        if (!json_is_number(v)) {
            gb_error_set(err, "%s: \"%s\".\"%s\" is missing or not a number", name, group, key);
            return false;
        }
        double d = json_number_value(v);
        if (!(d >= 0.0) || !isfinite(d)) {
            gb_error_set(err, "%s: \"%s\".\"%s\" must be a finite number >= 0", name, group, key);
            return false;
        }
        dst[i] = d;
    }
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        bool known = false;
        for (int i = 0; i < count && !known; i++) known = strcmp(key, gb_metric_key((GbMetricId)(first + i))) == 0;
        if (!known) {
            gb_error_set(err, "%s: unknown metric \"%s\" in \"%s\"", name, key, group);
            return false;
        }
    }
    return true;
}

bool gb_thresholds_parse(const char *name, const char *json, size_t len, GbThresholds *out, GbError *err)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_loadb(json, len, 0, &je);
    if (!root) {
        gb_error_set(err, "%s:%d:%d: invalid JSON: %s", name, je.line, je.column, je.text);
        return false;
    }
    bool ok = false;
    if (!json_is_object(root)) {
        gb_error_set(err, "%s: a thresholds file is a JSON object", name);
        goto done;
    }
    json_t *schema = json_object_get(root, "schema");
    if (!json_is_string(schema) || strcmp(json_string_value(schema), GB_THRESHOLDS_SCHEMA) != 0) {
        gb_error_set(err, "%s: \"schema\" must be \"%s\"", name, GB_THRESHOLDS_SCHEMA);
        goto done;
    }
    json_t *manifest = json_object_get(root, "manifest");
    if (!json_is_object(manifest)) {
        gb_error_set(err, "%s: missing object \"manifest\" (where the thresholds come from)", name);
        goto done;
    }
    if (!json_is_string(json_object_get(manifest, "source"))) {
        gb_error_set(err, "%s: \"manifest\".\"source\" must say where the thresholds come from", name);
        goto done;
    }
    if (!gb_thr__group(name, root, "complexity", 0, GB_N_COMPLEXITY, out->ct, err)) goto done;
    if (!gb_thr__group(name, root, "readability", GB_N_COMPLEXITY, GB_N_READABILITY, out->rt, err)) goto done;
    out->name = gb_strdup(name);
    ok = true;
done:
    json_decref(root);
    return ok;
}

bool gb_thresholds_load(const char *path, GbThresholds *out, GbError *err)
{
    const char *builtin = NULL;
    size_t plen = strlen(GB_THRESHOLDS_BUILTIN_PREFIX);
    if (strncmp(path, GB_THRESHOLDS_BUILTIN_PREFIX, plen) == 0)
        builtin = path + plen;
    else if (strcmp(path, "paper") == 0 || strcmp(path, "calibrated") == 0)
        builtin = path;
    if (builtin) {
        for (size_t i = 0; i < gb_builtin_thresholds_count; i++) {
            if (strcmp(gb_builtin_thresholds[i].name, builtin) != 0) continue;
            char *name = gb_asprintf(GB_THRESHOLDS_BUILTIN_PREFIX "%s", builtin);
            bool ok = gb_thresholds_parse(name, gb_builtin_thresholds[i].data, gb_builtin_thresholds[i].len, out, err);
            free(name);
            return ok;
        }
        gb_error_set(err, "%s: no such built-in thresholds (built in: paper, calibrated)", path);
        return false;
    }
    size_t len;
    char *text = gb_read_file(path, &len, err);
    if (!text) return false;
    bool ok = gb_thresholds_parse(path, text, len, out, err);
    free(text);
    return ok;
}

/* ---------------------------------------------------------------- writing calibrations */

static json_t *gb_thr__num(double x)
{
    return json_real(round(x * 10000.0) / 10000.0);
}

bool gb_calibration_write(const char *path, const GbCalibration *c, GbError *err)
{
    GbThresholds t;
    gb_calibration_thresholds(c, &t);
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_string(GB_THRESHOLDS_SCHEMA));
    json_object_set_new(root, "name", json_string(c->name));
    json_object_set_new(root, "description",
                        json_string("Calibrated by genebench with its own metric definitions: CT = mean of each "
                                    "complexity metric, RT = ceil(mean) of each readability metric, over the files "
                                    "listed in the manifest."));
    json_t *cx = json_object(), *rd = json_object(), *means = json_object();
    for (int i = 0; i < GB_N_COMPLEXITY; i++)
        json_object_set_new(cx, gb_metric_key((GbMetricId)i), gb_thr__num(t.ct[i]));
    for (int j = 0; j < GB_N_READABILITY; j++)
        json_object_set_new(rd, gb_metric_key((GbMetricId)(GB_N_COMPLEXITY + j)), json_integer((json_int_t)t.rt[j]));
    for (int i = 0; i < GB_METRIC_COUNT; i++)
        json_object_set_new(means, gb_metric_key((GbMetricId)i), gb_thr__num(c->mean[i]));
    json_object_set_new(root, "complexity", cx);
    json_object_set_new(root, "readability", rd);
    json_object_set_new(root, "means", means);

    json_t *man = json_object();
    json_object_set_new(man, "source", json_string("genebench calibrate"));
    json_object_set_new(man, "generator", json_string("genebench " GB_VERSION " calibrate"));
    json_object_set_new(man, "command", json_string(c->command ? c->command : ""));
    json_object_set_new(man, "threshold_rule", json_string("CT_i = mean(C_i); RT_j = ceil(mean(R_j))"));
    json_object_set_new(man, "test_files_rule",
                        json_string("skipped: directories named tests, test_*.py, *_test.py, conftest.py"));
    json_object_set_new(man, "files", json_integer((json_int_t)c->measured));
    json_object_set_new(man, "tests_skipped", json_integer((json_int_t)c->tests_skipped));
    json_t *ex = json_array();
    for (size_t i = 0; i < c->excludes.len; i++) json_array_append_new(ex, json_string(c->excludes.items[i]));
    json_object_set_new(man, "exclude_patterns", ex);
    json_object_set_new(man, "excluded", json_integer((json_int_t)c->excluded));
    char digest[40];
    snprintf(digest, sizeof digest, "fnv1a64:%016llx", (unsigned long long)c->digest);
    json_object_set_new(man, "files_digest", json_string(digest));
    json_object_set_new(man, "files_digest_rule",
                        json_string("FNV-1a 64 over the sorted measured files: for each, its relative path, a NUL "
                                    "byte and the 16-hex-digit FNV-1a 64 of its content, then a newline"));
    json_t *dirs = json_array();
    for (size_t i = 0; i < c->dirs.len; i++) {
        const GbCalibDir *d = &c->dirs.items[i];
        json_t *jd = json_object();
        json_object_set_new(jd, "path", json_string(d->path));
        json_object_set_new(jd, "files", json_integer((json_int_t)d->files));
        json_object_set_new(jd, "tests_skipped", json_integer((json_int_t)d->tests_skipped));
        json_object_set_new(jd, "parse_failures", json_integer((json_int_t)d->failed));
        json_t *pk = json_array();
        for (size_t k = 0; k < d->packages.len; k++) {
            json_t *p = json_object();
            json_object_set_new(p, "name", json_string(d->packages.items[k].name));
            json_object_set_new(p, "version", json_string(d->packages.items[k].version));
            json_array_append_new(pk, p);
        }
        json_object_set_new(jd, "packages", pk);
        json_array_append_new(dirs, jd);
    }
    json_object_set_new(man, "directories", dirs);
    json_t *fails = json_array();
    for (size_t i = 0; i < c->failures.len; i++)
        json_array_append_new(fails, json_string(c->failures.items[i].message));
    json_object_set_new(man, "parse_failures", fails);
    if (c->list_files) {
        json_t *list = json_array();
        for (size_t i = 0; i < c->files.len; i++)
            if (c->files.items[i].ok) json_array_append_new(list, json_string(c->files.items[i].rel));
        json_object_set_new(man, "file_list", list);
    }
    json_object_set_new(root, "manifest", man);

    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    gb_thresholds_destroy(&t);
    if (!text) {
        gb_error_set(err, "%s: could not serialise the calibration", path);
        return false;
    }
    size_t n = strlen(text);
    char *withnl = gb_malloc(n + 2);
    memcpy(withnl, text, n);
    withnl[n] = '\n';
    withnl[n + 1] = '\0';
    free(text);
    bool ok = gb_write_file_atomic(path, withnl, n + 1, err);
    free(withnl);
    return ok;
}
