#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load and unload the modules 20 times (10 on the debug kernel, where each
# round is ~20x slower); on the debug kernel the harness then runs a
# kmemleak scan and fails the test on any report.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

rounds=20
[ "${LNET_DEBUG_KERNEL:-0}" = 1 ] && rounds=10
for i in $(seq 1 "$rounds"); do
	lnet_load
	for m in $LNET_MODULES; do
		m=${m##*/}; m=${m%.ko}
		module_loaded "$m" || fail "round $i: $m not loaded"
	done
	lnet_unload
done
module_loaded lnet && fail "lnet still loaded"
log "$rounds load/unload rounds done"
