#pragma once
/* Equivalence beyond the tests: a task's tests are a weak oracle, so
 * a hardened program must also agree with the original on inputs derived from the tests.
 *
 * Inputs: assert tests: every call of the entry point (or `candidate`, or `f` when the entry
 * point is f) with literal arguments anywhere in the tests (src/model/calls.h), as written,
 * then `inputs` derived ones (round robin over the calls, each perturbed type-preservingly:
 * src/model/perturb.h), then `large` larger ones (collections and strings grown to about
 * `size` elements, counts the entry point loops on raised to `size`: gb_perturb_grow) for the
 * cost bound; stdio tests: every case's stdin as written, then `inputs`
 * perturbed ones (numbers and tokens nudged, lines kept); unittest tests: the tests' call
 * sequences (src/model/sequences.h), then `inputs` with every step's arguments perturbed and
 * `large` larger ones (mode GB_PROBE_CLASS). The rng of
 * derived input j is keyed on (seed, task id, kind, j); a derived input equal to an earlier one
 * is dropped and another derived (at most three tries per wanted input): the inputs of a task depend on the seed
 * and the task only, so `evolve` and `compare` derive the same ones.
 *
 * Search (cfg->search > 0 rounds): assert tasks also get up to cfg->mined inputs made from the
 * tests' calls by replacing one argument with a boundary value of its type (0, +-1, 10000,
 * empty, one-element, duplicated and mixed lists, long and unicode strings, numeric strings,
 * None) or a literal mined from the program and its tests (integers n - 1, n, n + 1, short
 * strings, as dictionary keys too), shuffled by (seed, task); call sequences alike (one step's
 * argument replaced), and with one method step dropped, taken twice or 8 times; stdio tasks get stdins with one
 * integer token replaced by 0, 1, 2, -1, 10000 or a mined integer (whitespace kept). The original is probed once
 * with branch tracing (src/runner/runner.h: GbProbeSpec.cover): each if/elif/while/for header
 * going on into its body or not, each except handler and match case reached. A searched input
 * is kept when it reaches an outcome no earlier input reached, and up to 24 inputs with a number
 * replaced by a mined integer are kept anyway (coverage cannot tell `x >= 50` from `x > 50`;
 * n - 1, n, n + 1 can) -- in both cases only when the original neither raised TypeError,
 * AttributeError or RecursionError on it nor took over limit_s / 2 (stdio: only when it exited
 * with status 0); while outcomes
 * are left, each further round perturbs the kept searched inputs and the tests' own. The
 * tests' own and derived inputs are always kept, so the search only adds inputs.
 *
 * Time guard (gb_equiv_record, first): the original is probed on the larger inputs (each stopped
 * after 5 x large_s wall seconds, at least 0.5 s); one it takes over large_s CPU seconds on (or
 * runs out of stack or memory on) is made again at half the size (a quarter when it took over 4
 * times that, an eighth when it did not finish), until it is fast enough; it is dropped below 8 elements, and under a task budget when
 * the guard has spent its share (GB_EQUIV_BUDGET_SHARE). A cubic original whose larger input took
 * the whole 2 s per-input limit at each of five sizes spent 10 s of a 15 s budget here.
 *
 * Recording (gb_equiv_record): the original is probed twice, the second starting 1.1 s after the
 * first ended unless the program cannot read a clock (a clock read in whole seconds then differs
 * on every input) (src/runner/runner.h:
 * gb_pool_probe); an input is kept when both probes finished it within limit_s / 2 with the
 * same result (value or exception type, arguments after the call, stdout); inputs on which the
 * original raises are kept with their exception type. Its cost on an input is the smaller CPU
 * time of the two probes.
 *
 * Checking (gb_equiv_check): one probe of the program on the kept inputs (an input times out after
 * max(limit_s, cost_ratio x the original's slowest wall time + 0.5 s)); it agrees when every
 * input finished with the same value and arguments and the same stdout (stdio tasks: compared
 * as the tests compare, gb_stdio_output_matches). Cost bound: over the cost inputs (the larger
 * inputs kept, else every kept input) the program's summed CPU time must not exceed
 * cost_ratio x the original's + cost_slack_s per input (large_slack_s per larger input), and its summed wall time not
 * cost_ratio x the original's + wall_slack_s per input (a sleep costs no CPU); when a bound is
 * exceeded the probe is repeated once and the smaller time per input counts. A timeout on a
 * larger input is over the cost bound, not a disagreement; with cost_ratio >= GB_EQUIV_NO_COST
 * the larger inputs are not probed.
 *
 * Screen (under a task time budget B, cfg->task_budget_s): when the original's wall time summed
 * over the kept inputs exceeds B / GB_EQUIV_SCREEN_SHARE, gb_equiv_check probes a screen of them:
 * every larger input; a stdio task's own cases (gb_equiv_check_cases judges them from it); for every
 * branch outcome the kept inputs reach, one input that reaches it
 * (greedy, most new outcomes per second of the original first); then the cheapest of the rest
 * while the original's wall time on the screen stays within B / GB_EQUIV_SCREEN_SHARE (and until
 * it holds GB_EQUIV_SCREEN_MIN inputs, of those the original takes less than that share on: a
 * script whose every derived input takes it 0.7 s, as `atcoder_ABC162_D`'s, would otherwise check
 * each child on three of them beside its three cases, twice the time of its tests). A
 * screen is taken whenever the summed time exceeds the share, however few the kept inputs. The
 * tests' own inputs are not left out of it: the tests
 * gate runs the child on them too, but compares with the expected output only as the harness
 * does, and does not bound the child's time.
 * A slow script's child then costs a fraction of a full check (a stdio script that takes 0.1 s per
 * input spent 3 s on 30 inputs) and the screen still reaches every outcome the kept inputs reach.
 * The kept inputs outside it are checked by gb_equiv_check_rest, which evolve runs on its final
 * pick (and front) before writing it: a program refuted there is never output.
 *
 * Thread-safety: a recorded GbEquiv is read-only; gb_equiv_check may run concurrently on it. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "src/base/util.h"
#include "src/model/program.h"
#include "src/model/task.h"
#include "src/runner/runner.h"

typedef struct {
    uint64_t seed;
    int inputs;           /* derived inputs per task (default 24) */
    int large;            /* larger inputs per task (default 4) */
    int size;             /* elements (characters, counts) the larger inputs aim at (default 4096) */
    double large_s;       /* CPU seconds the original may take on one larger input (default 0.1; under a
                           * task budget B at most B / GB_EQUIV_LARGE_SHARE) */
    double cost_ratio;    /* R (default 4) */
    double cost_slack_s;  /* CPU seconds per cost input allowed beyond R x the original's (0.02) */
    double large_slack_s; /* the same when the cost inputs are the larger ones (0.005) */
    double wall_slack_s;  /* wall seconds per cost input allowed beyond R x the original's (0.25) */
    double limit_s;       /* per-input time limit of a probe (default 2) */
    double budget_s;      /* time budget of one probe of the original (default 6) */
    int search;           /* rounds of the coverage-guided search (default 3; 0: the derived inputs only) */
    int mined;            /* inputs tried per round of the search (default 160) */
    double task_budget_s; /* evolve's time budget per task (0: none, the default): the search, and each
                           * recording probe, take at most a tenth of it (GB_EQUIV_BUDGET_SHARE) */
    double case_wall_s;   /* a stdio task's original: wall seconds per test case, when known (0: unknown);
                           * under a task budget the search is not run when GB_EQUIV_TRACE_SLOWDOWN
                           * times it exceeds the search's share (gb_equiv_untraced) */
} GbEquivConfig;

