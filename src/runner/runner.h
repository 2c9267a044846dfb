#pragma once
/* The test runner: a pool of warm Python workers that run a task's tests against a
 * program in a sandboxed child. This is the hot path of the evolution.
 *
 * Thread-safety: a GbPool is shared by all threads; gb_pool_run and gb_pool_lint may be
 * called concurrently from any number of threads (each call blocks until a worker is
 * free). Creating and deleting the pool is not thread-safe. */
#include <stdbool.h>
#include <stddef.h>

#include "src/model/program.h"
#include "src/model/task.h"
#include "src/base/util.h"

typedef struct {
    const char *python; /* interpreter path; default GB_DEFAULT_PYTHON (/usr/bin/python3) */
    int workers;        /* warm worker processes; 0 = number of online CPUs */
    double timeout_s;   /* wall-clock limit per run (whole process group killed); default 10 */
    double cpu_s;       /* RLIMIT_CPU per run; default 10 */
    long mem_mb;        /* RLIMIT_AS per run in MiB; default 4096 */
    long fsize_mb;      /* RLIMIT_FSIZE in MiB; default 64 */
    long nofile;        /* RLIMIT_NOFILE; default 256 */
    long nproc;         /* max processes/threads the child may create; default 64 */
    size_t output_cap;  /* bytes of stdout/stderr kept per run; default 64 KiB */
    bool stderr_fails;  /* assert tests: any stderr output is a failure (published tool) */
    bool lint;          /* workers also import pylint for gb_pool_lint */
    /* Added by the runner implementation (append-only): */
    int sandbox;           /* GbSandboxMode (src/runner/sandbox.h): 0 = auto (strongest available) */
    int lint_workers;      /* with lint: lint worker processes, each serving any number of sessions
                              at once (sessions go to the least busy); 0 = one */
    const char *lint_warm; /* with lint: Python source the lint workers lint once at start, so
                              astroid has parsed the libraries it imports (NULL: built-in) */
    bool no_remap;         /* keep the workers' library mappings as they are (src/runner/remap.c); also
                              when the environment has GENEBENCH_NO_REMAP=1 */
    bool no_native;        /* workers load no native helper (src/runner/remap.c, src/runner/runwait.c): no
                              remap, and they wait for run children in Python */
    long disk_mb;          /* disk a run may fill, in MiB: its directory is a tmpfs of that size (namespaces
                              mode, and userns mode when not root); default 256 */
    bool no_tiers;         /* every test worker imports every library (one kind of test worker), instead of
                              three import sets (src/runner/tier.c); also when the environment has
                              GENEBENCH_NO_TIERS=1 */
    unsigned start_sets;   /* the test workers' import sets the pool waits for (gb_pool_config_need adds
                              a task's); the others start at their first run, e.g. an offspring's that
                              imports a library no original does. 0: every set */
    bool tests_in_program; /* run every assert and unittest run's tests in the program's process, under the
                              seal only (src/runner/README.md, "What a test run can trust"): evolve's
                              tests gate, whose programs are genebench's own offspring; eval, check
                              and inject-bugs judge apart */
    bool probes_apart;     /* probes without branch tracing run the program the way a split test run does:
                              call and class probes in a process of its own, called with plain data by
                              a judge that records what comes back; stdio probes as ordinary stdio runs
                              (src/runner/README.md): compare. The equivalence gate of evolve probes
                              its offspring in their process */
    bool spawn_rest;       /* with start_sets: one worker of each other set starts with the pool too, and
                              is awaited at its first run (a long run: ready when an offspring needs
                              it); the set's others start when a run finds that one busy */
} GbPoolConfig;

/* Fill cfg with the defaults above. */
void gb_pool_config_defaults(GbPoolConfig *cfg);

/* Add to cfg->start_sets the import set that the task's original program and tests run in
 * (src/runner/tier.c). */
void gb_pool_config_need(GbPoolConfig *cfg, const GbTask *task);

