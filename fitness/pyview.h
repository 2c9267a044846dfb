#pragma once
/* A compact, read-only view of one parsed Python module for the metrics: the tree-sitter tree
 * flattened into an array of nodes with parent / first-child / next-sibling links and a small
 * kind enum, so that the metric passes can walk it cheaply and look at parents (tree-sitter
 * 0.20 has no cheap parent access). Comments and line continuations are left out (they are
 * "extras" that can appear anywhere and no metric counts them).
 * A view borrows the source text; it is immutable after gb_pyview_build and may be shared
 * between threads. Internal to fitness/. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "src/base/util.h"

/* Node kinds the metrics look at: GB_PYKIND(enum suffix, tree-sitter type name, named?).
 * Every other node gets GB_PK_OTHER (named) or GB_PK_TOKEN (anonymous). */
#define GB_PYKIND_LIST                                                                                                 \
    GB_PYKIND(MODULE, "module", 1)                                                                                     \
    GB_PYKIND(BLOCK, "block", 1)                                                                                       \
    GB_PYKIND(EXPRESSION_STATEMENT, "expression_statement", 1)                                                         \
    GB_PYKIND(ASSIGNMENT, "assignment", 1)                                                                             \
    GB_PYKIND(AUGMENTED_ASSIGNMENT, "augmented_assignment", 1)                                                         \
    GB_PYKIND(IF_STATEMENT, "if_statement", 1)                                                                         \
    GB_PYKIND(ELIF_CLAUSE, "elif_clause", 1)                                                                           \
    GB_PYKIND(ELSE_CLAUSE, "else_clause", 1)                                                                           \
    GB_PYKIND(FOR_STATEMENT, "for_statement", 1)                                                                       \
    GB_PYKIND(WHILE_STATEMENT, "while_statement", 1)                                                                   \
    GB_PYKIND(TRY_STATEMENT, "try_statement", 1)                                                                       \
    GB_PYKIND(EXCEPT_CLAUSE, "except_clause", 1)                                                                       \
    GB_PYKIND(EXCEPT_GROUP_CLAUSE, "except_group_clause", 1)                                                           \
    GB_PYKIND(FINALLY_CLAUSE, "finally_clause", 1)                                                                     \
    GB_PYKIND(WITH_STATEMENT, "with_statement", 1)                                                                     \
    GB_PYKIND(WITH_CLAUSE, "with_clause", 1)                                                                           \
    GB_PYKIND(WITH_ITEM, "with_item", 1)                                                                               \
    GB_PYKIND(FUNCTION_DEFINITION, "function_definition", 1)                                                           \
    GB_PYKIND(CLASS_DEFINITION, "class_definition", 1)                                                                 \
    GB_PYKIND(DECORATED_DEFINITION, "decorated_definition", 1)                                                         \
    GB_PYKIND(DECORATOR, "decorator", 1)                                                                               \
    GB_PYKIND(RETURN_STATEMENT, "return_statement", 1)                                                                 \
    GB_PYKIND(BREAK_STATEMENT, "break_statement", 1)                                                                   \
    GB_PYKIND(CONTINUE_STATEMENT, "continue_statement", 1)                                                             \
    GB_PYKIND(PASS_STATEMENT, "pass_statement", 1)                                                                     \
    GB_PYKIND(RAISE_STATEMENT, "raise_statement", 1)                                                                   \
    GB_PYKIND(ASSERT_STATEMENT, "assert_statement", 1)                                                                 \
    GB_PYKIND(DELETE_STATEMENT, "delete_statement", 1)                                                                 \
    GB_PYKIND(IMPORT_STATEMENT, "import_statement", 1)                                                                 \
    GB_PYKIND(IMPORT_FROM_STATEMENT, "import_from_statement", 1)                                                       \
    GB_PYKIND(FUTURE_IMPORT_STATEMENT, "future_import_statement", 1)                                                   \
    GB_PYKIND(GLOBAL_STATEMENT, "global_statement", 1)                                                                 \
    GB_PYKIND(NONLOCAL_STATEMENT, "nonlocal_statement", 1)                                                             \
    GB_PYKIND(PRINT_STATEMENT, "print_statement", 1)                                                                   \
    GB_PYKIND(EXEC_STATEMENT, "exec_statement", 1)                                                                     \
    GB_PYKIND(TYPE_ALIAS_STATEMENT, "type_alias_statement", 1)                                                         \
    GB_PYKIND(MATCH_STATEMENT, "match_statement", 1)                                                                   \
    GB_PYKIND(CASE_CLAUSE, "case_clause", 1)                                                                           \
    GB_PYKIND(CASE_PATTERN, "case_pattern", 1)                                                                         \
    GB_PYKIND(CALL, "call", 1)                                                                                         \
    GB_PYKIND(ARGUMENT_LIST, "argument_list", 1)                                                                       \
    GB_PYKIND(KEYWORD_ARGUMENT, "keyword_argument", 1)                                                                 \
    GB_PYKIND(LIST_SPLAT, "list_splat", 1)                                                                             \
    GB_PYKIND(DICTIONARY_SPLAT, "dictionary_splat", 1)                                                                 \
    GB_PYKIND(PARENTHESIZED_EXPRESSION, "parenthesized_expression", 1)                                                 \
    GB_PYKIND(GENERATOR_EXPRESSION, "generator_expression", 1)                                                         \
    GB_PYKIND(LIST_COMPREHENSION, "list_comprehension", 1)                                                             \
    GB_PYKIND(SET_COMPREHENSION, "set_comprehension", 1)                                                               \
    GB_PYKIND(DICTIONARY_COMPREHENSION, "dictionary_comprehension", 1)                                                 \
    GB_PYKIND(FOR_IN_CLAUSE, "for_in_clause", 1)                                                                       \
    GB_PYKIND(IF_CLAUSE, "if_clause", 1)                                                                               \
    GB_PYKIND(LAMBDA, "lambda", 1)                                                                                     \
    GB_PYKIND(LAMBDA_PARAMETERS, "lambda_parameters", 1)                                                               \
    GB_PYKIND(LIST, "list", 1)                                                                                         \
    GB_PYKIND(LIST_PATTERN, "list_pattern", 1)                                                                         \
    GB_PYKIND(TUPLE, "tuple", 1)                                                                                       \
    GB_PYKIND(TUPLE_PATTERN, "tuple_pattern", 1)                                                                       \
    GB_PYKIND(PATTERN_LIST, "pattern_list", 1)                                                                         \
    GB_PYKIND(EXPRESSION_LIST, "expression_list", 1)                                                                   \
    GB_PYKIND(SET, "set", 1)                                                                                           \
    GB_PYKIND(DICTIONARY, "dictionary", 1)                                                                             \
    GB_PYKIND(PAIR, "pair", 1)                                                                                         \
    GB_PYKIND(ATTRIBUTE, "attribute", 1)                                                                               \
    GB_PYKIND(SUBSCRIPT, "subscript", 1)                                                                               \
    GB_PYKIND(IDENTIFIER, "identifier", 1)                                                                             \
    GB_PYKIND(BOOLEAN_OPERATOR, "boolean_operator", 1)                                                                 \
    GB_PYKIND(COMPARISON_OPERATOR, "comparison_operator", 1)                                                           \
    GB_PYKIND(BINARY_OPERATOR, "binary_operator", 1)                                                                   \
    GB_PYKIND(UNARY_OPERATOR, "unary_operator", 1)                                                                     \
    GB_PYKIND(NOT_OPERATOR, "not_operator", 1)                                                                         \
    GB_PYKIND(CONDITIONAL_EXPRESSION, "conditional_expression", 1)                                                     \
    GB_PYKIND(NAMED_EXPRESSION, "named_expression", 1)                                                                 \
    GB_PYKIND(STRING, "string", 1)                                                                                     \
    GB_PYKIND(STRING_START, "string_start", 1)                                                                         \
    GB_PYKIND(STRING_CONTENT, "string_content", 1)                                                                     \
    GB_PYKIND(STRING_END, "string_end", 1)                                                                             \
    GB_PYKIND(INTERPOLATION, "interpolation", 1)                                                                       \
    GB_PYKIND(CONCATENATED_STRING, "concatenated_string", 1)                                                           \
    GB_PYKIND(INTEGER, "integer", 1)                                                                                   \
    GB_PYKIND(FLOAT, "float", 1)                                                                                       \
    GB_PYKIND(TRUE, "true", 1)                                                                                         \
    GB_PYKIND(FALSE, "false", 1)                                                                                       \
    GB_PYKIND(NONE, "none", 1)                                                                                         \
    GB_PYKIND(ELLIPSIS, "ellipsis", 1)                                                                                 \
    GB_PYKIND(AS_PATTERN, "as_pattern", 1)                                                                             \
    GB_PYKIND(AS_PATTERN_TARGET, "as_pattern_target", 1)                                                               \
    GB_PYKIND(PARAMETERS, "parameters", 1)                                                                             \
    GB_PYKIND(LIST_SPLAT_PATTERN, "list_splat_pattern", 1)                                                             \
    GB_PYKIND(DICTIONARY_SPLAT_PATTERN, "dictionary_splat_pattern", 1)                                                 \
    GB_PYKIND(KEYWORD_SEPARATOR, "keyword_separator", 1)                                                               \
    GB_PYKIND(POSITIONAL_SEPARATOR, "positional_separator", 1)                                                         \
    GB_PYKIND(DOTTED_NAME, "dotted_name", 1)                                                                           \
    GB_PYKIND(ALIASED_IMPORT, "aliased_import", 1)                                                                     \
    GB_PYKIND(RELATIVE_IMPORT, "relative_import", 1)                                                                   \
    GB_PYKIND(IMPORT_PREFIX, "import_prefix", 1)                                                                       \
    GB_PYKIND(WILDCARD_IMPORT, "wildcard_import", 1)                                                                   \
    GB_PYKIND(FORMAT_SPECIFIER, "format_specifier", 1)                                                                 \
    GB_PYKIND(TYPE_CONVERSION, "type_conversion", 1)                                                                   \
    GB_PYKIND(ESCAPE_SEQUENCE, "escape_sequence", 1)                                                                   \
    GB_PYKIND(ESCAPE_INTERPOLATION, "escape_interpolation", 1)                                                         \
    GB_PYKIND(CHEVRON, "chevron", 1)                                                                                   \
    GB_PYKIND(COMMENT, "comment", 1)                                                                                   \
    GB_PYKIND(LINE_CONTINUATION, "line_continuation", 1)                                                               \
    GB_PYKIND(UNION_TYPE, "union_type", 1)                                                                             \
    GB_PYKIND(TYPE, "type", 1)                                                                                         \
    GB_PYKIND(KW_ASYNC, "async", 0)

typedef enum {
    GB_PK_OTHER = 0, /* a named node of a type not listed */
    GB_PK_TOKEN,     /* an anonymous node of a type not listed */
#define GB_PYKIND(e, name, named) GB_PK_##e,
    GB_PYKIND_LIST
#undef GB_PYKIND
        GB_PK_COUNT
} GbPyKind;

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
    uint8_t kind;                               /* GbPyKind */
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
