#include "fitness/calibrate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <omp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/python/pyparse.h"

extern char **environ;

void gb_calibration_init(GbCalibration *c)
{
    memset(c, 0, sizeof *c);
}

void gb_calibration_destroy(GbCalibration *c)
{
    free(c->name);
    free(c->command);
    for (size_t i = 0; i < c->dirs.len; i++) {
        GbCalibDir *d = &c->dirs.items[i];
        free(d->path);
        for (size_t k = 0; k < d->packages.len; k++) {
            free(d->packages.items[k].name);
            free(d->packages.items[k].version);
        }
        gb_array_free(&d->packages);
    }
    gb_array_free(&c->dirs);
    for (size_t i = 0; i < c->failures.len; i++) {
        free(c->failures.items[i].path);
        free(c->failures.items[i].message);
    }
    gb_array_free(&c->failures);
    for (size_t i = 0; i < c->files.len; i++) {
        free(c->files.items[i].path);
        free(c->files.items[i].rel);
        free(c->files.items[i].own_package);
    }
    gb_array_free(&c->files);
    for (size_t i = 0; i < c->excludes.len; i++) free(c->excludes.items[i]);
    gb_array_free(&c->excludes);
    memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- file discovery */

static bool gb_cal__is_test_file(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "conftest.py") == 0) return true;
    if (strncmp(name, "test_", 5) == 0) return true;
    return n >= 8 && strcmp(name + n - 8, "_test.py") == 0;
}

static bool gb_cal__has_init(const char *dir)
{
    char *p = gb_asprintf("%s/__init__.py", dir);
    struct stat st;
    bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return ok;
}

static const char *gb_cal__basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int gb_cal__cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool gb_cal__excluded(const GbCalibration *c, const char *root_base, const char *sub)
{
    if (!c->excludes.len) return false;
    char *rel = gb_asprintf("%s/%s", root_base, sub);
    bool hit = false;
    for (size_t i = 0; i < c->excludes.len && !hit; i++) hit = fnmatch(c->excludes.items[i], rel, 0) == 0;
    free(rel);
    return hit;
}

typedef struct {
    GbCalibration *c;
    GbCalibDir *dir;
    const char *root_base; /* basename of the given directory */
    bool fixed_own;        /* the own package is known from the install location */
} GbCalWalk;

/* Recursively collect .py files. rel: path below the given directory ("" at the top);
 * own: package of this directory (borrowed); in_pkg: this directory has __init__.py. */
static bool gb_cal__walk(GbCalWalk *w, const char *path, const char *rel, const char *own, bool in_tests, GbError *err)
{
    DIR *d = opendir(path);
    if (!d) {
        gb_error_set(err, "%s: cannot read directory: %s", path, strerror(errno));
        return false;
    }
    GbArray(char *) names = {0};
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        gb_array_push(&names, gb_strdup(e->d_name));
    }
    closedir(d);
    if (names.len) qsort(names.items, names.len, sizeof names.items[0], gb_cal__cmp_str);
    bool ok = true;
    for (size_t i = 0; i < names.len && ok; i++) {
        const char *name = names.items[i];
        char *full = gb_asprintf("%s/%s", path, name);
        char *sub = *rel ? gb_asprintf("%s/%s", rel, name) : gb_strdup(name);
        struct stat lst, st;
        if (lstat(full, &lst) != 0) {
            free(full);
            free(sub);
            continue;
        }
        if (S_ISDIR(lst.st_mode)) {
            if (strcmp(name, "__pycache__") != 0) {
                bool pkg = gb_cal__has_init(full);
                const char *sub_own = !w->fixed_own && pkg && !gb_cal__has_init(path) ? name : own;
                ok = gb_cal__walk(w, full, sub, sub_own, in_tests || strcmp(name, "tests") == 0, err);
            }
        } else if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            size_t n = strlen(name);
            if (n > 3 && strcmp(name + n - 3, ".py") == 0) {
                if (in_tests || gb_cal__is_test_file(name)) {
                    w->dir->tests_skipped++;
                    w->c->tests_skipped++;
                } else if (gb_cal__excluded(w->c, w->root_base, sub)) {
                    w->c->excluded++;
                } else {
                    GbCalibFile f = {0};
                    f.path = gb_strdup(full);
                    f.rel = gb_asprintf("%s/%s", w->root_base, sub);
                    f.own_package = gb_strdup(own);
                    f.dir = (size_t)(w->dir - w->c->dirs.items);
                    gb_array_push(&w->c->files, f);
                }
            }
        }
        free(full);
        free(sub);
    }
    for (size_t i = 0; i < names.len; i++) free(names.items[i]);
    gb_array_free(&names);
    return ok;
}

