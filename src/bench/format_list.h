#pragma once
/* The upstream benchmark formats, one X-macro row each:
 *     GB_UPSTREAM_FORMAT(ID, snake, LAYOUT, PURPOSE)
 * ID gives the enum constant GB_UPSTREAM_<ID> (src/bench/upstream.h); snake is the name on the
 * command line (--from/--to) and the file and function stem: the row is implemented by
 * src/bench/<snake>.c, which defines (src/bench/upstream_format.h)
 *     void gb_<snake>_import(GbUpImport *im, const char *data, size_t len, size_t *n_records);
 *     bool gb_<snake>_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err);
 * LAYOUT is how an exported benchmark is laid out on disk (GbUpLayout); PURPOSE says what a
 * hardened record of the format is for and which field holds the hardened program. The order is
 * the enum's order and the order of the names in messages. */
#define GB_UPSTREAM_FORMAT_LIST                                                                                        \
    GB_UPSTREAM_FORMAT(HUMANEVAL, humaneval, GB_UP_LAYOUT_JSONL,                                                       \
                       "program repair and completion: prompt + canonical_solution is the hardened program; "          \
                       "test and entry_point are upstream's")                                                          \
    GB_UPSTREAM_FORMAT(CRUXEVAL, cruxeval, GB_UP_LAYOUT_JSONL,                                                         \
                       "input and output prediction: code is the hardened program; input and output are upstream's")   \
    GB_UPSTREAM_FORMAT(CLASSEVAL, classeval, GB_UP_LAYOUT_JSON_ARRAY,                                                  \
                       "program repair and class generation: solution_code is the hardened class with its imports; "   \
                       "test, test_classes, skeleton and methods_info are upstream's")                                 \
    GB_UPSTREAM_FORMAT(AVATAR, avatar, GB_UP_LAYOUT_DIRECTORY,                                                         \
                       "code translation: code (and Code/<id>.py) is the hardened program; the test cases are "        \
                       "upstream's")
