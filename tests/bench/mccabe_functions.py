#!/usr/bin/python3
"""Helper of tests/bench/mccabe_compare.sh (run with Debian's /usr/bin/python3, python3-mccabe).

  mccabe_functions.py extract OUT.jsonl MAX DIR...
      Collect the functions and methods defined at module or class level in the non-test .py
      files under the directories (same rule as genebench calibrate), keep those that do not call
      the program's own functions (a call whose name - Name id, Attribute attr, inner callee of
      f()() - is the function's own name or the name of a def/class nested in it: genebench's C1
      would link those calls), take at most MAX of them evenly spread in file order, and write
      each as a one-function program in genebench's canonical task format, with its McCabe
      complexity (mccabe.PathGraphingAstVisitor) in meta.mccabe.
  mccabe_functions.py compare FUNCS.jsonl METRICS.jsonl
      Print the agreement between meta.mccabe and genebench's C1 (from `genebench metrics`):
      exact-match percentage, mean absolute difference, and the disagreements grouped by the
      constructs of the function that explain them."""
import ast
import json
import os
import sys
import textwrap

import mccabe


def skip_file(rel_parts, name):
    return "tests" in rel_parts or name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def files_under(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        rel = os.path.relpath(d, root).split(os.sep)
        for n in sorted(names):
            if n.endswith(".py") and not skip_file(rel, n):
                out.append(os.path.join(d, n))
    return out


def call_name(call):
    f = call.func
    while isinstance(f, ast.Call):
        f = f.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def calls_own(fn):
    own = {fn.name}
    for n in ast.walk(fn):
        if n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(n.name)
    return any(isinstance(n, ast.Call) and call_name(n) in own for n in ast.walk(fn))


def mccabe_try_paths(fn):
    """McCabe's extra path per try statement: it treats `try` like an if/else (body, each
    handler, and the else block or a bypass) and ignores `finally`; genebench's C1 (like the
    reference's graph) branches from the try entry to the body and to each handler, plus to the
    finally node when there is one. So a try with handlers and no finally counts one more in
    McCabe; with handlers and finally both count the same."""
    return sum(1 for n in ast.walk(fn)
               if isinstance(n, ast.Try) and n.handlers and not n.finalbody)


def features(fn):
    """Constructs on which genebench's C1 and McCabe's count are known to differ."""
    f = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Try) or type(n).__name__ == "TryStar":
            f.add("try")
            if n.finalbody:
                f.add("finally")
            if n.orelse:
                f.add("try-else")
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and n.orelse:
            f.add("loop-else")
        elif isinstance(n, ast.Match):
            f.add("match")
        elif isinstance(n, ast.ClassDef):
            f.add("nested-class")
        elif n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            f.add("nested-def")
        elif isinstance(n, (ast.If)) and all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)) for s in n.body):
            f.add("if-import-only")
    body = fn.body
    for i, s in enumerate(body):
        if isinstance(s, (ast.Return, ast.Raise, ast.Continue, ast.Break)) and i + 1 < len(body):
            f.add("dead-code")
    return sorted(f)


def mccabe_of(src, name):
    tree = compile(src, "<f>", "exec", ast.PyCF_ONLY_AST)
    v = mccabe.PathGraphingAstVisitor()
    v.preorder(tree, v)
    for g in v.graphs.values():
        if g.entity == name:
            return g.complexity()
    return None


def extract(out_path, max_n, dirs):
    cands = []
    for root in dirs:
        base = os.path.basename(os.path.normpath(root))
        for path in files_under(root):
            try:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                tree = ast.parse(text)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            lines = text.split("\n")
            tops = list(tree.body)
            for c in tree.body:
                if isinstance(c, ast.ClassDef):
                    tops.extend(c.body)
            for fn in tops:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or calls_own(fn):
                    continue
                seg = "\n".join(lines[fn.lineno - 1:fn.end_lineno]) + "\n"
                src = textwrap.dedent(seg)
                try:
                    m = mccabe_of(src, fn.name)
                    ast.parse(src)
                except SyntaxError:
                    continue
                if m is None:
                    continue
                rel = base + "/" + os.path.relpath(path, root)
                cands.append({"id": "%s:%d:%s" % (rel, fn.lineno, fn.name), "source": src,
                              "mccabe": m, "features": features(fn), "try_paths": mccabe_try_paths(fn)})
    step = max(1, len(cands) / max_n) if max_n else 1
    picked, k = [], 0.0
    while int(k) < len(cands) and len(picked) < max_n:
        picked.append(cands[int(k)])
        k += step
    with open(out_path, "w", encoding="utf-8") as out:
        for c in picked:
            task = {"id": c["id"], "source": c["source"], "entry_point": None,
                    "tests": {"kind": "assert", "code": "pass\n"}, "extra_files": {},
                    "meta": {"mccabe": c["mccabe"], "features": c["features"],
                             "try_paths": c["try_paths"]}}
            out.write(json.dumps(task) + "\n")
    print("%d eligible functions, %d written to %s" % (len(cands), len(picked), out_path))


def compare(funcs_path, metrics_path):
    funcs = {}
    with open(funcs_path, encoding="utf-8") as fh:
        for line in fh:
            t = json.loads(line)
            funcs[t["id"]] = t["meta"]
    n = same = adjusted_same = no_try = no_try_same = 0
    absdiff = 0
    by_feature = {}
    worst = []
    with open(metrics_path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if "id" not in r:
                continue
            meta = funcs[r["id"]]
            c1, mc = r["metrics"]["C1"], meta["mccabe"]
            n += 1
            absdiff += abs(c1 - mc)
            adjusted_same += c1 + meta["try_paths"] == mc
            if "try" not in meta["features"]:
                no_try += 1
                no_try_same += c1 == mc
            if c1 == mc:
                same += 1
                continue
            key = ",".join(meta["features"]) or "(none)"
            e = by_feature.setdefault(key, [0, 0])
            e[0] += 1
            e[1] += c1 - mc
            worst.append((abs(c1 - mc), r["id"], c1, mc))
    print("functions compared: %d" % n)
    if n:
        print("exact match: %d (%.1f%%)" % (same, 100.0 * same / n))
        print("mean |C1 - mccabe|: %.3f" % (absdiff / n))
        print("functions without try: %d, exact match %d (%.1f%%)"
              % (no_try, no_try_same, 100.0 * no_try_same / max(no_try, 1)))
        print("exact match after adding McCabe's extra path per try-with-handlers-and-no-finally: "
              "%d (%.1f%%)" % (adjusted_same, 100.0 * adjusted_same / n))
    print("disagreements by construct (count, mean C1 - mccabe):")
    for key, (cnt, d) in sorted(by_feature.items(), key=lambda kv: -kv[1][0]):
        print("  %-40s %5d  %+.2f" % (key, cnt, d / cnt))
    for d, fid, c1, mc in sorted(worst, reverse=True)[:10]:
        print("  e.g. %s: C1 %g, mccabe %g" % (fid, c1, mc))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "extract":
        extract(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
