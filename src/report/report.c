#include "src/report/report.h"

#include "fitness/fitness.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fitness/metric_list.h"
#include "gb_config.h"
#include "nsga2/gate_list.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "src/base/gzip.h"
#include "src/doc/sim_measure_list.h"
#include "src/base/linediff.h"
#include "src/doc/versions_similarity.h"
#include "src/report/summary.h"

/* ---- the metrics, from the one list ------------------------------------------------------- */

typedef struct {
    const char *id;    /* "C1", "R1", ... */
    const char *key;   /* key in "metrics": "C1", "num_tokens", ... */
    char kind;         /* 'C' or 'R' */
    const char *label; /* human label */
} GbRepMetric;

static const GbRepMetric gb_rep_metrics[] = {
#define GB_METRIC(id, key, kind, short, label) {#id, key, kind, label},
    GB_METRIC_LIST
#undef GB_METRIC
};
#define GB_REP_NMETRICS (sizeof gb_rep_metrics / sizeof gb_rep_metrics[0])

/* Similarity measures of similarity.json (src/doc/sim_measure_list.h), in the order the panel
 * shows them. */
static const char *const gb_rep_measures[GB_SIM_MEASURE_COUNT] = {
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field) [panel] = key,
    GB_SIM_MEASURE_LIST
#undef GB_SIM_MEASURE
};
#define GB_REP_NMEASURES (sizeof gb_rep_measures / sizeof gb_rep_measures[0])

/* ---- the report's state -------------------------------------------------------------------- */

typedef struct {
    char *name;                    /* owned: as the run names it */
    char *path;                    /* owned: resolved path, NULL when not found */
    bool loaded;                   /* file found and read */
    double value[GB_REP_NMETRICS]; /* CT for C metrics, RT for R metrics */
    bool has[GB_REP_NMETRICS];
} GbRepThresholds;

/* One task of a run: the hardened task as read and its output record. */
typedef struct {
    size_t line; /* in the run's file */
    GbTask task;
    GbRecord rec;
} GbRepTask;

typedef struct {
    char *path;               /* owned: the JSONL file */
    char *stem;               /* owned: file name without .jsonl */
    char *group;              /* owned: the benchmark this run hardened (directory name for versions) */
    char *label;              /* owned: unique display label, set at render time */
    char *summary_path;       /* owned, NULL when no summary was found */
    GbArray(GbRepTask) tasks; /* owned: the run's tasks with their records */
    json_t *summary;          /* owned, NULL when absent */
    size_t thresholds;        /* index into GbReport.thresholds, SIZE_MAX when the run names none */
} GbRepRun;

typedef struct {
    char *path;  /* owned: similarity.json */
    char *group; /* owned: directory name */
    json_t *sim; /* owned */
} GbRepVersions;

/* One `genebench eval` run: its summary and, when given, its per-sample results. */
typedef struct {
    char *summary_path; /* owned */
    char *results_path; /* owned, NULL when not given */
    char *label;        /* owned: the task type, with the model when the evals name several */
    json_t *summary;    /* owned */
    json_t *items;      /* owned, NULL without results: item -> {"task", "v": {"<version>": [passed, scored]}} */
    json_t *order;      /* owned: the item ids in the order of the results file */
} GbRepEval;

struct GbReport {
    GbReportOptions opt;
    GbArray(GbRepRun) runs;
    GbArray(GbRepEval) evals;
    GbArray(GbRepVersions) versions;
    GbArray(GbRepThresholds) thresholds;
    GbArray(char *) warnings; /* owned strings */
    size_t ntasks;
};

static void gb_report__warn(GbReport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gb_report__warn(GbReport *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = gb_vasprintf(fmt, ap);
    va_end(ap);
    gb_array_push(&r->warnings, msg);
}

GbReport *gb_report_new(const GbReportOptions *opt)
{
    GbReport *r = gb_calloc(1, sizeof *r);
    if (opt) r->opt = *opt;
    if (!r->opt.source_root) r->opt.source_root = GB_SOURCE_ROOT;
    if (!r->opt.title) r->opt.title = "genebench report";
    return r;
}

void gb_report_delete(GbReport *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        free(run->path);
        free(run->stem);
        free(run->group);
        free(run->label);
        free(run->summary_path);
        for (size_t t = 0; t < run->tasks.len; t++) {
            gb_task_destroy(&run->tasks.items[t].task);
            gb_record_destroy(&run->tasks.items[t].rec);
        }
        gb_array_free(&run->tasks);
        json_decref(run->summary);
    }
    gb_array_free(&r->runs);
    for (size_t i = 0; i < r->versions.len; i++) {
        free(r->versions.items[i].path);
        free(r->versions.items[i].group);
        json_decref(r->versions.items[i].sim);
    }
    gb_array_free(&r->versions);
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        free(e->summary_path);
        free(e->results_path);
        free(e->label);
        json_decref(e->summary);
        json_decref(e->items);
        json_decref(e->order);
    }
    gb_array_free(&r->evals);
    for (size_t i = 0; i < r->thresholds.len; i++) {
        free(r->thresholds.items[i].name);
        free(r->thresholds.items[i].path);
    }
    gb_array_free(&r->thresholds);
    for (size_t i = 0; i < r->warnings.len; i++) free(r->warnings.items[i]);
    gb_array_free(&r->warnings);
    free(r);
}

size_t gb_report_warning_count(const GbReport *r)
{
    return r->warnings.len;
}

const char *gb_report_warning(const GbReport *r, size_t i)
{
    return i < r->warnings.len ? r->warnings.items[i] : NULL;
}

size_t gb_report_task_count(const GbReport *r)
{
    return r->ntasks;
}

/* ---- small JSON helpers -------------------------------------------------------------------- */

/* obj[k1][k2]... (NULL-terminated keys); NULL when any step is missing or not an object. */
static json_t *gb_report__get(json_t *obj, ...)
{
    va_list ap;
    va_start(ap, obj);
    const char *k;
    while (obj && (k = va_arg(ap, const char *))) obj = json_is_object(obj) ? json_object_get(obj, k) : NULL;
    va_end(ap);
    return obj;
}

static bool gb_report__num(json_t *v, double *out)
{
    if (!v || !json_is_number(v)) return false;
    double d = json_number_value(v);
    if (!isfinite(d)) return false;
    *out = d;
    return true;
}

static const char *gb_report__str(json_t *v)
{
    return v && json_is_string(v) ? json_string_value(v) : NULL;
}

static void gb_report__set_num(json_t *row, const char *key, double v)
{
    if (isfinite(v)) json_object_set_new(row, key, json_real(v));
}

static void gb_report__set_str(json_t *row, const char *key, const char *v)
{
    json_object_set_new(row, key, json_string(v ? v : ""));
}

static const char *gb_report__task_id(const GbRepTask *t)
{
    return t->task.id ? t->task.id : "?";
}

/* A finite number of a record (absent values are NAN). */
static bool gb_report__finite(double v, double *out)
{
    if (!isfinite(v)) return false;
    *out = v;
    return true;
}

static bool gb_report__is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *gb_report__basename(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t s = n;
    while (s > 0 && path[s - 1] != '/') s--;
    return gb_strndup(path + s, n - s);
}

static char *gb_report__dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return gb_strdup(".");
    if (slash == path) return gb_strdup("/");
    return gb_strndup(path, (size_t)(slash - path));
}

static bool gb_report__ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- thresholds ---------------------------------------------------------------------------- */

/* The first number stored under key in obj or (breadth first) in its nested objects; the
 * calibration manifest is skipped. The thresholds file format only promises the metric keys. */
static bool gb_report__find_number(json_t *obj, const char *key, int depth, double *out)
{
    if (depth > 6 || !json_is_object(obj)) return false;
    if (gb_report__num(json_object_get(obj, key), out)) return true;
    const char *k;
    json_t *child;
    json_object_foreach(obj, k, child)
    {
        if (strcmp(k, "manifest") == 0) continue;
        if (gb_report__find_number(child, key, depth + 1, out)) return true;
    }
    return false;
}

/* An array of exactly n numbers stored under one of the keys (e.g. "ct": [7 numbers]). */
static json_t *gb_report__find_array(json_t *obj, const char *const *keys, size_t n)
{
    for (size_t i = 0; keys[i]; i++) {
        json_t *a = json_object_get(obj, keys[i]);
        if (json_is_array(a) && json_array_size(a) == n) return a;
    }
    return NULL;
}

static void gb_report__read_thresholds(GbReport *r, GbRepThresholds *t)
{
    GbError err;
    size_t len;
    char *text = gb_read_file(t->path, &len, &err);
    if (!text) {
        gb_report__warn(r, "%s", err.msg);
        return;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!json_is_object(root)) {
        gb_report__warn(r, "%s:%d: thresholds file is not a JSON object%s%s", t->path, root ? 1 : jerr.line,
                        root ? "" : ": ", root ? "" : jerr.text);
        json_decref(root);
        return;
    }
    static const char *const ct_keys[] = {"ct", "CT", "complexity", NULL};
    static const char *const rt_keys[] = {"rt", "RT", "readability", NULL};
    json_t *ct = gb_report__find_array(root, ct_keys, 7);
    json_t *rt = gb_report__find_array(root, rt_keys, 14);
    size_t ci = 0, ri = 0, found = 0;
    for (size_t i = 0; i < GB_REP_NMETRICS; i++) {
        const GbRepMetric *m = &gb_rep_metrics[i];
        double v;
        bool ok = gb_report__find_number(root, m->key, 0, &v) ||
                  (m->kind == 'R' && gb_report__find_number(root, m->id, 0, &v));
        if (!ok && m->kind == 'C' && ct) ok = gb_report__num(json_array_get(ct, ci), &v);
        if (!ok && m->kind == 'R' && rt) ok = gb_report__num(json_array_get(rt, ri), &v);
        if (m->kind == 'C')
            ci++;
        else
            ri++;
        if (ok) {
            t->value[i] = v;
            t->has[i] = true;
            found++;
        }
    }
    json_decref(root);
    if (found == 0) {
        gb_report__warn(r, "%s: no metric thresholds found (expected keys C1..C7, num_tokens, ...)", t->path);
        return;
    }
    if (found < GB_REP_NMETRICS)
        gb_report__warn(r, "%s: thresholds for only %zu of %zu metrics", t->path, found, (size_t)GB_REP_NMETRICS);
    t->loaded = true;
}

/* The thresholds entry for a name as given by a run (cached by name). Looked up as an absolute
 * path, then relative to the working directory, the source root, the source root's corpora/ and
 * the directory of the run. */
static size_t gb_report__thresholds(GbReport *r, const char *name, const char *run_path)
{
    for (size_t i = 0; i < r->thresholds.len; i++)
        if (strcmp(r->thresholds.items[i].name, name) == 0) return i;
    GbRepThresholds t = {.name = gb_strdup(name)};
    /* Names the fitness module knows (builtin:paper, builtin:calibrated, or a path) first. */
    GbThresholds th;
    GbError terr;
    if (gb_thresholds_load(name, &th, &terr)) {
        size_t ci = 0, ri = 0;
        for (size_t i = 0; i < GB_REP_NMETRICS; i++) {
            bool c = gb_rep_metrics[i].kind == 'C';
            t.value[i] = c ? th.ct[ci++] : th.rt[ri++];
            t.has[i] = true;
        }
        t.path = gb_strdup(name);
        t.loaded = true;
        gb_thresholds_destroy(&th);
        gb_array_push(&r->thresholds, t);
        return r->thresholds.len - 1;
    }
    char *dir = gb_report__dirname(run_path);
    char *cands[5] = {0};
    size_t nc = 0;
    cands[nc++] = gb_strdup(name);
    if (name[0] != '/') {
        cands[nc++] = gb_asprintf("%s/%s", r->opt.source_root, name);
        cands[nc++] = gb_asprintf("%s/corpora/%s", r->opt.source_root, name);
        cands[nc++] = gb_asprintf("%s/%s", dir, name);
    }
    for (size_t i = 0; i < nc && !t.path; i++)
        if (gb_report__is_file(cands[i])) t.path = gb_strdup(cands[i]);
    if (t.path)
        gb_report__read_thresholds(r, &t);
    else
        gb_report__warn(r,
                        "%s: thresholds file '%s' not found (looked in the working directory, %s and %s/corpora); "
                        "the metric panels are drawn without thresholds",
                        run_path, name, r->opt.source_root, r->opt.source_root);
    for (size_t i = 0; i < nc; i++) free(cands[i]);
    free(dir);
    gb_array_push(&r->thresholds, t);
    return r->thresholds.len - 1;
}

/* ---- reading inputs ------------------------------------------------------------------------ */

static json_t *gb_report__read_json(GbReport *r, const char *path)
{
    GbError err;
    size_t len;
    char *text = gb_read_file(path, &len, &err);
    if (!text) {
        gb_report__warn(r, "%s", err.msg);
        return NULL;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!root)
        gb_report__warn(r, "%s:%d: malformed JSON: %s", path, jerr.line, jerr.text);
    else if (!json_is_object(root)) {
        gb_report__warn(r, "%s:1: not a JSON object", path);
        json_decref(root);
        root = NULL;
    }
    return root;
}

/* Read one evolve output file as a run of the given group. Returns false when it holds no
 * usable task (the reason is in err). */
static bool gb_report__add_run(GbReport *r, const char *path, const char *group, GbError *err)
{
    size_t len;
    char *text = gb_read_data_file(path, &len, err);
    if (!text) return false;
    GbArray(GbRepTask) tasks = {0};
    size_t lineno = 0, no_gb = 0, first_no_gb = 0;
    const char *first_no_gb_id = NULL;
    char *first_no_gb_copy = NULL;
    char *start = text;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) start += 3; /* a UTF-8 byte order mark */
    for (char *p = start; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        char *line = p;
        p = nl ? nl + 1 : p + n;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
        if (k == n) continue;
        char *one = gb_strndup(line, n);
        GbRepTask t = {.line = lineno};
        GbError terr;
        bool ok = gb_task_from_json(one, &t.task, &terr);
        free(one);
        if (!ok) {
            gb_report__warn(r, "%s:%zu: %s; line skipped", path, lineno, terr.msg);
            gb_task_destroy(&t.task);
            continue;
        }
        const char *id = gb_report__task_id(&t);
        if (!gb_record_present(&t.task)) {
            if (no_gb++ == 0) {
                first_no_gb = lineno;
                first_no_gb_id = first_no_gb_copy = gb_strdup(id);
            }
            gb_task_destroy(&t.task);
            continue;
        }
        if (!gb_record_read(&t.task, &t.rec, &terr)) {
            gb_report__warn(r, "%s:%zu: task %s: %s; line skipped", path, lineno, id, terr.msg);
            gb_record_destroy(&t.rec);
            gb_task_destroy(&t.task);
            continue;
        }
        if (!t.rec.has_scores) gb_report__warn(r, "%s:%zu: task %s: no \"before\" measurements", path, lineno, id);
        gb_array_push(&tasks, t);
    }
    free(text);
    if (no_gb)
        gb_report__warn(r,
                        "%s: %zu line(s) without a \"genebench\" field (not evolve output) skipped, the first at "
                        "line %zu, task %s",
                        path, no_gb, first_no_gb, first_no_gb_id);
    free(first_no_gb_copy);
    if (tasks.len == 0) {
        gb_array_free(&tasks);
        gb_error_set(err, "%s: no task with genebench results in it", path);
        return false;
    }
    GbRepRun run = {.path = gb_strdup(path), .group = gb_strdup(group), .thresholds = SIZE_MAX};
    run.tasks.items = tasks.items;
    run.tasks.len = tasks.len;
    run.tasks.cap = tasks.cap;
    char *base = gb_report__basename(path);
    if (gb_report__ends_with(base, ".jsonl")) base[strlen(base) - 6] = '\0';
    run.stem = base;
    /* OUT.summary.json: OUT is the output path as given (x.jsonl.summary.json) or without .jsonl. */
    char *cand1 = gb_asprintf("%s.summary.json", path);
    char *cand2 =
        gb_report__ends_with(path, ".jsonl") ? gb_asprintf("%.*s.summary.json", (int)(strlen(path) - 6), path) : NULL;
    if (gb_report__is_file(cand1))
        run.summary_path = gb_strdup(cand1);
    else if (cand2 && gb_report__is_file(cand2))
        run.summary_path = gb_strdup(cand2);
    free(cand1);
    free(cand2);
    if (run.summary_path) run.summary = gb_report__read_json(r, run.summary_path);
    const char *tname = r->opt.thresholds;
    if (!tname) tname = gb_report__str(gb_report__get(run.summary, "thresholds", NULL));
    for (size_t i = 0; !tname && i < run.tasks.len; i++) tname = run.tasks.items[i].rec.thresholds;
    if (tname)
        run.thresholds = gb_report__thresholds(r, tname, path);
    else
        gb_report__warn(r, "%s: the run names no thresholds file", path);
    r->ntasks += run.tasks.len;
    gb_array_push(&r->runs, run);
    return true;
}

