#!/usr/bin/env bash
# genebench report end to end: render the report of the fixtures (tests/data/report: one run, a
# versions directory, a lean run with missing optional fields) in headless Chromium, and check that
# every chart drew an SVG, the page logged nothing to the console, and the screenshot is a real
# picture. Needs the Vega-Lite assets (src/setup.sh) and /usr/bin/chromium (src/setup.sh).
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
fix="$root/tests/data/report"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }

# ---- the command line ---------------------------------------------------------------------------
"$gb" report "$fix/bench.jsonl" >/dev/null 2>&1; rc=$?
check "no -o exits 2" '[ $rc -eq 2 ]'
"$gb" report -o "$tmp/x.html" >/dev/null 2>&1; rc=$?
check "no input exits 2" '[ $rc -eq 2 ]'
"$gb" report "$tmp/missing.jsonl" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
check "missing input exits 1 and names it" '[ $rc -eq 1 ] && grep -q "missing.jsonl" "$tmp/err"'
"$gb" report "$fix/bench.jsonl" -o "$tmp/x.html" --assets "$tmp/no-assets" >/dev/null 2>"$tmp/err"; rc=$?
check "missing assets exit 1 naming the file and src/setup.sh" \
  '[ $rc -eq 1 ] && grep -q "no-assets/vega/build/vega.min.js" "$tmp/err" && grep -q "src/setup.sh" "$tmp/err"'
check "nothing written on failure" '[ ! -e "$tmp/x.html" ]'
cp "$fix/bench.jsonl" "$tmp/in.jsonl"
"$gb" report "$tmp/in.jsonl" -o "$tmp/in.jsonl" >/dev/null 2>&1; rc=$?
check "refuses to overwrite its input (exit 2, input intact)" '[ $rc -eq 2 ] && cmp -s "$tmp/in.jsonl" "$fix/bench.jsonl"'
"$gb" report "$root/examples/benchmark.jsonl" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
check "a benchmark that is not evolve output is refused clearly" \
  '[ $rc -eq 1 ] && grep -q "no task with genebench results" "$tmp/err" && [ ! -e "$tmp/x.html" ]'

# ---- the page ---------------------------------------------------------------------------------
html="$tmp/report.html"
"$gb" report "$fix/bench.jsonl" "$fix/versions" "$fix/lean.jsonl" -o "$html" >"$tmp/out" 2>"$tmp/err"; rc=$?
cat "$tmp/out"
check "report exits 0" '[ $rc -eq 0 ]'
check "report says what it read" 'grep -q "15 tasks from 3 input" "$tmp/out"'
check "lean input warnings on stderr" \
  'grep -q "lean.jsonl:2: malformed JSON" "$tmp/err" && grep -q "no-such-thresholds.json" "$tmp/err"'
check "page is self-contained (no external script, style or link)" \
  '! grep -Eiq "<script[^>]+src=|<link[^>]+href=|@import|<img[^>]+src=\"http" "$html"'
# 7 complexity + 14 readability + RC and RR + per-metric change + fitness + 2 operators + 5 runs' gates
# + 7 similarity + NNMR
check "page has 40 charts" '[ "$(grep -c "data-chart=" "$html")" -eq 40 ]'
check "page has 15 task rows and diffs" '[ "$(grep -o "class=\"difflink\"" "$html" | wc -l)" -eq 15 ]'

# What a researcher saw. 1: the versions means table gives each pair's means
# (similarity.json has summary.<measure> as {mean, median, q1, q3, min, max}), no cell is "–".
/usr/bin/python3 - "$html" "$fix/versions/similarity.json" >"$tmp/means.out" 2>&1 <<'EOF'
import json, re, sys
html, sim = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
tables = re.findall(r'<table class="facts"><thead><tr><th>pair</th>(.*?)</table>', html, re.S)
assert len(tables) == 1, "one versions means table, found %d" % len(tables)
heads = re.findall(r"<th>([a-z_]+) \(mean\)</th>", tables[0])
rows = re.findall(r"<tr><td>([^<]*)</td><td>(\d+)</td>(.*?)</tr>", tables[0], re.S)
assert len(heads) == 7 and len(rows) == len(sim["pairs"]) == 3, (heads, rows)
for (label, n, cells), pair in zip(rows, sim["pairs"]):
    got = re.findall(r"<td>(.*?)</td>", cells)
    want = ["%.4f" % pair["summary"][m]["mean"] for m in heads]
    assert got == want, (label, got, want)
