/* Lint sessions: a sequence of lints served by one process forked from a lint worker. The
 * lint worker is shared: it runs the session processes of every thread at once, each named
 * by a tag (harness_serve.py: serve_lint), and its control socket carries only their ends
 * ("done" with the tag) and our kills. A session learns that its process ended from the
 * process's socket (EOF); it reads the worker's socket only to wait for that end. */
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
    GbWorker *w;       /* the lint worker used, NULL before the first lint */
    unsigned long gen; /* the worker process (GbWorker.gen) the session process came from */
    unsigned long tag; /* the session process's tag (GbWorker.serial at its start) */
    int sock;          /* our end of the session process's socket; -1: no session process */
    char *dir;         /* the session's run directory (each lint in a subdirectory), as the worker sees it */
    char *hdir;        /* the same, reached from here (through the worker's root) */
    unsigned long lints;
    bool partial; /* the process was forked before its worker ended pylint's warm-up */
    GbStr in;     /* bytes read from sock, not yet parsed */
};

GbLintSession *gb_lint_session_new(GbPool *pool)
{
    GbLintSession *s = gb_calloc(1, sizeof *s);
    s->pool = pool;
    s->sock = -1;
    gb_str_init(&s->in);
    return s;
}

/* Remove tag from the list items[0..*len) (in no order); whether it was there. */
static bool gb_lint__take(unsigned long *items, size_t *len, unsigned long tag)
{
    for (size_t i = 0; i < *len; i++)
        if (items[i] == tag) {
            items[i] = items[--*len];
            return true;
        }
    return false;
}

/* Read the lint worker's socket (w->mu held): note the tags of the sessions that ended
 * (but those nobody waits for), and the end of its warm-up. False when the worker is gone. */
static bool gb_lint__pump(GbWorker *w)
{
    if (!w->alive || !gb_worker_recv(w)) return false;
    GbStr body;
    gb_str_init(&body);
    GbRec rec = {0};
    while (gb_worker_take_frame(w, &body)) {
        gb_rec_parse(body.data, body.len, &rec);
        if (gb_rec_is(&rec, "op", "done")) {
            unsigned long tag = (unsigned long)gb_rec_double(&rec, "tag", 0);
            if (!gb_lint__take(w->left.items, &w->left.len, tag)) gb_array_push(&w->ended, tag);
        }
        if (gb_rec_is(&rec, "op", "warm")) w->warm = true;
    }
    gb_array_free(&rec.fields);
    gb_str_destroy(&body);
    return true;
}

/* Whether the worker reported the end of session tag (w->mu held); forgets it. */
static bool gb_lint__take_ended(GbWorker *w, unsigned long tag)
{
    return gb_lint__take(w->ended.items, &w->ended.len, tag);
}

/* End the session process: close its socket (it exits at EOF, as it only ever waits for a
 * request between lints: its "done" is then forgotten when it comes, not waited for, as the
 * worker may be in a step of its warm-up) or, with kill, have the worker kill it, wait for
 * the worker's "done", else kill the worker (its other sessions then end too and start again
 * on its replacement). Nothing is waited for when the worker process it came from is gone.
 * Removes the session directory. */
static void gb_lint_session__end(GbLintSession *s, bool kill_it)
{
    if (s->sock >= 0 && !kill_it) {
        close(s->sock);
        s->sock = -1;
        GbWorker *w = s->w;
        pthread_mutex_lock(&w->mu);
        if (w->alive && w->gen == s->gen && !gb_lint__take_ended(w, s->tag)) gb_array_push(&w->left, s->tag);
        pthread_mutex_unlock(&w->mu);
    }
    if (s->sock >= 0) {
        close(s->sock);
        s->sock = -1;
        GbWorker *w = s->w;
        double hard = gb_now() + GB_KILL_GRACE_S;
        bool kill_sent = false;
        for (;;) {
            pthread_mutex_lock(&w->mu);
            bool same = w->alive && w->gen == s->gen;
            bool done = !same || !gb_lint__pump(w) || gb_lint__take_ended(w, s->tag);
            if (!done && kill_it && !kill_sent) {
                gb_worker_send_kill(w, s->tag);
                kill_sent = true;
            }
            double now = gb_now();
            if (!done && now >= hard) {
                if (kill_sent) {
                    gb_worker_reap(w);
                    done = true;
                } else {
                    gb_worker_send_kill(w, s->tag);
                    kill_sent = true;
                    hard = now + GB_KILL_GRACE_S;
                }
            }
            int ctl = w->ctl;
            pthread_mutex_unlock(&w->mu);
            if (done) break;
            /* another thread may read our "done" meanwhile: look again every 20 ms */
            struct pollfd p = {ctl, POLLIN, 0};
            poll(&p, 1, 20);
        }
    }
    s->partial = false;
    if (s->dir) {
        gb_runner_rmtree(s->hdir);
        free(s->dir);
        free(s->hdir);
        s->dir = s->hdir = NULL;
    }
    gb_str_clear(&s->in);
}

/* Start the session process on the lint worker (w->mu held). */
static bool gb_lint_session__start_locked(GbLintSession *s, GbError *err)
{
    GbPool *pool = s->pool;
    GbWorker *w = s->w;
    if (!gb_pool_ensure_alive(pool, w, err)) return false;
    s->gen = w->gen;
    s->tag = ++w->serial;
    s->dir = gb_asprintf("%s/w%d-%lu", pool->runs, w->slot, s->tag);
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
    gb_rec_addf(&body, "tag", "%lu", s->tag);
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
    return true;
}

