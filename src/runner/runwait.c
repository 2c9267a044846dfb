/* The worker's wait for a run child, in C (part of the worker's shared object with
 * src/runner/remap.c; src/runner/harness_serve.py calls it through ctypes right after os.fork()).
 *
 * Why in C: from fork() until the child exits, every page the worker writes is shared with
 * the child, so each write costs a copy, and a write into a huge page first splits it into
 * 512 small ones, which every later fork then copies entry by entry. The Python loop that
 * did this wait (poll, read the result pipe, answer kill requests) wrote about 130 pages per
 * run and split the worker's heap from 60 MiB of huge pages to 14 MiB over 1,000 runs. This
 * loop writes only its own stack and a buffer that is not inherited by children
 * (MADV_DONTFORK).
 *
 * What it does is what the loop in serve_run did: tell genebench the run started, then wait
 * until the child has exited, meanwhile reading the child's result pipe (the first MiB is
 * kept) and serving "kill" requests from genebench; if genebench goes away, say so. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#define GB_RESULT_CAP ((size_t)1 << 20)
#define GB_CTL_CAP ((size_t)64 << 10)

/* What gb_run_wait returns (flags). */
enum {
    GB_WAIT_EXITED = 1,   /* the child exited (not reaped: the caller's wait4 does that) */
    GB_WAIT_CTL_GONE = 2, /* genebench closed the control socket: the caller kills and leaves */
    GB_WAIT_KILLED = 4,   /* genebench asked to kill the run, and it was killed */
};

/* Buffers written while a child is alive: mapped once, never inherited by a child. */
static char *g_result;
static char *g_ctl;

static int gb_run__buffers(void)
{
    if (g_result) return 0;
    size_t len = GB_RESULT_CAP + GB_CTL_CAP;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    madvise(p, len, MADV_DONTFORK);
    g_result = p;
    g_ctl = p + GB_RESULT_CAP;
    return 0;
}

static double gb_run__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void gb_run__put_u32(char *p, uint32_t v)
{
    p[0] = (char)(v & 0xFF);
    p[1] = (char)((v >> 8) & 0xFF);
    p[2] = (char)((v >> 16) & 0xFF);
    p[3] = (char)((v >> 24) & 0xFF);
}

static uint32_t gb_run__get_u32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

static int gb_run__send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The "started" record of the wire format (src/runner/harness_wire.py): {"op": "started", "pid": pid}. */
static int gb_run__send_started(int ctl, int pid)
{
    char num[24];
    int nl = snprintf(num, sizeof num, "%d", pid);
    char frame[128];
    size_t at = 4;
    const char *keys[] = {"op", "pid"};
    const char *vals[] = {"started", num};
    size_t vlens[] = {7, (size_t)nl};
    for (int i = 0; i < 2; i++) {
        size_t kl = strlen(keys[i]);
        gb_run__put_u32(frame + at, (uint32_t)kl);
        memcpy(frame + at + 4, keys[i], kl);
        at += 4 + kl;
        gb_run__put_u32(frame + at, (uint32_t)vlens[i]);
        memcpy(frame + at + 4, vals[i], vlens[i]);
        at += 4 + vlens[i];
    }
    gb_run__put_u32(frame, (uint32_t)(at - 4));
    return gb_run__send_all(ctl, frame, at);
}

/* Whether a record body has the field op == "kill". */
static int gb_run__is_kill(const char *body, size_t n)
{
    size_t i = 0;
    while (i + 4 <= n) {
        uint32_t kl = gb_run__get_u32(body + i);
        i += 4;
        if (kl > n - i) return 0;
        const char *key = body + i;
        i += kl;
        if (i + 4 > n) return 0;
        uint32_t vl = gb_run__get_u32(body + i);
        i += 4;
        if (vl > n - i) return 0;
        if (kl == 2 && memcmp(key, "op", 2) == 0) return vl == 4 && memcmp(body + i, "kill", 4) == 0;
        i += vl;
    }
    return 0;
}

static void gb_run__close_passed_fds(struct msghdr *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int nfd = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int k = 0; k < nfd; k++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + (size_t)k * sizeof(int), sizeof fd);
            close(fd);
        }
    }
}

