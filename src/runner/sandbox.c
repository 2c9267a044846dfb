#include "src/runner/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/securebits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the clone child failed, reported to the parent through a CLOEXEC pipe. */
enum { GB_STAGE_SYNC = 1, GB_STAGE_MOUNT, GB_STAGE_CAPS, GB_STAGE_FDS, GB_STAGE_EXEC };

typedef struct {
    const GbSpawnSpec *spec;
    int flags; /* CLONE_NEW* flags */
    bool userns;
    int ctl;    /* worker's end of the control socket */
    int sync_r; /* userns: the parent writes one byte once the id maps are set */
    int err_w;  /* CLOEXEC: closed by a successful exec, else gets {stage, errno} */
    int log_fd;
    int devnull;
    char **argv;
    char **envp;
} GbSpawnCtx;

const char *gb_sandbox_mode_name(GbSandboxMode mode)
{
    switch (mode) {
    case GB_SANDBOX_AUTO:
        return "auto";
    case GB_SANDBOX_NAMESPACES:
        return "namespaces";
    case GB_SANDBOX_USERNS:
        return "userns";
    case GB_SANDBOX_PLAIN:
        return "plain";
    }
    return "?";
}

/* Only async-signal-safe calls from here to execve: the parent may be multi-threaded. */
static _Noreturn void gb_sandbox__fail(const GbSpawnCtx *c, int stage)
{
    int report[2] = {stage, errno};
    ssize_t n = write(c->err_w, report, sizeof report);
    (void)n;
    _exit(127);
}

/* Read-only file system except the run directories (and /dev/shm for POSIX semaphores).
 * The recursive private remount comes first so nothing propagates back to the host. */
static int gb_sandbox__mounts(const GbSpawnCtx *c)
{
    const char *runs = c->spec->runs_dir;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    if (mount(runs, runs, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) != 0) return -1;
    struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
    if (syscall(SYS_mount_setattr, AT_FDCWD, runs, AT_RECURSIVE, &rw, sizeof rw) != 0) return -1;
    (void)syscall(SYS_mount_setattr, AT_FDCWD, "/dev/shm", 0, &rw, sizeof rw);
    return 0;
}

