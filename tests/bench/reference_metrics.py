#!/usr/bin/python3
"""Independent implementation of the metric definitions C2..C7 and R1..R14 on Python's ast
(genebench-reference-behaviour.md section 1), used by tests/bench/metrics_compare.sh to check
genebench's tree-sitter implementation file by file. Written for this project from the
specification; it applies the same documented deviations as genebench:
  - async def/for/with count like their plain forms;
  - C5/C6: an imported name from a relative import or from the file's own package is C6,
    any other import is C5 (never "what is installed");
  - C6 also counts inter-class calls: K.m(...) (any attribute chain) whose root Name K is not
    imported, is a class defined in the file and the call is not inside the body of a class K;
  - tokens: NLTK 3.8's NLTKWordTokenizer on Punkt sentences, with genebench's built-in
    abbreviation list and no other trained Punkt data (see fitness/tokenize.h).
Needs Debian's python3-nltk (for the tokenizer only).

usage: reference_metrics.py LIST_FILE   (lines: "<path>\t<rel>\t<own package>")
           prints one JSON object per file: {"path": rel, "ok": bool, "metrics": {...}}
       reference_metrics.py compare GENEBENCH_PER_FILE.jsonl REFERENCE.jsonl
           prints the per-metric agreement of the two
       reference_metrics.py tokens [--lines] FILE...
           prints word_tokenize's tokens of each file, one per line, each file followed by a
           line holding \x01 (with --lines: the token count of every physical line instead);
           the format of genebench's build/tests/gb_tokdump"""
import ast
import json
import math
import sys
from collections import Counter

from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

ABBREVS = """a.m al apr approx aug ca cf ch co corp dec dept dr e.g ed eds eq eqs est etc feb fig figs i.e
inc jan jr jul jun ltd mar mr mrs ms no nos nov oct p.m ph.d pp prof sec sep sept sr st u.k u.s viz vol
vols vs""".split()

_params = PunktParameters()
_params.abbrev_types = set(ABBREVS)
_punkt = PunktSentenceTokenizer(_params)
_treebank = NLTKWordTokenizer()


def word_tokenize(text):
    return [t for s in _punkt.tokenize(text) for t in _treebank.tokenize(s)]


FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
FORS = (ast.For, ast.AsyncFor)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
OPS = (ast.BoolOp, ast.Compare, ast.BinOp, ast.UnaryOp)


def parents(tree):
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._gb_parent = node


def is_elif(node):
    p = getattr(node, "_gb_parent", None)
    return isinstance(node, ast.If) and isinstance(p, ast.If) and bool(p.orelse) and p.orelse[0] is node


def has_op(expr):
    return any(isinstance(n, OPS) for n in ast.walk(expr))


def c2(tree):
    count = 0
    for n in ast.walk(tree):
        if isinstance(n, (ast.If, ast.While)):
            count += has_op(n.test)
        elif isinstance(n, COMPS):
            for g in n.generators:
                count += sum(has_op(i) for i in g.ifs)
        elif isinstance(n, ast.Lambda):
            if isinstance(n.body, (ast.Compare, ast.BoolOp)):
                count += has_op(n.body)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("any", "all", "range"):
            count += sum(has_op(a) for a in n.args)
    return count


def c3(tree):
    total = 0

    def rec(node, depth):
        nonlocal total
        counted = isinstance(node, LOOPS) or (isinstance(node, ast.If) and not is_elif(node))
        if counted:
            depth += 1
            total += depth - 1
        for ch in ast.iter_child_nodes(node):
            rec(ch, depth)

    rec(tree, 0)
    return total


class C4(ast.NodeVisitor):
    def __init__(self):
        self.current = None
        self.heavy = 0
        self.light = 0
        self.recursive = set()

    def visit_ClassDef(self, node):
        self.heavy += len(node.decorator_list)
        for f in ("bases", "keywords", "body", "decorator_list"):
            for x in getattr(node, f):
                self.visit(x)

    def visit_FunctionDef(self, node):
        self.current = node.name
        self.heavy += len(node.decorator_list)
        self.visit(node.args)
        for x in node.body:
            self.visit(x)
        for x in node.decorator_list:
            self.visit(x)
        if node.returns:
            self.visit(node.returns)
        self.current = None

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "Thread":
            self.heavy += 1
        elif isinstance(node.func, ast.Name) and node.func.id == self.current:
            self.recursive.add(self.current)
        self.generic_visit(node)

    def visit_Lambda(self, node):
        self.heavy += 1
        self.generic_visit(node)

    def generic_visit(self, node):
        if isinstance(node, COMPS) or isinstance(node, ast.List):
            self.light += 1
        super().generic_visit(node)


def c4(tree):
    v = C4()
    v.visit(tree)
    return 2 * (v.heavy + len(v.recursive)) + v.light


