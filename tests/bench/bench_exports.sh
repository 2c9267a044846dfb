#!/usr/bin/env bash
# Do hardened dev sets still pass their upstream harnesses with the ground truth, and behave
# like the originals beyond their tests? For each B:FORMAT given, reads DIR/TAG.B.jsonl (an
# `evolve` output) and DIR/B.jsonl (the imported original), exports the hardened set, runs it
# through the real harness code (tests/e2e/run_upstream.py; Avatar has none there, so its
# export's programs run on the exported cases with AVATAR's comparison: same lines, tokens equal
# or numbers within 1e-6), and runs `genebench compare` original vs hardened (its summary, and what
# it says of every task that did not agree).
# usage: tests/bench/bench_exports.sh GENEBENCH DIR TAG HARNESSES B:FORMAT ...
#   e.g. tests/bench/bench_exports.sh build/genebench /tmp/runs after ../shared/harnesses \
#          he:humaneval cx:cruxeval ce:classeval av:avatar
set -u
gb=$1 dir=$2 tag=$3 harnesses=$4
shift 4
here=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
for pair in "$@"; do
  b=${pair%%:*} fmt=${pair#*:}
  hard="$dir/$tag.$b.jsonl" ext=jsonl
  [ "$fmt" = classeval ] && ext=json
  [ "$fmt" = avatar ] && ext=d
  out="$dir/$tag.$b.export.$ext"
  rm -rf "$out"
  "$gb" export --to "$fmt" "$hard" -o "$out" >/dev/null 2>&1 || echo "$b: export failed"
  case $fmt in
    humaneval) modes=humaneval ;;
    cruxeval) modes="cruxeval-output cruxeval-input" ;;
    classeval) modes=classeval ;;
    *) modes= ;;
  esac
  for m in $modes; do
    (cd "$dir" && "$py" "$here/tests/e2e/run_upstream.py" "$m" "$out" "$harnesses" 2>&1 | tail -1)
  done
  if [ "$fmt" = avatar ]; then
    "$py" - "$out" <<'PY'
import glob, json, os, subprocess, sys
root = sys.argv[1]

def same(a, b):
    a, b = a.strip().split("\n"), b.strip().split("\n")
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        tx, ty = x.split(), y.split()
        if len(tx) != len(ty):
            return False
        for u, v in zip(tx, ty):
            if u == v:
                continue
            try:
                if abs(float(u) - float(v)) > 1e-6:
                    return False
            except ValueError:
                return False
    return True

def cases_of(p):
    pid = os.path.basename(p)[:-3]
    return sorted(glob.glob(os.path.join(os.path.dirname(os.path.dirname(p)), "TestCases", pid + "_*.in")))

# the export's layout: a JSONL beside Code/ and TestCases/, or only the folders; a file of Code/
# without test cases is a helper module that a program imports from beside it
files = sorted(os.path.abspath(p) for p in glob.glob(os.path.join(root, "**", "Code", "*.py"), recursive=True))
progs = [p for p in files if cases_of(p)]
if len(progs) < len(files):
    print("avatar: %d helper modules beside the programs" % (len(files) - len(progs)))
ok = 0
for p in progs:
    pid = os.path.basename(p)[:-3]
    cases = cases_of(p)
    good = bool(cases)
    for c in cases:
        r = subprocess.run(["/usr/bin/python3", p], stdin=open(c), capture_output=True, text=True, timeout=60,
                           cwd=os.path.dirname(p))
        good = good and r.returncode == 0 and not r.stderr and same(r.stdout, open(c[:-3] + ".out").read())
    ok += good
    if not good:
        print("FAIL", pid)
print("avatar: %d/%d pass" % (ok, len(progs)))
PY
  fi
  # the summary line, and every task that did not agree with what compare says of it (the first
  # disagreeing input and both results: a verdict under load is worth reading, not only counting)
  "$gb" compare "$dir/$b.jsonl" "$hard" -j 2 2>&1 |
    awk '/^[A-Z]+ / { keep = ($1 != "AGREE") } /^    branches:/ { next } keep && !/ inputs agreeing / { print } END { print }'
done
