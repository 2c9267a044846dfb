#!/usr/bin/env bash
# The layer rule (src/README.md): a source file may include headers from its own folder and
# from folders of a lower layer only. Folders of one layer (measure, inject, report) do not
# include each other. Prints every include that breaks the rule; exit 1 if there is any.
set -euo pipefail
root=${GB_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
declare -A rank=(
  [src/base]=0 [src/python]=1 [src/model]=2 [fitness]=3 [operators]=4 [src/runner]=5
  [nsga2]=6 [src/bench]=7 [src/doc]=8
  [src/measure]=9 [src/inject]=9 [src/report]=9 [src/eval]=9 [src/cli]=10 [src/tools]=0)
folder_of() { local d; d=$(dirname "$1"); echo "$d"; }
bad=0; n=0
while IFS= read -r f; do
  from=$(folder_of "$f")
  [ -n "${rank[$from]+x}" ] || { echo "unranked folder: $from ($f)"; bad=1; continue; }
  while IFS= read -r inc; do
    n=$((n + 1))
    [ "$inc" = gb_config.h ] && continue
    to=$(folder_of "$inc")
    if [ -z "${rank[$to]+x}" ]; then echo "$f: includes $inc from an unranked folder"; bad=1; continue; fi
    if [ "$to" != "$from" ] && [ "${rank[$to]}" -ge "${rank[$from]}" ]; then
      echo "$f (layer ${rank[$from]}, $from) includes $inc (layer ${rank[$to]}, $to)"; bad=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files 'src/*.[ch]' 'fitness/*.[ch]' 'operators/*.[ch]' 'nsga2/*.[ch]' 2>/dev/null || find src fitness operators nsga2 -name '*.[ch]')
echo "layers: $n includes checked"
exit $bad
