#!/usr/bin/python3
"""Independent checks of `genebench levels` and `genebench breaks` (tests/e2e/e2e_levels.sh).

    levels_check.py lineage EV.jsonl
        every hardened task's lineage rebuilds, rung by rung from "original", to its program
    levels_check.py breaks LEVELDIR RESULTS_DIR K RULE ARG
        breaks.json against what a simulated model with RULE ("construct" ARG: wrong when the program
        contains ARG; "lines" ARG: wrong when it has more than ARG lines) implies, recomputed here from
        the level files and the model server's own rule
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
        assert len(rungs) == len(gb["operators"]), t["id"]
        last = rungs[-1]
        assert last["main.py"] == t["source"], t["id"]
        for k, v in t.get("extra_files", {}).items():
            assert last[k] == v, (t["id"], k)
        assert [g["op"] for g in gb["lineage"]] == [o["op"] for o in gb["operators"]], t["id"]
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
            for op in dict.fromkeys(step):
                applied[op] = applied.get(op, 0) + 1
                broke[op] = broke.get(op, 0) + (verdicts[v] == "F")
        if bv is not None:
            assert it["operators"] == "+".join(ops(t, bv)[len(ops(t, bv - 1)):]), (t, it["operators"])
    table = {o["op"]: (o["applied"], o["breaking"]) for o in got["operators"]}
    assert table == {op: (applied[op], broke[op]) for op in applied}, (table, applied, broke)
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
        assert first["op"] == "S4" and first["rate"] == 1.0, first
    else:
        assert got["complexity_vs_size"]["points_at"] in ("size", "complexity", "neither"), got["complexity_vs_size"]


if __name__ == "__main__":
    main()
