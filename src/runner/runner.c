#include "src/runner/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/runner/sandbox.h"

/* The harness source, generated at build time from src/runner/harness.py (src/meson.build). */
extern const char gb_harness_py[];
extern const unsigned long gb_harness_py_len;
/* The workers' shared object, built from src/runner/remap.c and src/runner/runwait.c (src/meson.build). */
extern const char gb_worker_so[];
extern const unsigned long gb_worker_so_len;

#define GB_START_TIMEOUT_S 180.0 /* importing sklearn + pylint on a loaded machine */
#define GB_KILL_GRACE_S 5.0      /* after asking a worker to kill a run */
#define GB_DRAIN_GRACE_S 2.0     /* after the run ended, for the output pipes to close */
#define GB_SANDBOX_UID_BASE 1900000000u

typedef struct {
    int slot;
    pid_t pid;
    int ctl;
    bool alive;
    unsigned long serial;
    long run_uid;
    long owner_uid;
    GbSandboxMode mode;
    bool lint;   /* a lint worker: imports pylint, serves lint runs and lint sessions only */
    GbStr inbuf; /* bytes received from the worker, not yet parsed */
} GbWorker;

/* The workers of one kind and a ring buffer of the idle ones: FIFO, so runs rotate. */
typedef struct {
    size_t first, count; /* slots first .. first+count-1 of GbPool.workers */
    size_t *idle;
    size_t head, nidle;
    pthread_cond_t cv;
} GbWorkerSet;

struct GbPool {
    GbPoolConfig cfg;
    char *python;
    char *dir;     /* private temporary directory */
    char *harness; /* dir/harness.py */
    char *native;  /* dir/gbworker.so */
    bool remap;    /* workers remap their libraries (src/runner/remap.c) */
    char *remap_report; /* what the first worker said of its remap */
    char *runs;    /* dir/runs */
    char *python_version;
    char *lint_warm; /* owned copy of cfg.lint_warm (workers are replaced later too) */
    GbSandboxMode mode;
    uid_t uid_base;
    long nproc_extra; /* plain mode, not root: processes the user already has */
    pthread_mutex_t mu;
    GbWorker *workers; /* test workers, then lint workers */
    size_t nworkers;
    GbWorkerSet sets[2]; /* [0] test workers, [1] lint workers (count 0 without lint) */
    int intr[2];
    atomic_bool interrupted;
    GbPoolStats stats;
};

/* ------------------------------------------------------------------ results */

void gb_run_result_init(GbRunResult *r)
{
    memset(r, 0, sizeof *r);
    r->status = GB_RUN_ERROR;
}

void gb_run_result_destroy(GbRunResult *r)
{
    if (!r) return;
    free(r->failed_test);
    free(r->exc_type);
    free(r->exc_message);
    free(r->out);
    free(r->err);
    for (size_t i = 0; i < r->failed_tests.len; i++) free(r->failed_tests.items[i]);
    gb_array_free(&r->failed_tests);
    memset(r, 0, sizeof *r);
}

const char *gb_run_status_name(GbRunStatus s)
{
    switch (s) {
    case GB_RUN_PASS:
        return "pass";
    case GB_RUN_FAIL:
        return "fail";
    case GB_RUN_TIMEOUT:
        return "timeout";
    case GB_RUN_CRASH:
        return "crash";
    case GB_RUN_ERROR:
        return "error";
    }
    return "?";
}

void gb_pool_config_defaults(GbPoolConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->python = GB_DEFAULT_PYTHON;
    cfg->workers = 0;
    cfg->timeout_s = 10.0;
    cfg->cpu_s = 10.0;
    cfg->mem_mb = 4096;
    cfg->fsize_mb = 64;
    cfg->nofile = 256;
    cfg->nproc = 64;
    cfg->output_cap = 64 * 1024;
    cfg->stderr_fails = false;
    cfg->lint = false;
    cfg->sandbox = GB_SANDBOX_AUTO;
}

/* ------------------------------------------------------------------ stdio comparison */

static const char *gb_runner__skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')) p++;
    return p;
}

static bool gb_runner__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool gb_runner__number(const char *tok, size_t len, double *out)
{
    char buf[128];
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || errno == ERANGE || !isfinite(v)) return false;
    /* strtod accepts hex floats and "inf"/"nan" words; AVATAR's float() does not take hex. */
    for (size_t i = 0; i < len; i++)
        if (buf[i] == 'x' || buf[i] == 'X') return false;
    *out = v;
    return true;
}

/* Compare one line (no '\n' inside) token by token. */
static bool gb_runner__line_matches(const char *a, const char *ae, const char *b, const char *be)
{
    for (;;) {
        a = gb_runner__skip_ws(a, ae);
        b = gb_runner__skip_ws(b, be);
        if (a == ae || b == be) return a == ae && b == be;
        const char *ta = a, *tb = b;
        while (a < ae && !gb_runner__is_space(*a)) a++;
        while (b < be && !gb_runner__is_space(*b)) b++;
        size_t la = (size_t)(a - ta), lb = (size_t)(b - tb);
        if (la == lb && memcmp(ta, tb, la) == 0) continue;
        double x, y;
        if (!gb_runner__number(ta, la, &x) || !gb_runner__number(tb, lb, &y)) return false;
        if (!(fabs(x - y) <= 1e-6)) return false;
    }
}

static void gb_runner__strip(const char **p, const char **end)
{
    while (*p < *end && gb_runner__is_space(**p)) (*p)++;
    while (*end > *p && gb_runner__is_space((*end)[-1])) (*end)--;
}

bool gb_stdio_output_matches(const char *got, const char *expected)
{
    const char *a = got, *ae = got + strlen(got);
    const char *b = expected, *be = expected + strlen(expected);
    gb_runner__strip(&a, &ae);
    gb_runner__strip(&b, &be);
    for (;;) {
        const char *na = memchr(a, '\n', (size_t)(ae - a));
        const char *nb = memchr(b, '\n', (size_t)(be - b));
        const char *la = na ? na : ae, *lb = nb ? nb : be;
        if (!gb_runner__line_matches(a, la, b, lb)) return false;
        if (!na || !nb) return !na && !nb;
        a = na + 1;
        b = nb + 1;
    }
}

/* ------------------------------------------------------------------ wire format */

static void gb_rec__u32(GbStr *s, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    gb_str_append_n(s, (const char *)b, 4);
}

