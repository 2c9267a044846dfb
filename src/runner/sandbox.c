#include "src/runner/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the clone child failed, reported to the parent through a CLOEXEC pipe. */
enum { GB_STAGE_SYNC = 1, GB_STAGE_MOUNT, GB_STAGE_CAPS, GB_STAGE_SECCOMP, GB_STAGE_FDS, GB_STAGE_EXEC };

/* The minimal root a namespaced worker sees (gb_sandbox__mounts), planned by the parent:
 * the clone child may only make system calls (the parent may be multi-threaded). */
#define GB_ROOT_MAX 24
typedef struct {
    enum { GB_ROOT_BIND_DIR, GB_ROOT_BIND_FILE, GB_ROOT_LINK } kind;
    char src[1024]; /* host path (BIND_*) or link target (LINK) */
    char dst[1024]; /* path under the new root */
    bool recursive;
} GbRootEntry;

typedef struct {
    char root[1024]; /* the mount point of the new root's tmpfs (an empty directory) */
    char runs[1024]; /* root + runs_dir: a size-capped tmpfs, the only writable place */
    char shm[1024];  /* root + /dev/shm: a private, size-capped tmpfs */
    char proc[1024]; /* root + /proc */
    char runs_opts[64], shm_opts[64];
    bool runs_tmpfs; /* else runs_dir is a bind of the host's (root in userns mode: see _plan) */
    GbRootEntry entries[GB_ROOT_MAX];
    int n;
} GbRootPlan;

typedef struct {
    const GbSpawnSpec *spec;
    const GbRootPlan *plan; /* NULL: no mount namespace */
    int flags;              /* CLONE_NEW* flags */
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

/* mkdir -p of path (a copy is cut in place); existing directories are fine. */
static int gb_sandbox__mkdirs(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        buf[i] = c;
    }
    return 0;
}

/* The worker's whole file system, built in its mount namespace: a small tmpfs as root holding
 * read-only binds of the system directories (/usr, /etc, /lib*, /sys, the interpreter's
 * prefix), of the pool directory (harness, native helper), a few device nodes, a fresh /proc
 * for its pid namespace, a private size-capped /dev/shm, and a size-capped tmpfs for the run
 * directories (the per-run disk cap: runs are sequential and each run's directory is removed
 * after it). Nothing else of the host is visible: not its /proc, /home, /root, /tmp or the
 * benchmark files. A /proc that cannot be mounted (some containers refuse) is left empty. */
static int gb_sandbox__mounts(const GbSpawnCtx *c)
{
    const GbRootPlan *p = c->plan;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
    if (mount("tmpfs", p->root, "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=0755") != 0) return -1;
    for (int i = 0; i < p->n; i++) {
        const GbRootEntry *e = &p->entries[i];
        if (e->kind == GB_ROOT_LINK) {
            char parent[1024];
            memcpy(parent, e->dst, sizeof parent);
            char *slash = strrchr(parent, '/');
            if (slash) *slash = '\0';
            if (gb_sandbox__mkdirs(parent) != 0 || symlink(e->src, e->dst) != 0) return -1;
            continue;
        }
        if (e->kind == GB_ROOT_BIND_DIR) {
            if (gb_sandbox__mkdirs(e->dst) != 0) return -1;
        } else {
            char parent[1024];
            memcpy(parent, e->dst, sizeof parent);
            char *slash = strrchr(parent, '/');
            if (slash) *slash = '\0';
            if (gb_sandbox__mkdirs(parent) != 0) return -1;
            int fd = open(e->dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            if (fd < 0) return -1;
            close(fd);
        }
        if (mount(e->src, e->dst, NULL, MS_BIND | (e->recursive ? MS_REC : 0), NULL) != 0) return -1;
    }
    if (gb_sandbox__mkdirs(p->shm) != 0 || mount("tmpfs", p->shm, "tmpfs", MS_NOSUID | MS_NODEV, p->shm_opts) != 0)
        return -1;
    if (p->runs_tmpfs &&
        (gb_sandbox__mkdirs(p->runs) != 0 || mount("tmpfs", p->runs, "tmpfs", MS_NOSUID | MS_NODEV, p->runs_opts) != 0))
        return -1;
    if (gb_sandbox__mkdirs(p->proc) != 0) return -1;
    /* Our own /proc (we are pid 1 of a new pid namespace); refused in some containers, where
     * the sandbox then has no /proc at all rather than the host's (the worker reports it). */
    (void)mount("proc", p->proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
    if (chdir(p->root) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 ||
        chdir("/") != 0)
        return -1;
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) != 0) return -1;
    struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
    if (syscall(SYS_mount_setattr, AT_FDCWD, c->spec->runs_dir, 0, &rw, sizeof rw) != 0) return -1;
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/dev/shm", 0, &rw, sizeof rw) != 0) return -1;
    return 0;
}

