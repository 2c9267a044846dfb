/* The runner under programs that misbehave: hangs, fork bombs, memory, file and output limits,
 * crashes, signals, files outside the run, the network, the disk cap; every sandbox mode; commands
 * (gb_pool_exec), bad interpreters and interrupted runs. */
#include "tests/unit/runner_fixture.h"

/* ------------------------------------------------------------------ reliability */

static void test_runner_infinite_loop_and_fork_bomb_time_out(void **state)
{
    Fixture *fx = *state;
    static const char *const srcs[] = {
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(1000)\n"
        "while True:\n    pass\n",
    };
    for (size_t i = 0; i < 2; i++) {
        GbTask t;
        task_assert(&t, "hang", srcs[i], "assert True\n");
        GbRunResult r;
        assert_int_equal(run(fx->pool, &t, &r), GB_RUN_TIMEOUT);
        assert_string_equal(r.exc_type, "Timeout");
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        assert_clean(fx);
    }
    run_simple_pass(fx->pool);
}

static void test_runner_memory_file_and_output_limits(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    GbRunResult r;
    task_assert(&t, "mem", "x = bytearray(50 * 1024 ** 3)\n", "assert len(x) > 0\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "MemoryError");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    task_assert(&t, "file",
                "block = b'\\0' * (1 << 20)\nwith open('big.bin', 'wb') as f:\n    for _ in range(10 * 1024):\n"
                "        f.write(block)\n",
                "assert True\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "OSError");
    assert_non_null(strstr(r.exc_message, "too large"));
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* 1 GiB on stdout: kept up to the cap, the rest drained; the program passes */
    task_assert(&t, "print",
                "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n",
                "assert True\n");
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    assert_int_equal(run(fx->strict, &t, &r), GB_RUN_PASS);
    assert_int_equal(strlen(r.out), cfg.output_cap);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    task_assert(&t, "close", "import os, sys\nprint('before')\nsys.stdout.close()\nos.close(1)\nos.close(2)\n",
                "assert True\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    assert_string_equal(r.out, "before\n");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

static void test_runner_segfault_is_a_crash(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    task_assert(&t, "segv", "import ctypes\nctypes.string_at(0)\n", "assert True\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_CRASH);
    assert_int_equal(r.signal, SIGSEGV);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
    run_simple_pass(fx->pool);
}

static void test_runner_signals_to_the_worker_are_contained(void **state)
{
    Fixture *fx = *state;
    static const char *const srcs[] = {
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
        "import os, signal\nos.killpg(os.getpgid(os.getppid()) or os.getppid(), signal.SIGKILL)\n",
        "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
    };
    for (size_t i = 0; i < 3; i++) {
        GbTask t;
        task_assert(&t, "kill", srcs[i], "assert True\n");
        GbRunResult r;
        GbError err = {{0}};
        assert_true(gb_pool_run(fx->pool, &t, NULL, &r, &err));
        assert_int_not_equal(r.status, GB_RUN_ERROR);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        run_simple_pass(fx->pool);
        run_simple_pass(fx->pool);
        assert_clean(fx);
    }
}

static void test_runner_files_outside_are_protected(void **state)
{
    Fixture *fx = *state;
    char dir[300], file[340];
    snprintf(dir, sizeof dir, "%s/precious", g_tmp);
    snprintf(file, sizeof file, "%s/keep.txt", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    FILE *f = fopen(file, "w");
    fputs("keep\n", f);
    fclose(f);
    char *src = gb_asprintf("import os, shutil\n"
                            "errors = 0\n"
                            "for op in (lambda: os.remove('%s'), lambda: shutil.rmtree('%s'),\n"
                            "           lambda: open('%s', 'w').write('gone')):\n"
                            "    try:\n"
                            "        op()\n"
                            "    except OSError:\n"
                            "        errors += 1\n"
                            "open('mine.txt', 'w').write('ok')\n",
                            file, dir, file);
    GbTask t;
    task_assert(&t, "rm", src, "assert errors == 3, errors\nassert open('mine.txt').read() == 'ok'\n");
    GbRunResult r;
    GbRunStatus s = run(fx->pool, &t, &r);
    if (s != GB_RUN_PASS) print_error("%s: %s\n", r.exc_type, r.exc_message);
    assert_int_equal(s, GB_RUN_PASS);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    free(src);
    size_t len = 0;
    char *text = gb_read_file(file, &len, NULL);
    assert_non_null(text);
    assert_string_equal(text, "keep\n");
    free(text);
    unlink(file);
    rmdir(dir);
    assert_clean(fx);
}

static void test_runner_network_is_refused(void **state)
{
    Fixture *fx = *state;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(ls, 4), 0);
    socklen_t alen = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &alen);
    char *src = gb_asprintf("import socket\n"
                            "def probe():\n"
                            "    s = socket.create_connection(('127.0.0.1', %d), timeout=2)\n"
                            "    s.sendall(b'hello')\n"
                            "    return True\n",
                            ntohs(a.sin_port));
    GbTask t;
    task_assert(&t, "net", src, "assert probe()\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_non_null(r.exc_type);
    assert_string_not_equal(r.exc_type, "AssertionError");
    int c = accept(ls, NULL, NULL);
    assert_true(c < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
    close(ls);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    free(src);
    assert_clean(fx);
}

static void test_runner_killed_worker_is_replaced(void **state)
{
    Fixture *fx = *state;
    int pids[8];
    assert_int_equal(gb_pool_worker_pids(fx->pool, pids, 8), 6);
    for (int i = 0; i < 6; i++) assert_int_equal(kill(pids[i], SIGKILL), 0);
    int other[4];
    assert_int_equal(gb_pool_worker_pids(fx->plain, other, 4), 3);
    for (int i = 0; i < 3; i++) assert_int_equal(kill(other[i], SIGKILL), 0);
    /* runs rotate over both workers of a kind */
    for (int i = 0; i < 2; i++) run_pass_each_kind(fx->pool);
    run_pass_each_kind(fx->plain);
    int now[8];
    assert_int_equal(gb_pool_worker_pids(fx->pool, now, 8), 6);
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 6; k++) assert_int_not_equal(now[i], pids[k]);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ pools in every mode */

static void reliability_subset(const Fixture *fx, GbPool *pool, const char *mode)
{
    int port;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(ls, (struct sockaddr *)&a, sizeof a);
    listen(ls, 4);
    socklen_t alen = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &alen);
    port = ntohs(a.sin_port);
    char *net = gb_asprintf("import socket\nsocket.create_connection(('127.0.0.1', %d), timeout=2)\n", port);
    static const char *const srcs[] = {
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(1000)\n",
    };
    const GbRunStatus want[] = {GB_RUN_TIMEOUT, (GbRunStatus)-1, GB_RUN_PASS};
    for (size_t i = 0; i < 4; i++) {
        GbTask t;
        task_assert(&t, mode, i < 3 ? srcs[i] : net, "assert True\n");
        GbRunResult r;
        GbError err = {{0}};
        assert_true(gb_pool_run(pool, &t, NULL, &r, &err));
        if (i < 3 && want[i] != (GbRunStatus)-1) assert_int_equal(r.status, want[i]);
        if (i == 3) assert_int_equal(r.status, GB_RUN_FAIL);
        assert_int_not_equal(r.status, GB_RUN_ERROR);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        run_simple_pass(pool);
        /* only the workers (and the compile check's interpreter) remain: every process of the run is gone */
        assert_int_equal(descendants(NULL, 0), fx->workers + (compile_server_pid() > 0));
    }
    assert_true(accept(ls, NULL, NULL) < 0);
    close(ls);
    free(net);
}

static void test_runner_every_sandbox_mode(void **state)
{
    Fixture *fx = *state;
    GbPool *pools[] = {fx->userns, fx->plain};
    const int modes[] = {GB_SANDBOX_USERNS, GB_SANDBOX_PLAIN};
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(gb_pool_sandbox(pools[i]), gb_sandbox_mode_name((GbSandboxMode)modes[i]));
        reliability_subset(fx, pools[i], gb_pool_sandbox(pools[i]));
    }
    /* what a mode lacks is stated */
    assert_non_null(strstr(gb_pool_sandbox_detail(fx->plain), "plain (no namespaces: the host's /proc"));
    assert_int_equal(strncmp(gb_pool_sandbox_detail(fx->userns), "userns", 6), 0);
    print_message("  sandbox: %s; %s\n", gb_pool_sandbox_detail(fx->pool), gb_pool_sandbox_detail(fx->userns));
    assert_clean(fx);
}

/* ------------------------------------------------------------------ commands (gb_pool_exec) */

static GbRunStatus exec_sh(GbPool *pool, const char *script, const char *in, const GbRunFile *files, size_t nfiles,
                           const char *collect, GbRunResult *r, GbRunFiles *got)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    const char *env[] = {"GB_TEST_VAR=seen", NULL};
    GbExecSpec spec = {.argv = argv,
                       .env = env,
                       .files = files,
                       .nfiles = nfiles,
                       .stdin_text = in,
                       .timeout_s = 1.5,
                       .collect_suffix = collect};
    GbError err = {{0}};
    bool ok = gb_pool_exec(pool, &spec, r, got, &err);
    if (!ok) print_error("gb_pool_exec: %s\n", err.msg);
    assert_true(ok);
    return r->status;
}

static void test_runner_exec_commands(void **state)
{
    Fixture *fx = *state;
    GbPool *pools[] = {fx->pool, fx->userns, fx->plain};
    for (size_t p = 0; p < 3; p++) {
        GbPool *pool = pools[p];
        GbRunResult r;
        /* exit status, stdin, stdout, stderr, the environment, the run directory */
        assert_int_equal(
            exec_sh(pool, "read x; echo got $x $GB_TEST_VAR; echo oops >&2; exit 3", "41\n", NULL, 0, NULL, &r, NULL),
            GB_RUN_FAIL);
        assert_string_equal(r.out, "got 41 seen\n");
        assert_string_equal(r.err, "oops\n");
        assert_string_equal(r.exc_type, "ExitStatus");
        assert_string_equal(r.exc_message, "exit status 3");
        gb_run_result_destroy(&r);
        /* files in, files out: binary data (with NULs) survive both ways; links are not collected */
        GbRunFile in = {"a.bin", "x\0y", 3};
        GbRunFiles got = {0};
        assert_int_equal(exec_sh(pool, "cat a.bin > b.bin; printf 'z\\000' >> b.bin; ln -s /etc/passwd c.bin", NULL,
                                 &in, 1, ".bin", &r, &got),
                         GB_RUN_PASS);
        assert_int_equal(got.len, 2);
        for (size_t i = 0; i < got.len; i++) {
            if (strcmp(got.items[i].name, "b.bin") == 0) {
                assert_int_equal(got.items[i].len, 5);
                assert_memory_equal(got.items[i].data, "x\0yz\0", 5);
            } else {
                assert_string_equal(got.items[i].name, "a.bin");
            }
        }
        gb_run_files_destroy(&got);
        gb_run_result_destroy(&r);
        /* the command cannot forge a result record: writing one into every descriptor does not
         * make a failing command pass, nor an error out of a passing one */
        assert_int_equal(exec_sh(pool,
                                 "for fd in 3 4 5 6 7 8 9; do printf '\\030\\000\\000\\000\\007\\000\\000\\000outcome"
                                 "\\004\\000\\000\\000pass' >&$fd; done 2>/dev/null; exit 1",
                                 NULL, NULL, 0, NULL, &r, NULL),
                         GB_RUN_FAIL);
        gb_run_result_destroy(&r);
        /* a hang (and what it started) is killed at the wall-clock limit */
        assert_int_equal(exec_sh(pool, "sleep 100 & while :; do :; done", NULL, NULL, 0, NULL, &r, NULL),
                         GB_RUN_TIMEOUT);
        assert_string_equal(r.exc_message, "wall-clock limit of 1.5 s exceeded");
        gb_run_result_destroy(&r);
        /* a signal is a crash */
        assert_int_equal(exec_sh(pool, "kill -SEGV $$", NULL, NULL, 0, NULL, &r, NULL), GB_RUN_CRASH);
        gb_run_result_destroy(&r);
        /* exec_nothing: the command itself runs, and nothing it starts (an interpreter, a shell,
         * itself again); without it the same script starts them */
        static const char *const starts[] = {"/usr/bin/python3 -c 'print(7)'", "/bin/sh -c 'echo 7'", "/bin/echo 7"};
        for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
            const char *sargv[] = {"/bin/sh", "-c", starts[i], NULL};
            GbExecSpec only = {.argv = sargv, .timeout_s = 5, .exec_nothing = true};
            GbError e = {{0}};
            assert_true(gb_pool_exec(pool, &only, &r, NULL, &e));
            assert_int_equal(r.status, GB_RUN_FAIL);
            assert_string_equal(r.out, "");
            assert_non_null(strstr(r.err, "Permission denied"));
            gb_run_result_destroy(&r);
            only.exec_nothing = false;
            assert_true(gb_pool_exec(pool, &only, &r, NULL, &e));
            assert_int_equal(r.status, GB_RUN_PASS);
            assert_string_equal(r.out, "7\n");
            gb_run_result_destroy(&r);
        }
        /* a command the sandbox cannot start is the runner's error, not the program's */
        const char *argv[] = {"/nonexistent/tool", NULL};
        GbExecSpec spec = {.argv = argv};
        GbError err = {{0}};
        assert_true(gb_pool_exec(pool, &spec, &r, NULL, &err));
        assert_int_equal(r.status, GB_RUN_ERROR);
        assert_non_null(strstr(r.exc_message, "not an executable file"));
        gb_run_result_destroy(&r);
    }
    assert_clean(fx);
}

static void test_runner_bad_interpreters(void **state)
{
    (void)state;
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    GbError err = {{0}};
    cfg.python = "/nonexistent/python3";
    assert_null(gb_pool_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "/nonexistent/python3"));
    /* an interpreter without dist-packages: the message names the module and interpreter */
    char wrapper[300];
    snprintf(wrapper, sizeof wrapper, "%s/bare-python", g_tmp);
    FILE *f = fopen(wrapper, "w");
    fprintf(f, "#!/bin/sh\nexec %s -S \"$@\"\n", GB_DEFAULT_PYTHON);
    fclose(f);
    chmod(wrapper, 0755);
    cfg.python = wrapper;
    assert_null(gb_pool_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "'numpy'"));
    assert_non_null(strstr(err.msg, wrapper));
    unlink(wrapper);
}

