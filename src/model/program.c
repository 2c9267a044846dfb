#include "src/model/program.h"

#include <stdlib.h>
#include <string.h>

void gb_program_init(GbProgram *p)
{
    memset(p, 0, sizeof *p);
}

void gb_program_destroy(GbProgram *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->modules.len; i++) {
        free(p->modules.items[i].path);
        free(p->modules.items[i].source);
    }
    gb_array_free(&p->modules);
    for (size_t i = 0; i < p->history.len; i++) {
        free(p->history.items[i].op);
        free(p->history.items[i].site_key);
        free(p->history.items[i].module);
    }
    gb_array_free(&p->history);
    for (size_t i = 0; i < p->synthetic.len; i++) free(p->synthetic.items[i]);
    gb_array_free(&p->synthetic);
}

void gb_program_copy(GbProgram *dst, const GbProgram *src)
{
    gb_program_init(dst);
    for (size_t i = 0; i < src->modules.len; i++) {
        GbFile f = {gb_strdup(src->modules.items[i].path), gb_strdup(src->modules.items[i].source)};
        gb_array_push(&dst->modules, f);
    }
    for (size_t i = 0; i < src->history.len; i++) {
        const GbApplied *a = &src->history.items[i];
        GbApplied b = {gb_strdup(a->op), gb_strdup(a->site_key), gb_strdup(a->module), a->start, a->old_end,
                       a->new_end};
        gb_array_push(&dst->history, b);
    }
    for (size_t i = 0; i < src->synthetic.len; i++) {
        char *name = gb_strdup(src->synthetic.items[i]);
        gb_array_push(&dst->synthetic, name);
    }
}

void gb_program_from_task(GbProgram *p, const GbTask *t)
{
    gb_program_init(p);
    GbFile main = {gb_strdup(GB_MAIN_MODULE), gb_strdup(t->source ? t->source : "")};
    gb_array_push(&p->modules, main);
    for (size_t i = 0; i < t->extra_files.len; i++)
        gb_program_add_module(p, t->extra_files.items[i].path, t->extra_files.items[i].source);
}

void gb_program_to_task(const GbProgram *p, GbTask *t)
{
    free(t->source);
    t->source = gb_strdup(p->modules.items[0].source);
    for (size_t i = 0; i < t->extra_files.len; i++) {
        free(t->extra_files.items[i].path);
        free(t->extra_files.items[i].source);
    }
    t->extra_files.len = 0;
    for (size_t i = 1; i < p->modules.len; i++)
        gb_task_set_file(t, p->modules.items[i].path, p->modules.items[i].source);
}

GbFile *gb_program_module(GbProgram *p, const char *path)
{
    for (size_t i = 0; i < p->modules.len; i++)
        if (strcmp(p->modules.items[i].path, path) == 0) return &p->modules.items[i];
    return NULL;
}

void gb_program_set_source_take(GbProgram *p, size_t module, char *source)
{
    free(p->modules.items[module].source);
    p->modules.items[module].source = source;
}

void gb_program_add_module(GbProgram *p, const char *path, const char *source)
{
    GbFile *existing = gb_program_module(p, path);
    if (existing) {
        free(existing->source);
        existing->source = gb_strdup(source);
        return;
    }
    GbFile f = {gb_strdup(path), gb_strdup(source)};
    gb_array_push(&p->modules, f);
    for (size_t i = p->modules.len - 1; i > 1; i--) {
        if (strcmp(p->modules.items[i - 1].path, p->modules.items[i].path) <= 0) break;
        GbFile tmp = p->modules.items[i - 1];
        p->modules.items[i - 1] = p->modules.items[i];
        p->modules.items[i] = tmp;
    }
}

void gb_program_record(GbProgram *p, const char *op, const char *site_key, const char *module, size_t start,
                       size_t old_end, size_t new_end)
{
    GbApplied a = {gb_strdup(op), gb_strdup(site_key), gb_strdup(module), start, old_end, new_end};
    gb_array_push(&p->history, a);
}

bool gb_program_was_applied(const GbProgram *p, const char *op, const char *site_key)
{
    for (size_t i = 0; i < p->history.len; i++)
        if (strcmp(p->history.items[i].op, op) == 0 && strcmp(p->history.items[i].site_key, site_key) == 0) return true;
    return false;
}

char *gb_program_concat(const GbProgram *p)
{
    if (p->modules.len == 1) return gb_strdup(p->modules.items[0].source);
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < p->modules.len; i++) {
        gb_str_appendf(&s, "# module: %s\n", p->modules.items[i].path);
        gb_str_append(&s, p->modules.items[i].source);
        if (s.len && s.data[s.len - 1] != '\n') gb_str_append(&s, "\n");
    }
    return gb_str_take(&s);
}

void gb_program_add_synthetic(GbProgram *p, const char *name)
{
    if (gb_program_is_synthetic(p, name)) return;
    char *copy = gb_strdup(name);
    gb_array_push(&p->synthetic, copy);
}

bool gb_program_is_synthetic(const GbProgram *p, const char *name)
{
    for (size_t i = 0; i < p->synthetic.len; i++)
        if (strcmp(p->synthetic.items[i], name) == 0) return true;
    return false;
}
