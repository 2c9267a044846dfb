#pragma once
/* tree-sitter glue for Python. One TSParser per thread (tree-sitter parsers are not
 * thread-safe); trees and nodes are read-only and may be shared after parsing. */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/python/nodekind.h"

/* The tree-sitter-python@0.23.6 language (static; never freed). */
const TSLanguage *gb_python_language(void);
/* A new parser set to Python (owned; free with ts_parser_delete). */
TSParser *gb_parser_new(void);
/* Parse source (len bytes, UTF-8). Returns an owned tree (ts_tree_delete). */
TSTree *gb_parse(TSParser *parser, const char *source, size_t len);
/* Parse source (len bytes), the text of old's source after edits (n, sorted by position, not
 * overlapping, each in old's coordinates): tree-sitter reuses what the edits left alone. Returns
 * an owned tree; old is not changed. */
TSTree *gb_parse_edited(TSParser *parser, const TSTree *old, const TSInputEdit *edits, size_t n, const char *source,
                        size_t len);
/* True when the tree has an ERROR or MISSING node; row and col (0-based) get the first. */
bool gb_tree_has_error(TSTree *tree, unsigned *row, unsigned *col);
/* Convenience: parse and check; on error fills row/col and returns false. */
bool gb_source_parses(TSParser *parser, const char *source, size_t len, unsigned *row, unsigned *col);
/* Node text as an owned string. */
char *gb_node_text(TSNode node, const char *source);
/* True when node's text equals s. */
bool gb_node_text_eq(TSNode node, const char *source, const char *s);
/* Byte ranges as start, end pairs. */
typedef GbArray(uint32_t) GbByteRanges;
/* Append the [start, end) byte range of every string node below node (node included) that
 * spans lines: text a re-indentation must leave alone. */
void gb_multiline_strings(TSNode node, const char *src, GbByteRanges *out);
/* True when node is not null and of the given type ("for_statement"), by string compare.
 * Code that decides on node types uses gb_node_is_kind (src/python/nodekind.h) instead. */
bool gb_node_is(TSNode node, const char *type);
/* The operand of node when it is a unary minus (`-x`, *neg set true), else node itself (*neg
 * set false). */
TSNode gb_node_unminus(TSNode node, bool *neg);
/* The child of node in the named field ("body"), or a null node. */
TSNode gb_node_field(TSNode node, const char *name);
