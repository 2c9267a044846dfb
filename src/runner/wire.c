/* The wire format spoken with the workers: length-prefixed records and frames, and
 * sending/receiving them on a worker's control socket. */
#include "src/runner/runner.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "src/runner/runner_private.h"

static void gb_rec__u32(GbStr *s, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    gb_str_append_n(s, (const char *)b, 4);
}

uint32_t gb_rec_get_u32(const char *p)
{
    const unsigned char *b = (const unsigned char *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void gb_rec_add_n(GbStr *s, const char *key, const char *val, size_t len)
{
    gb_rec__u32(s, (uint32_t)strlen(key));
    gb_str_append(s, key);
    gb_rec__u32(s, (uint32_t)len);
    gb_str_append_n(s, val ? val : "", len);
}

void gb_rec_add(GbStr *s, const char *key, const char *val)
{
    gb_rec_add_n(s, key, val, val ? strlen(val) : 0);
}

void gb_rec_addf(GbStr *s, const char *key, const char *fmt, ...)
{
    GbStr v;
    gb_str_init(&v);
    va_list ap;
    va_start(ap, fmt);
    gb_str_vappendf(&v, fmt, ap);
    va_end(ap);
    gb_rec_add_n(s, key, v.data ? v.data : "", v.len);
    gb_str_destroy(&v);
}

/* A frame = u32 length + body; the body is stored with its length prefix in front. */
void gb_rec_frame(GbStr *frame, const GbStr *body)
{
    gb_str_clear(frame);
    gb_rec__u32(frame, (uint32_t)body->len);
    gb_str_append_n(frame, body->data ? body->data : "", body->len);
}

bool gb_rec_parse(const char *body, size_t len, GbRec *rec)
{
    rec->fields.len = 0;
    size_t i = 0;
    while (i < len) {
        if (len - i < 4) return false;
        uint32_t kl = gb_rec_get_u32(body + i);
        i += 4;
        if (len - i < kl + 4ul) return false;
        const char *k = body + i;
        i += kl;
        uint32_t vl = gb_rec_get_u32(body + i);
        i += 4;
        if (len - i < vl) return false;
        GbRecField f = {k, kl, body + i, vl};
        gb_array_push(&rec->fields, f);
        i += vl;
    }
    return true;
}

const GbRecField *gb_rec_find(const GbRec *rec, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < rec->fields.len; i++) {
        const GbRecField *f = &rec->fields.items[i];
        if (f->klen == kl && memcmp(f->key, key, kl) == 0) return f;
    }
    return NULL;
}

char *gb_rec_dup(const GbRec *rec, const char *key)
{
    const GbRecField *f = gb_rec_find(rec, key);
    return f ? gb_strndup(f->val, f->vlen) : NULL;
}

bool gb_rec_is(const GbRec *rec, const char *key, const char *value)
{
    const GbRecField *f = gb_rec_find(rec, key);
    return f && f->vlen == strlen(value) && memcmp(f->val, value, f->vlen) == 0;
}

double gb_rec_double(const GbRec *rec, const char *key, double dflt)
{
    char *s = gb_rec_dup(rec, key);
    double v = dflt;
    if (s && *s) v = strtod(s, NULL);
    free(s);
    return v;
}

long gb_rec_long(const GbRec *rec, const char *key, long dflt)
{
    char *s = gb_rec_dup(rec, key);
    long v = dflt;
    if (s && *s) v = strtol(s, NULL, 10);
    free(s);
    return v;
}

/* Move the first whole frame of in (u32 length, body) into body. */
bool gb_runner_take_frame(GbStr *in, GbStr *body)
{
    if (in->len < 4) return false;
    uint32_t n = gb_rec_get_u32(in->data);
    if (in->len - 4 < n) return false;
    gb_str_clear(body);
    gb_str_append_n(body, in->data + 4, n);
    size_t rest = in->len - 4 - n;
    memmove(in->data, in->data + 4 + n, rest);
    in->len = rest;
    in->data[rest] = '\0';
    return true;
}

bool gb_worker_take_frame(GbWorker *w, GbStr *body)
{
    return gb_runner_take_frame(&w->inbuf, body);
}

/* Read what is available on the control socket. Returns false at EOF or error. */
bool gb_worker_recv(GbWorker *w)
{
    char buf[65536];
    ssize_t n = recv(w->ctl, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
        gb_str_append_n(&w->inbuf, buf, (size_t)n);
        return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
    return false;
}

bool gb_worker_send(GbWorker *w, const GbStr *frame, const int *fds, int nfds)
{
    size_t off = 0;
    if (nfds > 0) {
        struct iovec iov = {frame->data, frame->len};
        union {
            char buf[CMSG_SPACE(sizeof(int) * 4)];
            struct cmsghdr align;
        } cbuf;
        memset(&cbuf, 0, sizeof cbuf);
        struct msghdr mh = {0};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = cbuf.buf;
        mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
        memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
        ssize_t n;
        do n = sendmsg(w->ctl, &mh, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n <= 0) return false;
        off = (size_t)n;
    }
    while (off < frame->len) {
        ssize_t n = send(w->ctl, frame->data + off, frame->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += (size_t)n;
    }
    return true;
}

/* Ask the worker to kill the run in progress (and everything it started). */
void gb_worker_send_kill(GbWorker *w, unsigned long tag)
{
    GbStr kb, kf;
    gb_str_init(&kb);
    gb_str_init(&kf);
    gb_rec_add(&kb, "op", "kill");
    if (tag) gb_rec_addf(&kb, "tag", "%lu", tag);
    gb_rec_frame(&kf, &kb);
    gb_worker_send(w, &kf, NULL, 0);
    gb_str_destroy(&kb);
    gb_str_destroy(&kf);
}
