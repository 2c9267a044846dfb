#include "src/base/gzip.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

bool gb_gzip_detect(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

bool gb_gunzip(const char *name, const char *data, size_t len, size_t cap, GbStr *out, GbError *err)
{
    gb_str_init(out);
    gb_str_append(out, "");
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        gb_error_set(err, "%s: cannot start decompressing", name);
        return false;
    }
    const unsigned char *in = (const unsigned char *)data;
    size_t left = len;
    char buf[65536];
    int rc = Z_OK;
    bool too_big = false;
    while (rc == Z_OK) {
        /* avail_in is a uInt: feed a large input in slices */
        if (z.avail_in == 0 && left > 0) {
            uInt n = left > (1u << 30) ? (1u << 30) : (uInt)left;
            z.next_in = (Bytef *)in;
            z.avail_in = n;
            in += n;
            left -= n;
        }
        z.next_out = (Bytef *)buf;
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        size_t got = sizeof buf - z.avail_out;
        if (out->len + got > cap) {
            too_big = true;
            break;
        }
        gb_str_append_n(out, buf, got);
        /* concatenated gzip members (gzip -c a b > c) */
        if (rc == Z_STREAM_END && (z.avail_in > 0 || left > 0) && inflateReset(&z) == Z_OK) rc = Z_OK;
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && left == 0) break;
    }
    inflateEnd(&z);
    if (too_big) {
        gb_error_set(err, "%s: decompresses to more than %zu bytes (the limit on gzip input); refusing it", name, cap);
        gb_str_destroy(out);
        return false;
    }
    if (rc != Z_STREAM_END) {
        gb_error_set(err, "%s: not a valid gzip file (%s)", name, z.msg ? z.msg : "truncated");
        gb_str_destroy(out);
        return false;
    }
    return true;
}

void gb_gzip(const char *data, size_t len, GbStr *out)
{
    gb_str_init(out);
    gb_str_append(out, "");
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    const unsigned char *in = (const unsigned char *)data;
    size_t left = len;
    char buf[65536];
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (z.avail_in == 0 && left > 0) {
            uInt n = left > (1u << 30) ? (1u << 30) : (uInt)left;
            z.next_in = (Bytef *)in;
            z.avail_in = n;
            in += n;
            left -= n;
        }
        z.next_out = (Bytef *)buf;
        z.avail_out = sizeof buf;
        rc = deflate(&z, left == 0 ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR) abort(); /* a misuse of zlib: a bug */
        gb_str_append_n(out, buf, sizeof buf - z.avail_out);
    }
    deflateEnd(&z);
}

char *gb_read_data_file_capped(const char *path, size_t cap, size_t *len_out, GbError *err)
{
    size_t len = 0;
    char *data = gb_read_file(path, &len, err);
    if (!data) return NULL;
    if (gb_gzip_detect(data, len)) {
        GbStr s;
        bool ok = gb_gunzip(path, data, len, cap, &s, err);
        free(data);
        if (!ok) return NULL;
        len = s.len;
        data = gb_str_take(&s);
    }
    if (len_out) *len_out = len;
    return data;
}

char *gb_read_data_file(const char *path, size_t *len_out, GbError *err)
{
    return gb_read_data_file_capped(path, GB_GZIP_MAX_INFLATED, len_out, err);
}

bool gb_write_data_file_atomic(const char *path, const char *data, size_t len, GbError *err)
{
    size_t n = strlen(path);
    if (n < 3 || strcmp(path + n - 3, ".gz") != 0) return gb_write_file_atomic(path, data, len, err);
    GbStr z;
    gb_gzip(data, len, &z);
    bool ok = gb_write_file_atomic(path, z.data, z.len, err);
    gb_str_destroy(&z);
    return ok;
}

bool gb_gunzip_file_in_place(const char *path, GbError *err)
{
    size_t len = 0;
    char *raw = gb_read_file(path, &len, err);
    if (!raw) return false;
    bool gz = gb_gzip_detect(raw, len);
    free(raw);
    if (!gz) return true;
    char *text = gb_read_data_file(path, &len, err);
    bool ok = text && gb_write_file_atomic(path, text, len, err);
    free(text);
    return ok;
}
