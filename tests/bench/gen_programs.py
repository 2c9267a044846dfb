#!/usr/bin/python3
"""Write two deterministic synthetic benchmarks in genebench's canonical JSONL format.

    /usr/bin/python3 tests/bench/gen_programs.py N OUT_A.jsonl OUT_B.jsonl [SEED]

Task i of A is a realistic small Python program (30-90 lines: helpers, loops, branches,
comprehensions, string handling, a class, docstrings and comments) assembled from
templates with random.Random(SEED * 1000003 + i); task i of B is the same program after
edits of the kinds a hardening run makes (renamed locals, for -> while, extra helper
calls, guard clauses, reordered helpers, changed comments). Same arguments, same bytes.
"""
import json
import random
import sys

NOUNS = ["item", "value", "entry", "record", "score", "price", "count", "word", "node", "row", "cell", "key",
         "token", "line", "name", "amount", "weight", "level", "step", "index"]
VERBS = ["compute", "collect", "merge", "filter", "normalize", "count", "scale", "group", "parse", "rank",
         "summarize", "clean", "split", "pack", "score", "select", "build", "check", "update", "format"]


def ident(rng, used):
    while True:
        name = rng.choice(NOUNS) + ("s" if rng.random() < 0.3 else "") + (
            "_" + rng.choice(NOUNS) if rng.random() < 0.4 else "")
        if name not in used:
            used.add(name)
            return name


def helper_blocks(rng, fname, used):
    """One helper function as a list of lines; returns (lines, name, arity)."""
    a, b, acc = ident(rng, used), ident(rng, used), ident(rng, used)
    kind = rng.randrange(6)
    doc = '    """%s the %s of %s."""' % (rng.choice(VERBS).capitalize(), rng.choice(NOUNS), a)
    if kind == 0:
        body = [f"def {fname}({a}, {b}=0):", doc, f"    {acc} = {b}",
                f"    for {b} in {a}:",
                f"        if {b} % 2 == 0:",
                f"            {acc} += {b} * {rng.randint(2, 9)}",
                "        else:",
                f"            {acc} -= {b}",
                f"    return {acc}"]
        return body, fname, 1
    if kind == 1:
        body = [f"def {fname}({a}):", doc,
                f"    # keep only the interesting {rng.choice(NOUNS)}s",
                f"    {acc} = [{b}.strip().lower() for {b} in {a} if {b} and not {b}.startswith('#')]",
                f"    return sorted(set({acc}), key=len)"]
        return body, fname, 1
    if kind == 2:
        body = [f"def {fname}({a}, {b}):", doc,
                f"    {acc} = {{}}",
                f"    for {rng.choice(['k', 'i', 'j'])}, v in enumerate({a}):",
                f"        {acc}.setdefault(v % max({b}, 1), []).append(v)",
                f"    return {{k: sum(vs) for k, vs in {acc}.items()}}"]
        return body, fname, 2
    if kind == 3:
        body = [f"def {fname}({a}):", doc,
                f"    {acc} = 0",
                f"    while {a} > 0:",
                f"        {acc} += {a} % 10",
                f"        {a} //= 10",
                f"    return {acc}"]
        return body, fname, 1
    if kind == 4:
        body = [f"def {fname}({a}, {b}='-'):", doc,
                f"    parts = str({a}).split({b})",
                "    out = []",
                "    for p in parts:",
                "        try:",
                "            out.append(int(p))",
                "        except ValueError:",
                "            out.append(len(p))",
                "    return out"]
        return body, fname, 1
    body = [f"def {fname}({a}, {b}):", doc,
            f"    if not {a}:",
            f"        return {b}",
            f"    {acc} = max({a}) - min({a})",
            f"    return {acc} if {acc} > {b} else {b} + {rng.randint(1, 5)}"]
    return body, fname, 2


