/* Lint sessions: a sequence of lints served by one process forked from a lint worker. */
#include "src/runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/runner/runner_private.h"

struct GbLintSession {
    GbPool *pool;
    GbWorker *w; /* the lint worker held, NULL before the first lint */
    int sock;    /* our end of the session process's socket; -1: no session process */
    char *dir;   /* the session's run directory (each lint in a subdirectory), as the worker sees it */
    char *hdir;  /* the same, reached from here (through the worker's root) */
    bool ended;  /* the worker reported the session process's end ("done") */
    unsigned long lints;
    GbStr in; /* bytes read from sock, not yet parsed */
};

GbLintSession *gb_lint_session_new(GbPool *pool)
{
    GbLintSession *s = gb_calloc(1, sizeof *s);
    s->pool = pool;
    s->sock = -1;
    gb_str_init(&s->in);
    return s;
}

/* End the session process: close its socket (it exits at EOF) or, with kill, have the
 * worker kill it; wait for the worker's "done", else kill the worker (it is replaced
 * before its next use). Removes the session directory. */
static void gb_lint_session__end(GbLintSession *s, bool kill_it)
{
    if (s->sock >= 0) {
        close(s->sock);
        s->sock = -1;
        GbWorker *w = s->w;
        if (w->alive && kill_it && !s->ended) gb_worker_send_kill(w);
        double hard = gb_now() + GB_KILL_GRACE_S;
        bool done = s->ended, kill_sent = kill_it;
        GbStr body;
        gb_str_init(&body);
        GbRec rec = {0};
        while (w->alive && !done) {
            while (!done && gb_worker_take_frame(w, &body)) {
                gb_rec_parse(body.data, body.len, &rec);
                done = gb_rec_is(&rec, "op", "done");
            }
            if (done) break;
            double now = gb_now();
            if (now >= hard) {
                if (kill_sent) {
                    gb_worker_reap(w);
                    break;
                }
                gb_worker_send_kill(w);
                kill_sent = true;
                hard = now + GB_KILL_GRACE_S;
            }
            struct pollfd p = {w->ctl, POLLIN, 0};
            int r = poll(&p, 1, (int)((hard - now) * 1000.0) + 1);
            if (r > 0 && !gb_worker_recv(w)) gb_worker_reap(w);
        }
        gb_array_free(&rec.fields);
        gb_str_destroy(&body);
    }
    if (s->dir) {
        gb_runner_rmtree(s->hdir);
        free(s->dir);
        free(s->hdir);
        s->dir = s->hdir = NULL;
    }
    gb_str_clear(&s->in);
}

/* Start the session process on the held worker. */
static bool gb_lint_session__start(GbLintSession *s, GbError *err)
{
    GbPool *pool = s->pool;
    if (!s->w) s->w = gb_pool_acquire(pool, GB_WORKER_LINT);
    GbWorker *w = s->w;
    if (!gb_pool_ensure_alive(pool, w, err)) return false;
    s->dir = gb_asprintf("%s/w%d-%lu", pool->runs, w->slot, ++w->serial);
    s->hdir = gb_asprintf("%s%s", w->host_root, s->dir);
    gb_runner_rmtree(s->hdir);
    if (mkdir(s->hdir, 0700) != 0 || !gb_runner_chown(AT_FDCWD, s->hdir, w->owner_uid)) {
        int e = errno;
        if (gb_worker_gone(w))
            gb_error_set(err, "lint: the lint worker went away");
        else
            gb_error_set(err, "cannot create run directory %s: %s", s->hdir, strerror(e));
        return false;
    }
    int sp[2] = {-1, -1};
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0) {
        gb_error_set(err, "cannot create the lint session socket: %s", strerror(errno));
        if (devnull >= 0) close(devnull);
        return false;
    }
    GbStr body, frame;
    gb_str_init(&body);
    gb_str_init(&frame);
    gb_rec_add(&body, "op", "run");
    gb_rec_add(&body, "kind", "lintd");
    gb_rec_add(&body, "dir", s->dir);
    gb_pool_add_limits(pool, w, &body, 0); /* a session lives for many lints: each has the wall limit */
    gb_rec_frame(&frame, &body);
    int fds[3] = {sp[1], devnull, devnull};
    bool ok = gb_worker_send(w, &frame, fds, 3);
    close(sp[1]);
    close(devnull);
    gb_str_destroy(&body);
    gb_str_destroy(&frame);
    if (!ok) {
        close(sp[0]);
        gb_worker_reap(w);
        gb_error_set(err, "lint: the lint worker went away");
        return false;
    }
    s->sock = sp[0];
    s->ended = false;
    return true;
}

static bool gb_runner__send_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* One lint; *vanished is set when the session process was gone without a reply (killed
 * from outside, or a crash of pylint), which the caller retries once in a new process. */
