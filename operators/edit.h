#pragma once
/* The source editing layer shared by all operators.
 *
 * Operators never rewrite a whole module: they collect text edits (byte range → new text) in
 * a GbEditSet and commit them in one pass. The commit re-parses every touched module and
 * rejects the whole set (restoring the program) when a result has an ERROR or MISSING node;
 * otherwise it records the edits in the program's history (for stable site keys) and drops
 * the context's caches of the touched modules. Untouched code keeps its comments and layout.
 *
 * Snippets: operator code is written with "\n" line breaks and 4 spaces per nesting level
 * relative to column 0; gb_edit_format turns it into the file's indentation (spaces or tabs,
 * as the file uses) at the site's indentation.
 *
 * Nothing here is shared between threads. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "operators/operator.h"
#include "src/base/util.h"

typedef struct {
    size_t module;
    uint32_t start, end; /* replaced byte range (start == end: insertion) */
    char *text;          /* owned: new text */
    int order;           /* among insertions at the same position, lower order comes first */
    size_t seq;          /* insertion order (tie-break) */
} GbEdit;

typedef struct {
    GbArray(GbEdit) edits;
    GbArray(GbFile) new_modules; /* modules to create (path, source: owned) */
} GbEditSet;

void gb_edits_init(GbEditSet *set);
void gb_edits_destroy(GbEditSet *set);
/* Replace [start, end) of module by text (copied). */
void gb_edits_replace(GbEditSet *set, size_t module, uint32_t start, uint32_t end, const char *text);
/* Insert text (copied) at pos. */
void gb_edits_insert(GbEditSet *set, size_t module, uint32_t pos, const char *text);
/* As gb_edits_insert with an explicit order among insertions at the same position
 * (imports use -1 so that they precede code inserted at the same line). */
void gb_edits_insert_ordered(GbEditSet *set, size_t module, uint32_t pos, const char *text, int order);
/* Replace a node's text. */
void gb_edits_replace_node(GbEditSet *set, size_t module, TSNode node, const char *text);
/* Create a new module (path, source copied) on commit. The path must not exist yet. */
void gb_edits_new_module(GbEditSet *set, const char *path, const char *source);

/* Apply all edits (in one pass per module), re-parse, reject ERROR/MISSING results, record
 * the history, invalidate caches. Returns false with err set (naming the module, line and
 * the active operator) when the result does not parse or edits overlap; the program is then
 * unchanged. The set is emptied either way. */
bool gb_edits_commit(GbOpContext *ctx, GbEditSet *set, GbError *err);

/* Apply edits of one module to src without touching any program (for previews/tests).
 * Edits must not overlap. Owned result. */
char *gb_text_apply_edits(const char *src, const GbEdit *edits, size_t n);

/* ---- Statements and blocks on the tree ---- */

/* True for simple and compound statement nodes (not blocks, clauses or expressions). */
bool gb_node_is_statement(TSNode node);
/* True for for/while/if/try/with/def/class/decorated/match statements. */
bool gb_node_is_compound(TSNode node);
/* True when node is a loop (for_statement, while_statement). */
bool gb_node_is_loop(TSNode node);
/* True for function_definition, class_definition, lambda and the comprehensions. */
bool gb_node_is_scope(TSNode node);
/* The statement node of the module with exactly this byte range (null node if none). */
TSNode gb_stmt_at(GbOpContext *ctx, size_t module, uint32_t start, uint32_t end);
/* The innermost statement that contains node (node itself when it is one); null node if none. */
TSNode gb_stmt_enclosing(TSNode node);
/* True when stmt is a docstring: the first statement of a module, class or function body
 * and an expression statement made of one string. */
bool gb_stmt_is_docstring(TSNode stmt);
/* True when stmt is alone on its lines: only indentation before it on its first line, and
 * only spaces or a comment after it on its last line (no `;`-joined neighbours, not the
 * body of a one-line compound header such as `if x: y`). */
bool gb_stmt_owns_lines(const char *src, TSNode stmt);
/* The body statements of a function or class definition (the block's named children that
 * are statements, comments excluded) in *first and *last; false when the body is empty. */
bool gb_block_statements(TSNode block, TSNode *first, TSNode *last);
/* The next/previous statement sibling in the same block (comments skipped); null node if none. */
TSNode gb_stmt_next(TSNode stmt);
TSNode gb_stmt_prev(TSNode stmt);

typedef GbArray(TSNode) GbNodes;
/* Append every statement node below root (nested ones included) in source order. */
void gb_stmts_collect(TSNode root, GbNodes *out);
/* True when stmt may be moved into a new block at its own place (wrapped in a loop, if or
 * try) as far as the statement itself is concerned: the module parses, stmt owns its lines,
 * is not a docstring, a __future__ import, a global/nonlocal declaration or a def/class
 * (decorated or not), does not run in a class body (new bindings there would become class
 * attributes) or in a scope that calls locals()/vars()/eval()/exec() (new names would show),
 * does not start in the head of the main module that the task's harness rewrites
 * (gb_harness_rewritten_head: ClassEval's leading imports), and its effects (gb_scopes_effects) have none of the refuse_fx flags. */
