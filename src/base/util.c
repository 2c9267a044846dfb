#include "src/base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void gb__oom(size_t n)
{
    fprintf(stderr, "genebench: out of memory allocating %zu bytes\n", n);
    abort();
}

void *gb_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) gb__oom(n);
    return p;
}

void *gb_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) gb__oom(count * size);
    return p;
}

void *gb_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) gb__oom(n);
    return q;
}

char *gb_strdup(const char *s)
{
    if (!s) return NULL;
    return gb_strndup(s, strlen(s));
}

char *gb_strndup(const char *s, size_t n)
{
    char *p = gb_malloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *gb_vasprintf(const char *fmt, va_list ap)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_vappendf(&s, fmt, ap);
    return gb_str_take(&s);
}

char *gb_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *r = gb_vasprintf(fmt, ap);
    va_end(ap);
    return r;
}

void gb_str_init(GbStr *s)
{
    s->data = NULL;
    s->len = 0;
    s->cap = 0;
}

void gb_str_destroy(GbStr *s)
{
    free(s->data);
    gb_str_init(s);
}

static void gb_str__reserve(GbStr *s, size_t extra)
{
    size_t need = s->len + extra + 1;
    if (need <= s->cap) return;
    size_t cap = s->cap ? s->cap * 2 : 64;
    while (cap < need) cap *= 2;
    s->data = gb_realloc(s->data, cap);
    s->cap = cap;
}

void gb_str_append_n(GbStr *s, const char *text, size_t n)
{
    gb_str__reserve(s, n);
    if (n) memcpy(s->data + s->len, text, n);
    s->len += n;
    s->data[s->len] = '\0';
}

void gb_str_append(GbStr *s, const char *text)
{
    gb_str_append_n(s, text, strlen(text));
}

void gb_str_vappendf(GbStr *s, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    gb_str__reserve(s, (size_t)n);
    vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
    s->len += (size_t)n;
}

void gb_str_appendf(GbStr *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb_str_vappendf(s, fmt, ap);
    va_end(ap);
}

void gb_str_clear(GbStr *s)
{
    s->len = 0;
    if (s->data) s->data[0] = '\0';
}

char *gb_str_take(GbStr *s)
{
    char *d = s->data ? s->data : gb_strdup("");
    gb_str_init(s);
    return d;
}

void gb_error_set(GbError *err, const char *fmt, ...)
{
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

char *gb_read_file(const char *path, size_t *len_out, GbError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gb_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    GbStr s;
    gb_str_init(&s);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) gb_str_append_n(&s, buf, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        gb_str_destroy(&s);
        gb_error_set(err, "%s: read error", path);
        return NULL;
    }
    if (len_out) *len_out = s.len;
    return gb_str_take(&s);
}

bool gb_write_file_atomic(const char *path, const char *data, size_t len, GbError *err)
{
    char *tmp = gb_asprintf("%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        gb_error_set(err, "%s: cannot create: %s", tmp, strerror(errno));
        free(tmp);
        return false;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            gb_error_set(err, "%s: write failed: %s", tmp, strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return false;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        gb_error_set(err, "%s: cannot flush: %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        gb_error_set(err, "%s: cannot rename into place: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
}

static bool gb_ident_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool gb_text_has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    if (!text || n == 0) return false;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || !gb_ident_byte(p[-1])) && !gb_ident_byte(p[n])) return true;
    return false;
}

bool gb_utf8_valid(const char *s, size_t len, size_t *bad_offset)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t n;
        unsigned min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1;
            min = 0x80;
            c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            min = 0x800;
            c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            min = 0x10000;
            c &= 0x07;
        } else {
            goto bad;
        }
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (p[i + k] & 0xC0) != 0x80) goto bad;
            c = (c << 6) | (p[i + k] & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) goto bad;
        i += n + 1;
    }
    return true;
bad:
    if (bad_offset) *bad_offset = i;
    return false;
}

double gb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t gb_hash64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}