/* *vanished: the worker went away meanwhile (killed from outside), to retry on a new one. */
static bool gb_lint_session__start(GbLintSession *s, bool *vanished, GbError *err)
{
    if (!s->w) s->w = gb_pool_lint_worker(s->pool);
    pthread_mutex_lock(&s->w->mu);
    bool ok = gb_lint_session__start_locked(s, err);
    if (!ok) *vanished = !s->w->alive;
    pthread_mutex_unlock(&s->w->mu);
    return ok;
}

/* Whether the worker the session's process was forked from has ended its warm-up since
 * (it reads what the worker said). */
static bool gb_lint_session__worker_warm(GbLintSession *s)
{
    GbWorker *w = s->w;
    pthread_mutex_lock(&w->mu);
    bool warm = w->alive && w->gen == s->gen && (w->warm || (gb_lint__pump(w) && w->warm));
    pthread_mutex_unlock(&w->mu);
    return warm;
}

/* Whether the worker process the session came from is gone (reaped if so). */
static bool gb_lint_session__worker_gone(GbLintSession *s)
{
    GbWorker *w = s->w;
    pthread_mutex_lock(&w->mu);
    bool gone = w->gen != s->gen || !w->alive || gb_worker_gone(w);
    pthread_mutex_unlock(&w->mu);
    return gone;
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
    /* A process forked during the warm-up builds for itself what the warm-up had not built
     * yet; once the worker has ended it, the session starts again from the warm image
     * (a lint's result does not depend on the process: src/runner/README.md, the lint worker). */
    if (s->sock >= 0 && s->partial && gb_lint_session__worker_warm(s)) gb_lint_session__end(s, false);
    if (s->sock >= 0) {
        /* between lints the session process never writes: readable means it is gone */
        struct pollfd p = {s->sock, POLLIN, 0};
        if (poll(&p, 1, 0) > 0) gb_lint_session__end(s, true);
    }
    if (s->sock < 0 && !gb_lint_session__start(s, vanished, err)) {
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
    GbRec rec = {0};
    if (mkdir(dir, 0700) != 0 || !gb_runner_chown(AT_FDCWD, dir, w->owner_uid)) {
        int e = errno;
        if (gb_lint_session__worker_gone(s)) {
            gb_error_set(err, "lint: the lint session ended (its worker went away)");
            broken = *vanished = true;
        } else {
            gb_error_set(err, "cannot create run directory %s: %s", dir, strerror(e));
        }
        goto done;
    }
    if (!gb_runner_write_modules(dir, prog, w->owner_uid, err)) {
        if (gb_lint_session__worker_gone(s)) broken = *vanished = true;
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
        /* the session process's end (a crash, a limit, its worker killed) closes its socket */
        struct pollfd p[2] = {{s->sock, POLLIN, 0}, {pool->intr[0], POLLIN, 0}};
        int r = poll(p, 2, (int)((deadline - now) * 1000.0) + 1);
        if (r < 0 && errno != EINTR) {
            gb_error_set(err, "poll: %s", strerror(errno));
            broken = true;
            goto done;
        }
        if (r <= 0) continue;
        if (p[1].revents) {
            gb_error_set(err, "lint: interrupted");
            broken = true;
            goto done;
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
    s->partial = gb_rec_is(&rec, "warm", "0");
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

bool gb_lint_session_partial(const GbLintSession *s)
{
    return s->partial;
}

void gb_lint_session_delete(GbLintSession *s)
{
    if (!s) return;
    gb_lint_session__end(s, false);
    if (s->w) gb_pool_lint_worker_release(s->pool, s->w);
    gb_str_destroy(&s->in);
    free(s);
}

/* A lint in a session of its own: the same state as the first lint of any session (a fresh
 * fork of the warm lint worker). */
bool gb_pool_lint(GbPool *pool, const GbProgram *prog, double *score, GbError *err)
{
    GbLintSession *s = gb_lint_session_new(pool);
    bool ok = gb_lint_session_lint(s, prog, score, err);
    gb_lint_session_delete(s);
    return ok;
}

bool gb_pool_lint_await_warm(GbPool *pool, GbError *err)
{
    if (!pool->cfg.lint) {
        gb_error_set(err, "the pool was started without lint support (GbPoolConfig.lint)");
        return false;
    }
    GbWorker *w = gb_pool_lint_worker(pool);
    bool ok = false;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        bool alive = gb_pool_ensure_alive(pool, w, err);
        bool there = alive && (w->warm || gb_lint__pump(w));
        bool warm = there && w->warm;
        int ctl = w->ctl;
        pthread_mutex_unlock(&w->mu);
        if (!alive) break;
        if (warm) {
            ok = true;
            break;
        }
        if (!there) {
            gb_error_set(err, "lint: the lint worker went away during pylint's warm-up");
            break;
        }
        if (atomic_load(&pool->interrupted)) {
            gb_error_set(err, "lint: interrupted");
            break;
        }
        /* another thread may read the "warm" meanwhile: look again every 20 ms */
        struct pollfd p = {ctl, POLLIN, 0};
        poll(&p, 1, 20);
    }
    gb_pool_lint_worker_release(pool, w);
    return ok;
}
