#include "src/scope.h"

#include <stdlib.h>
#include <string.h>

static const char *const gb_keywords[] = {
    "False", "None", "True", "_", "and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def",
    "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "match", "nonlocal", "not", "or", "pass", "raise", "return", "try", "type", "while", "with", "yield",
};

static const char *const gb_builtins[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
    "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
    "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
    "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
    "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
    "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
    "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented", "NotImplementedError",
    "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
    "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
    "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit",
    "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
    "ValueError", "Warning", "ZeroDivisionError", "__annotations__", "__build_class__", "__builtins__",
    "__cached__", "__debug__", "__doc__", "__file__", "__import__", "__loader__", "__name__", "__package__",
    "__path__", "__spec__", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
    "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits",
    "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format",
    "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance",
    "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next",
    "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round",
    "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
};

static bool gb_scope__in_sorted(const char *const *list, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(list[mid], name);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

bool gb_python_is_keyword(const char *name)
{
    return gb_scope__in_sorted(gb_keywords, sizeof gb_keywords / sizeof *gb_keywords, name);
}

bool gb_python_is_builtin(const char *name)
{
    return gb_scope__in_sorted(gb_builtins, sizeof gb_builtins / sizeof *gb_builtins, name);
}

/* ---- Name lists ---- */

static size_t gb_names__lower_bound(const GbNames *n, const char *name, bool *found)
{
    size_t lo = 0, hi = n->len;
    *found = false;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(n->items[mid], name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void gb_names_destroy(GbNames *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->len; i++) free(n->items[i]);
    gb_array_free(n);
}

bool gb_names_has(const GbNames *n, const char *name)
{
    bool found;
    gb_names__lower_bound(n, name, &found);
    return found;
}

void gb_names_add(GbNames *n, const char *name)
{
    bool found;
    size_t at = gb_names__lower_bound(n, name, &found);
    if (found) return;
    gb_array_reserve(n, n->len + 1);
    memmove(n->items + at + 1, n->items + at, (n->len - at) * sizeof *n->items);
    n->items[at] = gb_strdup(name);
    n->len++;
}

void gb_effects_init(GbEffects *e)
{
    memset(e, 0, sizeof *e);
}

void gb_effects_destroy(GbEffects *e)
{
    if (!e) return;
    gb_names_destroy(&e->reads);
    gb_names_destroy(&e->writes);
}

bool gb_effects_reads(const GbEffects *e, const char *name)
{
    return gb_names_has(&e->reads, name);
}

bool gb_effects_writes(const GbEffects *e, const char *name)
{
    return gb_names_has(&e->writes, name);
}

GbScopes *gb_scopes_new(TSTree *tree, const char *src)
{
    (void)tree;
    (void)src;
    GbScopes *s = gb_calloc(1, sizeof *s);
    return s;
}

void gb_scopes_delete(GbScopes *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->scopes.len; i++) {
        GbScope *sc = &s->scopes.items[i];
        free(sc->name);
        for (size_t j = 0; j < sc->names.len; j++) free(sc->names.items[j].name);
        gb_array_free(&sc->names);
    }
    gb_array_free(&s->scopes);
    free(s);
}

const GbScopeName *gb_scope_name(const GbScope *scope, const char *name)
{
    size_t lo = 0, hi = scope->names.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(scope->names.items[mid].name, name);
        if (c == 0) return &scope->names.items[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}