static int gb_report__cmp_names(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

static bool gb_report__add_dir(GbReport *r, const char *path, GbError *err)
{
    DIR *d = opendir(path);
    if (!d) {
        gb_error_set(err, "%s: cannot open directory: %s", path, strerror(errno));
        return false;
    }
    GbArray(char *) names = {0};
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && gb_report__ends_with(e->d_name, ".jsonl")) {
            char *name = gb_strdup(e->d_name);
            gb_array_push(&names, name);
        }
    closedir(d);
    qsort(names.items, names.len, sizeof *names.items, gb_report__cmp_names);
    char *group = gb_report__basename(path);
    size_t added = 0;
    for (size_t i = 0; i < names.len; i++) {
        char *file = gb_asprintf("%s/%s", path, names.items[i]);
        GbError e2;
        if (gb_report__add_run(r, file, group, &e2))
            added++;
        else
            gb_report__warn(r, "%s", e2.msg);
        free(file);
        free(names.items[i]);
    }
    gb_array_free(&names);
    char *sim_path = gb_asprintf("%s/similarity.json", path);
    if (gb_report__is_file(sim_path)) {
        /* Only a similarity.json its owner's parser accepts is shown (src/doc/versions_similarity.h). */
        GbError verr;
        char *vtext = gb_read_file(sim_path, NULL, &verr);
        GbVsimDoc vdoc;
        bool valid = vtext && gb_vsim_doc_parse(vtext, sim_path, &vdoc, &verr);
        if (vtext) gb_vsim_doc_destroy(&vdoc);
        free(vtext);
        if (!valid) gb_report__warn(r, "%s", verr.msg);
        json_t *sim = valid ? gb_report__read_json(r, sim_path) : NULL;
        if (sim) {
            GbRepVersions v = {.path = gb_strdup(sim_path), .group = gb_strdup(group), .sim = sim};
            gb_array_push(&r->versions, v);
        }
    }
    free(sim_path);
    free(group);
    if (added == 0) {
        gb_error_set(err, "%s: no *.jsonl file with genebench results in this directory", path);
        return false;
    }
    return true;
}

bool gb_report_add_input(GbReport *r, const char *path, GbError *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        gb_error_set(err, "%s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) return gb_report__add_dir(r, path, err);
    char *group = gb_report__basename(path);
    if (gb_report__ends_with(group, ".jsonl")) group[strlen(group) - 6] = '\0';
    bool ok = gb_report__add_run(r, path, group, err);
    free(group);
    return ok;
}

/* ---- eval runs ----------------------------------------------------------------------------- */

/* Read the per-sample results of an eval into e->items: for every item and version, how many
 * samples passed and how many were scored (every verdict but "error", as eval's statistics
 * count them). A later line for the same item, version and sample replaces an earlier one (a
 * resumed run appends). Lines of another model than the summary's are skipped. */
static bool gb_report__read_results(GbReport *r, GbRepEval *e, GbError *err)
{
    size_t len;
    char *text = gb_read_data_file(e->results_path, &len, err);
    if (!text) return false;
    const char *model = gb_report__str(json_object_get(e->summary, "model"));
    json_t *samples = json_object(); /* "item\x1fversion\x1fsample" -> [item, task, version, pass 0/1/-1] */
    json_t *order = json_array();
    size_t lineno = 0, other_model = 0, used = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        char *line = p;
        p = nl ? nl + 1 : p + n;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
        if (k == n) continue;
        json_error_t jerr;
        json_t *o = json_loadb(line, n, 0, &jerr);
        const char *item = gb_report__str(json_object_get(o, "item"));
        const char *verdict = gb_report__str(json_object_get(o, "verdict"));
        json_t *jv = json_object_get(o, "version"), *js = json_object_get(o, "sample");
        if (!o || !json_is_object(o) || !item || !verdict || !json_is_integer(jv) || !json_is_integer(js)) {
            gb_report__warn(r, "%s:%zu: %s; line skipped", e->results_path, lineno,
                            !o ? "malformed JSON" : "not an eval result (item, version, sample, verdict)");
            json_decref(o);
            continue;
        }
        const char *m = gb_report__str(json_object_get(o, "model"));
        if (model && m && strcmp(model, m) != 0) {
            other_model++;
            json_decref(o);
            continue;
        }
        const char *task = gb_report__str(json_object_get(o, "task"));
        char *key = gb_asprintf("%s\x1f%lld\x1f%lld", item, (long long)json_integer_value(jv),
                                (long long)json_integer_value(js));
        int pass = strcmp(verdict, "error") == 0 ? -1 : strcmp(verdict, "pass") == 0;
        if (!json_object_get(samples, key)) json_array_append_new(order, json_string(item));
        json_object_set_new(samples, key, json_pack("[ssIi]", item, task ? task : item, json_integer_value(jv), pass));
        free(key);
        json_decref(o);
        used++;
    }
    free(text);
    if (other_model)
        gb_report__warn(r, "%s: %zu line(s) of another model than the summary's (%s) skipped", e->results_path,
                        other_model, model);
    e->items = json_object();
    e->order = json_array();
    size_t oi;
    json_t *id;
    json_array_foreach(order, oi, id)
    {
        const char *item = json_string_value(id);
        if (!json_object_get(e->items, item)) {
            json_object_set_new(e->items, item, json_pack("{s:n,s:{}}", "task", "v"));
            json_array_append(e->order, id);
        }
    }
    json_decref(order);
    /* items in natural order (the file has them in the order they finished) */
    size_t ni = json_array_size(e->order);
    const char **ids = gb_malloc((ni ? ni : 1) * sizeof *ids);
    for (size_t i = 0; i < ni; i++) ids[i] = json_string_value(json_array_get(e->order, i));
    qsort(ids, ni, sizeof *ids, gb_report__cmp_names);
    json_t *sorted = json_array();
    for (size_t i = 0; i < ni; i++) json_array_append_new(sorted, json_string(ids[i]));
    free(ids);
    json_decref(e->order);
    e->order = sorted;
    const char *key;
    json_t *smp;
    json_object_foreach(samples, key, smp)
    {
        const char *item = json_string_value(json_array_get(smp, 0));
        json_t *it = json_object_get(e->items, item);
        json_object_set(it, "task", json_array_get(smp, 1));
        char *ver = gb_asprintf("%lld", (long long)json_integer_value(json_array_get(smp, 2)));
        json_t *v = json_object_get(json_object_get(it, "v"), ver);
        if (!v) {
            v = json_pack("[ii]", 0, 0);
            json_object_set_new(json_object_get(it, "v"), ver, v);
        }
        free(ver);
        json_int_t pass = json_integer_value(json_array_get(smp, 3));
        if (pass >= 0) {
            json_array_set_new(v, 0, json_integer(json_integer_value(json_array_get(v, 0)) + pass));
            json_array_set_new(v, 1, json_integer(json_integer_value(json_array_get(v, 1)) + 1));
        }
    }
    json_decref(samples);
    if (used == 0) {
        gb_error_set(err, "%s: no eval result line in it", e->results_path);
        return false;
    }
    return true;
}

/* Solved: at least half of the scored samples passed (src/eval/stats.h). -1: nothing scored. */
static int gb_report__solved(json_t *item, json_int_t version, json_int_t *c, json_int_t *n)
{
    char ver[32];
    snprintf(ver, sizeof ver, "%lld", (long long)version);
    json_t *v = gb_report__get(item, "v", ver, NULL);
    *c = json_integer_value(json_array_get(v, 0));
    *n = json_integer_value(json_array_get(v, 1));
    if (!v || *n == 0) return -1;
    return 2 * *c >= *n;
}

bool gb_report_add_eval(GbReport *r, const char *summary_path, const char *results_path, GbError *err)
{
    json_error_t jerr;
    json_t *sum = json_load_file(summary_path, 0, &jerr);
    if (!sum) {
        if (jerr.line <= 0)
            gb_error_set(err, "%s: %s", summary_path, jerr.text);
        else
            gb_error_set(err, "%s:%d: malformed JSON: %s", summary_path, jerr.line, jerr.text);
        return false;
    }
    if (!json_is_object(sum) || !json_is_array(json_object_get(sum, "versions")) ||
        !json_is_array(json_object_get(sum, "comparisons"))) {
        gb_error_set(err,
                     "%s: not the summary of `genebench eval` (--summary FILE): no \"versions\" and "
                     "\"comparisons\" lists",
                     summary_path);
        json_decref(sum);
        return false;
    }
    GbRepEval e = {.summary_path = gb_strdup(summary_path), .summary = sum};
    if (results_path) {
        e.results_path = gb_strdup(results_path);
        if (!gb_report__read_results(r, &e, err)) {
            free(e.summary_path);
            free(e.results_path);
            json_decref(e.summary);
            json_decref(e.items);
            json_decref(e.order);
            return false;
        }
        /* The results must tell the same story as the summary. */
        size_t ci;
        json_t *c;
        json_array_foreach(json_object_get(sum, "comparisons"), ci, c)
        {
            json_int_t ver = json_integer_value(json_object_get(c, "version"));
            json_int_t cnt[4] = {0};
            const char *id;
            json_t *it;
            json_object_foreach(e.items, id, it)
            {
                json_int_t a, b, x, y;
                int so = gb_report__solved(it, 0, &a, &b), sv = gb_report__solved(it, ver, &x, &y);
                if (so < 0 || sv < 0) continue;
                cnt[so && sv ? 0 : so ? 1 : sv ? 2 : 3]++;
            }
            const char *names[4] = {"both_pass", "lost", "gained", "both_fail"};
            for (size_t k = 0; k < 4; k++) {
                json_t *want = json_object_get(c, names[k]);
                if (json_is_integer(want) && json_integer_value(want) != cnt[k]) {
                    gb_report__warn(r, "%s: version %lld: %s is %lld in the results but %lld in %s (not the same run?)",
                                    results_path, (long long)ver, names[k], (long long)cnt[k],
                                    (long long)json_integer_value(want), summary_path);
                    break;
                }
            }
        }
    }
    gb_array_push(&r->evals, e);
    return true;
}

size_t gb_report_eval_count(const GbReport *r)
{
    return r->evals.len;
}

/* ---- assets -------------------------------------------------------------------------------- */

static const char *const gb_rep_assets[3] = {"vega", "vega-lite", "vega-embed"};

bool gb_report_find_assets(const char *dir, char *paths_out[3], GbError *err)
{
    for (size_t i = 0; i < 3; i++) paths_out[i] = NULL;
    for (size_t i = 0; i < 3; i++) {
        char *a = gb_asprintf("%s/%s/build/%s.min.js", dir, gb_rep_assets[i], gb_rep_assets[i]);
        char *b = gb_asprintf("%s/%s.min.js", dir, gb_rep_assets[i]);
        if (gb_report__is_file(a))
            paths_out[i] = a, a = NULL;
        else if (gb_report__is_file(b))
            paths_out[i] = b, b = NULL;
        if (!paths_out[i])
            gb_error_set(err,
                         "missing %s (the %s build that the report inlines): run src/setup.sh, which fetches vega, "
                         "vega-lite and vega-embed from npm into third_party/, or pass --assets DIR",
                         a, gb_rep_assets[i]);
        free(a);
        free(b);
        if (!paths_out[i]) {
            for (size_t j = 0; j < i; j++) free(paths_out[j]), paths_out[j] = NULL;
            return false;
        }
    }
    return true;
}

/* ---- rendering helpers --------------------------------------------------------------------- */

static void gb_report__esc(GbStr *out, const char *s)
{
    if (s) gb_html_escape(out, s, strlen(s));
}

/* Labels: the file stem, prefixed with the group when two runs share a stem. */
static void gb_report__make_labels(GbReport *r)
{
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        bool dup = false;
        for (size_t j = 0; j < r->runs.len; j++)
            if (j != i && strcmp(r->runs.items[j].stem, run->stem) == 0) dup = true;
        free(run->label);
        run->label = dup ? gb_asprintf("%s/%s", run->group, run->stem) : gb_strdup(run->stem);
    }
    /* Still equal (same group and stem given twice): number them. */
    for (size_t i = 0; i < r->runs.len; i++) {
        size_t n = 1;
        for (size_t j = i + 1; j < r->runs.len; j++)
            if (strcmp(r->runs.items[j].label, r->runs.items[i].label) == 0) {
                char *l = gb_asprintf("%s #%zu", r->runs.items[j].label, ++n);
                free(r->runs.items[j].label);
                r->runs.items[j].label = l;
            }
    }
}

static size_t gb_report__ngroups(const GbReport *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            if (strcmp(r->runs.items[j].group, r->runs.items[i].group) == 0) seen = true;
        n += !seen;
    }
    return n;
}

/* Sort key of an operator code: S before A before N, then by number (the registry's order). */
static int gb_report__op_rank(const char *op)
{
    int base = op[0] == 'S' ? 0 : op[0] == 'A' ? 100 : op[0] == 'N' ? 200 : 300;
    return base + atoi(op + (op[0] ? 1 : 0));
}

/* Embed a chart: a <div> target and its spec as JSON in a script element the page's loader
 * reads. JSON_ESCAPE_SLASH keeps "</script>" out of the inlined text. Takes the spec. */
static void gb_report__chart(GbStr *out, const char *id, json_t *spec)
{
    char *json = json_dumps(spec, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(8));
    assert(json);
    gb_str_appendf(out, "<div class=\"chart\" id=\"%s\"></div>\n<script type=\"application/json\" data-chart=\"%s\">",
                   id, id);
    gb_str_append(out, json);
    gb_str_append(out, "</script>\n");
    free(json);
    json_decref(spec);
}

/* Several charts side by side that wrap onto the next line when the page is narrow (one SVG
 * each, so CSS can wrap them): ids "<id>-1", "<id>-2", ... Takes charts (an array of specs). */
static void gb_report__chart_row(GbStr *out, const char *id, json_t *charts)
{
    gb_str_appendf(out, "<div class=\"chartrow\" id=\"%s\">\n", id);
    size_t i;
    json_t *c;
    json_array_foreach(charts, i, c)
    {
        char *cid = gb_asprintf("%s-%zu", id, i + 1);
        json_object_set_new(c, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
        gb_report__chart(out, cid, json_incref(c));
        free(cid);
    }
    gb_str_append(out, "</div>\n");
    json_decref(charts);
}

/* The run labels in input order (a new array), to sort facets and legends by. */
static json_t *gb_report__run_order(const GbReport *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->runs.len; i++) json_array_append_new(a, json_string(r->runs.items[i].label));
    return a;
}

/* A spec from a JSON template (our own text, so a parse failure is a bug) with the rows as
 * its inline data. Takes rows. */
