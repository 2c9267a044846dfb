#pragma once
/* How recognisable the text that hardening adds is: over a benchmark's tasks, the sentence
 * (of a docstring or comment) and the identifier that the most tasks' hardened programs
 * contain and their original programs do not, with the number of such tasks (builtins, names an
 * import binds, attribute names, `x.attr`, and keyword names at calls, `f(max_workers=1)`, are
 * Python's and the libraries' words and do not count; a parameter counts at its definition).
 * A fixed phrase
 * or name that recurs across a benchmark is what a reader or a model learns to skip. Not
 * thread-safe: a GbAddedText belongs to one thread (it owns a parser). */
#include <stddef.h>

#include "src/model/task.h"
#include "src/python/scope.h"

typedef struct {
    GbArray(char *) all_; /* private, owned: every (task, added string), "s..." or "n..." */
    size_t tasks;         /* tasks added */
    void *parser_;        /* private, owned: a TSParser */
} GbAddedText;

void gb_added_text_init(GbAddedText *a);
void gb_added_text_destroy(GbAddedText *a);
/* Count one task: its original program (main module source and extra files, may be NULL
 * when n_extra is 0) against its hardened program. */
void gb_added_text_add(GbAddedText *a, const char *orig_source, const GbFile *orig_extra, size_t n_extra,
                       const char *source, const GbFile *extra, size_t n_extra_new);
/* The most frequent added sentence (what 's') or identifier (what 'n'): *text (owned, NULL when
 * none) and the number of tasks that contain it. Ties go to the smallest text. */
size_t gb_added_text_top(const GbAddedText *a, char what, char **text);