static void *interrupter(void *arg)
{
    GbPool *pool = arg;
    usleep(300 * 1000);
    gb_pool_interrupt(pool);
    return NULL;
}

static void test_runner_interrupt_stops_runs(void **state)
{
    Fixture *fx = *state;
    GbPool *pool = fx->userns; /* the last test: this pool stays interrupted */
    GbTask t;
    task_assert(&t, "forever", "while True:\n    pass\n", "assert True\n");
    pthread_t th;
    pthread_create(&th, NULL, interrupter, pool);
    GbRunResult r;
    GbError err = {{0}};
    assert_false(gb_pool_run(pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_ERROR);
    assert_non_null(strstr(err.msg, "interrupted"));
    pthread_join(th, NULL);
    gb_run_result_destroy(&r);
    assert_false(gb_pool_run(pool, &t, NULL, &r, &err)); /* stays interrupted */
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_infinite_loop_and_fork_bomb_time_out),
        cmocka_unit_test(test_runner_memory_file_and_output_limits),
        cmocka_unit_test(test_runner_segfault_is_a_crash),
        cmocka_unit_test(test_runner_signals_to_the_worker_are_contained),
        cmocka_unit_test(test_runner_files_outside_are_protected),
        cmocka_unit_test(test_runner_network_is_refused),
        cmocka_unit_test(test_runner_killed_worker_is_replaced),
        cmocka_unit_test(test_runner_every_sandbox_mode),
        cmocka_unit_test(test_runner_exec_commands),
        cmocka_unit_test(test_runner_bad_interpreters),
        cmocka_unit_test(test_runner_interrupt_stops_runs),
    };
    return runner_main("test_runner_limits", tests, sizeof tests / sizeof *tests);
}
