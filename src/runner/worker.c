/* One worker process: starting it (waiting for "ready") and reaping it. */
#include "src/runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/runner/library_list.h"
#include "src/runner/runner_private.h"

void gb_worker_reap(GbWorker *w)
{
    if (w->ctl >= 0) close(w->ctl);
    w->ctl = -1;
    if (w->pid > 0) {
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    w->pid = -1;
    w->alive = false;
    w->pending = false;
    gb_str_clear(&w->inbuf);
}

bool gb_worker_gone(GbWorker *w)
{
    if (!w->host_root[0] || w->pid <= 0) return false;
    char root[48];
    snprintf(root, sizeof root, "%s/", w->host_root);
    if (access(root, X_OK) == 0) return false;
    gb_worker_reap(w);
    return true;
}

static char *gb_pool__log_tail(const GbPool *pool, int slot)
{
    char *path = gb_asprintf("%s/worker%d.log", pool->dir, slot);
    size_t len = 0;
    char *text = gb_read_file(path, &len, NULL);
    free(path);
    if (!text) return gb_strdup("");
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
    char *last = strrchr(text, '\n');
    char *tail = gb_strdup(last ? last + 1 : text);
    free(text);
    return tail;
}

/* The third-party libraries' top-level names, comma-separated (harness.py: --libraries). */
#define GB_LIBRARY(name, imports, package, worker) name ","
static const char gb_worker__libraries[] = GB_LIBRARY_LIST;
#undef GB_LIBRARY

/* The Debian packages a worker imports from, for an error message. */
#define GB_LIBRARY(name, imports, package, worker) package ", "
static const char gb_worker__packages[] = GB_LIBRARY_LIST "pylint";
#undef GB_LIBRARY

/* Whether a test worker of kind preloads the libraries whose row says need: FULL has every
 * library, NUMPY those of kind NUMPY, the others none. */
static bool gb_worker__preloads(GbWorkerKind kind, GbWorkerKind need)
{
    return kind == GB_WORKER_FULL || (kind == GB_WORKER_NUMPY && need == GB_WORKER_NUMPY);
}

/* The third-party modules a worker of kind preloads, comma-separated (harness.py: --import;
 * owned). A lint worker runs no program, and astroid never parses the third-party libraries
 * (harness_lint.py: libraries_opaque): it needs none of them. */
static char *gb_worker__imports(GbWorkerKind kind)
{
    GbStr s;
    gb_str_init(&s);
    const struct {
        const char *imports;
        GbWorkerKind worker;
    } rows[] = {
#define GB_LIBRARY(name, imports, package, worker) {imports, worker},
        GB_LIBRARY_LIST
#undef GB_LIBRARY
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        if (!gb_worker__preloads(kind, rows[i].worker)) continue;
        if (s.len) gb_str_append(&s, ",");
        gb_str_append(&s, rows[i].imports);
    }
    return gb_str_take(&s);
}

/* Spawn a worker; it imports its libraries (and warms pylint) while we go on. */
bool gb_pool_spawn_worker(GbPool *pool, GbWorker *w, GbError *err)
{
    char *log_path = gb_asprintf("%s/worker%d.log", pool->dir, w->slot);
    char *warm = gb_asprintf("%s/warm-%d", pool->runs, w->slot);
    char *hwarm = NULL; /* warm reached from here (through the worker's root) */
    char *imports = gb_worker__imports(w->kind);
    GbSpawnSpec spec = {
        .python = pool->python,
        .harness = pool->harness,
        .runs_dir = pool->runs,
        .home = pool->runs,
        .log_path = log_path,
        .lint = w->lint,
        .libraries = gb_worker__libraries,
        .imports = imports,
        .warm_dir = warm,
        .mode = pool->mode,
        .sandbox_uid = pool->uid_base + (uid_t)w->slot,
        .native = pool->native,
        .remap = pool->remap,
        .pool_dir = pool->dir,
        .root_dir = pool->root,
        .disk_mb = pool->cfg.disk_mb,
        .shm_mb = 64,
    };
    GbWorkerProc proc;
    bool ok = false;
    if (!gb_sandbox_spawn(&spec, &proc, err)) goto done;
    w->pid = proc.pid;
    w->ctl = proc.ctl;
    w->mode = proc.mode;
    w->run_uid = proc.run_uid;
    w->owner_uid = proc.owner_uid;
    gb_str_clear(&w->inbuf);
    snprintf(w->host_root, sizeof w->host_root, "%s", proc.host_root);
    hwarm = gb_asprintf("%s%s", w->host_root, warm);
    gb_runner_rmtree(hwarm);
    if (w->lint) {
        if (mkdir(hwarm, 0700) != 0 || !gb_runner_chown(AT_FDCWD, hwarm, w->owner_uid)) {
            gb_error_set(err, "cannot create %s: %s", hwarm, strerror(errno));
            goto done;
        }
        if (pool->cfg.lint_warm && *pool->cfg.lint_warm) {
            /* the caller's warm-up program (harness_lint.py: warm_pylint) */
            char *path = gb_asprintf("%s/warm.py", hwarm);
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            bool wrote = fd >= 0 && gb_runner_write_all(fd, pool->cfg.lint_warm, strlen(pool->cfg.lint_warm));
            if (fd >= 0) close(fd);
            free(path);
            if (!wrote) {
                gb_error_set(err, "cannot write the lint warm-up program in %s: %s", warm, strerror(errno));
                goto done;
            }
        }
    }
    ok = true;
done:
    w->gen++;
    w->ended.len = 0;
    w->left.len = 0;
    w->warm = false;
    if (ok) {
        w->pending = true;
        w->t_spawn = gb_now();
    } else {
        gb_worker_reap(w);
    }
    free(log_path);
    free(warm);
    free(hwarm);
    free(imports);
    return ok;
}

/* Wait for the "ready" of a spawned worker. */
bool gb_pool_await_worker(GbPool *pool, GbWorker *w, GbError *err)
{
    bool ok = false;
    w->pending = false;
    double deadline = w->t_spawn + GB_START_TIMEOUT_S;
    GbStr body;
    gb_str_init(&body);
    GbRec rec = {0};
    for (;;) {
        if (gb_worker_take_frame(w, &body)) {
            gb_rec_parse(body.data, body.len, &rec);
            if (gb_rec_is(&rec, "op", "ready")) {
                ok = true;
                /* lint workers may get ready in task threads, while others read these */
                pthread_mutex_lock(&pool->mu);
                if (!pool->python_version) pool->python_version = gb_rec_dup(&rec, "python");
                if (!pool->remap_report) pool->remap_report = gb_rec_dup(&rec, "remap");
                if (gb_rec_is(&rec, "proc", "0")) pool->no_proc = true;
                pthread_mutex_unlock(&pool->mu);
            } else if (gb_rec_is(&rec, "op", "error")) {
                char *module = gb_rec_dup(&rec, "module");
                char *why = gb_rec_dup(&rec, "error");
                gb_error_set(err,
                             "the interpreter %s cannot import module '%s' (%s); install the Debian package "
                             "that provides it (%s) or choose another interpreter with --python",
                             pool->python, module ? module : "?", why ? why : "?", gb_worker__packages);
                free(module);
                free(why);
            } else {
                continue;
            }
            break;
        }
        /* A lint worker is awaited at its first use, maybe long after its deadline: what it
         * sent by then still counts. Ctrl-C (gb_pool_interrupt) ends the wait. */
        double left = deadline - gb_now();
        struct pollfd p[2] = {{w->ctl, POLLIN, 0}, {pool->intr[0], POLLIN, 0}};
        int r = poll(p, 2, left > 0 ? (int)(left * 1000) + 1 : 0);
        if (r < 0 && errno != EINTR) {
            gb_error_set(err, "poll: %s", strerror(errno));
            break;
        }
        if (r > 0 && !p[0].revents && p[1].revents) {
            gb_error_set(err, "interrupted while the worker (%s) started", pool->python);
            break;
        }
        if (r == 0 && left <= 0) {
            gb_error_set(err, "the worker (%s) did not start within %.0f s", pool->python, GB_START_TIMEOUT_S);
            break;
        }
        if (r > 0 && p[0].revents && !gb_worker_recv(w)) {
            char *tail = gb_pool__log_tail(pool, w->slot);
            gb_error_set(err, "the worker (%s %s) exited during start-up%s%s", pool->python, pool->harness,
                         *tail ? ": " : "", tail);
            free(tail);
            break;
        }
    }
    gb_array_free(&rec.fields);
    gb_str_destroy(&body);
    if (ok) {
        w->alive = true;
    } else {
        gb_worker_reap(w);
    }
    return ok;
}

/* Spawn a worker and wait for its "ready". */
bool gb_pool_start_worker(GbPool *pool, GbWorker *w, GbError *err)
{
    return gb_pool_spawn_worker(pool, w, err) && gb_pool_await_worker(pool, w, err);
}