static json_t *gb_report__spec(const char *tmpl, json_t *rows)
{
    json_error_t jerr;
    json_t *spec = json_loads(tmpl, 0, &jerr);
    assert(spec && "a chart template is not valid JSON");
    json_object_set_new(spec, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
    json_object_set_new(spec, "data", json_pack("{s:o}", "values", rows));
    return spec;
}

static void gb_report__fmt(GbStr *out, json_t *v, const char *fmt)
{
    double d;
    if (gb_report__num(v, &d))
        gb_str_appendf(out, fmt, d);
    else if (gb_report__str(v))
        gb_report__esc(out, gb_report__str(v));
    else if (json_is_boolean(v))
        gb_str_append(out, json_is_true(v) ? "yes" : "no");
    else
        gb_str_append(out, "<span class=\"na\">–</span>");
}

/* ---- panel: metric distributions before/after ---------------------------------------------- */

/* One chart per metric: a box per series, then the threshold as a rule with its value (or, when
 * it is off scale, in the chart's subtitle). Each layer carries its own data, so no layer is ever
 * empty. */
static const char gb_rep_tmpl_box[] =
    "{\"height\": 170,"
    " \"mark\": {\"type\": \"boxplot\", \"extent\": \"min-max\", \"size\": 18, \"median\": {\"color\": \"black\"}},"
    " \"encoding\": {"
    "   \"x\": {\"field\": \"series\", \"type\": \"nominal\", \"sort\": null, \"title\": null,"
    "          \"axis\": {\"labelAngle\": -40, \"labelLimit\": 110}},"
    "   \"y\": {\"field\": \"v\", \"type\": \"quantitative\", \"title\": null, \"scale\": {\"zero\": true}},"
    "   \"color\": {\"field\": \"phase\", \"type\": \"nominal\", \"title\": \"program\","
    "              \"scale\": {\"domain\": [\"original\", \"hardened\"], \"range\": [\"#4c78a8\", \"#f58518\"]}}}}";

static const char gb_rep_tmpl_rule[] =
    "{\"mark\": {\"type\": \"rule\", \"color\": \"#d62728\", \"strokeDash\": [6, 4], \"strokeWidth\": 1.5},"
    " \"encoding\": {\"y\": {\"field\": \"v\", \"type\": \"quantitative\"},"
    "   \"tooltip\": [{\"field\": \"what\", \"title\": \"threshold\"}, {\"field\": \"v\", \"title\": \"value\"},"
    "                {\"field\": \"file\", \"title\": \"file\"}]}}";

static const char gb_rep_tmpl_rule_label[] =
    "{\"mark\": {\"type\": \"text\", \"color\": \"#d62728\", \"align\": \"right\", \"baseline\": \"bottom\","
    "          \"fontSize\": 10, \"dy\": -2},"
    " \"encoding\": {\"y\": {\"field\": \"v\", \"type\": \"quantitative\"}, \"text\": {\"field\": \"label\"}}}";

/* A threshold more than this many times the largest value is written in the chart's subtitle
 * instead of stretching the scale until the boxes are flat. */
#define GB_REP_OFFSCALE 3.0

static bool gb_report__first_of_group(const GbReport *r, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(r->runs.items[j].group, r->runs.items[i].group) == 0) return false;
    return true;
}

static json_t *gb_report__layer(const char *tmpl, json_t *rows)
{
    json_error_t jerr;
    json_t *layer = json_loads(tmpl, 0, &jerr);
    assert(layer && "a chart template is not valid JSON");
    json_object_set_new(layer, "data", json_pack("{s:o}", "values", rows));
    return layer;
}

static void gb_report__panel_metrics(GbStr *out, GbReport *r)
{
    size_t ngroups = gb_report__ngroups(r), nseries = 0;
    json_t *vals[GB_REP_NMETRICS], *rel[2] = {json_array(), json_array()}; /* C1..R14; RC, RR */
    double maxv[GB_REP_NMETRICS] = {0};
    for (size_t k = 0; k < GB_REP_NMETRICS; k++) vals[k] = json_array();
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        char *before = ngroups > 1 ? gb_asprintf("%s original", run->group) : gb_strdup("original");
        const char *after = r->runs.len > 1 ? run->label : "hardened";
        bool first = gb_report__first_of_group(r, i);
        for (int phase = 0; phase < 2; phase++) {
            /* Versions of one benchmark share their originals: one "original" box per group. */
            if (phase == 0 && !first) continue;
            nseries++;
            for (size_t ti = 0; ti < run->tasks.len; ti++) {
                const GbRepTask *task = &run->tasks.items[ti];
                if (!task->rec.has_scores) continue;
                const GbRecordScore *sc = phase ? &task->rec.after : &task->rec.before;
                for (int q = 0; q < 2; q++) {
                    double v;
                    if (!gb_report__finite(q ? sc->rr : sc->rc, &v)) continue;
                    json_t *row = json_object();
                    gb_report__set_str(row, "series", phase ? after : before);
                    gb_report__set_str(row, "phase", phase ? "hardened" : "original");
                    gb_report__set_num(row, "v", v);
                    gb_report__set_str(row, "task", gb_report__task_id(task));
                    json_array_append_new(rel[q], row);
                }
                for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
                    double v;
                    if (!gb_report__finite(sc->metrics[k], &v)) continue;
                    json_t *row = json_object();
                    gb_report__set_str(row, "series", phase ? after : before);
                    gb_report__set_str(row, "phase", phase ? "hardened" : "original");
                    gb_report__set_num(row, "v", v);
                    gb_report__set_str(row, "task", gb_report__task_id(task));
                    json_array_append_new(vals[k], row);
                    if (v > maxv[k]) maxv[k] = v;
                }
            }
        }
        free(before);
    }
    gb_str_append(out, "<section id=\"metrics\"><h2>Metrics before and after</h2>\n"
                       "<p>Distribution over the tasks of each complexity metric (C1–C7) and readability metric "
                       "(R1–R14), for the original programs and the hardened ones. Boxes span the quartiles with the "
                       "median; whiskers reach the minimum and maximum. The dashed red line is the threshold of the "
                       "run's thresholds file: the complexity target CT<sub>i</sub> that RC measures against, and the "
                       "readability limit RT<sub>j</sub> that no hardened program may exceed. A threshold more than "
                       "three times above every value is written under the chart's title (\"off scale\") instead, "
                       "so that the boxes stay readable. Last, the same for the relative complexity RC and the "
                       "relative readability RR of each program.</p>\n");
    bool any_t = false;
    for (size_t ti = 0; ti < r->thresholds.len; ti++) any_t |= r->thresholds.items[ti].loaded;
    if (!any_t)
        gb_str_append(out, "<p class=\"note\">No thresholds file could be read: thresholds are not drawn.</p>\n");
    /* One 34-pixel band per series (at least 100 pixels wide); the charts wrap with the page. */
    size_t width = nseries * 34 < 100 ? 100 : nseries * 34, cell = width + 80;
    for (int c = 0; c < 2; c++) {
        char kind = c == 0 ? 'C' : 'R';
        gb_str_appendf(out, "<h3>%s</h3>\n", c == 0 ? "Complexity C1–C7" : "Readability R1–R14");
        json_t *charts = json_array();
        for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
            if (gb_rep_metrics[k].kind != kind) continue;
            if (json_array_size(vals[k]) == 0) {
                json_decref(vals[k]);
                continue;
            }
            json_t *layers = json_array();
            json_array_append_new(layers, gb_report__layer(gb_rep_tmpl_box, vals[k]));
            json_t *rule = json_array();
            GbStr off;
            gb_str_init(&off);
            for (size_t ti = 0; ti < r->thresholds.len; ti++) {
                const GbRepThresholds *t = &r->thresholds.items[ti];
                if (!t->loaded || !t->has[k]) continue;
                char *label = gb_asprintf("%s %g", c == 0 ? "CT" : "RT", t->value[k]);
                if (maxv[k] > 0 && t->value[k] > GB_REP_OFFSCALE * maxv[k]) {
                    gb_str_appendf(&off, "%s%s ↑ off scale", off.len ? ", " : "", label);
                } else {
                    json_t *row = json_object();
                    gb_report__set_num(row, "v", t->value[k]);
                    gb_report__set_str(row, "label", label);
                    gb_report__set_str(row, "what", c == 0 ? "CT (target)" : "RT (limit)");
                    gb_report__set_str(row, "file", t->name);
                    json_array_append_new(rule, row);
                }
                free(label);
            }
            if (json_array_size(rule)) {
                json_array_append_new(layers, gb_report__layer(gb_rep_tmpl_rule, json_copy(rule)));
                json_t *text = gb_report__layer(gb_rep_tmpl_rule_label, json_incref(rule));
                json_object_set_new(json_object_get(text, "encoding"), "x",
                                    json_pack("{s:i}", "value", (int)(width - 2)));
                json_array_append_new(layers, text);
            }
            json_decref(rule);
            char *title = gb_asprintf("%s %s", gb_rep_metrics[k].id, gb_rep_metrics[k].label);
            json_t *tobj = json_pack("{s:s,s:i,s:s,s:i,s:s}", "text", title, "fontSize", 11, "anchor", "start", "limit",
                                     (int)(cell - 10), "subtitleColor", "#d62728");
            json_object_set_new(tobj, "subtitle", json_string(off.len ? off.data : " "));
            /* The colour legend once per row, on its first chart. */
            if (json_array_size(charts) > 0)
                json_object_set_new(json_object_get(json_object_get(json_array_get(layers, 0), "encoding"), "color"),
                                    "legend", json_null());
            json_array_append_new(charts,
                                  json_pack("{s:o,s:i,s:o}", "title", tobj, "width", (int)width, "layer", layers));
            gb_str_destroy(&off);
            free(title);
        }
        if (json_array_size(charts) == 0) {
            gb_str_append(out, "<p class=\"note\">No metric values in the input.</p>\n");
            json_decref(charts);
            continue;
        }
        gb_report__chart_row(out, c == 0 ? "chart-complexity" : "chart-readability", charts);
    }
    gb_str_append(out, "<h3>Relative complexity RC and readability RR</h3>\n");
    if (json_array_size(rel[0]) + json_array_size(rel[1]) == 0) {
        gb_str_append(out, "<p class=\"note\">No RC/RR values in the input.</p>\n");
        json_decref(rel[0]), json_decref(rel[1]);
    } else {
        json_t *charts = json_array();
        for (int q = 0; q < 2; q++) {
            if (json_array_size(rel[q]) == 0) {
                json_decref(rel[q]);
                continue;
            }
            json_t *box = gb_report__layer(gb_rep_tmpl_box, rel[q]);
            json_t *enc = json_object_get(box, "encoding");
            json_object_set_new(json_object_get(enc, "y"), "scale", json_pack("{s:[ii]}", "domain", 0, 1));
            if (json_array_size(charts) > 0) json_object_set_new(json_object_get(enc, "color"), "legend", json_null());
            json_t *tobj = json_pack("{s:s,s:i,s:s}", "text", q ? "RR relative readability" : "RC relative complexity",
                                     "fontSize", 11, "anchor", "start");
            json_array_append_new(charts,
                                  json_pack("{s:o,s:i,s:[o]}", "title", tobj, "width", (int)width, "layer", box));
        }
        gb_report__chart_row(out, "chart-relative", charts);
    }
    gb_str_append(out, "</section>\n");
}

/* ---- panel: per-metric change ------------------------------------------------------------- */

/* The share of the evolved tasks in which each metric rose, one bar per run, with the quarter
 * mark as a dashed rule. Each layer carries its own data. */
static const char gb_rep_tmpl_change[] =
    "{\"height\": 220, \"title\": {\"text\": \"Share of the evolved tasks in which the metric rose\","
    "  \"fontSize\": 11, \"anchor\": \"start\"},"
    " \"layer\": ["
    "  {\"mark\": \"bar\","
    "   \"encoding\": {"
    "    \"x\": {\"field\": \"metric\", \"type\": \"nominal\", \"sort\": {\"field\": \"rank\", \"op\": \"min\"},"
    "           \"title\": null, \"axis\": {\"labelAngle\": 0}},"
    "    \"xOffset\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null},"
    "    \"y\": {\"field\": \"pct\", \"type\": \"quantitative\", \"title\": \"% of tasks raised\","
    "           \"scale\": {\"domain\": [0, 100]}},"
    "    \"color\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null, \"title\": \"run\"},"
    "    \"tooltip\": [{\"field\": \"run\"}, {\"field\": \"metric\"}, {\"field\": \"label\", \"title\": \"what\"},"
    "                 {\"field\": \"before\", \"title\": \"mean before\", \"format\": \".2f\"},"
    "                 {\"field\": \"after\", \"title\": \"mean after\", \"format\": \".2f\"},"
    "                 {\"field\": \"raised\", \"title\": \"raised in\"},"
    "                 {\"field\": \"lowered\", \"title\": \"lowered in\"},"
    "                 {\"field\": \"tasks\", \"title\": \"tasks\"},"
    "                 {\"field\": \"pct\", \"title\": \"% raised\", \"format\": \".1f\"}]}},"
    "  {\"mark\": {\"type\": \"rule\", \"color\": \"#d62728\", \"strokeDash\": [6, 4], \"strokeWidth\": 1.5},"
    "   \"encoding\": {\"y\": {\"field\": \"q\", \"type\": \"quantitative\"},"
    "                \"tooltip\": [{\"field\": \"what\", \"title\": \"mark\"}]}}]}";

/* A metric counts as raised across a run when it rose in at least this share of its tasks
 * (the goal: every C_i raised in a quarter of the tasks or more). */
#define GB_REP_RAISED_SHARE 0.25

static void gb_report__panel_change(GbStr *out, GbReport *r)
{
    size_t nruns = r->runs.len;
    GbMetricChange(*ch)[GB_METRIC_COUNT] = gb_calloc(nruns ? nruns : 1, sizeof *ch);
    bool any = false;
    for (size_t i = 0; i < nruns; i++) {
        const GbRepRun *run = &r->runs.items[i];
        for (size_t ti = 0; ti < run->tasks.len; ti++) gb_metric_change_add(ch[i], &run->tasks.items[ti].rec);
        for (size_t k = 0; k < GB_REP_NMETRICS; k++) any |= ch[i][k].tasks > 0;
    }
    gb_str_append(out, "<section id=\"change\"><h2>Per-metric change</h2>\n"
                       "<p>For each metric, over the tasks that evolved (status hardened or unchanged; tasks whose "
                       "original fails its tests or that hit an error are left out): the mean before → after, and in "
                       "how many of those tasks the value after is higher than before (raised in <i>n</i>/<i>N</i>, "
                       "with the share). Complexity C1–C7 first: those are what hardening raises; a readability "
                       "metric R<sub>j</sub> that rises makes the program harder to read, within the limit "
                       "RT<sub>j</sub>. A complexity metric raised in a quarter of the tasks or more is marked ✓ (the "
                       "dashed line in the chart). "
                       "Computed from the output records, as the summary's <code>metrics</code> is.</p>\n");
    if (!any) {
        gb_str_append(out, "<p class=\"note\">No task evolved (or none has before/after metrics): nothing to "
                           "compare.</p></section>\n");
        free(ch);
        return;
    }
    gb_str_append(out, "<div class=\"scroll\"><table class=\"facts change\" id=\"change-table\"><thead>");
    if (nruns > 1) {
        gb_str_append(out, "<tr><th></th><th></th>");
        for (size_t i = 0; i < nruns; i++) {
            gb_str_append(out, "<th colspan=\"2\">");
            gb_report__esc(out, r->runs.items[i].label);
            gb_str_append(out, "</th>");
        }
        gb_str_append(out, "</tr>");
    }
    gb_str_append(out, "<tr><th>metric</th><th>what</th>");
    for (size_t i = 0; i < nruns; i++) gb_str_append(out, "<th>mean before → after</th><th>raised in</th>");
    gb_str_append(out, "</tr></thead><tbody>\n");
    json_t *rows = json_array();
    for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
        gb_str_appendf(out, "<tr data-metric=\"%s\"><th>%s</th><td>", gb_rep_metrics[k].id, gb_rep_metrics[k].id);
        gb_report__esc(out, gb_rep_metrics[k].label);
        gb_str_append(out, "</td>");
        for (size_t i = 0; i < nruns; i++) {
            const GbMetricChange *c = &ch[i][k];
            if (!c->tasks) {
                gb_str_append(out, "<td><span class=\"na\">–</span></td><td><span class=\"na\">–</span></td>");
                continue;
            }
            double n = (double)c->tasks, before = c->before_sum / n, after = c->after_sum / n,
                   pct = 100.0 * (double)c->raised / n;
            bool up = gb_rep_metrics[k].kind == 'C' && (double)c->raised >= GB_REP_RAISED_SHARE * n;
            gb_str_appendf(out, "<td>%.2f → %.2f</td><td%s>%ld/%ld (%.0f%%)%s</td>", before, after,
                           up ? " class=\"good\"" : "", c->raised, c->tasks, pct, up ? " ✓" : "");
            json_t *row = json_object();
            gb_report__set_str(row, "run", r->runs.items[i].label);
            gb_report__set_str(row, "metric", gb_rep_metrics[k].id);
            gb_report__set_str(row, "label", gb_rep_metrics[k].label);
            json_object_set_new(row, "rank", json_integer((json_int_t)k));
            gb_report__set_num(row, "before", before);
            gb_report__set_num(row, "after", after);
            json_object_set_new(row, "raised", json_integer(c->raised));
            json_object_set_new(row, "lowered", json_integer(c->lowered));
            json_object_set_new(row, "tasks", json_integer(c->tasks));
            gb_report__set_num(row, "pct", pct);
            json_array_append_new(rows, row);
        }
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n<ul class=\"change\">");
    /* Per run, in words: which complexity metrics rose in a quarter of the tasks or more. */
    for (size_t i = 0; i < nruns; i++) {
        GbStr yes, no;
        gb_str_init(&yes);
        gb_str_init(&no);
        size_t nyes = 0, nc = 0;
        for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
            const GbMetricChange *c = &ch[i][k];
            if (gb_rep_metrics[k].kind != 'C' || !c->tasks) continue;
            nc++;
            bool up = (double)c->raised >= GB_REP_RAISED_SHARE * (double)c->tasks;
            GbStr *s = up ? &yes : &no;
            gb_str_appendf(s, "%s%s", s->len ? ", " : "", gb_rep_metrics[k].id);
            nyes += up;
        }
        gb_str_append(out, "<li>");
        gb_report__esc(out, r->runs.items[i].label);
        if (nc == 0) {
            gb_str_append(out, ": no complexity values");
        } else {
            gb_str_appendf(out, ": %zu of %zu complexity metrics raised in a quarter of the tasks or more", nyes, nc);
            if (yes.len) gb_str_appendf(out, " (%s)", yes.data);
            if (no.len) gb_str_appendf(out, "; below a quarter: %s", no.data);
        }
        gb_str_append(out, "</li>");
        gb_str_destroy(&yes);
        gb_str_destroy(&no);
    }
    gb_str_append(out, "</ul>\n");
    json_error_t jerr;
    json_t *spec = json_loads(gb_rep_tmpl_change, 0, &jerr);
    assert(spec && "a chart template is not valid JSON");
    json_object_set_new(spec, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
    size_t width = GB_REP_NMETRICS * (nruns * 10 + 8);
    json_object_set_new(spec, "width", json_integer((json_int_t)(width < 560 ? 560 : width)));
    json_t *layers = json_object_get(spec, "layer"), *bars = json_array_get(layers, 0);
    json_object_set_new(bars, "data", json_pack("{s:o}", "values", rows));
    json_t *enc = json_object_get(bars, "encoding");
    json_object_set_new(json_object_get(enc, "color"), "scale", json_pack("{s:o}", "domain", gb_report__run_order(r)));
    json_object_set_new(json_object_get(enc, "xOffset"), "sort", gb_report__run_order(r));
    json_object_set_new(json_array_get(layers, 1), "data",
                        json_pack("{s:[{s:i,s:s}]}", "values", "q", (int)(GB_REP_RAISED_SHARE * 100), "what",
                                  "a quarter of the tasks"));
    gb_report__chart(out, "chart-change", spec);
    gb_str_append(out, "</section>\n");
    free(ch);
}

