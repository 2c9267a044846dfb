/* The pool: creation (sandbox mode, private directory, workers), deletion, the idle
 * sets of test workers, the shared lint workers, accessors. */
#include "src/runner/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/runner/runner_private.h"

static long gb_pool__count_user_processes(uid_t uid)
{
    DIR *d = opendir("/proc");
    if (!d) return 0;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/%s", e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && st.st_uid == uid) {
            char task[310];
            snprintf(task, sizeof task, "%s/task", path);
            DIR *t = opendir(task);
            if (!t) continue;
            struct dirent *te;
            while ((te = readdir(t)) != NULL)
                if (te->d_name[0] != '.') n++;
            closedir(t);
        }
    }
    closedir(d);
    return n;
}

/* Remove pool directories of ours whose genebench process no longer exists (killed with
 * SIGKILL, so it could not clean up). A directory whose pid is alive is left alone. */
static void gb_pool__sweep_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d) return;
    struct dirent *e;
    GbArray(char *) stale = {0};
    while ((e = readdir(d)) != NULL) {
        int pid = 0, used = 0;
        if (sscanf(e->d_name, "genebench-pool-%d-%*6[A-Za-z0-9]%n", &pid, &used) != 1 || used == 0 ||
            e->d_name[used] != '\0' || pid <= 0 || pid == (int)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char *path = gb_asprintf("%s/%s", tmp, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
            gb_array_push(&stale, path);
        else
            free(path);
    }
    closedir(d);
    for (size_t i = 0; i < stale.len; i++) {
        gb_runner_rmtree(stale.items[i]);
        free(stale.items[i]);
    }
    gb_array_free(&stale);
}

/* True when every directory on the way to path (path included) lets others search it. */
static bool gb_runner__traversable(const char *path)
{
    char *p = gb_strdup(path);
    bool ok = true;
    for (char *s = p + strlen(p);;) {
        struct stat st;
        if (stat(p[0] ? p : "/", &st) != 0 || !(st.st_mode & S_IXOTH)) ok = false;
        s = strrchr(p, '/');
        if (!s || !ok) break;
        *s = '\0';
        if (!p[0]) {
            ok = ok && stat("/", &st) == 0 && (st.st_mode & S_IXOTH);
            break;
        }
    }
    free(p);
    return ok;
}

/* Whether workers of the kind start with the pool (GbPoolConfig.start_sets). */
static bool gb_pool__start_now(const GbPool *pool, GbWorkerKind kind)
{
    if (kind == GB_WORKER_LINT || pool->cfg.start_sets == 0 || pool->cfg.no_tiers) return true;
    return (pool->cfg.start_sets & (1u << kind)) != 0;
}

/* Write the harness's files (gb_harness_files) into dir, a new directory; false with errno set
 * on failure. 0755: the interpreter's import system lists the directory of harness.py to find
 * its sibling modules, also as the user namespace's root (userns mode), to which a directory
 * of the host's root is another user's. */
static bool gb_pool__write_harness(const char *dir)
{
    if (mkdir(dir, 0755) != 0 || chmod(dir, 0755) != 0) return false;
    for (unsigned long i = 0; i < gb_harness_files_count; i++) {
        char *path = gb_asprintf("%s/%s", dir, gb_harness_files[i].name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        free(path);
        bool wrote = fd >= 0 && gb_runner_write_all(fd, gb_harness_files[i].text, gb_harness_files[i].len);
        int saved = errno;
        if (fd >= 0) close(fd);
        errno = saved;
        if (!wrote) return false;
    }
    return true;
}

GbPool *gb_pool_new(const GbPoolConfig *cfg_in, GbError *err)
{
    GbPoolConfig dflt;
    gb_pool_config_defaults(&dflt);
    const GbPoolConfig *cfg = cfg_in ? cfg_in : &dflt;
    const char *python = cfg->python && *cfg->python ? cfg->python : GB_DEFAULT_PYTHON;
    if (python[0] != '/') {
        gb_error_set(err, "the interpreter must be given as an absolute path, not '%s'", python);
        return NULL;
    }
    if (access(python, X_OK) != 0) {
        gb_error_set(err, "the interpreter %s cannot be executed: %s", python, strerror(errno));
        return NULL;
    }
    GbPool *pool = gb_calloc(1, sizeof *pool);
    pool->cfg = *cfg;
    pool->python = gb_strdup(python);
    pool->cfg.python = pool->python;
    pool->lint_warm = cfg->lint_warm ? gb_strdup(cfg->lint_warm) : NULL;
    pool->cfg.lint_warm = pool->lint_warm;
    if (pool->cfg.timeout_s <= 0) pool->cfg.timeout_s = dflt.timeout_s;
    if (pool->cfg.cpu_s <= 0) pool->cfg.cpu_s = dflt.cpu_s;
    if (pool->cfg.output_cap == 0) pool->cfg.output_cap = dflt.output_cap;
    if (pool->cfg.disk_mb <= 0) pool->cfg.disk_mb = dflt.disk_mb;
    pool->mode = (GbSandboxMode)cfg->sandbox;
    pool->intr[0] = pool->intr[1] = -1;
    pthread_mutex_init(&pool->mu, NULL);
    gb_pool_compile_init(pool);
    /* Distinct sandbox uids per pool and worker, so concurrent genebench processes do not
     * share one RLIMIT_NPROC budget. */
    pool->uid_base = GB_SANDBOX_UID_BASE + ((uid_t)getpid() % 1000000u) * 128u;

    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/') tmp = "/tmp";
    /* As root the runs use a dedicated uid, which must be able to reach its run directory:
     * a private TMPDIR (mode 0700, e.g. from mktemp -d) is replaced by /tmp. */
    if (geteuid() == 0 && !gb_runner__traversable(tmp)) tmp = "/tmp";
    gb_pool__sweep_stale(tmp);
    /* the creator's pid is in the name, so a later pool can remove what a killed one left */
    pool->dir = gb_asprintf("%s/genebench-pool-%d-XXXXXX", tmp, (int)getpid());
    if (!mkdtemp(pool->dir)) {
        gb_error_set(err, "cannot create a temporary directory in %s: %s", tmp, strerror(errno));
        free(pool->dir);
        pool->dir = NULL;
        gb_pool_delete(pool);
        return NULL;
    }
    /* 0711: the runs (another uid) may traverse to their run directory, not list ours. */
    chmod(pool->dir, 0711);
    char *harness_dir = gb_asprintf("%s/harness", pool->dir);
    pool->harness = gb_asprintf("%s/harness.py", harness_dir);
    pool->runs = gb_asprintf("%s/runs", pool->dir);
    pool->root = gb_asprintf("%s/root", pool->dir);
    bool wrote_harness = gb_pool__write_harness(harness_dir);
    free(harness_dir);
    if (!wrote_harness || mkdir(pool->runs, 0711) != 0 || mkdir(pool->root, 0711) != 0 ||
        pipe2(pool->intr, O_CLOEXEC | O_NONBLOCK) != 0) {
        gb_error_set(err, "cannot set up %s: %s", pool->dir, strerror(errno));
        gb_pool_delete(pool);
        return NULL;
    }
    const char *no_tiers = getenv("GENEBENCH_NO_TIERS");
    if (no_tiers && *no_tiers && strcmp(no_tiers, "0") != 0) pool->cfg.no_tiers = true;
    const char *no_remap = getenv("GENEBENCH_NO_REMAP");
    pool->remap = !cfg->no_native && !cfg->no_remap && !(no_remap && *no_remap && strcmp(no_remap, "0") != 0);
    if (!cfg->no_native) {
        pool->native = gb_asprintf("%s/gbworker.so", pool->dir);
        int fd = open(pool->native, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        bool wrote = fd >= 0 && gb_runner_write_all(fd, gb_worker_so, gb_worker_so_len);
        if (fd >= 0) close(fd);
        if (!wrote) {
            gb_error_set(err, "cannot write %s: %s", pool->native, strerror(errno));
            gb_pool_delete(pool);
            return NULL;
        }
    }

    long n = cfg->workers > 0 ? cfg->workers : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    /* one lint worker serves every thread's sessions (harness_serve.py: serve_lint): one warm-up */
    long nl = !cfg->lint ? 0 : cfg->lint_workers > 0 ? cfg->lint_workers : 1;
    bool tiers = !pool->cfg.no_tiers;
    long counts[GB_WORKER_KINDS] = {n, nl, tiers ? n : 0, tiers ? n : 0};
    pool->nworkers = 0;
    for (int k = 0; k < GB_WORKER_KINDS; k++) {
        pool->sets[k].first = pool->nworkers;
        pool->sets[k].count = (size_t)counts[k];
        pool->nworkers += (size_t)counts[k];
    }
    pool->workers = gb_calloc(pool->nworkers, sizeof *pool->workers);
    for (int k = 0; k < GB_WORKER_KINDS; k++) {
        pool->sets[k].idle = gb_calloc(pool->sets[k].count + 1, sizeof *pool->sets[k].idle);
        pthread_cond_init(&pool->sets[k].cv, NULL);
        for (size_t i = 0; i < pool->sets[k].count; i++) {
            GbWorker *w = &pool->workers[pool->sets[k].first + i];
            w->slot = (int)(pool->sets[k].first + i);
            w->pid = -1;
            w->ctl = -1;
            w->kind = (GbWorkerKind)k;
            w->lint = k == GB_WORKER_LINT;
            pthread_mutex_init(&w->mu, NULL);
            gb_str_init(&w->inbuf);
        }
    }
    /* The first worker's spawn settles the sandbox mode (AUTO may fall back to PLAIN); the
     * others are spawned in that mode at once, so they all import their libraries together;
     * test workers of an import set outside cfg->start_sets are not awaited: they start at
     * their first run (gb_pool_ensure_alive), or, one per set, now without being awaited
     * (cfg->spawn_rest), so that a benchmark without numpy does not wait for it.
     * The pool is ready when its test workers are: the lint worker warms pylint meanwhile
     * and is awaited at its first use (gb_pool_ensure_alive), as lint is the last gate. */
    bool *now = gb_calloc(pool->nworkers, sizeof *now);
    size_t first = pool->nworkers;
    for (size_t i = 0; i < pool->nworkers; i++) {
        now[i] = gb_pool__start_now(pool, pool->workers[i].kind);
        if (now[i] && first == pool->nworkers) first = i;
    }
    if (first == pool->nworkers) first = 0; /* (start_sets names no kind the pool has) */
    now[first] = true;
    if (!gb_pool_spawn_worker(pool, &pool->workers[first], err)) {
        free(now);
        gb_pool_delete(pool);
        return NULL;
    }
    pool->mode = pool->workers[first].mode;
    if (pool->mode == GB_SANDBOX_PLAIN && geteuid() != 0) pool->nproc_extra = gb_pool__count_user_processes(getuid());
    bool ok = true;
    for (size_t i = 0; i < pool->nworkers && ok; i++)
        if (i != first && now[i]) ok = gb_pool_spawn_worker(pool, &pool->workers[i], err);
    /* of the other sets, one worker each: the rest start when a run finds it busy
     * (gb_pool_acquire), so that sets which only a few offspring need do not take the CPUs
     * from pylint's warm-up (with -j 2, the all-libraries set alone was 2.6 s of CPU) */
    for (int k = 0; k < GB_WORKER_KINDS && ok && cfg->spawn_rest; k++) {
        const GbWorkerSet *set = &pool->sets[k];
        if (set->count && !now[set->first]) ok = gb_pool_spawn_worker(pool, &pool->workers[set->first], err);
    }
    for (size_t i = 0; i < pool->nworkers && ok; i++)
        if (now[i] && !pool->workers[i].lint) ok = gb_pool_await_worker(pool, &pool->workers[i], err);
    free(now);
    if (!ok) {
        gb_pool_delete(pool);
        return NULL;
    }
    for (int k = 0; k < GB_WORKER_KINDS; k++) {
        GbWorkerSet *set = &pool->sets[k];
        if (k == GB_WORKER_LINT) continue; /* shared, not lent (gb_pool_lint_worker) */
        for (size_t i = 0; i < set->count; i++) set->idle[set->nidle++] = set->first + i;
    }
    return pool;
}

void gb_pool_delete(GbPool *pool)
{
    if (!pool) return;
    /* Closing the control socket makes an idle worker exit by itself (and a busy one kill
     * its run first); SIGKILL in gb_worker_reap covers a worker that does not. */
    for (size_t i = 0; i < pool->nworkers; i++) {
        GbWorker *w = &pool->workers[i];
        if (w->ctl >= 0) close(w->ctl);
        w->ctl = -1;
    }
    for (size_t i = 0; i < pool->nworkers; i++) {
        GbWorker *w = &pool->workers[i];
        gb_worker_reap(w);
        gb_str_destroy(&w->inbuf);
        gb_array_free(&w->ended);
        gb_array_free(&w->left);
        pthread_mutex_destroy(&w->mu);
    }
    if (pool->dir) gb_runner_rmtree(pool->dir);
    if (pool->intr[0] >= 0) close(pool->intr[0]);
    if (pool->intr[1] >= 0) close(pool->intr[1]);
    pthread_mutex_destroy(&pool->mu);
    gb_pool_compile_destroy(pool);
    for (int k = 0; k < GB_WORKER_KINDS; k++) {
        if (pool->sets[k].idle) pthread_cond_destroy(&pool->sets[k].cv);
        free(pool->sets[k].idle);
    }
    free(pool->workers);
    free(pool->dir);
    free(pool->harness);
    free(pool->native);
    free(pool->remap_report);
    free(pool->sandbox_detail);
    free(pool->runs);
    free(pool->root);
    free(pool->python);
    free(pool->python_version);
    free(pool->lint_warm);
    free(pool);
}

const char *gb_pool_sandbox(const GbPool *pool)
{
    return gb_sandbox_mode_name(pool->mode);
}

const char *gb_pool_sandbox_detail(GbPool *pool)
{
    pthread_mutex_lock(&pool->mu);
    if (!pool->sandbox_detail) {
        const char *mode = gb_sandbox_mode_name(pool->mode);
        if (pool->mode == GB_SANDBOX_PLAIN)
            pool->sandbox_detail = gb_asprintf("%s (no namespaces: the host's /proc, /dev/shm and files are visible, "
                                               "disk capped per file only)",
                                               mode);
        else if (pool->no_proc)
            pool->sandbox_detail = gb_asprintf("%s (no /proc: the kernel refused to mount one)", mode);
        else
            pool->sandbox_detail = gb_strdup(mode);
    }
    pthread_mutex_unlock(&pool->mu);
    return pool->sandbox_detail;
}

const char *gb_pool_remap(const GbPool *pool)
{
    if (!pool->remap) return "off";
    return pool->remap_report && *pool->remap_report ? pool->remap_report : "not reported";
}

const char *gb_pool_python_version(const GbPool *pool)
{
    return pool->python_version ? pool->python_version : "";
}

void gb_pool_interrupt(GbPool *pool)
{
    atomic_store(&pool->interrupted, true);
    ssize_t n = write(pool->intr[1], "!", 1);
    (void)n;
}

size_t gb_pool_worker_pids(GbPool *pool, int *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&pool->mu);
    for (size_t i = 0; i < pool->nworkers; i++) {
        if (!pool->workers[i].alive && !pool->workers[i].pending) continue;
        if (n < max) out[n] = (int)pool->workers[i].pid;
        n++;
    }
    pthread_mutex_unlock(&pool->mu);
    return n;
}

void gb_pool_stats(GbPool *pool, GbPoolStats *out)
{
    pthread_mutex_lock(&pool->mu);
    *out = pool->stats;
    pthread_mutex_unlock(&pool->mu);
}

/* An idle test worker of the kind, waiting for one: the longest idle of those started, else
 * one never started (the caller starts it: gb_pool_ensure_alive). */
GbWorker *gb_pool_acquire(GbPool *pool, GbWorkerKind kind)
{
    if (pool->sets[kind].count == 0) kind = GB_WORKER_FULL;
    GbWorkerSet *set = &pool->sets[kind];
    pthread_mutex_lock(&pool->mu);
    while (set->nidle == 0) pthread_cond_wait(&set->cv, &pool->mu);
    size_t k = 0; /* position in the ring (idle workers are the owner's: reading gen is safe) */
    while (k < set->nidle && pool->workers[set->idle[(set->head + k) % set->count]].gen == 0) k++;
    if (k == set->nidle) k = 0;
    size_t taken = set->idle[(set->head + k) % set->count];
    for (; k > 0; k--) set->idle[(set->head + k) % set->count] = set->idle[(set->head + k - 1) % set->count];
    set->head = (set->head + 1) % set->count;
    set->nidle--;
    pthread_mutex_unlock(&pool->mu);
    return &pool->workers[taken];
}

void gb_pool_release(GbPool *pool, GbWorker *w)
{
    GbWorkerSet *set = &pool->sets[w->kind];
    pthread_mutex_lock(&pool->mu);
    set->idle[(set->head + set->nidle) % set->count] = (size_t)w->slot;
    set->nidle++;
    pthread_cond_signal(&set->cv);
    pthread_mutex_unlock(&pool->mu);
}

GbWorker *gb_pool_lint_worker(GbPool *pool)
{
    GbWorkerSet *set = &pool->sets[GB_WORKER_LINT];
    if (set->count == 0) return NULL;
    pthread_mutex_lock(&pool->mu);
    GbWorker *best = &pool->workers[set->first];
    for (size_t i = 1; i < set->count; i++)
        if (pool->workers[set->first + i].users < best->users) best = &pool->workers[set->first + i];
    best->users++;
    pthread_mutex_unlock(&pool->mu);
    return best;
}

void gb_pool_lint_worker_release(GbPool *pool, GbWorker *w)
{
    pthread_mutex_lock(&pool->mu);
    w->users--;
    pthread_mutex_unlock(&pool->mu);
}

/* A worker that died (killed from outside, or by a run) is replaced before use; a worker
 * still starting (a lint worker after gb_pool_new) is waited for. */
bool gb_pool_ensure_alive(GbPool *pool, GbWorker *w, GbError *err)
{
    if (w->pending) return gb_pool_await_worker(pool, w, err);
    if (w->alive) {
        int status;
        pid_t r = waitpid(w->pid, &status, WNOHANG);
        if (r == 0) return true;
        if (r == w->pid) w->pid = -1;
        gb_worker_reap(w);
    }
    return gb_pool_start_worker(pool, w, err);
}