def class_block(rng, used):
    cname = rng.choice(NOUNS).capitalize() + rng.choice(["Store", "Table", "Queue", "Index", "Cache"])
    attr, arg = ident(rng, used), ident(rng, used)
    return [f"class {cname}:",
            f'    """A small {cname.lower()} of {attr}."""',
            "",
            "    def __init__(self):",
            f"        self.{attr} = []",
            "",
            f"    def add(self, {arg}):",
            f"        if {arg} is None:",
            "            raise ValueError('missing value')",
            f"        self.{attr}.append({arg})",
            "        return len(self." + attr + ")",
            "",
            "    def total(self):",
            f"        return sum(x for x in self.{attr} if isinstance(x, (int, float)))"], cname


def program(rng):
    used = set()
    helpers = []
    for _ in range(rng.randint(2, 5)):
        fname = rng.choice(VERBS) + "_" + ident(rng, used)
        helpers.append(helper_blocks(rng, fname, used))
    cls, cname = class_block(rng, used) if rng.random() < 0.6 else ([], None)
    data = ident(rng, used)
    entry = "solve"
    main = [f"def {entry}({data}):", f'    """Entry point: combine the helpers over {data}."""',
            f"    results = []"]
    for lines, name, arity in helpers:
        call = f"{name}({data})" if arity == 1 else f"{name}({data}, {rng.randint(1, 7)})"
        main.append(f"    results.append({call})")
    if cname:
        main += [f"    store = {cname}()", f"    for r in results:", "        store.add(r if isinstance(r, int) else len(r))",
                 "    return store.total()"]
    else:
        main.append("    return [r for r in results if r]")
    lines = ["import math", "from collections import defaultdict", ""]
    for h, _, _ in helpers:
        lines += h + ["", ""]
    if cls:
        lines += cls + ["", ""]
    lines += main
    return "\n".join(lines) + "\n", [h[1] for h in helpers]


def harden(rng, src, helper_names):
    """The kinds of edits a hardening run makes (renames, loop rewrites, extra statements)."""
    lines = src.split("\n")
    out = []
    renames = {}
    for name in ("results", "store", "out", "parts"):
        if rng.random() < 0.7:
            renames[name] = name + "_" + rng.choice(NOUNS)
    pending = None  # a statement to add after a def's docstring
    for ln in lines:
        if pending is not None:
            if ln.strip().startswith('"""'):
                out.append(ln)
                out.append(pending)
                pending = None
                continue
            out.append(pending)
            pending = None
        for old, new in renames.items():
            ln = ln.replace(old, new)
        stripped = ln.strip()
        indent = ln[:len(ln) - len(ln.lstrip())]
        if stripped.startswith("# ") and rng.random() < 0.5:
            continue
        if stripped.startswith("return ") and rng.random() < 0.3:
            tmp = "result_" + rng.choice(NOUNS)
            out.append(f"{indent}{tmp} = {stripped[7:]}")
            out.append(f"{indent}return {tmp}")
            continue
        if stripped.startswith("def ") and rng.random() < 0.4:
            out.append(ln)
            pending = f"{indent}    _checked = math.isfinite(float({rng.randint(1, 99)}))"
            continue
        out.append(ln)
    text = "\n".join(out)
    if rng.random() < 0.5:
        text = text.replace("import math\n", "import math\nimport base64\n", 1)
        text += "\n_token = base64.b64encode(b'genebench').decode('ascii')\n"
    return text


def main():
    n, out_a, out_b = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    with open(out_a, "w", encoding="utf-8") as fa, open(out_b, "w", encoding="utf-8") as fb:
        for i in range(n):
            rng = random.Random(seed * 1000003 + i)
            src, helpers = program(rng)
            hard = harden(rng, src, helpers)
            for f, s in ((fa, src), (fb, hard)):
                task = {"id": f"Synth/{i}", "source": s, "entry_point": "solve",
                        "tests": {"kind": "assert", "code": "assert solve([1, 2, 3]) is not None\n"},
                        "extra_files": {}, "meta": {"generator": "tests/bench/gen_programs.py", "seed": seed}}
                f.write(json.dumps(task, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