/* ---- panel: RC vs RR ----------------------------------------------------------------------- */

static const char gb_rep_tmpl_scatter[] =
    "{\"facet\": {\"field\": \"run\", \"type\": \"nominal\", \"title\": null, \"sort\": null,"
    "   \"header\": {\"labelFontSize\": 13, \"labelFontWeight\": \"bold\"}},"
    " \"columns\": 3,"
    " \"spec\": {\"width\": 330, \"height\": 280, \"layer\": ["
    "   {\"transform\": [{\"filter\": \"datum.kind === 'move'\"}],"
    "    \"mark\": {\"type\": \"rule\", \"color\": \"#c7c7c7\"},"
    "    \"encoding\": {\"x\": {\"field\": \"rc\", \"type\": \"quantitative\"},"
    "                 \"y\": {\"field\": \"rr\", \"type\": \"quantitative\"},"
    "                 \"x2\": {\"field\": \"rc2\"}, \"y2\": {\"field\": \"rr2\"}}},"
    "   {\"transform\": [{\"filter\": \"datum.kind === 'Pareto front'\"}],"
    "    \"mark\": {\"type\": \"line\", \"color\": \"#9e9e9e\", \"strokeDash\": [3, 2]},"
    "    \"encoding\": {\"x\": {\"field\": \"rc\", \"type\": \"quantitative\"},"
    "                 \"y\": {\"field\": \"rr\", \"type\": \"quantitative\"},"
    "                 \"detail\": {\"field\": \"task\"}, \"order\": {\"field\": \"rc\"}}},"
    "   {\"transform\": [{\"filter\": \"datum.kind !== 'move'\"}],"
    "    \"mark\": {\"type\": \"point\", \"filled\": true, \"size\": 70, \"opacity\": 0.85},"
    "    \"encoding\": {"
    "      \"x\": {\"field\": \"rc\", \"type\": \"quantitative\", \"title\": \"RC (relative complexity)\","
    "             \"axis\": {\"tickCount\": 6}},"
    "      \"y\": {\"field\": \"rr\", \"type\": \"quantitative\", \"title\": \"RR (relative readability)\","
    "             \"scale\": {\"zero\": false}},"
    "      \"color\": {\"field\": \"kind\", \"type\": \"nominal\", \"title\": null,"
    "                 \"scale\": {\"domain\": [\"original\", \"hardened pick\", \"Pareto front\"],"
    "                           \"range\": [\"#4c78a8\", \"#e45756\", \"#9e9e9e\"]}},"
    "      \"shape\": {\"field\": \"kind\", \"type\": \"nominal\", \"title\": null,"
    "                 \"scale\": {\"domain\": [\"original\", \"hardened pick\", \"Pareto front\"],"
    "                           \"range\": [\"circle\", \"diamond\", \"triangle-up\"]}},"
    "      \"tooltip\": [{\"field\": \"task\"}, {\"field\": \"kind\"},"
    "                   {\"field\": \"rc\", \"type\": \"quantitative\", \"format\": \".4f\"},"
    "                   {\"field\": \"rr\", \"type\": \"quantitative\", \"format\": \".4f\"},"
    "                   {\"field\": \"ops\", \"title\": \"operators\"}]}}]}}";

/* The codes of a pick's steps (steps) or of a front member (codes), space-separated. Owned. */
static char *gb_report__op_list(const GbRecord *rec, const GbRecordFrontMember *member)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    size_t n = member ? member->operators.len : rec->operators.len;
    for (size_t i = 0; i < n; i++) {
        if (s.len) gb_str_append(&s, " ");
        gb_str_append(&s, member ? member->operators.items[i] : rec->operators.items[i].op);
    }
    return gb_str_take(&s);
}

static void gb_report__point(json_t *rows, const char *run, const char *task, const char *kind, double rc, double rr,
                             const char *ops)
{
    json_t *row = json_object();
    gb_report__set_str(row, "run", run);
    gb_report__set_str(row, "task", task);
    gb_report__set_str(row, "kind", kind);
    gb_report__set_num(row, "rc", rc);
    gb_report__set_num(row, "rr", rr);
    gb_report__set_str(row, "ops", ops);
    json_array_append_new(rows, row);
}

static void gb_report__panel_scatter(GbStr *out, GbReport *r)
{
    json_t *rows = json_array();
    size_t points = 0, fronts = 0, moves = 0;
    /* Front points first so that originals and picks are drawn on top of them. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->runs.len; i++) {
            GbRepRun *run = &r->runs.items[i];
            for (size_t ti = 0; ti < run->tasks.len; ti++) {
                const GbRepTask *task = &run->tasks.items[ti];
                const GbRecord *gb = &task->rec;
                const char *id = gb_report__task_id(task);
                if (pass == 0) {
                    for (size_t fi = 0; fi < gb->front.len; fi++) {
                        const GbRecordFrontMember *f = &gb->front.items[fi];
                        double rc, rr;
                        if (!gb_report__finite(f->rc, &rc) || !gb_report__finite(f->rr, &rr)) continue;
                        char *ops = gb_report__op_list(gb, f);
                        gb_report__point(rows, run->label, id, "Pareto front", rc, rr, ops);
                        free(ops);
                        fronts++;
                    }
                    continue;
                }
                double brc = 0, brr = 0, arc = 0, arr = 0;
                bool b = gb_report__finite(gb->before.rc, &brc) && gb_report__finite(gb->before.rr, &brr);
                bool a = gb_report__finite(gb->after.rc, &arc) && gb_report__finite(gb->after.rr, &arr);
                if (b && a) {
                    json_t *row = json_object();
                    gb_report__set_str(row, "run", run->label);
                    gb_report__set_str(row, "kind", "move");
                    gb_report__set_num(row, "rc", brc);
                    gb_report__set_num(row, "rr", brr);
                    gb_report__set_num(row, "rc2", arc);
                    gb_report__set_num(row, "rr2", arr);
                    json_array_append_new(rows, row);
                    moves++;
                }
                if (b) gb_report__point(rows, run->label, id, "original", brc, brr, ""), points++;
                if (a) {
                    char *ops = gb_report__op_list(gb, NULL);
                    gb_report__point(rows, run->label, id, "hardened pick", arc, arr, ops);
                    free(ops);
                    points++;
                }
            }
        }
    gb_str_append(
        out, "<section id=\"fitness\"><h2>RC vs RR</h2>\n"
             "<p>Each point is one program: its relative complexity RC (mean of min(1, C<sub>i</sub>/CT<sub>i</sub>), "
             "higher is closer to real-world code) against its relative readability RR (mean of max(0, "
             "1 − R<sub>j</sub>/RT<sub>j</sub>), higher is easier to read). Blue circles are the originals, "
             "red diamonds the hardened picks (highest RC on the first front), joined by a grey line to "
             "their original; grey triangles and dashed lines are each task's final Pareto front. "
             "One chart per benchmark run.</p>\n");
    if (fronts == 0)
        gb_str_append(out, "<p class=\"note\">The input has no \"front\" fields: fronts are not drawn.</p>\n");
    if (points == 0) {
        gb_str_append(out, "<p class=\"note\">No RC/RR values in the input.</p></section>\n");
        json_decref(rows);
        return;
    }
    json_t *spec = gb_report__spec(gb_rep_tmpl_scatter, rows);
    json_object_set_new(json_object_get(spec, "facet"), "sort", gb_report__run_order(r));
    /* Drop the layers that would have no data (Vega warns about their empty scales). */
    json_t *layers = gb_report__get(spec, "spec", "layer", NULL);
    if (fronts == 0) json_array_remove(layers, 1);
    if (moves == 0) json_array_remove(layers, 0);
    gb_report__chart(out, "chart-fitness", spec);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: operators ---------------------------------------------------------------------- */

static const char gb_rep_tmpl_ops[] =
    "{\"hconcat\": ["
    " {\"width\": 560, \"height\": 230, \"title\": \"Applications in the hardened picks\", \"mark\": \"bar\","
    "  \"encoding\": {"
    "   \"x\": {\"field\": \"opname\", \"type\": \"nominal\", \"sort\": {\"field\": \"rank\", \"op\": \"min\"},"
    "          \"title\": null, \"axis\": {\"labelAngle\": -45}},"
    "   \"xOffset\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null},"
    "   \"y\": {\"field\": \"n\", \"type\": \"quantitative\", \"title\": \"applications\"},"
    "   \"color\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null, \"title\": \"run\"},"
    "   \"tooltip\": [{\"field\": \"run\"}, {\"field\": \"opname\", \"title\": \"operator\"},"
    "                {\"field\": \"n\", \"title\": \"applications\"}]}},"
    " {\"width\": 560, \"height\": 230, \"title\": \"Mean RC gain per application (rc_delta)\", \"mark\": \"bar\","
    "  \"encoding\": {"
    "   \"x\": {\"field\": \"opname\", \"type\": \"nominal\", \"sort\": {\"field\": \"rank\", \"op\": \"min\"},"
    "          \"title\": null, \"axis\": {\"labelAngle\": -45}},"
    "   \"xOffset\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null},"
    "   \"y\": {\"field\": \"delta\", \"type\": \"quantitative\", \"title\": \"mean RC gain\"},"
    "   \"color\": {\"field\": \"run\", \"type\": \"nominal\", \"sort\": null, \"title\": \"run\"},"
    "   \"tooltip\": [{\"field\": \"run\"}, {\"field\": \"opname\", \"title\": \"operator\"},"
    "                {\"field\": \"delta\", \"title\": \"mean rc_delta\", \"format\": \".5f\"},"
    "                {\"field\": \"n\", \"title\": \"applications\"}]}}]}";

/* Operator code -> display name ("S1 AddNestedFor"), from whatever the input says. */
static void gb_report__note_opname(json_t *names, const char *code, const char *name)
{
    json_t *cur = json_object_get(names, code);
    if (cur && json_string_length(cur) > strlen(code)) return;
    char *label = name ? gb_asprintf("%s %s", code, name) : gb_strdup(code);
    json_object_set_new(names, code, json_string(label));
    free(label);
}

static void gb_report__panel_operators(GbStr *out, GbReport *r, json_t *names)
{
    json_t *rows = json_array();
    bool from_summary = false;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        json_t *agg = json_object(); /* code -> [count, sum of rc_delta, count with rc_delta] */
        bool any_ops = false;
        for (size_t ti = 0; ti < run->tasks.len; ti++) {
            const GbRecord *gb = &run->tasks.items[ti].rec;
            if (!gb->has_operators) continue;
            any_ops = true;
            for (size_t oi = 0; oi < gb->operators.len; oi++) {
                const GbRecordStep *o = &gb->operators.items[oi];
                const char *code = o->op;
                gb_report__note_opname(names, code, o->name);
                json_t *a = json_object_get(agg, code);
                if (!a) json_object_set_new(agg, code, a = json_pack("[fff]", 0.0, 0.0, 0.0));
                double d;
                json_array_set_new(a, 0, json_real(json_real_value(json_array_get(a, 0)) + 1));
                if (gb_report__finite(o->rc_delta, &d)) {
                    json_array_set_new(a, 1, json_real(json_real_value(json_array_get(a, 1)) + d));
                    json_array_set_new(a, 2, json_real(json_real_value(json_array_get(a, 2)) + 1));
                }
            }
        }
        json_t *sops = gb_report__get(run->summary, "operators", NULL);
        if (!any_ops && json_is_object(sops)) {
            /* Tasks without operator lists: fall back to the run summary's per-operator numbers. */
            from_summary = true;
            const char *code;
            json_t *o;
            json_object_foreach(sops, code, o)
            {
                double n = 0, d = 0;
                gb_report__num(json_object_get(o, "in_picks"), &n);
                bool has_d = gb_report__num(json_object_get(o, "mean_rc_delta"), &d);
                gb_report__note_opname(names, code, gb_report__str(json_object_get(o, "name")));
                json_object_set_new(
                    agg, code, json_pack("[fff]", n, has_d ? d * (n > 0 ? n : 1) : 0.0, has_d ? (n > 0 ? n : 1) : 0.0));
            }
        }
        const char *code;
        json_t *a;
        json_object_foreach(agg, code, a)
        {
            double n = json_real_value(json_array_get(a, 0)), sum = json_real_value(json_array_get(a, 1)),
                   nd = json_real_value(json_array_get(a, 2));
            json_t *row = json_object();
            gb_report__set_str(row, "run", run->label);
            gb_report__set_str(row, "op", code);
            json_object_set(row, "opname", json_object_get(names, code));
            json_object_set_new(row, "rank", json_integer(gb_report__op_rank(code)));
            gb_report__set_num(row, "n", n);
            if (nd > 0) gb_report__set_num(row, "delta", sum / nd);
            json_array_append_new(rows, row);
        }
        json_decref(agg);
    }
    gb_str_append(out, "<section id=\"operators\"><h2>Operators</h2>\n"
                       "<p>Left: how often each operator appears in the hardened picks (the chain of transformations "
                       "that produced each final program). Right: each operator's mean contribution to RC, the mean "
                       "of <code>rc_delta</code> (the RC gain of that step) over its applications in the picks. "
                       "Renaming operators (N1, N2) change no metric and so gain nothing by design.</p>\n");
    if (from_summary)
        gb_str_append(out, "<p class=\"note\">Some tasks have no operator lists: those runs use the summary's "
                           "in_picks and mean_rc_delta.</p>\n");
    if (json_array_size(rows) == 0) {
        gb_str_append(out, "<p class=\"note\">No operator was applied in any pick.</p></section>\n");
        json_decref(rows);
        return;
    }
    bool any_delta = false;
    size_t ri;
    json_t *row;
    json_array_foreach(rows, ri, row) any_delta |= json_object_get(row, "delta") != NULL;
    json_t *spec = gb_report__spec(gb_rep_tmpl_ops, rows);
    if (!any_delta) json_array_remove(json_object_get(spec, "hconcat"), 1);
    /* Colours and bar order follow the input order of the runs. */
    size_t hi;
    json_t *h;
    json_array_foreach(json_object_get(spec, "hconcat"), hi, h)
    {
        json_t *enc = json_object_get(h, "encoding");
        json_object_set_new(json_object_get(enc, "color"), "scale",
                            json_pack("{s:o}", "domain", gb_report__run_order(r)));
        json_object_set_new(json_object_get(enc, "xOffset"), "sort", gb_report__run_order(r));
    }
    /* The two charts side by side when they fit, one under the other when not. */
    json_t *charts = json_array();
    json_array_foreach(json_object_get(spec, "hconcat"), hi, h)
    {
        json_t *c = json_deep_copy(h);
        json_object_set(c, "data", json_object_get(spec, "data"));
        json_array_append_new(charts, c);
    }
    json_decref(spec);
    gb_report__chart_row(out, "chart-operators", charts);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: gates -------------------------------------------------------------------------- */

static const char gb_rep_tmpl_gates[] =
    "{\"facet\": {\"field\": \"run\", \"type\": \"nominal\", \"title\": null, \"sort\": null,"
    "   \"header\": {\"labelFontSize\": 13, \"labelFontWeight\": \"bold\"}},"
    " \"columns\": 2,"
    " \"spec\": {\"width\": 400, \"height\": {\"step\": 18}, \"mark\": \"bar\","
    "  \"encoding\": {"
    "   \"y\": {\"field\": \"opname\", \"type\": \"nominal\", \"sort\": {\"field\": \"rank\", \"op\": \"min\"},"
    "          \"title\": null},"
    "   \"x\": {\"field\": \"n\", \"type\": \"quantitative\", \"aggregate\": \"sum\", \"title\": \"offspring "
    "rejected\"},"
    "   \"color\": {\"field\": \"gate\", \"type\": \"nominal\", \"title\": \"gate\","
    "              \"scale\": {\"domain\": [],"
    "                        \"range\": [\"#9467bd\", \"#ff7f0e\", \"#7f7f7f\", \"#d62728\", \"#17becf\"]}},"
    "   \"order\": {\"field\": \"gorder\", \"aggregate\": \"min\"},"
    "   \"tooltip\": [{\"field\": \"opname\", \"title\": \"operator\"}, {\"field\": \"gate\"},"
    "                {\"field\": \"n\", \"aggregate\": \"sum\", \"title\": \"rejected\"}]}},"
    " \"resolve\": {\"scale\": {\"y\": \"independent\"}}}";

static void gb_report__add_count(json_t *totals, const char *k, double d)
{
    double cur = 0;
    gb_report__num(json_object_get(totals, k), &cur);
    json_object_set_new(totals, k, json_real(cur + d));
}

/* Add counts into totals {"offered", <gates>..., "accepted"}. */
static void gb_report__add_gates(json_t *totals, const GbGateCounts *c)
{
    gb_report__add_count(totals, "offered", (double)c->offered);
    for (int g = 0; g < GB_GATE_COUNT; g++)
        gb_report__add_count(totals, gb_gate_name((GbGate)g), (double)c->rejected[g]);
    gb_report__add_count(totals, "accepted", (double)c->accepted);
}

/* The added-text measure of each run's summary ("added_text", nsga2/evolve.h). */
static void gb_report__panel_added_text(GbStr *out, GbReport *r)
{
    GbStr table;
    gb_str_init(&table);
    size_t rows = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        const GbRepRun *run = &r->runs.items[i];
        json_t *at = gb_report__get(run->summary, "added_text", NULL);
        if (!json_is_object(at)) continue;
        gb_str_append(&table, "<tr><td>");
        gb_report__esc(&table, run->label);
        static const char *const keys[] = {"sentence", "name"};
        for (int k = 0; k < 2; k++) {
            char *tk = gb_asprintf("%s_tasks", keys[k]);
            gb_str_append(&table, "</td><td><code>");
            const char *text = gb_report__str(json_object_get(at, keys[k]));
            gb_report__esc(&table, text ? text : "");
            gb_str_append(&table, "</code></td><td>");
            gb_report__fmt(&table, json_object_get(at, tk), "%.0f");
            gb_str_append(&table, "/");
            gb_report__fmt(&table, json_object_get(at, "tasks"), "%.0f");
            free(tk);
        }
        gb_str_append(&table, "</td></tr>\n");
        rows++;
    }
    if (rows)
        gb_str_appendf(out,
                       "<section id=\"added-text\"><h2>Added text</h2>\n"
                       "<p>The docstring or comment sentence and the identifier that the most picks contain and their "
                       "originals do not, and in how many tasks: a phrase that recurs across a benchmark is what a "
                       "reader or a model learns to skip.</p>\n"
                       "<table class=\"facts\"><thead><tr><th>run</th><th>sentence</th><th>tasks</th><th>name</th>"
                       "<th>tasks</th></tr></thead><tbody>\n%s</tbody></table></section>\n",
                       table.data ? table.data : "");
    gb_str_destroy(&table);
}

