#!/usr/bin/python3
"""Property suite of the operators: small programs that use names dynamically, every site of
every operator transformed, every variant run and compared with its original.

    GENEBENCH=build/genebench GB_SOURCE_ROOT=. /usr/bin/python3 tests/e2e/op_properties.py [--keep DIR]

The programs pass keyword names as strings (thread and executor kwargs, dictionaries forwarded
to a call, `**{...}`, functools.partial), look names up with getattr/setattr/globals()/
locals()/vars(), run exec/eval text, read __dict__, decorate with decorators that inspect, and
rebind names after their definition, and (a stdin/stdout script) call closures over names its
module-level code rebinds. Each one's module-level code calls its functions on inputs
derived from the tests' (more and other values than the tests use) and prints the results, so a
behaviour change shows in the output even where the tests do not reach.

Some programs are also tasks of a single-file harness (SINGLE_FILE), where S7 takes its
helper-class form. For every operator of operators/operator_list.h, `genebench transform --all-sites --no-tests`
applies it at every site of every program; tests/e2e/op_robustness.py then runs every original
twice and every variant once and compares. The suite fails when an operator fails to apply at a
site it listed (an operator bug), when a variant fails its tests, or when a variant's output
(stdout and stderr of program plus tests) differs from its original's.
Prints the size (programs, sites, variants) and the table of tests/e2e/op_robustness.py.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (id, source, tests): assert test code, or a stdio tests object (a script whose module-level code
# S6 may move into a function or a class). The tests are deliberately thin: the printed output
# carries the rest.
PROGRAMS = [
    ("prop/thread_kwargs", """import threading


def helper(a, b=1):
    return a * 10 + b


def run_thread(a, b):
    out = []

    def target(x, y):
        out.append(helper(x, b=y))

    t = threading.Thread(target=target, args=(a,), kwargs={'y': b})
    t.start()
    t.join()
    return out[0]


def direct(a):
    box = []
    t = threading.Thread(target=lambda: box.append(helper(a)), kwargs={})
    t.start()
    t.join()
    worker = threading.Thread(target=helper, args=(a,), kwargs={'b': 5})
    worker.start()
    worker.join()
    return box[0]


def entry(n):
    total = 0
    for i in range(n):
        total += run_thread(i, i + 1)
    return total + direct(n)


for k in range(5):
    print(k, entry(k), run_thread(k, -k))
""", "assert entry(0) == 1\n"),
    ("prop/executor_partial", """from concurrent.futures import ThreadPoolExecutor
from functools import partial


def scale(value, factor=2):
    return value * factor


def shift(value, offset):
    return value + offset


def apply_all(values, factor):
    fn = partial(scale, factor=factor)
    with ThreadPoolExecutor(max_workers=2) as ex:
        futures = [ex.submit(scale, v, factor=factor) for v in values]
        direct = [f.result() for f in futures]
        shifted = list(ex.map(partial(shift, offset=factor), values))
    return direct, list(map(fn, values)), shifted


for n in range(4):
    print(apply_all(list(range(n)), n + 1))
""", "assert apply_all([1], 2)[0] == [2]\n"),
    ("prop/forwarding", """def run(fn, args, kwargs):
    return fn(*args, **kwargs)


def call(fn, **kw):
    return fn(**kw)


def area(width, height=1):
    result = width * height
    return result


def entry(w, h):
    first = run(area, (w,), {'height': h})
    second = area(**{'width': w, 'height': h + 1})
    options = {}
    options['height'] = h * 2
    third = call(area, width=w, **options)
    spec = dict(width=w, height=3)
    return first + second + third + call(area, **spec)


for w in range(3):
    for h in range(3):
        print(w, h, entry(w, h))
""", "assert entry(1, 1) == 1 + 2 + 2 + 3\n"),
    ("prop/attributes", """class Box:
    pass


def fill(names):
    box = Box()
    for i, name in enumerate(names):
        setattr(box, name, i * i)
    found = [getattr(box, name) for name in names if hasattr(box, name)]
    return found, sorted(vars(box).items()), sorted(box.__dict__)


def triple(x):
    return x * 3


def lookup(name, value):
    return globals()[name](value)


def local_view(a, b):
    c = a + b
    return sorted(locals().items())


for k in range(3):
    print(fill(['x', 'y', 'z'][:k + 1]), lookup('triple', k), local_view(k, k + 1))
""", "assert lookup('triple', 2) == 6\n"),
    ("prop/exec_eval", """def compute(x):
    y = x + 1
    return eval('y * 2')