def calls(tree, own):
    imports, mapping, relative = [], {}, set()
    # the reference's import collector visits in tree order (first import of a name wins)
    for n in _preorder(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                if a.name not in imports:
                    imports.append(a.name)
                if a.asname and a.asname not in imports:
                    imports.append(a.asname)
                    mapping[a.asname] = a.name
        elif isinstance(n, ast.ImportFrom):
            mod = (n.module or "").split(".")[0]
            for a in n.names:
                for name in (a.name, a.asname):
                    if name and name not in imports:
                        imports.append(name)
                        mapping[name] = mod
                        if n.level:
                            relative.add(name)
    custom = {n.name for n in ast.walk(tree) if isinstance(n, FUNCS)}
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    imports = set(imports)

    def in_class(node, name):
        p = getattr(node, "_gb_parent", None)
        while p is not None:
            if isinstance(p, ast.ClassDef) and p.name == name:
                return True
            p = getattr(p, "_gb_parent", None)
        return False
    c5 = c6 = c7 = 0

    def owned(mod):
        return any(mod == o or mod.startswith(o + ".") or o.startswith(mod + ".") for o in own)

    def classify(name):
        nonlocal c5, c6
        mod = mapping.get(name, name)
        if name in relative or owned(mod):
            c6 += 1
        else:
            c5 += 1

    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        if isinstance(f, ast.Attribute):
            r = f.value
            while isinstance(r, ast.Attribute):
                r = r.value
            if not isinstance(r, ast.Name):
                continue
            root = f.attr if r.id == "self" else r.id
            if root in imports:
                classify(root)
            elif r.id != "self" and root in classes and not in_class(n, root):
                c6 += 1
            elif root in custom:
                c7 += 1
        elif isinstance(f, ast.Name):
            if f.id == "enumerate":
                continue
            if f.id in imports:
                classify(f.id)
            elif f.id in custom:
                c7 += 1
    return c5, c6, c7


def _preorder(node):
    yield node
    for ch in ast.iter_child_nodes(node):
        yield from _preorder(ch)


def cond(t):
    if isinstance(t, ast.BoolOp):
        return sum(cond(v) for v in t.values)
    if isinstance(t, (ast.Compare, ast.Name, ast.Call, ast.Constant)):
        return 1
    if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not):
        return cond(t.operand)
    return 0


def readability(code, tree):
    r = {}
    toks = word_tokenize(code)
    r["num_tokens"] = len(toks)
    r["lines_of_code"] = len({n.lineno for n in ast.walk(tree) if hasattr(n, "lineno")})
    nodes = list(ast.walk(tree))
    r["num_conditions"] = sum(isinstance(n, (ast.If, ast.IfExp)) for n in nodes) + sum(
        len(n.ifs) for n in nodes if isinstance(n, ast.comprehension))
    r["num_loops"] = sum(isinstance(n, LOOPS) for n in nodes) + sum(
        len(n.generators) for n in nodes if isinstance(n, COMPS))
    r["num_assignments"] = sum(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) for n in nodes)

    def maxdepth(node, kinds, d=0):
        if isinstance(node, kinds):
            d += 1
        return max([d] + [maxdepth(c, kinds, d) for c in ast.iter_child_nodes(node)])

    r["num_max_nested_loop"] = maxdepth(tree, LOOPS)
    r["num_max_nested_if"] = maxdepth(tree, ast.If)
    r["num_max_conditions_in_if"] = max([0] + [cond(n.test) for n in nodes if isinstance(n, ast.If)])
    r["max_line_tokens"] = max(len(word_tokenize(line)) for line in code.split("\n"))
    vars_ = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    r["num_of_variables"] = len(vars_)
    r["num_of_arrays"] = sum(isinstance(n, (ast.List, ast.ListComp)) for n in nodes)
    r["num_of_operators"] = sum(isinstance(n, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.AugAssign)) for n in nodes) + sum(
        len(n.ops) for n in nodes if isinstance(n, ast.Compare))
    casts = {"int", "float", "str", "bool", "complex", "bytes", "list", "tuple", "set", "dict"}
    r["num_of_nested_casting"] = sum(
        1 for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in casts
        and any(isinstance(a, ast.Call) for a in n.args))
    counts = Counter(toks)
    total = len(toks)
    r["entropy"] = round(-sum(c / total * math.log2(c / total) for c in counts.values()), 4) if total else 0
    return r


def measure(path, own):
    with open(path, encoding="utf-8") as f:
        code = f.read()
    tree = ast.parse(code)
    parents(tree)
    c5, c6, c7 = calls(tree, own)
    m = {"C2": c2(tree), "C3": c3(tree), "C4": c4(tree), "C5": c5, "C6": c6, "C7": c7}
    m.update(readability(code, tree))
    return m


def compare(ours_path, ref_path):
    ours = {}
    with open(ours_path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            ours[d["path"]] = d
    agree, total, examples, skipped = {}, {}, {}, []
    with open(ref_path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            o = ours.get(r["path"])
            if not o or not o["ok"] or not r["ok"]:
                skipped.append(r["path"])
                continue
            for k, v in r["metrics"].items():
                total[k] = total.get(k, 0) + 1
                if abs(o["metrics"][k] - v) < 1e-3:
                    agree[k] = agree.get(k, 0) + 1
                else:
                    examples.setdefault(k, []).append("%s (genebench %g, reference %g)" % (r["path"], o["metrics"][k], v))
    n = max(total.values()) if total else 0
    print("files compared: %d (skipped: %d)" % (n, len(skipped)))
    for k in total:
        print("  %-26s %5d / %d identical%s" % (k, agree.get(k, 0), total[k],
                                                  ("; e.g. " + examples[k][0]) if k in examples else ""))


def tokens(args):
    per_line = args and args[0] == "--lines"
    for path in args[1:] if per_line else args:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if per_line:
            for line in text.split("\n"):
                print(len(word_tokenize(line)))
        else:
            for t in word_tokenize(text):
                print(t)
        print("\x01")


def main():
    sys.setrecursionlimit(100000)
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) >= 2 and sys.argv[1] == "tokens":
        tokens(sys.argv[2:])
        return
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            path, rel, own = line.rstrip("\n").split("\t")
            try:
                print(json.dumps({"path": rel, "ok": True, "metrics": measure(path, [own] if own else [])}))
            except (SyntaxError, ValueError, RecursionError, UnicodeDecodeError) as e:
                print(json.dumps({"path": rel, "ok": False, "error": str(e)}))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