/* A seccomp filter for the worker and everything it starts: no new user namespace (unshare
 * or clone with CLONE_NEWUSER; clone3, whose flags a filter cannot read, answers ENOSYS so
 * that libc falls back to clone), no setns, and no ptrace or process_vm_readv/writev, so a
 * run cannot reach into its worker (same uid in the userns and plain modes). Also refused:
 * io_uring (ENOSYS: its requests are not seen by this filter), netlink sockets (the kernel's
 * configuration interfaces), and memfd_create (ENOSYS: its memory is held outside the run's
 * RLIMIT_AS and its tmpfs, bounded only by the machine). */
static int gb_sandbox__seccomp(void)
{
#if defined(__x86_64__)
    enum {
        ARCH = AUDIT_ARCH_X86_64,
        NR_UNSHARE = 272,
        NR_CLONE = 56,
        NR_SETNS = 308,
        NR_PTRACE = 101,
        NR_VM_READ = 310,
        NR_VM_WRITE = 311,
        NR_SOCKET = 41,
        NR_MEMFD_CREATE = 319
    };
#elif defined(__aarch64__)
    enum {
        ARCH = AUDIT_ARCH_AARCH64,
        NR_UNSHARE = 97,
        NR_CLONE = 220,
        NR_SETNS = 268,
        NR_PTRACE = 117,
        NR_VM_READ = 270,
        NR_VM_WRITE = 271,
        NR_SOCKET = 198,
        NR_MEMFD_CREATE = 279
    };
#else
    return -1;
#endif
    enum { NR_CLONE3 = 435, NR_PIDFD_GETFD = 438, NR_IO_URING_SETUP = 425, NR_IO_URING_REGISTER = 427 };
    const unsigned deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    const unsigned nosys = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
        BPF_STMT(BPF_RET | BPF_K, deny),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_CLONE3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, nosys),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_MEMFD_CREATE, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, nosys),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, NR_IO_URING_SETUP, 0, 2), /* io_uring_setup, _enter, _register */
        BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, NR_IO_URING_REGISTER, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, nosys),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_SOCKET, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])), /* the family */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, deny),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_SETNS, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_PTRACE, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_VM_READ, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_VM_WRITE, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_PIDFD_GETFD, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, deny),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_UNSHARE, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NR_CLONE, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])), /* low half */
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, deny),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = (unsigned short)(sizeof f / sizeof f[0]), .filter = f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
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
    if (c->plan && gb_sandbox__mounts(c) != 0) gb_sandbox__fail(c, GB_STAGE_MOUNT);
    if (c->userns) {
        /* Root of the user namespace, but without capabilities after execve: the runs
         * must not be able to undo the read-only mounts. */
        int bits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                   SECBIT_KEEP_CAPS_LOCKED;
        if (prctl(PR_SET_SECUREBITS, bits) != 0) gb_sandbox__fail(c, GB_STAGE_CAPS);
        for (int cap = 0; cap < 64; cap++) (void)prctl(PR_CAPBSET_DROP, cap);
    }
    (void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (gb_sandbox__seccomp() != 0) gb_sandbox__fail(c, GB_STAGE_SECCOMP);
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
    case GB_STAGE_SECCOMP:
        return "installing the seccomp filter";
    case GB_STAGE_FDS:
        return "setting up descriptors";
    case GB_STAGE_EXEC:
        return "exec";
    }
    return "?";
}

