#pragma once
/* Node kinds: tree-sitter-python's node types as a small enum, so that code which decides on a
 * node's type compares integers instead of strings. One list generates the enum and the name
 * table; the map from the grammar's symbols to kinds is generated at build time by
 * src/python/nodekind_gen.c (a const table, nodekind_table.c), and the build fails when a name
 * listed here is not a node type of the grammar.
 *
 * A kind stands for a type *name*, exactly as strcmp(ts_node_type(n), name) == 0 did: every
 * symbol with that name maps to it, named or anonymous, visible or aliased. Four names are both
 * a named node and a keyword token ("await", "lambda", "type", "yield"); their kind covers both,
 * so test ts_node_is_named where the difference matters. Types not listed map to GB_NK_OTHER.
 * Add a row when new code needs a type; the order carries no meaning. */
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* GB_NODEKIND(enum suffix, tree-sitter type name): named node types, then keyword and
 * punctuation tokens. */
#define GB_NODEKIND_LIST                                                                                               \
    GB_NODEKIND(ERROR, "ERROR")                                                                                        \
    GB_NODEKIND(ALIASED_IMPORT, "aliased_import")                                                                      \
    GB_NODEKIND(ARGUMENT_LIST, "argument_list")                                                                        \
    GB_NODEKIND(AS_PATTERN, "as_pattern")                                                                              \
    GB_NODEKIND(AS_PATTERN_TARGET, "as_pattern_target")                                                                \
    GB_NODEKIND(ASSERT_STATEMENT, "assert_statement")                                                                  \
    GB_NODEKIND(ASSIGNMENT, "assignment")                                                                              \
    GB_NODEKIND(ATTRIBUTE, "attribute")                                                                                \
    GB_NODEKIND(AUGMENTED_ASSIGNMENT, "augmented_assignment")                                                          \
    GB_NODEKIND(AWAIT, "await")                                                                                        \
    GB_NODEKIND(BINARY_OPERATOR, "binary_operator")                                                                    \
    GB_NODEKIND(BLOCK, "block")                                                                                        \
    GB_NODEKIND(BOOLEAN_OPERATOR, "boolean_operator")                                                                  \
    GB_NODEKIND(BREAK_STATEMENT, "break_statement")                                                                    \
    GB_NODEKIND(CALL, "call")                                                                                          \
    GB_NODEKIND(CASE_CLAUSE, "case_clause")                                                                            \
    GB_NODEKIND(CASE_PATTERN, "case_pattern")                                                                          \
    GB_NODEKIND(CHEVRON, "chevron")                                                                                    \
    GB_NODEKIND(CLASS_DEFINITION, "class_definition")                                                                  \
    GB_NODEKIND(CLASS_PATTERN, "class_pattern")                                                                        \
    GB_NODEKIND(COMMENT, "comment")                                                                                    \
    GB_NODEKIND(COMPARISON_OPERATOR, "comparison_operator")                                                            \
    GB_NODEKIND(CONCATENATED_STRING, "concatenated_string")                                                            \
    GB_NODEKIND(CONDITIONAL_EXPRESSION, "conditional_expression")                                                      \
    GB_NODEKIND(CONTINUE_STATEMENT, "continue_statement")                                                              \
    GB_NODEKIND(DECORATED_DEFINITION, "decorated_definition")                                                          \
    GB_NODEKIND(DECORATOR, "decorator")                                                                                \
    GB_NODEKIND(DEFAULT_PARAMETER, "default_parameter")                                                                \
    GB_NODEKIND(DELETE_STATEMENT, "delete_statement")                                                                  \
    GB_NODEKIND(DICTIONARY, "dictionary")                                                                              \
    GB_NODEKIND(DICTIONARY_COMPREHENSION, "dictionary_comprehension")                                                  \
    GB_NODEKIND(DICTIONARY_SPLAT, "dictionary_splat")                                                                  \
    GB_NODEKIND(DICTIONARY_SPLAT_PATTERN, "dictionary_splat_pattern")                                                  \
    GB_NODEKIND(DOTTED_NAME, "dotted_name")                                                                            \
    GB_NODEKIND(ELIF_CLAUSE, "elif_clause")                                                                            \
    GB_NODEKIND(ELLIPSIS, "ellipsis")                                                                                  \
    GB_NODEKIND(ELSE_CLAUSE, "else_clause")                                                                            \
    GB_NODEKIND(ESCAPE_INTERPOLATION, "escape_interpolation")                                                          \
    GB_NODEKIND(ESCAPE_SEQUENCE, "escape_sequence")                                                                    \
    GB_NODEKIND(EXCEPT_CLAUSE, "except_clause")                                                                        \
    GB_NODEKIND(EXCEPT_GROUP_CLAUSE, "except_group_clause")                                                            \
    GB_NODEKIND(EXEC_STATEMENT, "exec_statement")                                                                      \
    GB_NODEKIND(EXPRESSION_LIST, "expression_list")                                                                    \
    GB_NODEKIND(EXPRESSION_STATEMENT, "expression_statement")                                                          \
    GB_NODEKIND(FALSE, "false")                                                                                        \
    GB_NODEKIND(FINALLY_CLAUSE, "finally_clause")                                                                      \
    GB_NODEKIND(FLOAT, "float")                                                                                        \
    GB_NODEKIND(FOR_IN_CLAUSE, "for_in_clause")                                                                        \
    GB_NODEKIND(FOR_STATEMENT, "for_statement")                                                                        \
    GB_NODEKIND(FORMAT_SPECIFIER, "format_specifier")                                                                  \
    GB_NODEKIND(FUNCTION_DEFINITION, "function_definition")                                                            \
    GB_NODEKIND(FUTURE_IMPORT_STATEMENT, "future_import_statement")                                                    \
    GB_NODEKIND(GENERATOR_EXPRESSION, "generator_expression")                                                          \
    GB_NODEKIND(GLOBAL_STATEMENT, "global_statement")                                                                  \
    GB_NODEKIND(IDENTIFIER, "identifier")                                                                              \
    GB_NODEKIND(IF_CLAUSE, "if_clause")                                                                                \
    GB_NODEKIND(IF_STATEMENT, "if_statement")                                                                          \
    GB_NODEKIND(IMPORT_FROM_STATEMENT, "import_from_statement")                                                        \
    GB_NODEKIND(IMPORT_PREFIX, "import_prefix")                                                                        \
    GB_NODEKIND(IMPORT_STATEMENT, "import_statement")                                                                  \
    GB_NODEKIND(INTEGER, "integer")                                                                                    \
    GB_NODEKIND(INTERPOLATION, "interpolation")                                                                        \
    GB_NODEKIND(KEYWORD_ARGUMENT, "keyword_argument")                                                                  \
    GB_NODEKIND(KEYWORD_PATTERN, "keyword_pattern")                                                                    \
    GB_NODEKIND(KEYWORD_SEPARATOR, "keyword_separator")                                                                \
    GB_NODEKIND(LAMBDA, "lambda")                                                                                      \
    GB_NODEKIND(LAMBDA_PARAMETERS, "lambda_parameters")                                                                \
    GB_NODEKIND(LINE_CONTINUATION, "line_continuation")                                                                \
    GB_NODEKIND(LIST, "list")                                                                                          \
    GB_NODEKIND(LIST_COMPREHENSION, "list_comprehension")                                                              \
    GB_NODEKIND(LIST_PATTERN, "list_pattern")                                                                          \
    GB_NODEKIND(LIST_SPLAT, "list_splat")                                                                              \
    GB_NODEKIND(LIST_SPLAT_PATTERN, "list_splat_pattern")                                                              \
    GB_NODEKIND(MATCH_STATEMENT, "match_statement")                                                                    \
    GB_NODEKIND(MODULE, "module")                                                                                      \
    GB_NODEKIND(NAMED_EXPRESSION, "named_expression")                                                                  \
    GB_NODEKIND(NONE, "none")                                                                                          \
    GB_NODEKIND(NONLOCAL_STATEMENT, "nonlocal_statement")                                                              \
    GB_NODEKIND(NOT_OPERATOR, "not_operator")                                                                          \
    GB_NODEKIND(PAIR, "pair")                                                                                          \
    GB_NODEKIND(PARAMETERS, "parameters")                                                                              \
    GB_NODEKIND(PARENTHESIZED_EXPRESSION, "parenthesized_expression")                                                  \
    GB_NODEKIND(PARENTHESIZED_LIST_SPLAT, "parenthesized_list_splat")                                                  \
    GB_NODEKIND(PASS_STATEMENT, "pass_statement")                                                                      \
    GB_NODEKIND(PATTERN_LIST, "pattern_list")                                                                          \
    GB_NODEKIND(POSITIONAL_SEPARATOR, "positional_separator")                                                          \
    GB_NODEKIND(PRINT_STATEMENT, "print_statement")                                                                    \
    GB_NODEKIND(RAISE_STATEMENT, "raise_statement")                                                                    \
    GB_NODEKIND(RELATIVE_IMPORT, "relative_import")                                                                    \
    GB_NODEKIND(RETURN_STATEMENT, "return_statement")                                                                  \
    GB_NODEKIND(SET, "set")                                                                                            \
    GB_NODEKIND(SET_COMPREHENSION, "set_comprehension")                                                                \
    GB_NODEKIND(STRING, "string")                                                                                      \
    GB_NODEKIND(STRING_CONTENT, "string_content")                                                                      \
    GB_NODEKIND(STRING_END, "string_end")                                                                              \
    GB_NODEKIND(STRING_START, "string_start")                                                                          \
    GB_NODEKIND(SUBSCRIPT, "subscript")                                                                                \
    GB_NODEKIND(TRUE, "true")                                                                                          \
    GB_NODEKIND(TRY_STATEMENT, "try_statement")                                                                        \
    GB_NODEKIND(TUPLE, "tuple")                                                                                        \
    GB_NODEKIND(TUPLE_PATTERN, "tuple_pattern")                                                                        \
    GB_NODEKIND(TYPE, "type")                                                                                          \
    GB_NODEKIND(TYPE_ALIAS_STATEMENT, "type_alias_statement")                                                          \
    GB_NODEKIND(TYPE_CONVERSION, "type_conversion")                                                                    \
    GB_NODEKIND(TYPED_DEFAULT_PARAMETER, "typed_default_parameter")                                                    \
    GB_NODEKIND(TYPED_PARAMETER, "typed_parameter")                                                                    \
    GB_NODEKIND(UNARY_OPERATOR, "unary_operator")                                                                      \
    GB_NODEKIND(UNION_TYPE, "union_type")                                                                              \
    GB_NODEKIND(WHILE_STATEMENT, "while_statement")                                                                    \
    GB_NODEKIND(WILDCARD_IMPORT, "wildcard_import")                                                                    \
    GB_NODEKIND(WITH_CLAUSE, "with_clause")                                                                            \
    GB_NODEKIND(WITH_ITEM, "with_item")                                                                                \
    GB_NODEKIND(WITH_STATEMENT, "with_statement")                                                                      \
    GB_NODEKIND(YIELD, "yield")                                                                                        \
    GB_NODEKIND(AND, "and")                                                                                            \
    GB_NODEKIND(ASYNC, "async")                                                                                        \
    GB_NODEKIND(DEF, "def")                                                                                            \
    GB_NODEKIND(FOR, "for")                                                                                            \
    GB_NODEKIND(IN, "in")                                                                                              \
    GB_NODEKIND(IS, "is")                                                                                              \
    GB_NODEKIND(IS_NOT, "is not")                                                                                      \
    GB_NODEKIND(NOT_IN, "not in")                                                                                      \
    GB_NODEKIND(AT_EQ, "@=")                                                                                           \
    GB_NODEKIND(COMMA, ",")                                                                                            \
    GB_NODEKIND(EQ, "=")                                                                                               \
    GB_NODEKIND(LSHIFT, "<<")                                                                                          \
    GB_NODEKIND(MINUS, "-")                                                                                            \
    GB_NODEKIND(MINUS_EQ, "-=")                                                                                        \
    GB_NODEKIND(PERCENT, "%")                                                                                          \
    GB_NODEKIND(PERCENT_EQ, "%=")                                                                                      \
    GB_NODEKIND(PLUS, "+")                                                                                             \
    GB_NODEKIND(PLUS_EQ, "+=")                                                                                         \
    GB_NODEKIND(RSHIFT, ">>")                                                                                          \
    GB_NODEKIND(SLASH_EQ, "/=")                                                                                        \
    GB_NODEKIND(SLASH_SLASH, "//")                                                                                     \
    GB_NODEKIND(SLASH_SLASH_EQ, "//=")                                                                                 \
    GB_NODEKIND(STAR, "*")                                                                                             \
    GB_NODEKIND(STAR_EQ, "*=")                                                                                         \
    GB_NODEKIND(STAR_STAR, "**")                                                                                       \
    GB_NODEKIND(STAR_STAR_EQ, "**=")                                                                                   \
    GB_NODEKIND(TILDE, "~")