static void gb_report__panel_gates(GbStr *out, GbReport *r, json_t *names)
{
    json_t *rows = json_array();
    bool any_fallback = false;
    GbStr table;
    gb_str_init(&table);
    gb_str_append(&table, "<table class=\"facts\"><thead><tr><th>run</th><th>offered</th>");
    for (int g = 0; g < GB_GATE_COUNT; g++) gb_str_appendf(&table, "<th>%s</th>", gb_gate_name((GbGate)g));
    gb_str_append(&table, "<th>accepted</th></tr></thead><tbody>");
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        json_t *byop = json_object(), *totals = json_object();
        bool any_task_gates = false;
        for (size_t ti = 0; ti < run->tasks.len; ti++) {
            const GbRecord *gb = &run->tasks.items[ti].rec;
            if (gb->has_gates) gb_report__add_gates(totals, &gb->gates), any_task_gates = true;
            if (gb->has_gates_by_operator) {
                for (int o = 0; o < GB_OP_COUNT; o++) {
                    if (!gb->gates_by_operator[o].offered) continue;
                    const GbOperator *op = gb_operator((GbOperatorId)o);
                    const char *code = op->code;
                    /* Name every operator that was offered, also those no pick ever used. */
                    gb_report__note_opname(names, code, op->name);
                    json_t *acc = json_object_get(byop, code);
                    if (!acc) json_object_set_new(byop, code, acc = json_object());
                    gb_report__add_gates(acc, &gb->gates_by_operator[o]);
                }
            } else if (gb->has_gates) {
                /* No per-operator counts for this task: its totals go into one bar. */
                json_t *acc = json_object_get(byop, "*");
                if (!acc) json_object_set_new(byop, "*", acc = json_object());
                gb_report__add_gates(acc, &gb->gates);
                any_fallback = true;
            }
        }
        const char *code;
        json_t *acc;
        json_object_foreach(byop, code, acc)
        {
            bool all = strcmp(code, "*") == 0;
            if (!all) gb_report__note_opname(names, code, NULL);
            for (int g = 0; g < GB_GATE_COUNT; g++) {
                double n = 0;
                if (!gb_report__num(json_object_get(acc, gb_gate_name((GbGate)g)), &n)) continue;
                json_t *row = json_object();
                gb_report__set_str(row, "run", run->label);
                if (all)
                    gb_report__set_str(row, "opname", "(all operators)");
                else
                    json_object_set(row, "opname", json_object_get(names, code));
                json_object_set_new(row, "rank", json_integer(all ? 1000 : gb_report__op_rank(code)));
                gb_report__set_str(row, "gate", gb_gate_name((GbGate)g));
                json_object_set_new(row, "gorder", json_integer((json_int_t)g));
                gb_report__set_num(row, "n", n);
                json_array_append_new(rows, row);
            }
        }
        /* The totals row: the summary's when present, else the sum over the tasks. */
        json_t *sg = gb_report__get(run->summary, "gates", NULL);
        json_t *use = json_is_object(sg) ? sg : any_task_gates ? totals : NULL;
        gb_str_append(&table, "<tr><td>");
        gb_report__esc(&table, run->label);
        gb_str_append(&table, "</td><td>");
        gb_report__fmt(&table, use ? json_object_get(use, "offered") : NULL, "%.0f");
        for (int g = 0; g < GB_GATE_COUNT; g++) {
            gb_str_append(&table, "</td><td>");
            gb_report__fmt(&table, use ? json_object_get(use, gb_gate_name((GbGate)g)) : NULL, "%.0f");
        }
        gb_str_append(&table, "</td><td>");
        gb_report__fmt(&table, use ? json_object_get(use, "accepted") : NULL, "%.0f");
        gb_str_append(&table, "</td></tr>");
        json_decref(byop);
        json_decref(totals);
    }
    gb_str_append(&table, "</tbody></table>\n");
    gb_str_append(out, "<section id=\"gates\"><h2>Gate rejections</h2>\n"
                       "<p>Every offspring passes the gates in cost order: parse (the edit re-parses without "
                       "errors), readability (no R<sub>j</sub> above RT<sub>j</sub>), duplicate (same normalised "
                       "source as an individual already seen), tests (the task's own tests in the sandbox) and lint "
                       "(pylint score not below the original's). The bars count, per operator that made the "
                       "offspring, how many each gate threw away; the table gives the run totals.</p>\n");
    gb_str_append(out, table.data);
    gb_str_destroy(&table);
    if (any_fallback)
        gb_str_append(out, "<p class=\"note\">Some tasks have no \"gates_by_operator\": their counts are shown as "
                           "\"(all operators)\".</p>\n");
    if (json_array_size(rows) == 0) {
        gb_str_append(out, "<p class=\"note\">No gate counts in the input.</p></section>\n");
        json_decref(rows);
        return;
    }
    json_t *spec = gb_report__spec(gb_rep_tmpl_gates, rows);
    /* The colour domain is the gate list, in its order. */
    json_t *domain = json_array();
    for (int g = 0; g < GB_GATE_COUNT; g++) json_array_append_new(domain, json_string(gb_gate_name((GbGate)g)));
    json_object_set_new(gb_report__get(spec, "spec", "encoding", "color", "scale", NULL), "domain", domain);
    /* One chart per run, in input order (not one facet), so that they wrap with the page; the
     * gate legend once, on the first. */
    json_t *charts = json_array();
    for (size_t i = 0; i < r->runs.len; i++) {
        json_t *rrows = json_array();
        size_t ri;
        json_t *row;
        json_array_foreach(rows, ri, row)
        {
            if (strcmp(gb_report__str(json_object_get(row, "run")), r->runs.items[i].label) == 0)
                json_array_append(rrows, row);
        }
        if (json_array_size(rrows) == 0) {
            json_decref(rrows);
            continue;
        }
        json_t *c = json_deep_copy(json_object_get(spec, "spec"));
        json_object_set_new(c, "title", json_pack("{s:s,s:i}", "text", r->runs.items[i].label, "fontSize", 13));
        json_object_set_new(c, "data", json_pack("{s:o}", "values", rrows));
        if (json_array_size(charts) > 0)
            json_object_set_new(gb_report__get(c, "encoding", "color", NULL), "legend", json_null());
        json_array_append_new(charts, c);
    }
    json_decref(spec);
    gb_report__chart_row(out, "chart-gates", charts);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: versions (similarity, NNMR) ---------------------------------------------------- */

static const char gb_rep_tmpl_sim[] =
    "{\"facet\": {\"field\": \"measure\", \"type\": \"nominal\", \"title\": null,"
    "   \"sort\": {\"field\": \"order\", \"op\": \"min\"},"
    "   \"header\": {\"labelFontSize\": 12, \"labelFontWeight\": \"bold\"}},"
    " \"columns\": 7,"
    " \"spec\": {\"width\": {\"step\": 30}, \"height\": 190, \"layer\": ["
    "  {\"mark\": {\"type\": \"boxplot\", \"extent\": \"min-max\", \"size\": 16, \"median\": {\"color\": \"black\"}},"
    "   \"encoding\": {"
    "    \"x\": {\"field\": \"pair\", \"type\": \"nominal\", \"sort\": null, \"title\": null,"
    "           \"axis\": {\"labelAngle\": -40, \"labelLimit\": 140}},"
    "    \"y\": {\"field\": \"v\", \"type\": \"quantitative\", \"title\": null, \"scale\": {\"domain\": [0, 1]}},"
    "    \"color\": {\"field\": \"pair\", \"type\": \"nominal\", \"sort\": null, \"legend\": null}}},"
    "  {\"mark\": {\"type\": \"point\", \"filled\": true, \"size\": 14, \"color\": \"#333333\", \"opacity\": 0.5},"
    "   \"encoding\": {"
    "    \"x\": {\"field\": \"pair\", \"type\": \"nominal\", \"sort\": null},"
    "    \"y\": {\"field\": \"v\", \"type\": \"quantitative\"},"
    "    \"tooltip\": [{\"field\": \"pair\"}, {\"field\": \"task\"}, {\"field\": \"measure\"},"
    "                 {\"field\": \"v\", \"format\": \".4f\", \"title\": \"value\"}]}}]}}";

static const char gb_rep_tmpl_nnmr[] =
    "{\"width\": 520, \"height\": {\"step\": 24}, \"mark\": \"bar\","
    " \"encoding\": {"
    "  \"y\": {\"field\": \"k\", \"type\": \"nominal\", \"sort\": null, \"title\": null},"
    "  \"x\": {\"field\": \"v\", \"type\": \"quantitative\", \"title\": \"NNMR (%)\", \"scale\": {\"domain\": [0, "
    "100]}},"
    "  \"color\": {\"value\": \"#54a24b\"},"
    "  \"tooltip\": [{\"field\": \"k\", \"title\": \"direction\"}, {\"field\": \"v\", \"title\": \"%\", \"format\": "
    "\".2f\"}]}}";

/* Numeric and string leaves of an object as "a.b" paths, in order. */
static void gb_report__leaves(json_t *obj, const char *prefix, json_t *out)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        char *path = prefix ? gb_asprintf("%s.%s", prefix, k) : gb_strdup(k);
        if (json_is_object(v))
            gb_report__leaves(v, path, out);
        else if (json_is_number(v) || json_is_string(v) || json_is_boolean(v))
            json_array_append_new(out, json_pack("[sO]", path, v));
        free(path);
    }
}