/* dst = a + b (b may be NULL); *ok = false when it does not fit. */
static void gb_sandbox__copy(char *dst, size_t cap, const char *a, const char *b, bool *ok)
{
    size_t la = strlen(a), lb = b ? strlen(b) : 0;
    if (la + lb >= cap) {
        *ok = false;
        dst[0] = '\0';
        return;
    }
    memmove(dst, a, la);
    if (lb) memmove(dst + la, b, lb);
    dst[la + lb] = '\0';
}

static bool gb_sandbox__planned(const GbRootPlan *p, const char *path)
{
    size_t root = strlen(p->root);
    for (int i = 0; i < p->n; i++) {
        const char *dst = p->entries[i].dst + root;
        size_t n = strlen(dst);
        if (strncmp(path, dst, n) == 0 && (path[n] == '\0' || path[n] == '/')) return true;
    }
    return false;
}

/* Add host path to the plan: a directory or file bound read-only at the same path, or a
 * symbolic link recreated (merged /usr: /bin -> usr/bin). Missing paths are skipped. */
static void gb_sandbox__plan_add(GbRootPlan *p, const char *path, bool recursive, bool *ok)
{
    struct stat st;
    if (!*path || lstat(path, &st) != 0 || gb_sandbox__planned(p, path)) return;
    if (p->n >= GB_ROOT_MAX) {
        *ok = false;
        return;
    }
    GbRootEntry *e = &p->entries[p->n];
    memset(e, 0, sizeof *e);
    gb_sandbox__copy(e->dst, sizeof e->dst, p->root, path, ok);
    e->recursive = recursive;
    if (S_ISLNK(st.st_mode)) {
        ssize_t n = readlink(path, e->src, sizeof e->src - 1);
        if (n <= 0) return;
        e->src[n] = '\0';
        e->kind = GB_ROOT_LINK;
    } else {
        gb_sandbox__copy(e->src, sizeof e->src, path, NULL, ok);
        e->kind = S_ISDIR(st.st_mode) ? GB_ROOT_BIND_DIR : GB_ROOT_BIND_FILE;
    }
    p->n++;
}

/* dirname of path into out ("" when none). */
static void gb_sandbox__dirname(const char *path, char *out, size_t cap)
{
    snprintf(out, cap, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash && slash != out)
        *slash = '\0';
    else
        out[0] = '\0';
}

