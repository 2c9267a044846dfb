/* The verdict words (eval_verdict.h). */
#include "src/doc/eval_verdict.h"

#include <assert.h>
#include <string.h>

static const char *const gb_verdict__names[GB_V_COUNT] = {"none",  "pass",    "fail", "timeout",
                                                          "crash", "invalid", "error"};

const char *gb_verdict_name(GbVerdict v)
{
    assert(v >= 0 && v < GB_V_COUNT);
    return gb_verdict__names[v];
}

bool gb_verdict_parse(const char *name, GbVerdict *out)
{
    for (int i = GB_V_NONE + 1; i < GB_V_COUNT; i++)
        if (strcmp(name, gb_verdict__names[i]) == 0) {
            *out = (GbVerdict)i;
            return true;
        }
    return false;
}

bool gb_verdict_scored(GbVerdict v)
{
    return v != GB_V_NONE && v != GB_V_ERROR;
}