static bool gb_lint_session__lint_once(GbLintSession *s, const GbProgram *prog, double *score, bool *vanished,
                                       GbError *err)
{
    *score = 0.0;
    *vanished = false;
    GbPool *pool = s->pool;
    if (!pool->cfg.lint) {
        gb_error_set(err, "the pool was started without lint support (GbPoolConfig.lint)");
        return false;
    }
    if (atomic_load(&pool->interrupted)) {
        gb_error_set(err, "lint: interrupted");
        return false;
    }
    if (s->sock >= 0) {
        /* between lints the session process never writes: readable means it is gone */
        struct pollfd p = {s->sock, POLLIN, 0};
        if (poll(&p, 1, 0) > 0) gb_lint_session__end(s, true);
    }
    if (s->sock < 0 && !gb_lint_session__start(s, err)) {
        *vanished = s->w && !s->w->alive; /* killed from outside: retried on a new worker */
        gb_lint_session__end(s, true);
        return false;
    }
    GbWorker *w = s->w;
    char sub[32];
    snprintf(sub, sizeof sub, "l%lu", ++s->lints);
    char *dir = gb_asprintf("%s/%s", s->hdir, sub);
    bool ok = false, broken = false;
    GbStr body, frame, mods, reply;
    gb_str_init(&body);
    gb_str_init(&frame);
    gb_str_init(&mods);
    gb_str_init(&reply);
    GbRec rec = {0}, wrec = {0};
    if (mkdir(dir, 0700) != 0 || !gb_runner_chown(AT_FDCWD, dir, w->owner_uid)) {
        int e = errno;
        if (gb_worker_gone(w)) {
            gb_error_set(err, "lint: the lint session ended (its worker went away)");
            broken = *vanished = true;
        } else {
            gb_error_set(err, "cannot create run directory %s: %s", dir, strerror(e));
        }
        goto done;
    }
    if (!gb_runner_write_modules(dir, prog, w->owner_uid, err)) {
        if (gb_worker_gone(w)) broken = *vanished = true;
        goto done;
    }
    for (size_t i = 0; i < prog->modules.len; i++) gb_str_appendf(&mods, "%s\n", prog->modules.items[i].path);
    gb_rec_add(&body, "op", "lint");
    gb_rec_add(&body, "sub", sub);
    gb_rec_add(&body, "modules", mods.data ? mods.data : "");
    gb_rec_frame(&frame, &body);
    if (!gb_runner__send_all(s->sock, frame.data, frame.len)) {
        gb_error_set(err, "lint: the lint session ended (pylint crashed or hit a limit)");
        broken = *vanished = true;
        goto done;
    }
    double deadline = gb_now() + pool->cfg.timeout_s;
    for (;;) {
        if (gb_runner_take_frame(&s->in, &reply)) break;
        double now = gb_now();
        if (now >= deadline) {
            gb_error_set(err, "lint: pylint took longer than %g s", pool->cfg.timeout_s);
            broken = true;
            goto done;
        }
        struct pollfd p[3] = {{s->sock, POLLIN, 0}, {w->ctl, POLLIN, 0}, {pool->intr[0], POLLIN, 0}};
        int r = poll(p, 3, (int)((deadline - now) * 1000.0) + 1);
        if (r < 0 && errno != EINTR) {
            gb_error_set(err, "poll: %s", strerror(errno));
            broken = true;
            goto done;
        }
        if (r <= 0) continue;
        if (p[2].revents) {
            gb_error_set(err, "lint: interrupted");
            broken = true;
            goto done;
        }
        if (p[1].revents) {
            /* the worker only speaks when the session process started ("started") or ended */
            bool gone = !gb_worker_recv(w);
            GbStr wb;
            gb_str_init(&wb);
            while (!gone && gb_worker_take_frame(w, &wb)) {
                gb_rec_parse(wb.data, wb.len, &wrec);
                if (gb_rec_is(&wrec, "op", "done")) gone = s->ended = true;
            }
            gb_str_destroy(&wb);
            if (gone) {
                /* read a reply that may have been sent just before the end */
                char buf[65536];
                ssize_t n;
                while ((n = recv(s->sock, buf, sizeof buf, MSG_DONTWAIT)) > 0) gb_str_append_n(&s->in, buf, (size_t)n);
                if (gb_runner_take_frame(&s->in, &reply)) {
                    broken = true;
                    break;
                }
                gb_error_set(err, "lint: the lint session ended (pylint crashed or hit a limit)");
                broken = *vanished = true;
                goto done;
            }
        }
        if (p[0].revents) {
            char buf[65536];
            ssize_t n = recv(s->sock, buf, sizeof buf, MSG_DONTWAIT);
            if (n > 0) {
                gb_str_append_n(&s->in, buf, (size_t)n);
            } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                if (gb_runner_take_frame(&s->in, &reply)) break;
                gb_error_set(err, "lint: the lint session ended (pylint crashed or hit a limit)");
                broken = *vanished = true;
                goto done;
            }
        }
    }
    gb_rec_parse(reply.data ? reply.data : "", reply.len, &rec);
    if (gb_rec_is(&rec, "outcome", "pass")) {
        *score = gb_rec_double(&rec, "score", 0.0);
        ok = true;
    } else {
        char *type = gb_rec_dup(&rec, "exc_type");
        char *msg = gb_rec_dup(&rec, "exc_message");
        gb_error_set(err, "lint: pylint failed: %s%s%s", type ? type : "", type ? ": " : "", msg ? msg : "no result");
        free(type);
        free(msg);
    }
done:
    gb_runner_rmtree(dir);
    free(dir);
    if (broken) gb_lint_session__end(s, true);
    gb_array_free(&rec.fields);
    gb_array_free(&wrec.fields);
    gb_str_destroy(&body);
    gb_str_destroy(&frame);
    gb_str_destroy(&mods);
    gb_str_destroy(&reply);
    return ok;
}

bool gb_lint_session_lint(GbLintSession *s, const GbProgram *prog, double *score, GbError *err)
{
    bool vanished = false;
    bool ok = gb_lint_session__lint_once(s, prog, score, &vanished, err);
    if (!ok && vanished) ok = gb_lint_session__lint_once(s, prog, score, &vanished, err);
    return ok;
}

void gb_lint_session_delete(GbLintSession *s)
{
    if (!s) return;
    gb_lint_session__end(s, false);
    if (s->w) gb_pool_release(s->pool, s->w);
    gb_str_destroy(&s->in);
    free(s);
}