typedef enum {
    GB_RUN_PASS,    /* every test passed */
    GB_RUN_FAIL,    /* a test failed (assertion, wrong output, exception, sys.exit) */
    GB_RUN_TIMEOUT, /* wall-clock or CPU limit hit */
    GB_RUN_CRASH,   /* killed by a signal (segfault, memory limit, ...) */
    GB_RUN_ERROR    /* harness/infrastructure problem (not the program's fault) */
} GbRunStatus;

typedef struct {
    GbRunStatus status;
    char *failed_test;            /* owned, may be NULL: test method / stdio case index / assert line */
    char *exc_type;               /* owned, may be NULL: e.g. "AssertionError" */
    char *exc_message;            /* owned, may be NULL */
    int signal;                   /* crash signal, 0 if none */
    double wall_s;                /* wall time of the run */
    long peak_rss_kb;             /* peak resident memory of the child */
    char *out;                    /* owned: captured stdout (capped), never NULL after a run */
    size_t out_total;             /* bytes the run wrote to stdout in all (out holds them all when
                                     it is that long: no cap hit and no NUL byte) */
    char *err;                    /* owned: captured stderr (capped), never NULL after a run */
    int tests_run;                /* unittest: tests run; stdio: cases run; assert: 1 */
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

/* Whether gb_pool_run judges task's tests apart from its program (harness_judge.py): true for
 * assert and unittest tasks unless their tests patch the program's names, task->tests_together
 * is set, or the pool keeps every run's tests in the program's process. A task whose own
 * program fails apart and passes together has tests that cannot be split (they hand the
 * program objects that do not cross, or change its objects' state through what it returned);
 * check and eval then set task->tests_together (src/runner/README.md). */
bool gb_pool_judges_apart(const GbPool *pool, const GbTask *task);

/* pylint score (0..10) of prog's modules as a whole, computed by a warm worker (a session
 * of its own: see below). The first call waits for pylint's warm-up. */
bool gb_pool_lint(GbPool *pool, const GbProgram *prog, double *score, GbError *err);

/* Wait until the lint worker has ended pylint's warm-up. It is ready for lints much earlier
 * (after pylint's import and the linter's set-up): sessions forked before the end build
 * what they lack themselves and start again from the warm image afterwards. */
bool gb_pool_lint_await_warm(GbPool *pool, GbError *err);

/* A lint session: a sequence of lints served by one process forked from a lint worker,
 * which keeps astroid's library cache between lints instead of forking for each (a lint
 * then costs about a third). Program modules are dropped from the cache after each lint;
 * what remains depends on the programs linted before in the session, so a caller that
 * wants reproducible scores uses one session per task and lints in a fixed order (the
 * evolution does). Sessions share the lint workers: a worker runs the processes of any
 * number of sessions at once, so pylint warms up once per worker however many threads lint,
 * and killing one session's process leaves the others alone. A timeout, crash or interrupt ends the session's process
 * and fails that lint; the next lint starts a new process (a lint that finds the process
 * gone before it answered is retried once in a new one). One session per thread. */
typedef struct GbLintSession GbLintSession;
GbLintSession *gb_lint_session_new(GbPool *pool);
bool gb_lint_session_lint(GbLintSession *s, const GbProgram *prog, double *score, GbError *err);
/* Ends the session's process (it exits by itself once its socket is closed; nothing waits
 * for it) and gives its worker back. NULL is a no-op. */
void gb_lint_session_delete(GbLintSession *s);
/* Whether the session's process was forked before its lint worker ended pylint's warm-up
 * (as its last reply said): it is replaced at the first lint after the end. */
bool gb_lint_session_partial(const GbLintSession *s);

/* ---- Added by the runner implementation (append-only) ---------------------------------
 *
 * Sandbox: see src/runner/sandbox.h for the three modes (namespaces as root, user namespaces,
 * plain fallback). gb_pool_sandbox names the mode in use, e.g. "namespaces".
 *
 * Files: a pool keeps the harness and one directory per run under
 * $TMPDIR/genebench-pool-PID-XXXXXX (/tmp when TMPDIR is not searchable by the sandbox uid);
 * gb_pool_new also removes such directories left by genebench processes that were killed.
 * Workers exit by themselves when genebench dies (their control socket closes).
 *
 * Test kinds (what "pass" means):
 *   assert    the program (module main.py, run as __main__; `from main import x` in a helper
 *             module gets the same module) then tests.code in the same namespace; pass =
 *             both complete with no exception. SystemExit of any code, or the process
 *             ending before the tests finished, is a failure. failed_test names the
 *             failing line of the test code ("tests line 7: assert f(2) == 3").
 *   unittest  program + tests.code as one module; every class in tests.classes is loaded
 *             with unittest.TestLoader and run; pass = each class ran >= 1 test and none
 *             errored or failed. failed_tests lists "Class.test_method" ids, taken from the
 *             TestResult objects.
 *   stdio     per case a fresh run of the program as __main__ with the case's stdin;
 *             pass = clean exit (exit()/sys.exit(0) allowed) and stdout equal to the
 *             expected output under gb_stdio_output_matches. failed_tests lists case
 *             indices (0-based); the result's out/err are those of the first failing case
 *             (else of the last case). Cases after a timeout or crash are not run. stdout
 *             is kept up to max(output_cap, 2 x expected size + 4 KiB), so it is compared whole.
 *   With cfg->stderr_fails, any stderr output fails a run of any kind.
 *
 * Lint (gb_pool_lint, sessions): pylint's API in a forked child of a lint worker (a
 * worker that imports pylint and lints a warm-up program once, so that astroid has parsed
 * the standard-library modules of the operators' calls; test workers do not import pylint,
 * which keeps their fork cheaper). One linter is built at warm-up and reused. The
 * third-party libraries (src/runner/library_list.h: numpy, scipy, sklearn, cryptography,
 * dateutil) are opaque: astroid never parses a module of theirs (harness_lint.py:
 * libraries_opaque), so what a program takes from them is uninferable and unchecked.
 * Options fixed:
 *   --rcfile=/dev/null --persistent=n --jobs=1 --score=y --reports=n
 *   --disable=missing-module-docstring,missing-class-docstring,missing-function-docstring
 *   --ignored-modules=LIBRARIES (the list's names, comma-separated)
 * The docstring checks are disabled because benchmark snippets never have docstrings and
 * the function/module-creating operators (S6, S7, S8) would lose score by construction.
 * Score = pylint's global note clamped to 0..10 (10 for a program with no statement). */

/* Name of the sandbox mode the workers run in (static string). */
const char *gb_pool_sandbox(const GbPool *pool);
/* The mode and what it lacks, for the user: "namespaces", or "namespaces (no /proc: ...)"
 * where the kernel refused to mount the sandbox's own /proc, or "plain (no namespaces: ...)".
 * Owned by the pool. */
const char *gb_pool_sandbox_detail(GbPool *pool);

/* Remap (src/runner/remap.c): each worker, once warm, replaces its library and interpreter
 * mappings by anonymous memory with the same bytes, merged into a few regions backed by
 * huge pages, so that the fork and exit of every run cost less. Unless cfg->no_remap or
 * GENEBENCH_NO_REMAP=1. Returns "off", or what the first worker reported, e.g. "remapped
 * 808 mappings (74.9 MiB), 822 -> 33 mappings, 110.0 MiB in huge pages" or "not remapped:
 * no transparent huge pages (...)". Owned by the pool. */
const char *gb_pool_remap(const GbPool *pool);

/* Whether CPython compiles every module of prog: compile(source, path, "exec",
 * dont_inherit=True), which rejects what tree-sitter accepts but the interpreter does not (an
 * annotated name declared nonlocal, `return` outside a function, a misplaced __future__
 * import, ...). Asked of one interpreter (cfg->python, -I -S) that the pool starts at the
 * first call and keeps; compile() runs none of the program, so it is not sandboxed. Sets
 * *compiles, and with false the first error in err ("main.py: SyntaxError: ..."). Returns
 * false (*compiles true, err set) when the interpreter cannot be started or stops answering
 * twice in a row. Thread-safe: calls are served one at a time. */
bool gb_pool_compile(GbPool *pool, const GbProgram *prog, bool *compiles, GbError *err);

/* Python version of the workers' interpreter, e.g. "3.11.2" (owned by the pool). */
const char *gb_pool_python_version(const GbPool *pool);

/* Stop every run in progress and make every later gb_pool_run/gb_pool_lint return false
 * at once (status GB_RUN_ERROR, "interrupted"). Async-signal-safe: it only writes one
 * byte to a pipe, so it may be called from a signal handler or a signal-waiting thread.
 * The runner itself installs no signal handlers. */
void gb_pool_interrupt(GbPool *pool);

/* Process ids of the live worker processes (for monitoring and tests); writes at most max,
 * returns how many there are. Not synchronised with runs in progress. */
size_t gb_pool_worker_pids(GbPool *pool, int *out, size_t max);

/* Accumulated timings over every run (seconds, summed), for the overhead breakdown.
 * All stamps are CLOCK_MONOTONIC, taken in genebench, the worker and the child. */
typedef struct {
    unsigned long runs;
    double prepare_s;     /* run directory, module files, pipes, request encoding (genebench) */
    double dispatch_s;    /* request sent -> worker starts fork() */
    double fork_s;        /* fork() in the worker */
    double start_s;       /* fork returned -> child running (scheduling) */
    double run_s;         /* child: sandbox set-up, program and tests, result written */
    double exit_s;        /* child result written -> child exited (address-space teardown) */
    double reap_s;        /* child exited -> every process of the run killed and reaped */
    double report_s;      /* worker done -> genebench has the result */
    double teardown_s;    /* output drained, run directory removed (genebench) */
    double total_s;       /* whole gb_pool_run per run (for stdio: per case) */
    double child_faults;  /* page faults of the run's child (minor + major) */
    double worker_faults; /* page faults of the worker itself from fork to reap */
} GbPoolStats;
void gb_pool_stats(GbPool *pool, GbPoolStats *out);

/* The stdio comparison (AVATAR's): both texts stripped of surrounding whitespace, same
 * number of lines, and on each line the same whitespace-separated tokens, where two
 * tokens that both parse as finite numbers are equal within an absolute 1e-6. */
bool gb_stdio_output_matches(const char *got, const char *expected);

/* Judge a stdio run (a case of a stdio task or a translated program's run) that is GB_RUN_PASS
 * so far: its whole output must match expected. Output beyond what was kept, or a NUL byte
 * (which would end the comparison early), fails it; the comparison sees every byte written.
 * On a mismatch r becomes GB_RUN_FAIL with exc_type "WrongOutput" and a message quoting both
 * sides (excerpt: returns an owned short quotation of a text). Other statuses are left as
 * they are. */
void gb_stdio_judge(GbRunResult *r, const char *expected, char *(*excerpt)(const char *text));

/* ---- Commands in the sandbox (gb_pool_exec) --------------------------------------------
 *
 * Run kind "exec": the run's child sets up the sandbox exactly as for a Python run (namespaces,
 * uid, rlimits, seccomp, its own run directory, stdin/stdout/stderr pipes, the wall-clock limit
 * that kills its whole process group) and then replaces itself by the command with execve. The
 * command has no way to write a result record (the record pipe is closed before the exec), so
 * an exec run is judged only by how the process ended and by its output:
 *   exit status 0 -> GB_RUN_PASS; another status -> GB_RUN_FAIL (exc_type "ExitStatus");
 *   the wall-clock or CPU limit -> GB_RUN_TIMEOUT; a signal -> GB_RUN_CRASH;
 *   a command the sandbox cannot start -> GB_RUN_ERROR.
 * Used for Java (javac, then java) by genebench eval --task translate: the command must be
 * visible in the sandbox (namespaces mode: under /usr, /etc or /lib*, read-only). */

/* A file of an exec run: a name relative to the run directory and its bytes (may hold NULs). */
typedef struct {
    char *name; /* owned when in a GbRunFiles; borrowed in a GbExecSpec */
    char *data;
    size_t len;
} GbRunFile;
typedef GbArray(GbRunFile) GbRunFiles;
void gb_run_files_destroy(GbRunFiles *files);

typedef struct {
    const char *const *argv; /* NULL-terminated; argv[0] an absolute path as the sandbox sees it */
    const char *const *env;  /* NULL-terminated "KEY=VALUE" list added to PATH, LANG, and HOME and
                                TMPDIR (= the run directory); may be NULL */
    const GbRunFile *files;  /* written into the run directory before the run (borrowed) */
    size_t nfiles;
    const char *stdin_text;     /* may be NULL: /dev/null */
    double timeout_s;           /* wall-clock limit; 0: the pool's */
    double cpu_s;               /* RLIMIT_CPU; 0: the pool's */
    long mem_mb;                /* RLIMIT_AS in MiB; 0: the pool's */
    const char *collect_suffix; /* NULL: nothing; else the regular files of the run directory's top
                                   level whose names end with it are returned (at most 256 files,
                                   64 MiB in all, symbolic links ignored) */
    size_t out_cap;             /* stdout bytes kept; 0: the pool's output_cap */
    bool exec_nothing;          /* the command may start no other program: every execve after its
                                   own is refused (EACCES) by a seccomp filter, in every sandbox
                                   mode; a run whose filter cannot be installed does not start
                                   (exit status 127). A translated program gets only the Java
                                   runtime, no other interpreter and no shell */
    bool view;                  /* where the worker has a mount namespace (namespaces, userns), the
                                   command sees only its installation (argv[0] is INSTALL/bin/NAME),
                                   the /etc directories it links to, the loader and the system's
                                   shared libraries, /proc, a few devices and the run directory, all
                                   read-only but the run directory (harness_view.py); plain mode:
                                   the worker's file system */
} GbExecSpec;

/* Run a command in a sandboxed child of a test worker (see above). Fills out (initialised here)
 * and, when spec->collect_suffix and collected are given, *collected (initialised here; owned
 * by the caller: gb_run_files_destroy). Returns false only on an infrastructure error (err set,
 * out->status GB_RUN_ERROR), as gb_pool_run. Thread-safe like gb_pool_run. */
bool gb_pool_exec(GbPool *pool, const GbExecSpec *spec, GbRunResult *out, GbRunFiles *collected, GbError *err);

/* ---- Probes: the equivalence check beyond the tests (nsga2/equiv.h) -------------------
 *
 * A probe is one sandboxed run (kind "probe" of harness_probe.py) that runs the program once and
 * then, per input: mode CALL calls the entry point with the input's literal argument list
 * (made afresh per call from the text, which must pass gb_literal_args_ok of
 * src/model/calls.h), capturing sys.stdout; mode CLASS makes an object of the entry point (a
 * class) and runs the input's call sequence on it (src/model/sequences.h); mode STDIO runs the program as __main__ with
 * the input as its stdin (fd 0 and sys.stdin), capturing sys.stdout. Per input the harness sends back, through the
 * run's sealed result record (the token; the seal check covers probes too), value   CALL: "ret=<canonical
 * value>;args=<canonical (args, kwargs) after the call>" or "raise=<exception type>"; STDIO: "exit=0", "exit=<code>" or
 * "raise=<type>". CLASS: per step of the call sequence (src/model/sequences.h), separated by GB_PROBE_STEP_SEP: "new",
 * "ret=<value>" or "set", or "raise=<type>", then
 *           ";state=<canonical attributes of the object>;args=<canonical arguments after
 *           the step>" (a sequence whose constructor raised ends there).
 *           Canonical values: containers by content (dicts and sets sorted), numbers by value
 *           (1 == 1.0; a non-integral float with 10 significant digits, so floats that agree
 *           to ~1e-10 relative agree), numpy scalars and arrays by value, other objects as
 *           type name + attributes; descriptions longer than 2000 characters are replaced by
 *           their length and SHA-256.
 *   out     the captured stdout
 *   cpu_s, wall_s   of the call (process CPU time, all threads)
 * An input whose call runs longer than limit_s (wall; SIGALRM) is TIMEOUT; inputs after
 * budget_s of the whole probe are SKIPPED. Comparing is the caller's business: the program
 * never sees another program's results. */
typedef enum { GB_PROBE_CALL, GB_PROBE_STDIO, GB_PROBE_CLASS } GbProbeMode;

#define GB_PROBE_STEP_SEP '\x1e'

typedef struct {
    GbProbeMode mode;
    const char *entry;         /* CALL: the function to call; CLASS: the class */
    const char *const *inputs; /* n argument lists (CALL), call sequences (CLASS) or stdin texts (STDIO), no NUL */
    size_t n;
    double limit_s;  /* per input (wall) */
    double budget_s; /* whole probe; inputs after it are skipped */
    bool cover;      /* also trace the branches the program's own code takes on each input */
    /* NULL, or n flags: the cost inputs. Once the CPU time the probe spent on cost inputs
     * exceeds cost_cpu_s, the cost inputs left are skipped (a program that far over its cost
     * bound is rejected whatever they would cost). */
    const bool *cost;
    double cost_cpu_s;
} GbProbeSpec;

typedef enum { GB_PROBE_OK, GB_PROBE_TIMEOUT, GB_PROBE_SKIPPED } GbProbeStatus;

typedef struct {
    GbProbeStatus status;
    char *value; /* owned, "" unless OK */
    char *out;   /* owned, "" unless OK */
    double cpu_s, wall_s;
    char *branches; /* owned: with spec->cover, the outcomes reached (space-separated ids), else "" */
} GbProbeItem;

typedef struct {
    GbRunResult run; /* status PASS: the probe completed and items has spec->n entries; else why not */
    GbArray(GbProbeItem) items;
    char *branches; /* owned: with spec->cover, every branch outcome of the program's source
                     * ("12t 12f" for the header on line 12 going on into its body or not,
                     * "15x" for the except handler or match case on line 15), else "" */
} GbProbeResult;

/* Probe prog (NULL: the task's own program) with spec; thread-safe like gb_pool_run. Returns
 * false only on an infrastructure error (err set). */
bool gb_pool_probe(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbProbeSpec *spec, GbProbeResult *out,
                   GbError *err);
void gb_probe_result_destroy(GbProbeResult *r);

/* A stdio task's cases in one probe run (gb_pool_probe, mode STDIO: each case's stdin, the program
 * run as a fresh __main__ per case in one sandboxed process) instead of one process per case, judged
 * as gb_pool_run judges them: a clean exit and stdout matching under gb_stdio_output_matches; out
 * is filled as gb_pool_run fills it (status, tests_run, failed_tests, failed_test "case K", wall_s).
 * Saves a fork and an interpreter's set-up per case. Not for every task (false, err set, nothing
 * run; gb_pool_cases_together_ok says which): only stdio tasks whose expected outputs fit a probe's
 * output (GB_PROBE_OUT_MAX / 2), under a pool without stderr_fails. */
#define GB_PROBE_OUT_MAX ((size_t)1 << 14)
bool gb_pool_cases_together_ok(const GbPool *pool, const GbTask *task);
/* Judge stdio case k of task from its probe item into out (status GB_RUN_PASS until a case fails:
 * the first failing case names it, every failing case is listed); false after a timeout, after
 * which a run apart would not go on either. */
bool gb_cases_judge(const GbTask *task, size_t k, const GbProbeItem *it, GbRunResult *out);
bool gb_pool_run_cases_together(GbPool *pool, const GbTask *task, const GbProgram *prog, GbRunResult *out,
                                GbError *err);
