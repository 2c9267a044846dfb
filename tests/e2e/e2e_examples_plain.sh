#!/usr/bin/env bash
# Every original program of examples/benchmark.jsonl passes its own tests when run directly
# with /usr/bin/python3 (no genebench runner involved):
#   assert:   program + "\n" + tests.code, exit status 0
#   unittest: program + "\n" + tests.code + a loader that runs each listed class; every class
#             must run at least one test, with no failure and no error
#   stdio:    the program with each case's stdin; stdout equal after whitespace normalisation
# As a control, a broken version of one task of each kind must fail the same harness.
set -u
gb=${GENEBENCH:?}
bench=${GB_SOURCE_ROOT:?}/examples/benchmark.jsonl
tmp=$(mktemp -d /tmp/gb_e2e_examples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

check "the benchmark is valid canonical JSONL" '"$gb" validate "$bench" >"$tmp/summary"'
cat "$tmp/summary"
check "at least 14 tasks, every test kind present" 'grep -Eq ": (1[4-9]|[2-9][0-9]) tasks ok \(assert [1-9][0-9]*, unittest ([2-9]|[1-9][0-9]), stdio ([3-9]|[1-9][0-9])\), 0 problems" "$tmp/summary"'

/usr/bin/python3 - "$bench" "$tmp" <<'PY'
import json, os, subprocess, sys

bench, tmp = sys.argv[1], sys.argv[2]
PY = "/usr/bin/python3"
LOADER = """
import sys as _sys, unittest as _unittest
_ok = True
for _name in %r:
    _suite = _unittest.TestLoader().loadTestsFromTestCase(globals()[_name])
    _res = _unittest.TextTestRunner(stream=_sys.stderr, verbosity=0).run(_suite)
    _ok = _ok and _res.testsRun > 0 and _res.wasSuccessful()
_sys.exit(0 if _ok else 1)
"""

def run(task, workdir):
    """Run a task's tests against its program; returns None when they pass, else why not."""
    os.makedirs(workdir, exist_ok=True)
    for path, src in task.get("extra_files", {}).items():
        os.makedirs(os.path.dirname(os.path.join(workdir, path)) or workdir, exist_ok=True)
        with open(os.path.join(workdir, path), "w") as f:
            f.write(src)
    tests = task["tests"]
    if tests["kind"] == "stdio":
        with open(os.path.join(workdir, "main.py"), "w") as f:
            f.write(task["source"])
        for i, case in enumerate(tests["cases"]):
            r = subprocess.run([PY, "main.py"], cwd=workdir, input=case["stdin"], capture_output=True, text=True,
                               timeout=60)
            if r.returncode != 0:
                return "case %d: exit %d: %s" % (i, r.returncode, r.stderr[-300:])
            if r.stdout.split() != case["stdout"].split():
                return "case %d: stdout %r, expected %r" % (i, r.stdout, case["stdout"])
        return None
    program = task["source"] + "\n" + tests["code"]
    if tests["kind"] == "unittest":
        program += LOADER % (tests["classes"],)
    with open(os.path.join(workdir, "main.py"), "w") as f:
        f.write(program)
    r = subprocess.run([PY, "main.py"], cwd=workdir, capture_output=True, text=True, timeout=60)
    return None if r.returncode == 0 else "exit %d: %s" % (r.returncode, r.stderr[-400:])

tasks = [json.loads(line) for line in open(bench, encoding="utf-8")]
bad = 0
for n, task in enumerate(tasks):
    why = run(task, os.path.join(tmp, "run%d" % n))
    print(("ok: %s (%s) passes its tests" if why is None else "FAIL: %s (%s): " + str(why)) % (task["id"], task["tests"]["kind"]))
    bad += why is not None

# controls: a broken program of each kind must be caught by this same harness
controls = 0
for kind in ("assert", "unittest", "stdio"):
    task = dict(next(t for t in tasks if t["tests"]["kind"] == kind))
    if kind == "assert":
        task["source"] = "def %s(*args, **kwargs):\n    return None\n" % task["entry_point"]
    elif kind == "unittest":
        task["source"] = "class %s:\n    pass\n" % task["entry_point"]
    else:
        task["source"] = "print(0)\n"
    why = run(task, os.path.join(tmp, "control_" + kind))
    print(("FAIL: broken %s program was not caught" if why is None else "ok: broken %s program fails its tests") % kind)
    controls += why is None
sys.exit(1 if bad or controls else 0)
PY
rc=$?
check "every example passes its tests; broken controls fail" '[ $rc -eq 0 ]'
exit $fail