static void gb_report__panel_versions(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"versions\"><h2>Versions</h2>\n"
                       "<p>Several seeded versions of one benchmark (<code>genebench versions</code>): for every "
                       "pair of versions, the distribution over tasks of CodeBLEU (with its four parts: n-gram, "
                       "weighted n-gram, syntax and dataflow match), and the cosine and Jaccard similarity of the "
                       "code tokens. Lower means the versions differ more. NNMR is the percentage of programs whose "
                       "nearest neighbour (cosine of embeddings) in the other set is not their own counterpart, per "
                       "direction.</p>\n");
    if (r->versions.len == 0) {
        gb_str_append(out, "<p class=\"note\">No versions directory with a similarity.json among the inputs: pass "
                           "the output directory of <code>genebench versions</code> to compare seeds.</p></section>\n");
        return;
    }
    json_t *rows = json_array(), *nrows = json_array();
    GbStr tables;
    gb_str_init(&tables);
    for (size_t vi = 0; vi < r->versions.len; vi++) {
        GbRepVersions *v = &r->versions.items[vi];
        bool prefix = r->versions.len > 1;
        json_t *pairs = json_object_get(v->sim, "pairs");
        if (prefix) {
            gb_str_append(&tables, "<h3>");
            gb_report__esc(&tables, v->group);
            gb_str_append(&tables, "</h3>");
        }
        gb_str_append(&tables, "<table class=\"facts\"><thead><tr><th>pair</th><th>tasks</th>");
        for (size_t m = 0; m < GB_REP_NMEASURES; m++) gb_str_appendf(&tables, "<th>%s (mean)</th>", gb_rep_measures[m]);
        gb_str_append(&tables, "</tr></thead><tbody>");
        size_t pi;
        json_t *pair;
        json_array_foreach(pairs, pi, pair)
        {
            const char *a = gb_report__str(json_object_get(pair, "a")), *b = gb_report__str(json_object_get(pair, "b"));
            char *label = prefix ? gb_asprintf("%s: %s vs %s", v->group, a ? a : "?", b ? b : "?")
                                 : gb_asprintf("%s vs %s", a ? a : "?", b ? b : "?");
            json_t *per = json_object_get(pair, "per_task");
            double sum[GB_REP_NMEASURES] = {0}, cnt[GB_REP_NMEASURES] = {0};
            size_t ti;
            json_t *t;
            json_array_foreach(per, ti, t)
            {
                for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
                    double x;
                    if (!gb_report__num(json_object_get(t, gb_rep_measures[m]), &x)) continue;
                    sum[m] += x, cnt[m] += 1;
                    json_t *row = json_object();
                    gb_report__set_str(row, "pair", label);
                    gb_report__set_str(row, "measure", gb_rep_measures[m]);
                    json_object_set_new(row, "order", json_integer((json_int_t)m));
                    gb_report__set_str(row, "task", gb_report__str(json_object_get(t, "id")));
                    gb_report__set_num(row, "v", x);
                    json_array_append_new(rows, row);
                }
            }
            gb_str_append(&tables, "<tr><td>");
            gb_report__esc(&tables, label);
            gb_str_appendf(&tables, "</td><td>%zu</td>", json_array_size(per));
            json_t *summary = json_object_get(pair, "summary");
            for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
                gb_str_append(&tables, "<td>");
                /* summary.<measure> is {mean, median, q1, q3, min, max}; older files held the bare mean */
                json_t *sv = json_object_get(summary, gb_rep_measures[m]);
                if (json_is_object(sv)) sv = json_object_get(sv, "mean");
                if (json_is_number(sv))
                    gb_report__fmt(&tables, sv, "%.4f");
                else if (cnt[m] > 0)
                    gb_str_appendf(&tables, "%.4f", sum[m] / cnt[m]);
                else
                    gb_report__fmt(&tables, NULL, "");
                gb_str_append(&tables, "</td>");
            }
            gb_str_append(&tables, "</tr>");
            free(label);
        }
        gb_str_append(&tables, "</tbody></table>\n");
        json_t *nnmr = json_object_get(v->sim, "nnmr");
        if (json_is_object(nnmr)) {
            json_t *leaves = json_array();
            gb_report__leaves(nnmr, NULL, leaves);
            gb_str_append(&tables, "<table class=\"facts\"><thead><tr><th>NNMR</th><th>value</th></tr></thead><tbody>");
            size_t li;
            json_t *leaf;
            json_array_foreach(leaves, li, leaf)
            {
                const char *k = json_string_value(json_array_get(leaf, 0));
                json_t *val = json_array_get(leaf, 1);
                gb_str_append(&tables, "<tr><td>");
                gb_report__esc(&tables, k);
                gb_str_append(&tables, "</td><td>");
                /* top-level "<a>_to_<b>" keys are the NNMR percentages; nested ones are graded measures */
                bool pct = strstr(k, "_to_") && !strchr(k, '.');
                gb_report__fmt(&tables, val, pct ? "%.2f %%" : "%.4g");
                gb_str_append(&tables, "</td></tr>");
                double x;
                if (pct && gb_report__num(val, &x)) {
                    char *label = prefix ? gb_asprintf("%s: %s", v->group, k) : gb_strdup(k);
                    json_t *row = json_object();
                    gb_report__set_str(row, "k", label);
                    gb_report__set_num(row, "v", x);
                    json_array_append_new(nrows, row);
                    free(label);
                }
            }
            gb_str_append(&tables, "</tbody></table>\n");
            json_decref(leaves);
        } else {
            gb_str_append(&tables, "<p class=\"note\">");
            gb_report__esc(&tables, v->path);
            gb_str_append(&tables, " has no \"nnmr\".</p>\n");
        }
    }
    if (json_array_size(rows)) {
        /* One chart per measure (not one facet), so that they wrap with the page. */
        json_t *spec = gb_report__spec(gb_rep_tmpl_sim, rows), *charts = json_array();
        for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
            json_t *mrows = json_array();
            size_t ri;
            json_t *row;
            json_array_foreach(rows, ri, row)
            {
                if (strcmp(gb_report__str(json_object_get(row, "measure")), gb_rep_measures[m]) == 0)
                    json_array_append(mrows, row);
            }
            if (json_array_size(mrows) == 0) {
                json_decref(mrows);
                continue;
            }
            json_t *c = json_deep_copy(json_object_get(spec, "spec"));
            json_object_set_new(
                c, "title", json_pack("{s:s,s:i,s:s}", "text", gb_rep_measures[m], "fontSize", 12, "anchor", "start"));
            json_object_set_new(c, "data", json_pack("{s:o}", "values", mrows));
            json_array_append_new(charts, c);
        }
        json_decref(spec);
        gb_report__chart_row(out, "chart-similarity", charts);
    } else {
        gb_str_append(out, "<p class=\"note\">similarity.json has no per-task values.</p>\n");
        json_decref(rows);
    }
    if (json_array_size(nrows))
        gb_report__chart(out, "chart-nnmr", gb_report__spec(gb_rep_tmpl_nnmr, nrows));
    else
        json_decref(nrows);
    gb_str_append(out, tables.data);
    gb_str_destroy(&tables);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: eval runs (pass@k before/after, the drop, outcome changes) --------------------- */

static const char gb_rep_tmpl_passk[] =
    "{\"height\": 200, \"encoding\": {"
    "  \"x\": {\"field\": \"version\", \"type\": \"nominal\", \"sort\": null, \"title\": null,"
    "         \"axis\": {\"labelAngle\": -30, \"labelLimit\": 150}},"
    "  \"xOffset\": {\"field\": \"k\", \"type\": \"nominal\", \"sort\": null},"
    "  \"y\": {\"field\": \"v\", \"type\": \"quantitative\", \"title\": \"pass@k\", \"scale\": {\"domain\": [0, 1]},"
    "         \"axis\": {\"format\": \"%\"}},"
    "  \"color\": {\"field\": \"k\", \"type\": \"nominal\", \"sort\": null, \"title\": null,"
    "             \"scale\": {\"scheme\": \"tableau10\"}},"
    "  \"tooltip\": [{\"field\": \"version\"}, {\"field\": \"file\"}, {\"field\": \"k\"},"
    "               {\"field\": \"v\", \"format\": \".1%\", \"title\": \"value\"},"
    "               {\"field\": \"items\", \"title\": \"items scored\"}]},"
    " \"layer\": [{\"mark\": {\"type\": \"bar\"}},"
    "   {\"mark\": {\"type\": \"text\", \"dy\": -6, \"fontSize\": 10},"
    "    \"encoding\": {\"text\": {\"field\": \"v\", \"format\": \".0%\"}, \"color\": {\"value\": \"#333\"}}}]}";

static const char gb_rep_tmpl_drop[] =
    "{\"width\": 480, \"height\": {\"step\": 30},"
    " \"layer\": ["
    "  {\"mark\": {\"type\": \"rule\", \"strokeWidth\": 2, \"color\": \"#555555\"},"
    "   \"encoding\": {\"y\": {\"field\": \"series\", \"type\": \"nominal\", \"sort\": null, \"title\": null,"
    "                        \"axis\": {\"labelLimit\": 280}},"
    "                 \"x\": {\"field\": \"lo\", \"type\": \"quantitative\", \"axis\": {\"format\": \"%\"},"
    "                        \"title\": \"relative drop of pass@1, with its 95% bootstrap interval\"},"
    "                 \"x2\": {\"field\": \"hi\"}}},"
    "  {\"mark\": {\"type\": \"point\", \"filled\": true, \"size\": 90, \"color\": \"#e45756\", \"opacity\": 1},"
    "   \"encoding\": {\"y\": {\"field\": \"series\", \"type\": \"nominal\", \"sort\": null},"
    "                 \"x\": {\"field\": \"drop\", \"type\": \"quantitative\"},"
    "                 \"tooltip\": [{\"field\": \"series\"}, {\"field\": \"drop\", \"format\": \".1%\", \"title\": "
    "\"drop\"},"
    "                              {\"field\": \"lo\", \"format\": \".1%\", \"title\": \"95% low\"},"
    "                              {\"field\": \"hi\", \"format\": \".1%\", \"title\": \"95% high\"},"
    "                              {\"field\": \"p1o\", \"format\": \".1%\", \"title\": \"pass@1 original\"},"
    "                              {\"field\": \"p1v\", \"format\": \".1%\", \"title\": \"pass@1 version\"},"
    "                              {\"field\": \"items\", \"title\": \"paired items\"}]}},"
    "  {\"data\": {\"values\": [{\"zero\": 0}]}, \"mark\": {\"type\": \"rule\", \"strokeDash\": [4, 4], \"color\": "
    "\"#999999\"},"
    "   \"encoding\": {\"x\": {\"field\": \"zero\", \"type\": \"quantitative\"}}}]}";

static const char gb_rep_tmpl_outcomes[] =
    "{\"width\": 480, \"height\": {\"step\": 30}, \"mark\": {\"type\": \"bar\"},"
    " \"encoding\": {"
    "  \"y\": {\"field\": \"series\", \"type\": \"nominal\", \"sort\": null, \"title\": null, \"axis\": "
    "{\"labelLimit\": "
    "280}},"
    "  \"x\": {\"field\": \"n\", \"type\": \"quantitative\", \"stack\": \"zero\", \"title\": \"paired items\"},"
    "  \"color\": {\"field\": \"outcome\", \"type\": \"nominal\", \"title\": null, \"legend\": {\"orient\": \"top\"},"
    "             \"scale\": {\"domain\": [\"lost\", \"gained\", \"both pass\", \"both fail\"],"
    "                        \"range\": [\"#e45756\", \"#54a24b\", \"#4c78a8\", \"#bab0ac\"]}},"
    "  \"order\": {\"field\": \"order\", \"type\": \"quantitative\"},"
    "  \"tooltip\": [{\"field\": \"series\"}, {\"field\": \"outcome\"}, {\"field\": \"n\", \"title\": \"items\"}]}}";

/* At most this many changed items are listed (the counts above always cover all). */
#define GB_REP_MAX_CHANGED 2000

/* The labels of the evals: the task type, with the model when the evals name several models,
 * numbered when still equal. Owned by the evals. */
static void gb_report__eval_labels(GbReport *r)
{
    bool models_differ = false;
    const char *m0 = r->evals.len ? gb_report__str(json_object_get(r->evals.items[0].summary, "model")) : NULL;
    for (size_t i = 1; i < r->evals.len; i++) {
        const char *m = gb_report__str(json_object_get(r->evals.items[i].summary, "model"));
        if (!m0 != !m || (m && strcmp(m, m0) != 0)) models_differ = true;
    }
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        const char *task = gb_report__str(json_object_get(e->summary, "task"));
        const char *model = gb_report__str(json_object_get(e->summary, "model"));
        free(e->label);
        e->label = models_differ ? gb_asprintf("%s · %s", task ? task : "eval", model ? model : "?")
                                 : gb_strdup(task ? task : "eval");
    }
    for (size_t i = 0; i < r->evals.len; i++) {
        size_t n = 1;
        for (size_t j = i + 1; j < r->evals.len; j++)
            if (strcmp(r->evals.items[j].label, r->evals.items[i].label) == 0) {
                char *l = gb_asprintf("%s #%zu", r->evals.items[j].label, ++n);
                free(r->evals.items[j].label);
                r->evals.items[j].label = l;
            }
    }
}

/* A version's label: "original" for 0, else its file name without .jsonl (with "vN" when two
 * versions of the eval share it). Owned. */
static char *gb_report__version_label(json_t *summary, json_int_t version)
{
    if (version == 0) return gb_strdup("original");
    json_t *vs = json_object_get(summary, "versions");
    const char *file = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(vs, i, v)
    {
        if (json_integer_value(json_object_get(v, "version")) == version)
            file = gb_report__str(json_object_get(v, "file"));
    }
    if (!file) return gb_asprintf("v%lld", (long long)version);
    char *stem = gb_report__basename(file);
    if (gb_report__ends_with(stem, ".jsonl")) stem[strlen(stem) - 6] = '\0';
    bool dup = strcmp(stem, "original") == 0;
    json_array_foreach(vs, i, v)
    {
        const char *f = gb_report__str(json_object_get(v, "file"));
        json_int_t n = json_integer_value(json_object_get(v, "version"));
        if (n == version || !f) continue;
        char *s2 = gb_report__basename(f);
        if (gb_report__ends_with(s2, ".jsonl")) s2[strlen(s2) - 6] = '\0';
        if (strcmp(s2, stem) == 0) dup = true;
        free(s2);
    }
    if (!dup) return stem;
    char *l = gb_asprintf("v%lld %s", (long long)version, stem);
    free(stem);
    return l;
}

static void gb_report__pct(GbStr *out, json_t *v)
{
    double d;
    if (gb_report__num(v, &d))
        gb_str_appendf(out, "%.1f%%", 100 * d);
    else
        gb_str_append(out, "<span class=\"na\">–</span>");
}

static void gb_report__eval_facts(GbStr *out, GbReport *r)
{
    static const char *const keys[] = {"model",           "task",
                                       "samples",         "temperature",
                                       "top_p",           "k",
                                       "items",           "tasks_without_items",
                                       "samples_planned", "samples_scored",
                                       "samples_cached",  "complete",
                                       "stopped_by"};
    gb_str_append(out, "<div class=\"scroll\"><table class=\"facts runfacts\"><thead><tr><th></th>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<th>");
        gb_report__esc(out, r->evals.items[i].label);
        gb_str_append(out, "</th>");
    }
    gb_str_append(out, "</tr></thead><tbody>\n<tr><td>summary</td>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<td>");
        gb_report__esc(out, r->evals.items[i].summary_path);
        gb_str_append(out, "</td>");
    }
    gb_str_append(out, "</tr>\n<tr><td>results</td>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<td>");
        if (r->evals.items[i].results_path)
            gb_report__esc(out, r->evals.items[i].results_path);
        else
            gb_str_append(out, "<span class=\"na\">not given</span>");
        gb_str_append(out, "</td>");
    }
    gb_str_append(out, "</tr>\n");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        gb_str_appendf(out, "<tr><td>%s</td>", keys[k]);
        for (size_t i = 0; i < r->evals.len; i++) {
            json_t *v = json_object_get(r->evals.items[i].summary, keys[k]);
            gb_str_append(out, "<td>");
            if (json_is_array(v)) {
                size_t ai;
                json_t *x;
                json_array_foreach(v, ai, x)
                    gb_str_appendf(out, "%s%lld", ai ? ", " : "", (long long)json_integer_value(x));
            } else if (json_is_null(v) && strcmp(keys[k], "stopped_by") == 0) {
                gb_str_append(out, "not stopped");
            } else {
                gb_report__fmt(out, v, "%g");
            }
            gb_str_append(out, "</td>");
        }
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n");
}

