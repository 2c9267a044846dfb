/* CRUXEval (facebookresearch/cruxeval): JSONL records {code, input, output, id}; the program is
 * `code` (it defines f), the test `assert f(INPUT) == OUTPUT`. */
#include "src/bench/upstream_format.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

/* ------------------------------------------------------------------ CRUXEval */

static char *gb_cruxeval__test(const char *input, const char *output)
{
    return gb_asprintf("assert f(%s) == %s\n", input, output);
}

static bool gb_cruxeval__record(GbUpImport *im, json_t *rec, GbTask *t, json_t *meta, GbError *err)
{
    (void)im;
    (void)meta;
    const char *id, *code, *input, *output;
    if (!gb_up_str(rec, "id", &id, err)) return false;
    t->id = gb_strdup(id);
    if (!gb_up_str(rec, "code", &code, err) || !gb_up_str(rec, "input", &input, err) ||
        !gb_up_str(rec, "output", &output, err))
        return false;
    t->source = gb_strdup(code);
    t->entry_point = gb_strdup("f");
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_cruxeval__test(input, output);
    return true;
}

bool gb_cruxeval_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err)
{
    (void)meta;
    (void)ex;
    const char *input, *output;
    if (!gb_up_str(rec, "input", &input, err) || !gb_up_str(rec, "output", &output, err)) return false;
    char *want = gb_cruxeval__test(input, output);
    bool same = t->kind == GB_TESTS_ASSERT && t->test_code && strcmp(t->test_code, want) == 0;
    free(want);
    if (!same) {
        gb_error_set(err, "tests.code is not \"assert f(<input>) == <output>\" of the upstream record: CRUXEval "
                          "cannot hold these tests");
        return false;
    }
    json_object_set_new(rec, "code", json_string(t->source));
    json_object_set_new(rec, "id", json_string(t->id));
    return true;
}

void gb_cruxeval_import(GbUpImport *im, const char *data, size_t len, size_t *n_records)
{
    gb_up_jsonl(im, data, len, gb_cruxeval__record, n_records);
}
