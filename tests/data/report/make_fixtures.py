#!/usr/bin/python3
"""Writes the fixtures of the report tests (tests/data/report/): small hand-written programs,
"hardened" by crude but semantics-preserving text transformations, in the output format of
`genebench evolve` (src/evolve.h) and `genebench versions`. Deterministic: re-running it gives
the same bytes. Metrics are rough stand-ins computed with ast/tokenize (the fixtures exercise
the report, not the metric definitions).  Run: /usr/bin/python3 make_fixtures.py"""
import ast, io, json, math, os, random, re, tokenize
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLDS = "tests/data/report/thresholds.json"
CT = [66.29, 25.59, 20.73, 30.44, 18.11, 19.86, 15.22]
RKEYS = ["num_tokens", "lines_of_code", "num_conditions", "num_loops", "num_assignments",
         "num_max_nested_loop", "num_max_nested_if", "num_max_conditions_in_if", "max_line_tokens",
         "num_of_variables", "num_of_arrays", "num_of_operators", "num_of_nested_casting", "entropy"]
RT = [5038, 402, 45, 12, 89, 2, 4, 3, 31, 45, 13, 78, 2, 7]
NAMES = {"S1": "AddNestedFor", "S2": "AddNestedIf", "S5": "AddTryExcept", "S10": "TransformAugAssignment",
         "A1": "AddBase64", "A3": "AddDatetime", "N1": "RenameVariable"}

TASKS = [
    ("toy/0", "sum_even", '''def sum_even(nums):
    """Sum of the even numbers."""
    total = 0
    for n in nums:
        if n % 2 == 0:
            total += n
    return total
''', "assert sum_even([1, 2, 3, 4]) == 6\nassert sum_even([]) == 0\nassert sum_even([-2, 5]) == -2\n"),
    ("toy/1", "count_vowels", '''def count_vowels(text):
    count = 0
    for ch in text.lower():
        if ch in "aeiou" and ch.isalpha():
            count += 1
    return count
''', "assert count_vowels('Hello') == 2\nassert count_vowels('xyz') == 0\nassert count_vowels('AEIOU <b>') == 5\n"),
    ("toy/2", "fizz", '''def fizz(n):
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out
''', "assert fizz(5) == ['1', '2', 'Fizz', '4', 'Buzz']\nassert fizz(15)[-1] == 'FizzBuzz'\n"),
    ("toy/3", "safe_div", '''def safe_div(a, b):
    if b == 0:
        return None
    return a / b
''', "assert safe_div(1, 0) is None\nassert safe_div(3, 2) == 1\n"),
]


# ---- transformations: each takes (source, entry, rng) and returns new source or None --------------
def body_span(lines, entry):
    d = next(i for i, l in enumerate(lines) if l.startswith("def " + entry + "("))
    j = d + 1
    while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
        j += 1
    while not lines[j - 1].strip():
        j -= 1
    start = d + 1
    if lines[start].strip().startswith('"""'):
        start += 1
    return start, j


def wrap_body(src, entry, header):
    lines = src.split("\n")
    s, e = body_span(lines, entry)
    return "\n".join(lines[:s] + ["    " + header] + ["    " + l if l.strip() else l for l in lines[s:e]] + lines[e:])


def add_line(src, entry, line, imp):
    lines = src.split("\n")
    s, _ = body_span(lines, entry)
    lines.insert(s, "    " + line)
    return imp + "\n" + "\n".join(lines)


def s1(src, entry, rng):
    return wrap_body(src, entry, "for _loop_%d in range(1):" % rng.randint(0, 9))


def s2(src, entry, rng):
    return wrap_body(src, entry, "if len(%r) >= 0:" % rng.choice(["ok", "ready", "go"]))


def s5(src, entry, rng):
    out = wrap_body(src, entry, "try:")
    lines = out.split("\n")
    _, e = body_span(lines, entry)
    return "\n".join(lines[:e] + ["    except ZeroDivisionError:", "        raise"] + lines[e:])


def s10(src, entry, rng):
    new = re.sub(r"^(\s*)(\w+) \+= (.+)$", r"\1\2 = \2 + \3", src, count=1, flags=re.M)
    return new if new != src else None


def a1(src, entry, rng):
    return add_line(src, entry, "_token = base64.b64encode(b%r)" % rng.choice(["k", "key", "tag"]), "import base64")


