#pragma once
/* Private to src/runner/: what the runner's files share (runner.c was split along its
 * sections). Nothing outside src/runner/ includes this header; the public API is
 * src/runner/runner.h.
 *
 *   result.c         run results, mapping a raw run to a GbRunResult
 *   stdio_compare.c  gb_stdio_output_matches
 *   wire.c           the length-prefixed record format spoken with the workers
 *   files.c          run directories and module files
 *   worker.c         starting and reaping one worker
 *   pool.c           the pool: creation, deletion, idle sets
 *   run.c            one run on a worker, gb_pool_run, gb_pool_lint
 *   lint.c           lint sessions
 *   probe.c          probes for the equivalence check (gb_pool_probe)
 *   tier.c           which test worker a run forks from
 *   compile.c        CPython's compile() of a program (gb_pool_compile)
 * library_list.h lists the third-party libraries; the Python side (harness.py and its
 * harness_*.py siblings) and the whole structure are described in src/runner/README.md. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "src/base/util.h"
#include "src/model/program.h"
#include "src/runner/runner.h"
#include "src/runner/sandbox.h"

/* The harness's files (harness.py and its sibling modules, src/runner/README.md), generated at
 * build time from the list in src/runner/meson.build: a pool writes each, by its name, into
 * its directory. */
typedef struct GbEmbeddedFile {
    const char *name; /* "harness.py", "harness_wire.py", ... */
    const char *text;
    unsigned long len;
} GbEmbeddedFile;
extern const GbEmbeddedFile gb_harness_files[];
extern const unsigned long gb_harness_files_count;
/* The workers' shared object, built from src/runner/remap.c and src/runner/runwait.c (src/meson.build). */
extern const char gb_worker_so[];
extern const unsigned long gb_worker_so_len;

#define GB_START_TIMEOUT_S 180.0 /* importing sklearn + pylint on a loaded machine */
#define GB_KILL_GRACE_S 5.0      /* after asking a worker to kill a run */
#define GB_DRAIN_GRACE_S 2.0     /* after the run ended, for the output pipes to close */
#define GB_SANDBOX_UID_BASE 1900000000u

/* The kinds of worker, one idle set each. The test workers come in three import sets
 * (harness.py: --import), so that a run forks from the smallest interpreter that has what its
 * program imports (tier.c); without tiers (GbPoolConfig.no_tiers) every test worker is FULL. */
typedef enum {
    GB_WORKER_FULL,   /* test worker with every library of library_list.h */
    GB_WORKER_LINT,   /* lint worker: harness.py's STDLIB_PRELOAD and pylint */
    GB_WORKER_STDLIB, /* test worker with harness.py's STDLIB_PRELOAD only */
    GB_WORKER_NUMPY,  /* test worker with those and the libraries of kind NUMPY (numpy) */
    GB_WORKER_KINDS
} GbWorkerKind;

/* The test worker kind for a run of prog with test_code (may be NULL) under task's harness
 * rules (task may be NULL): the smallest import set that holds every library the sources
 * name (statically: import statements, and the libraries' names anywhere in the text); a
 * module that is neither in the standard library nor one of the program's picks FULL. */
GbWorkerKind gb_runner_kind_for(const GbProgram *prog, const char *test_code, const GbTask *task);

typedef struct {
    int slot;
    pid_t pid;
    int ctl;
    bool alive;
    bool pending;   /* spawned, its "ready" not yet read (gb_pool_await_worker) */
    double t_spawn; /* gb_now() at the spawn */
    unsigned long serial;
    long run_uid;
    long owner_uid;
    GbSandboxMode mode;
    bool lint; /* a lint worker: imports pylint, serves lint sessions only */
    GbWorkerKind kind;
    /* A lint worker serves several sessions at once (harness_serve.py: serve_lint), so it is
     * shared, not held: mu guards its control socket (both ways), its restart and the
     * fields below; users counts the sessions on it (guarded by GbPool.mu). */
    pthread_mutex_t mu;
    int users;
    unsigned long gen;            /* spawns so far: a session knows which process it started on */
    GbArray(unsigned long) ended; /* tags of this process's sessions whose "done" was read */
    GbArray(unsigned long) left;  /* tags of sessions closed without waiting for their "done" */
    bool warm;                    /* this process said "warm": it ended pylint's warm-up */
    GbStr inbuf;                  /* bytes received from the worker, not yet parsed */
    char host_root[32];           /* "/proc/PID/root" when the worker has its own file system, else "" */
} GbWorker;

/* The workers of one kind and a ring buffer of the idle ones: FIFO, so runs rotate. */
typedef struct {
    size_t first, count; /* slots first .. first+count-1 of GbPool.workers */
    size_t *idle;
    size_t head, nidle;
    pthread_cond_t cv;
} GbWorkerSet;

