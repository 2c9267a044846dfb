#!/usr/bin/env bash
# Cross-check fitness/tokenize.c against NLTK 3.8 itself (Debian's python3-nltk, run with the same
# Punkt parameters genebench builds in): the tokens of every whole file and the token count of
# every line, over the calibration corpus (or the given files' directories).
#   tests/bench/tokenize_compare.sh [DIR...]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dump=${GB_BUILD_ROOT:-$here/build}/tests/gb_tokdump
dp=/usr/lib/python3/dist-packages
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=($dp/django $dp/sympy $dp/sklearn $dp/matplotlib $dp/mpl_toolkits $dp/astropy
                               $dp/requests $dp/_pytest $dp/pytest $dp/sphinx $dp/xarray $dp/pylint $dp/seaborn
                               $dp/flask)
/usr/bin/python3 -c "import nltk" 2>/dev/null || { echo "python3-nltk is not installed (apt-get install python3-nltk)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "${dirs[@]}" -name '*.py' | sort > "$tmp/files"
ref="$here/tests/bench/reference_metrics.py"
xargs -a "$tmp/files" -d '\n' "$dump" > "$tmp/ours.txt"
xargs -a "$tmp/files" -d '\n' /usr/bin/python3 "$ref" tokens > "$tmp/nltk.txt"
xargs -a "$tmp/files" -d '\n' "$dump" --lines > "$tmp/ours_lines.txt"
xargs -a "$tmp/files" -d '\n' /usr/bin/python3 "$ref" tokens --lines > "$tmp/nltk_lines.txt"
n=$(wc -l < "$tmp/files")
echo "files: $n"
echo "whole-file tokens: $(grep -c . "$tmp/nltk.txt") lines of NLTK output; differing lines: $(diff "$tmp/ours.txt" "$tmp/nltk.txt" | grep -c '^[<>]' || true)"
echo "per-line token counts: $(wc -l < "$tmp/nltk_lines.txt") lines; differing: $(diff "$tmp/ours_lines.txt" "$tmp/nltk_lines.txt" | grep -c '^[<>]' || true)"
