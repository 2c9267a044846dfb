#!/usr/bin/env bash
# The judge's forging classes as model answers: `genebench eval --task repair --answers` on a bug
# in each of the HumanEval, CRUXEval and ClassEval formats (tests/data/judge/repair.jsonl), one
# sample per attack of tests/data/judge/hostile.jsonl (a record forged with the token from the
# harness's frames, the seal's lists cleared, frame locals changed through ctypes, an always-true
# __eq__ on a float, int or str subclass, a lookup table from the tests' source in linecache, a
# shadowed builtin, a patched unittest restored in flush, SkipTest, os._exit and sys.exit in a call,
# killing the judge). Every sample is scored as fail, crash or timeout (not error: it ran),
# genebench exits 0 each time; the honest repairs of legit.jsonl pass. (An answers file is scored exactly as a server's replies:
# e2e_eval_offline; e2e_hostile sends the simulated model's own cheats through a server.)
set -u
gb=${GENEBENCH:?}
src=${GB_SOURCE_ROOT:?}
data=$src/tests/data/judge
py=/usr/bin/python3
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
R=$data/repair.jsonl
attacks=$($py -c "import json, sys; print(' '.join(dict.fromkeys(json.loads(l)['id'].split('/')[2] for l in open(sys.argv[1]))))" \
  "$data/hostile.jsonl")
n=$(wc -w <<<"$attacks")

"$gb" eval "$R" --task repair -n "$n" --write-prompts "$tmp/prompts.jsonl"; rc=$?
check "write-prompts: 3 items x 2 versions x $n samples" '[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/prompts.jsonl")" = $((6 * n)) ]'
# answers: sample i of every item is attack i of its format, in a fenced block
answers() { # $1: the benchmark (hostile or legit), $2: the kinds, in sample order
  $py - "$tmp/prompts.jsonl" "$data/$1.jsonl" "$2" <<'EOF'
import json, sys
progs = {}
for line in open(sys.argv[2]):
    t = json.loads(line)
    _, fmt, kind = t["id"].split("/")
    progs[fmt, kind] = t["source"]
kinds = sys.argv[3].split()
for line in open(sys.argv[1]):
    p = json.loads(line)
    fmt = p["item"].split("/")[1].split("#")[0]
    if p["sample"] >= len(kinds):
        continue
    answer = "Here is the fixed program.\n\n```python\n" + progs[fmt, kinds[p["sample"]]] + "```\n"
    print(json.dumps({"item": p["item"], "version": p["version"], "sample": p["sample"], "answer": answer}))
EOF
}
answers hostile "$attacks" >"$tmp/hostile.jsonl"
answers legit "plain prints" >"$tmp/legit.jsonl"
js() { $py -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
passes() { js "$1" "sum(v['verdicts']['pass'] for v in s['versions'])"; }
scored() { js "$1" "s['samples_scored']"; }
# the results lines that passed, as "item sample"
passed() { $py -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r['verdict'] == 'pass':
        print(r['item'], r['sample'])" "$1"; }

"$gb" eval "$R" --task repair -n "$n" --answers "$tmp/hostile.jsonl" --model sim -j 2 -q \
  -o "$tmp/h.jsonl" --summary "$tmp/h.json" >"$tmp/h.out" 2>&1; rc=$?
check "answers file: exit 0, all $((6 * n)) hostile samples scored" '[ $rc -eq 0 ] && [ "$(scored "$tmp/h.json")" = $((6 * n)) ]'
p=$(passed "$tmp/h.jsonl")
check "answers file: no hostile repair passes${p:+ ($p)}" '[ -z "$p" ] && [ "$(passes "$tmp/h.json")" = 0 ]'
i=0
for a in $attacks; do
  for fmt in humaneval cruxeval classeval; do
    v=$($py -c "
import json, sys
print(sorted({r['verdict'] for r in map(json.loads, open(sys.argv[1])) if r['sample'] == $i and '/$fmt#' in r['item']}))" \
      "$tmp/h.jsonl")
    check "eval repair $fmt/$a: scored wrong $v" 'grep -Eq "^\[('"'(fail|crash|timeout)'"'(, )?)+\]\$" <<<"$v"'
  done
  i=$((i + 1))
done
check "SkipTest from an answer fails the class, not skipped" 'grep -q "SkipTest" "$tmp/h.jsonl"'

"$gb" eval "$R" --task repair -n 2 --answers "$tmp/legit.jsonl" --model sim -j 2 -q \
  --summary "$tmp/l.json" >/dev/null 2>&1; rc=$?
check "the honest repairs pass (12 of 12)" '[ $rc -eq 0 ] && [ "$(passes "$tmp/l.json")" = 12 ]'


# ---- the output lock is on the file: a run through a symlink and a run through its target
# cannot both write it (the second is refused at once, the first's lines stay whole)
sed 's/```python\\n/```python\\nimport time\\ntime.sleep(1.5)\\n/' "$tmp/legit.jsonl" >"$tmp/slow.jsonl"
ln -s "$tmp/out.jsonl" "$tmp/link.jsonl"
"$gb" eval "$R" --task repair -n 2 --answers "$tmp/slow.jsonl" --model sim -j 1 -c 1 -q \
  -o "$tmp/link.jsonl" >/dev/null 2>"$tmp/first.err" &
first=$!
for _ in $(seq 200); do [ -e "$tmp/out.jsonl.lock" ] && break; sleep 0.05; done
"$gb" eval "$R" --task repair -n 2 --answers "$tmp/legit.jsonl" --model sim -j 1 -q \
  -o "$tmp/out.jsonl" >/dev/null 2>"$tmp/second.err"; rc2=$?
wait $first; rc1=$?
check "eval -o TARGET while another eval writes it through a symlink: exit 1, naming the lock" \
  '[ $rc2 -eq 1 ] && grep -q "another run .* is writing $tmp/out.jsonl (it holds $tmp/out.jsonl.lock)" "$tmp/second.err"'
whole=$($py -c "
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(len(rows), sum(r['verdict'] == 'pass' for r in rows))" "$tmp/out.jsonl" 2>&1)
check "the first run's 12 lines are whole and pass ($whole)" '[ $rc1 -eq 0 ] && [ "$whole" = "12 12" ]'
exit $fail
