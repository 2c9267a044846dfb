#pragma once
/* Pinned names: the names a task's tests refer to that its program defines. No operator
 * may rename, move or change the signature of a pinned name. */
#include <tree_sitter/api.h>

#include "src/model/task.h"

/* Recompute t->pinned (replacing what it held). For assert and unittest tasks the list is
 * the entry point (when set) followed, in byte order, by every name that the test code
 * uses (identifiers, attribute names, keyword-argument names and identifier-like string
 * literals such as getattr(obj, "name")) and that the program (source and extra files)
 * defines: functions, classes and methods at any depth, module- and class-level assignment,
 * for, with and import targets, names declared `global`, and attribute assignment targets
 * (self.x = ...). For stdio tasks the tests name nothing, so the list is empty.
 * parser: the caller's (one per thread). Sources that do not parse contribute what
 * tree-sitter recovered. */
void gb_task_compute_pinned(GbTask *t, TSParser *parser);
