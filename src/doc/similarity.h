#pragma once
/* The JSON output of `genebench similarity --json`: one compact JSON object and a newline. This
 * module is its only writer and its only parser. Keys, in this order:
 *   reference, prediction (the two files: A is the reference, B the prediction),
 *   codebleu: {behaviour, weights: [a, b, c, d], strict_dataflow, ngram_tokenizer, grammar},
 *   token_tokenizer,
 *   tasks: [{id, <command_key of every measure of sim_measure_list.h>..., dataflow_defined,
 *            dataflow_truncated}],
 *   summary: {n, <command_key>: {mean, median, q1, q3, min, max}...},
 *   corpus: {<command_key of every measure with a corpus value>: value...},
 *   only_in_reference: [id...], only_in_prediction: [id...].
 * Weights are written with 6 significant digits (src/base/json_write.h gb_json_general), the
 * measures' values with gb_json_number (not finite: null, NAN here). Every string is owned. Thread-safe (no shared
 * state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/doc_write.h"
#include "src/doc/sim_measure_list.h"

/* The constant descriptions the document carries (and `similarity`'s text output prints). */
#define GB_SIM_DOC_BEHAVIOUR "codebleu 0.7.1"
#define GB_SIM_DOC_NGRAM_TOKENIZER "whitespace (s.split())"
#define GB_SIM_DOC_GRAMMAR "tree-sitter-python 0.23.6"

typedef struct {
    char *id;
    double v[GB_SIM_MEASURE_COUNT]; /* by GbSimMeasure */
    bool dataflow_defined, dataflow_truncated;
} GbSimDocTask;

typedef struct {
    char *reference, *prediction;
    double weights[4];
    bool strict_dataflow;
    GbArray(GbSimDocTask) tasks;
    GbDocStats summary[GB_SIM_MEASURE_COUNT];
    double corpus[GB_SIM_MEASURE_COUNT]; /* only measures whose row says corpus */
    GbDocStrings only_in_reference, only_in_prediction;
} GbSimDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_sim_doc_destroy(GbSimDoc *doc);
/* Append the document (one line and its newline) to out. */
void gb_sim_doc_write(GbStr *out, const GbSimDoc *doc);
/* Parse text (name: the file, for messages) into doc (caller storage, initialised here). False
 * with err naming the file and the key that is missing, mistyped, unknown or of another value
 * than the document's constants, or when "summary.n" is not the number of tasks; doc is then
 * empty. */
bool gb_sim_doc_parse(const char *text, size_t len, const char *name, GbSimDoc *doc, GbError *err);