/* The interpreter behind gb_pool_compile (compile.c): started at the first call. */
typedef struct {
    int fd; /* socket to its stdin and stdout; -1 when not running */
    pid_t pid;
} GbCompileServer;

struct GbPool {
    GbPoolConfig cfg;
    char *python;
    char *dir;            /* private temporary directory */
    char *harness;        /* dir/harness/harness.py (beside it, the rest of gb_harness_files) */
    char *native;         /* dir/gbworker.so */
    bool remap;           /* workers remap their libraries (src/runner/remap.c) */
    char *remap_report;   /* what the first worker said of its remap */
    bool no_proc;         /* a worker found no /proc (the kernel refused to mount its own) */
    char *sandbox_detail; /* gb_pool_sandbox_detail, made on first use */
    char *runs;           /* dir/runs (in a namespaced worker: its tmpfs, reached through host_root) */
    char *root;           /* dir/root: the mount point of a namespaced worker's root */
    char *python_version;
    char *lint_warm; /* owned copy of cfg.lint_warm (workers are replaced later too) */
    GbSandboxMode mode;
    uid_t uid_base;
    long nproc_extra; /* plain mode, not root: processes the user already has */
    pthread_mutex_t mu;
    GbWorker *workers; /* test workers (FULL), lint workers, STDLIB and NUMPY test workers */
    size_t nworkers;
    GbWorkerSet sets[GB_WORKER_KINDS]; /* by GbWorkerKind (count 0: none of that kind) */
    int intr[2];
    atomic_bool interrupted;
    GbPoolStats stats;
    pthread_mutex_t compile_mu; /* one compile check at a time */
    GbCompileServer compile;
};

/* compile.c: set up (in gb_pool_new) and stop (in gb_pool_delete) the compile server. */
void gb_pool_compile_init(GbPool *pool);
void gb_pool_compile_destroy(GbPool *pool);

/* ---- wire format (wire.c): a record is a sequence of (u32 key length, key, u32 value
 * length, value); a frame is u32 length + record body. Little-endian. */

typedef struct {
    const char *key;
    size_t klen;
    const char *val;
    size_t vlen;
} GbRecField;

typedef struct {
    GbArray(GbRecField) fields;
} GbRec;