static void gb_report__panel_eval(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"eval\"><h2>Model evaluation</h2>\n"
                       "<p>Runs of <code>genebench eval</code>: a model predicted outputs or inputs (or repaired or "
                       "translated programs) on the original benchmark and on each hardened version, every answer "
                       "scored by execution in the sandbox. pass@k per task type and version; the relative drop "
                       "(pass@1 original − pass@1 version) / pass@1 original with its percentile bootstrap 95% "
                       "interval over items; and per item whether the model still solves it (an item counts as "
                       "solved when at least half of its samples pass): <b>lost</b> (solved on the original only), "
                       "<b>gained</b>, <b>both pass</b>, <b>both fail</b>.</p>\n");
    gb_report__eval_labels(r);
    gb_report__eval_facts(out, r);

    /* pass@k: one chart per eval, so that they wrap with the page */
    json_t *charts = json_array();
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        json_t *rows = json_array();
        size_t vi, nv = 0, nk = 0;
        json_t *v;
        json_array_foreach(json_object_get(e->summary, "versions"), vi, v)
        {
            char *vl = gb_report__version_label(e->summary, json_integer_value(json_object_get(v, "version")));
            json_t *pk = json_object_get(v, "pass_at");
            const char *k;
            json_t *p;
            size_t kk = 0;
            json_object_foreach(pk, k, p)
            {
                double x;
                if (!gb_report__num(p, &x)) continue;
                json_t *row = json_object();
                gb_report__set_str(row, "version", vl);
                gb_report__set_str(row, "file", gb_report__str(json_object_get(v, "file")));
                char *kl = gb_asprintf("pass@%s", k);
                gb_report__set_str(row, "k", kl);
                free(kl);
                gb_report__set_num(row, "v", x);
                json_object_set(row, "items", json_object_get(v, "items_scored"));
                json_array_append_new(rows, row);
                kk++;
            }
            if (kk > nk) nk = kk;
            nv++;
            free(vl);
        }
        if (json_array_size(rows) == 0) {
            json_decref(rows);
            continue;
        }
        json_t *c = gb_report__layer(gb_rep_tmpl_passk, rows);
        json_object_set_new(c, "width",
                            json_integer((json_int_t)(nv * (nk * 34 + 24) < 200 ? 200 : nv * (nk * 34 + 24))));
        json_object_set_new(c, "title",
                            json_pack("{s:s,s:i,s:s}", "text", e->label, "fontSize", 12, "anchor", "start"));
        json_array_append_new(charts, c);
    }
    if (json_array_size(charts))
        gb_report__chart_row(out, "chart-eval-passk", charts);
    else {
        gb_str_append(out, "<p class=\"note\">The summaries hold no pass@k value.</p>\n");
        json_decref(charts);
    }

    /* the drop and the outcome counts, one row per (eval, hardened version) */
    json_t *drows = json_array(), *orows = json_array();
    GbStr tab;
    gb_str_init(&tab);
    gb_str_append(&tab, "<div class=\"scroll\"><table class=\"facts\"><thead><tr><th>task type</th><th>version</th>"
                        "<th>paired items</th><th>pass@1 original</th><th>pass@1 version</th><th>relative drop</th>"
                        "<th>95% interval</th><th>lost</th><th>gained</th><th>both pass</th><th>both fail</th>"
                        "</tr></thead><tbody>\n");
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        size_t ci;
        json_t *c;
        json_array_foreach(json_object_get(e->summary, "comparisons"), ci, c)
        {
            char *vl = gb_report__version_label(e->summary, json_integer_value(json_object_get(c, "version")));
            char *series = gb_asprintf("%s: %s", e->label, vl);
            json_t *ci95 = json_object_get(c, "drop_ci95");
            double d, lo, hi, x;
            if (gb_report__num(json_object_get(c, "relative_drop"), &d)) {
                json_t *row = json_object();
                gb_report__set_str(row, "series", series);
                gb_report__set_num(row, "drop", d);
                if (gb_report__num(json_array_get(ci95, 0), &lo) && gb_report__num(json_array_get(ci95, 1), &hi)) {
                    gb_report__set_num(row, "lo", lo);
                    gb_report__set_num(row, "hi", hi);
                }
                if (gb_report__num(json_object_get(c, "pass1_original"), &x)) gb_report__set_num(row, "p1o", x);
                if (gb_report__num(json_object_get(c, "pass1_version"), &x)) gb_report__set_num(row, "p1v", x);
                json_object_set(row, "items", json_object_get(c, "items"));
                json_array_append_new(drows, row);
            }
            static const char *const okeys[4] = {"lost", "gained", "both_pass", "both_fail"};
            static const char *const onames[4] = {"lost", "gained", "both pass", "both fail"};
            for (int k = 0; k < 4; k++) {
                json_t *n = json_object_get(c, okeys[k]);
                if (!json_is_integer(n)) continue;
                json_t *row = json_object();
                gb_report__set_str(row, "series", series);
                gb_report__set_str(row, "outcome", onames[k]);
                json_object_set_new(row, "order", json_integer(k));
                json_object_set(row, "n", n);
                json_array_append_new(orows, row);
            }
            gb_str_append(&tab, "<tr><td>");
            gb_report__esc(&tab, e->label);
            gb_str_append(&tab, "</td><td>");
            gb_report__esc(&tab, vl);
            gb_str_append(&tab, "</td><td>");
            gb_report__fmt(&tab, json_object_get(c, "items"), "%g");
            gb_str_append(&tab, "</td><td>");
            gb_report__pct(&tab, json_object_get(c, "pass1_original"));
            gb_str_append(&tab, "</td><td>");
            gb_report__pct(&tab, json_object_get(c, "pass1_version"));
            gb_str_append(&tab, "</td><td>");
            gb_report__pct(&tab, json_object_get(c, "relative_drop"));
            gb_str_append(&tab, "</td><td>");
            if (gb_report__num(json_array_get(ci95, 0), &lo) && gb_report__num(json_array_get(ci95, 1), &hi))
                gb_str_appendf(&tab, "[%.1f%%, %.1f%%]", 100 * lo, 100 * hi);
            else
                gb_str_append(&tab, "<span class=\"na\">undefined</span>");
            for (int k = 0; k < 4; k++) {
                gb_str_append(&tab, "</td><td>");
                gb_report__fmt(&tab, json_object_get(c, okeys[k]), "%g");
            }
            gb_str_append(&tab, "</td></tr>\n");
            free(series);
            free(vl);
        }
    }
    gb_str_append(&tab, "</tbody></table></div>\n");
    if (json_array_size(drows)) {
        gb_str_append(out, "<h3>Relative drop</h3>\n");
        gb_report__chart(out, "chart-eval-drop", gb_report__spec(gb_rep_tmpl_drop, drows));
    } else {
        gb_str_append(out, "<p class=\"note\">No comparison with a defined drop (no hardened version, or pass@1 of "
                           "the original is 0).</p>\n");
        json_decref(drows);
    }
    if (json_array_size(orows)) {
        gb_str_append(out, "<h3>Per-item outcome, original against each version</h3>\n");
        gb_report__chart(out, "chart-eval-outcomes", gb_report__spec(gb_rep_tmpl_outcomes, orows));
    } else {
        json_decref(orows);
    }
    gb_str_append(out, tab.data);
    gb_str_destroy(&tab);

    /* the items that changed, from the per-sample results */
    gb_str_append(out, "<h3>Items that changed</h3>\n");
    bool any_results = false;
    size_t listed = 0, changed = 0;
    GbStr rows;
    gb_str_init(&rows);
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        if (!e->items) continue;
        any_results = true;
        size_t ci;
        json_t *c;
        json_array_foreach(json_object_get(e->summary, "comparisons"), ci, c)
        {
            json_int_t ver = json_integer_value(json_object_get(c, "version"));
            char *vl = gb_report__version_label(e->summary, ver);
            size_t oi;
            json_t *id;
            json_array_foreach(e->order, oi, id)
            {
                json_t *it = json_object_get(e->items, json_string_value(id));
                json_int_t a, b, x, y;
                int so = gb_report__solved(it, 0, &a, &b), sv = gb_report__solved(it, ver, &x, &y);
                if (so < 0 || sv < 0 || so == sv) continue;
                changed++;
                if (listed >= GB_REP_MAX_CHANGED) continue;
                listed++;
                gb_str_append(&rows, "<tr><td>");
                gb_report__esc(&rows, e->label);
                gb_str_append(&rows, "</td><td>");
                gb_report__esc(&rows, vl);
                gb_str_append(&rows, "</td><td>");
                gb_report__esc(&rows, json_string_value(id));
                gb_str_appendf(&rows, "</td><td data-v=\"%g\">%lld / %lld</td><td data-v=\"%g\">%lld / %lld</td>",
                               (double)a / (double)b, (long long)a, (long long)b, (double)x / (double)y, (long long)x,
                               (long long)y);
                gb_str_appendf(&rows, "<td class=\"%s\">%s</td></tr>\n", so ? "bad" : "good", so ? "lost" : "gained");
            }
            free(vl);
        }
    }
    if (!any_results) {
        gb_str_append(out, "<p class=\"note\">No per-sample results given: pass <code>--eval "
                           "SUMMARY.json,RESULTS.jsonl</code> (the <code>-o</code> file of <code>genebench "
                           "eval</code>) to list the items whose outcome changed.</p>\n");
    } else if (changed == 0) {
        gb_str_append(out, "<p>No item changed outcome: every paired item is solved on both or on neither.</p>\n");
    } else {
        gb_str_appendf(out, "<p>%zu item(s) changed outcome", changed);
        if (listed < changed) gb_str_appendf(out, "; the first %zu are listed", listed);
        gb_str_append(out, " (an item is a task id, with #k for the k-th assert of a task with several; original and "
                           "version: samples that passed / samples scored; click a heading to sort).</p>\n");
        gb_str_append(out, "<div class=\"scroll\"><table class=\"tasks sortable\" id=\"eval-changed\"><thead><tr>"
                           "<th>task type</th><th>version</th><th>item</th>"
                           "<th data-type=\"num\">original</th>"
                           "<th data-type=\"num\">version</th><th>change</th></tr></thead><tbody>\n");
        gb_str_append(out, rows.data);
        gb_str_append(out, "</tbody></table></div>\n");
    }
    gb_str_destroy(&rows);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: tasks table and diffs ---------------------------------------------------------- */

static void gb_report__cell_num(GbStr *out, bool ok, double v, const char *fmt)
{
    if (!ok) {
        gb_str_append(out, "<td data-v=\"\"><span class=\"na\">–</span></td>");
        return;
    }
    gb_str_appendf(out, "<td data-v=\"%.17g\">", v);
    gb_str_appendf(out, fmt, v);
    gb_str_append(out, "</td>");
}

typedef GbArray(GbFile) GbRepFiles;

/* The source of the file at path, or NULL (borrowed). */
static const char *gb_report__file(const void *files, const char *path)
{
    const GbRepFiles *fs = files;
    for (size_t i = 0; i < fs->len; i++)
        if (strcmp(fs->items[i].path, path) == 0) return fs->items[i].source;
    return NULL;
}

static void gb_report__file_diff(GbStr *out, const char *path, const char *orig, const char *hard)
{
    gb_str_append(out, "<p class=\"file\">");
    gb_report__esc(out, path);
    gb_str_append(out, "</p>");
    gb_diff_render_html(out, orig, hard);
}

/* The diff of one task: main module and every extra file, original on the left. */
static void gb_report__diff(GbStr *out, const GbRepTask *task, size_t n, const char *label)
{
    const GbRecord *gb = &task->rec;
    const char *hard = task->task.source;
    const char *orig = gb->original_source;
    gb_str_appendf(out, "<details class=\"diff-task\" id=\"diff-%zu\"><summary>", n);
    gb_report__esc(out, label);
    gb_str_append(out, " · ");
    gb_report__esc(out, gb_report__task_id(task));
    gb_str_append(out, " <span class=\"status\">");
    gb_report__esc(out, gb->has_status ? gb_evolve_status_name(gb->status) : NULL);
    gb_str_append(out, "</span></summary>\n");
    const char *error = gb->error;
    if (error) {
        gb_str_append(out, "<p class=\"note\">");
        gb_report__esc(out, error);
        gb_str_append(out, "</p>");
    }
    if (!orig) {
        gb_str_append(out, "<p class=\"note\">No \"original\" program in the input: nothing to compare.</p>");
    } else {
        if (hard && strcmp(orig, hard) == 0) gb_str_append(out, "<p class=\"note\">The program is unchanged.</p>");
        gb_str_append(out, "<div class=\"diffhead\"><span>original</span><span>hardened</span></div>");
        gb_diff_render_html(out, orig, hard);
    }
    /* Extra files (helper modules) of either side, by path. */
    for (size_t i = 0; i < gb->original_extra_files.len; i++) {
        const GbFile *f = &gb->original_extra_files.items[i];
        gb_report__file_diff(out, f->path, f->source, gb_report__file(&task->task.extra_files, f->path));
    }
    for (size_t i = 0; i < task->task.extra_files.len; i++) {
        const GbFile *f = &task->task.extra_files.items[i];
        if (!gb_report__file(&gb->original_extra_files, f->path)) gb_report__file_diff(out, f->path, NULL, f->source);
    }
    gb_str_append(out, "<p><a href=\"#tasks\">back to the table</a></p></details>\n");
}

static void gb_report__panel_tasks(GbStr *out, GbReport *r)
{
    GbStr diffs;
    gb_str_init(&diffs);
    gb_str_append(out, "<section id=\"tasks\"><h2>Tasks</h2>\n"
                       "<p>One row per task and run; click a column header to sort, and <em>diff</em> to open the "
                       "side-by-side diff of the original and hardened program (below the table).</p>\n"
                       "<table class=\"sortable tasks\"><thead><tr>"
                       "<th data-type=\"num\">#</th><th>run</th><th>task</th><th>status</th>"
                       "<th data-type=\"num\">RC before</th><th data-type=\"num\">RC after</th>"
                       "<th data-type=\"num\">ΔRC</th><th data-type=\"num\">RR before</th>"
                       "<th data-type=\"num\">RR after</th><th data-type=\"num\">gen.</th>"
                       "<th>operators</th><th data-type=\"num\">lint</th><th data-type=\"num\">time (s)</th>"
                       "<th>diff</th></tr></thead><tbody>\n");
    size_t n = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        for (size_t ti = 0; ti < run->tasks.len; ti++) {
            const GbRepTask *task = &run->tasks.items[ti];
            n++;
            const GbRecord *gb = &task->rec;
            double brc = 0, arc = 0, brr = 0, arr = 0, gen = 0, lint = 0, time = 0;
            bool hb = gb_report__finite(gb->before.rc, &brc);
            bool ha = gb_report__finite(gb->after.rc, &arc);
            bool hbr = gb_report__finite(gb->before.rr, &brr);
            bool har = gb_report__finite(gb->after.rr, &arr);
            bool hg = gb->generations >= 0 && gb_report__finite((double)gb->generations, &gen);
            bool hl = gb->has_lint && gb_report__finite(gb->lint_after, &lint);
            bool ht = gb->has_time && gb_report__finite(gb->time_s, &time);
            const char *status = gb->has_status ? gb_evolve_status_name(gb->status) : NULL;
            gb_str_appendf(out, "<tr><td data-v=\"%zu\">%zu</td><td>", n, n);
            gb_report__esc(out, run->label);
            gb_str_append(out, "</td><td>");
            gb_report__esc(out, gb_report__task_id(task));
            gb_str_appendf(out, "</td><td class=\"st-%s\">", status ? status : "unknown");
            gb_report__esc(out, status ? status : "?");
            gb_str_append(out, "</td>");
            gb_report__cell_num(out, hb, brc, "%.4f");
            gb_report__cell_num(out, ha, arc, "%.4f");
            gb_report__cell_num(out, hb && ha, arc - brc, "%+.4f");
            gb_report__cell_num(out, hbr, brr, "%.4f");
            gb_report__cell_num(out, har, arr, "%.4f");
            gb_report__cell_num(out, hg, gen, "%.0f");
            char *ops = gb_report__op_list(gb, NULL);
            gb_str_append(out, "<td class=\"ops\">");
            gb_report__esc(out, ops);
            gb_str_append(out, "</td>");
            free(ops);
            gb_report__cell_num(out, hl, lint, "%.2f");
            gb_report__cell_num(out, ht, time, "%.2f");
            gb_str_appendf(out, "<td><a class=\"difflink\" href=\"#diff-%zu\">diff</a></td></tr>\n", n);
            gb_report__diff(&diffs, task, n, run->label);
        }
    }
    gb_str_append(out, "</tbody></table>\n</section>\n<section id=\"diffs\"><h2>Diffs</h2>\n"
                       "<p>Original (left) and hardened (right), line by line; changed lines are paired, "
                       "removed lines are red, added lines green.</p>\n");
    gb_str_append(out, diffs.data);
    gb_str_destroy(&diffs);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: run facts ---------------------------------------------------------------------- */

typedef struct {
    size_t tasks, hardened, unchanged, failed;
    double time_s, offspring;
    bool has_time, has_offspring;
    double rc_b, rr_b, rc_a, rr_a;
    size_t n_b, n_a;
    double max_gen;
    bool has_seed; /* the first task's seed */
    uint64_t seed;
} GbRepStats;

static void gb_report__stats(const GbRepRun *run, GbRepStats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t ti = 0; ti < run->tasks.len; ti++) {
        const GbRecord *gb = &run->tasks.items[ti].rec;
        s->tasks++;
        if (gb->has_status && gb->status == GB_EVOLVED_HARDENED)
            s->hardened++;
        else if (gb->has_status && gb->status == GB_EVOLVED_UNCHANGED)
            s->unchanged++;
        else
            s->failed++;
        double x, y;
        if (gb->has_time && gb_report__finite(gb->time_s, &x)) s->time_s += x, s->has_time = true;
        if (gb->offspring_validated >= 0) s->offspring += (double)gb->offspring_validated, s->has_offspring = true;
        if (gb->generations >= 0 && (double)gb->generations > s->max_gen) s->max_gen = (double)gb->generations;
        if (gb_report__finite(gb->before.rc, &x) && gb_report__finite(gb->before.rr, &y))
            s->rc_b += x, s->rr_b += y, s->n_b++;
        if (gb_report__finite(gb->after.rc, &x) && gb_report__finite(gb->after.rr, &y))
            s->rc_a += x, s->rr_a += y, s->n_a++;
        if (!s->has_seed && gb->has_seed) s->seed = gb->seed, s->has_seed = true;
    }
}