/* Plan the worker's file system (gb_sandbox__mounts). */
static bool gb_sandbox__plan(const GbSpawnSpec *spec, GbSandboxMode mode, GbRootPlan *p, GbError *err)
{
    bool ok = true;
    memset(p, 0, sizeof *p);
    gb_sandbox__copy(p->root, sizeof p->root, spec->root_dir, NULL, &ok);
    static const char *const system[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"};
    for (size_t i = 0; i < sizeof system / sizeof system[0]; i++) gb_sandbox__plan_add(p, system[i], true, &ok);
    gb_sandbox__plan_add(p, "/sys", true, &ok); /* CPU topology for OpenBLAS and os.cpu_count */
    /* An interpreter outside /usr (a venv, /opt/python): its directory, its prefix's lib and
     * pyvenv.cfg, for the path as given and resolved. */
    char real[1024];
    const char *forms[2] = {spec->python, realpath(spec->python, real) ? real : NULL};
    for (int k = 0; k < 2; k++) {
        if (!forms[k]) continue;
        char bin[1024], prefix[1024], more[1100];
        gb_sandbox__dirname(forms[k], bin, sizeof bin);
        gb_sandbox__dirname(bin, prefix, sizeof prefix);
        gb_sandbox__plan_add(p, bin, true, &ok);
        if (prefix[0]) {
            snprintf(more, sizeof more, "%s/lib", prefix);
            gb_sandbox__plan_add(p, more, true, &ok);
            snprintf(more, sizeof more, "%s/pyvenv.cfg", prefix);
            gb_sandbox__plan_add(p, more, false, &ok);
        }
    }
    /* the pool directory (harness, native helper, the runs mount point), not recursively: the
     * new root's own mount point inside it stays an empty directory */
    gb_sandbox__plan_add(p, spec->pool_dir, false, &ok);
    /* The runs' tmpfs belongs to the worker's user namespace in userns mode, where files that
     * genebench creates as root could not be owned by anyone (EOVERFLOW): as root in that mode
     * the runs directory stays the host's, without the disk cap (root uses namespaces mode
     * unless told otherwise). */
    p->runs_tmpfs = !(mode == GB_SANDBOX_USERNS && geteuid() == 0);
    if (!p->runs_tmpfs) {
        if (p->n >= GB_ROOT_MAX) {
            ok = false;
        } else {
            GbRootEntry *e = &p->entries[p->n++];
            e->kind = GB_ROOT_BIND_DIR;
            e->recursive = true;
            gb_sandbox__copy(e->src, sizeof e->src, spec->runs_dir, NULL, &ok);
            gb_sandbox__copy(e->dst, sizeof e->dst, p->root, spec->runs_dir, &ok);
        }
    }
    static const char *const dev[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++) gb_sandbox__plan_add(p, dev[i], false, &ok);
    static const char *const links[][2] = {{"/dev/fd", "/proc/self/fd"},
                                           {"/dev/stdin", "/proc/self/fd/0"},
                                           {"/dev/stdout", "/proc/self/fd/1"},
                                           {"/dev/stderr", "/proc/self/fd/2"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0] && ok; i++) {
        if (p->n >= GB_ROOT_MAX) {
            ok = false;
            break;
        }
        GbRootEntry *e = &p->entries[p->n++];
        e->kind = GB_ROOT_LINK;
        gb_sandbox__copy(e->src, sizeof e->src, links[i][1], NULL, &ok);
        gb_sandbox__copy(e->dst, sizeof e->dst, p->root, links[i][0], &ok);
    }
    gb_sandbox__copy(p->runs, sizeof p->runs, p->root, spec->runs_dir, &ok);
    gb_sandbox__copy(p->shm, sizeof p->shm, p->root, "/dev/shm", &ok);
    gb_sandbox__copy(p->proc, sizeof p->proc, p->root, "/proc", &ok);
    snprintf(p->runs_opts, sizeof p->runs_opts, "size=%ldm,mode=0711", spec->disk_mb > 0 ? spec->disk_mb : 256L);
    snprintf(p->shm_opts, sizeof p->shm_opts, "size=%ldm,mode=1777", spec->shm_mb > 0 ? spec->shm_mb : 64L);
    if (!ok) gb_error_set(err, "the sandbox's file system cannot be planned (a path is too long, or too many)");
    return ok;
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
    GbRootPlan *plan = NULL;
    if (c.flags & CLONE_NEWNS) {
        plan = gb_malloc(sizeof *plan);
        if (!gb_sandbox__plan(spec, mode, plan, err)) {
            free(plan);
            return false;
        }
        c.plan = plan;
    }

    char *argv[20];
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
    argv[argc++] = "--libraries";
    argv[argc++] = (char *)spec->libraries;
    if (spec->imports && *spec->imports) {
        argv[argc++] = "--import";
        argv[argc++] = (char *)spec->imports;
    }
    if (mode == GB_SANDBOX_PLAIN) argv[argc++] = "--seccomp";
    if (plan) argv[argc++] = "--private-shm"; /* its own /dev/shm: emptied after every run */
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
                    home, tmpdir,
                    /* Test workers: glibc malloc keeps the heap contiguous, so more of it
                     * becomes huge pages (MADV_COLLAPSE in the harness) and fork/exit get
                     * cheaper: measured fork+exit 4.9 -> 4.1 ms, bench_runner +10%
                     * validations/s. Not the lint worker: it forks once per session, and
                     * pylint allocates so much that Python's own allocator makes its warm-up
                     * 25% and each lint 13% cheaper (4.21 -> 3.36 s, 32.1 -> 28.4 ms). */
                    spec->lint ? NULL : "PYTHONMALLOC=malloc", NULL};
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
    out->host_root[0] = '\0';
    if (plan && plan->runs_tmpfs) snprintf(out->host_root, sizeof out->host_root, "/proc/%d/root", (int)pid);
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
    free(plan);
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