print("%d pairs x %d measures match similarity.json" % (len(rows), len(heads)))
EOF
mrc=$?
cat "$tmp/means.out"
check "versions means table holds every pair's means" '[ $mrc -eq 0 ]'
# The per-metric table, recomputed here from the records of the five runs (bench, the
# three seeds, lean): over the tasks that evolved (hardened or unchanged), the mean before -> after
# and in how many the value rose; C rows first; a C metric raised in >= 1/4 of the tasks gets a tick.
/usr/bin/python3 - "$html" "$fix/bench.jsonl" "$fix/versions/seed-1.jsonl" "$fix/versions/seed-2.jsonl" \
  "$fix/versions/seed-3.jsonl" "$fix/lean.jsonl" >"$tmp/change.out" 2>&1 <<'EOF'
import html as H, json, re, sys
page = open(sys.argv[1]).read()
keys = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "num_tokens", "lines_of_code", "num_conditions", "num_loops",
        "num_assignments", "num_max_nested_loop", "num_max_nested_if", "num_max_conditions_in_if",
        "max_line_tokens", "num_of_variables", "num_of_arrays", "num_of_operators", "num_of_nested_casting", "entropy"]
ids = ["C%d" % i for i in range(1, 8)] + ["R%d" % i for i in range(1, 15)]
runs = []
for path in sys.argv[2:]:
    recs = []
    for line in open(path):
        try:
            recs.append(json.loads(line)["genebench"])
        except (ValueError, KeyError):
            pass  # the lean fixture's malformed line (the report skips it with a warning)
    runs.append([g for g in recs if g.get("status") in ("hardened", "unchanged") and "before" in g])