static void gb_report__panel_facts(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"facts\"><h2>Run facts</h2>\n"
                       "<p>What each run was: from its summary (<code>OUT.summary.json</code>) where present, "
                       "otherwise gathered from the tasks (marked †).</p>\n<div class=\"scroll\"><table class=\"facts "
                       "runfacts\"><thead><tr><th></th>");
    for (size_t i = 0; i < r->runs.len; i++) {
        gb_str_append(out, "<th>");
        gb_report__esc(out, r->runs.items[i].label);
        gb_str_append(out, "</th>");
    }
    gb_str_append(out, "</tr></thead><tbody>\n");
    enum {
        F_FILE,
        F_SUMMARY,
        F_TOOL,
        F_SEED,
        F_TASKS,
        F_THRESH,
        F_BUDGET,
        F_BREED,
        F_LINT,
        F_TIME,
        F_OFFSPRING,
        F_RATE,
        F_RC,
        F_RR,
        F_PYTHON,
        F_COUNT
    };
    static const char *const names[F_COUNT] = {"file",
                                               "summary",
                                               "tool",
                                               "seed",
                                               "tasks (hardened / unchanged / failed)",
                                               "thresholds",
                                               "budget",
                                               "breeding fraction",
                                               "lint gate",
                                               "time (s)",
                                               "offspring validated",
                                               "offspring / s",
                                               "mean RC before → after",
                                               "mean RR before → after",
                                               "Python"};
    for (int f = 0; f < F_COUNT; f++) {
        gb_str_appendf(out, "<tr><th>%s</th>", names[f]);
        for (size_t i = 0; i < r->runs.len; i++) {
            GbRepRun *run = &r->runs.items[i];
            json_t *s = run->summary;
            GbRepStats st;
            gb_report__stats(run, &st);
            double x;
            gb_str_append(out, "<td>");
            switch (f) {
            case F_FILE:
                gb_report__esc(out, run->path);
                break;
            case F_SUMMARY:
                if (run->summary_path)
                    gb_report__esc(out, run->summary_path);
                else
                    gb_str_append(out, "<span class=\"na\">none</span>");
                break;
            case F_TOOL: {
                const char *tool = gb_report__str(json_object_get(s, "tool"));
                const char *ver = gb_report__str(json_object_get(s, "version"));
                if (!tool && !ver) gb_str_append(out, "<span class=\"na\">–</span>");
                gb_report__esc(out, tool);
                if (ver) gb_str_append(out, " "), gb_report__esc(out, ver);
                break;
            }
            case F_SEED:
                if (json_object_get(s, "seed"))
                    gb_report__fmt(out, json_object_get(s, "seed"), "%.0f");
                else if (st.has_seed)
                    gb_str_appendf(out, "%.0f†", (double)st.seed);
                else
                    gb_str_append(out, "<span class=\"na\">–</span>");
                break;
            case F_TASKS:
                gb_str_appendf(out, "%zu (%zu / %zu / %zu)", st.tasks, st.hardened, st.unchanged, st.failed);
                break;
            case F_THRESH:
                if (run->thresholds == SIZE_MAX)
                    gb_str_append(out, "<span class=\"na\">not named</span>");
                else {
                    const GbRepThresholds *t = &r->thresholds.items[run->thresholds];
                    gb_report__esc(out, t->name);
                    if (t->path && strcmp(t->path, t->name) != 0)
                        gb_str_append(out, "<br><small>"), gb_report__esc(out, t->path), gb_str_append(out, "</small>");
                    if (!t->loaded) gb_str_append(out, " <span class=\"bad\">(not read)</span>");
                }
                break;
            case F_BUDGET: {
                json_t *g = json_object_get(s, "generations"), *tb = json_object_get(s, "time_budget");
                bool any = false;
                if (gb_report__num(g, &x)) gb_str_appendf(out, "%.0f generations", x), any = true;
                if (gb_report__num(tb, &x)) {
                    /* 0 (or less) is how evolve records "no time budget" */
                    if (x > 0)
                        gb_str_appendf(out, "%s%g s per task", any ? ", " : "", x);
                    else
                        gb_str_appendf(out, "%stime budget: none", any ? ", " : "");
                    any = true;
                }
                if (!any && st.max_gen > 0) gb_str_appendf(out, "≥ %.0f generations†", st.max_gen), any = true;
                if (!any) gb_str_append(out, "<span class=\"na\">–</span>");
                break;
            }
            case F_BREED:
                gb_report__fmt(out, json_object_get(s, "breed"), "%g");
                break;
            case F_LINT:
                gb_report__fmt(out, json_object_get(s, "lint"), "%g");
                break;
            case F_TIME:
                if (json_object_get(s, "time_s"))
                    gb_report__fmt(out, json_object_get(s, "time_s"), "%.2f");
                else if (st.has_time)
                    gb_str_appendf(out, "%.2f†", st.time_s);
                else
                    gb_report__fmt(out, NULL, "");
                break;
            case F_OFFSPRING:
                if (json_object_get(s, "offspring_validated"))
                    gb_report__fmt(out, json_object_get(s, "offspring_validated"), "%.0f");
                else if (st.has_offspring)
                    gb_str_appendf(out, "%.0f†", st.offspring);
                else
                    gb_report__fmt(out, NULL, "");
                break;
            case F_RATE:
                if (json_object_get(s, "offspring_per_s"))
                    gb_report__fmt(out, json_object_get(s, "offspring_per_s"), "%.2f");
                else if (st.has_offspring && st.has_time && st.time_s > 0)
                    gb_str_appendf(out, "%.2f†", st.offspring / st.time_s);
                else
                    gb_report__fmt(out, NULL, "");
                break;
            case F_RC:
            case F_RR: {
                json_t *b = json_object_get(s, f == F_RC ? "rc_before_mean" : "rr_before_mean");
                json_t *a = json_object_get(s, f == F_RC ? "rc_after_mean" : "rr_after_mean");
                double sb = f == F_RC ? st.rc_b : st.rr_b, sa = f == F_RC ? st.rc_a : st.rr_a;
                if (b || a) {
                    gb_report__fmt(out, b, "%.4f");
                    gb_str_append(out, " → ");
                    gb_report__fmt(out, a, "%.4f");
                } else if (st.n_b || st.n_a) {
                    if (st.n_b) gb_str_appendf(out, "%.4f", sb / (double)st.n_b);
                    gb_str_append(out, " → ");
                    if (st.n_a) gb_str_appendf(out, "%.4f", sa / (double)st.n_a);
                    gb_str_append(out, "†");
                } else
                    gb_report__fmt(out, NULL, "");
                break;
            }
            case F_PYTHON: {
                json_t *py = json_object_get(s, "python");
                if (!json_is_object(py)) {
                    gb_report__fmt(out, py, "%g");
                    break;
                }
                const char *k;
                json_t *v;
                json_object_foreach(py, k, v)
                {
                    gb_report__esc(out, k);
                    gb_str_append(out, " ");
                    gb_report__fmt(out, v, "%g");
                    gb_str_append(out, "<br>");
                }
                break;
            }
            default:
                break;
            }
            gb_str_append(out, "</td>");
        }
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n</section>\n");
}

/* ---- the page ------------------------------------------------------------------------------ */

static const char gb_rep_css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#222;background:#fafafa}"
    "header{background:#263238;color:#eceff1;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}"
    "header p{margin:2px 0;color:#b0bec5}nav{margin-top:8px}nav a{color:#80cbc4;margin-right:14px}"
    "main{padding:8px 28px 40px}section{background:#fff;border:1px solid #e0e0e0;border-radius:6px;"
    "padding:6px 18px 16px;margin:16px 0}h2{font-size:18px;margin:12px 0 6px}h3{font-size:15px;margin:12px 0 4px}"
    ".note{color:#8a6d3b;background:#fcf8e3;padding:6px 10px;border-radius:4px}.na{color:#aaa}.bad{color:#c62828}"
    "ul.warnings{color:#8a6d3b;font-size:13px}.scroll{overflow-x:auto}table.runfacts "
    "td{word-break:break-word;min-width:9em}.chart{margin:6px 0 12px;overflow-x:auto}"
    ".chartrow{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:flex-start;max-width:100%}"
    ".chartrow .chart{margin:6px 0;max-width:100%}"
    "table{border-collapse:collapse}table.facts td,table.facts th,table.tasks td,table.tasks th{border:1px solid "
    "#e0e0e0;"
    "padding:3px 8px;text-align:left;vertical-align:top}table.facts{margin:8px 0}"
    "table.tasks th{background:#eceff1;cursor:pointer;user-select:none;white-space:nowrap}"
    "table.tasks th.asc::after{content:' \\25B2'}table.tasks th.desc::after{content:' \\25BC'}"
    "table.tasks "
    "td[data-v]{text-align:right;font-variant-numeric:tabular-nums}td.ops{font-family:monospace;font-size:12px}"
    ".st-hardened{color:#2e7d32}.st-unchanged{color:#757575}.st-original_fails,.st-error{color:#c62828}"
    "details.diff-task{border-top:1px solid #eee;padding:4px 0}details.diff-task "
    "summary{cursor:pointer;font-weight:600}"
    "details.diff-task .status{font-weight:normal;color:#757575}"
    ".diffhead{display:grid;grid-template-columns:1fr 1fr;font-weight:600;color:#555;margin:6px 0 2px}"
    "table.diff{width:100%;table-layout:fixed;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}"
    "table.diff td{padding:0 6px;vertical-align:top}table.diff td.ln{width:3em;color:#999;text-align:right;"
    "user-select:none;background:#f5f5f5}table.diff td.code{white-space:pre-wrap;word-break:break-all}"
    "tr.del td.code:first-of-type,tr.chg td:nth-child(2){background:#ffebee}"
    "tr.ins td:nth-child(4),tr.chg "
    "td:nth-child(4){background:#e8f5e9}.good{color:#2e7d32}p.file{font-family:monospace;font-weight:600}"
    "footer{color:#999;font-size:12px;padding:0 28px 20px}";

static const char gb_rep_js[] =
    "(function(){\n"
    "'use strict';\n"
    "var charts=document.querySelectorAll('script[data-chart]'),done=[];\n"
    "for(var i=0;i<charts.length;i++){(function(el){\n"
    "  var id=el.getAttribute('data-chart'),target=document.getElementById(id);\n"
    "  done.push(vegaEmbed(target,JSON.parse(el.textContent),{actions:false,renderer:'svg'}).catch(function(e){\n"
    "    console.error('chart '+id+': '+e);target.textContent='This chart could not be drawn: '+e;}));\n"
    "})(charts[i]);}\n"
    "function key(td,num){var v=td.hasAttribute('data-v')?td.getAttribute('data-v'):td.textContent;\n"
    "  if(!num)return v.toLowerCase();var f=parseFloat(v);return isNaN(f)?null:f;}\n"
    "var tables=document.querySelectorAll('table.sortable');\n"
    "for(var t=0;t<tables.length;t++){(function(table){\n"
    "  var ths=table.tHead.rows[0].cells;\n"
    "  for(var c=0;c<ths.length;c++){(function(th,col){th.addEventListener('click',function(){\n"
    "    var num=th.getAttribute('data-type')==='num',asc=!th.classList.contains('asc');\n"
    "    for(var k=0;k<ths.length;k++)ths[k].classList.remove('asc','desc');\n"
    "    th.classList.add(asc?'asc':'desc');\n"
    "    var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
    "    rows.sort(function(a,b){var x=key(a.cells[col],num),y=key(b.cells[col],num);\n"
    "      if(x===y)return 0;if(x===null)return 1;if(y===null)return -1;return (x<y?-1:1)*(asc?1:-1);});\n"
    "    for(var r=0;r<rows.length;r++)body.appendChild(rows[r]);});})(ths[c],c);}\n"
    "})(tables[t]);}\n"
    "/* Open a diff named in the address once the charts above it have their final size. */\n"
    "function openHash(){var id=decodeURIComponent(location.hash.slice(1));var d=id&&document.getElementById(id);\n"
    "  if(d&&d.tagName==='DETAILS'){d.open=true;d.scrollIntoView();}}\n"
    "window.addEventListener('hashchange',openHash);\n"
    "Promise.all(done).then(openHash);\n"
    "})();\n";

/* Inline one script file; "</script" inside it would end the element early. */
static bool gb_report__inline_script(GbStr *out, const char *path, GbError *err)
{
    size_t len;
    char *js = gb_read_file(path, &len, err);
    if (!js) return false;
    gb_str_append(out, "<script>\n");
    const char *p = js;
    for (;;) {
        const char *hit = strcasestr(p, "</script");
        if (!hit) break;
        gb_str_append_n(out, p, (size_t)(hit - p));
        gb_str_append(out, "<\\/");
        p = hit + 2;
    }
    gb_str_append(out, p);
    gb_str_append(out, "\n</script>\n");
    free(js);
    return true;
}

char *gb_report_render(GbReport *r, GbError *err)
{
    if (r->runs.len == 0 && r->evals.len == 0) {
        gb_error_set(err, "no input with genebench results to report on");
        return NULL;
    }
    char *assets[3];
    char *dir = r->opt.assets_dir ? gb_strdup(r->opt.assets_dir) : gb_asprintf("%s/third_party", r->opt.source_root);
    bool found = gb_report_find_assets(dir, assets, err);
    free(dir);
    if (!found) return NULL;
    gb_report__make_labels(r);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    gb_report__esc(&out, r->opt.title);
    gb_str_appendf(&out, "</title>\n<style>%s</style>\n</head><body>\n<header><h1>", gb_rep_css);
    gb_report__esc(&out, r->opt.title);
    gb_str_append(&out, "</h1>");
    if (r->runs.len) {
        gb_str_appendf(&out, "<p>%zu task result(s) from %zu run(s): ", r->ntasks, r->runs.len);
        for (size_t i = 0; i < r->runs.len; i++) {
            if (i) gb_str_append(&out, ", ");
            gb_report__esc(&out, r->runs.items[i].path);
        }
        gb_str_append(&out, "</p>");
    }
    if (r->evals.len) {
        gb_str_appendf(&out, "<p>%zu model evaluation(s): ", r->evals.len);
        for (size_t i = 0; i < r->evals.len; i++) {
            if (i) gb_str_append(&out, ", ");
            gb_report__esc(&out, r->evals.items[i].summary_path);
        }
        gb_str_append(&out, "</p>");
    }
    gb_str_append(&out, "\n<nav>");
    if (r->runs.len)
        gb_str_append(&out, "<a href=\"#facts\">run facts</a><a href=\"#metrics\">metrics</a><a "
                            "href=\"#change\">per-metric change</a><a href=\"#fitness\">RC vs RR</a><a "
                            "href=\"#operators\">operators</a><a "
                            "href=\"#gates\">gates</a><a href=\"#added-text\">added text</a><a "
                            "href=\"#versions\">versions</a>");
    if (r->evals.len) gb_str_append(&out, "<a href=\"#eval\">model evaluation</a>");
    if (r->runs.len) gb_str_append(&out, "<a href=\"#tasks\">tasks</a><a href=\"#diffs\">diffs</a>");
    gb_str_append(&out, "</nav></header>\n<main>\n");
    if (r->warnings.len) {
        gb_str_append(&out,
                      "<section id=\"warnings\"><h2>Warnings while reading the input</h2><ul class=\"warnings\">");
        for (size_t i = 0; i < r->warnings.len; i++) {
            gb_str_append(&out, "<li>");
            gb_report__esc(&out, r->warnings.items[i]);
            gb_str_append(&out, "</li>");
        }
        gb_str_append(&out, "</ul></section>\n");
    }
    json_t *names = json_object(); /* operator code -> "S1 AddNestedFor" */
    if (r->runs.len) {
        gb_report__panel_facts(&out, r);
        gb_report__panel_metrics(&out, r);
        gb_report__panel_change(&out, r);
        gb_report__panel_scatter(&out, r);
        gb_report__panel_operators(&out, r, names);
        gb_report__panel_gates(&out, r, names);
        gb_report__panel_added_text(&out, r);
        gb_report__panel_versions(&out, r);
    }
    if (r->evals.len) gb_report__panel_eval(&out, r);
    if (r->runs.len) gb_report__panel_tasks(&out, r);
    json_decref(names);
    gb_str_appendf(&out,
                   "</main>\n<footer>Written by genebench %s. Charts: Vega-Lite (vega, vega-lite, vega-embed), "
                   "inlined below; the page needs no network.</footer>\n",
                   GB_VERSION);
    bool ok = true;
    for (size_t i = 0; i < 3 && ok; i++) ok = gb_report__inline_script(&out, assets[i], err);
    for (size_t i = 0; i < 3; i++) free(assets[i]);
    if (!ok) {
        gb_str_destroy(&out);
        return NULL;
    }
    gb_str_append(&out, "<script>\n");
    gb_str_append(&out, gb_rep_js);
    gb_str_append(&out, "</script>\n</body></html>\n");
    return gb_str_take(&out);
}
