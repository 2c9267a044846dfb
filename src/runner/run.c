/* One run on a worker (request, outputs, the "done" record, timings), and the public
 * gb_pool_run / gb_pool_lint built on it. */
#include "src/runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/runner/runner_private.h"

void gb_raw_init(GbRaw *r)
{
    memset(r, 0, sizeof *r);
    gb_str_init(&r->out);
    gb_str_init(&r->err);
    gb_str_init(&r->done_body);
    gb_str_init(&r->child_body);
}

void gb_raw_destroy(GbRaw *r)
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

/* The sandbox fields of a run request: resource limits (cpu_s 0: none) and the run uid. */
void gb_pool_add_limits(const GbPool *pool, const GbWorker *w, GbStr *body, long cpu_s)
{
    gb_pool_add_limits_mem(pool, w, body, cpu_s, 0);
}

void gb_pool_add_limits_mem(const GbPool *pool, const GbWorker *w, GbStr *body, long cpu_s, long mem_mb)
{
    const GbPoolConfig *cfg = &pool->cfg;
    if (mem_mb <= 0) mem_mb = cfg->mem_mb;
    long nproc = cfg->nproc;
    if (nproc > 0) {
        if (w->mode == GB_SANDBOX_USERNS) nproc += 1; /* the worker counts in its namespace */
        if (w->mode == GB_SANDBOX_PLAIN && w->run_uid < 0) nproc += pool->nproc_extra + 1;
    }
    gb_rec_addf(body, "cpu", "%ld", cpu_s);
    gb_rec_addf(body, "as", "%ld", mem_mb > 0 ? mem_mb * 1024L * 1024L : 0L);
    gb_rec_addf(body, "fsize", "%ld", cfg->fsize_mb > 0 ? cfg->fsize_mb * 1024L * 1024L : 0L);
    gb_rec_addf(body, "nofile", "%ld", cfg->nofile);
    gb_rec_addf(body, "nproc", "%ld", nproc);
    gb_rec_addf(body, "uid", "%ld", w->run_uid);
}

/* The upstream harness's execution rules (src/model/task.h): harness_rules.py applies them
 * in the run's child (apply_harness_rules). */
static void gb_pool__add_harness_rules(GbStr *body, const GbTask *task)
{
    if (task->harness == GB_HARNESS_NONE) return;
    gb_rec_add(body, "rules", gb_harness_rules_name(task->harness));
    if (task->harness_prelude) gb_rec_add(body, "prelude", task->harness_prelude);
    /* ClassEval imports program and tests as the module "<task id>_<k>" (k: the k-th answer) */
    if (task->harness == GB_HARNESS_CLASSEVAL && task->id) {
        char *module = gb_asprintf("%s_0", task->id);
        gb_rec_add(body, "module", module);
        free(module);
    }
}

/* Whether a run's tests run in the judge, apart from the program (harness_judge.py): assert and
 * unittest runs, unless their tests patch what the program uses (unittest.mock's patch replaces
 * a binding of the judge's process, not of the program's), their task's tests were found not to
 * split (GbTask.tests_together), or the pool keeps them together. */
static bool gb_pool__tests_split(const GbPool *pool, const GbRunSpec *rs)
{
    if (pool->cfg.tests_in_program || !rs->test_code) return false;
    if (rs->task && rs->task->tests_together) return false;
    if (strcmp(rs->kind, "assert") != 0 && strcmp(rs->kind, "unittest") != 0) return false;
    return !strstr(rs->test_code, "mock") && !strstr(rs->test_code, "patch");
}

bool gb_pool_judges_apart(const GbPool *pool, const GbTask *task)
{
    if (task->kind == GB_TESTS_STDIO) return false;
    GbRunSpec rs = {
        .kind = task->kind == GB_TESTS_UNITTEST ? "unittest" : "assert", .test_code = task->test_code, .task = task};
    return gb_pool__tests_split(pool, &rs);
}

