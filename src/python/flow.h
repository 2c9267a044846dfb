#pragma once
/* Flow facts about one Python module, computed on its tree-sitter tree, for the preconditions
 * of operators that move code into new functions or threads (S4, S6, S7, S8, S9, S11).
 *
 * Everything here is conservative: "true" is a proof, "false" means "not proven".
 * Nothing keeps a reference to the tree or the source after a call returns, except
 * GbCallGraph, which copies what it needs. A GbCallGraph is immutable after init and may be
 * read from several threads. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/python/scope.h"
#include "src/base/util.h"

/* True when stmt, if it completes normally, has bound `name` in its scope: an assignment
 * with name among its targets (chained and unpacking targets included), an augmented
 * assignment of name, an import that binds name, a def/class of that name, a with statement
 * whose `as` targets bind it, an if/elif/else chain with an else where every branch binds it,
 * or a try whose finally clause binds it. */
bool gb_flow_stmt_binds(const char *src, TSNode stmt, const char *name);

/* True when name is certainly bound (in the scope that runs stmt) whenever execution reaches
 * the start of stmt: a parameter of the enclosing function, an earlier statement of an
 * enclosing block that binds it (gb_flow_stmt_binds), the target of an enclosing for loop or
 * the `as` target of an enclosing with/except. False when the enclosing function (or module)
 * deletes name anywhere (`del`, or an `except ... as name` clause, which unbinds at its end),
 * and in class bodies. */
bool gb_flow_bound_before(const char *src, TSNode stmt, const char *name);
/* As gb_flow_bound_before, but only bindings inside the block `limit` (an ancestor of stmt)
 * count: true when name is bound by the time stmt runs, in every run of the block. */
bool gb_flow_bound_before_within(const char *src, TSNode stmt, const char *name, TSNode limit);
/* As gb_flow_bound_before_within, where statements of `limit` itself only count from byte
 * offset `floor` on (a range of statements that starts there). */
bool gb_flow_bound_before_range(const char *src, TSNode stmt, const char *name, TSNode limit, uint32_t floor);

/* True when some identifier below root (variable, attribute or keyword name) is one of names. */
bool gb_flow_mentions_any(TSNode root, const char *src, const char *const *names, size_t n);

/* Every identifier text below node (variables, attribute names, keyword names), added to out. */
void gb_flow_identifiers(TSNode node, const char *src, GbNames *out);
/* Every identifier text inside a loop (for/while statement, header included) or a
 * comprehension below node, added to out: the names that code run many times mentions. */
void gb_flow_loop_identifiers(TSNode node, const char *src, GbNames *out);

/* A name-based call graph of one module: a node per def (function or method), per class and
 * per `name = lambda` assignment; a def refers to every identifier and attribute name its body
 * mentions (a class: its whole body), and a reference to a name reaches every node of that
 * name. This over-approximates the real calls (x.f() reaches every def f), so "not
 * recursive" is a proof for code of this module. */
typedef struct {
    char *name;          /* owned */
    GbNames refs;        /* names mentioned by the body */
    uint32_t start, end; /* byte range of the node (def / class / assignment) */
    bool recursive;      /* can reach itself */
    bool reached;        /* a recursive node reaches it */
} GbCallNode;

typedef struct {
    GbArray(GbCallNode) nodes;
} GbCallGraph;

void gb_callgraph_init(GbCallGraph *g, TSNode root, const char *src);
void gb_callgraph_destroy(GbCallGraph *g);
/* True when the function/class/lambda node starting at byte `start` can reach itself. */
bool gb_callgraph_is_recursive_at(const GbCallGraph *g, uint32_t start);
/* True when the code (any node) mentions a name that reaches a recursive node of the graph,
 * or code lies inside a recursive node. */
bool gb_callgraph_reaches_recursion(const GbCallGraph *g, TSNode code, const char *src);
/* True when some node named `name` is recursive, or reaches a recursive node. */
bool gb_callgraph_name_reaches_recursion(const GbCallGraph *g, const char *name);
/* True when code may run while a recursive function is on the stack, or may start one: it
 * lies inside a node that is recursive or that a recursive node reaches, or it mentions a
 * name that reaches a recursive node. Code for which this is false never shares the stack
 * with a frame of a recursion. */
bool gb_callgraph_near_recursion(const GbCallGraph *g, TSNode code, const char *src);

/* The number of places in the module that bind the global variable `name` (module-level
 * bindings, and bindings in functions that declare it global; `del` counts). When there is
 * exactly one, *stmt gets the statement that contains it (stmt may be NULL). root is the
 * module's tree root, s its scope analysis. */
size_t gb_flow_global_bindings(const GbScopes *s, const char *src, TSNode root, const char *name, TSNode *stmt);
/* True when node is a statement directly in the module's top-level block. */
bool gb_flow_is_toplevel(TSNode node);
/* The top-level statement (child of the module) that contains node; null node if none. A
 * decorated definition counts as one statement. */
TSNode gb_flow_toplevel_of(TSNode node);
