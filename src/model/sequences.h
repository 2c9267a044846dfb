#pragma once
/* Call sequences of a class-level (unittest) task, taken from its test methods, for the
 * equivalence check beyond the tests (nsga2/equiv.h).
 *
 * A sequence is what one test method does to one object of the task's class (the entry point):
 * its constructor call, then in source order the calls of its methods and the assignments to its
 * attributes, each with literal data as arguments (src/model/calls.h: gb_literal_args_ok). Names
 * the test method (or its class's setUp) bound to literal data are replaced by that data
 * (`request = {'path': '/a'}` then `obj.filter(request)` reads `obj.filter(({'path': '/a'}))`); a
 * step whose arguments are not literal data even so is left out, and an object whose
 * constructor's are not has no sequence. A loop over a list written out (`for v in [5, 3]:`)
 * is unrolled, its name bound to each element in turn. The object may be a local name or an
 * attribute of the test (`self.stack = Stack()` in setUp); an attribute of the test bound to
 * literal data (`self.path = 'a.db'`) is replaced like a name. Methods called on the class itself
 * (`Builder.select('t')`: static and class methods) make one sequence per test method on the
 * class itself, whose first step is `Name=` (no object is made).
 *
 * Text form (one sequence, no NUL byte): steps separated by GB_SEQ_SEP; a step is
 *   `Name(ARGS)`   the constructor (always the first step, Name is the class), or
 *   `Name=`        (first step only) the steps run on the class itself
 *   `.name(ARGS)`  a method call
 *   `.name=VALUE`  an attribute assignment
 * with ARGS an argument list and VALUE an expression of literal data.
 *
 * Thread-safety: the caller's parser. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/model/task.h"

#define GB_SEQ_SEP '\x1f'
#define GB_SEQ_MAX_STEPS 24

/* Append to out (owned texts) every sequence of t's test methods, in source order (nothing
 * unless t is a unittest task with an entry point). */
typedef GbArray(char *) GbSeqList;
void gb_sequences_extract(TSParser *parser, const GbTask *t, GbSeqList *out);

/* One step of a sequence text, borrowed: head is `Name(`, `.name(` or `.name=`; args the
 * argument list or value; both as byte ranges of the text. */
typedef struct {
    const char *head;
    size_t head_len;
    const char *args;
    size_t args_len;
} GbSeqStep;
typedef GbArray(GbSeqStep) GbSeqSteps;

/* Split text into its steps (appended to out); false when a step is malformed. */
bool gb_sequence_steps(const char *text, GbSeqSteps *out);
/* The sequence with step k's arguments replaced by args (owned). */
char *gb_sequence_with(const GbSeqStep *steps, size_t n, size_t k, const char *args);
/* The sequence for people: steps joined by "; " (owned). */
char *gb_sequence_display(const char *text);
