/* Address-space remap for the warm test-runner workers: a small shared object that
 * src/runner/harness.py loads with ctypes once, after the worker has imported numpy, scipy,
 * sklearn and the rest, and before it starts forking a child per run.
 *
 * Why: a warm worker maps about 800 regions (every shared library contributes four or
 * five: headers, code, read-only data, relocated data, bss). fork() copies and exit()
 * tears down each of them, and each child re-faults, page by page, the library code it
 * runs. Measured on a warm worker: fork + a small numpy call + exit, 4.3 ms with the heap
 * in huge pages, 2.7 ms after this remap.
 *
 * What: every private mapping whose contents can be copied exactly (the libraries' code
 * and data, the interpreter's own, private anonymous memory) is replaced, in address
 * order, by anonymous read-write-execute memory holding the same bytes. Consecutive
 * replacements come from one source mapping, at the same relative offsets, so the kernel
 * merges them into one region per run of adjacent mappings; the aligned parts of every
 * anonymous region are then collapsed into transparent huge pages (MADV_COLLAPSE). A
 * fork copies a few page-directory entries per region instead of page tables for 800
 * regions, and a child never faults in library code.
 *
 * Safety: the bytes at every address are unchanged; only the backing and the protection
 * (now read-write-execute) change. The copy of a region and its replacement happen back to
 * back in this file's code, with every signal blocked, in a single-threaded process (it
 * refuses otherwise), and nothing between them writes memory of another region. Mappings
 * this code cannot copy exactly are left alone: shared ones, special ones ([stack], [heap],
 * [vdso], ...), ones with any kernel flag outside a known-harmless set (wipe-on-fork,
 * don't-copy, locked, sealed, ...), unreadable ones, file mappings that reach past the end
 * of their file, and this object's own. It refuses the whole remap when the kernel cannot
 * collapse memory into huge pages, since 4 KiB anonymous pages would make fork dearer.
 *
 * Not linked into genebench: built as a shared module and embedded as bytes
 * (src/meson.build), written next to the harness when a pool starts. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

#define GB_HUGE ((uintptr_t)2 << 20)
/* Mappings closer than this share one source mapping (and can merge). */
#define GB_CLUSTER_GAP ((uintptr_t)1 << 30)
#define GB_MAX_REGIONS 32768

typedef struct {
    uintptr_t lo, hi;
    unsigned long long offset;
    const char *path; /* into the text buffer, up to '\n'; NULL for anonymous */
    size_t path_len;
    char perms[5];
    int flags_ok; /* VmFlags within the harmless set */
    int special;  /* [stack], [heap], [vdso], [anon:...], ... */
    int move;
} GbRegion;

typedef struct {
    char *text; /* mmap'd, not malloc'd: the heap is not touched during a remap */
    size_t text_cap, text_len;
    GbRegion *regs;
    size_t nregs;
} GbMaps;

static void gb_remap__say(char *report, size_t cap, const char *fmt, ...)
{
    if (!report || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(report, cap, fmt, ap);
    va_end(ap);
}

static uintptr_t gb_remap__hex(const char **p, const char *end)
{
    uintptr_t v = 0;
    while (*p < end) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) break;
        v = v * 16 + (uintptr_t)d;
        (*p)++;
    }
    return v;
}

static const char *gb_remap__skip_field(const char *p, const char *end)
{
    while (p < end && *p != ' ') p++;
    while (p < end && *p == ' ') p++;
    return p;
}

/* True when every flag on a "VmFlags:" line is one whose loss or keeping is harmless for
 * a private mapping replaced by an identical anonymous one. */
static int gb_remap__flags_ok(const char *p, const char *end)
{
    static const char *const ok[] = {"rd", "wr", "ex", "mr", "mw", "me", "ac", "nr", "sd", "mg", "hg", "nh"};
    while (p < end) {
        while (p < end && *p == ' ') p++;
        const char *w = p;
        while (p < end && *p != ' ') p++;
        if (p == w) break;
        int known = 0;
        for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
            if (p - w == 2 && w[0] == ok[i][0] && w[1] == ok[i][1]) known = 1;
        if (!known) return 0;
    }
    return 1;
}

static void gb_remap__free(GbMaps *m)
{
    if (m->text) munmap(m->text, m->text_cap);
    if (m->regs) munmap(m->regs, GB_MAX_REGIONS * sizeof *m->regs);
    m->text = NULL;
    m->regs = NULL;
}

/* Read and parse /proc/self/FILE (maps or smaps). The buffers are mapped before the file is
 * read, so they appear in it; callers skip them by address. */
