#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test command (make check): install what is missing, make the two
# test kernels once per machine (distro: Debian's, fetched; debug: built),
# then run every test.  Last line printed: "N passed, N failed".  Extra
# arguments go to tests/run.py.
set -euo pipefail
cd "$(dirname "$0")/.."

# Knobs for debugging by hand that would weaken or redirect the suite
# (kernel arguments such as kmemleak=off, another accelerator or cache,
# fewer parallel VMs, another object tree, compiler flags such as -w):
# make check runs as CI does, whatever the caller's environment says.
for v in LNET_KERNEL_ARGS LNET_ACCEL LNET_CACHE LNET_VM_SLOTS LNET_VM_BESIDE BUILD KCFLAGS; do
	if [ -n "${!v+set}" ]; then
		echo "check: ignoring $v=${!v} (make check runs as CI does)" >&2
		unset "$v"
	fi
done
# make passes its command-line variables down through MAKEFLAGS.
unset MAKEFLAGS MFLAGS

scripts/deps.sh
scripts/distro-kernel.sh >/dev/null
scripts/test-kernel.sh debug >/dev/null
exec tests/run.py "$@"
