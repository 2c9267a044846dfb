#!/usr/bin/python3
"""Robustness check of operator variants: do they still pass their tests, and is their output
unchanged?

    /usr/bin/python3 tests/e2e/op_robustness.py ORIGINAL.jsonl VARIANTS.jsonl [--json OUT]

VARIANTS holds canonical tasks whose id is "<original id>#<label>#<k>" or "<original id>#<k>"
(`genebench transform --all-sites -o` writes "<id>#<k>"; the label, for instance an operator
code, groups the report). Every original and every variant is run the way genebench's e2e
harness runs tasks (assert: program + tests in one namespace, exit status 0; unittest: every
listed TestCase class runs at least one test and none fails; stdio: each case's stdout equals
the expected one after whitespace normalisation), in a child forked from a warm interpreter that
already imported the heavy libraries. A variant's "output" is everything it wrote to stdout and
stderr (per stdio case), compared with the original's after masking what differs between any two
runs (unittest timings, object addresses); an original whose output differs between two runs of
its own is reported as nondeterministic and its variants are not compared. An original that fails
this harness's checks (e.g. an upstream stdio answer compared with a tolerance upstream) only has
its variants' outputs compared.

Prints one line per label: variants, passing, failing, output changed; then the failures.
Exit status 0 when every variant passes and none changed its output.
"""
import argparse
import json
import os
import re
import resource
import shutil
import signal
import sys
import tempfile

# Warm imports: every child inherits them (the libraries the operators call, and what the
# benchmarks use).
import base64, datetime, time, queue, threading, http.client, unittest, io, random  # noqa: E401,F401
import numpy  # noqa: F401
import scipy.stats, scipy.special, scipy.spatial.distance  # noqa: E401,F401
import sklearn.utils, sklearn.metrics, sklearn.preprocessing  # noqa: E401,F401
import cryptography.fernet  # noqa: F401
from cryptography.hazmat.primitives import hashes  # noqa: F401
import dateutil.parser, dateutil.relativedelta, dateutil.easter  # noqa: E401,F401

LOADER = """
import sys as _sys, unittest as _unittest
_ok = True
for _name in %r:
    _suite = _unittest.TestLoader().loadTestsFromTestCase(globals()[_name])
    _res = _unittest.TextTestRunner(stream=_sys.stderr, verbosity=0).run(_suite)
    _ok = _ok and _res.testsRun > 0 and _res.wasSuccessful()
_sys.exit(0 if _ok else 1)
"""
TIMEOUT = 30
MASKS = [(re.compile(r"Ran (\d+) tests? in [0-9.]+s"), r"Ran \1 tests in Ts"),
         (re.compile(r"0x[0-9a-fA-F]{6,}"), "0xADDR")]


def mask(text):
    for rx, repl in MASKS:
        text = rx.sub(repl, text)
    return text


def run_child(workdir, code, stdin_text):
    """Run code as __main__ in a forked child; returns (exit status, stdout, stderr)."""
    out_path, err_path, in_path = (os.path.join(workdir, n) for n in (".out", ".err", ".in"))
    with open(in_path, "w") as f:
        f.write(stdin_text)
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(workdir)
            sys.path.insert(0, workdir)
            for name in [m for m in sys.modules if m == "main"]:
                del sys.modules[name]
            fd_in = os.open(in_path, os.O_RDONLY)
            fd_out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            fd_err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(fd_in, 0)
            os.dup2(fd_out, 1)
            os.dup2(fd_err, 2)
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
            resource.setrlimit(resource.RLIMIT_CPU, (TIMEOUT, TIMEOUT))
            signal.alarm(TIMEOUT)
            random.seed()
            status = 0
            try:
                exec(compile(code, os.path.join(workdir, "main.py"), "exec"), {"__name__": "__main__"})
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                if not isinstance(e.code, int) and e.code is not None:
                    print(e.code, file=sys.stderr)
            except BaseException:
                import traceback
                traceback.print_exc()
                status = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status & 0xFF)
        except BaseException:
            os._exit(99)
    _, st = os.waitpid(pid, 0)
    code_ = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
    with open(out_path, errors="replace") as f:
        out = f.read()
    with open(err_path, errors="replace") as f:
        err = f.read()
    return code_, out, err


def run_task(task):
    """(passed, output) of a task; output is a list of masked stdout/stderr texts."""
    workdir = tempfile.mkdtemp(prefix="gb_robust_")
    try:
        for path, src in task.get("extra_files", {}).items():
            full = os.path.join(workdir, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(src)
        with open(os.path.join(workdir, "main.py"), "w") as f:
            f.write(task["source"])
        tests = task["tests"]
        outputs = []
        passed = True
        if tests["kind"] == "stdio":
            for case in tests["cases"]:
                status, out, err = run_child(workdir, task["source"], case["stdin"])
                outputs += [mask(out), mask(err)]
                if status != 0 or out.split() != case["stdout"].split():
                    passed = False
        else:
            code = task["source"] + "\n" + tests["code"]
            if tests["kind"] == "unittest":
                code += LOADER % (tests["classes"],)
            status, out, err = run_child(workdir, code, "")
            outputs += [mask(out), mask(err)]
            passed = status == 0
        return passed, outputs
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("original")
    ap.add_argument("variants")
    ap.add_argument("--json", help="write the per-label numbers here")
    args = ap.parse_args()
    originals = {}
    with open(args.original, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                t = json.loads(line)
                originals[t["id"]] = t
    base = {}
    for tid, t in originals.items():
        p1, o1 = run_task(t)
        p2, o2 = run_task(t)
        base[tid] = (p1 and p2, o1 if o1 == o2 else None)
    labels = {}
    failures = []
    with open(args.variants, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            v = json.loads(line)
            parts = v["id"].rsplit("#", 2)
            tid, label = (parts[0], parts[1]) if len(parts) == 3 and parts[0] in originals else \
                (v["id"].rsplit("#", 1)[0], "all")
            if tid not in originals:
                print("unknown original for", v["id"], file=sys.stderr)
                return 2
            ok_orig, out_orig = base[tid]
            row = labels.setdefault(label, {"variants": 0, "passing": 0, "failing": 0, "output_changed": 0,
                                            "nondeterministic": 0, "original_failing": 0})
            row["variants"] += 1
            passed, out = run_task(v)
            if not ok_orig:
                # pass/fail says nothing here; the output is still compared
                row["original_failing"] += 1
            else:
                row["passing" if passed else "failing"] += 1
                if not passed:
                    failures.append((v["id"], out))
            if out_orig is None:
                row["nondeterministic"] += 1
            elif out != out_orig:
                row["output_changed"] += 1
                failures.append((v["id"] + " (output changed)", [a for a, b in zip(out, out_orig) if a != b]))
    print("%-8s %9s %8s %8s %15s %17s" % ("label", "variants", "passing", "failing", "output changed",
                                           "nondeterministic"))
    for label in sorted(labels):
        r = labels[label]
        print("%-8s %9d %8d %8d %15d %17d" % (label, r["variants"], r["passing"], r["failing"], r["output_changed"],
                                               r["nondeterministic"]))
        if r["original_failing"]:
            print("         (%d variants of originals that fail this harness's own checks: output compared only)"
                  % r["original_failing"])
    for vid, out in failures[:40]:
        print("--", vid)
        for o in out:
            print("   ", o[-600:].replace("\n", "\n    "))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(labels, f, indent=1, sort_keys=True)
    bad = any(r["failing"] or r["output_changed"] for r in labels.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