static ssize_t gb_run__recv(int ctl, char *buf, size_t len, int flags)
{
    char cbuf[CMSG_SPACE(8 * sizeof(int))];
    struct iovec iov = {buf, len};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = cbuf;
    msg.msg_controllen = sizeof cbuf;
    ssize_t r = recvmsg(ctl, &msg, flags | MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (r >= 0) gb_run__close_passed_fds(&msg);
    return r;
}

/* Consume the whole records genebench has sent; returns -1 when it has gone, else whether
 * one of them asked for a kill. A partial record is left in the socket for later (the
 * worker's own loop reads what comes after the run). */
static int gb_run__read_ctl(int ctl)
{
    ssize_t r = gb_run__recv(ctl, g_ctl, GB_CTL_CAP, MSG_PEEK);
    if (r < 0) return errno == EINTR || errno == EAGAIN ? 0 : -1;
    if (r == 0) return -1;
    size_t have = (size_t)r, at = 0;
    int kill_asked = 0;
    while (have - at >= 4) {
        uint32_t len = gb_run__get_u32(g_ctl + at);
        if (have - at - 4 < len) break;
        if (gb_run__is_kill(g_ctl + at + 4, len)) kill_asked = 1;
        at += 4 + len;
    }
    if (at == 0) {
        /* only part of a record so far: wait a little for the rest rather than spin */
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
        return 0;
    }
    if (gb_run__recv(ctl, g_ctl, at, 0) < 0) return -1;
    return kill_asked;
}

/* Read the result pipe until it would block or ends; keeps the first GB_RESULT_CAP bytes. */
static int gb_run__read_result(int fd, size_t *len)
{
    char sink[4096];
    for (;;) {
        char *dst = *len < GB_RESULT_CAP ? g_result + *len : sink;
        size_t room = *len < GB_RESULT_CAP ? GB_RESULT_CAP - *len : sizeof sink;
        ssize_t r = read(fd, dst, room);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return 0;  /* EAGAIN: more may come */
        if (r == 0) return 1; /* every writer closed it */
        if (dst != sink) *len += (size_t)r;
    }
}

/* After os.fork() in the worker: close the child's ends (close_fds, n_close of them), send
 * "started", and wait as described at the top. times[0] gets the moment fork returned here
 * (CLOCK_MONOTONIC, as Python's time.monotonic), times[1] the moment the child was seen to
 * exit. The result bytes are then at gb_run_result() (*result_len of them). */
int gb_run_wait(int ctl, int pid, int result_r, const int *close_fds, int n_close, double *times, size_t *result_len)
{
    double t_forked = gb_run__now();
    if (gb_run__buffers() != 0) return -1;
    for (int i = 0; i < n_close; i++) close(close_fds[i]);
    int flags = 0;
    if (gb_run__send_started(ctl, pid) != 0) flags |= GB_WAIT_CTL_GONE;
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    fcntl(result_r, F_SETFL, fcntl(result_r, F_GETFL) | O_NONBLOCK);
    size_t len = 0;
    int result_open = 1, killed = 0;
    while (!(flags & (GB_WAIT_EXITED | GB_WAIT_CTL_GONE))) {
        struct pollfd p[3] = {{ctl, POLLIN, 0}, {result_open ? result_r : -1, POLLIN, 0}, {pidfd, POLLIN, 0}};
        int r = poll(p, 3, pidfd >= 0 ? -1 : 10);
        if (r < 0 && errno != EINTR) break;
        if (p[0].revents) {
            int k = gb_run__read_ctl(ctl);
            if (k < 0) {
                flags |= GB_WAIT_CTL_GONE;
            } else if (k > 0 && !killed) {
                killed = 1;
                flags |= GB_WAIT_KILLED;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
            }
        }
        if (result_open && p[1].revents && gb_run__read_result(result_r, &len)) result_open = 0;
        if (pidfd >= 0 ? p[2].revents != 0 : 0) flags |= GB_WAIT_EXITED;
        if (pidfd < 0) {
            /* no pidfd (Linux < 5.3): look without reaping, so the caller's wait4 gets rusage */
            siginfo_t info;
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
                flags |= GB_WAIT_EXITED;
        }
    }
    if (pidfd >= 0) close(pidfd);
    if (result_open) gb_run__read_result(result_r, &len);
    times[0] = t_forked;
    times[1] = gb_run__now();
    *result_len = len;
    return flags;
}

/* After the child and everything it left were killed: read the rest of the result pipe
 * (len bytes already read). Returns the new length. */
size_t gb_run_drain(int result_r, size_t len)
{
    if (gb_run__buffers() != 0) return len;
    gb_run__read_result(result_r, &len);
    return len;
}

/* The result bytes read by the last gb_run_wait / gb_run_drain (valid until the next run). */
const char *gb_run_result(void)
{
    return g_result;
}