/* The coverage search runs the original traced by instruction where a frame holds a branch; on
 * Avatar's slow scripts that took 7.3-12x the untraced time of a test case (ABC145_C 0.09 s ->
 * 0.66 s, AGC004_B 0.46 s -> 4.4 s, ABC162_D 0.72 s -> 8.7 s), so a script whose case takes
 * 0.3 s cannot finish one traced input in a 15 s budget's share (1.5 s): the search then found
 * nothing and spent its whole share. Below the lowest factor seen, to keep every search that can
 * finish. */
#define GB_EQUIV_TRACE_SLOWDOWN 5.0

/* Under a task time budget B, the time guard, the search and each of the original's recording
 * probes stop after B / GB_EQUIV_BUDGET_SHARE seconds (the inputs after that are not kept; an
 * input of the search may take no longer than that either). */
#define GB_EQUIV_BUDGET_SHARE 10.0
/* ... and a child's check (the screen, below) aims at B / GB_EQUIV_SCREEN_SHARE seconds of the
 * original's time; at least GB_EQUIV_SCREEN_MIN inputs are screened. */
#define GB_EQUIV_SCREEN_SHARE 60.0
/* ... and the original may take at most B / GB_EQUIV_LARGE_SHARE CPU seconds on one larger input
 * (when that is below large_s): each child is probed on all of them. */
#define GB_EQUIV_LARGE_SHARE 600.0
#define GB_EQUIV_SCREEN_MIN 6

void gb_equiv_config_defaults(GbEquivConfig *cfg);

/* evolve's gate holds a child to this share of the bounds that `compare` applies (ratio and
 * slacks): a child accepted just under compare's bound took up to 5x the original's CPU on a
 * later run (HumanEval/106 at R = 4), since the gate keeps the smaller of two measurements. */
#define GB_EQUIV_GATE_MARGIN 0.75

/* A cost_ratio at or above this turns the cost bound off (compare --no-cost). */
#define GB_EQUIV_NO_COST 1e9

/* A larger input: input index `input`, made from input `base` with the rng of derived input j,
 * at size cfg->size >> level. */
typedef struct {
    size_t input, base;
    uint32_t j, level;
} GbEquivGrown;

