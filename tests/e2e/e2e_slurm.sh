#!/usr/bin/env bash
# Scale-out on a real Slurm: installs Debian's Slurm and MUNGE if missing
# (tests/e2e/slurm_setup.sh), starts a private single-node cluster on localhost (munged, slurmctld,
# slurmd as root, state under a temporary directory, free ports), submits
# examples/slurm-evolve.sh as a job array, merges the shards with a dependent `genebench merge`
# job, and compares the result byte for byte (each task's time_s aside) with one `evolve` of the
# same seed and generations on this machine. The daemons (found by their pid files) and the
# jobs are stopped and the directory removed on any exit.
# Skipped (exit 77) only when the packages are missing and cannot be installed.
set -u
gb=${GENEBENCH:?}
root=${GB_SOURCE_ROOT:?}
if ! "$root/tests/e2e/slurm_setup.sh"; then
  echo "SKIP: Debian's slurmctld, slurmd, slurm-client and munge are not installed and could not be (see above)"
  exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the private Slurm daemons must run as root (slurmd starts jobs as their user)"
  exit 77
fi
py=/usr/bin/python3
# 0711: munged wants every directory above its socket searchable by all.
tmp=$(mktemp -d /tmp/gb_e2e_slurm.XXXXXX)
chmod 711 "$tmp"
export SLURM_CONF=$tmp/etc/slurm.conf
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
untimed() { sed -E 's/"time_s":[0-9.eE+-]+,//' "$1"; }
stop_pid() { # pid file, name: TERM, then KILL after 10 s; only a pid that is still that daemon
  local f=$1 name=$2 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  grep -qs "$name" "/proc/$pid/comm" || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
}
cleanup() {
  if [ -s "$tmp/run/slurmctld.pid" ]; then
    timeout 20 scancel --quiet --full --signal=KILL --user=root 2>/dev/null
    for _ in $(seq 30); do [ -z "$(timeout 10 squeue -h 2>/dev/null)" ] && break; sleep 1; done
  fi
  stop_pid "$tmp/run/slurmd.pid" slurmd
  stop_pid "$tmp/run/slurmctld.pid" slurmctld
  stop_pid "$tmp/run/munged.pid" munged
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
die() { echo "FAIL: $1"; for f in "$tmp"/log/*.log; do echo "---- $f (tail)"; tail -n 20 "$f"; done; exit 1; }

mkdir -p "$tmp"/{etc,run,log,state,spool,munge,out,work}
chmod 755 "$tmp/run" # the MUNGE socket's directory
chmod 700 "$tmp/munge"
# ---- MUNGE: a private key and socket
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --socket="$tmp/run/munge.socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/run/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" || die "munged did not start"
timeout 10 munge -n -S "$tmp/run/munge.socket" | timeout 10 unmunge -S "$tmp/run/munge.socket" >/dev/null ||
  die "munge credentials do not round-trip"

# ---- slurm.conf: one node on localhost, no cgroups, no accounting database
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
read -r ctld_port slurmd_port < <("$py" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*[x.getsockname()[1] for x in s])')
cat >"$SLURM_CONF" <<EOF
ClusterName=gbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/run/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MaxArraySize=64
NodeName=gbnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=gbtest Nodes=gbnode Default=YES MaxTime=30 State=UP
EOF
echo "---- slurm.conf"
cat "$SLURM_CONF"
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N gbnode || die "slurmd did not start"
state=
for _ in $(seq 120); do
  state=$(timeout 10 sinfo -h -n gbnode -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
echo "---- sinfo"
timeout 10 sinfo
[ "$state" = idle ] || die "the node did not become idle (state '$state')"
check "a one-node cluster is up (sinfo: gbnode idle)" '[ "$state" = idle ]'

# ---- the job array: 4 tasks (all three test kinds), 2 shards of 1 CPU, lint on
awk 'NR<=2 || NR==11 || NR==14' "$root/examples/benchmark.jsonl" >"$tmp/work/bench.jsonl"
export GENEBENCH=$gb GENERATIONS=2 # passed to the jobs by sbatch
cd "$tmp/work" || die "cd"
echo "---- sbatch"
array=$(timeout 30 sbatch --parsable --array=1-2 --cpus-per-task=1 --mem=500M --time=20 \
  --output="$tmp/out/slurm-%A_%a.out" "$root/examples/slurm-evolve.sh" bench.jsonl shards 7)
echo "array job: $array"
[[ "$array" =~ ^[0-9]+$ ]] || die "sbatch did not submit the array"
merge=$(timeout 30 sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --time=5 --mem=200M \
  --output="$tmp/out/merge-%j.out" --wrap "\"$gb\" merge -o hardened.jsonl shards/shard-*.jsonl")
echo "merge job: $merge (afterok:$array)"
[[ "$merge" =~ ^[0-9]+$ ]] || die "sbatch did not submit the merge"
echo "---- squeue"
timeout 10 squeue -o '%.12i %.10j %.9T %.10M %.6C %.8m %R'
# Meanwhile, the same seed and generations on this machine, in one run.
timeout 900 "$gb" evolve bench.jsonl -o single.jsonl --seed 7 --generations 2 -j "$cpus" --quiet
check "the single-machine evolve succeeds" '[ $? -eq 0 ]'
# Wait for both jobs to leave the queue (the merge job ends last; 15 min at most).
left=
for _ in $(seq 900); do
  left=$(timeout 10 squeue -h -j "$array,$merge" -o %i 2>/dev/null)
  [ -z "$left" ] && break
  sleep 1
done
[ -z "$left" ] || die "jobs still queued or running after 15 minutes: $left"
echo "---- job completion log (sacct needs slurmdbd; Slurm's jobcomp/filetxt records each job instead)"
cat "$tmp/log/jobcomp.txt"
for f in "$tmp"/out/*.out; do echo "---- $(basename "$f")"; cat "$f"; done
ncompleted=$(grep -c 'JobState=COMPLETED' "$tmp/log/jobcomp.txt")
check "the 2 array tasks and the merge job completed" '[ "$ncompleted" -eq 3 ]'
check "both array tasks ran under Slurm (ArrayTaskId 1 and 2)" \
  'grep -q "ArrayJobId=$array ArrayTaskId=1 " "$tmp/log/jobcomp.txt" && grep -q "ArrayJobId=$array ArrayTaskId=2 " "$tmp/log/jobcomp.txt"'
check "each shard holds its tasks (i mod 2)" \
  '[ "$(wc -l <shards/shard-1.jsonl)" -eq 2 ] && [ "$(wc -l <shards/shard-2.jsonl)" -eq 2 ]'
echo "---- comparison (time_s stripped)"
if cmp <(untimed hardened.jsonl) <(untimed single.jsonl); then
  echo "hardened.jsonl (Slurm: 2 shards + merge) and single.jsonl (one machine) are byte-identical:"
  untimed hardened.jsonl | sha256sum
  sed -E 's/^\{"id":"([^"]*)".*"before":\{"rc":([0-9.]+).*"after":\{"rc":([0-9.]+).*/  \1: RC \2 -> \3/' hardened.jsonl
fi
check "Slurm shards merged == one machine, byte for byte (but time_s)" \
  '[ -s hardened.jsonl ] && cmp -s <(untimed hardened.jsonl) <(untimed single.jsonl)'
check "every task was hardened under Slurm" '[ "$(wc -l <hardened.jsonl)" -eq 4 ]'
check "the merge wrote its summary" 'grep -q "\"tasks\"" hardened.summary.json'
# The summaries differ in the run facts (time, seed and budget are the merge's), not in what the
# tasks say: the per-metric "metrics" object is the same from shards as from one machine.
check "the merged summary's per-metric \"metrics\" equal the single run's" \
  '/usr/bin/python3 -c "import json,sys; a,b=(json.load(open(f))[\"metrics\"] for f in sys.argv[1:]); sys.exit(a!=b)" hardened.summary.json single.summary.json'
cd / || true
exit $fail
