#pragma once
/* A compact, read-only view of one parsed Python module for the metrics: the tree-sitter tree
 * flattened into an array of nodes with parent / first-child / next-sibling links and their
 * kind (src/python/nodekind.h), so that the metric passes can walk it cheaply and look at parents (tree-sitter
 * 0.20 has no cheap parent access). Comments and line continuations are left out (they are
 * "extras" that can appear anywhere and no metric counts them).
 * A view borrows the source text; it is immutable after gb_pyview_build and may be shared
 * between threads. Internal to fitness/. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/python/nodekind.h"

/* Fields the metrics look at (tree-sitter field names). */
#define GB_PYFIELD_LIST                                                                                                \
    GB_PYFIELD(LEFT, "left")                                                                                           \
    GB_PYFIELD(RIGHT, "right")                                                                                         \
    GB_PYFIELD(TYPE, "type")                                                                                           \
    GB_PYFIELD(CONDITION, "condition")                                                                                 \
    GB_PYFIELD(CONSEQUENCE, "consequence")                                                                             \
    GB_PYFIELD(ALTERNATIVE, "alternative")                                                                             \
    GB_PYFIELD(BODY, "body")                                                                                           \
    GB_PYFIELD(NAME, "name")                                                                                           \
    GB_PYFIELD(ALIAS, "alias")                                                                                         \
    GB_PYFIELD(VALUE, "value")                                                                                         \
    GB_PYFIELD(FUNCTION, "function")                                                                                   \
    GB_PYFIELD(ARGUMENTS, "arguments")                                                                                 \
    GB_PYFIELD(OBJECT, "object")                                                                                       \
    GB_PYFIELD(ATTRIBUTE, "attribute")                                                                                 \
    GB_PYFIELD(OPERATOR, "operator")                                                                                   \
    GB_PYFIELD(OPERATORS, "operators")                                                                                 \
    GB_PYFIELD(ARGUMENT, "argument")                                                                                   \
    GB_PYFIELD(PARAMETERS, "parameters")                                                                               \
    GB_PYFIELD(RETURN_TYPE, "return_type")                                                                             \
    GB_PYFIELD(DEFINITION, "definition")                                                                               \
    GB_PYFIELD(MODULE_NAME, "module_name")                                                                             \
    GB_PYFIELD(SUBJECT, "subject")                                                                                     \
    GB_PYFIELD(GUARD, "guard")                                                                                         \
    GB_PYFIELD(SUPERCLASSES, "superclasses")                                                                           \
    GB_PYFIELD(EXPRESSION, "expression")                                                                               \
    GB_PYFIELD(KEY, "key")                                                                                             \
    GB_PYFIELD(CAUSE, "cause")

typedef enum {
    GB_PF_NONE = 0,
#define GB_PYFIELD(e, name) GB_PF_##e,
    GB_PYFIELD_LIST
#undef GB_PYFIELD
        GB_PF_COUNT
} GbPyField;

#define GB_PY_NIL UINT32_MAX

typedef struct {
    uint8_t kind;                               /* GbNodeKind; anonymous tokens other than `async`: GB_NK_OTHER */
    uint8_t field;                              /* GbPyField of this node in its parent */
    uint8_t named;                              /* 1 for named nodes */
    uint32_t start, end;                        /* byte range in the source */
    uint32_t row;                               /* 0-based start row */
    uint32_t parent, first_child, next_sibling; /* indices, GB_PY_NIL when absent */
    uint32_t subtree_end;                       /* nodes are in pre-order: the subtree of n is [n, subtree_end) */
} GbPyNode;

typedef struct {
    GbPyNode *nodes; /* owned; nodes[0] is the module */
    uint32_t count;
    const char *src; /* borrowed source text */
    size_t len;
} GbPyView;

/* Flatten a parsed tree (borrowed; it may be deleted afterwards). */
void gb_pyview_build(GbPyView *v, TSTree *tree, const char *src, size_t len);
void gb_pyview_destroy(GbPyView *v);

/* First child of node n with this field, or GB_PY_NIL. */
uint32_t gb_pyview_field(const GbPyView *v, uint32_t n, GbPyField f);
/* First named child, or GB_PY_NIL. */
uint32_t gb_pyview_first_named(const GbPyView *v, uint32_t n);
/* True when the text of node n equals s. */
bool gb_pyview_text_eq(const GbPyView *v, uint32_t n, const char *s);
/* Length of the text of node n. */
static inline uint32_t gb_pyview_len(const GbPyView *v, uint32_t n)
{
    return v->nodes[n].end - v->nodes[n].start;
}
/* Strip parenthesized_expression wrappers (Python's ast has no node for parentheses). */
uint32_t gb_pyview_unparen(const GbPyView *v, uint32_t n);
/* The function of a call, as Python's ast sees it: parentheses stripped, and a list_splat or
 * dictionary_splat stripped too (tree-sitter-python parses `{*f()}` and `*a.b(), c` as a call
 * whose function is `*f`; a splat can never be a callee or an attribute's object in Python). */
uint32_t gb_pyview_callee(const GbPyView *v, uint32_t call);
/* The object of an attribute node, unwrapped the same way. */
uint32_t gb_pyview_attr_object(const GbPyView *v, uint32_t attr);
/* True for a function_definition / for_statement / with_statement written with `async`. */
bool gb_pyview_is_async(const GbPyView *v, uint32_t n);
/* True when n is an if_statement that Python's ast would make orelse[0] of another If:
 * the first statement of the block of an else_clause that belongs to an if_statement. */
bool gb_pyview_is_else_if(const GbPyView *v, uint32_t n);
/* True when n lies inside a match-statement case pattern (list_pattern there is not an ast List). */
bool gb_pyview_in_case_pattern(const GbPyView *v, uint32_t n);
/* For an f-string check: true when the string node (or any part of a concatenated string)
 * has an f/F prefix, i.e. Python's ast makes it a JoinedStr rather than a Constant. */
bool gb_pyview_is_fstring(const GbPyView *v, uint32_t n);
