/* Benchmark: scoring a Java translation in the sandbox (src/eval/java.h): javac once, then java
 * on each stdio case, each a command run in a sandboxed child of a warm worker (gb_pool_exec).
 * Prints the wall time of whole scorings, per compile and per case estimates, the sandbox mode,
 * nproc, the load average and the fork cost of the runs (gb_pool_stats). Not a test (tests are
 * never timed): `meson test -C build --benchmark java` or build/tests/bench_java [ROUNDS]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/eval/java.h"

static const char *const gb_bench__java = "import java.util.*;\n"
                                          "public class Main {\n"
                                          "    public static void main(String[] args) {\n"
                                          "        Scanner in = new Scanner(System.in);\n"
                                          "        long n = in.nextLong();\n"
                                          "        System.out.println(n * 2);\n"
                                          "    }\n"
                                          "}\n";

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    if (rounds < 1) rounds = 1;
    GbError err = {{0}};
    char *home = gb_java_home_find(NULL, &err);
    if (!home) {
        printf("no JDK: %s (skipped)\n", err.msg);
        return 0;
    }
    GbPoolConfig pc;
    gb_pool_config_defaults(&pc);
    pc.workers = 1;
    GbPool *pool = gb_pool_new(&pc, &err);
    if (!pool) {
        fprintf(stderr, "bench_java: %s\n", err.msg);
        free(home);
        return 1;
    }
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("bench/java");
    t.kind = GB_TESTS_STDIO;
    for (int k = 0; k < 4; k++) {
        GbStdioCase c = {gb_asprintf("%d\n", k + 20), gb_asprintf("%d\n", 2 * (k + 20))};
        gb_array_push(&t.cases, c);
    }
    GbJavaConfig jc = {home, 60, 10, 2048};
    double loads[3] = {0};
    if (getloadavg(loads, 3) < 0) loads[0] = loads[1] = loads[2] = -1;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    printf("bench_java: %s, sandbox %s, nproc %ld, load average %.2f %.2f %.2f\n", home, gb_pool_sandbox(pool), ncpu,
           loads[0], loads[1], loads[2]);
    double total = 0;
    int passed = 0;
    for (int r = 0; r < rounds; r++) {
        GbRunResult res;
        double t0 = gb_now();
        bool ok = gb_java_score(pool, &jc, &t, gb_bench__java, "Main", &res, &err);
        double dt = gb_now() - t0;
        total += dt;
        passed += ok && res.status == GB_RUN_PASS;
        printf("  round %d: %s, %.2f s (javac + %zu cases)\n", r + 1, ok ? gb_run_status_name(res.status) : err.msg, dt,
               t.cases.len);
        gb_run_result_destroy(&res);
    }
    GbPoolStats st;
    gb_pool_stats(pool, &st);
    printf("  %d/%d scorings passed, %.2f s per scoring (1 javac + %zu java runs), %lu runs\n", passed, rounds,
           total / rounds, t.cases.len, st.runs);
    if (st.runs)
        printf("  fork of the warm worker %.3f ms per run, whole run %.3f s per run (command included)\n",
               1000 * st.fork_s / (double)st.runs, st.total_s / (double)st.runs);
    if (getloadavg(loads, 3) >= 0) printf("  load average after: %.2f %.2f %.2f\n", loads[0], loads[1], loads[2]);
    gb_task_destroy(&t);
    gb_pool_delete(pool);
    free(home);
    return passed == rounds ? 0 : 1;
}
