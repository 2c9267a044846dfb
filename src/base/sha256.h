#pragma once
/* SHA-256 (FIPS 180-4), for cache keys. Pure functions, thread-safe. */
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes hashed so far */
    unsigned char buf[64];
    size_t fill;
} GbSha256;

void gb_sha256_init(GbSha256 *s);
void gb_sha256_update(GbSha256 *s, const void *data, size_t len);
void gb_sha256_final(GbSha256 *s, unsigned char out[32]);
/* One call: the 64 lowercase hex digits of SHA-256(data) and a NUL into hex[65]. */
void gb_sha256_hex(const void *data, size_t len, char hex[65]);
