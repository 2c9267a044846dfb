#!/usr/bin/env bash
# Robustness run 2 (operators): take N functions (default 2000) from the Python packages
# installed under /usr/lib/python3/dist-packages, make each one a task, apply every operator
# in OPS at every one of its sites (one at a time, `genebench transform --all-sites`), and check
# that every transformed module still parses: with tree-sitter (genebench rejects a result with
# ERROR/MISSING nodes, and `genebench validate` re-parses every variant) and with
# `/usr/bin/python3 -m py_compile`. Prints per operator: sites, applied, rejected, compile
# failures. Exit status 0 when nothing was rejected and everything compiles.
#
# usage: tests/bench/robustness_parse.sh [N]      (env: GENEBENCH, OPS, KEEP=1 keeps the work dir)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gb=${GENEBENCH:-$root/build/genebench}
n=${1:-2000}
ops=${OPS:-"S1 S2 S3 S5 S10 S12"}
py=/usr/bin/python3
work=$(mktemp -d /tmp/gb_robust_parse.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

# 1. N functions, spread over the installed packages (every k-th file in sorted order, at most
#    two functions per file, test directories skipped), each compiling on its own.
"$py" - "$work/funcs.jsonl" "$n" <<'PY'
import ast, json, os, sys, textwrap
root, out, limit = '/usr/lib/python3/dist-packages', sys.argv[1], int(sys.argv[2])
files = []
for d, ds, fs in os.walk(root):
    ds.sort()
    if any(p in ('test', 'tests', 'testing') for p in d.split(os.sep)):
        continue
    files += [os.path.join(d, f) for f in sorted(fs) if f.endswith('.py')]
step = max(1, len(files) // (limit // 2 + 1))
order = files[::step] + [f for i, f in enumerate(files) if i % step]
seen, tasks = set(), []
for path in order:
    if len(tasks) >= limit:
        break
    try:
        src = open(path, encoding='utf-8').read()
        tree = ast.parse(src)
    except (SyntaxError, UnicodeDecodeError, ValueError):
        continue
    lines = src.splitlines(keepends=True)
    taken = 0
    for node in ast.walk(tree):
        if taken == 2 or len(tasks) >= limit:
            break
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        text = textwrap.dedent(''.join(lines[start:node.end_lineno]))
        if len(text) > 6000 or text in seen:
            continue
        try:
            compile(text, 'f', 'exec', dont_inherit=True)
        except SyntaxError:
            continue
        seen.add(text)
        taken += 1
        tasks.append({'id': 'dist/%04d' % len(tasks), 'source': text, 'entry_point': None,
                      'tests': {'kind': 'assert', 'code': 'pass\n'}, 'extra_files': {},
                      'meta': {'origin': '%s:%d' % (path, node.lineno)}})
with open(out, 'w', encoding='utf-8') as fh:
    for t in tasks:
        fh.write(json.dumps(t) + '\n')
print('%d functions from %d files under %s' % (len(tasks), len({t['meta']['origin'].rsplit(':', 1)[0] for t in tasks}), root))
PY

status=0
printf '%-5s %8s %8s %9s %9s %13s\n' op sites applied rejected parse_bad compile_bad
for op in $ops; do
  summary=$("$gb" transform "$work/funcs.jsonl" --op "$op" --all-sites --no-tests --no-diff -o "$work/$op.jsonl" | tail -1) || true
  sites=$(sed -n 's/.* \([0-9]*\) sites.*/\1/p' <<<"$summary")
  applied=$(sed -n 's/.*applied \([0-9]*\).*/\1/p' <<<"$summary")
  rejected=$(sed -n 's/.*rejected \([0-9]*\).*/\1/p' <<<"$summary")
  # tree-sitter, independently: genebench validate re-parses every variant.
  parse_bad=0
  if [ -s "$work/$op.jsonl" ]; then
    vout=$("$gb" validate "$work/$op.jsonl" 2>&1 | tail -1) || true
    parse_bad=$(sed -n 's/.*, \([0-9]*\) problems.*/\1/p' <<<"$vout")
  fi
  # py_compile: every variant as a file, compiled in batches; a failing batch is rechecked file by file.
  compile_bad=$("$py" - "$work/$op.jsonl" "$work/$op.d" <<'PY'
import json, os, subprocess, sys
src, d = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)
paths = []
if os.path.exists(src):
    for i, line in enumerate(open(src, encoding='utf-8')):
        t = json.loads(line)
        p = os.path.join(d, 'v%06d.py' % i)
        open(p, 'w', encoding='utf-8').write(t['source'])
        paths.append((p, t['id']))
bad = 0
for k in range(0, len(paths), 400):
    batch = paths[k:k + 400]
    r = subprocess.run(['/usr/bin/python3', '-m', 'py_compile'] + [p for p, _ in batch], capture_output=True)
    if r.returncode != 0:
        for p, tid in batch:
            if subprocess.run(['/usr/bin/python3', '-m', 'py_compile', p], capture_output=True).returncode:
                bad += 1
                print('py_compile failed: %s' % tid, file=sys.stderr)
print(bad)
PY
)
  printf '%-5s %8s %8s %9s %9s %13s\n' "$op" "${sites:-?}" "${applied:-?}" "${rejected:-?}" "${parse_bad:-?}" "$compile_bad"
  if [ "${rejected:-1}" != 0 ] || [ "${parse_bad:-1}" != 0 ] || [ "$compile_bad" != 0 ]; then status=1; fi
done
exit $status
