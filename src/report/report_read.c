/* Reading the report's inputs: runs of evolve, versions directories, thresholds files. */
#include "src/report/report_private.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/gzip.h"
#include "src/bench/task_io.h"
#include "src/doc/versions_similarity.h"

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

/* The run's stem, its summary (OUT.summary.json) and its thresholds. */
static void gb_report__run_files(GbReport *r, GbRepRun *run)
{
    const char *path = run->path;
    char *base = gb_report__basename(path);
    if (gb_report__ends_with(base, ".jsonl")) base[strlen(base) - 6] = '\0';
    run->stem = base;
    /* OUT.summary.json: OUT is the output path as given (x.jsonl.summary.json) or without .jsonl. */
    char *cand1 = gb_asprintf("%s.summary.json", path);
    char *cand2 =
        gb_report__ends_with(path, ".jsonl") ? gb_asprintf("%.*s.summary.json", (int)(strlen(path) - 6), path) : NULL;
    if (gb_report__is_file(cand1))
        run->summary_path = gb_strdup(cand1);
    else if (cand2 && gb_report__is_file(cand2))
        run->summary_path = gb_strdup(cand2);
    free(cand1);
    free(cand2);
    GbError err;
    if (run->summary_path && !gb_run_summary_read(run->summary_path, &run->summary, &err))
        gb_report__warn(r, "%s; the run's summary is not used", err.msg);
    else if (run->summary_path)
        run->has_summary = true;
    const char *tname = r->opt.thresholds;
    if (!tname && run->has_summary) tname = run->summary.thresholds;
    for (size_t i = 0; !tname && i < run->tasks.len; i++) tname = run->tasks.items[i].rec.thresholds;
    if (tname)
        run->thresholds = gb_report__thresholds(r, tname, path);
    else
        gb_report__warn(r, "%s: the run names no thresholds file", path);
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
    gb_report__run_files(r, &run);
    r->ntasks += run.tasks.len;
    gb_array_push(&r->runs, run);
    return true;
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