uint32_t gb_rec_get_u32(const char *p);
void gb_rec_add_n(GbStr *s, const char *key, const char *val, size_t len);
void gb_rec_add(GbStr *s, const char *key, const char *val);
void gb_rec_addf(GbStr *s, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* frame = u32 length of body + body */
void gb_rec_frame(GbStr *frame, const GbStr *body);
/* Parse body into rec->fields (pointers into body, borrowed). False when malformed. */
bool gb_rec_parse(const char *body, size_t len, GbRec *rec);
/* The field named key, borrowed; NULL if absent. */
const GbRecField *gb_rec_find(const GbRec *rec, const char *key);
/* An owned copy of the field's value, NULL if absent. */
char *gb_rec_dup(const GbRec *rec, const char *key);
bool gb_rec_is(const GbRec *rec, const char *key, const char *value);
double gb_rec_double(const GbRec *rec, const char *key, double dflt);
long gb_rec_long(const GbRec *rec, const char *key, long dflt);
/* Move the first whole frame of in into body. False when in holds no whole frame. */
bool gb_runner_take_frame(GbStr *in, GbStr *body);
bool gb_worker_take_frame(GbWorker *w, GbStr *body);
/* Read what is available on the control socket. False at EOF or error. */
bool gb_worker_recv(GbWorker *w);
/* Send a frame, with fds (SCM_RIGHTS, at most 4) attached to its first bytes. */
bool gb_worker_send(GbWorker *w, const GbStr *frame, const int *fds, int nfds);
/* Ask the worker to kill the run in progress (and everything it started); on the lint
 * worker, which runs several at once, the run named tag (0: no tag). */
void gb_worker_send_kill(GbWorker *w, unsigned long tag);

/* ---- files (files.c) */

/* Remove a directory tree without following symlinks (restores permissions first). */
void gb_runner_rmtree(const char *path);
bool gb_runner_write_all(int fd, const char *data, size_t len);
/* chown to uid (and gid uid) without following symlinks; uid < 0: nothing to do. */
bool gb_runner_chown(int dirfd, const char *name, long uid);
/* Write prog's modules under dir, owned by owner (< 0: ours). */
bool gb_runner_write_modules(const char *dir, const GbProgram *prog, long owner, GbError *err);
/* Write one file of len bytes (binary) under dir, owned by owner (< 0: ours); the name must be a
 * relative path inside dir (its parent directories must exist). */
bool gb_runner_write_file(const char *dir, const char *name, const char *data, size_t len, long owner, GbError *err);
/* Append to out the regular files at the top of dir whose names end with suffix (symbolic links
 * and anything else skipped), at most max_files files and max_bytes bytes in all: false with err
 * when there are more. */
bool gb_runner_collect_files(const char *dir, const char *suffix, size_t max_files, size_t max_bytes, GbRunFiles *out,
                             GbError *err);

/* ---- workers (worker.c) */

/* Kill and reap the worker's process, close its socket. */
void gb_worker_reap(GbWorker *w);
/* After a failed file operation in w's run directories: true when the worker is gone (killed
 * from outside: its /proc/PID/root vanished), which then is reaped, so it is replaced before
 * its next use. */
bool gb_worker_gone(GbWorker *w);
/* Spawn a worker without waiting for it: it imports its libraries while the caller goes on. */
bool gb_pool_spawn_worker(GbPool *pool, GbWorker *w, GbError *err);
/* Wait for a spawned worker's "ready" (within GB_START_TIMEOUT_S of the spawn); reaps it on failure. */
bool gb_pool_await_worker(GbPool *pool, GbWorker *w, GbError *err);
/* Spawn a worker and wait for its "ready". */
bool gb_pool_start_worker(GbPool *pool, GbWorker *w, GbError *err);

/* ---- pool (pool.c) */

/* An idle test worker of the kind, waiting for one (borrowed until released). A kind the pool
 * has no workers of is served by FULL workers. */
GbWorker *gb_pool_acquire(GbPool *pool, GbWorkerKind kind);
void gb_pool_release(GbPool *pool, GbWorker *w);
/* The lint worker with the fewest sessions (it is shared: nothing waits), NULL when the pool
 * has none; a session gives it back with gb_pool_lint_worker_release. */
GbWorker *gb_pool_lint_worker(GbPool *pool);
void gb_pool_lint_worker_release(GbPool *pool, GbWorker *w);
/* A worker that died is replaced before use (a lint worker: with its mu held). */
bool gb_pool_ensure_alive(GbPool *pool, GbWorker *w, GbError *err);

/* ---- one run (run.c) */

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

/* What one run asks the worker for. */
typedef struct {
    const char *kind; /* assert | unittest | stdio | lint | probe | exec */
    const GbProgram *prog;
    const char *test_code;  /* may be NULL */
    const GbTask *task;     /* for unittest classes; may be NULL */
    const char *stdin_text; /* stdio; may be NULL */
    size_t out_cap;         /* stdout bytes to keep (stdio: enough to compare the whole output) */
    const GbStr *extra;     /* more request fields, already encoded (gb_rec_add), or NULL */
    const GbExecSpec *exec; /* kind "exec": the command, its files, limits and what to collect */
    GbRunFiles *collected;  /* kind "exec" with exec->collect_suffix: the files collected */
    GbError *collect_err;   /* with collected: why collecting failed (the run's fault: too many files) */
    bool apart;             /* kind "probe": extra goes to the run's judge as a descriptor, and the program
                               runs in a process of its own (harness_probe_apart.py) */
    double timeout_s;       /* > 0: this run's wall-clock limit instead of the pool's */
} GbRunSpec;

void gb_raw_init(GbRaw *r);
void gb_raw_destroy(GbRaw *r);
/* Acquire a worker and run rs on it (retried once on a fresh worker when the worker died
 * under a run that was neither timed out nor interrupted). False on an infrastructure error. */
bool gb_pool_run_spec(GbPool *pool, const GbRunSpec *rs, GbRaw *raw, GbError *err);

/* The sandbox fields of a run request: resource limits (cpu_s 0: none) and the run uid. */
void gb_pool_add_limits(const GbPool *pool, const GbWorker *w, GbStr *body, long cpu_s);
/* The same with RLIMIT_AS set to mem_mb MiB (<= 0: the pool's). */
void gb_pool_add_limits_mem(const GbPool *pool, const GbWorker *w, GbStr *body, long cpu_s, long mem_mb);

/* ---- result mapping (result.c) */

/* Fill out from one raw run (status, exception, outputs); takes raw's outputs. */
void gb_runner_map(const GbPool *pool, GbRaw *raw, GbRunResult *out);
/* Fill out from one raw exec run (runner.h, gb_pool_exec); timeout_s and cpu_s are the run's
 * limits, for the messages; takes raw's outputs. */
void gb_runner_map_exec(GbRaw *raw, double timeout_s, double cpu_s, GbRunResult *out);
/* With stderr_fails: a passing run with stderr output fails. */
void gb_runner_fail_stderr(GbRunResult *out);
void gb_runner_clear_outcome(GbRunResult *r);
/* Owned: s quoted, newlines escaped, at most 120 bytes. */
char *gb_runner_excerpt(const char *s);
