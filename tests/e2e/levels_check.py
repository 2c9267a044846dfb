#!/usr/bin/python3
"""Independent checks of `genebench levels` and `genebench breaks` (tests/e2e/e2e_levels.sh).

    levels_check.py lineage EV.jsonl
        every hardened task's lineage rebuilds, rung by rung from "original", to its program
    levels_check.py breaks LEVELDIR RESULTS_DIR K RULE ARG [OP]
        breaks.json against what a simulated model with RULE ("construct" ARG: wrong when the program
        contains ARG; "lines" ARG: wrong when it has more than ARG lines) implies, recomputed here from
        the level files and the model server's own rule; with "construct", OP (the operator that alone
        adds ARG) must be the first breaking operator, with rate 1
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fakes"))
import model_server  # noqa: E402


def rebuild(t):
    mods = {"main.py": t["original"]["source"]}
    mods.update(t["original"].get("extra_files", {}))
    out = []
    for g in t["genebench"]["lineage"]:
        for p in g["patch"]:
            s = mods.get(p["module"], "")
            b = s.encode()
            mods[p["module"]] = (b[:p["start"]] + p["text"].encode() + b[p["end"]:]).decode()
        out.append(dict(mods))
    return out


def check_lineage(path):
    n = 0
    for line in open(path, encoding="utf-8"):
        t = json.loads(line)
        gb = t["genebench"]
        if gb["status"] != "hardened":
            continue
        assert "lineage" in gb, t["id"]
        rungs = rebuild(t)
        # a rung per step; a stacked step names its operators joined by "+"
        assert len(rungs) == len(gb["lineage"]), t["id"]
        last = rungs[-1]
        assert last["main.py"] == t["source"], t["id"]
        for k, v in t.get("extra_files", {}).items():
            assert last[k] == v, (t["id"], k)
        assert [op for g in gb["lineage"] for op in g["op"].split("+")] == [o["op"] for o in gb["operators"]], t["id"]
        assert abs(gb["lineage"][-1]["rc"] - gb["after"]["rc"]) < 1e-6, t["id"]
        n += 1
    assert n > 0, "no hardened task"
    print("lineage: %d hardened tasks rebuilt exactly" % n)


def wilson(k, n):
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, c - h), min(1.0, c + h)


def lines_of(t):
    """Lines over all modules, as genebench counts them (a last line without a newline counts)."""
    n = 0
    for text in [t["source"]] + list(t.get("extra_files", {}).values()):
        n += text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return n


def scored(t):
    g = t.get("genebench", {})
    side = g.get("after") or g.get("before")
    return side["rc"], side["metrics"]["num_tokens"], len(g.get("lineage", []))


def sign_test(k, n):
    if n == 0:
        return 1.0
    m = min(k, n - k)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(m + 1)) / 2 ** n)


def pairs(vary, match, tol, y):
    """Each failure matched with the nearest unused success, as documented for gb_matched_pairs."""
    order = sorted(range(len(y)), key=lambda i: (match[0][i], i))
    used = [False] * len(y)
    cases = n = hi_failed = 0

    def close(i, j):
        return vary[i] != vary[j] and all(abs(m[i] - m[j]) <= t for m, t in zip(match, tol))

    for a, i in enumerate(order):
        if not y[i]:
            continue
        cases += 1
        cands = [(abs(match[0][j] - match[0][i]), b, j) for b, j in enumerate(order)
                 if b != a and not y[j] and not used[j] and close(i, j)]
        if not cands:
            continue
        j = min(cands)[2]
        used[j] = True
        n += 1
        hi_failed += vary[i] > vary[j]
    lo, hi = wilson(hi_failed, n)
    return {"failures": cases, "pairs": n, "higher_failed": hi_failed, "ci95": [lo, hi],
            "p": sign_test(hi_failed, n), "rate": hi_failed / n if n else None}


def check_pairs(got, items, levels, passes, k):
    """The steps from an original that passed, and both size-matched comparisons, recomputed."""
    rc, tok, lines, y = [], [], [], []
    for t, _ in items:
        if not passes(t, 0):
            continue
        last = scored(levels[0][t])[2]
        for v in range(1, k + 1):
            r, n_tok, rung = scored(levels[v][t])
            if rung == last:
                continue
            last = rung
            rc.append(r)
            tok.append(math.log(n_tok))
            lines.append(lines_of(levels[v][t]))
            y.append(0 if passes(t, v) else 1)
    cs = got["complexity_vs_size"]
    assert cs["n"] == len(y), (cs["n"], len(y))
    want = {"rc_at_equal_size": pairs(rc, [lines, tok], [0, math.log1p(cs["size_tolerance"])], y),
            "lines_at_equal_rc": pairs(lines, [rc], [cs["rc_tolerance"]], y)}
    for key, w in want.items():
        g = cs[key]
        for f in ("failures", "pairs", "higher_failed"):
            assert g[f] == w[f], (key, f, g[f], w[f])
        assert abs(g["ci95"][0] - w["ci95"][0]) < 1e-6 and abs(g["ci95"][1] - w["ci95"][1]) < 1e-6, (key, g, w)
        assert abs(g["p"] - w["p"]) < 1e-6, (key, g["p"], w["p"])
        assert (g["rate"] is None) == (w["rate"] is None), (key, g, w)
        assert w["rate"] is None or abs(g["rate"] - w["rate"]) < 1e-6, (key, g, w)
    shows = {key: w["pairs"] > 0 and w["ci95"][0] > 0.5 for key, w in want.items()}
    both = 0 < sum(y) < len(y)
    points = ("undetermined" if not both else "both" if all(shows.values())
              else "size" if shows["lines_at_equal_rc"] else "complexity" if shows["rc_at_equal_size"]
              else "neither" if any(w["pairs"] for w in want.values()) else "undetermined")
    assert cs["points_at"] == points, (cs["points_at"], points)
    print("pairs:", {key: (w["failures"], w["pairs"], w["higher_failed"]) for key, w in want.items()})


def check_breaks(ldir, rdir, k, rule, arg):
    st = {"breaks_on": arg if rule == "construct" else None, "max_lines": int(arg) if rule == "lines" else 0}
    levels = []
    for v in range(k + 1):
        levels.append({json.loads(l)["id"]: json.loads(l) for l in open(os.path.join(ldir, "level_%d.jsonl" % v))})
    got = json.load(open(os.path.join(rdir, "breaks.json")))
    items = [(i["task"], i["item"]) for i in got["items"]]
    assert items, "no items"

    def passes(task, v):
        prompt = "[PYTHON]\n" + levels[v][task]["source"] + "\nassert f(1) == ??\n[/PYTHON]"
        return not model_server.broken(st, prompt)

    def ops(task, v):
        gb = levels[v][task].get("genebench", {})
        return [g["op"] for g in gb.get("lineage", [])]

    for v in range(k + 1):
        n = len(items)
        c = sum(passes(t, v) for t, _ in items)
        lv = got["levels"][v]
        assert lv["items"] == n, (v, lv["items"], n)
        assert abs(lv["pass_at_1"] - c / n) < 1e-6, (v, lv["pass_at_1"], c / n)
        lo, hi = wilson(c, n)
        assert abs(lv["ci95"][0] - lo) < 1e-6 and abs(lv["ci95"][1] - hi) < 1e-6, (v, lv["ci95"], lo, hi)
    applied, broke = {}, {}
    for (t, _), it in zip(items, got["items"]):
        verdicts = "".join("P" if passes(t, v) else "F" for v in range(k + 1))
        assert it["verdicts"] == verdicts, (t, it["verdicts"], verdicts)
        bv = next((v for v in range(1, k + 1) if verdicts[v] == "F" and verdicts[v - 1] == "P"), None)
        assert it["breaking_version"] == bv, (t, it["breaking_version"], bv)
        for v in range(1, k + 1):
            if verdicts[v - 1] != "P":
                continue
            step = ops(t, v)[len(ops(t, v - 1)):]
            for op in dict.fromkeys(o for rung in step for o in rung.split("+")):
                applied[op] = applied.get(op, 0) + 1
                broke[op] = broke.get(op, 0) + (verdicts[v] == "F")
        if bv is not None:
            assert it["operators"] == "+".join(ops(t, bv)[len(ops(t, bv - 1)):]), (t, it["operators"])
    table = {o["op"]: (o["applied"], o["breaking"]) for o in got["operators"]}
    assert table == {op: (applied[op], broke[op]) for op in applied}, (table, applied, broke)
    check_pairs(got, items, levels, passes, k)
    print("levels:", [round(l["pass_at_1"], 4) for l in got["levels"]])
    print("operators:", [(o["op"], o["applied"], o["breaking"], o["rate"]) for o in got["operators"]])
    print("complexity_vs_size:", got["complexity_vs_size"]["points_at"], "rank test:", got["rank_test"])
    return got


def main():
    if sys.argv[1] == "lineage":
        check_lineage(sys.argv[2])
        return
    got = check_breaks(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6])
    if sys.argv[5] == "construct":
        first = got["operators"][0]
        assert first["op"] == sys.argv[7] and first["rate"] == 1.0, first
    else:
        # The curve breaks where sizes cross N: an item passes a level exactly when its program there
        # has at most N lines; and the analysis points at size, not RC.
        n_max = int(sys.argv[6])
        got_levels = got["levels"]
        for v in range(int(sys.argv[4]) + 1):
            level = {json.loads(l)["id"]: json.loads(l) for l in open(os.path.join(sys.argv[2], "level_%d.jsonl" % v))}
            small = [lines_of(level[i["task"]]) <= n_max for i in got["items"]]
            assert abs(got_levels[v]["pass_at_1"] - sum(small) / len(small)) < 1e-6, (v, got_levels[v])
        cs = got["complexity_vs_size"]
        assert cs["points_at"] == "size", cs
        assert cs["rc_at_equal_size"]["pairs"] == 0, cs["rc_at_equal_size"]


if __name__ == "__main__":
    main()
