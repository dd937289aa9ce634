#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load and unload the modules 20 times; on the debug kernel the harness then
# runs a kmemleak scan and fails the test on any report.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

for i in $(seq 1 20); do
	lnet_load
	for m in $LNET_MODULES; do
		m=$(basename "$m" .ko)
		grep -q "^$m " /proc/modules || fail "round $i: $m not loaded"
	done
	lnet_unload
done
grep -q '^lnet ' /proc/modules && fail "lnet still loaded"
log "20 load/unload rounds done"
