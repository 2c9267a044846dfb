#pragma once
/* Line diff of two texts (Myers' O(ND) algorithm, linear-space "middle snake" variant) and its
 * side-by-side HTML rendering, used by the report to show original vs hardened programs.
 * Lines are split on '\n'; a final newline does not start an extra line. Pure functions,
 * thread-safe. */
#include <stddef.h>

#include "src/base/util.h"

typedef enum {
    GB_DIFF_EQUAL,  /* line a of A equals line b of B */
    GB_DIFF_DELETE, /* line a of A is not in B (b unused) */
    GB_DIFF_INSERT, /* line b of B is not in A (a unused) */
} GbDiffKind;

typedef struct {
    GbDiffKind kind;
    size_t a; /* 0-based line index in A (EQUAL, DELETE) */
    size_t b; /* 0-based line index in B (EQUAL, INSERT) */
} GbDiffOp;

typedef GbArray(GbDiffOp) GbDiffOps;

/* A shortest edit script turning A into B, in order: every line of A appears exactly once as
 * EQUAL or DELETE and every line of B once as EQUAL or INSERT, both in increasing order, and the
 * EQUAL lines form a longest common subsequence. Appends to out (caller storage, free with
 * gb_array_free). NULL texts count as empty. */
void gb_diff_lines(const char *a, const char *b, GbDiffOps *out);

/* Number of lines of a text under the splitting rule above (0 for "" or NULL). */
size_t gb_diff_line_count(const char *text);

/* Append text[0..n) to out with &, <, >, " and ' escaped for HTML. */
void gb_html_escape(GbStr *out, const char *text, size_t n);

/* Append a unified diff of A -> B (headers "--- a/PATH" and "+++ b/PATH", hunks with 3 lines
 * of context, as `diff -u`), or nothing when the texts are equal. */
void gb_diff_render_unified(GbStr *out, const char *path, const char *a, const char *b);

/* Append a side-by-side diff of A (left) and B (right) as an HTML <table class="diff">: line
 * numbers and escaped code on each side; rows get class "eq", "del" (only left), "ins" (only
 * right) or "chg" (a deleted line paired with an inserted one). */
void gb_diff_render_html(GbStr *out, const char *a, const char *b);