/* The top-level package of a directory: under .../dist-packages/ or .../site-packages/ the first
 * component below it (this also covers namespace packages such as mpl_toolkits); elsewhere the
 * top-most ancestor in a chain of directories with __init__.py. *fixed says which rule applied. */
static char *gb_cal__top_package(const char *dir, bool *fixed)
{
    char *real = realpath(dir, NULL);
    const char *abs = real ? real : dir;
    static const char *const roots[] = {"/dist-packages/", "/site-packages/"};
    for (size_t i = 0; i < 2; i++) {
        const char *p = strstr(abs, roots[i]);
        if (!p) continue;
        p += strlen(roots[i]);
        size_t n = strcspn(p, "/");
        if (n == 0) continue;
        char *top = gb_strndup(p, n);
        free(real);
        *fixed = true;
        return top;
    }
    free(real);
    *fixed = false;
    char *cur = gb_strdup(dir);
    char *top = NULL;
    while (gb_cal__has_init(cur)) {
        free(top);
        top = gb_strdup(gb_cal__basename(cur));
        char *slash = strrchr(cur, '/');
        if (!slash || slash == cur) break;
        *slash = '\0';
    }
    free(cur);
    return top;
}

/* ---------------------------------------------------------------- Debian packages */

/* Run argv (no shell) and capture its standard output; false when it cannot run or fails. */
static bool gb_cal__capture(char *const argv[], GbStr *out)
{
    int fds[2];
    if (pipe(fds) != 0) return false;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        return false;
    }
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) gb_str_append_n(out, buf, (size_t)n);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Packages that own the directory (dpkg-query -S), with their versions (dpkg-query -W). */
static void gb_cal__packages(GbCalibDir *d, const char *dir)
{
    GbStr out;
    gb_str_init(&out);
    char *argv[] = {"dpkg-query", "-S", (char *)dir, NULL};
    if (!gb_cal__capture(argv, &out) || !out.data) {
        gb_str_destroy(&out);
        return;
    }
    for (char *line = out.data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        char *sep = strstr(line, ": /");
        if (sep && strcmp(sep + 2, dir) == 0) {
            *sep = '\0';
            for (char *tok = strtok(line, ", "); tok; tok = strtok(NULL, ", ")) {
                bool dup = false;
                for (size_t k = 0; k < d->packages.len && !dup; k++) dup = strcmp(d->packages.items[k].name, tok) == 0;
                if (dup) continue;
                GbStr ver;
                gb_str_init(&ver);
                char *vargv[] = {"dpkg-query", "-W", "-f=${Version}", tok, NULL};
                bool ok = gb_cal__capture(vargv, &ver);
                GbCalibPackage p = {.name = gb_strdup(tok), .version = gb_strdup(ok && ver.data ? ver.data : "")};
                gb_array_push(&d->packages, p);
                gb_str_destroy(&ver);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    gb_str_destroy(&out);
}

/* ---------------------------------------------------------------- measuring */

static int gb_cal__cmp_file(const void *a, const void *b)
{
    return strcmp(((const GbCalibFile *)a)->rel, ((const GbCalibFile *)b)->rel);
}

static void gb_cal__measure(GbCalibFile *f, TSParser *parser, char **failure)
{
    GbError err;
    size_t len;
    char *src = gb_read_file(f->path, &len, &err);
    if (!src) {
        *failure = gb_strdup(err.msg);
        return;
    }
    f->content_hash = gb_hash64(src, len, 0);
    const char *own[1] = {f->own_package};
    GbMetricsOptions opts = {.own_packages = own, .n_own_packages = f->own_package && *f->own_package ? 1 : 0};
    if (gb_metrics_compute_source(f->path, src, len, parser, &opts, &f->metrics, &f->detail, &err))
        f->ok = true;
    else
        *failure = gb_strdup(err.msg);
    free(src);
}

bool gb_calibrate_run(const char *const *dirs, size_t ndirs, int threads, GbCalibration *c, GbError *err)
{
    for (size_t i = 0; i < ndirs; i++) {
        char *dir = gb_strdup(dirs[i]);
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            gb_error_set(err, "%s: not a directory", dir);
            free(dir);
            return false;
        }
        GbCalibDir d = {.path = dir};
        gb_array_push(&c->dirs, d);
        GbCalibDir *dp = &c->dirs.items[c->dirs.len - 1];
        size_t before = c->files.len;
        bool fixed = false;
        char *own = gb_cal__top_package(dir, &fixed);
        GbCalWalk w = {.c = c, .dir = dp, .root_base = gb_cal__basename(dir), .fixed_own = fixed};
        bool ok = gb_cal__walk(&w, dir, "", own ? own : gb_cal__basename(dir), false, err);
        free(own);
        if (!ok) return false;
        dp->files = c->files.len - before; /* candidates; failures are subtracted below */
        gb_cal__packages(dp, dir);
    }
    size_t nfiles = c->files.len;
    if (nfiles) qsort(c->files.items, nfiles, sizeof c->files.items[0], gb_cal__cmp_file);
    char **failure = gb_calloc(nfiles ? nfiles : 1, sizeof *failure);
    GbCalibFile *files = c->files.items;
    long nf = (long)nfiles;
    int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt) default(none) shared(files, nf, failure)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 8)
        for (long i = 0; i < nf; i++) gb_cal__measure(&files[i], parser, &failure[i]);
        ts_parser_delete(parser);
    }
    /* Sum in sorted path order: the result does not depend on the thread count. */
    double sum[GB_METRIC_COUNT] = {0};
    uint64_t digest = 1469598103934665603ULL;
    for (size_t i = 0; i < nfiles; i++) {
        GbCalibFile *f = &files[i];
        if (!f->ok) {
            GbCalibFailure fl = {.path = gb_strdup(f->path),
                                 .message = failure[i] ? failure[i] : gb_strdup("could not be measured")};
            failure[i] = NULL;
            gb_array_push(&c->failures, fl);
            c->dirs.items[f->dir].failed++;
            c->dirs.items[f->dir].files--;
            continue;
        }
        c->measured++;
        for (int k = 0; k < GB_METRIC_COUNT; k++) sum[k] += f->metrics.v[k];
        char hex[24];
        snprintf(hex, sizeof hex, "%016llx\n", (unsigned long long)f->content_hash);
        digest = gb_hash64(f->rel, strlen(f->rel) + 1, digest ^ 1469598103934665603ULL);
        digest = gb_hash64(hex, strlen(hex), digest ^ 1469598103934665603ULL);
    }
    for (size_t i = 0; i < nfiles; i++) free(failure[i]);
    free(failure);
    c->digest = digest;
    if (c->measured == 0) {
        gb_error_set(err, "no file could be measured (%zu candidate .py files, %zu failures, %zu test files skipped)",
                     nfiles, c->failures.len, c->tests_skipped);
        return false;
    }
    for (int k = 0; k < GB_METRIC_COUNT; k++) c->mean[k] = sum[k] / (double)c->measured;
    return true;
}

void gb_calibration_thresholds(const GbCalibration *c, GbThresholds *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < GB_N_COMPLEXITY; i++) out->ct[i] = round(c->mean[i] * 10000.0) / 10000.0;
    for (int j = 0; j < GB_N_READABILITY; j++) out->rt[j] = ceil(c->mean[GB_N_COMPLEXITY + j]);
    out->name = gb_strdup(c->name ? c->name : "calibration");
}
