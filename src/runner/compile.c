/* gb_pool_compile: CPython's compile() of a program's modules, asked of one long-lived
 * interpreter that the pool starts at the first call. compile() runs nothing of the program (it
 * parses, builds the symbol table and emits bytecode), so the interpreter runs outside the
 * sandbox; it reads only what genebench sends on its socket. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/runner/runner_private.h"

/* Request: u32 module count, then per module u32 length + path and u32 length + source.
 * Reply: u32 length + message, empty when every module compiles. Little-endian. */
static const char gb_compile__script[] =
    "import sys\n"
    "def main():\n"
    "    r, w = sys.stdin.buffer, sys.stdout.buffer\n"
    "    def num():\n"
    "        b = r.read(4)\n"
    "        if len(b) < 4:\n"
    "            raise EOFError\n"
    "        return int.from_bytes(b, 'little')\n"
    "    while True:\n"
    "        try:\n"
    "            mods = [(r.read(num()).decode('utf-8', 'replace'), r.read(num())) for _ in range(num())]\n"
    "        except EOFError:\n"
    "            return\n"
    "        msg = b''\n"
    "        for path, src in mods:\n"
    "            try:\n"
    "                compile(src, path, 'exec', dont_inherit=True)\n"
    "            except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError) as e:\n"
    "                msg = ('%s: %s: %s' % (path, type(e).__name__, e)).encode('utf-8', 'replace')\n"
    "                break\n"
    "        w.write(len(msg).to_bytes(4, 'little') + msg)\n"
    "        w.flush()\n"
    "main()\n";

static void gb_compile__stop(GbCompileServer *s)
{
    if (s->fd >= 0) close(s->fd);
    s->fd = -1;
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    s->pid = 0;
}

static bool gb_compile__start(GbPool *pool, GbCompileServer *s, GbError *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        gb_error_set(err, "compile check: socketpair: %s", strerror(errno));
        return false;
    }
    char *const argv[] = {pool->python, "-I", "-S", "-c", (char *)gb_compile__script, NULL};
    pid_t pid = fork();
    if (pid < 0) {
        gb_error_set(err, "compile check: fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return false;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls between fork and exec (genebench has threads). */
        int null = open("/dev/null", O_WRONLY);
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0 || null < 0 || dup2(null, 2) < 0) _exit(127);
        close_range(3, UINT_MAX, 0);
        execv(pool->python, argv);
        _exit(127);
    }
    close(sv[1]);
    s->fd = sv[0];
    s->pid = pid;
    return true;
}

static bool gb_compile__send(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool gb_compile__recv(int fd, char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static void gb_compile__u32(GbStr *s, size_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    gb_str_append_n(s, (const char *)b, 4);
}

/* One exchange with a running server. False when the server is gone or answers nonsense. */
static bool gb_compile__ask(GbCompileServer *s, const GbStr *req, bool *compiles, GbError *msg)
{
    unsigned char h[4];
    if (!gb_compile__send(s->fd, req->data, req->len) || !gb_compile__recv(s->fd, (char *)h, 4)) return false;
    uint32_t n = gb_rec_get_u32((const char *)h);
    if (n > (1u << 20)) return false;
    char *text = gb_malloc(n + 1);
    bool ok = gb_compile__recv(s->fd, text, n);
    text[n] = '\0';
    if (ok) {
        *compiles = n == 0;
        if (n > 0) gb_error_set(msg, "%s", text);
    }
    free(text);
    return ok;
}

bool gb_pool_compile(GbPool *pool, const GbProgram *prog, bool *compiles, GbError *err)
{
    *compiles = true;
    GbStr req;
    gb_str_init(&req);
    gb_compile__u32(&req, prog->modules.len);
    for (size_t m = 0; m < prog->modules.len; m++) {
        const GbFile *f = &prog->modules.items[m];
        size_t pl = strlen(f->path), sl = strlen(f->source);
        gb_compile__u32(&req, pl);
        gb_str_append_n(&req, f->path, pl);
        gb_compile__u32(&req, sl);
        gb_str_append_n(&req, f->source, sl);
    }
    pthread_mutex_lock(&pool->compile_mu);
    GbCompileServer *s = &pool->compile;
    /* A server that died (a crash in compile(), a kill) is replaced once. */
    bool ok = false;
    for (int attempt = 0; attempt < 2 && !ok; attempt++) {
        if (s->fd < 0 && !gb_compile__start(pool, s, err)) break;
        ok = gb_compile__ask(s, &req, compiles, err);
        if (!ok) {
            gb_compile__stop(s);
            gb_error_set(err, "compile check: the interpreter %s stopped answering", pool->python);
        }
    }
    pthread_mutex_unlock(&pool->compile_mu);
    gb_str_destroy(&req);
    if (!ok) *compiles = true;
    return ok;
}

void gb_pool_compile_init(GbPool *pool)
{
    pthread_mutex_init(&pool->compile_mu, NULL);
    pool->compile.fd = -1;
    pool->compile.pid = 0;
}

void gb_pool_compile_destroy(GbPool *pool)
{
    gb_compile__stop(&pool->compile);
    pthread_mutex_destroy(&pool->compile_mu);
}