/* Run once on worker w. Returns false on an infrastructure error (err set). */
static bool gb_pool__run_once(GbPool *pool, GbWorker *w, const GbRunSpec *rs, GbRaw *raw, GbError *err)
{
    double t0 = gb_now();
    const GbPoolConfig *cfg = &pool->cfg;
    /* dir: the run directory as the worker sees it; hdir: the same reached from here */
    char *dir = gb_asprintf("%s/w%d-%lu", pool->runs, w->slot, ++w->serial);
    char *hdir = gb_asprintf("%s%s", w->host_root, dir);
    int in_fd = -1, tests_fd = -1, out_p[2] = {-1, -1}, err_p[2] = {-1, -1};
    bool ok = false;
    GbStr body, frame;
    gb_str_init(&body);
    gb_str_init(&frame);
    gb_runner_rmtree(hdir);
    if (mkdir(hdir, 0700) != 0 || !gb_runner_chown(AT_FDCWD, hdir, w->owner_uid)) {
        int e = errno;
        if (gb_worker_gone(w)) goto gone;
        gb_error_set(err, "cannot create run directory %s: %s", hdir, strerror(e));
        goto done;
    }
    if (rs->prog && !gb_runner_write_modules(hdir, rs->prog, w->owner_uid, err)) {
        if (gb_worker_gone(w)) goto gone;
        goto done;
    }
    for (size_t i = 0; rs->exec && i < rs->exec->nfiles; i++) {
        const GbRunFile *f = &rs->exec->files[i];
        if (!gb_runner_write_file(hdir, f->name, f->data, f->len, w->owner_uid, err)) {
            if (gb_worker_gone(w)) goto gone;
            goto done;
        }
    }
    if (rs->stdin_text && *rs->stdin_text) {
        in_fd = memfd_create("gb-stdin", MFD_CLOEXEC);
        if (in_fd < 0 || !gb_runner_write_all(in_fd, rs->stdin_text, strlen(rs->stdin_text)) ||
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
    if (rs->apart) {
        /* A probe judged apart: its fields (the inputs) reach only the judge, as the tests of a
         * split run do. */
        tests_fd = memfd_create("gb-tests", MFD_CLOEXEC);
        if (tests_fd < 0 || (rs->extra && !gb_runner_write_all(tests_fd, rs->extra->data, rs->extra->len)) ||
            lseek(tests_fd, 0, SEEK_SET) != 0) {
            gb_error_set(err, "cannot prepare the probe: %s", strerror(errno));
            goto done;
        }
        gb_rec_add(&body, "split", "1");
    } else if (gb_pool__tests_split(pool, rs)) {
        /* The tests reach only the run's judge, as a descriptor that it reads after it forked
         * the program's process: their text is in no memory the program inherits. */
        tests_fd = memfd_create("gb-tests", MFD_CLOEXEC);
        if (tests_fd < 0 || !gb_runner_write_all(tests_fd, rs->test_code, strlen(rs->test_code)) ||
            lseek(tests_fd, 0, SEEK_SET) != 0) {
            gb_error_set(err, "cannot prepare the tests: %s", strerror(errno));
            goto done;
        }
        gb_rec_add(&body, "split", "1");
    } else if (rs->test_code) {
        gb_rec_add(&body, "test", rs->test_code);
    }
    if (rs->task && strcmp(rs->kind, "unittest") == 0) {
        GbStr classes;
        gb_str_init(&classes);
        for (size_t i = 0; i < rs->task->test_classes.len; i++)
            gb_str_appendf(&classes, "%s\n", rs->task->test_classes.items[i]);
        gb_rec_add(&body, "classes", classes.data ? classes.data : "");
        gb_str_destroy(&classes);
    }
    if (rs->task) gb_pool__add_harness_rules(&body, rs->task);
    if (rs->extra && !rs->apart) gb_str_append_n(&body, rs->extra->data, rs->extra->len);
    if (strcmp(rs->kind, "lint") == 0) {
        GbStr mods;
        gb_str_init(&mods);
        for (size_t i = 0; i < rs->prog->modules.len; i++)
            gb_str_appendf(&mods, "%s\n", rs->prog->modules.items[i].path);
        gb_rec_add(&body, "modules", mods.data ? mods.data : "");
        gb_str_destroy(&mods);
    }
    if (rs->exec) {
        GbStr v;
        gb_str_init(&v);
        for (size_t i = 0; rs->exec->argv[i]; i++) {
            if (i) gb_str_append_n(&v, "", 1);
            gb_str_append(&v, rs->exec->argv[i]);
        }
        gb_rec_add_n(&body, "argv", v.data ? v.data : "", v.len);
        v.len = 0;
        for (size_t i = 0; rs->exec->env && rs->exec->env[i]; i++) {
            if (i) gb_str_append_n(&v, "", 1);
            gb_str_append(&v, rs->exec->env[i]);
        }
        gb_rec_add_n(&body, "env", v.data ? v.data : "", v.len);
        gb_str_destroy(&v);
        if (rs->exec->exec_nothing) gb_rec_add(&body, "exec_nothing", "1");
        if (rs->exec->view) gb_rec_add(&body, "view", "1");
        double cpu = rs->exec->cpu_s > 0 ? rs->exec->cpu_s : cfg->cpu_s;
        gb_pool_add_limits_mem(pool, w, &body, (long)ceil(cpu), rs->exec->mem_mb);
    } else {
        gb_pool_add_limits(pool, w, &body, (long)ceil(cfg->cpu_s));
    }
    gb_rec_frame(&frame, &body);

    int fds[4] = {in_fd, out_p[1], err_p[1], tests_fd};
    double t_sent = gb_now();
    if (!gb_worker_send(w, &frame, fds, tests_fd >= 0 ? 4 : 3)) {
        raw->worker_died = true;
        ok = true;
        goto done;
    }
    close(in_fd);
    in_fd = -1;
    if (tests_fd >= 0) close(tests_fd);
    tests_fd = -1;
    close(out_p[1]);
    out_p[1] = -1;
    close(err_p[1]);
    err_p[1] = -1;

    double deadline = t_sent + (rs->exec && rs->exec->timeout_s > 0 ? rs->exec->timeout_s
                                : rs->timeout_s > 0                 ? rs->timeout_s
                                                                    : cfg->timeout_s);
    double hard = 0, drain_until = 0, t_done = 0;
    bool kill_sent = false;
    for (;;) {
        if (raw->done && out_p[0] < 0 && err_p[0] < 0) break;
        double now = gb_now();
        if (!raw->done && !kill_sent && now >= deadline) {
            raw->timed_out = true;
        }
        if (!raw->done && !kill_sent && (raw->timed_out || raw->interrupted)) {
            gb_worker_send_kill(w, 0);
            kill_sent = true;
            hard = now + GB_KILL_GRACE_S;
        }
        if (!raw->done && kill_sent && now >= hard) {
            /* The worker does not answer: kill it (its pid namespace and every process of
             * the run die with it); it is replaced before the next run. */
            gb_worker_reap(w);
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
            if (!gb_worker_recv(w)) {
                gb_worker_reap(w);
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
            while (gb_worker_take_frame(w, &raw->done_body)) {
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
        if (res && res->vlen >= 4 && gb_rec_get_u32(res->val) == res->vlen - 4) {
            gb_str_append_n(&raw->child_body, res->val + 4, res->vlen - 4);
            if (!gb_rec_parse(raw->child_body.data ? raw->child_body.data : "", raw->child_body.len, &raw->child_rec))
                raw->child_rec.fields.len = 0;
        }
    }
    ok = true;
    if (raw->done && rs->exec && rs->exec->collect_suffix && rs->collected &&
        !gb_runner_collect_files(hdir, rs->exec->collect_suffix, 256, 64u << 20, rs->collected, rs->collect_err))
        gb_run_files_destroy(rs->collected);
    gb_runner_rmtree(hdir);
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
    goto done;
gone: /* the worker died before the run was sent: the caller retries on a new one */
    raw->worker_died = true;
    ok = true;
done:
    if (!ok) gb_runner_rmtree(hdir);
    if (in_fd >= 0) close(in_fd);
    if (tests_fd >= 0) close(tests_fd);
    for (int i = 0; i < 2; i++) {
        if (out_p[i] >= 0) close(out_p[i]);
        if (err_p[i] >= 0) close(err_p[i]);
    }
    gb_str_destroy(&body);
    gb_str_destroy(&frame);
    free(dir);
    free(hdir);
    return ok;
}

/* Acquire a worker, run, and retry once on a fresh worker process in the same slot when the
 * worker died under a run that was neither timed out nor interrupted (e.g. killed from
 * outside); a program that kills its worker twice is reported as a crash. */
bool gb_pool_run_spec(GbPool *pool, const GbRunSpec *rs, GbRaw *raw, GbError *err)
{
    if (atomic_load(&pool->interrupted)) {
        raw->interrupted = true;
        return true;
    }
    /* a command (exec) needs none of the libraries: the lightest worker forks fastest */
    GbWorkerKind kind = pool->cfg.no_tiers ? GB_WORKER_FULL
                        : rs->exec         ? GB_WORKER_STDLIB
                                           : gb_runner_kind_for(rs->prog, rs->test_code, rs->task);
    GbWorker *w = gb_pool_acquire(pool, kind);
    bool ok = true;
    for (int attempt = 0; attempt < 2; attempt++) {
        ok = gb_pool_ensure_alive(pool, w, err);
        if (!ok) break;
        gb_raw_destroy(raw);
        gb_raw_init(raw);
        ok = gb_pool__run_once(pool, w, rs, raw, err);
        if (!ok || !raw->worker_died || raw->timed_out || raw->interrupted) break;
    }
    gb_pool_release(pool, w);
    return ok;
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
            GbRunSpec rs = {.kind = "stdio", .prog = prog, .task = task, .stdin_text = cs->stdin_text, .out_cap = cap};
            if (!gb_pool_run_spec(pool, &rs, &raw, err)) {
                ok = false;
                out->status = GB_RUN_ERROR;
                break;
            }
            GbRunResult one;
            gb_run_result_init(&one);
            gb_runner_map(pool, &raw, &one);
            gb_stdio_judge(&one, cs->stdout_text ? cs->stdout_text : "", gb_runner_excerpt);
            if (pool->cfg.stderr_fails) gb_runner_fail_stderr(&one);
            out->tests_run++;
            out->wall_s += one.wall_s;
            if (one.peak_rss_kb > out->peak_rss_kb) out->peak_rss_kb = one.peak_rss_kb;
            bool last = k + 1 == task->cases.len;
            if (one.status != GB_RUN_PASS) {
                gb_array_push(&out->failed_tests, gb_asprintf("%zu", k));
            }
            if (one.status != GB_RUN_PASS && !have_failure) {
                have_failure = true;
                gb_runner_clear_outcome(out);
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
        GbRunSpec rs = {.kind = kind,
                        .prog = prog,
                        .test_code = task->test_code ? task->test_code : "",
                        .task = task,
                        .out_cap = pool->cfg.output_cap};
        if (!gb_pool_run_spec(pool, &rs, &raw, err)) {
            ok = false;
        } else {
            gb_runner_map(pool, &raw, out);
            if (pool->cfg.stderr_fails) gb_runner_fail_stderr(out);
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

bool gb_pool_exec(GbPool *pool, const GbExecSpec *spec, GbRunResult *out, GbRunFiles *collected, GbError *err)
{
    gb_run_result_init(out);
    if (collected) memset(collected, 0, sizeof *collected);
    GbError collect_err = {0};
    size_t cap = spec->out_cap ? spec->out_cap : pool->cfg.output_cap;
    GbRunSpec rs = {.kind = "exec",
                    .stdin_text = spec->stdin_text,
                    .out_cap = cap,
                    .exec = spec,
                    .collected = collected,
                    .collect_err = &collect_err};
    GbRaw raw;
    gb_raw_init(&raw);
    bool ok = gb_pool_run_spec(pool, &rs, &raw, err);
    if (ok) {
        double limit = spec->timeout_s > 0 ? spec->timeout_s : pool->cfg.timeout_s;
        double cpu = spec->cpu_s > 0 ? spec->cpu_s : pool->cfg.cpu_s;
        gb_runner_map_exec(&raw, limit, cpu, out);
        if (out->status == GB_RUN_PASS && collect_err.msg[0]) {
            out->status = GB_RUN_FAIL;
            out->exc_type = gb_strdup("Output");
            out->exc_message = gb_strdup(collect_err.msg);
        }
        if (out->status == GB_RUN_ERROR && raw.interrupted) {
            gb_error_set(err, "%s: interrupted", spec->argv[0]);
            ok = false;
        }
    }
    if (!ok) {
        out->status = GB_RUN_ERROR;
        if (!out->out) out->out = gb_strdup("");
        if (!out->err) out->err = gb_strdup("");
        gb_run_files_destroy(collected);
    }
    gb_raw_destroy(&raw);
    return ok;
}