static uint32_t gb_rec__get_u32(const char *p)
{
    const unsigned char *b = (const unsigned char *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void gb_rec_add_n(GbStr *s, const char *key, const char *val, size_t len)
{
    gb_rec__u32(s, (uint32_t)strlen(key));
    gb_str_append(s, key);
    gb_rec__u32(s, (uint32_t)len);
    gb_str_append_n(s, val ? val : "", len);
}

static void gb_rec_add(GbStr *s, const char *key, const char *val)
{
    gb_rec_add_n(s, key, val, val ? strlen(val) : 0);
}

static void gb_rec_addf(GbStr *s, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void gb_rec_addf(GbStr *s, const char *key, const char *fmt, ...)
{
    GbStr v;
    gb_str_init(&v);
    va_list ap;
    va_start(ap, fmt);
    gb_str_vappendf(&v, fmt, ap);
    va_end(ap);
    gb_rec_add_n(s, key, v.data ? v.data : "", v.len);
    gb_str_destroy(&v);
}

/* A frame = u32 length + body; the body is stored with its length prefix in front. */
static void gb_rec_frame(GbStr *frame, const GbStr *body)
{
    gb_str_clear(frame);
    gb_rec__u32(frame, (uint32_t)body->len);
    gb_str_append_n(frame, body->data ? body->data : "", body->len);
}

typedef struct {
    const char *key;
    size_t klen;
    const char *val;
    size_t vlen;
} GbRecField;

typedef struct {
    GbArray(GbRecField) fields;
} GbRec;

static bool gb_rec_parse(const char *body, size_t len, GbRec *rec)
{
    rec->fields.len = 0;
    size_t i = 0;
    while (i < len) {
        if (len - i < 4) return false;
        uint32_t kl = gb_rec__get_u32(body + i);
        i += 4;
        if (len - i < kl + 4ul) return false;
        const char *k = body + i;
        i += kl;
        uint32_t vl = gb_rec__get_u32(body + i);
        i += 4;
        if (len - i < vl) return false;
        GbRecField f = {k, kl, body + i, vl};
        gb_array_push(&rec->fields, f);
        i += vl;
    }
    return true;
}

static const GbRecField *gb_rec_find(const GbRec *rec, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < rec->fields.len; i++) {
        const GbRecField *f = &rec->fields.items[i];
        if (f->klen == kl && memcmp(f->key, key, kl) == 0) return f;
    }
    return NULL;
}

static char *gb_rec_dup(const GbRec *rec, const char *key)
{
    const GbRecField *f = gb_rec_find(rec, key);
    return f ? gb_strndup(f->val, f->vlen) : NULL;
}

static bool gb_rec_is(const GbRec *rec, const char *key, const char *value)
{
    const GbRecField *f = gb_rec_find(rec, key);
    return f && f->vlen == strlen(value) && memcmp(f->val, value, f->vlen) == 0;
}

static double gb_rec_double(const GbRec *rec, const char *key, double dflt)
{
    char *s = gb_rec_dup(rec, key);
    double v = dflt;
    if (s && *s) v = strtod(s, NULL);
    free(s);
    return v;
}

static long gb_rec_long(const GbRec *rec, const char *key, long dflt)
{
    char *s = gb_rec_dup(rec, key);
    long v = dflt;
    if (s && *s) v = strtol(s, NULL, 10);
    free(s);
    return v;
}

/* Pop one complete frame from the worker's input buffer into body (owned copy). */
/* Move the first whole frame of in (u32 length, body) into body. */
static bool gb_runner__take_frame(GbStr *in, GbStr *body)
{
    if (in->len < 4) return false;
    uint32_t n = gb_rec__get_u32(in->data);
    if (in->len - 4 < n) return false;
    gb_str_clear(body);
    gb_str_append_n(body, in->data + 4, n);
    size_t rest = in->len - 4 - n;
    memmove(in->data, in->data + 4 + n, rest);
    in->len = rest;
    in->data[rest] = '\0';
    return true;
}

static bool gb_worker__take_frame(GbWorker *w, GbStr *body)
{
    return gb_runner__take_frame(&w->inbuf, body);
}

/* Read what is available on the control socket. Returns false at EOF or error. */
static bool gb_worker__recv(GbWorker *w)
{
    char buf[65536];
    ssize_t n = recv(w->ctl, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
        gb_str_append_n(&w->inbuf, buf, (size_t)n);
        return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
    return false;
}

static bool gb_worker__send(GbWorker *w, const GbStr *frame, const int *fds, int nfds)
{
    size_t off = 0;
    if (nfds > 0) {
        struct iovec iov = {frame->data, frame->len};
        union {
            char buf[CMSG_SPACE(sizeof(int) * 4)];
            struct cmsghdr align;
        } cbuf;
        memset(&cbuf, 0, sizeof cbuf);
        struct msghdr mh = {0};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = cbuf.buf;
        mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
        memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
        ssize_t n;
        do n = sendmsg(w->ctl, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n <= 0) return false;
        off = (size_t)n;
    }
    while (off < frame->len) {
        ssize_t n = send(w->ctl, frame->data + off, frame->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += (size_t)n;
    }
    return true;
}

/* Ask the worker to kill the run in progress (and everything it started). */
static void gb_worker__send_kill(GbWorker *w)
{
    GbStr kb, kf;
    gb_str_init(&kb);
    gb_str_init(&kf);
    gb_rec_add(&kb, "op", "kill");
    gb_rec_frame(&kf, &kb);
    gb_worker__send(w, &kf, NULL, 0);
    gb_str_destroy(&kb);
    gb_str_destroy(&kf);
}

/* ------------------------------------------------------------------ files */

/* Remove a directory tree without following symlinks, restoring permissions a program may
 * have taken away (chmod 000 on a subdirectory). */
static void gb_runner__rmtree_at(int parent, const char *name)
{
    if (unlinkat(parent, name, 0) == 0 || errno == ENOENT) return;
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES) {
        fchmodat(parent, name, 0700, 0);
        fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) return;
    fchmod(fd, 0700);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    GbArray(char *) names = {0};
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        gb_array_push(&names, gb_strdup(e->d_name));
    }
    for (size_t i = 0; i < names.len; i++) {
        gb_runner__rmtree_at(dirfd(d), names.items[i]);
        free(names.items[i]);
    }
    gb_array_free(&names);
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR);
}

static void gb_runner__rmtree(const char *path)
{
    gb_runner__rmtree_at(AT_FDCWD, path);
}

static bool gb_runner__write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* A module path must stay inside the run directory: relative, no empty, "." or ".."
 * component. */
static bool gb_runner__path_ok(const char *path)
{
    if (!path || !*path || path[0] == '/') return false;
    const char *p = path;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
        if (!slash) break;
        p = slash + 1;
    }
    return strchr(path, '\\') == NULL;
}

static bool gb_runner__chown(int dirfd, const char *name, long uid)
{
    if (uid < 0) return true;
    return fchownat(dirfd, name, (uid_t)uid, (gid_t)uid, AT_SYMLINK_NOFOLLOW) == 0;
}

