#pragma once
/* Internal interface between fitness/fitness.c and the metric passes (complexity.c, cfg.c,
 * readability.c). Every pass reads the parsed modules of one program as GbPyView values and
 * writes plain numbers; nothing here is shared between threads. */
#include <stddef.h>
#include <stdint.h>

#include "fitness/fitness.h"
#include "fitness/pyview.h"
#include "fitness/tokenize.h"

/* The program being measured: its parsed modules and the dotted names of the modules that
 * belong to it (GbProgram module paths without ".py", "/" -> "."; plus, for calibration, the
 * top-level package of the file). */
typedef struct {
    const GbPyView *views; /* borrowed, n modules, main module first */
    size_t n;
    const char *const *own; /* borrowed dotted names */
    size_t n_own;
} GbMeasured;

/* C1 on the interprocedural control-flow graph of all modules (fitness/cfg.c). */
double gb_cfg_c1(const GbMeasured *m, GbMetricsDetail *detail);
/* C2..C7 into v[GB_METRIC_C2..GB_METRIC_C7] (fitness/complexity.c). */
void gb_complexity_measure(const GbMeasured *m, GbMetrics *out, GbMetricsDetail *detail);
/* R1..R14 into v[GB_METRIC_R1..GB_METRIC_R14] (fitness/readability.c). */
void gb_readability_measure(const GbMeasured *m, GbTokenizer *tk, GbMetrics *out);