bool gb_stmt_wrappable(GbOpContext *ctx, size_t module, TSNode stmt, unsigned refuse_fx);
/* Append a site for every statement of every module that gb_stmt_wrappable accepts with
 * refuse_fx (the sites of the block-wrapping operators S1-S3). */
void gb_wrappable_sites(GbOpContext *ctx, GbSiteList *out, unsigned refuse_fx);
/* The statement of such a site when gb_stmt_wrappable still accepts it; else a null node and
 * err says "<op>: site <key> is not a wrappable statement". */
TSNode gb_wrappable_site_stmt(GbOpContext *ctx, const GbSite *site, unsigned refuse_fx, const char *op, GbError *err);
/* True when the lines from first's line to last's last line hold nothing but these
 * statements (and comments). */
bool gb_stmts_own_lines(const char *src, TSNode first, TSNode last);

/* ---- Text and indentation ---- */

/* Where new top-level code goes in module (a helper, a decorator definition): the start of the
 * line of the first top-level statement that is not the docstring, a __future__ import or an
 * import; the end of the source when there is none. */
uint32_t gb_module_code_start(GbOpContext *ctx, size_t module);
/* Byte offset of the start of the line containing pos. */
uint32_t gb_line_start(const char *src, uint32_t pos);
/* Byte offset just after the newline ending the line containing pos (or the end of src). */
uint32_t gb_line_end(const char *src, size_t len, uint32_t pos);
/* The indentation (leading spaces/tabs) of the line containing pos. Owned. */
char *gb_line_indent(const char *src, uint32_t pos);
/* One level of indentation as the module uses it: "\t" when its first indented block uses
 * a tab, else as many spaces as its first indented block adds (4 when there is none). Owned. */
char *gb_indent_unit(const char *src, TSNode root);
/* Format a snippet for a site: every line after the first gets `indent`, and each leading
 * group of 4 spaces becomes `unit`. With first_too, the first line gets `indent` as well.
 * Empty lines stay empty. A trailing newline is kept. Owned. */
char *gb_edit_format(const char *snippet, const char *indent, const char *unit, bool first_too);
/* True when the top-level node's text is exactly the snippet (4 spaces per level, from column
 * 0, a trailing newline ignored) written in the module's indentation: how an operator knows a
 * definition it wrote earlier (a decorator, a thread runner) is still untouched. */
bool gb_edit_node_is_snippet(GbOpContext *ctx, size_t module, TSNode node, const char *snippet);

/* ---- Statement-level edits (add to a set) ---- */

/* Insert snippet (one or more statements) on its own lines just before stmt, at stmt's
 * indentation. stmt must own its lines. */
void gb_edits_insert_before(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode stmt, const char *snippet);
/* Insert snippet on its own lines just after stmt's last line, at stmt's indentation. */
void gb_edits_insert_after(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode stmt, const char *snippet);
/* Wrap the consecutive statements first..last (same block, owning their lines) into a new
 * compound statement: header (e.g. "for i in range(1):") goes before them at their
 * indentation, every line of them is indented one more level (lines inside multi-line
 * strings are left alone: their text is part of a value), and footer (may be NULL, e.g.
 * "except ValueError:\n    raise") follows them at the header's indentation. header and
 * footer are snippets (see gb_edit_format) and may hold several lines (e.g. a counter
 * assignment before the header). */
void gb_edits_wrap(GbOpContext *ctx, GbEditSet *set, size_t module, TSNode first, TSNode last, const char *header,
                   const char *footer);
/* gb_edits_wrap as the whole edit: wrap first..last and commit (gb_edits_commit). */
bool gb_edits_wrap_commit(GbOpContext *ctx, size_t module, TSNode first, TSNode last, const char *header,
                          const char *footer, GbError *err);

/* Make `import module_name [as alias]` (attr NULL) or `from module_name import attr [as
 * alias]` available at the top of the module and return the name code must use (owned).
 * An existing identical top-level import is reused (no edit). Otherwise the new import goes
 * after the module docstring and `from __future__` imports, into the leading block of imports
 * where pylint expects it (after the last import of the same package, else after the last
 * import of its group or an earlier one: standard library, third party, the program's own
 * modules), before any other statement (so before every use); its bound name is `preferred`
 * (NULL: attr, or module_name without dots) when that name occurs nowhere in the program or
 * tests, else a fresh alias. */
char *gb_edits_add_import(GbOpContext *ctx, GbEditSet *set, size_t module, const char *module_name, const char *attr,
                          const char *preferred);
