#pragma once
/* The third-party Python libraries genebench's programs may use (the operators' library calls,
 * A1-A8, and benchmark programs), one X-macro row each:
 *     GB_LIBRARY(name, imports, package, worker)
 * name is the top-level module; imports the modules a worker preloads, comma-separated; package
 * the Debian package that provides it (src/setup.sh installs these); worker the smallest test
 * worker kind that preloads it (GbWorkerKind, src/runner/runner_private.h: a run forks from the
 * smallest worker that has what its program imports, src/runner/tier.c).
 * The list feeds the test workers' imports (src/runner/worker.c, passed to harness.py), the lint
 * gate's opaque libraries (harness_lint.py), the worker choice (tier.c), the interpreter's
 * library versions in a run summary (src/cli/evolve_run.c) and the set-up (src/setup.sh reads
 * this file). Adding a library is adding a row here. The order is that of the preload (it
 * matters only for an error message) and of the run summary's versions. */
#define GB_LIBRARY_LIST                                                                                                \
    GB_LIBRARY("numpy", "numpy", "python3-numpy", GB_WORKER_NUMPY)                                                     \
    GB_LIBRARY("scipy", "scipy,scipy.stats", "python3-scipy", GB_WORKER_FULL)                                          \
    GB_LIBRARY("sklearn", "sklearn,sklearn.utils,sklearn.preprocessing,sklearn.metrics", "python3-sklearn",            \
               GB_WORKER_FULL)                                                                                         \
    GB_LIBRARY("cryptography", "cryptography,cryptography.fernet", "python3-cryptography", GB_WORKER_FULL)             \
    GB_LIBRARY("dateutil", "dateutil,dateutil.parser", "python3-dateutil", GB_WORKER_FULL)
