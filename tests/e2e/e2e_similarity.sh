#!/usr/bin/env bash
# `genebench similarity` and `genebench nnmr` end to end, including nnmr against a real
# OpenAI-compatible server on 127.0.0.1 (tests/fakes/model_server.py) with its embedding cache.
set -u
gb=${GENEBENCH:?}
src=${GB_SOURCE_ROOT:?}
py=/usr/bin/python3
tmp=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

# Two small benchmarks: T/1 identical, T/2 renamed, T/3 multi-module with a changed helper,
# only-a and only-b unmatched.
$py - "$tmp/a.jsonl" "$tmp/b.jsonl" <<'EOF'
import json, sys
def task(i, src, extra=None):
    return json.dumps({"id": i, "source": src, "entry_point": "f",
                       "tests": {"kind": "assert", "code": "assert f(1) is not None\n"},
                       "extra_files": extra or {}, "meta": {}})
a = [task("T/1", "def f(x):\n    return x + 1\n"),
     task("T/2", "def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n"),
     task("T/3", "from helpers import g\n\ndef f(x):\n    return g(x)\n", {"helpers.py": "def g(v):\n    return v * 2\n"}),
     task("only-a", "x = 1\n")]
b = [task("only-b", "y = 2\n"),
     task("T/3", "from helpers import g\n\ndef f(x):\n    return g(x)\n", {"helpers.py": "def g(v):\n    return v * 3\n"}),
     task("T/2", "def f(count):\n    acc = 0\n    for k in range(count):\n        acc += k\n    return acc\n"),
     task("T/1", "def f(x):\n    return x + 1\n")]
open(sys.argv[1], "w").write("\n".join(a) + "\n")
open(sys.argv[2], "w").write("\n".join(b) + "\n")
EOF

# --- similarity -----------------------------------------------------------------------
out=$("$gb" similarity "$tmp/a.jsonl" "$tmp/b.jsonl"); rc=$?
check "similarity exits 0" '[ $rc -eq 0 ]'
check "similarity reports 3 matched tasks" 'grep -q "3 tasks matched by id" <<<"$out"'
check "similarity names the token tokenizer" 'grep -q "tree-sitter-python 0.23.6 leaves" <<<"$out"'
check "similarity names the data-flow rule" 'grep -q "dataflow or 1" <<<"$out"'
check "similarity reports unmatched tasks" 'grep -q "only in $tmp/a.jsonl: 1 task: only-a" <<<"$out" && grep -q "only in $tmp/b.jsonl: 1 task: only-b" <<<"$out"'
check "similarity prints quartiles" 'grep -q "^codebleu .*" <<<"$out" && grep -q "q1" <<<"$out"'

"$gb" similarity "$tmp/a.jsonl" "$tmp/b.jsonl" --json -o "$tmp/sim.json"; rc=$?
check "similarity --json -o exits 0" '[ $rc -eq 0 ]'
check "similarity JSON: identical task scores 1, renamed keeps syntax and data flow" '$py - "$tmp/sim.json" <<EOF
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["id"]: x for x in d["tasks"]}
assert [x["id"] for x in d["tasks"]] == ["T/1", "T/2", "T/3"], d["tasks"]
assert abs(t["T/1"]["codebleu"] - 1) < 1e-9 and abs(t["T/1"]["token_jaccard"] - 1) < 1e-9
assert abs(t["T/2"]["syntax_match"] - 1) < 1e-9 and abs(t["T/2"]["dataflow_match"] - 1) < 1e-9
assert t["T/2"]["ngram_match"] < 0.6 and t["T/3"]["codebleu"] < 1
assert d["only_in_reference"] == ["only-a"] and d["only_in_prediction"] == ["only-b"]
assert d["summary"]["n"] == 3 and d["codebleu"]["weights"] == [0.25, 0.25, 0.25, 0.25]
assert d["summary"]["codebleu"]["min"] <= d["summary"]["codebleu"]["q1"] <= d["summary"]["codebleu"]["median"]
EOF'