assert [len(r) for r in runs] == [3, 3, 3, 3, 2], [len(r) for r in runs]  # bench's original_fails left out
table = re.search(r'<table class="facts change" id="change-table">(.*?)</table>', page, re.S).group(1)
rows = re.findall(r'<tr data-metric="([CR]\d+)"><th>[^<]*</th><td>[^<]*</td>(.*?)</tr>', table, re.S)
assert [m for m, _ in rows] == ids, [m for m, _ in rows]
for (mid, cells), key in zip(rows, keys):
    got = [H.unescape(re.sub("<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
    want = []
    for recs in runs:
        pairs = [(g["before"]["metrics"][key], g["after"]["metrics"][key]) for g in recs]
        n, up = len(pairs), sum(a > b for b, a in pairs)
        want.append("%.2f \u2192 %.2f" % (sum(b for b, _ in pairs) / n, sum(a for _, a in pairs) / n))
        tick = " \u2713" if mid[0] == "C" and up * 4 >= n else ""
        want.append("%d/%d (%.0f%%)%s" % (up, n, 100.0 * up / n, tick))
    assert got == want, (mid, got, want)
items = re.findall(r"<li>(.*?)</li>", re.search(r'<ul class="change">(.*?)</ul>', page, re.S).group(1))
assert len(items) == len(runs), items
for item, recs in zip(items, runs):
    up = [i for i, k in zip(ids[:7], keys)
          if sum(g["after"]["metrics"][k] > g["before"]["metrics"][k] for g in recs) * 4 >= len(recs)]
    want = ": %d of 7 complexity metrics raised in a quarter of the tasks or more (%s)" % (len(up), ", ".join(up))
    assert want in item, (item, want)
print("%d metrics x %d runs match the records" % (len(rows), len(runs)))
EOF
crc=$?
cat "$tmp/change.out"
check "per-metric table: means and raised counts recomputed from the records" '[ $crc -eq 0 ]'
# 2: time_budget 0 is "no time budget", not "0 s per task".
check "no time budget shows as none" \
  'grep -q "8 generations, time budget: none" "$html" && ! grep -q " 0 s per task" "$html"'
# 4: per-task time from each record's time_s (bench.jsonl: 2.1, 1.76 and 1.07 s; toy/3 has none).
times=$(grep -o '<tr><td data-v="[0-9]*">[0-9]*</td><td>bench</td><td>toy/[0-9]</td>.*' "$html" |
  sed -E 's|.*<td data-v="[^"]*">([^<]*)</td><td><a class="difflink".*|\1|; s|.*<td data-v="">.*|none|' | tr '\n' ' ')
check "per-task time is shown ($times)" '[ "$times" = "2.10 1.76 1.07 none " ]'

chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  echo "FAIL: $chromium not found (src/setup.sh installs Debian's chromium)"
  exit 1
fi
run_chromium() { # run_chromium PROFILE ARGS... : headless, offline, no first-run noise
  local prof=$1; shift
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --enable-logging=stderr --v=0 --virtual-time-budget=15000 "$@"
}
png="$tmp/report.png"
run_chromium "$tmp/prof1" --screenshot="$png" --window-size=1400,4000 "file://$html" >"$tmp/shot.out" 2>"$tmp/shot.err"
check "chromium wrote a screenshot" '[ -s "$png" ]'
# Console output of the page: Chromium logs every console message and uncaught error as CONSOLE.
grep -E 'CONSOLE|Uncaught' "$tmp/shot.err" >"$tmp/console" || true
check "page logged nothing to the console" '[ ! -s "$tmp/console" ]'
[ -s "$tmp/console" ] && head -20 "$tmp/console"

# The rendered DOM: each chart became an SVG, and a #diff-N address opens that diff.
run_chromium "$tmp/prof2" --dump-dom "file://$html#diff-2" >"$tmp/dom.html" 2>"$tmp/dom.err"
nsvg=$(grep -o 'class="marks"' "$tmp/dom.html" | wc -l)
check "every chart rendered to SVG ($nsvg of 40)" '[ "$nsvg" -eq 40 ]'
check "no chart failed" '! grep -q "id=\"chart-[a-z0-9-]*\">This chart could not" "$tmp/dom.html"'
# 3: the gate chart names every operator that was offered, also S4, which no pick ever used.
gates_svg=$(sed -n '/id="chart-gates-1"/,/<\/svg>/p' "$tmp/dom.html")
check "gate chart labels the never-picked S4 AddThread" \
  'grep -q ">S4 AddThread</text>" <<<"$gates_svg" && ! grep -q ">S4</text>" <<<"$gates_svg"'
check "#diff-2 opens that diff" 'grep -Eq "<details[^>]*id=\"diff-2\"[^>]*open" "$tmp/dom.html"'
grep -E 'CONSOLE|Uncaught' "$tmp/dom.err" >"$tmp/console2" || true
check "no console output while dumping the DOM" '[ ! -s "$tmp/console2" ]'

# A lean run alone (no summary, fronts, lint, per-operator gates or thresholds) draws without
# console output too: no chart layer is left without data.
"$gb" report "$fix/lean.jsonl" -o "$tmp/lean.html" >/dev/null 2>&1
run_chromium "$tmp/prof3" --dump-dom "file://$tmp/lean.html" >"$tmp/lean-dom.html" 2>"$tmp/lean.err"
grep -E 'CONSOLE|Uncaught' "$tmp/lean.err" >"$tmp/console3" || true
check "lean report: no console output" '[ ! -s "$tmp/console3" ]'
[ -s "$tmp/console3" ] && head -20 "$tmp/console3"
nsvg=$(grep -o 'class="marks"' "$tmp/lean-dom.html" | wc -l)
check "lean report: its 28 charts rendered ($nsvg)" '[ "$nsvg" -eq 28 ]'

# The screenshot is a real picture: decode the PNG (zlib + scanline filters) and count colours
# (pure Python, so it stops decoding once it has seen enough of them).
/usr/bin/python3 - "$png" >"$tmp/png.out" 2>&1 <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype = hdr[:4]
assert depth == 8 and ctype in (2, 6), "unexpected PNG format %r" % (hdr,)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
# Content everywhere: a uniform area leaves all-zero residuals after the PNG filters (or, in an
# unfiltered row, one repeated byte), so every quarter of the page must have a fair share of
# non-zero residuals.
busy = [0.0] * 4
for y in range(h):
    row = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
    same = row.count(row[0]) if raw[y * (stride + 1)] == 0 else row.count(0)
    busy[min(3, y * 4 // h)] += (stride - same) / (stride * (h // 4))
print("non-zero filtered bytes per quarter:", " ".join("%.3f" % b for b in busy))
if min(busy) <= 0.005:
    sys.exit(1)
prev, colours, off = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[off], bytearray(raw[off + 1:off + 1 + stride])
    off += 1 + stride
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        colours.add(bytes(line[x:x + 3]))
    prev = line
    if len(colours) >= 200:  # enough: a blank or near-blank page never gets here
        break
print("%dx%d, %d distinct colours in the first %d rows" % (w, h, len(colours), y + 1))
sys.exit(0 if len(colours) >= 200 else 1)
EOF
prc=$?
cat "$tmp/png.out"
size=$(stat -c %s "$png" 2>/dev/null || echo 0)
check "screenshot is not blank (size $size bytes, colours above)" '[ $prc -eq 0 ] && [ "$size" -gt 100000 ]'
# ---- the model evaluation panel (--eval) --------------------------------------------------------
# A real `genebench eval` run (output prediction, 2 samples; input prediction, 1 sample) against
# the simulated model of tests/fakes/model_server.py on 127.0.0.1, right on every original and on the
# hardened programs of two tasks only (tests/data/eval: 7 items, 3 of them lost per version).
ed="$root/tests/data/eval"
py=/usr/bin/python3
$py "$root/tests/fakes/model_server.py" --port-file "$tmp/mport" --bench "$ed/orig.jsonl" "$ed/hard.jsonl" "$ed/hard2.jsonl" &
mpid=$!
for _ in $(seq 1 500); do [ -s "$tmp/mport" ] && break; sleep 0.02; done
murl="http://127.0.0.1:$(cat "$tmp/mport")"
$py -c "import sys, urllib.request; urllib.request.urlopen(urllib.request.Request('$murl/control', data=sys.argv[1].encode(), headers={'Content-Type': 'application/json'}))" \
  '{"mode": "oracle", "right_hard": ["crux/0", "he/add"]}'
"$gb" eval "$ed/orig.jsonl" "$ed/hard.jsonl" "$ed/hard2.jsonl" --url "$murl" --model sim --task output --samples 2 --k 1,2 \
  -q -j 2 --summary "$tmp/out.json" -o "$tmp/out.jsonl" >/dev/null 2>&1; erc1=$?
"$gb" eval "$ed/orig.jsonl" "$ed/hard.jsonl" "$ed/hard2.jsonl" --url "$murl" --model sim --task input \
  -q -j 2 --summary "$tmp/in.json" -o "$tmp/in.jsonl" >/dev/null 2>&1; erc2=$?
kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null
check "two eval runs against the simulated model" '[ $erc1 -eq 0 ] && [ $erc2 -eq 0 ] && [ -s "$tmp/out.jsonl" ] && [ -s "$tmp/in.json" ]'

ehtml="$tmp/eval.html"
"$gb" report --eval "$tmp/out.json,$tmp/out.jsonl" --eval "$tmp/in.json,$tmp/in.jsonl" -o "$ehtml" >"$tmp/eout" 2>"$tmp/eerr"; rc=$?
check "a report of eval runs alone exits 0, no warning" '[ $rc -eq 0 ] && grep -q "2 eval run(s), 0 warning(s)" "$tmp/eout" && [ ! -s "$tmp/eerr" ]'
# 2 pass@k charts (one per task type), the drop, the outcomes
check "eval page has 4 charts" '[ "$(grep -c "data-chart=" "$ehtml")" -eq 4 ]'
$py - "$ehtml" "$tmp/out.json" "$tmp/in.json" >"$tmp/evalpage.out" 2>&1 <<'EOF'
import json, re, sys
page = open(sys.argv[1]).read()
sums = [json.load(open(p)) for p in sys.argv[2:]]
# the comparison table: one row per (task type, hardened version), numbers as in the summaries
rows = re.findall(r"<tr><td>(output|input)</td><td>(hard2?)</td><td>(\d+)</td><td>([\d.]+)%</td><td>([\d.]+)%</td>"
                  r"<td>([\d.]+)%</td><td>\[([\d.]+)%, ([\d.]+)%\]</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>", page)
want = []
for s in sums:
    for c in s["comparisons"]:
        want.append((s["task"], "hard" if c["file"].endswith("/hard.jsonl") else "hard2", str(c["items"]),
                     "%.1f" % (100 * c["pass1_original"]), "%.1f" % (100 * c["pass1_version"]),
                     "%.1f" % (100 * c["relative_drop"]), "%.1f" % (100 * c["drop_ci95"][0]),
                     "%.1f" % (100 * c["drop_ci95"][1]), str(c["lost"]), str(c["gained"]), str(c["both_pass"]),
                     str(c["both_fail"])))
assert rows == want, (rows, want)
# the changed items: exactly lost + gained of every comparison, each listed once
changed = re.findall(r"<tr><td>(output|input)</td><td>(hard2?)</td><td>([^<]+)</td><td data-v=\"[^\"]*\">(\d+) / (\d+)</td>"
                     r"<td data-v=\"[^\"]*\">(\d+) / (\d+)</td><td class=\"(bad|good)\">(lost|gained)</td></tr>", page)
assert len(changed) == sum(c["lost"] + c["gained"] for s in sums for c in s["comparisons"]) == 12, changed
assert len(set(changed)) == len(changed)
# output has 2 samples per item: a lost item passed 2 of 2 on the original and 0 of 2 on the version
assert all(r[3:7] == ("2", "2", "0", "2") for r in changed if r[0] == "output"), changed
assert {r[2] for r in changed} == {"crux/1", "crux/2", "crux/3"}, changed
# the pass@k chart data: pass@1 and pass@2 of output for every version
spec = json.loads(re.search(r'data-chart="chart-eval-passk-1">(.*?)</script>', page, re.S).group(1))
vals = {(d["version"], d["k"]): d["v"] for d in spec["data"]["values"]}
assert vals[("original", "pass@1")] == 1 and abs(vals[("hard", "pass@2")] - 4 / 7) < 1e-6, vals
print("comparison table, %d changed items and pass@k data match the summaries" % len(changed))
EOF
prc=$?
cat "$tmp/evalpage.out"
check "eval panel numbers match the summaries" '[ $prc -eq 0 ]'
run_chromium "$tmp/prof4" --dump-dom "file://$ehtml" >"$tmp/edom.html" 2>"$tmp/edom.err"
grep -E 'CONSOLE|Uncaught' "$tmp/edom.err" >"$tmp/console4" || true
check "eval report: no console output" '[ ! -s "$tmp/console4" ]'
nsvg=$(grep -o 'class="marks"' "$tmp/edom.html" | wc -l)
check "eval report: its 4 charts rendered ($nsvg)" '[ "$nsvg" -eq 4 ]'
check "the changed-items table is sortable" 'grep -q "<table class=\"tasks sortable\" id=\"eval-changed\">" "$ehtml"'

# evolve output and an eval run in one page: the run panels, then the eval panel
"$gb" report "$fix/bench.jsonl" --eval "$tmp/out.json" -o "$tmp/both.html" >/dev/null 2>&1; rc=$?
check "runs and an eval without results in one page" \
  '[ $rc -eq 0 ] && grep -q "id=\"eval\"" "$tmp/both.html" && grep -q "id=\"metrics\"" "$tmp/both.html" && grep -q "No per-sample results given" "$tmp/both.html"'
# bad --eval inputs
"$gb" report --eval "$tmp/none.json" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
check "a missing eval summary exits 1 and names it" '[ $rc -eq 1 ] && grep -q "none.json" "$tmp/err" && [ ! -e "$tmp/x.html" ]'
"$gb" report --eval "$fix/bench.summary.json" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
check "an evolve summary given as an eval summary is refused clearly" '[ $rc -eq 1 ] && grep -q "not the summary of .genebench eval." "$tmp/err"'
"$gb" report --eval "$tmp/out.json,$tmp/out.jsonl,x" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
check "--eval A,B,C is a usage error" '[ $rc -eq 2 ] && grep -q "expected SUMMARY.json or SUMMARY.json,RESULTS.jsonl" "$tmp/err"'
cp "$tmp/out.jsonl" "$tmp/keep.jsonl"
"$gb" report --eval "$tmp/out.json,$tmp/out.jsonl" -o "$tmp/out.jsonl" >/dev/null 2>&1; rc=$?
check "refuses to overwrite an eval input" '[ $rc -eq 2 ] && cmp -s "$tmp/out.jsonl" "$tmp/keep.jsonl"'
# results that do not tell the summary's story (one lost item turned into a pass) and a bad line
$py -c "
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for r in lines:
    if r['version'] == 1 and r['item'] == 'crux/1':
        r['verdict'] = 'pass'
open(sys.argv[2], 'w').write('\n'.join(json.dumps(r) for r in lines) + '\n{not json\n')
" "$tmp/out.jsonl" "$tmp/forged.jsonl"
"$gb" report --eval "$tmp/out.json,$tmp/forged.jsonl" -o "$tmp/f.html" >/dev/null 2>"$tmp/err"; rc=$?
check "results that disagree with the summary: a warning naming both, and the bad line" \
  '[ $rc -eq 0 ] && grep -q "forged.jsonl: version 1: both_pass is 5 in the results but 4 in .*out.json" "$tmp/err" && grep -q "forged.jsonl:43: malformed JSON" "$tmp/err"'

if [ $fail -ne 0 ] && [ -n "${GB_KEEP_REPORT:-}" ]; then cp "$html" "$png" "$ehtml" "$GB_KEEP_REPORT"/; fi
exit $fail