/* A task's inputs, before any program ran (owned strings). */
typedef struct {
    GbProbeMode mode;
    char *entry;                 /* CALL: the function called; CLASS: the class */
    GbArray(char *) inputs;      /* argument lists, call sequences or stdin texts */
    GbArray(bool) large;         /* per input: one of the larger inputs */
    GbArray(GbEquivGrown) grown; /* how each larger input was made (to make it again smaller) */
    size_t from_tests;           /* the first from_tests inputs are the tests' own */
    uint32_t counts;             /* CALL: the entry point's parameters it loops on (gb_perturb_counts) */
} GbEquivInputs;

/* Derive the inputs of task (none for tests without literal calls or constructor calls). */
void gb_equiv_inputs(const GbEquivConfig *cfg, const GbTask *task, TSParser *parser, GbEquivInputs *out);
void gb_equiv_inputs_destroy(GbEquivInputs *in);

typedef struct GbEquiv GbEquiv;

/* Derive task's inputs and record prog's results on them (NULL: the task's own program).
 * Returns an owned GbEquiv (possibly with no kept input), or NULL with err set when the
 * probes could not run (an infrastructure error, or the original's probe itself failed: its
 * status and exception are in the message). */
GbEquiv *gb_equiv_record(GbPool *pool, const GbTask *task, const GbProgram *prog, const GbEquivConfig *cfg,
                         TSParser *parser, GbError *err);
void gb_equiv_delete(GbEquiv *e);
size_t gb_equiv_kept(const GbEquiv *e);           /* inputs kept (compared) */
size_t gb_equiv_derived(const GbEquiv *e);        /* inputs derived before recording */
size_t gb_equiv_large(const GbEquiv *e);          /* larger inputs kept */
double gb_equiv_cost(const GbEquiv *e);           /* the original's CPU seconds on the cost inputs */
size_t gb_equiv_branches(const GbEquiv *e);       /* branch outcomes of the original (0: no search) */
bool gb_equiv_untraced(const GbEquiv *e);         /* no search: a traced case would outlast its share */
size_t gb_equiv_covered(const GbEquiv *e);        /* of them, reached by the kept inputs */
size_t gb_equiv_covered_before(const GbEquiv *e); /* of them, reached by the derived inputs alone */
/* The outcomes no kept input reaches, space-separated ("12f 20x"; borrowed, "" when none). */
const char *gb_equiv_uncovered(const GbEquiv *e);
/* True when no module of prog (NULL: the task's own program) can read the clock: it imports only
 * modules that cannot, and names no builtin or attribute that leads to one (`__import__`, `eval`,
 * `open`, `sys`, `typing.sys`, `random._time`, `__subclasses__`, ...). The two recording probes of
 * such a program need not straddle a second boundary. */
bool gb_equiv_clockless(TSParser *parser, const GbTask *task, const GbProgram *prog);

typedef struct {
    bool agree;   /* every kept input agreed */
    bool cost_ok; /* within the cost bound */
    size_t checked, agreed;
    size_t cut;                   /* cost inputs skipped once the child's CPU time passed twice its bound */
    long first;                   /* index (among kept inputs) of the first disagreement, -1 */
    char *input, *expected, *got; /* owned, of the first disagreement (NULL when none) */
    double cost_orig, cost_child; /* CPU seconds on the cost inputs */
    double wall_orig, wall_child; /* wall seconds on the cost inputs */
    GbRunStatus status;           /* of the probe run */
    char *why;                    /* owned: why the probe failed (status not PASS), else NULL */
} GbEquivVerdict;

/* Probe prog on e's kept inputs and compare. Returns false on an infrastructure error (err
 * set); a disagreeing, failing or slow program is a normal verdict. */
bool gb_equiv_check(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task, const GbProgram *prog,
                    GbEquivVerdict *v, GbError *err);
/* The same on the kept inputs outside the screen (true with nothing checked when there is no
 * screen): with gb_equiv_check, every kept input. */
bool gb_equiv_check_rest(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                         const GbProgram *prog, GbEquivVerdict *v, GbError *err);

/* gb_equiv_check for a stdio task whose cases are all among the inputs it probes (the tests' own
 * inputs are kept; under a screen, those in it): the cases are then judged from the same probe into
 * *tests, as gb_pool_run_cases_together judges them, and *merged is set. A case the probe did not
 * complete is not judged: the verdict rejects the program for it. When some case is not probed,
 * nothing runs and *merged is false (then run the cases and check apart). */
bool gb_equiv_check_cases(const GbEquiv *e, const GbEquivConfig *cfg, GbPool *pool, const GbTask *task,
                          const GbProgram *prog, GbEquivVerdict *v, GbRunResult *tests, bool *merged, GbError *err);

/* Whether a check takes a screen of the kept inputs (else every one), and how many (*n). */
bool gb_equiv_screened(const GbEquiv *e, size_t *n);
void gb_equiv_verdict_destroy(GbEquivVerdict *v);
