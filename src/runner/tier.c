/* Which test worker a run forks from: the smallest import set (src/runner/library_list.h: a
 * library's worker kind) that holds every library the run's sources name. The cost of a run's
 * fork and exit grows with what its worker has mapped (a warm interpreter with numpy, scipy, sklearn and cryptography
 * forks several times slower than one with the standard library only), so a program that
 * imports nothing else than the standard library should not pay for them.
 *
 * The choice is a speed matter only: a run whose program imports a library its worker did not
 * preload (dynamically, or under a name this scan does not see) imports it in its child, and
 * passes or fails exactly as in any other worker. So the scan over-approximates, cheaply, on
 * the text: a library's name anywhere (import line, string, comment) counts as a use, and an
 * import of a module that is neither in the standard library nor one of the program's own
 * modules picks the worker with every library. */
#include <stdbool.h>
#include <string.h>

#include "src/python/stdlib_modules.h"
#include "src/runner/library_list.h"
#include "src/runner/runner_private.h"

/* The third-party libraries and the smallest worker kind that preloads each. */
static const struct {
    const char *name;
    GbWorkerKind worker;
} gb_tier__libraries[] = {
#define GB_LIBRARY(name, imports, package, worker) {name, worker},
    GB_LIBRARY_LIST
#undef GB_LIBRARY
};

static bool gb_tier__word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80;
}

static bool gb_tier__is(const char *w, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(w, name, n) == 0;
}

/* True when the program has a module (main.py, helpers.py, pkg/x.py) named name[0..n). */
static bool gb_tier__own_module(const GbProgram *prog, const char *name, size_t n)
{
    for (size_t m = 0; m < prog->modules.len; m++) {
        const char *path = prog->modules.items[m].path;
        if (strncmp(path, name, n) == 0 && (strcmp(path + n, ".py") == 0 || path[n] == '/')) return true;
    }
    return false;
}

/* The kind the top-level module name[0..n) needs. */
static GbWorkerKind gb_tier__module(const GbProgram *prog, const char *name, size_t n)
{
    /* a library of a smaller worker; the others need FULL, as any module that is neither in
     * the standard library nor the program's own */
    for (size_t i = 0; i < sizeof gb_tier__libraries / sizeof *gb_tier__libraries; i++)
        if (gb_tier__libraries[i].worker != GB_WORKER_FULL && gb_tier__is(name, n, gb_tier__libraries[i].name))
            return gb_tier__libraries[i].worker;
    if (gb_stdlib_module(name, n) || gb_tier__own_module(prog, name, n) || gb_tier__is(name, n, "__future__"))
        return GB_WORKER_STDLIB;
    return GB_WORKER_FULL;
}

static GbWorkerKind gb_tier__max(GbWorkerKind a, GbWorkerKind b)
{
    /* STDLIB < NUMPY < FULL */
    if (a == GB_WORKER_FULL || b == GB_WORKER_FULL) return GB_WORKER_FULL;
    if (a == GB_WORKER_NUMPY || b == GB_WORKER_NUMPY) return GB_WORKER_NUMPY;
    return GB_WORKER_STDLIB;
}

/* Skip spaces and tabs (and a backslash line continuation). */
static const char *gb_tier__blank(const char *p)
{
    for (;;) {
        if (*p == ' ' || *p == '\t')
            p++;
        else if (p[0] == '\\' && p[1] == '\n')
            p += 2;
        else
            return p;
    }
}

/* The import statements that start a line: "import a.b as c, d" and "from a.b import x". */
static GbWorkerKind gb_tier__imports(const GbProgram *prog, const char *text)
{
    GbWorkerKind kind = GB_WORKER_STDLIB;
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *p = gb_tier__blank(line);
        bool is_import = strncmp(p, "import", 6) == 0 && (p[6] == ' ' || p[6] == '\t' || p[6] == '\\');
        bool is_from = strncmp(p, "from", 4) == 0 && (p[4] == ' ' || p[4] == '\t' || p[4] == '\\');
        if (!is_import && !is_from) continue;
        p = gb_tier__blank(p + (is_import ? 6 : 4));
        for (;;) {
            if (*p == '(') p = gb_tier__blank(p + 1);
            if (*p == '.') break; /* relative: one of the program's modules */
            const char *w = p;
            while (gb_tier__word_char(*p)) p++;
            if (p > w) kind = gb_tier__max(kind, gb_tier__module(prog, w, (size_t)(p - w)));
            if (is_from) break;
            /* the rest of this name (.b.c) and an "as" alias, up to a comma */
            while (*p && *p != ',' && *p != '\n' && *p != ';' && *p != '#') p++;
            if (*p != ',') break;
            p = gb_tier__blank(p + 1);
        }
    }
    return kind;
}

/* The libraries only NUMPY or FULL workers have, named anywhere in text. */
static GbWorkerKind gb_tier__words(const char *text)
{
    GbWorkerKind kind = GB_WORKER_STDLIB;
    for (const char *p = text; p && *p;) {
        if (!gb_tier__word_char(*p)) {
            p++;
            continue;
        }
        const char *w = p;
        while (gb_tier__word_char(*p)) p++;
        size_t n = (size_t)(p - w);
        for (size_t i = 0; i < sizeof gb_tier__libraries / sizeof *gb_tier__libraries; i++) {
            if (!gb_tier__is(w, n, gb_tier__libraries[i].name)) continue;
            if (gb_tier__libraries[i].worker == GB_WORKER_FULL) return GB_WORKER_FULL;
            kind = gb_tier__max(kind, gb_tier__libraries[i].worker);
        }
    }
    return kind;
}

static GbWorkerKind gb_tier__text(const GbProgram *prog, const char *text)
{
    if (!text) return GB_WORKER_STDLIB;
    return gb_tier__max(gb_tier__words(text), gb_tier__imports(prog, text));
}

GbWorkerKind gb_runner_kind_for(const GbProgram *prog, const char *test_code, const GbTask *task)
{
    GbWorkerKind kind = gb_tier__text(prog, test_code);
    if (task) kind = gb_tier__max(kind, gb_tier__text(prog, task->harness_prelude));
    for (size_t m = 0; m < prog->modules.len && kind != GB_WORKER_FULL; m++)
        kind = gb_tier__max(kind, gb_tier__text(prog, prog->modules.items[m].source));
    return kind;
}

void gb_pool_config_need(GbPoolConfig *cfg, const GbTask *task)
{
    GbProgram prog;
    gb_program_from_task(&prog, task);
    cfg->start_sets |= 1u << gb_runner_kind_for(&prog, task->test_code, task);
    gb_program_destroy(&prog);
}