typedef enum {
    GB_NK_OTHER = 0, /* a type not listed, or a null node */
#define GB_NODEKIND(e, name) GB_NK_##e,
    GB_NODEKIND_LIST
#undef GB_NODEKIND
        GB_NK_COUNT
} GbNodeKind;

/* The generated map (src/python/nodekind_table.c, const): the kind of each of the grammar's
 * symbols. Use gb_node_kind. */
extern const uint8_t gb_nodekind_by_symbol[];
extern const uint32_t gb_nodekind_symbol_count;
/* The kind of a symbol outside the table (tree-sitter's builtin ERROR symbol). */
GbNodeKind gb_nodekind_of_builtin(TSSymbol symbol);

/* The kind of node (a node of a tree parsed with gb_python_language()); GB_NK_OTHER for a null
 * node. Thread-safe: reads a const table. Inline: it sits on the operators' hot paths. */
static inline GbNodeKind gb_node_kind(TSNode node)
{
    if (!node.id) return GB_NK_OTHER; /* ts_node_is_null, without the call */
    TSSymbol s = ts_node_symbol(node);
    return s < gb_nodekind_symbol_count ? (GbNodeKind)gb_nodekind_by_symbol[s] : gb_nodekind_of_builtin(s);
}
/* True when node is not null and of kind k: gb_node_is_kind(n, GB_NK_FOR_STATEMENT). */
static inline bool gb_node_is_kind(TSNode node, GbNodeKind k)
{
    return gb_node_kind(node) == k && k != GB_NK_OTHER;
}
/* The tree-sitter type name of kind k (static); "" for GB_NK_OTHER. */
const char *gb_node_kind_name(GbNodeKind k);