static int gb_remap__read(GbMaps *m, const char *file)
{
    m->text_cap = (size_t)32 << 20;
    m->text = mmap(NULL, m->text_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    m->regs = mmap(NULL, GB_MAX_REGIONS * sizeof *m->regs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m->text == MAP_FAILED || m->regs == MAP_FAILED) {
        if (m->text == MAP_FAILED) m->text = NULL;
        if (m->regs == MAP_FAILED) m->regs = NULL;
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/%s", file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    m->text_len = 0;
    for (;;) {
        if (m->text_len == m->text_cap) {
            close(fd);
            errno = EFBIG;
            return -1;
        }
        ssize_t r = read(fd, m->text + m->text_len, m->text_cap - m->text_len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            close(fd);
            return -1;
        }
        if (r == 0) break;
        m->text_len += (size_t)r;
    }
    close(fd);
    m->nregs = 0;
    const char *p = m->text, *end = m->text + m->text_len;
    GbRegion *cur = NULL;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *q = p;
        uintptr_t lo = gb_remap__hex(&q, eol);
        if (q < eol && *q == '-' && q > p) {
            /* "lo-hi perms offset dev inode   path" */
            q++;
            uintptr_t hi = gb_remap__hex(&q, eol);
            if (m->nregs == GB_MAX_REGIONS) {
                errno = E2BIG;
                return -1;
            }
            cur = &m->regs[m->nregs++];
            memset(cur, 0, sizeof *cur);
            cur->lo = lo;
            cur->hi = hi;
            cur->flags_ok = 1; /* maps has no VmFlags; smaps overrides below */
            q = gb_remap__skip_field(q, eol);
            for (int i = 0; i < 4 && q + i < eol; i++) cur->perms[i] = q[i];
            q = gb_remap__skip_field(q, eol);
            const char *o = q;
            cur->offset = gb_remap__hex(&o, eol);
            q = gb_remap__skip_field(q, eol); /* offset */
            q = gb_remap__skip_field(q, eol); /* dev */
            q = gb_remap__skip_field(q, eol); /* inode */
            if (q < eol) {
                cur->path = q;
                cur->path_len = (size_t)(eol - q);
                cur->special = *q != '/';
            }
        } else if (cur && eol - p > 8 && memcmp(p, "VmFlags:", 8) == 0) {
            cur->flags_ok = gb_remap__flags_ok(p + 8, eol);
        }
        p = eol + 1;
    }
    return 0;
}

static int gb_remap__overlaps(const GbRegion *r, const void *a, size_t len)
{
    uintptr_t lo = (uintptr_t)a, hi = lo + len;
    return a && r->lo < hi && lo < r->hi;
}

static int gb_remap__same_path(const GbRegion *a, const GbRegion *b)
{
    return a->path && b->path && a->path_len == b->path_len && memcmp(a->path, b->path, a->path_len) == 0;
}

/* A file mapping is copied only if every page of it is backed by the file (a page wholly
 * past the end of the file would raise SIGBUS when read). */
static int gb_remap__file_ok(const GbRegion *r)
{
    char path[4096];
    if (r->path_len >= sizeof path) return 0;
    memcpy(path, r->path, r->path_len);
    path[r->path_len] = '\0';
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0; /* also "... (deleted)" */
    unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
    unsigned long long size = ((unsigned long long)st.st_size + page - 1) / page * page;
    return r->offset + (r->hi - r->lo) <= size;
}

static int gb_remap__threads(void)
{
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = '\0';
    const char *t = strstr(buf, "\nThreads:");
    if (!t) return -1;
    t += 9;
    while (*t == ' ' || *t == '\t') t++;
    int count = 0;
    while (*t >= '0' && *t <= '9') count = count * 10 + (*t++ - '0');
    return count;
}

/* Whether MADV_COLLAPSE works here (Linux >= 6.1, transparent huge pages not disabled). */
static int gb_remap__can_collapse(void)
{
    size_t len = 2 * GB_HUGE;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 0;
    char *a = (char *)(((uintptr_t)p + GB_HUGE - 1) & ~(GB_HUGE - 1));
    for (size_t i = 0; i < GB_HUGE; i += 4096) a[i] = 1;
    int ok = madvise(a, GB_HUGE, MADV_COLLAPSE) == 0;
    int saved = errno;
    munmap(p, len);
    errno = saved;
    return ok;
}

/* Collapse the 2 MiB-aligned part of every private anonymous region into huge pages.
 * Returns the bytes collapsed. */
static unsigned long long gb_remap__collapse(const GbMaps *m)
{
    unsigned long long bytes = 0;
    for (size_t i = 0; i < m->nregs; i++) {
        const GbRegion *r = &m->regs[i];
        int heap = r->path && r->path_len == 6 && memcmp(r->path, "[heap]", 6) == 0;
        if (r->perms[3] != 'p' || r->perms[0] != 'r' || (r->path && !heap)) continue;
        if (gb_remap__overlaps(r, m->text, m->text_cap) ||
            gb_remap__overlaps(r, m->regs, GB_MAX_REGIONS * sizeof *m->regs))
            continue;
        uintptr_t a = (r->lo + GB_HUGE - 1) & ~(GB_HUGE - 1), b = r->hi & ~(GB_HUGE - 1);
        if (b > a && madvise((void *)a, b - a, MADV_COLLAPSE) == 0) bytes += b - a;
    }
    return bytes;
}

/* The remap (see the top of this file). Returns the number of mappings replaced, or -1
 * when it refused or failed before changing anything; report (may be NULL) gets one line
 * saying what happened. Call with the GIL held (ctypes.PyDLL) in a single-threaded process. */
int gb_remap(char *report, size_t cap)
{
    int threads = gb_remap__threads();
    if (threads != 1) {
        gb_remap__say(report, cap, "not remapped: the worker has %d threads", threads);
        return -1;
    }
    if (!gb_remap__can_collapse()) {
        gb_remap__say(report, cap, "not remapped: no transparent huge pages (MADV_COLLAPSE: %s)", strerror(errno));
        return -1;
    }
    GbMaps m = {0};
    if (gb_remap__read(&m, "smaps") != 0) {
        gb_remap__say(report, cap, "not remapped: cannot read /proc/self/smaps: %s", strerror(errno));
        gb_remap__free(&m);
        return -1;
    }
    size_t before = m.nregs;
    /* this object's own mappings: those of the file holding this function */
    const GbRegion *self = NULL;
    for (size_t i = 0; i < m.nregs; i++)
        if (m.regs[i].lo <= (uintptr_t)&gb_remap && (uintptr_t)&gb_remap < m.regs[i].hi) self = &m.regs[i];
    unsigned long long moved_bytes = 0;
    for (size_t i = 0; i < m.nregs; i++) {
        GbRegion *r = &m.regs[i];
        r->move = r->perms[3] == 'p' && r->perms[0] == 'r' && !r->special && r->flags_ok &&
                  !gb_remap__overlaps(r, m.text, m.text_cap) &&
                  !gb_remap__overlaps(r, m.regs, GB_MAX_REGIONS * sizeof *m.regs) &&
                  !(self && gb_remap__same_path(r, self)) && (!r->path || gb_remap__file_ok(r));
    }

    /* From here to the end of the loop nothing may run between a copy and its replacement
     * that writes memory of another region: no signal handler, no other thread, no heap. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int moved = 0, failed_errno = 0;
    uintptr_t failed_at = 0;
    for (size_t i = 0; i < m.nregs && !failed_errno;) {
        if (!m.regs[i].move) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < m.nregs && m.regs[j + 1].move && m.regs[j + 1].lo - m.regs[j].hi < GB_CLUSTER_GAP) j++;
        uintptr_t base = m.regs[i].lo, span = m.regs[j].hi - base;
        char *src =
            mmap(NULL, span, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (src != MAP_FAILED) {
            for (size_t k = i; k <= j; k++) {
                GbRegion *r = &m.regs[k];
                size_t len = r->hi - r->lo;
                char *piece = src + (r->lo - base);
                memcpy(piece, (const void *)r->lo, len);
                if (mremap(piece, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)r->lo) == MAP_FAILED) {
                    failed_errno = errno;
                    failed_at = r->lo;
                    break;
                }
                moved++;
                moved_bytes += len;
            }
            munmap(src, span); /* what was not moved: the gaps between the mappings */
        }
        i = j + 1;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    gb_remap__free(&m);
    if (failed_errno) {
        /* The kernel unmaps the destination before it moves, so a failure here may have left
         * a hole where a library was: the process must not go on. */
        char msg[160];
        int n = snprintf(msg, sizeof msg, "genebench remap: mremap onto %#lx failed: %s\n", (unsigned long)failed_at,
                         strerror(failed_errno));
        if (n > 0) (void)!write(2, msg, (size_t)n);
        _exit(70);
    }

    GbMaps after = {0};
    unsigned long long huge = 0;
    size_t nafter = 0;
    if (gb_remap__read(&after, "maps") == 0) {
        huge = gb_remap__collapse(&after);
        nafter = after.nregs;
    }
    gb_remap__free(&after);
    gb_remap__say(report, cap, "remapped %d mappings (%.1f MiB), %zu -> %zu mappings, %.1f MiB in huge pages", moved,
                  (double)moved_bytes / (1 << 20), before, nafter, (double)huge / (1 << 20));
    return moved;
}