"$gb" similarity "$tmp/a.jsonl" "$tmp/b.jsonl" --json --weights 0,0,1,0 -o "$tmp/w.json"
check "--weights 0,0,1,0 makes CodeBLEU the syntax score" '$py -c "
import json, sys
d = json.load(open(\"$tmp/w.json\"))
assert all(abs(t[\"codebleu\"] - t[\"syntax_match\"]) < 1e-9 for t in d[\"tasks\"])"'

printf '%s\n' '{"id": "Z", "source": "print(1)\n", "entry_point": null, "tests": {"kind": "assert", "code": "pass\n"}, "extra_files": {}, "meta": {}}' >"$tmp/z1.jsonl"
printf '%s\n' '{"id": "Z", "source": "def f(a):\n    b = a\n    return b\n", "entry_point": null, "tests": {"kind": "assert", "code": "pass\n"}, "extra_files": {}, "meta": {}}' >"$tmp/z2.jsonl"
loose=$("$gb" similarity "$tmp/z2.jsonl" "$tmp/z1.jsonl" --json | $py -c 'import json,sys; print(json.load(sys.stdin)["tasks"][0]["codebleu"])')
strict=$("$gb" similarity "$tmp/z2.jsonl" "$tmp/z1.jsonl" --json --strict-dataflow | $py -c 'import json,sys; print(json.load(sys.stdin)["tasks"][0]["codebleu"])')
check "--strict-dataflow removes the 'or 1' bonus (0.25 here)" '$py -c "assert abs(($loose) - ($strict) - 0.25) < 1e-6"'

"$gb" similarity "$tmp/a.jsonl" "$tmp/b.jsonl" --weights 1,2 >/dev/null 2>&1; rc=$?
check "bad --weights exits 2" '[ $rc -eq 2 ]'
"$gb" similarity "$tmp/a.jsonl" >/dev/null 2>&1; rc=$?
check "one file only exits 2" '[ $rc -eq 2 ]'
err=$("$gb" similarity "$tmp/a.jsonl" "$tmp/missing.jsonl" 2>&1 >/dev/null); rc=$?
check "a missing file exits 1 and names it" '[ $rc -eq 1 ] && grep -q "missing.jsonl" <<<"$err"'

# --- nnmr, built-in embedding -----------------------------------------------------------
out=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl"); rc=$?
check "nnmr exits 0" '[ $rc -eq 0 ]'
check "nnmr states metric, gallery, ties and both directions" 'grep -q "metric: cosine similarity" <<<"$out" && grep -q "gallery: the whole other set" <<<"$out" && grep -q "ties: lowest index wins" <<<"$out" && grep -q "^NNMR orig->hard" <<<"$out" && grep -q "^NNMR hard->orig" <<<"$out"'
check "nnmr names the built-in embedding (structure by default)" 'grep -q "built-in structure: genebench syntax-structure features" <<<"$out"'
check "nnmr prints the graded measures" 'grep -q "^mean rank of the counterpart" <<<"$out" && grep -q "^displacement" <<<"$out"'
out=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --builtin tokens); rc=$?
check "--builtin tokens names the token embedding" '[ $rc -eq 0 ] && grep -q "built-in tokens: genebench hashed token 1-3-gram TF-IDF" <<<"$out"'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --builtin words >/dev/null 2>&1; rc=$?
check "an unknown --builtin exits 2" '[ $rc -eq 2 ]'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/a.jsonl" --json -o "$tmp/self.json"
check "nnmr of a benchmark against itself is 0%" '$py -c "
import json
d = json.load(open(\"$tmp/self.json\"))
assert d[\"nnmr_orig_to_hard\"] == 0 and d[\"nnmr_hard_to_orig\"] == 0 and d[\"n\"] == 4, d"'

# --- nnmr against a real server on 127.0.0.1 --------------------------------------------
$py "$src/tests/fakes/model_server.py" --port-file "$tmp/port" &
server_pid=$!
for _ in $(seq 1 500); do [ -s "$tmp/port" ] && break; sleep 0.02; done
url="http://127.0.0.1:$(cat "$tmp/port")"
stat() { $py -c "import json, urllib.request; print(json.load(urllib.request.urlopen('$url/stats'))['$1'])"; }
control() { $py -c "import urllib.request; urllib.request.urlopen(urllib.request.Request('$url/control', data=b'$1', headers={'Content-Type': 'application/json'}))"; }

out=$(GENEBENCH_API_KEY=sk-e2e "$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model tiny-emb --embed-batch 2 --cache "$tmp/cache"); rc=$?
check "nnmr with an endpoint exits 0" '[ $rc -eq 0 ]'
check "first run: 6 texts fetched in 3 requests" '[ "$(stat embeddings)" = 3 ] && grep -q "0 from the cache" <<<"$out" && grep -q "6 fetched in 3 requests" <<<"$out"'
check "the key is sent as a bearer token" '[ "$(stat last_auth)" = "Bearer sk-e2e" ]'
control '{"mode": "normal"}'
out2=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model tiny-emb --embed-batch 2 --cache "$tmp/cache"); rc=$?
check "second run: zero requests, same result" '[ $rc -eq 0 ] && [ "$(stat requests)" = 0 ] && grep -q "6 from the cache" <<<"$out2" && [ "$(grep ^NNMR <<<"$out")" = "$(grep ^NNMR <<<"$out2")" ]'

control '{"mode": "fail_then_ok", "count": 1}'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model other --no-cache --retries 2 >/dev/null; rc=$?
check "a 500 is retried (exit 0, 2 requests)" '[ $rc -eq 0 ] && [ "$(stat requests)" = 2 ]'
control '{"mode": "malformed"}'
err=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model other --no-cache 2>&1 >/dev/null); rc=$?
check "malformed JSON from the server: exit 1, clear message" '[ $rc -eq 1 ] && grep -q "malformed JSON" <<<"$err"'
control '{"mode": "nonsense"}'
err=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model other --no-cache 2>&1 >/dev/null); rc=$?
check "too few vectors: exit 1, clear message" '[ $rc -eq 1 ] && grep -q "the reply has 5" <<<"$err"'
# --- the model's own representations: /v1/embeddings and llama.cpp's /embedding -------------
# The simulated model's vectors are mean-pooled hidden states of a small recurrent model (not a
# bag of tokens). With --pooling none on the "server", genebench pools the per-token vectors
# itself; it must find exactly what the server's own mean pooling gives.
control '{"embed": "hidden", "dim": 32}'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model sim --no-cache --json -o "$tmp/n1.json"; rc1=$?
control '{"pooling": "none", "dim": 32}'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model sim --embed-api llamacpp --no-cache --json -o "$tmp/n2.json"; rc2=$?
check "llamacpp: one request to /embedding, per-token vectors" '[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(stat embeddings)" = 1 ]'
check "the source is recorded: api, endpoint, model, pooling, pooled by, dimension" '$py -c "
import json
a, b = json.load(open(\"$tmp/n1.json\")), json.load(open(\"$tmp/n2.json\"))
sa, sb = a[\"embedding_source\"], b[\"embedding_source\"]
assert (sa[\"kind\"], sa[\"api\"], sa[\"pooled_by\"], sa[\"dimension\"]) == (\"endpoint\", \"openai\", \"server\", 32), sa
assert sa[\"endpoint\"].endswith(\"/v1/embeddings\") and sb[\"endpoint\"].endswith(\"/embedding\"), (sa, sb)
assert (sb[\"api\"], sb[\"model\"], sb[\"pooling\"], sb[\"dimension\"]) == (\"llamacpp\", \"sim\", \"mean\", 32), sb
assert sb[\"pooled_by\"].startswith(\"client\") and sb[\"token_vectors\"] > 6, sb
"'
check "client mean pooling = the server's mean pooling (same cosines, ranks, NNMR)" '$py -c "
import json
a, b = json.load(open(\"$tmp/n1.json\")), json.load(open(\"$tmp/n2.json\"))
for x, y in zip(a[\"tasks\"], b[\"tasks\"]):
    assert abs(x[\"counterpart_cosine\"] - y[\"counterpart_cosine\"]) < 1e-6 and x[\"rank_orig_to_hard\"] == y[\"rank_orig_to_hard\"], (x, y)
assert a[\"nnmr_orig_to_hard\"] == b[\"nnmr_orig_to_hard\"]
# a real number, not a bag of tokens: the renamed T/2 is not at cosine 1 (a token bag that
# ignores names would be), and the identical T/1 is
c = {t[\"id\"]: t[\"counterpart_cosine\"] for t in a[\"tasks\"]}
assert abs(c[\"T/1\"] - 1) < 1e-9 and c[\"T/2\"] < 0.99, c
"'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model sim --embed-api llamacpp --pooling last --no-cache --json -o "$tmp/n3.json"; rc=$?
check "--pooling last gives other vectors" '[ $rc -eq 0 ] && $py -c "
import json
a, b = json.load(open(\"$tmp/n2.json\")), json.load(open(\"$tmp/n3.json\"))
assert b[\"embedding_source\"][\"pooling\"] == \"last\"
assert any(abs(x[\"counterpart_cosine\"] - y[\"counterpart_cosine\"]) > 1e-6 for x, y in zip(a[\"tasks\"], b[\"tasks\"]))
"'
control '{"pooling": "mean", "dim": 32}'
out=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model sim --embed-api llamacpp --no-cache); rc=$?
check "a server that pools: said so" '[ $rc -eq 0 ] && grep -q "pooled by server (one vector per text" <<<"$out"'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model sim --embed-api bert >/dev/null 2>&1; rc=$?
check "an unknown --embed-api exits 2" '[ $rc -eq 2 ]'

kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=
err=$("$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" --embed-model other --no-cache 2>&1 >/dev/null); rc=$?
check "no server: exit 1, connection refused named" '[ $rc -eq 1 ] && grep -q "cannot connect" <<<"$err"'
"$gb" nnmr "$tmp/a.jsonl" "$tmp/b.jsonl" --embed-url "$url" >/dev/null 2>&1; rc=$?
check "--embed-url without a model exits 2" '[ $rc -eq 2 ]'
exit $fail
