#pragma once
/* The evolution of one task (paper Algorithms 1–2 with NSGA-II ranking; DESIGN.md §7).
 *
 * Output format of `genebench evolve` (one canonical task per line, src/task.h), with the
 * hardened program in "source"/"extra_files", the same tests and pinned names, and two
 * extra top-level fields:
 *   "original":  {"source": "...", "extra_files": {...}}
 *   "genebench": {
 *     "index": <position of the task in the input>, "seed": S, "status": "hardened" |
 *       "unchanged" (no offspring survived) | "original_fails" | "error", "error": "..." (when any),
 *     "stop_reason": "rc_reached" | "generations" | "time_budget" | "no_offspring" | "interrupted",
 *     "generations": g, "thresholds": "<file>",
 *     "before": {"rc": x, "rr": y, "metrics": {"C1": v, ..., "entropy": v}},
 *     "after":  {"rc": x, "rr": y, "metrics": {...}},
 *     "operators": [{"op": "S1", "name": "AddNestedFor", "site": "<key>", "rc_delta": d}, ...]
 *                  (the pick's applied operators in order; rc_delta = RC gain of that step),
 *     "front": [{"rc": x, "rr": y, "operators": ["S1", ...], "source"?: "..."}] (final first front;
 *              "source" only with --keep-front),
 *     "gates": {"offered": n, "parse": n, "readability": n, "duplicate": n, "tests": n,
 *               "lint": n, "accepted": n}   (rejections per gate, plus offered/accepted),
 *     "gates_by_operator": {"S1": {same keys}, ...},
 *     "naming": {"mode": "builtin" | "llm", "renamed": {"old": "new", ...}, "kept": true},
 *     "lint": {"before": score, "after": score} (absent with --no-lint),
 *     "time_s": t, "offspring_validated": n }
 * The run summary (OUT.summary.json): {"tool", "version", "seed", "generations", "time_budget",
 *   "breed", "thresholds", "lint", "python": {"interpreter", "version", "numpy", "scipy",
 *   "sklearn", ...}, "tasks", "hardened", "unchanged", "failed", "rc_before_mean",
 *   "rr_before_mean", "rc_after_mean", "rr_after_mean", "time_s", "offspring_validated",
 *   "offspring_per_s", "gates": {...}, "operators": {"S1": {"applied": n, "accepted": n,
 *   "in_picks": n, "mean_rc_delta": d}, ...}}
 */
