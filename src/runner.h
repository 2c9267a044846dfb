#pragma once
/* The test runner: a pool of warm Python workers that run a task's tests against a
 * program in a sandboxed child (DESIGN.md §10). This is the hot path of the evolution.
 *
 * Thread-safety: a GbPool is shared by all threads; gb_pool_run and gb_pool_lint may be
 * called concurrently from any number of threads (each call blocks until a worker is
 * free). Creating and deleting the pool is not thread-safe. */
#include <stdbool.h>
#include <stddef.h>

#include "src/program.h"
#include "src/task.h"
#include "src/util.h"

typedef struct {
    const char *python;    /* interpreter path; default GB_DEFAULT_PYTHON (/usr/bin/python3) */
    int workers;           /* warm worker processes; 0 = number of online CPUs */
    double timeout_s;      /* wall-clock limit per run (whole process group killed); default 10 */
    double cpu_s;          /* RLIMIT_CPU per run; default 10 */
    long mem_mb;           /* RLIMIT_AS per run in MiB; default 4096 */
    long fsize_mb;         /* RLIMIT_FSIZE in MiB; default 64 */
    long nofile;           /* RLIMIT_NOFILE; default 256 */
    long nproc;            /* max processes/threads the child may create; default 64 */
    size_t output_cap;     /* bytes of stdout/stderr kept per run; default 64 KiB */
    bool stderr_fails;     /* assert tests: any stderr output is a failure (published tool) */
    bool lint;             /* workers also import pylint for gb_pool_lint */
} GbPoolConfig;

/* Fill cfg with the defaults above. */
void gb_pool_config_defaults(GbPoolConfig *cfg);

typedef enum {
    GB_RUN_PASS,      /* every test passed */
    GB_RUN_FAIL,      /* a test failed (assertion, wrong output, exception, sys.exit) */
    GB_RUN_TIMEOUT,   /* wall-clock or CPU limit hit */
    GB_RUN_CRASH,     /* killed by a signal (segfault, memory limit, ...) */
    GB_RUN_ERROR      /* harness/infrastructure problem (not the program's fault) */
} GbRunStatus;

typedef struct {
    GbRunStatus status;
    char *failed_test;  /* owned, may be NULL: test method / stdio case index / assert line */
    char *exc_type;     /* owned, may be NULL: e.g. "AssertionError" */
    char *exc_message;  /* owned, may be NULL */
    int signal;         /* crash signal, 0 if none */
    double wall_s;      /* wall time of the run */
    long peak_rss_kb;   /* peak resident memory of the child */
    char *out;          /* owned: captured stdout (capped), never NULL after a run */
    char *err;          /* owned: captured stderr (capped), never NULL after a run */
    int tests_run;      /* unittest: tests run; stdio: cases run; assert: 1 */
    GbArray(char *) failed_tests; /* every failing test id (unittest methods, stdio case k) */
} GbRunResult;

void gb_run_result_init(GbRunResult *r);
void gb_run_result_destroy(GbRunResult *r);
const char *gb_run_status_name(GbRunStatus s);

typedef struct GbPool GbPool;

/* Start the workers. Returns an owned pool, or NULL with err set (e.g. interpreter missing,
 * a required module missing: the message names the module and the interpreter). */
GbPool *gb_pool_new(const GbPoolConfig *cfg, GbError *err);
/* Stop every worker and child; no processes or temporary files remain. NULL is a no-op. */
void gb_pool_delete(GbPool *pool);

/* Run task's tests against prog (NULL = the task's own source and extra files).
 * Fills out (caller storage, initialised here). Returns false only on an infrastructure
 * error that the pool could not recover from (out->status = GB_RUN_ERROR, err set); a
 * failing, crashing or hanging program is a normal result. */
bool gb_pool_run(GbPool *pool, const GbTask *task, const GbProgram *prog, GbRunResult *out, GbError *err);

/* pylint score (0..10) of prog's modules as a whole, computed by a warm worker. */
bool gb_pool_lint(GbPool *pool, const GbProgram *prog, double *score, GbError *err);