def a3(src, entry, rng):
    return add_line(src, entry, "_epoch = datetime.date(%d, 1, 1)" % rng.randint(1990, 2020), "import datetime")


def n1(src, entry, rng):
    names = sorted({m for m in re.findall(r"^\s*(\w+) = ", src, flags=re.M) if not m.startswith("_")})
    if not names:
        return None
    old = rng.choice(names)
    return re.sub(r"\b%s\b" % old, old + "_" + rng.choice(["acc", "value", "result"]), src)


OPS = {"S1": s1, "S2": s2, "S5": s5, "S10": s10, "A1": a1, "A3": a3, "N1": n1}


# ---- stand-in metrics -------------------------------------------------------------------------
def tokens(src):
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER, tokenize.ENCODING}
    return [t for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type not in skip]


def depth(node, kinds, d=0):
    best = d
    for c in ast.iter_child_nodes(node):
        best = max(best, depth(c, kinds, d + isinstance(c, kinds)))
    return best


def metrics(src):
    tree = ast.parse(src)
    nodes = list(ast.walk(tree))
    count = lambda *k: sum(isinstance(n, k) for n in nodes)
    toks = tokens(src)
    per_line = Counter(t.start[0] for t in toks)
    freq = Counter(t.string for t in toks)
    ent = -sum(c / len(toks) * math.log2(c / len(toks)) for c in freq.values())
    imports = {a.asname or a.name for n in nodes if isinstance(n, ast.Import) for a in n.names}
    lib_calls = sum(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                    isinstance(n.func.value, ast.Name) and n.func.value.id in imports for n in nodes)
    decisions = count(ast.If, ast.For, ast.While, ast.ExceptHandler, ast.IfExp) + count(ast.BoolOp)
    casts = sum(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("int", "str", "float")
                and any(isinstance(a, ast.Call) for a in n.args) for n in nodes)
    m = {
        "C1": 1 + decisions, "C2": count(ast.BoolOp) + count(ast.Compare),
        "C3": depth(tree, (ast.If, ast.For, ast.While, ast.Try, ast.FunctionDef)),
        "C4": count(ast.ListComp, ast.Lambda, ast.List, ast.GeneratorExp), "C5": lib_calls, "C6": 0,
        "C7": 0,
        "num_tokens": len(toks), "lines_of_code": sum(1 for l in src.split("\n") if l.strip()),
        "num_conditions": count(ast.If, ast.IfExp), "num_loops": count(ast.For, ast.While),
        "num_assignments": count(ast.Assign, ast.AugAssign, ast.AnnAssign),
        "num_max_nested_loop": depth(tree, (ast.For, ast.While)), "num_max_nested_if": depth(tree, (ast.If,)),
        "num_max_conditions_in_if": max([len(n.test.values) if isinstance(n.test, ast.BoolOp) else 1
                                         for n in nodes if isinstance(n, ast.If)] or [0]),
        "max_line_tokens": max(per_line.values()),
        "num_of_variables": len({n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}),
        "num_of_arrays": count(ast.List, ast.ListComp), "num_of_operators": count(ast.BinOp, ast.BoolOp,
                                                                                   ast.Compare, ast.UnaryOp),
        "num_of_nested_casting": casts, "entropy": round(ent, 4),
    }
    return m


def rc_rr(m):
    rc = sum(min(1.0, m["C%d" % (i + 1)] / CT[i]) for i in range(7)) / 7
    rr = sum(max(0.0, 1 - m[k] / RT[j]) for j, k in enumerate(RKEYS)) / 14
    return round(rc, 6), round(rr, 6)


def passes(src, tests):
    ns = {}
    try:
        exec(compile(src + "\n" + tests, "<t>", "exec"), ns)
        return True
    except Exception:
        return False


# ---- building runs ----------------------------------------------------------------------------
GATES = ["parse", "readability", "duplicate", "tests", "lint"]


