# Sourced by the e2e_equiv*.sh scripts: `. equiv_env.sh NAME` sets gb (the binary), data
# (tests/data/NAME), tmp (removed on exit; TMPDIR under it, reachable by the runs' dedicated uid
# when run as root), py (Debian's interpreter), fail and check(), and moves to / so that no
# path of the caller's working directory leaks into a run.
gb=${GENEBENCH:?}
data=${GB_SOURCE_ROOT:?}/tests/data/$1
tmp=$(mktemp -d)
chmod 755 "$tmp" # as root, the runs' dedicated uid must reach the pool directory
export TMPDIR=$tmp/tmp
mkdir -p "$TMPDIR"
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
py=/usr/bin/python3
cd /
