#pragma once
/* The similarity measures of two versions of a program (src/measure/similarity.h), one
 * X-macro row each:
 *     GB_SIM_MEASURE(ID, key, command_key, panel, corpus, field)
 * ID      names the enum value GB_SIM_<ID>;
 * key     the measure's name: its key in `genebench versions`' similarity.json (per task and
 *         in the summary), read back by the report, which titles its charts with it;
 * command_key  its key in `genebench similarity`'s output (text summary rows and JSON): the
 *         codebleu package's score names without "_score", "token_" before the token measures;
 * panel   the measure's place in the report's similarity panel (0 first);
 * corpus  true when the measure also has a corpus value (the CodeBLEU parts: GbCodeBleuScore);
 * field   the GbSimTask member that holds the value.
 * The row order is the order of both commands' output. Adding a measure: a row here, its
 * value in GbSimTask (src/measure/similarity.h) and where it is computed. */
#include <stdbool.h>

#define GB_SIM_MEASURE_LIST                                                                                            \
    GB_SIM_MEASURE(CODEBLEU, "codebleu", "codebleu", 0, true, codebleu.codebleu)                                       \
    GB_SIM_MEASURE(NGRAM, "ngram", "ngram_match", 3, true, codebleu.ngram)                                             \
    GB_SIM_MEASURE(WEIGHTED_NGRAM, "weighted_ngram", "weighted_ngram_match", 4, true, codebleu.weighted_ngram)         \
    GB_SIM_MEASURE(SYNTAX, "syntax", "syntax_match", 5, true, codebleu.syntax)                                         \
    GB_SIM_MEASURE(DATAFLOW, "dataflow", "dataflow_match", 6, true, codebleu.dataflow)                                 \
    GB_SIM_MEASURE(COSINE, "cosine", "token_cosine", 1, false, cosine)                                                 \
    GB_SIM_MEASURE(JACCARD, "jaccard", "token_jaccard", 2, false, jaccard)

typedef enum {
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field) GB_SIM_##id,
    GB_SIM_MEASURE_LIST
#undef GB_SIM_MEASURE
        GB_SIM_MEASURE_COUNT
} GbSimMeasure;

/* One row of the list as data. */
typedef struct {
    const char *key;         /* similarity.json and the report */
    const char *command_key; /* `genebench similarity` */
    int panel;               /* place in the report's similarity panel */
    bool corpus;             /* has a corpus value */
} GbSimMeasureInfo;

/* The row of m (m < GB_SIM_MEASURE_COUNT); a static table, borrowed. */
static inline const GbSimMeasureInfo *gb_sim_measure_info(GbSimMeasure m)
{
    static const GbSimMeasureInfo table[GB_SIM_MEASURE_COUNT] = {
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field) {key, command_key, panel, corpus},
        GB_SIM_MEASURE_LIST
#undef GB_SIM_MEASURE
    };
    return &table[m];
}
