#pragma once
/* Program repair and Python -> Java translation for genebench eval (eval.h): the prompts, and
 * taking the model's program out of its reply. Pure functions of their arguments (the parser
 * is the caller's, one per thread).
 *
 * Code blocks. A fenced block is a line starting with ``` (after spaces) and an optional
 * language word, its lines, and a line starting with ``` that closes it (an unclosed block runs
 * to the end of the reply). gb_eval_code_block returns the last block whose language is `lang`
 * (case-insensitive; "py" and "python3" count as python), else the last block of any
 * language, else the whole reply; NULL when that is empty (only white space). */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/model/task.h"

/* Owned. */
char *gb_eval_code_block(const char *reply, const char *lang);

/* The specification of a task for the repair prompt (owned, NULL when there is none): the
 * docstring of the entry point (a top-level function or class of that name) in source, else
 * the module docstring. */
char *gb_eval_spec(TSParser *parser, const char *source, const char *entry);

/* The repair prompt (owned): the specification (may be NULL), the buggy program in a ```python
 * block, the failing test and its error as the sandbox reported them (failure: a few lines),
 * and the request for the whole corrected program in one ```python block, keeping the names
 * the tests call (entry, may be NULL). */
char *gb_eval_repair_prompt(const char *spec, const char *program, const char *entry, const char *failure);

/* The program of a task as the repair prompt shows it (owned): its main module alone, or, when
 * it has helper modules, each module in its own ```python block whose first line is
 * "# file: PATH" (main.py first); the text starts inside the first block. */
char *gb_eval_program_text(const GbTask *t);

/* Put the reply's corrected program into t: the ```python blocks starting with "# file: PATH"
 * replace main.py (the main module) and the helper modules of those names (other names are
 * ignored); without such blocks, gb_eval_code_block(reply, "python") replaces the main module.
 * *extracted (owned) gets what was taken. False when nothing of the program was given. */
bool gb_eval_repair_apply(const char *reply, GbTask *t, char **extracted);

/* The translation prompt (owned): the Python program in a ```python block and the request for a
 * Java 17 program with `public class Main` reading stdin and writing stdout, in one ```java block. */
char *gb_eval_translate_prompt(const char *program);

/* Java source taken out of a reply: the code block (lang "java") with any package declaration
 * removed, and the class to run: the public top-level class, else the first top-level class
 * declaring `static void main(`, else "Main". False with why when there is no code or the class
 * name is not a Java identifier. *code and *cls are owned. */
bool gb_eval_java_extract(const char *reply, char **code, char **cls, char *why, size_t why_size);
