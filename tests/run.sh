#!/usr/bin/env bash
# Installs what is missing, builds genebench and runs the whole test suite (meson test).
set -euo pipefail
cd "$(dirname "$0")/.."
src/setup.sh
[ -f build/build.ninja ] || meson setup build
meson compile -C build
meson test -C build --print-errorlogs "$@"
