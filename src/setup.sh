#!/usr/bin/env bash
# Installs everything genebench needs to build and test on Debian 12, then fetches the
# tree-sitter Python grammar from npm. Idempotent: re-running only installs what is missing.
#   src/setup.sh              build + test dependencies
#   src/setup.sh --calibration  also the 12 SWE-bench projects used by `genebench calibrate`
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

# The third-party Python libraries' Debian packages: the third field of each row of the one
# list, src/runner/library_list.h.
libs=($(awk -F'"' '/^ *GB_LIBRARY\(/ {print $6}' "$here/src/runner/library_list.h"))
# What the four upstream benchmarks' programs import besides those (ClassEval: PIL, pandas,
# docx, openpyxl, gensim, nltk, PyPDF2, bs4, reportlab; HumanEval, CRUXEval and Avatar import only the standard
# library). Not rows of the list: no worker preloads them (a program that imports one imports it
# in its own run), and the list's rows are what every FULL worker imports at start.
bench_libs=(python3-pil python3-pandas python3-docx python3-openpyxl python3-gensim python3-nltk python3-pypdf2
            python3-bs4 python3-reportlab)
pkgs=(build-essential pkg-config meson ninja-build
      libtree-sitter-dev libjansson-dev libcurl4-openssl-dev zlib1g-dev libcmocka-dev
      python3 "${libs[@]}"
      pylint python3-mccabe nodejs npm chromium
      openjdk-17-jdk-headless  # javac + java: genebench eval --task translate
      "${bench_libs[@]}")
calib=(python3-django python3-sympy python3-sklearn python3-matplotlib python3-astropy python3-requests
       python3-pytest python3-sphinx python3-xarray pylint python3-seaborn python3-flask)
[ "${1:-}" = "--calibration" ] && pkgs+=("${calib[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from elsewhere on the machine; only install Debian's when absent.
command -v npm >/dev/null 2>&1 && missing=("${missing[@]/npm}") && missing=("${missing[@]/nodejs}")
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python grammar: tree-sitter-python@0.23.6 (ABI 14, the newest Debian's runtime loads).
gdir="$here/third_party/tree-sitter-python"
if [ ! -f "$gdir/src/parser.c" ]; then
  echo "setup: fetching tree-sitter-python@0.23.6 from npm"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent tree-sitter-python@0.23.6 >/dev/null && tar xzf tree-sitter-python-0.23.6.tgz)
  mkdir -p "$here/third_party"
  rm -rf "$gdir"
  mv "$tmp/package" "$gdir"
  rm -rf "$tmp"
fi
grep -q 'LANGUAGE_VERSION 14' "$gdir/src/parser.c" || { echo "setup: grammar is not ABI 14" >&2; exit 1; }

# Vega-Lite for `genebench report`: the three minified builds are inlined into the HTML at
# report time (never committed). Pinned versions that work together: vega-lite 5.23 needs
# vega ^5.24, vega-embed 6.29 needs vega ^5.21 (UMD builds: globals vega, vegaLite, vegaEmbed).
for spec in vega@5.33.0 vega-lite@5.23.0 vega-embed@6.29.0; do
  name=${spec%@*}; ver=${spec##*@}
  vdir="$here/third_party/$name"
  if [ ! -f "$vdir/build/$name.min.js" ] || ! grep -q "\"version\": \"$ver\"" "$vdir/package.json"; then
    echo "setup: fetching $spec from npm"
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null && tar xzf "$name-$ver.tgz")
    mkdir -p "$here/third_party"
    rm -rf "$vdir"
    mv "$tmp/package" "$vdir"
    rm -rf "$tmp"
  fi
  [ -s "$vdir/build/$name.min.js" ] || { echo "setup: $vdir/build/$name.min.js missing" >&2; exit 1; }
done
echo "setup: ok"
