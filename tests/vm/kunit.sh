#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load our modules, then every KUnit suite module (or those in
# LNET_KUNIT_SUITES), and keep the KTAP each one prints.  The kernel log is
# used rather than debugfs: 6.1's debugfs copy truncates a verbose case.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

lnet_load
mkdir -p "$RESULTS/kunit"
if [ -n "${LNET_KUNIT_SUITES:-}" ]; then
	mods=""
	for s in $LNET_KUNIT_SUITES; do
		mods="$mods $LNET_MODDIR/kunit/${s%_test}_test.ko"
	done
else
	mods=$(ls "$LNET_MODDIR"/kunit/*.ko)
fi
for m in $mods; do
	[ -f "$m" ] || fail "no such suite module: $m"
	log "loading $(basename "$m")"
	# The kernel log is kept whole (the harness scans it at the end):
	# the suite's KTAP is what the log gained while its module loaded.
	before=$(dmesg | wc -l)
	insmod "$m" || fail "insmod $m"
	dmesg -t | tail -n +$((before + 1)) > "$RESULTS/kunit/$(basename "$m" .ko).ktap"
	basename "$m" .ko >> "$RESULTS/kunit/modules"
done
for m in $mods; do
	rmmod "$(basename "$m" .ko)"
done
lnet_unload
