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

/* What a program may take from sys: the standard streams, limits and constants; none of them
 * leads to a clock (sys.modules, sys._getframe and the like do). */
static const char *const gb_equiv__sys_safe[] = {"stdin",     "stdout",       "stderr",  "setrecursionlimit",
                                                 "getrecursionlimit", "maxsize", "maxunicode", "version_info",
                                                 "hexversion", "float_info", "byteorder", "exit", "intern"};

static bool gb_equiv__in(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

#define GB_EQUIV__IN(name, list) gb_equiv__in(name, list, sizeof list / sizeof *list)

static bool gb_equiv__is_clock_way(const char *name);

/* An import statement: every module it names is clockless (or the program's own), or sys
 * imported under its own name (its uses are checked where they are: gb_equiv__clockless_tree)
 * or only for names of gb_equiv__sys_safe; no name it imports leads to a clock. */
static bool gb_equiv__clockless_import(TSNode node, const char *src, GbNodeKind k)
{
    uint32_t c = ts_node_named_child_count(node);
    char *from = NULL;
    bool ok = true;
    for (uint32_t i = 0; i < c && ok; i++) {
        TSNode it = ts_node_named_child(node, i);
        bool aliased = gb_node_is_kind(it, GB_NK_ALIASED_IMPORT);
        if (aliased) it = gb_node_field(it, "name");
        if (gb_node_is_kind(it, GB_NK_RELATIVE_IMPORT)) continue; /* the program's own modules */
        if (!gb_node_is_kind(it, GB_NK_DOTTED_NAME)) {
            ok = gb_node_is_kind(it, GB_NK_WILDCARD_IMPORT) && from && strcmp(from, "sys") != 0;
            continue;
        }
        char *name = gb_node_text(it, src);
        if (k == GB_NK_IMPORT_FROM_STATEMENT && i > 0) {
            /* a name imported from the module */
            ok = from ? (strcmp(from, "sys") == 0 ? GB_EQUIV__IN(name, gb_equiv__sys_safe) : !gb_equiv__is_clock_way(name))
                      : !gb_equiv__is_clock_way(name);
        } else {
            char *top = gb_strdup(name);
            top[strcspn(top, ".")] = '\0';
            ok = GB_EQUIV__IN(top, gb_equiv__clockless) ||
                 (strcmp(name, "sys") == 0 && (k == GB_NK_IMPORT_FROM_STATEMENT || !aliased));
            if (k == GB_NK_IMPORT_FROM_STATEMENT) from = gb_strdup(name);
            free(top);
        }
        free(name);
    }
    free(from);
    return ok;
}

/* Names that reach a clock without importing one: the builtins that import, run code or open
 * files, and the attributes through which the modules above lead to sys, os or time
 * (`typing.sys.modules`, `random._time`, `x.__class__.__subclasses__()`). */
static const char *const gb_equiv__clock_ways[] = {
    "__import__", "importlib", "exec",    "eval",     "compile",        "open",           "globals",
    "vars",       "builtins",  "__builtins__", "breakpoint", "getattr", "__getattribute__", "__dict__",
    "__globals__", "__subclasses__", "sys", "_sys", "os", "_os", "time", "_time", "modules"};

static bool gb_equiv__is_clock_way(const char *name)
{
    return GB_EQUIV__IN(name, gb_equiv__clock_ways);
}

static bool gb_equiv__clockless_tree(TSNode node, const char *src)
{
    GbNodeKind k = gb_node_kind(node);
    if (k == GB_NK_FUTURE_IMPORT_STATEMENT) return true;
    if (k == GB_NK_IMPORT_STATEMENT || k == GB_NK_IMPORT_FROM_STATEMENT) return gb_equiv__clockless_import(node, src, k);
    if (k == GB_NK_IDENTIFIER) {
        char *name = gb_node_text(node, src);
        bool ok = !gb_equiv__is_clock_way(name);
        free(name);
        return ok;
    }
    /* open(0, ...): standard input (AtCoder's `open(0).read()`), a file that holds no clock; any
     * other mention of open, a rebinding included, still counts */
    if (k == GB_NK_CALL) {
        TSNode fn = gb_node_field(node, "function"), args = gb_node_field(node, "arguments");
        if (gb_node_is_kind(fn, GB_NK_IDENTIFIER) && gb_node_text_eq(fn, src, "open") &&
            gb_node_is_kind(args, GB_NK_ARGUMENT_LIST) && ts_node_named_child_count(args) > 0) {
            TSNode first = ts_node_named_child(args, 0);
            if (gb_node_is_kind(first, GB_NK_INTEGER) && gb_node_text_eq(first, src, "0"))
                return gb_equiv__clockless_tree(args, src);
        }
    }
    /* sys.NAME for a NAME of gb_equiv__sys_safe (sys itself is a way to the clock) */
    if (k == GB_NK_ATTRIBUTE) {
        TSNode obj = gb_node_field(node, "object"), attr = gb_node_field(node, "attribute");
        if (gb_node_is_kind(obj, GB_NK_IDENTIFIER) && gb_node_text_eq(obj, src, "sys")) {
            char *name = gb_node_text(attr, src);
            bool ok = GB_EQUIV__IN(name, gb_equiv__sys_safe);
            free(name);
            return ok;
        }
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
