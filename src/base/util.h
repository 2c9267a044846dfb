#pragma once
/* Small shared utilities: allocation that aborts on out-of-memory, a typed growable
 * array, a growable string buffer, file helpers and error messages.
 * Everything here is thread-safe (no shared state). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Allocation wrappers: never return NULL (abort on out-of-memory). Owned by the caller. */
void *gb_malloc(size_t n);
void *gb_calloc(size_t count, size_t size);
void *gb_realloc(void *p, size_t n);
char *gb_strdup(const char *s);
char *gb_strndup(const char *s, size_t n);
/* printf into a new owned string. */
char *gb_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list (the caller owns ap and calls va_end). */
char *gb_vasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A typed growable array: `GbArray(int) a = {0};` then gb_array_push(&a, 3). */
#define GbArray(T)                                                                                                     \
    struct {                                                                                                           \
        T *items;                                                                                                      \
        size_t len;                                                                                                    \
        size_t cap;                                                                                                    \
    }
#define gb_array_reserve(a, n)                                                                                         \
    do {                                                                                                               \
        if ((n) > (a)->cap) {                                                                                          \
            size_t gb__c = (a)->cap ? (a)->cap * 2 : 8;                                                                \
            while (gb__c < (n)) gb__c *= 2;                                                                            \
            (a)->items = gb_realloc((a)->items, gb__c * sizeof *(a)->items);                                           \
            (a)->cap = gb__c;                                                                                          \
        }                                                                                                              \
    } while (0)
#define gb_array_push(a, v)                                                                                            \
    do {                                                                                                               \
        gb_array_reserve((a), (a)->len + 1);                                                                           \
        (a)->items[(a)->len++] = (v);                                                                                  \
    } while (0)
#define gb_array_free(a)                                                                                               \
    do {                                                                                                               \
        free((a)->items);                                                                                              \
        (a)->items = NULL;                                                                                             \
        (a)->len = (a)->cap = 0;                                                                                       \
    } while (0)

/* Growable NUL-terminated string buffer (caller storage). */
typedef struct {
    char *data; /* owned; always NUL-terminated once anything was appended */
    size_t len;
    size_t cap;
} GbStr;
void gb_str_init(GbStr *s);
void gb_str_destroy(GbStr *s);
void gb_str_append(GbStr *s, const char *text);
void gb_str_append_n(GbStr *s, const char *text, size_t n);
void gb_str_appendf(GbStr *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gb_str_vappendf(GbStr *s, const char *fmt, va_list ap);
void gb_str_clear(GbStr *s);
/* Give the buffer's contents to the caller (owned) and reset the buffer. */
char *gb_str_take(GbStr *s);

/* Error message buffer used by every fallible call: a fixed-size message naming
 * file, line and task where known. */
typedef struct {
    char msg[1024];
} GbError;
void gb_error_set(GbError *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Read a whole file into an owned NUL-terminated buffer; *len_out gets its length.
 * Returns NULL and fills err on failure. */
char *gb_read_file(const char *path, size_t *len_out, GbError *err);
/* Write data to path atomically (temporary file in the same directory + rename). */
bool gb_write_file_atomic(const char *path, const char *data, size_t len, GbError *err);
/* True when word occurs in text as a whole word (not inside a longer identifier), in code,
 * strings or comments alike. */
bool gb_text_has_word(const char *text, const char *word);
/* True when the bytes are valid UTF-8; *bad_offset gets the first invalid byte. */
bool gb_utf8_valid(const char *s, size_t len, size_t *bad_offset);
/* Monotonic time in seconds. */
double gb_now(void);
/* 64-bit FNV-1a hash of bytes. */
uint64_t gb_hash64(const void *data, size_t len, uint64_t seed);
