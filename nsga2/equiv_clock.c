/* Whether a program can read the clock (equiv.h: gb_equiv_clockless): the original's two
 * recording probes straddle a second boundary only when it can. */
#include "nsga2/equiv.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

/* Modules that give a program no way to read the clock or the environment (random numbers
 * differ between the two recording probes with or without a clock, and are dropped either way). */
static const char *const gb_equiv__clockless[] = {
    "typing", "math", "cmath", "collections", "itertools", "functools", "operator", "re", "string", "heapq",
    "bisect", "fractions", "decimal", "copy", "dataclasses", "enum", "abc", "statistics", "numbers", "array",
    "hashlib", "textwrap", "unicodedata", "struct", "json", "random", "__future__", "keyword", "pprint", "reprlib",
    "binascii", "base64", "zlib", "difflib", "graphlib", "typing_extensions"};

static bool gb_equiv__clockless_import(TSNode node, const char *src)
{
    GbNodeKind k = gb_node_kind(node);
    if (k == GB_NK_FUTURE_IMPORT_STATEMENT) return true;
    if (k != GB_NK_IMPORT_STATEMENT && k != GB_NK_IMPORT_FROM_STATEMENT) return true;
    uint32_t c = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < c; i++) {
        TSNode it = ts_node_named_child(node, i);
        if (k == GB_NK_IMPORT_FROM_STATEMENT && i > 0) break; /* the names imported from the module */
        if (gb_node_is_kind(it, GB_NK_ALIASED_IMPORT)) it = gb_node_field(it, "name");
        if (gb_node_is_kind(it, GB_NK_RELATIVE_IMPORT)) continue; /* the program's own modules */
        if (!gb_node_is_kind(it, GB_NK_DOTTED_NAME)) return false;
        char *name = gb_node_text(it, src);
        name[strcspn(name, ".")] = '\0';
        bool ok = false;
        for (size_t w = 0; w < sizeof gb_equiv__clockless / sizeof *gb_equiv__clockless && !ok; w++)
            ok = strcmp(name, gb_equiv__clockless[w]) == 0;
        free(name);
        if (!ok) return false;
    }
    return true;
}

/* Names that reach a clock without importing one: the builtins that import, run code or open
 * files, and the attributes through which the modules above lead to sys, os or time
 * (`typing.sys.modules`, `random._time`, `x.__class__.__subclasses__()`). */
static const char *const gb_equiv__clock_ways[] = {
    "__import__", "importlib", "exec",    "eval",     "compile",        "open",           "globals",
    "vars",       "builtins",  "__builtins__", "breakpoint", "getattr", "__getattribute__", "__dict__",
    "__globals__", "__subclasses__", "sys", "_sys", "os", "_os", "time", "_time", "modules"};

static bool gb_equiv__clockless_tree(TSNode node, const char *src)
{
    if (!gb_equiv__clockless_import(node, src)) return false;
    if (gb_node_is_kind(node, GB_NK_IDENTIFIER)) {
        for (size_t w = 0; w < sizeof gb_equiv__clock_ways / sizeof *gb_equiv__clock_ways; w++)
            if (gb_node_text_eq(node, src, gb_equiv__clock_ways[w])) return false;
        return true;
    }
    uint32_t c = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < c; i++)
        if (!gb_equiv__clockless_tree(ts_node_named_child(node, i), src)) return false;
    return true;
}

bool gb_equiv_clockless(TSParser *parser, const GbTask *task, const GbProgram *prog)
{
    GbProgram own;
    if (!prog) {
        gb_program_from_task(&own, task);
        prog = &own;
    }
    bool ok = true;
    for (size_t m = 0; m < prog->modules.len && ok; m++) {
        const char *src = prog->modules.items[m].source;
        TSTree *t = gb_parse(parser, src, strlen(src));
        ok = gb_equiv__clockless_tree(ts_tree_root_node(t), src);
        ts_tree_delete(t);
    }
    if (prog == &own) gb_program_destroy(&own);
    return ok;
}