def build(n):
    ns = {}
    exec('def f(v):\\n    return v + %d' % n, ns)
    return ns['f'](n)


def evaluate(expr, **names):
    return eval(expr, {}, names)


for k in range(4):
    print(compute(k), build(k), evaluate('a - b', a=k, b=2))
""", "assert compute(1) == 4\n"),
    ("prop/inspecting_decorator", """import functools
import inspect

REGISTRY = {}


def register(fn):
    REGISTRY[fn.__name__] = list(inspect.signature(fn).parameters)
    return fn


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return (fn.__name__, fn(*args, **kwargs))

    return wrapper


@register
def combine(left, right, *, sep='-'):
    return f'{left}{sep}{right}'


@logged
def total(values):
    acc = 0
    for v in values:
        acc += v
    return acc


def describe(k):
    return sorted(REGISTRY.items()), combine(k, k + 1, sep='+'), total(range(k))


for k in range(3):
    print(describe(k))
""", "assert describe(1)[1] == '1+2'\n"),
    ("prop/rebinding", """def helper(x):
    return x + 1


def entry(x):
    return helper(x) * 2


def swap():
    globals()['helper'] = lambda x: x - 1


first = [entry(k) for k in range(3)]
swap()
print(first, [entry(k) for k in range(3)])
""", "assert entry(3) == 4\n"),
    ("prop/global_rebinding", """def helper(x):
    return x + 1


def entry(x):
    return helper(x) * 2


def replace(scale):
    global helper

    def helper(x):
        return x * scale


before = [entry(k) for k in range(3)]
replace(5)
print(before, [entry(k) for k in range(3)])
""", "assert entry(1) == 10\n"),
    ("prop/annotated_loop", """def last_square(n):
    last = None
    for i in range(n):
        last: object
        last = i * i
    return last


def squares(n):
    out = []
    for i in range(n):
        value: int = i * i
        out.append(value)
    return out


for n in range(5):
    print(n, last_square(n), squares(n))
""", "assert last_square(3) == 4\n"),
    ("prop/closures_and_names", """def counter(start):
    count = start

    def bump(step=1):
        nonlocal count
        count += step
        return count

    return bump


def names_of(*functions):
    return [f.__name__ for f in functions]


def tally(words):
    seen = {}
    for w in words:
        seen[w] = seen.get(w, 0) + 1
    return sorted(seen.items())


bump = counter(3)
print(bump(), bump(step=2), names_of(counter, tally), tally('abcab'), tally(['x', 'y', 'x']))
""", "assert tally('aa') == [('a', 2)]\n"),
    ("prop/callbacks", """def apply(fn, values, **options):
    return [fn(v, **options) for v in values]


def power(base, exponent=2):
    return base ** exponent


def clamp(value, low=0, high=10):
    return max(low, min(high, value))


def pipeline(values, options):
    raised = apply(power, values, **options)
    return apply(clamp, raised, high=options.get('exponent', 2) * 10)


for e in range(1, 4):
    print(pipeline([1, 2, 3, 4], {'exponent': e}))
""", "assert pipeline([2], {'exponent': 1}) == [2]\n"),
    ("prop/numeric", """import math


def mean(values):
    total = 0
    for v in values:
        total += v
    return total / len(values) if values else 0.0


def spread(values, ddof=0):
    m = mean(values)
    acc = 0.0
    for i in range(len(values)):
        acc += (values[i] - m) ** 2
    n = len(values) - ddof
    return math.sqrt(acc / n) if n > 0 else 0.0


def stats(values, **options):
    return round(mean(values), 6), round(spread(values, **options), 6)


for n in range(1, 5):
    data = [k * k for k in range(n)]
    print(stats(data), stats(data, **{'ddof': 1}))
""", "assert stats([1, 1]) == (1.0, 0.0)\n"),
    ("prop/stdio_script", """import sys

SCALE = 3


def scaled(v):
    return v * SCALE


def report(label, values):
    print(label, ' '.join(map(str, values)))


data = sys.stdin.read().split()
n = int(data[0])
values = [int(x) for x in data[1:1 + n]]
total = 0
for v in values:
    total += scaled(v)
keyed = sorted(values, key=lambda v: (v % SCALE, -v))
later = [lambda i=i: values[i] * 2 for i in range(n)]
show = lambda: print('now', total, len(keyed))
total += 100
show()
report('keyed', keyed)
report('later', [f() for f in later])
if __name__ == "__main__":
    print('main', total)
