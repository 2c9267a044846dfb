#pragma once
/* The output record of one evolved task, typed. gb_evolve_task fills it; the only
 * module that knows its JSON shape is src/bench/record.h, which writes it as the two extra
 * top-level fields of an output task line and reads it back.
 *
 * Output format of `genebench evolve` (one canonical task per line, src/model/task.h), with the
 * hardened program in "source"/"extra_files", the same tests and pinned names, and two
 * extra top-level fields:
 *   "original":  {"source": "...", "extra_files": {...}}
 *   "genebench": {
 *     "index": <position of the task in the input>, "seed": S, "status": "hardened" |
 *       "unchanged" (no offspring survived) | "original_fails" | "error", "error": "..." (when any),
 *     "stop_reason": "rc_reached" | "generations" | "time_budget" | "no_offspring" | "interrupted"
 *       | "original_fails" | "error",
 *     "generations": g, "thresholds": "<file>",
 *     "before": {"rc": x, "rr": y, "metrics": {"C1": v, ..., "entropy": v}},
 *     "after":  {"rc": x, "rr": y, "metrics": {...}},
 *     "operators": [{"op": "S1", "name": "AddNestedFor", "site": "<key>", "rc_delta": d}, ...]
 *                  (the pick's applied operators in order; rc_delta = RC gain of that step; the
 *                  operators of a stacked child share its gain equally),
 *     "edits": [{"op": "AddNestedFor", "module": "main.py", "start": s, "old_end": e, "new_end": n}, ...]
 *                  (the pick's edit history in application order: each edit replaced bytes
 *                  [start, old_end) of the module's text at that moment with new text ending at
 *                  new_end; a module an operator created appears as start = old_end = 0),
 *     "front": [{"rc": x, "rr": y, "operators": ["S1", ...], "source"?: "..."}] (final first front;
 *              "source" only with --keep-front),
 *       (before, after, operators, edits and front are absent when the original could not be
 *       measured)
 *     "gates": {"offered": n, <one key per gate of nsga2/gate_list.h, in its order>: n, ...,
 *               "accepted": n}   (rejections per gate, plus offered/accepted),
 *     "gates_by_operator": {"S1": {same keys}, ...} (operators that were offered something),
 *     "naming": {"mode": "builtin" | "llm", "renamed": {"old": "new", ...}, "kept": true}
 *               (only when the final pick was renamed),
 *     "lint": {"before": score, "after": score} (absent with --no-lint),
 *     "equiv": {"inputs": n, "derived": d, "large": l} (absent with --no-equiv): inputs derived
 *              from the tests (d), kept after recording the original (n, compared for every
 *              child by the equiv gate), of which larger ones (l, for the cost bound), and
 *              "error": "..." when the original could not be probed (then only the tests gate),
 *              and with the search for inputs "branches": b, "covered": c, "uncovered": "12f 20x":
 *              the original's branch outcomes, those the kept inputs reach, those they do not,
 *              and under a time budget, when checking every kept input would cost a child too
 *              much (nsga2/equiv.h, the screen), "screen": s, "refuted": r: the kept inputs
 *              each child was checked on, and how many programs that passed them disagreed on
 *              the others when the pick (and with --keep-front the front) was checked on all,
 *     "away": {"versions": n, "target": t, "original": j0, "pick": j} (only with earlier
 *             versions: versions, `evolve --away-from`): how many earlier versions of the task
 *             there were, the similarity target, and the token Jaccard to the nearest of them of
 *             the original and of the final pick (after its renaming),
 *     "stack": {"depth": d, "stacked": s} (only when the task bred stacked children, a slow task
 *              under a time budget: nsga2/README.md): the most operators one child could carry,
 *              and how many such children joined the population,
 *     "together": {"refuted": r} (only when the tests gate ran a stdio task's cases in one probe,
 *              nsga2/README.md): how many programs that passed them there failed them when run
 *              apart, one process per case, as the pick, its lineage and with --keep-front the
 *              front were before being written,
 *     "time_s": t (wall time of the task's evolution), "offspring_validated": n,
 *     "lineage" (written last, after "offspring_validated"): [{"op": "S1", "site": "<key>", "rc": x,
 *                  "rr": y, "tokens": t, "lines": l,
 *                  "edits": e, "patch": [{"module": "main.py", "start": s, "end": e, "text": "..."}]}, ...]
 *                  (the pick's ancestors, one rung per generation step, oldest first (a stacked
 *                  child's rung names its operators joined by '+': "A2+S6"), the last
 *                  rung being the pick as output, after its renaming; rung 0 is "original", scored in
 *                  "before". A rung's program is the previous rung's with each patch applied: bytes
 *                  [start, end) of the module replaced by text (a module the rung added appears with
 *                  start = end = 0). "edits" is how many entries of "edits" the rung's history
 *                  holds, "tokens" its num_tokens (R1), "lines" its lines over all modules.
 *                  src/bench/lineage.h rebuilds any rung exactly.) }
 * Numbers are written with gb_json_number's rules (src/base/json_write.h): integers exactly,
 * other values with up to 6 decimals, so outputs are byte-identical across runs and thread
 * counts (except time_s).
 *
 * Reading is lenient about absent fields (older outputs, test fixtures): each optional part has a
 * has_ flag or a sentinel, documented per field. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fitness/fitness.h"
#include "nsga2/gate_list.h"
#include "operators/naming.h"
#include "operators/operator.h"
#include "src/model/program.h"
#include "src/model/task.h"
#include "src/base/util.h"

typedef enum { GB_EVOLVED_HARDENED, GB_EVOLVED_UNCHANGED, GB_EVOLVED_ORIGINAL_FAILS, GB_EVOLVED_ERROR } GbEvolveStatus;
/* "hardened", "unchanged", "original_fails", "error" (static strings). */
const char *gb_evolve_status_name(GbEvolveStatus s);
/* The status named s; false when s names none. */
bool gb_evolve_status_parse(const char *s, GbEvolveStatus *out);

