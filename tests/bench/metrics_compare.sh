#!/usr/bin/env bash
# Cross-check genebench's tree-sitter implementation of C2..C7 and R1..R14 against an
# independent implementation of the same definitions on Python's ast
# (tests/bench/reference_metrics.py, needs Debian's python3-nltk), file by file, over the
# calibration corpus. Prints, per metric, how many files get identical values. Both sides apply
# genebench's documented deviations from the reference tool (fitness/complexity.c), e.g. C6 also
# counts inter-class calls K.m() made outside class K, which the reference tool counts nowhere.
#   tests/bench/metrics_compare.sh [DIR...]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
gb=${GENEBENCH:-$here/build/genebench}
dp=/usr/lib/python3/dist-packages
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=($dp/django $dp/sympy $dp/sklearn $dp/matplotlib $dp/mpl_toolkits $dp/astropy
                               $dp/requests $dp/_pytest $dp/pytest $dp/sphinx $dp/xarray $dp/pylint $dp/seaborn
                               $dp/flask)
/usr/bin/python3 -c "import nltk" 2>/dev/null || { echo "python3-nltk is not installed (apt-get install python3-nltk)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gb" calibrate "${dirs[@]}" -o "$tmp/cal.json" --per-file "$tmp/ours.jsonl" > /dev/null
/usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["ok"]:
        print(d["file"], d["path"], d["own"], sep="\t")' "$tmp/ours.jsonl" > "$tmp/list.tsv"
/usr/bin/python3 "$here/tests/bench/reference_metrics.py" "$tmp/list.tsv" > "$tmp/ref.jsonl"
/usr/bin/python3 "$here/tests/bench/reference_metrics.py" compare "$tmp/ours.jsonl" "$tmp/ref.jsonl"