static int gb_sandbox__child(void *arg)
{
    const GbSpawnCtx *c = arg;
    /* No PR_SET_PDEATHSIG: it fires when the *thread* that spawned us exits, and workers
     * are spawned from OpenMP threads. The worker exits when its control socket reaches
     * EOF instead, which also happens when genebench dies.
     * Own session and process group: a run that signals its worker's group can never
     * reach genebench, and a terminal's Ctrl-C goes to genebench only. */
    (void)setsid();
    if (c->userns) {
        char b;
        if (read(c->sync_r, &b, 1) != 1) gb_sandbox__fail(c, GB_STAGE_SYNC);
        /* Become the namespace's root, i.e. the mapped outer uid: a process cloned by
         * real root keeps kuid 0 until it changes its ids.
         * Raw syscalls: glibc's setresuid() in a process it believes multi-threaded
         * signals every other thread and waits for them, and we are a clone of one. */
        if (syscall(SYS_setresgid, 0, 0, 0) != 0 || syscall(SYS_setresuid, 0, 0, 0) != 0)
            gb_sandbox__fail(c, GB_STAGE_SYNC);
    }
    if ((c->flags & CLONE_NEWNS) && gb_sandbox__mounts(c) != 0) gb_sandbox__fail(c, GB_STAGE_MOUNT);
    if (c->userns) {
        /* Root of the user namespace, but without capabilities after execve: the runs
         * must not be able to undo the read-only mounts. */
        int bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                   SECBIT_KEEP_CAPS_LOCKED;
        if (prctl(PR_SET_SECUREBITS, bits) != 0) gb_sandbox__fail(c, GB_STAGE_CAPS);
        for (int cap = 0; cap < 64; cap++) (void)prctl(PR_CAPBSET_DROP, cap);
    }
    (void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    /* Move the descriptors out of the way, then into place: 0,1 /dev/null, 2 log, 3 ctl,
     * 4 the exec-error pipe (CLOEXEC). */
    int ctl = fcntl(c->ctl, F_DUPFD, 10);
    int err_w = fcntl(c->err_w, F_DUPFD, 10);
    int log_fd = fcntl(c->log_fd, F_DUPFD, 10);
    int devnull = fcntl(c->devnull, F_DUPFD, 10);
    if (ctl < 0 || err_w < 0 || log_fd < 0 || devnull < 0) gb_sandbox__fail(c, GB_STAGE_FDS);
    if (dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(log_fd, 2) < 0 || dup2(ctl, 3) < 0 || dup2(err_w, 4) < 0 ||
        fcntl(4, F_SETFD, FD_CLOEXEC) != 0) {
        GbSpawnCtx tmp = *c;
        tmp.err_w = err_w;
        gb_sandbox__fail(&tmp, GB_STAGE_FDS);
    }
    if (syscall(SYS_close_range, 5U, ~0U, 0U) != 0) {
        for (int fd = 5; fd < 65536; fd++) close(fd);
    }
    /* The CLI blocks SIGINT/SIGTERM in its threads (one thread takes them); the worker must
     * start with none blocked, so a run can be interrupted like any Python program. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(c->spec->python, c->argv, c->envp);
    GbSpawnCtx tmp = *c;
    tmp.err_w = 4;
    gb_sandbox__fail(&tmp, GB_STAGE_EXEC);
}

static bool gb_sandbox__write_proc(pid_t pid, const char *file, const char *text)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok;
}

static void gb_sandbox__close(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static const char *gb_sandbox__stage_name(int stage)
{
    switch (stage) {
    case GB_STAGE_SYNC:
        return "waiting for the id maps";
    case GB_STAGE_MOUNT:
        return "making the file system read-only";
    case GB_STAGE_CAPS:
        return "dropping capabilities";
    case GB_STAGE_FDS:
        return "setting up descriptors";
    case GB_STAGE_EXEC:
        return "exec";
    }
    return "?";
}

/* One attempt in one mode. *unavailable is set when the mode is not possible here (so
 * AUTO may fall back), as opposed to an error that no mode would fix. */
static bool gb_sandbox__spawn_mode(const GbSpawnSpec *spec, GbSandboxMode mode, GbWorkerProc *out, bool *unavailable,
                                   GbError *err)
{
    *unavailable = false;
    bool root = geteuid() == 0;
    GbSpawnCtx c = {.spec = spec, .ctl = -1, .sync_r = -1, .err_w = -1, .log_fd = -1, .devnull = -1};
    int sv[2] = {-1, -1}, errp[2] = {-1, -1}, sync[2] = {-1, -1};
    if (mode == GB_SANDBOX_NAMESPACES) c.flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS;
    if (mode == GB_SANDBOX_USERNS) c.flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS;
    c.userns = mode == GB_SANDBOX_USERNS;

    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)spec->python;
    argv[argc++] = "-s";
    argv[argc++] = "-B";
    argv[argc++] = (char *)spec->harness;
    argv[argc++] = "3";
    if (spec->lint) {
        argv[argc++] = "--lint";
        argv[argc++] = "--warm-dir";
        argv[argc++] = (char *)spec->warm_dir;
    }
    if (mode == GB_SANDBOX_PLAIN) argv[argc++] = "--seccomp";
    if (spec->native) {
        argv[argc++] = "--native";
        argv[argc++] = (char *)spec->native;
        if (spec->remap) argv[argc++] = "--remap";
    }
    argv[argc] = NULL;
    char *home = gb_asprintf("HOME=%s", spec->home);
    char *tmpdir = gb_asprintf("TMPDIR=%s", spec->home);
    /* A fixed, minimal environment: no PYTHONPATH or user site from the caller, one BLAS
     * thread (a worker must be single-threaded to fork safely), a fixed hash seed so set
     * iteration order (and so program output) is reproducible. */
    char *envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PYTHONHASHSEED=0",
                    "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1", "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1",
                    "MKL_NUM_THREADS=1", "NUMEXPR_NUM_THREADS=1", "MPLBACKEND=Agg",
                    /* glibc malloc keeps the heap contiguous, so more of it becomes huge pages
                     * (MADV_COLLAPSE in the harness) and fork/exit get cheaper: measured
                     * fork+exit 4.9 -> 4.1 ms, bench_runner +10% validations/s. */
                    "PYTHONMALLOC=malloc", home, tmpdir, NULL};
    c.argv = argv;
    c.envp = envp;

    bool ok = false;
    pid_t pid = -1;
    char *stack = NULL;
    const size_t stack_size = 256 * 1024;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
        (c.userns && pipe2(sync, O_CLOEXEC) != 0)) {
        gb_error_set(err, "cannot create worker channels: %s", strerror(errno));
        goto done;
    }
    c.log_fd = open(spec->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    c.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (c.log_fd < 0 || c.devnull < 0) {
        gb_error_set(err, "cannot open %s: %s", c.log_fd < 0 ? spec->log_path : "/dev/null", strerror(errno));
        goto done;
    }
    c.ctl = sv[1];
    c.err_w = errp[1];
    c.sync_r = sync[0];
    stack = gb_malloc(stack_size);
    pid = clone(gb_sandbox__child, stack + stack_size, c.flags | SIGCHLD, &c);
    if (pid < 0) {
        *unavailable = c.flags != 0;
        gb_error_set(err, "cannot start a worker in %s mode: clone: %s", gb_sandbox_mode_name(mode), strerror(errno));
        goto done;
    }
    gb_sandbox__close(&sv[1]);
    gb_sandbox__close(&errp[1]);
    gb_sandbox__close(&sync[0]);
    if (c.userns) {
        unsigned outer_uid = root ? (unsigned)spec->sandbox_uid : (unsigned)getuid();
        unsigned outer_gid = root ? (unsigned)spec->sandbox_uid : (unsigned)getgid();
        char map[64];
        bool mapped = gb_sandbox__write_proc(pid, "setgroups", "deny");
        snprintf(map, sizeof map, "0 %u 1\n", outer_uid);
        mapped = mapped && gb_sandbox__write_proc(pid, "uid_map", map);
        snprintf(map, sizeof map, "0 %u 1\n", outer_gid);
        mapped = mapped && gb_sandbox__write_proc(pid, "gid_map", map);
        if (!mapped) {
            *unavailable = true;
            gb_error_set(err, "cannot map ids of the worker's user namespace: %s", strerror(errno));
            goto done;
        }
        if (write(sync[1], "x", 1) != 1) {
            gb_error_set(err, "cannot release the worker: %s", strerror(errno));
            goto done;
        }
        gb_sandbox__close(&sync[1]);
    }
    int report[2];
    ssize_t n;
    do n = read(errp[0], report, sizeof report);
    while (n < 0 && errno == EINTR);
    if (n != 0) {
        if (n == (ssize_t)sizeof report && report[0] == GB_STAGE_EXEC) {
            gb_error_set(err, "cannot execute the interpreter %s: %s", spec->python, strerror(report[1]));
        } else if (n == (ssize_t)sizeof report) {
            *unavailable = true;
            gb_error_set(err, "worker set-up failed in %s mode while %s: %s", gb_sandbox_mode_name(mode),
                         gb_sandbox__stage_name(report[0]), strerror(report[1]));
        } else {
            gb_error_set(err, "worker set-up failed in %s mode", gb_sandbox_mode_name(mode));
        }
        goto done;
    }
    out->pid = pid;
    out->ctl = sv[0];
    sv[0] = -1;
    out->mode = mode;
    out->run_uid = -1;
    out->owner_uid = -1;
    if (root && mode != GB_SANDBOX_USERNS) {
        out->run_uid = (long)spec->sandbox_uid;
        out->owner_uid = (long)spec->sandbox_uid;
    } else if (root && mode == GB_SANDBOX_USERNS) {
        out->owner_uid = (long)spec->sandbox_uid;
    }
    ok = true;
done:
    if (!ok && pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    free(stack);
    gb_sandbox__close(&sv[0]);
    gb_sandbox__close(&sv[1]);
    gb_sandbox__close(&errp[0]);
    gb_sandbox__close(&errp[1]);
    gb_sandbox__close(&sync[0]);
    gb_sandbox__close(&sync[1]);
    gb_sandbox__close(&c.log_fd);
    gb_sandbox__close(&c.devnull);
    free(home);
    free(tmpdir);
    return ok;
}

bool gb_sandbox_spawn(const GbSpawnSpec *spec, GbWorkerProc *out, GbError *err)
{
    GbSandboxMode modes[3];
    int n = 0;
    if (spec->mode == GB_SANDBOX_AUTO) {
        /* root without CAP_SYS_ADMIN (a container) may still create user namespaces */
        if (geteuid() == 0) modes[n++] = GB_SANDBOX_NAMESPACES;
        modes[n++] = GB_SANDBOX_USERNS;
        modes[n++] = GB_SANDBOX_PLAIN;
    } else {
        modes[n++] = spec->mode;
    }
    for (int i = 0; i < n; i++) {
        bool unavailable = false;
        if (gb_sandbox__spawn_mode(spec, modes[i], out, &unavailable, err)) return true;
        if (!unavailable) return false;
    }
    return false;
}
