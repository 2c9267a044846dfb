#pragma once
/* Starting one warm worker process for the test runner (private to src/runner/: worker.c).
 *
 * A worker is the harness (src/runner/harness.py) running under the configured interpreter,
 * connected to genebench by an AF_UNIX stream socket on its fd 3. Depending on what the
 * kernel and our privileges allow, it is started inside fresh namespaces:
 *   GB_SANDBOX_NAMESPACES (genebench runs as root): new pid, network and mount namespaces.
 *     The worker is pid 1 of its pid namespace, so every process a run leaves behind is
 *     killed with kill(-1) and dies with the worker; the network namespace has only a
 *     down loopback. Its file system is a minimal root of its own (pivot_root): read-only
 *     binds of /usr, /etc, /lib*, /sys, the interpreter's prefix and the pool directory, a
 *     few device nodes, its own /proc (left empty where the kernel refuses to mount one), a
 *     private /dev/shm and a size-capped tmpfs for the run directories (the disk cap), which
 *     genebench reaches through /proc/PID/root (GbWorkerProc.host_root). The host's /proc,
 *     /tmp, /home, /root and the benchmark files are not there. Runs drop to a dedicated
 *     uid per worker, so RLIMIT_NPROC bounds a fork bomb per worker.
 *   GB_SANDBOX_USERNS (unprivileged, user namespaces allowed): the same inside a new user
 *     namespace that maps its root to our uid; the worker has no capabilities (securebits
 *     NOROOT), RLIMIT_NPROC counts the processes of that user namespace only. As root in
 *     this mode the run directories stay on the host (no disk cap: see gb_sandbox__plan).
 *   GB_SANDBOX_PLAIN: no namespaces. The worker is a child subreaper that kills whatever
 *     a run leaves behind, a seccomp filter refuses non-AF_UNIX sockets, and runs drop to
 *     a dedicated uid when genebench runs as root. The host's /proc, /dev/shm and files
 *     stay visible, and the disk is capped per file only.
 * In every mode a seccomp filter (installed before the worker's exec) refuses new user
 * namespaces, setns, ptrace and process_vm_readv/writev to the worker and all its runs.
 * Not thread-safe by itself: the caller (the pool) serialises access to one worker; several
 * workers may be spawned concurrently from different threads. */
#include <stdbool.h>
#include <sys/types.h>

#include "src/base/util.h"

typedef enum {
    GB_SANDBOX_AUTO = 0,   /* the strongest mode that works here */
    GB_SANDBOX_NAMESPACES, /* root: pid + net + mount namespaces, runs as a dedicated uid */
    GB_SANDBOX_USERNS,     /* user + pid + net + mount namespaces */
    GB_SANDBOX_PLAIN       /* no namespaces: subreaper, seccomp socket filter */
} GbSandboxMode;

const char *gb_sandbox_mode_name(GbSandboxMode mode);

typedef struct {
    const char *python;    /* interpreter (absolute path) */
    const char *harness;   /* path of harness.py */
    const char *runs_dir;  /* directory holding run directories (stays writable) */
    const char *home;      /* HOME/TMPDIR of the worker itself */
    const char *log_path;  /* the worker's stderr goes here (truncated) */
    bool lint;             /* preload pylint */
    const char *libraries; /* the third-party libraries' top-level names, comma-separated (library_list.h) */
    const char *imports;   /* the third-party modules this worker preloads, comma-separated (may be "") */
    const char *warm_dir;  /* scratch directory for the pylint warm-up (lint only) */
    GbSandboxMode mode;    /* requested mode; AUTO tries NAMESPACES/USERNS, then PLAIN */
    uid_t sandbox_uid;     /* uid runs use when genebench is root (and USERNS's outer uid) */
    const char *native;    /* path of the workers' shared object (src/runner/remap.c, src/runner/runwait.c) */
    bool remap;            /* the worker remaps its libraries (src/runner/remap.c) */
    const char *pool_dir;  /* the pool's directory (harness, native helper, runs_dir inside it) */
    const char *root_dir;  /* an empty directory: the mount point of a namespaced worker's root */
    long disk_mb;          /* size of the runs' tmpfs in a namespaced worker (per-run disk cap) */
    long shm_mb;           /* size of its private /dev/shm */
} GbSpawnSpec;

typedef struct {
    pid_t pid;          /* the worker process (our child), host pid */
    int ctl;            /* our end of the control socket (owned, CLOEXEC) */
    GbSandboxMode mode; /* the mode actually in use */
    long run_uid;       /* uid passed to the harness for the runs to setresuid to, or -1 */
    long owner_uid;     /* host uid that must own the run directories, or -1 = ours */
    char host_root[32]; /* "/proc/PID/root" when the worker has its own file system (its runs
                           directory is then reached through it), else "" */
} GbWorkerProc;

/* Start a worker; does not wait for it to be ready. False + err when the interpreter
 * cannot be executed or the requested (non-AUTO) mode is unavailable. */
bool gb_sandbox_spawn(const GbSpawnSpec *spec, GbWorkerProc *out, GbError *err);
