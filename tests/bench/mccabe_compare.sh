#!/usr/bin/env bash
# Cross-check C1 (genebench's interprocedural CFG) against McCabe's cyclomatic complexity
# (Debian's python3-mccabe, the checker flake8 uses) on real functions of the calibration corpus.
# Only functions that call none of the program's own functions are compared (there C1 links
# calls to callee bodies by design). Prints the exact-match percentage, the mean absolute
# difference and the disagreements grouped by construct.
#   tests/bench/mccabe_compare.sh [MAX_FUNCTIONS] [DIR...]
# Defaults: 2000 functions from the 12 SWE-bench projects' installed sources.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
gb=${GENEBENCH:-$here/build/genebench}
max=${1:-2000}
shift || true
dp=/usr/lib/python3/dist-packages
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=($dp/django $dp/sympy $dp/sklearn $dp/matplotlib $dp/astropy $dp/requests
                               $dp/_pytest $dp/pytest $dp/sphinx $dp/xarray $dp/pylint $dp/seaborn $dp/flask)
/usr/bin/python3 -c "import mccabe" 2>/dev/null || { echo "python3-mccabe is not installed (apt-get install python3-mccabe)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$here/tests/bench/mccabe_functions.py" extract "$tmp/funcs.jsonl" "$max" "${dirs[@]}"
"$gb" metrics "$tmp/funcs.jsonl" --thresholds paper > "$tmp/metrics.jsonl"
/usr/bin/python3 "$here/tests/bench/mccabe_functions.py" compare "$tmp/funcs.jsonl" "$tmp/metrics.jsonl"