print('gen', sum(v * v for v in values if v > SCALE))
""", {"kind": "stdio", "cases": [
        {"stdin": "4\n5 1 9 3\n", "stdout": "now 154 4\nkeyed 9 3 1 5\nlater 10 2 18 6\nmain 154\ngen 106\n"},
        {"stdin": "6\n2 7 7 0 12 4\n",
         "stdout": "now 196 6\nkeyed 12 0 7 7 4 2\nlater 4 14 14 0 24 8\nmain 196\ngen 258\n"}]}),
]


# Programs also given as tasks of a single-file harness (meta.format "cruxeval": one string, no
# helper module), where S7 moves a function into a helper class instead of a helper module.
SINGLE_FILE = {"prop/thread_kwargs", "prop/rebinding", "prop/global_rebinding", "prop/numeric"}


def operator_codes(root):
    with open(os.path.join(root, "operators", "operator_list.h"), encoding="utf-8") as f:
        return re.findall(r"^\s*GB_OPERATOR\(([SAN]\d+),", f.read(), re.M)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", help="write the originals, variants and reports into this directory")
    ap.add_argument("--ops", help="only these operator codes (comma-separated), e.g. to try an older binary")
    args = ap.parse_args()
    gb = os.environ.get("GENEBENCH", "build/genebench")
    root = os.environ.get("GB_SOURCE_ROOT", ".")
    work = args.keep or tempfile.mkdtemp(prefix="gb_op_properties_")
    os.makedirs(work, exist_ok=True)
    try:
        originals = os.path.join(work, "originals.jsonl")
        with open(originals, "w", encoding="utf-8") as f:
            for tid, src, tests in PROGRAMS:
                task = {"id": tid, "source": src, "entry_point": None, "tests": tests if isinstance(tests, dict) else {"kind": "assert", "code": tests},
                        "extra_files": {}, "meta": {}}
                f.write(json.dumps(task) + "\n")
                if tid in SINGLE_FILE:
                    task.update(id=tid + "/single_file", meta={"format": "cruxeval"})
                    f.write(json.dumps(task) + "\n")
        variants_path = os.path.join(work, "variants.jsonl")
        total_sites = total_variants = 0
        problems = []
        per_op = []
        with open(variants_path, "w", encoding="utf-8") as vf:
            codes = operator_codes(root)
            if args.ops:
                codes = [c for c in codes if c in args.ops.split(",")]
            for code in codes:
                out = os.path.join(work, "variants_%s.jsonl" % code)
                proc = subprocess.run([gb, "transform", originals, "--op", code, "--all-sites", "--no-tests",
                                       "--no-diff", "-o", out], capture_output=True, text=True)
                if proc.returncode != 0:
                    problems.append("%s: genebench transform exited %d: %s" % (code, proc.returncode,
                                                                                 proc.stderr[-500:]))
                    continue
                m = re.search(r"(\d+) sites(?:; applied (\d+), rejected (\d+))?", proc.stdout)
                sites = int(m.group(1)) if m else 0
                rejected = int(m.group(3) or 0) if m else 0
                for line in proc.stdout.splitlines():
                    if "REJECTED" in line:
                        problems.append("%s: %s" % (code, line))
                if rejected and not any(p.startswith(code + ":") for p in problems):
                    problems.append("%s: %d sites rejected at apply" % (code, rejected))
                n = 0
                with open(out, encoding="utf-8") as f:
                    for line in f:
                        if not line.strip():
                            continue
                        v = json.loads(line)
                        tid, k = v["id"].rsplit("#", 1)
                        v["id"] = "%s#%s#%s" % (tid, code, k)
                        vf.write(json.dumps(v) + "\n")
                        n += 1
                per_op.append((code, sites, n))
                total_sites += sites
                total_variants += n
        print("op_properties: %d programs (%d tasks), %d operators, %d sites, %d variants" %
              (len(PROGRAMS), len(PROGRAMS) + len(SINGLE_FILE), len(per_op), total_sites, total_variants))
        print("  " + ", ".join("%s %d/%d" % (c, v, s) for c, s, v in per_op) + "  (variants/sites)")
        robust = subprocess.run([sys.executable, os.path.join(root, "tests", "e2e", "op_robustness.py"), originals,
                                 variants_path, "--json", os.path.join(work, "robustness.json")],
                                capture_output=True, text=True)
        sys.stdout.write(robust.stdout)
        sys.stderr.write(robust.stderr[-2000:])
        if robust.returncode != 0:
            problems.append("tests/e2e/op_robustness.py: variants failing or with changed output (above)")
        for p in problems:
            print("FAIL", p)
        print("op_properties: %s" % ("FAIL" if problems else "ok"))
        return 1 if problems else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