static bool gb_runner__write_modules(const char *dir, const GbProgram *prog, long owner, GbError *err)
{
    for (size_t i = 0; i < prog->modules.len; i++) {
        const GbFile *m = &prog->modules.items[i];
        if (!gb_runner__path_ok(m->path)) {
            gb_error_set(err, "module path '%s' is not a relative path inside the program", m->path ? m->path : "");
            return false;
        }
        char *path = gb_asprintf("%s/%s", dir, m->path);
        /* parent directories of nested modules (pkg/helper.py) */
        for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
            *s = '\0';
            if (mkdir(path, 0755) == 0) gb_runner__chown(AT_FDCWD, path, owner);
            *s = '/';
        }
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        bool ok = fd >= 0 && gb_runner__write_all(fd, m->source ? m->source : "", m->source ? strlen(m->source) : 0);
        if (ok && owner >= 0) ok = fchown(fd, (uid_t)owner, (gid_t)owner) == 0;
        if (!ok) gb_error_set(err, "cannot write module %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        free(path);
        if (!ok) return false;
    }
    return true;
}

/* ------------------------------------------------------------------ workers */

static void gb_worker__reap(GbWorker *w)
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
    gb_str_clear(&w->inbuf);
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

/* Spawn a worker and wait for its "ready". */
static bool gb_pool__start_worker(GbPool *pool, GbWorker *w, GbError *err)
{
    char *log_path = gb_asprintf("%s/worker%d.log", pool->dir, w->slot);
    char *warm = gb_asprintf("%s/warm-%d", pool->runs, w->slot);
    GbSpawnSpec spec = {
        .python = pool->python,
        .harness = pool->harness,
        .runs_dir = pool->runs,
        .home = pool->runs,
        .log_path = log_path,
        .lint = w->lint,
        .warm_dir = warm,
        .mode = pool->mode,
        .sandbox_uid = pool->uid_base + (uid_t)w->slot,
        .native = pool->native,
        .remap = pool->remap,
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
    gb_runner__rmtree(warm);
    if (w->lint) {
        if (mkdir(warm, 0700) != 0 || !gb_runner__chown(AT_FDCWD, warm, w->owner_uid)) {
            gb_error_set(err, "cannot create %s: %s", warm, strerror(errno));
            goto done;
        }
        if (pool->cfg.lint_warm && *pool->cfg.lint_warm) {
            /* the caller's warm-up program (harness.py: warm_pylint) */
            char *path = gb_asprintf("%s/warm.py", warm);
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            bool wrote = fd >= 0 && gb_runner__write_all(fd, pool->cfg.lint_warm, strlen(pool->cfg.lint_warm));
            if (fd >= 0) close(fd);
            free(path);
            if (!wrote) {
                gb_error_set(err, "cannot write the lint warm-up program in %s: %s", warm, strerror(errno));
                goto done;
            }
        }
    }
    double deadline = gb_now() + GB_START_TIMEOUT_S;
    GbStr body;
    gb_str_init(&body);
    GbRec rec = {0};
    for (;;) {
        if (gb_worker__take_frame(w, &body)) {
            gb_rec_parse(body.data, body.len, &rec);
            if (gb_rec_is(&rec, "op", "ready")) {
                ok = true;
                if (!pool->python_version) pool->python_version = gb_rec_dup(&rec, "python");
                if (!pool->remap_report) pool->remap_report = gb_rec_dup(&rec, "remap");
            } else if (gb_rec_is(&rec, "op", "error")) {
                char *module = gb_rec_dup(&rec, "module");
                char *why = gb_rec_dup(&rec, "error");
                gb_error_set(err,
                             "the interpreter %s cannot import module '%s' (%s); install the Debian package "
                             "that provides it (python3-numpy, python3-scipy, python3-sklearn, python3-dateutil, "
                             "python3-cryptography, pylint) or choose another interpreter with --python",
                             pool->python, module ? module : "?", why ? why : "?");
                free(module);
                free(why);
            } else {
                continue;
            }
            break;
        }
        double left = deadline - gb_now();
        if (left <= 0) {
            gb_error_set(err, "the worker (%s) did not start within %.0f s", pool->python, GB_START_TIMEOUT_S);
            break;
        }
        struct pollfd p = {w->ctl, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR) {
            gb_error_set(err, "poll: %s", strerror(errno));
            break;
        }
        if (r > 0 && !gb_worker__recv(w)) {
            char *tail = gb_pool__log_tail(pool, w->slot);
            gb_error_set(err, "the worker (%s %s) exited during start-up%s%s", pool->python, pool->harness,
                         *tail ? ": " : "", tail);
            free(tail);
            break;
        }
    }
    gb_array_free(&rec.fields);
    gb_str_destroy(&body);
done:
    if (ok) {
        w->alive = true;
    } else {
        gb_worker__reap(w);
    }
    free(log_path);
    free(warm);
    return ok;
}

/* ------------------------------------------------------------------ pool */

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
        gb_runner__rmtree(stale.items[i]);
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
    pool->mode = (GbSandboxMode)cfg->sandbox;
    pool->intr[0] = pool->intr[1] = -1;
    pthread_mutex_init(&pool->mu, NULL);
    /* Distinct sandbox uids per pool and worker, so concurrent genebench processes do not
     * share one RLIMIT_NPROC budget. */
    pool->uid_base = GB_SANDBOX_UID_BASE + ((uid_t)getpid() % 1000000u) * 64u;

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
    pool->harness = gb_asprintf("%s/harness.py", pool->dir);
    pool->runs = gb_asprintf("%s/runs", pool->dir);
    int fd = open(pool->harness, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || !gb_runner__write_all(fd, gb_harness_py, gb_harness_py_len) || mkdir(pool->runs, 0711) != 0 ||
        pipe2(pool->intr, O_CLOEXEC | O_NONBLOCK) != 0) {
        gb_error_set(err, "cannot set up %s: %s", pool->dir, strerror(errno));
        if (fd >= 0) close(fd);
        gb_pool_delete(pool);
        return NULL;
    }
    close(fd);
    const char *no_remap = getenv("GENEBENCH_NO_REMAP");
    pool->remap = !cfg->no_native && !cfg->no_remap && !(no_remap && *no_remap && strcmp(no_remap, "0") != 0);
    if (!cfg->no_native) {
        pool->native = gb_asprintf("%s/gbworker.so", pool->dir);
        fd = open(pool->native, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        bool wrote = fd >= 0 && gb_runner__write_all(fd, gb_worker_so, gb_worker_so_len);
        if (fd >= 0) close(fd);
        if (!wrote) {
            gb_error_set(err, "cannot write %s: %s", pool->native, strerror(errno));
            gb_pool_delete(pool);
            return NULL;
        }
    }

    long n = cfg->workers > 0 ? cfg->workers : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    long nl = !cfg->lint ? 0 : cfg->lint_workers > 0 ? cfg->lint_workers : n;
    pool->sets[0].first = 0;
    pool->sets[0].count = (size_t)n;
    pool->sets[1].first = (size_t)n;
    pool->sets[1].count = (size_t)nl;
    pool->nworkers = (size_t)(n + nl);
    pool->workers = gb_calloc(pool->nworkers, sizeof *pool->workers);
    for (int k = 0; k < 2; k++) {
        pool->sets[k].idle = gb_calloc(pool->sets[k].count + 1, sizeof *pool->sets[k].idle);
        pthread_cond_init(&pool->sets[k].cv, NULL);
    }
    for (size_t i = 0; i < pool->nworkers; i++) {
        GbWorker *w = &pool->workers[i];
        w->slot = (int)i;
        w->pid = -1;
        w->ctl = -1;
        w->lint = i >= pool->sets[1].first;
        gb_str_init(&w->inbuf);
    }
    /* The first worker settles the sandbox mode (AUTO may fall back to PLAIN); the
     * others start in that mode, concurrently. */
    if (!gb_pool__start_worker(pool, &pool->workers[0], err)) {
        gb_pool_delete(pool);
        return NULL;
    }
    pool->mode = pool->workers[0].mode;
    if (pool->mode == GB_SANDBOX_PLAIN && geteuid() != 0) pool->nproc_extra = gb_pool__count_user_processes(getuid());
    bool ok = true;
    GbError *errs = gb_calloc(pool->nworkers, sizeof *errs);
    bool *oks = gb_calloc(pool->nworkers, sizeof *oks);
#pragma omp parallel for schedule(dynamic) default(none) shared(pool, errs, oks)
    for (size_t i = 1; i < pool->nworkers; i++) oks[i] = gb_pool__start_worker(pool, &pool->workers[i], &errs[i]);
    for (size_t i = 1; i < pool->nworkers; i++) {
        if (!oks[i] && ok) {
            *err = errs[i];
            ok = false;
        }
    }
    free(errs);
    free(oks);
    if (!ok) {
        gb_pool_delete(pool);
        return NULL;
    }
    for (int k = 0; k < 2; k++) {
        GbWorkerSet *set = &pool->sets[k];
        for (size_t i = 0; i < set->count; i++) set->idle[set->nidle++] = set->first + i;
    }
    return pool;
}

void gb_pool_delete(GbPool *pool)
{
    if (!pool) return;
    /* Closing the control socket makes an idle worker exit by itself (and a busy one kill
     * its run first); SIGKILL in gb_worker__reap covers a worker that does not. */
    for (size_t i = 0; i < pool->nworkers; i++) {
        GbWorker *w = &pool->workers[i];
        if (w->ctl >= 0) close(w->ctl);
        w->ctl = -1;
    }
    for (size_t i = 0; i < pool->nworkers; i++) {
        GbWorker *w = &pool->workers[i];
        gb_worker__reap(w);
        gb_str_destroy(&w->inbuf);
    }
    if (pool->dir) gb_runner__rmtree(pool->dir);
    if (pool->intr[0] >= 0) close(pool->intr[0]);
    if (pool->intr[1] >= 0) close(pool->intr[1]);
    pthread_mutex_destroy(&pool->mu);
    for (int k = 0; k < 2; k++) {
        if (pool->sets[k].idle) pthread_cond_destroy(&pool->sets[k].cv);
        free(pool->sets[k].idle);
    }
    free(pool->workers);
    free(pool->dir);
    free(pool->harness);
    free(pool->native);
    free(pool->remap_report);
    free(pool->runs);
    free(pool->python);
    free(pool->python_version);
    free(pool->lint_warm);
    free(pool);
}

const char *gb_pool_sandbox(const GbPool *pool)
{
    return gb_sandbox_mode_name(pool->mode);
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
        if (!pool->workers[i].alive) continue;
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

/* An idle worker of the kind (lint or test), waiting for one. */
static GbWorker *gb_pool__acquire(GbPool *pool, bool lint)
{
    GbWorkerSet *set = &pool->sets[lint ? 1 : 0];
    pthread_mutex_lock(&pool->mu);
    while (set->nidle == 0) pthread_cond_wait(&set->cv, &pool->mu);
    GbWorker *w = &pool->workers[set->idle[set->head]];
    set->head = (set->head + 1) % set->count;
    set->nidle--;
    pthread_mutex_unlock(&pool->mu);
    return w;
}

static void gb_pool__release(GbPool *pool, GbWorker *w)
{
    GbWorkerSet *set = &pool->sets[w->lint ? 1 : 0];
    pthread_mutex_lock(&pool->mu);
    set->idle[(set->head + set->nidle) % set->count] = (size_t)w->slot;
    set->nidle++;
    pthread_cond_signal(&set->cv);
    pthread_mutex_unlock(&pool->mu);
}

/* A worker that died (killed from outside, or by a run) is replaced before use. */
static bool gb_pool__ensure_alive(GbPool *pool, GbWorker *w, GbError *err)
{
    if (w->alive) {
        int status;
        pid_t r = waitpid(w->pid, &status, WNOHANG);
        if (r == 0) return true;
        if (r == w->pid) w->pid = -1;
        gb_worker__reap(w);
    }
    return gb_pool__start_worker(pool, w, err);
}

/* ------------------------------------------------------------------ one run */

typedef struct {
    bool done;      /* the worker reported the end of the run */
    bool timed_out; /* our wall-clock limit hit */
    bool interrupted;
    bool worker_died; /* the worker vanished during the run */
    int exit_code;
    int signal;
    long maxrss;
    double cpu; /* user + system seconds of the run's child */
    GbStr out, err;
    size_t out_total, err_total;
    GbStr done_body;  /* the worker's "done" record */
    GbStr child_body; /* the child's own result record (inside "done") */
    GbRec done_rec, child_rec;
    double wall;
} GbRaw;

static void gb_raw_init(GbRaw *r)
{
    memset(r, 0, sizeof *r);
    gb_str_init(&r->out);
    gb_str_init(&r->err);
    gb_str_init(&r->done_body);
    gb_str_init(&r->child_body);
}

static void gb_raw_destroy(GbRaw *r)
{
    gb_str_destroy(&r->out);
    gb_str_destroy(&r->err);
    gb_str_destroy(&r->done_body);
    gb_str_destroy(&r->child_body);
    gb_array_free(&r->done_rec.fields);
    gb_array_free(&r->child_rec.fields);
}

static void gb_runner__read_capped(int *fd, GbStr *keep, size_t *total, size_t cap)
{
    char buf[65536];
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    *total += (size_t)n;
    if (keep->len < cap) {
        size_t take = (size_t)n < cap - keep->len ? (size_t)n : cap - keep->len;
        gb_str_append_n(keep, buf, take);
    }
}

typedef struct {
    const char *kind; /* assert | unittest | stdio | lint */
    const GbProgram *prog;
    const char *test_code;  /* may be NULL */
    const GbTask *task;     /* for unittest classes; may be NULL */
    const char *stdin_text; /* stdio; may be NULL */
    size_t out_cap;         /* stdout bytes to keep (stdio: enough to compare the whole output) */
} GbRunSpec;

/* The sandbox fields of a run request: resource limits (cpu_s 0: none) and the run uid. */
static void gb_pool__add_limits(const GbPool *pool, const GbWorker *w, GbStr *body, long cpu_s)
{
    const GbPoolConfig *cfg = &pool->cfg;
    long nproc = cfg->nproc;
    if (nproc > 0) {
        if (w->mode == GB_SANDBOX_USERNS) nproc += 1; /* the worker counts in its namespace */
        if (w->mode == GB_SANDBOX_PLAIN && w->run_uid < 0) nproc += pool->nproc_extra + 1;
    }
    gb_rec_addf(body, "cpu", "%ld", cpu_s);
    gb_rec_addf(body, "as", "%ld", cfg->mem_mb > 0 ? cfg->mem_mb * 1024L * 1024L : 0L);
    gb_rec_addf(body, "fsize", "%ld", cfg->fsize_mb > 0 ? cfg->fsize_mb * 1024L * 1024L : 0L);
    gb_rec_addf(body, "nofile", "%ld", cfg->nofile);
    gb_rec_addf(body, "nproc", "%ld", nproc);
    gb_rec_addf(body, "uid", "%ld", w->run_uid);
}

/* The upstream harness's execution rules (src/model/task.h): harness.py applies them in the
 * run's child (apply_harness_rules). */
static void gb_runner__add_harness_rules(GbStr *body, const GbTask *task)
{
    if (task->harness == GB_HARNESS_NONE) return;
    gb_rec_add(body, "rules", gb_harness_rules_name(task->harness));
    if (task->harness_prelude) gb_rec_add(body, "prelude", task->harness_prelude);
}

/* Run once on worker w. Returns false on an infrastructure error (err set). */
static bool gb_pool__run_once(GbPool *pool, GbWorker *w, const GbRunSpec *rs, GbRaw *raw, GbError *err)
{
    double t0 = gb_now();
    const GbPoolConfig *cfg = &pool->cfg;
    char *dir = gb_asprintf("%s/w%d-%lu", pool->runs, w->slot, ++w->serial);
    int in_fd = -1, out_p[2] = {-1, -1}, err_p[2] = {-1, -1};
    bool ok = false;
    GbStr body, frame;
    gb_str_init(&body);
    gb_str_init(&frame);
    gb_runner__rmtree(dir);
    if (mkdir(dir, 0700) != 0 || !gb_runner__chown(AT_FDCWD, dir, w->owner_uid)) {
        gb_error_set(err, "cannot create run directory %s: %s", dir, strerror(errno));
        goto done;
    }
    if (!gb_runner__write_modules(dir, rs->prog, w->owner_uid, err)) goto done;
    if (rs->stdin_text && *rs->stdin_text) {
        in_fd = memfd_create("gb-stdin", MFD_CLOEXEC);
        if (in_fd < 0 || !gb_runner__write_all(in_fd, rs->stdin_text, strlen(rs->stdin_text)) ||
            lseek(in_fd, 0, SEEK_SET) != 0) {
            gb_error_set(err, "cannot prepare stdin: %s", strerror(errno));
            goto done;
        }
    } else {
        in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    if (in_fd < 0 || pipe2(out_p, O_CLOEXEC) != 0 || pipe2(err_p, O_CLOEXEC) != 0) {
        gb_error_set(err, "cannot create pipes: %s", strerror(errno));
        goto done;
    }
    fcntl(out_p[0], F_SETFL, O_NONBLOCK);
    fcntl(err_p[0], F_SETFL, O_NONBLOCK);

    gb_rec_add(&body, "op", "run");
    gb_rec_add(&body, "kind", rs->kind);
    gb_rec_add(&body, "dir", dir);
    if (rs->test_code) gb_rec_add(&body, "test", rs->test_code);
    if (rs->task && strcmp(rs->kind, "unittest") == 0) {
        GbStr classes;
        gb_str_init(&classes);
        for (size_t i = 0; i < rs->task->test_classes.len; i++)
            gb_str_appendf(&classes, "%s\n", rs->task->test_classes.items[i]);
        gb_rec_add(&body, "classes", classes.data ? classes.data : "");
        gb_str_destroy(&classes);
    }
    if (rs->task) gb_runner__add_harness_rules(&body, rs->task);
    if (strcmp(rs->kind, "lint") == 0) {
        GbStr mods;
        gb_str_init(&mods);
        for (size_t i = 0; i < rs->prog->modules.len; i++)
            gb_str_appendf(&mods, "%s\n", rs->prog->modules.items[i].path);
        gb_rec_add(&body, "modules", mods.data ? mods.data : "");
        gb_str_destroy(&mods);
    }
    gb_pool__add_limits(pool, w, &body, (long)ceil(cfg->cpu_s));
    gb_rec_frame(&frame, &body);

    int fds[3] = {in_fd, out_p[1], err_p[1]};
    double t_sent = gb_now();
    if (!gb_worker__send(w, &frame, fds, 3)) {
        raw->worker_died = true;
        ok = true;
        goto done;
    }
    close(in_fd);
    in_fd = -1;
    close(out_p[1]);
    out_p[1] = -1;
    close(err_p[1]);
    err_p[1] = -1;

    double deadline = t_sent + cfg->timeout_s;
    double hard = 0, drain_until = 0, t_done = 0;
    bool kill_sent = false;
    for (;;) {
        if (raw->done && out_p[0] < 0 && err_p[0] < 0) break;
        double now = gb_now();
        if (!raw->done && !kill_sent && now >= deadline) {
            raw->timed_out = true;
        }
        if (!raw->done && !kill_sent && (raw->timed_out || raw->interrupted)) {
            gb_worker__send_kill(w);
            kill_sent = true;
            hard = now + GB_KILL_GRACE_S;
        }
        if (!raw->done && kill_sent && now >= hard) {
            /* The worker does not answer: kill it (its pid namespace and every process of
             * the run die with it); it is replaced before the next run. */
            gb_worker__reap(w);
            raw->worker_died = true;
            break;
        }
        if (raw->done && now >= drain_until) break;
        double until = raw->done ? drain_until : (kill_sent ? hard : deadline);
        int ms = (int)((until - now) * 1000.0) + 1;
        struct pollfd p[4] = {{w->ctl, POLLIN, 0},
                              {out_p[0], POLLIN, 0},
                              {err_p[0], POLLIN, 0},
                              {raw->interrupted ? -1 : pool->intr[0], POLLIN, 0}};
        if (raw->done) p[0].fd = -1;
        int r = poll(p, 4, ms);
        if (r < 0 && errno != EINTR) {
            gb_error_set(err, "poll: %s", strerror(errno));
            goto done;
        }
        if (r <= 0) continue;
        if (p[3].revents) raw->interrupted = true;
        if (p[1].revents) gb_runner__read_capped(&out_p[0], &raw->out, &raw->out_total, rs->out_cap);
        if (p[2].revents) gb_runner__read_capped(&err_p[0], &raw->err, &raw->err_total, cfg->output_cap);
        if (p[0].revents) {
            if (!gb_worker__recv(w)) {
                gb_worker__reap(w);
                raw->worker_died = true;
                /* the run's processes died with the worker (namespaces) or were orphaned to
                 * their PDEATHSIG (plain); stop reading their output soon */
                raw->done = false;
                drain_until = gb_now() + 0.2;
                while (out_p[0] >= 0 || err_p[0] >= 0) {
                    struct pollfd q[2] = {{out_p[0], POLLIN, 0}, {err_p[0], POLLIN, 0}};
                    int left = (int)((drain_until - gb_now()) * 1000.0);
                    if (left <= 0 || poll(q, 2, left) <= 0) break;
                    if (q[0].revents) gb_runner__read_capped(&out_p[0], &raw->out, &raw->out_total, rs->out_cap);
                    if (q[1].revents) gb_runner__read_capped(&err_p[0], &raw->err, &raw->err_total, cfg->output_cap);
                }
                break;
            }
            while (gb_worker__take_frame(w, &raw->done_body)) {
                gb_rec_parse(raw->done_body.data, raw->done_body.len, &raw->done_rec);
                if (gb_rec_is(&raw->done_rec, "op", "done")) {
                    raw->done = true;
                    t_done = gb_now();
                    drain_until = t_done + GB_DRAIN_GRACE_S;
                    break;
                }
            }
        }
    }
    double t_end_io = gb_now();
    raw->wall = t_end_io - t_sent;
    if (raw->done) {
        raw->exit_code = (int)gb_rec_long(&raw->done_rec, "exit", -1);
        raw->signal = (int)gb_rec_long(&raw->done_rec, "signal", 0);
        raw->maxrss = gb_rec_long(&raw->done_rec, "maxrss", 0);
        raw->cpu = gb_rec_double(&raw->done_rec, "cpu", 0.0);
        const GbRecField *res = gb_rec_find(&raw->done_rec, "result");
        /* the child's record is a whole frame: u32 length, then the body */
        if (res && res->vlen >= 4 && gb_rec__get_u32(res->val) == res->vlen - 4) {
            gb_str_append_n(&raw->child_body, res->val + 4, res->vlen - 4);
            if (!gb_rec_parse(raw->child_body.data ? raw->child_body.data : "", raw->child_body.len, &raw->child_rec))
                raw->child_rec.fields.len = 0;
        }
    }
    ok = true;
    gb_runner__rmtree(dir);
    if (raw->done) {
        double fork0 = gb_rec_double(&raw->done_rec, "t_fork0", t_sent);
        double fork1 = gb_rec_double(&raw->done_rec, "t_fork1", fork0);
        double texit = gb_rec_double(&raw->done_rec, "t_exit", fork1);
        double reaped = gb_rec_double(&raw->done_rec, "t_reaped", texit);
        double cstart = gb_rec_double(&raw->child_rec, "t_start", fork1);
        double cend = gb_rec_double(&raw->child_rec, "t_end", cstart);
        double t_end = gb_now();
        pthread_mutex_lock(&pool->mu);
        GbPoolStats *s = &pool->stats;
        s->runs++;
        s->prepare_s += t_sent - t0;
        s->dispatch_s += fork0 - t_sent;
        s->fork_s += fork1 - fork0;
        s->start_s += cstart - fork1;
        s->run_s += cend - cstart;
        s->exit_s += texit - cend;
        s->reap_s += reaped - texit;
        s->report_s += t_done - reaped;
        s->teardown_s += t_end - t_done;
        s->total_s += t_end - t0;
        s->child_faults += (double)gb_rec_long(&raw->done_rec, "child_faults", 0);
        s->worker_faults += (double)gb_rec_long(&raw->done_rec, "worker_faults", 0);
        pthread_mutex_unlock(&pool->mu);
    }
done:
    if (!ok) gb_runner__rmtree(dir);
    if (in_fd >= 0) close(in_fd);
    for (int i = 0; i < 2; i++) {
        if (out_p[i] >= 0) close(out_p[i]);
        if (err_p[i] >= 0) close(err_p[i]);
    }
    gb_str_destroy(&body);
    gb_str_destroy(&frame);
    free(dir);
    return ok;
}

/* Acquire a worker, run, and retry once on a fresh worker process in the same slot when the
 * worker died under a run that was neither timed out nor interrupted (e.g. killed from
 * outside); a program that kills its worker twice is reported as a crash. */
static bool gb_pool__run(GbPool *pool, const GbRunSpec *rs, GbRaw *raw, GbError *err)
{
    if (atomic_load(&pool->interrupted)) {
        raw->interrupted = true;
        return true;
    }
    GbWorker *w = gb_pool__acquire(pool, strcmp(rs->kind, "lint") == 0);
    bool ok = true;
    for (int attempt = 0; attempt < 2; attempt++) {
        ok = gb_pool__ensure_alive(pool, w, err);
        if (!ok) break;
        gb_raw_destroy(raw);
        gb_raw_init(raw);
        ok = gb_pool__run_once(pool, w, rs, raw, err);
        if (!ok || !raw->worker_died || raw->timed_out || raw->interrupted) break;
    }
    gb_pool__release(pool, w);
    return ok;
}

/* ------------------------------------------------------------------ result mapping */

static char *gb_runner__take_str(GbStr *s)
{
    return gb_str_take(s);
}

/* Fill out from one raw run (status, exception, outputs). */
static void gb_runner__map(const GbPool *pool, GbRaw *raw, GbRunResult *out)
{
    const GbRec *c = &raw->child_rec;
    out->wall_s = raw->wall;
    out->peak_rss_kb = raw->maxrss;
    free(out->out);
    free(out->err);
    out->out = gb_runner__take_str(&raw->out);
    out->err = gb_runner__take_str(&raw->err);
    out->signal = raw->signal;
    if (raw->interrupted) {
        out->status = GB_RUN_ERROR;
        out->exc_message = gb_strdup("interrupted");
        return;
    }
    if (raw->timed_out) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("wall-clock limit of %g s exceeded", pool->cfg.timeout_s);
        return;
    }
    if (raw->worker_died) {
        out->status = GB_RUN_CRASH;
        out->exc_message = gb_strdup("the worker process died during the run (the program killed it, or it was "
                                     "killed from outside twice)");
        return;
    }
    if (raw->signal == SIGXCPU || (raw->signal == SIGKILL && raw->cpu + 0.05 >= pool->cfg.cpu_s)) {
        out->status = GB_RUN_TIMEOUT;
        out->exc_type = gb_strdup("Timeout");
        out->exc_message = gb_asprintf("CPU limit of %g s exceeded", pool->cfg.cpu_s);
        return;
    }
    if (raw->signal != 0 && !gb_rec_find(c, "outcome")) {
        out->status = GB_RUN_CRASH;
        out->exc_type = gb_strdup("Signal");
        out->exc_message = gb_asprintf("killed by signal %d (%s)", raw->signal, strsignal(raw->signal));
        return;
    }
    if (!gb_rec_find(c, "outcome")) {
        out->status = GB_RUN_FAIL;
        out->exc_type = gb_strdup("ProcessExit");
        out->exc_message = gb_asprintf("the process ended (exit status %d) before the tests finished", raw->exit_code);
        return;
    }
    out->exc_type = gb_rec_dup(c, "exc_type");
    out->exc_message = gb_rec_dup(c, "exc_message");
    out->failed_test = gb_rec_dup(c, "failed_test");
    if (out->exc_type && !*out->exc_type) {
        free(out->exc_type);
        out->exc_type = NULL;
    }
    if (out->failed_test && !*out->failed_test) {
        free(out->failed_test);
        out->failed_test = NULL;
    }
    if (gb_rec_is(c, "outcome", "pass")) {
        out->status = GB_RUN_PASS;
    } else if (gb_rec_is(c, "outcome", "fail")) {
        out->status = GB_RUN_FAIL;
        char *list = gb_rec_dup(c, "failed_tests");
        if (list) {
            char *save = NULL;
            for (char *t = strtok_r(list, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
                gb_array_push(&out->failed_tests, gb_strdup(t));
            free(list);
        }
    } else {
        out->status = GB_RUN_ERROR;
        if (!out->exc_message) out->exc_message = gb_strdup("the harness reported an error");
    }
    out->tests_run = (int)gb_rec_long(c, "tests_run", out->status == GB_RUN_PASS || out->status == GB_RUN_FAIL ? 1 : 0);
}

static void gb_runner__fail_stderr(GbRunResult *out)
{
    if (out->status != GB_RUN_PASS || !out->err || !*out->err) return;
    out->status = GB_RUN_FAIL;
    free(out->exc_type);
    free(out->exc_message);
    out->exc_type = gb_strdup("StderrOutput");
    size_t n = strlen(out->err);
    out->exc_message = gb_asprintf("output on stderr: %.200s%s", out->err, n > 200 ? "..." : "");
}

static void gb_runner__clear_outcome(GbRunResult *r)
{
    free(r->failed_test);
    free(r->exc_type);
    free(r->exc_message);
    r->failed_test = r->exc_type = r->exc_message = NULL;
}

static char *gb_runner__excerpt(const char *s)
{
    size_t n = strlen(s);
    GbStr o;
    gb_str_init(&o);
    gb_str_append(&o, "'");
    for (size_t i = 0; i < n && i < 120; i++) {
        if (s[i] == '\n')
            gb_str_append(&o, "\\n");
        else
            gb_str_append_n(&o, s + i, 1);
    }
    gb_str_append(&o, n > 120 ? "...'" : "'");
    return gb_str_take(&o);
}

bool gb_pool_run(GbPool *pool, const GbTask *task, const GbProgram *prog, GbRunResult *out, GbError *err)
{
    gb_run_result_init(out);
    out->out = gb_strdup("");
    out->err = gb_strdup("");
    GbProgram own;
    bool own_used = false;
    if (!prog) {
        gb_program_from_task(&own, task);
        prog = &own;
        own_used = true;
    }
    bool ok = true;
    GbRaw raw;
    gb_raw_init(&raw);
    if (task->kind == GB_TESTS_STDIO) {
        out->status = GB_RUN_PASS;
        bool have_failure = false;
        for (size_t k = 0; k < task->cases.len; k++) {
            const GbStdioCase *cs = &task->cases.items[k];
            /* keep enough stdout to compare it whole: a longer output is wrong anyway once
             * it exceeds twice the expected size plus slack for whitespace */
            size_t want = cs->stdout_text ? strlen(cs->stdout_text) : 0;
            size_t cap = pool->cfg.output_cap > 2 * want + 4096 ? pool->cfg.output_cap : 2 * want + 4096;
            GbRunSpec rs = {"stdio", prog, NULL, task, cs->stdin_text, cap};
            if (!gb_pool__run(pool, &rs, &raw, err)) {
                ok = false;
                out->status = GB_RUN_ERROR;
                break;
            }
            GbRunResult one;
            gb_run_result_init(&one);
            gb_runner__map(pool, &raw, &one);
            if (one.status == GB_RUN_PASS &&
                !gb_stdio_output_matches(one.out, cs->stdout_text ? cs->stdout_text : "")) {
                one.status = GB_RUN_FAIL;
                char *got = gb_runner__excerpt(one.out),
                     *want = gb_runner__excerpt(cs->stdout_text ? cs->stdout_text : "");
                one.exc_type = gb_strdup("WrongOutput");
                one.exc_message = gb_asprintf("expected %s, got %s", want, got);
                free(got);
                free(want);
            }
            if (pool->cfg.stderr_fails) gb_runner__fail_stderr(&one);
            out->tests_run++;
            out->wall_s += one.wall_s;
            if (one.peak_rss_kb > out->peak_rss_kb) out->peak_rss_kb = one.peak_rss_kb;
            bool last = k + 1 == task->cases.len;
            if (one.status != GB_RUN_PASS) {
                gb_array_push(&out->failed_tests, gb_asprintf("%zu", k));
            }
            if (one.status != GB_RUN_PASS && !have_failure) {
                have_failure = true;
                gb_runner__clear_outcome(out);
                out->status = one.status;
                out->signal = one.signal;
                out->failed_test = gb_asprintf("case %zu", k);
                out->exc_type = one.exc_type;
                out->exc_message = one.exc_message;
                one.exc_type = one.exc_message = NULL;
                free(out->out);
                free(out->err);
                out->out = one.out;
                out->err = one.err;
                one.out = one.err = NULL;
            } else if (!have_failure && last) {
                free(out->out);
                free(out->err);
                out->out = one.out;
                out->err = one.err;
                one.out = one.err = NULL;
            }
            bool stop = one.status == GB_RUN_TIMEOUT || one.status == GB_RUN_CRASH || one.status == GB_RUN_ERROR;
            gb_run_result_destroy(&one);
            if (stop) break;
        }
        if (ok && task->cases.len == 0) {
            out->status = GB_RUN_FAIL;
            out->exc_message = gb_strdup("the task has no stdio cases");
        }
    } else {
        const char *kind = task->kind == GB_TESTS_UNITTEST ? "unittest" : "assert";
        GbRunSpec rs = {kind, prog, task->test_code ? task->test_code : "", task, NULL, pool->cfg.output_cap};
        if (!gb_pool__run(pool, &rs, &raw, err)) {
            ok = false;
        } else {
            gb_runner__map(pool, &raw, out);
            if (pool->cfg.stderr_fails) gb_runner__fail_stderr(out);
        }
    }
    if (ok && out->status == GB_RUN_ERROR && raw.interrupted) {
        gb_error_set(err, "task %s: interrupted", task->id ? task->id : "?");
        ok = false;
    }
    if (!ok) out->status = GB_RUN_ERROR;
    gb_raw_destroy(&raw);
    if (own_used) gb_program_destroy(&own);
    return ok;
}

bool gb_pool_lint(GbPool *pool, const GbProgram *prog, double *score, GbError *err)
{
    *score = 0.0;
    if (!pool->cfg.lint) {
        gb_error_set(err, "the pool was started without lint support (GbPoolConfig.lint)");
        return false;
    }
    GbRaw raw;
    gb_raw_init(&raw);
    GbRunSpec rs = {"lint", prog, NULL, NULL, NULL, pool->cfg.output_cap};
    bool ok = gb_pool__run(pool, &rs, &raw, err);
    if (ok) {
        if (raw.interrupted) {
            gb_error_set(err, "lint: interrupted");
            ok = false;
        } else if (raw.timed_out) {
            gb_error_set(err, "lint: pylint took longer than %g s", pool->cfg.timeout_s);
            ok = false;
        } else if (!gb_rec_is(&raw.child_rec, "outcome", "pass")) {
            char *type = gb_rec_dup(&raw.child_rec, "exc_type");
            char *msg = gb_rec_dup(&raw.child_rec, "exc_message");
            gb_error_set(err, "lint: pylint failed: %s%s%s (signal %d)", type ? type : "", type ? ": " : "",
                         msg ? msg : "no result", raw.signal);
            free(type);
            free(msg);
            ok = false;
        } else {
            *score = gb_rec_double(&raw.child_rec, "score", 0.0);
        }
    }
    gb_raw_destroy(&raw);
    return ok;
}

/* ------------------------------------------------------------------ lint sessions */

struct GbLintSession {
    GbPool *pool;
    GbWorker *w;  /* the lint worker held, NULL before the first lint */
    int sock;     /* our end of the session process's socket; -1: no session process */
    char *dir;    /* the session's run directory (each lint in a subdirectory) */
    bool ended;   /* the worker reported the session process's end ("done") */
    unsigned long lints;
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

/* End the session process: close its socket (it exits at EOF) or, with kill, have the
 * worker kill it; wait for the worker's "done", else kill the worker (it is replaced
 * before its next use). Removes the session directory. */
static void gb_lint_session__end(GbLintSession *s, bool kill_it)
{
    if (s->sock >= 0) {
        close(s->sock);
        s->sock = -1;
        GbWorker *w = s->w;
        if (w->alive && kill_it && !s->ended) gb_worker__send_kill(w);
        double hard = gb_now() + GB_KILL_GRACE_S;
        bool done = s->ended, kill_sent = kill_it;
        GbStr body;
        gb_str_init(&body);
        GbRec rec = {0};
        while (w->alive && !done) {
            while (!done && gb_worker__take_frame(w, &body)) {
                gb_rec_parse(body.data, body.len, &rec);
                done = gb_rec_is(&rec, "op", "done");
            }
            if (done) break;
            double now = gb_now();
            if (now >= hard) {
                if (kill_sent) {
                    gb_worker__reap(w);
                    break;
                }
                gb_worker__send_kill(w);
                kill_sent = true;
                hard = now + GB_KILL_GRACE_S;
            }
            struct pollfd p = {w->ctl, POLLIN, 0};
            int r = poll(&p, 1, (int)((hard - now) * 1000.0) + 1);
            if (r > 0 && !gb_worker__recv(w)) gb_worker__reap(w);
        }
        gb_array_free(&rec.fields);
        gb_str_destroy(&body);
    }
    if (s->dir) {
        gb_runner__rmtree(s->dir);
        free(s->dir);
        s->dir = NULL;
    }
    gb_str_clear(&s->in);
}

/* Start the session process on the held worker. */
static bool gb_lint_session__start(GbLintSession *s, GbError *err)
{
    GbPool *pool = s->pool;
    if (!s->w) s->w = gb_pool__acquire(pool, true);
    GbWorker *w = s->w;
    if (!gb_pool__ensure_alive(pool, w, err)) return false;
    s->dir = gb_asprintf("%s/w%d-%lu", pool->runs, w->slot, ++w->serial);
    gb_runner__rmtree(s->dir);
    if (mkdir(s->dir, 0700) != 0 || !gb_runner__chown(AT_FDCWD, s->dir, w->owner_uid)) {
        gb_error_set(err, "cannot create run directory %s: %s", s->dir, strerror(errno));
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
    gb_pool__add_limits(pool, w, &body, 0); /* a session lives for many lints: each has the wall limit */
    gb_rec_frame(&frame, &body);
    int fds[3] = {sp[1], devnull, devnull};
    bool ok = gb_worker__send(w, &frame, fds, 3);
    close(sp[1]);
    close(devnull);
    gb_str_destroy(&body);
    gb_str_destroy(&frame);
    if (!ok) {
        close(sp[0]);
        gb_worker__reap(w);
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
        gb_lint_session__end(s, true);
        return false;
    }
    GbWorker *w = s->w;
    char sub[32];
    snprintf(sub, sizeof sub, "l%lu", ++s->lints);
    char *dir = gb_asprintf("%s/%s", s->dir, sub);
    bool ok = false, broken = false;
    GbStr body, frame, mods, reply;
    gb_str_init(&body);
    gb_str_init(&frame);
    gb_str_init(&mods);
    gb_str_init(&reply);
    GbRec rec = {0}, wrec = {0};
    if (mkdir(dir, 0700) != 0 || !gb_runner__chown(AT_FDCWD, dir, w->owner_uid)) {
        gb_error_set(err, "cannot create run directory %s: %s", dir, strerror(errno));
        goto done;
    }
    if (!gb_runner__write_modules(dir, prog, w->owner_uid, err)) goto done;
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
        if (gb_runner__take_frame(&s->in, &reply)) break;
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
            bool gone = !gb_worker__recv(w);
            GbStr wb;
            gb_str_init(&wb);
            while (!gone && gb_worker__take_frame(w, &wb)) {
                gb_rec_parse(wb.data, wb.len, &wrec);
                if (gb_rec_is(&wrec, "op", "done")) gone = s->ended = true;
            }
            gb_str_destroy(&wb);
            if (gone) {
                /* read a reply that may have been sent just before the end */
                char buf[65536];
                ssize_t n;
                while ((n = recv(s->sock, buf, sizeof buf, MSG_DONTWAIT)) > 0) gb_str_append_n(&s->in, buf, (size_t)n);
                if (gb_runner__take_frame(&s->in, &reply)) {
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
                if (gb_runner__take_frame(&s->in, &reply)) break;
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
    gb_runner__rmtree(dir);
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
    if (s->w) gb_pool__release(s->pool, s->w);
    gb_str_destroy(&s->in);
    free(s);
}
