#!/usr/bin/env bash
# Installs Debian's Slurm (slurmctld, slurmd, slurm-client) and MUNGE for tests/e2e/e2e_slurm.sh.
# Idempotent: installs only what is missing. Exit 0 when everything is there afterwards, 1 when
# it could not be installed (not root, or no Debian registry), with the reason on stderr.
# The packages' own services are not needed: the test starts private daemons itself.
set -uo pipefail
pkgs=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm setup: ${missing[*]} missing and not root, cannot install them" >&2
  exit 1
fi
echo "slurm setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=300 -o Acquire::Retries=2 -o Acquire::http::Timeout=30)
if ! timeout 600 apt-get install -y -qq --no-install-recommends "${apt_opts[@]}" "${missing[@]}" >/dev/null; then
  # the package lists may be missing or stale on a fresh machine
  timeout 300 apt-get update -qq "${apt_opts[@]}" &&
    timeout 600 apt-get install -y -qq --no-install-recommends "${apt_opts[@]}" "${missing[@]}" >/dev/null ||
    { echo "slurm setup: apt-get could not install ${missing[*]}" >&2; exit 1; }
fi
for c in slurmctld slurmd sbatch squeue sinfo scontrol scancel munged munge unmunge; do
  command -v "$c" >/dev/null 2>&1 || { echo "slurm setup: $c is missing after the install" >&2; exit 1; }
done
echo "slurm setup: ok"
