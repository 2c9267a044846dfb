#pragma once
/* The verdict of one sample of `genebench eval`: the words of the results lines' "verdict" and of
 * the summary's "verdicts" counts. One list, so eval, the two documents and the report share the
 * spelling. GB_V_NONE (not scored yet) never appears in a document. */
#include <stdbool.h>

typedef enum {
    GB_V_NONE = 0,
    GB_V_PASS,    /* the answer was right */
    GB_V_FAIL,    /* wrong (the scoring assert or a test failed) */
    GB_V_TIMEOUT, /* from the runner's status only */
    GB_V_CRASH,   /* from the runner's status only */
    GB_V_INVALID, /* the answer was refused before running */
    GB_V_ERROR,   /* no reply from the server, or the runner failed: not scored */
    GB_V_COUNT
} GbVerdict;

/* The word of a verdict ("pass", ...); static storage. */
const char *gb_verdict_name(GbVerdict v);
/* The verdict of a word; false (and *out untouched) for a word that is not a verdict or "none". */
bool gb_verdict_parse(const char *name, GbVerdict *out);
/* Scored samples count in pass@k: every verdict but none and error. */
bool gb_verdict_scored(GbVerdict v);
