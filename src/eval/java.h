#pragma once
/* Scoring a Java translation of a stdio task (genebench eval --task translate): compile it with
 * javac, then run it with java on every stdio case, each step a command run in the sandbox
 * (gb_pool_exec: the same namespaces, uid, seccomp and limits as a Python run). The JVM runs
 * under RLIMIT_AS, RLIMIT_NPROC and a CPU limit, so both tools get flags that keep their
 * reservations and threads small:
 *   -Xmx512m -Xss64m (the main thread's stack, for deep recursion) -XX:+UseSerialGC
 *   -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xshare:auto -XX:-UsePerfData
 *   -XX:ReservedCodeCacheSize=64m -XX:CompressedClassSpaceSize=64m -XX:MaxMetaspaceSize=256m
 * (javac gets them as -J flags, and -proc:none -encoding UTF-8 -nowarn), MALLOC_ARENA_MAX=2
 * in the environment and RLIMIT_AS of GbJavaConfig.mem_mb (2048 MiB by default). The class
 * files javac writes are collected from the compile run and written into each case's run.
 * Thread-safe (the pool is). */
#include <stdbool.h>

#include "src/base/util.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

typedef struct {
    const char *java_home;    /* a JDK: bin/javac and bin/java under it */
    double compile_timeout_s; /* wall-clock (and CPU) limit of javac */
    double run_timeout_s;     /* wall-clock (and CPU) limit of one case */
    long mem_mb;              /* RLIMIT_AS of javac and java */
} GbJavaConfig;

/* The JDK to use (owned): `given` when not NULL, else Debian's OpenJDK 17
 * (/usr/lib/jvm/java-17-openjdk-<arch>), else the first /usr/lib/jvm/<dir> with bin/javac (in
 * name order). NULL with err when it has no executable bin/javac and bin/java. */
char *gb_java_home_find(const char *given, GbError *err);

/* Compile `code` as CLS.java and run class CLS on every stdio case of task, stopping at the
 * first case that does not pass. out (initialised here): PASS when every case exits 0 with the
 * expected output (gb_stdio_output_matches); FAIL with exc_type "CompileError" (javac's first
 * lines), "ExitStatus" (a case's exit status and stderr), or "WrongOutput"; TIMEOUT; CRASH;
 * failed_test "compile" or "case K". False with err only on an infrastructure error. */
bool gb_java_score(GbPool *pool, const GbJavaConfig *cfg, const GbTask *task, const char *code, const char *cls,
                   GbRunResult *out, GbError *err);