/* A program's scores: "before" / "after". Non-finite values are written as null and read
 * back as NAN; an absent metric reads as NAN. */
typedef struct {
    double rc, rr;
    double metrics[GB_METRIC_COUNT]; /* metric_list.h order */
} GbRecordScore;

/* One applied operator of the pick's lineage ("operators"). */
typedef struct {
    char *op;        /* owned: code, "S1" */
    char *name;      /* owned: "AddNestedFor"; NULL when absent */
    char *site;      /* owned: site key; NULL when absent */
    double rc_delta; /* RC gain of that step; NAN when absent */
} GbRecordStep;

/* One member of the final first front ("front"). */
typedef struct {
    double rc, rr;
    GbArray(char *) operators; /* owned codes, lineage order */
    char *source;              /* owned: concatenated program with --keep-front, else NULL */
} GbRecordFrontMember;

/* One replacement of a lineage rung: bytes [start, end) of module replaced by text. */
typedef struct {
    char *module; /* owned: module path */
    size_t start, end;
    char *text; /* owned */
} GbRecordPatch;

/* One rung of the pick's lineage ("lineage"). */
typedef struct {
    char *op;   /* owned: operator code, "S1" */
    char *site; /* owned: site key; NULL when absent */
    double rc, rr, tokens;
    long lines;
    long edits;                   /* history length of the rung's program; -1 when absent */
    GbArray(GbRecordPatch) patch; /* from the previous rung's program to this one */
} GbRecordRung;

/* Offspring offered to the gates, rejections per gate, and accepted. */
typedef struct {
    long offered;
    long rejected[GB_GATE_COUNT];
    long accepted;
} GbGateCounts;

typedef struct {
    long index; /* position of the task in the input; -1 when absent */
    uint64_t seed;
    bool has_seed;
    GbEvolveStatus status;
    bool has_status;
    char *error;       /* owned, NULL when absent */
    char *stop_reason; /* owned, NULL when absent */
    long generations;  /* -1 when absent */
    char *thresholds;  /* owned, NULL when absent */
    /* Each part below is written when its has_ flag is set and read back with the flag telling
     * whether it was present (evolve sets them all, except the scores and lists for a task whose
     * original could not be measured). */
    bool has_scores;             /* "before" (and "after") */
    GbRecordScore before, after; /* "after" may be absent even so: NANs */
    bool has_operators;
    GbArray(GbRecordStep) operators; /* may be read from bare codes ["S1", ...] too */
    bool has_edits;
    GbArray(GbApplied) edits; /* owned; site_key is "" */
    bool has_front;
    GbArray(GbRecordFrontMember) front;
    bool has_lineage;
    GbArray(GbRecordRung) lineage;
    bool has_gates;
    GbGateCounts gates;
    bool has_gates_by_operator;
    GbGateCounts gates_by_operator[GB_OP_COUNT]; /* written for operators with offered > 0 */
    bool has_naming;
    char *naming_mode;    /* owned: "builtin" | "llm" */
    GbRenameList renamed; /* in rename order (operators/naming.h) */
    bool naming_kept;
    bool has_lint;
    double lint_before, lint_after;
    bool has_equiv;
    long equiv_inputs, equiv_derived, equiv_large;
    long equiv_branches, equiv_covered; /* the original's branch outcomes, reached by the inputs (0, 0: no search) */
    bool equiv_untraced;                /* "traced": false, no search: a traced case would outlast its share */
    char *equiv_uncovered;              /* owned: the outcomes not reached ("12f 20x"), or NULL */
    char *equiv_error;                  /* owned: why the original's results could not be recorded, or NULL */
    bool has_equiv_screen;
    long equiv_screen, equiv_refuted; /* inputs in the screen, programs it let through and the rest refuted */
    bool has_away;
    long away_versions;
    double away_target, away_original, away_pick;
    bool has_stack;
    long stack_depth, stack_stacked; /* the most operators a stacked child could carry; those that joined */
    bool has_together;
    long together_refuted; /* programs that passed the cases in one probe and failed them run apart */
    bool has_time;
    double time_s;
    long offspring_validated; /* -1 when absent */
    /* "original": the program the task started from. */
    char *original_source;                /* owned; NULL when absent */
    GbArray(GbFile) original_extra_files; /* owned, in order */
} GbRecord;

/* Caller storage; an empty record (sentinels set, no has_ flags). */
void gb_record_init(GbRecord *r);
void gb_record_destroy(GbRecord *r);
/* Free a rung's strings and patches (caller storage, left zeroed). */
void gb_record_rung_destroy(GbRecordRung *g);
/* Set the "original" part from a task's program (copied). */
void gb_record_set_original(GbRecord *r, const GbTask *task);
