#pragma once
/* Calibration of thresholds over a real-world corpus (`genebench calibrate`): measure every
 * non-test .py file under some directories with our metric definitions and write the per-metric
 * means plus a manifest that says exactly what was measured.
 *   - Test code is skipped: files under a directory named `tests`, test_*.py, *_test.py and
 *     conftest.py. Files whose "<dir basename>/<path below it>" matches one of the caller's
 *     exclude patterns (fnmatch, `*` also matches `/`) are left out and counted.
 *   - Each file is measured alone; its own top-level package counts as the program's own code
 *     for C6 (calls into it are inter-module dependencies, as the reference counted a project's
 *     imports of itself when measuring SWE-bench files). The package is the first directory
 *     below dist-packages/site-packages for installed code, else the top of the chain of
 *     directories with __init__.py, else the basename of the given directory.
 *   - Files that are not UTF-8 or do not parse are reported (path, first error position) and
 *     skipped; nothing is written when no file was measured.
 *   - Files are measured in parallel (OpenMP, one TSParser per thread); per-file results are
 *     summed in sorted path order, so the output does not depend on the number of threads.
 *   - Thresholds: CT_i = mean of C_i; RT_j = ceil(mean of R_j) (the rule behind the paper's
 *     published values). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fitness/fitness.h"
#include "src/base/util.h"

typedef struct {
    char *path;    /* owned: file path as found */
    char *message; /* owned: "PATH:LINE:COL: syntax error" or similar */
} GbCalibFailure;

typedef struct {
    char *name;    /* owned: Debian package name */
    char *version; /* owned: installed version */
} GbCalibPackage;

typedef struct {
    char *path;                          /* owned: directory as given */
    size_t files, tests_skipped, failed; /* measured .py files, test files skipped, failures */
    GbArray(GbCalibPackage) packages;    /* Debian packages owning the directory (may be empty) */
} GbCalibDir;

typedef struct {
    char *path;        /* owned */
    char *rel;         /* owned: "<dir basename>/<path below it>" (stable across machines) */
    char *own_package; /* owned: package counted as the file's own code */
    size_t dir;        /* index into GbCalibration.dirs */
    bool ok;
    GbMetrics metrics;
    GbMetricsDetail detail;
    uint64_t content_hash; /* FNV-1a 64 of the file's bytes */
} GbCalibFile;

typedef struct {
    char *name;    /* owned: corpus name (basename of the output without .json) */
    char *command; /* owned: command line that produced the file */
    double mean[GB_METRIC_COUNT];
    size_t measured, tests_skipped;
    GbArray(GbCalibDir) dirs;
    GbArray(GbCalibFailure) failures;
    GbArray(GbCalibFile) files; /* every candidate file, sorted by rel path */
    uint64_t digest;            /* FNV-1a 64 over the sorted (rel path, content hash) of measured files */
    GbArray(char *) excludes;   /* owned fnmatch patterns on the rel path (set by the caller) */
    size_t excluded;            /* non-test .py files left out by the patterns */
    bool list_files;            /* write the list of measured files into the manifest */
} GbCalibration;

void gb_calibration_init(GbCalibration *c);
void gb_calibration_destroy(GbCalibration *c);

/* Collect the candidate files under dirs (recursively; symlinked directories are not followed),
 * then measure them with up to `threads` OpenMP threads (0: the OpenMP default). Fills c (its
 * name, command and list_files are set by the caller). Returns false with err when a directory
 * cannot be read or when no file could be measured; per-file problems go to c->failures. */
bool gb_calibrate_run(const char *const *dirs, size_t ndirs, int threads, GbCalibration *c, GbError *err);

/* Thresholds implied by a calibration (CT = means, RT = ceil of means). */
void gb_calibration_thresholds(const GbCalibration *c, GbThresholds *out);

/* Write the calibration as a thresholds file (corpora/NAME.json schema) atomically. */
bool gb_calibration_write(const char *path, const GbCalibration *c, GbError *err);
