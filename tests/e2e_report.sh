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
# 7 complexity + 14 readability + RC and RR + fitness + 2 operators + 5 runs' gates + 7 similarity + NNMR
check "page has 39 charts" '[ "$(grep -c "data-chart=" "$html")" -eq 39 ]'
check "page has 15 task rows and diffs" '[ "$(grep -o "class=\"difflink\"" "$html" | wc -l)" -eq 15 ]'

# What a researcher saw (issue 17). 1: the versions means table gives each pair's means
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
check "every chart rendered to SVG ($nsvg of 39)" '[ "$nsvg" -eq 39 ]'
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
check "lean report: its 27 charts rendered ($nsvg)" '[ "$nsvg" -eq 27 ]'

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
if [ $fail -ne 0 ] && [ -n "${GB_KEEP_REPORT:-}" ]; then cp "$html" "$png" "$GB_KEEP_REPORT"/; fi
exit $fail