def evolve(index, task, seed, ops_wanted, status=None, keep=True):
    tid, entry, src, tests = task
    rng = random.Random(seed * 1000 + index)
    before_m = metrics(src)
    brc, brr = rc_rr(before_m)
    cur, applied, steps = src, [], [(brc, brr, [])]
    for op in ops_wanted:
        new = OPS[op](cur, entry, rng)
        if new is None:
            continue
        assert passes(new, tests), (tid, op, new)
        rc, rr = rc_rr(metrics(new))
        applied.append({"op": op, "name": NAMES[op], "site": "%s:%d" % (entry, len(applied) + 1),
                        "rc_delta": round(rc - steps[-1][0], 6)})
        steps.append((rc, rr, [a["op"] for a in applied]))
        cur = new
    gen = len(applied) + rng.randint(1, 3)
    by_op = {}
    for op in sorted(OPS):
        offered = rng.randint(2, 6) * gen
        g = {"offered": offered}
        left = offered
        for k in GATES:
            g[k] = rng.randint(0, left // 3)
            left -= g[k]
        g["accepted"] = left
        by_op[op] = g
    # S4 (AddThread) is offered but the readability gate rejects it every time, so no pick ever
    # uses it: the gate chart must still name it.
    by_op["S4"] = {"offered": gen, "parse": 0, "readability": gen, "duplicate": 0, "tests": 0, "lint": 0,
                   "accepted": 0}
    total = {k: sum(g[k] for g in by_op.values()) for k in ["offered"] + GATES + ["accepted"]}
    st = status or ("hardened" if applied else "unchanged")
    gb = {"index": index, "seed": seed, "status": st}
    if st == "original_fails":
        gb["error"] = "original fails its own tests: AssertionError in line 2 of the tests"
        cur = src
    gb["stop_reason"] = {"hardened": "generations", "unchanged": "no_offspring"}.get(st, "no_offspring")
    gb["generations"] = gen if st != "original_fails" else 0
    gb["thresholds"] = THRESHOLDS
    gb["before"] = {"rc": brc, "rr": brr, "metrics": before_m}
    if st != "original_fails":
        arc, arr = rc_rr(metrics(cur))
        gb["after"] = {"rc": arc, "rr": arr, "metrics": metrics(cur)}
        gb["operators"] = applied
        front = [s for s in steps if not any(o[0] >= s[0] and o[1] >= s[1] and o != s for o in steps)]
        gb["front"] = [{"rc": r, "rr": q, "operators": ops} for r, q, ops in sorted(front)]
        gb["gates"] = total
        gb["gates_by_operator"] = by_op
        gb["naming"] = {"mode": "builtin", "renamed": {}, "kept": True}
        if keep:
            gb["lint"] = {"before": 10.0, "after": round(10.0 - 0.4 * len(applied), 2)}
        gb["time_s"] = round(0.35 * gen + 0.01 * index, 3)
        gb["offspring_validated"] = total["offered"] - total["parse"] - total["readability"] - total["duplicate"]
    line = {"id": tid, "source": cur, "entry_point": entry, "tests": {"kind": "assert", "code": tests},
            "extra_files": {}, "meta": {}, "original": {"source": src, "extra_files": {}}, "genebench": gb}
    return line


def stats(xs):
    """Like `genebench versions`: each measure's summary is {mean, median, q1, q3, min, max}."""
    xs = sorted(xs)

    def q(f):  # linear interpolation between closest ranks
        pos = f * (len(xs) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
    return {"mean": round(sum(xs) / len(xs), 6), "median": round(q(0.5), 6), "q1": round(q(0.25), 6),
            "q3": round(q(0.75), 6), "min": round(xs[0], 6), "max": round(xs[-1], 6)}


def registry(path, pattern):
    """The rows of one of genebench's X-macro lists (the one place they are kept)."""
    with open(os.path.join(HERE, "..", "..", "..", path)) as f:
        return re.findall(pattern, f.read())


def summary(lines, seed, lint=True):
    """The run summary (src/doc/run_summary.h), keys in the order genebench writes them."""
    ops_list = registry("operators/operator_list.h", r"GB_OPERATOR\(([SAN]\d+), (\w+), \w+\)")
    gates = registry("nsga2/gate_list.h", r'GB_GATE\(\w+, \w+, "(\w+)"')
    mkeys = registry("fitness/metric_list.h", r'GB_METRIC\(\w+, "(\w+)"')
    gbs = [l["genebench"] for l in lines]
    done = [g for g in gbs if "after" in g]
    picks, offered = {}, {}
    for g in done:
        for o in g["operators"]:
            picks.setdefault(o["op"], []).append(o["rc_delta"])
    for g in gbs:
        for op, gg in g.get("gates_by_operator", {}).items():
            if not gg["offered"]:
                continue
            e = offered.setdefault(op, {"offered": 0, "accepted": 0, "rejected": {k: 0 for k in gates}})
            e["offered"] += gg["offered"]
            e["accepted"] += gg["accepted"]
            for k in gates:
                e["rejected"][k] += gg.get(k, 0)
    ops = {}
    for code, name in ops_list:
        d = picks.get(code, [])
        mean_d = sum(d) / len(d) if d else 0.0
        if code not in offered:
            ops[code] = {"name": name, "mean_rc_delta": mean_d, "offered": 0, "accepted": 0, "in_picks": len(d),
                         "rejected": {}}
            continue
        e = {"name": name, **offered[code]}
        if d:
            e["in_picks"], e["mean_rc_delta"] = len(d), mean_d
        else:
            e["mean_rc_delta"], e["in_picks"] = mean_d, 0
        ops[code] = e
    evolved = [g for g in gbs if g["status"] in ("hardened", "unchanged") and "after" in g]
    metrics = {}
    for k in mkeys:
        both = [(g["before"]["metrics"][k], g["after"]["metrics"][k]) for g in evolved
                if isinstance(g["before"]["metrics"].get(k), (int, float)) and isinstance(g["after"]["metrics"].get(k), (int, float))]
        n = len(both) or 1
        metrics[k] = {"before_mean": round(sum(b for b, _ in both) / n, 4),
                      "after_mean": round(sum(a for _, a in both) / n, 4),
                      "raised": sum(a > b for b, a in both), "lowered": sum(a < b for b, a in both), "tasks": len(both)}
    t = round(sum(g.get("time_s", 0) for g in done), 3)
    val = sum(g.get("offspring_validated", 0) for g in done)
    mean = lambda xs: round(sum(xs) / len(xs), 6) if xs else None
    return {"tool": "genebench", "version": "0.1.0", "seed": seed, "generations": 8, "time_budget": 0.0,
            "breed": 0.2, "thresholds": THRESHOLDS, "lint": lint,
            "python": {"version": "3.11.2", "numpy": "1.24.2", "scipy": "1.10.1", "sklearn": "1.2.1",
                       "dateutil": "2.8.2", "cryptography": "38.0.4", "pylint": "2.16.2",
                       "interpreter": "/usr/bin/python3"},
            "tasks": len(lines), "hardened": sum(g["status"] == "hardened" for g in gbs),
            "unchanged": sum(g["status"] == "unchanged" for g in gbs),
            "failed": sum(g["status"] in ("original_fails", "error") for g in gbs),
            "rc_before_mean": mean([g["before"]["rc"] for g in gbs]), "rr_before_mean": mean([g["before"]["rr"] for g in gbs]),
            "rc_after_mean": mean([g["after"]["rc"] for g in done]), "rr_after_mean": mean([g["after"]["rr"] for g in done]),
            "time_s": t, "offspring_validated": val, "offspring_validated_this_run": val,
            "offspring_per_s": round(val / t, 3) if t else 0,
            "gates": {k: sum(g["gates"].get(k, 0) for g in done) for k in ["offered"] + gates + ["accepted"]},
            "operators": ops, "metrics": metrics}


def write_jsonl(path, lines):
    with open(os.path.join(HERE, path), "w") as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")


def write_json(path, obj):
    with open(os.path.join(HERE, path), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


# ---- similarity stand-ins ---------------------------------------------------------------------
def tokset(src):
    return Counter(t.string for t in tokens(src))


def cosine(a, b):
    ta, tb = tokset(a), tokset(b)
    dot = sum(ta[k] * tb[k] for k in ta)
    return dot / math.sqrt(sum(v * v for v in ta.values()) * sum(v * v for v in tb.values()))


def jaccard(a, b):
    ta, tb = set(tokset(a)), set(tokset(b))
    return len(ta & tb) / len(ta | tb)


def ngram(a, b, n=4):
    ta, tb = [t.string for t in tokens(a)], [t.string for t in tokens(b)]
    ga, gb = Counter(zip(*[ta[i:] for i in range(n)])), Counter(zip(*[tb[i:] for i in range(n)]))
    return sum((ga & gb).values()) / max(1, sum(gb.values()))


def syntax(a, b):
    na = Counter(type(n).__name__ for n in ast.walk(ast.parse(a)))
    nb = Counter(type(n).__name__ for n in ast.walk(ast.parse(b)))
    return sum((na & nb).values()) / max(1, sum(nb.values()))


def dataflow(a, b):
    va = {n.id for n in ast.walk(ast.parse(a)) if isinstance(n, ast.Name)}
    vb = {n.id for n in ast.walk(ast.parse(b)) if isinstance(n, ast.Name)}
    return len(va & vb) / max(1, len(va | vb))


def pair_scores(tid, a, b):
    ng, sy, df = ngram(a, b), syntax(a, b), dataflow(a, b)
    wng = (ng + jaccard(a, b)) / 2
    r = lambda x: round(x, 6)
    return {"id": tid, "codebleu": r((ng + wng + sy + df) / 4), "ngram": r(ng), "weighted_ngram": r(wng),
            "syntax": r(sy), "dataflow": r(df), "cosine": r(cosine(a, b)), "jaccard": r(jaccard(a, b))}


def nnmr(orig, hard):
    miss = sum(max(range(len(orig)), key=lambda j: cosine(o, hard[j])) != i for i, o in enumerate(orig))
    back = sum(max(range(len(hard)), key=lambda j: cosine(h, orig[j])) != i for i, h in enumerate(hard))
    return round(100.0 * miss / len(orig), 3), round(100.0 * back / len(hard), 3)


def main():
    write_json("thresholds.json", {"name": "paper", "source": "published SWE-bench means (stand-in for corpora/paper.json)",
                                   "complexity": {"C%d" % (i + 1): v for i, v in enumerate(CT)},
                                   "readability": dict(zip(RKEYS, RT))})
    # One benchmark run: two hardened tasks, one unchanged, one whose original fails.
    plan = [["S5", "N1", "S10", "A1"], ["S1", "A3", "S2", "S10"], [], []]
    lines = [evolve(i, t, 1, plan[i], status="original_fails" if i == 3 else None) for i, t in enumerate(TASKS)]
    write_jsonl("bench.jsonl", lines)
    write_json("bench.summary.json", summary(lines, 1))
    # Versions: seeds 1, 2, 3 over the first three tasks, each seed with its own operator sequences.
    os.makedirs(os.path.join(HERE, "versions"), exist_ok=True)
    runs = {}
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        ls = []
        for i, t in enumerate(TASKS[:3]):
            ops = rng.sample(sorted(OPS), 4)
            ls.append(evolve(i, t, seed, ops))
        runs[seed] = ls
        write_jsonl("versions/seed-%d.jsonl" % seed, ls)
        write_json("versions/seed-%d.jsonl.summary.json" % seed, summary(ls, seed))
    pairs = []
    for a, b in ((1, 2), (1, 3), (2, 3)):
        per = [pair_scores(x["id"], x["source"], y["source"]) for x, y in zip(runs[a], runs[b])]
        keys = [k for k in per[0] if k != "id"]
        pairs.append({"a": "seed-%d" % a, "b": "seed-%d" % b, "per_task": per,
                      "summary": {k: stats([p[k] for p in per]) for k in keys}})
    orig = [t[2] for t in TASKS[:3]]
    o2h, h2o = nnmr(orig, [l["source"] for l in runs[1]])
    write_json("versions/similarity.json", {"pairs": pairs, "nnmr": {
        "orig_to_hard": o2h, "hard_to_orig": h2o, "embedding": "builtin", "n": len(orig)}})
    # Tolerance: an older/leaner run without summary, front, lint, gates_by_operator, with an unknown
    # thresholds file and a malformed line.
    lean = [evolve(i, t, 7, ["S2", "N1"][: i + 1], keep=False) for i, t in enumerate(TASKS[:2])]
    for l in lean:
        for k in ("front", "gates_by_operator", "naming", "time_s"):
            l["genebench"].pop(k, None)
        l["genebench"]["thresholds"] = "corpora/no-such-thresholds.json"
    with open(os.path.join(HERE, "lean.jsonl"), "w") as f:
        f.write(json.dumps(lean[0], ensure_ascii=False) + "\n")
        f.write('{"id": "toy/broken", "source": \n')
        f.write(json.dumps(lean[1], ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
