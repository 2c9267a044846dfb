#!/usr/bin/env bash
# How much harder genebench makes each benchmark, against the published tool's programs, and
# how recognisable the text it adds is. Reads the outputs of
#     genebench evolve B.jsonl -o DIR/TAG.B.jsonl --keep-front ...
# for B in the tags given, and for each benchmark prints:
#   - mean RC: original, genebench's pick, the published program (`genebench metrics`), and the
#     pick's ratio to the published RC;
#   - RC at the published program's readability: per task, the most complex program of the
#     final front whose RR is at least the published program's RR (the front is only in the
#     record with --keep-front); its mean ratio to the published RC;
#   - the share of tasks in which each C_i rose (pick against original);
#   - the added text: the docstring/comment sentence and the identifier that the most tasks'
#     picks added (not in the original), with the share of tasks containing it (builtins, names an
#     import binds, attribute names and keyword names at calls are Python's and the libraries'
#     words and do not count).
#   - with ORIG_DIR=D in the environment (D/B.jsonl: the imported originals), the summaries of
#     `genebench check` on the hardened tasks and of `genebench compare` of originals and hardened.
# usage: tests/bench/bench_hardening.sh GENEBENCH DIR TAG PUBLISHED_DIR B:published-name ...
#   e.g. tests/bench/bench_hardening.sh build/genebench /tmp/runs after \
#          /work/shared/benchmarks/published he:humaneval cx:cruxeval ce:classeval av:avatar
set -euo pipefail
gb=$1 dir=$2 tag=$3 pub=$4
shift 4
for pair in "$@"; do
  b=${pair%%:*} name=${pair#*:}
  out="$dir/$tag.$b.jsonl"
  /usr/bin/python3 - "$out" "$pub/$name.published.jsonl" "$dir/$tag.$b.pub.jsonl" <<'PY'
import json, sys
out, pub, dest = sys.argv[1:4]
published = {}
for line in open(pub, encoding="utf-8"):
    d = json.loads(line)
    published[d["id"]] = d
with open(dest, "w", encoding="utf-8") as f:
    for line in open(out, encoding="utf-8"):
        d = json.loads(line)
        p = published.get(d["id"])
        if p is None:
            continue
        d["source"], d["extra_files"] = p["source"], p.get("extra_files") or {}
        f.write(json.dumps(d) + "\n")
PY
  "$gb" metrics "$dir/$tag.$b.pub.jsonl" > "$dir/$tag.$b.pub.metrics" 2>/dev/null || true
  /usr/bin/python3 - "$name" "$out" "$dir/$tag.$b.pub.metrics" <<'PY'
import ast, builtins, collections, io, json, keyword, re, sys, tokenize
name, out, pubm = sys.argv[1:4]
pub = {}
for line in open(pubm, encoding="utf-8"):
    d = json.loads(line)
    if "id" in d:
        pub[d["id"]] = d


def texts(src):
    """Sentences of docstrings and comments, and identifiers, of a program: names the program
    binds or reads; import names, attribute names and keyword names at calls are the libraries'
    words, and a parameter counts where it is defined."""
    sentences, names = set(), set()
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
        tree = ast.parse(src)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return sentences, names
    prev = None
    for t in toks:
        if t.type == tokenize.COMMENT:
            sentences.update(s.strip() for s in re.split(r"(?<=[.!?])\s+", t.string.lstrip("#")) if s.strip())
        elif t.type == tokenize.STRING and prev in (None, tokenize.INDENT, tokenize.NEWLINE, tokenize.NL,
                                                    tokenize.DEDENT) and t.string.lstrip("rRbBuU").startswith(('"""', "'''")):
            body = t.string.lstrip("rRbBuU")[3:-3]
            sentences.update(s.strip() for s in re.split(r"(?<=[.!?])\s+", body) if s.strip())
        if t.type not in (tokenize.COMMENT,):
            prev = t.type
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                imported.update((a.asname or a.name).split("."))
                imported.update(a.name.split("."))
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return sentences, names - imported - set(dir(builtins))


def program(source, extra):
    return source + "\n" + "\n".join(extra[k] for k in sorted(extra or {}))


rows = [json.loads(line) for line in open(out, encoding="utf-8")]
n = len(rows)
rose = collections.Counter()
rc0 = rc1 = 0.0
pub_rc = pick_rc = same_rc = 0.0
n_pub = n_same = 0
sent_count, name_count = collections.Counter(), collections.Counter()
for d in rows:
    g = d.get("genebench") or {}
    before, after = g.get("before") or {}, g.get("after") or g.get("before") or {}
    rc0 += before.get("rc", 0)
    rc1 += after.get("rc", 0)
    for i in range(1, 8):
        k = "C%d" % i
        if after.get("metrics", {}).get(k, 0) > before.get("metrics", {}).get(k, 0):
            rose[k] += 1
    p = pub.get(d["id"])
    if p is not None:
        n_pub += 1
        pub_rc += p["rc"]
        pick_rc += after.get("rc", 0)
        fit = [f["rc"] for f in g.get("front") or [] if f["rr"] >= p["rr"]]
        if fit:
            n_same += 1
        same_rc += max(fit) if fit else before.get("rc", 0)
    orig = d.get("original") or {}
    s0, n0 = texts(program(orig.get("source", ""), orig.get("extra_files")))
    s1, n1 = texts(program(d["source"], d.get("extra_files")))
    sent_count.update(s1 - s0)
    name_count.update(n1 - n0)
print("== %s: %d tasks, %d with a published program" % (name, n, n_pub))
if n:
    print("mean RC: original %.3f, pick %.3f" % (rc0 / n, rc1 / n))
if n_pub:
    print("published %.3f -> pick %.3f (%.2fx); at the published readability %.3f (%.2fx; %d/%d tasks have such a"
          " front program, the others count the original)"
          % (pub_rc / n_pub, pick_rc / n_pub, pick_rc / max(pub_rc, 1e-9), same_rc / n_pub,
             same_rc / max(pub_rc, 1e-9), n_same, n_pub))
print("C_i rose in: " + ", ".join("%s %d/%d" % ("C%d" % i, rose["C%d" % i], n) for i in range(1, 8)))
for what, c in (("sentence", sent_count), ("name", name_count)):
    if c:
        top, k = c.most_common(1)[0]
        print("most frequent added %s: %r in %d/%d tasks (%.0f%%)" % (what, top, k, n, 100.0 * k / n))
    else:
        print("most frequent added %s: none" % what)
PY
  if [ -n "${ORIG_DIR:-}" ]; then
    echo "check: $("$gb" check "$out" -j 1 2>&1 | tail -n 1)"
    echo "compare: $("$gb" compare "$ORIG_DIR/$b.jsonl" "$out" -j 1 2>&1 | tail -n 1)"
  fi
done
