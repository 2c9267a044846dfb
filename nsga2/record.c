#include "nsga2/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gb_evolve_status_name(GbEvolveStatus s)
{
    switch (s) {
    case GB_EVOLVED_HARDENED:
        return "hardened";
    case GB_EVOLVED_UNCHANGED:
        return "unchanged";
    case GB_EVOLVED_ORIGINAL_FAILS:
        return "original_fails";
    case GB_EVOLVED_ERROR:
        return "error";
    }
    return "error";
}

bool gb_evolve_status_parse(const char *s, GbEvolveStatus *out)
{
    static const GbEvolveStatus all[] = {GB_EVOLVED_HARDENED, GB_EVOLVED_UNCHANGED, GB_EVOLVED_ORIGINAL_FAILS,
                                         GB_EVOLVED_ERROR};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (s && strcmp(s, gb_evolve_status_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    return false;
}

static void gb_record__score_init(GbRecordScore *s)
{
    s->rc = s->rr = NAN;
    for (int i = 0; i < GB_METRIC_COUNT; i++) s->metrics[i] = NAN;
}

void gb_record_init(GbRecord *r)
{
    memset(r, 0, sizeof *r);
    r->index = -1;
    r->generations = -1;
    r->offspring_validated = -1;
    gb_record__score_init(&r->before);
    gb_record__score_init(&r->after);
    r->lint_before = r->lint_after = NAN;
    r->time_s = NAN;
}

void gb_record_rung_destroy(GbRecordRung *g)
{
    free(g->op);
    free(g->site);
    for (size_t i = 0; i < g->patch.len; i++) {
        free(g->patch.items[i].module);
        free(g->patch.items[i].text);
    }
    gb_array_free(&g->patch);
    memset(g, 0, sizeof *g);
}

void gb_record_destroy(GbRecord *r)
{
    free(r->error);
    free(r->equiv_error);
    free(r->equiv_uncovered);
    free(r->stop_reason);
    free(r->thresholds);
    for (size_t i = 0; i < r->operators.len; i++) {
        free(r->operators.items[i].op);
        free(r->operators.items[i].name);
        free(r->operators.items[i].site);
    }
    gb_array_free(&r->operators);
    for (size_t i = 0; i < r->edits.len; i++) {
        free(r->edits.items[i].op);
        free(r->edits.items[i].site_key);
        free(r->edits.items[i].module);
    }
    gb_array_free(&r->edits);
    for (size_t i = 0; i < r->front.len; i++) {
        GbRecordFrontMember *m = &r->front.items[i];
        for (size_t k = 0; k < m->operators.len; k++) free(m->operators.items[k]);
        gb_array_free(&m->operators);
        free(m->source);
    }
    gb_array_free(&r->front);
    for (size_t i = 0; i < r->lineage.len; i++) gb_record_rung_destroy(&r->lineage.items[i]);
    gb_array_free(&r->lineage);
    free(r->naming_mode);
    gb_rename_list_destroy(&r->renamed);
    free(r->original_source);
    for (size_t i = 0; i < r->original_extra_files.len; i++) {
        free(r->original_extra_files.items[i].path);
        free(r->original_extra_files.items[i].source);
    }
    gb_array_free(&r->original_extra_files);
    gb_record_init(r);
}

void gb_record_set_original(GbRecord *r, const GbTask *task)
{
    free(r->original_source);
    r->original_source = gb_strdup(task->source);
    for (size_t i = 0; i < task->extra_files.len; i++) {
        GbFile f = {gb_strdup(task->extra_files.items[i].path), gb_strdup(task->extra_files.items[i].source)};
        gb_array_push(&r->original_extra_files, f);
    }
}
