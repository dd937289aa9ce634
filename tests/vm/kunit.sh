#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load lnet.ko, then every KUnit suite module (or those in
# LNET_KUNIT_SUITES), and copy each suite's KTAP results from debugfs.
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
	insmod "$m" || fail "insmod $m"
	echo "$(basename "$m" .ko)" >> "$RESULTS/kunit/modules"
done
for d in /sys/kernel/debug/kunit/*/; do
	s=$(basename "$d")
	cp "$d/results" "$RESULTS/kunit/$s.ktap"
done
for m in $mods; do
	rmmod "$(basename "$m" .ko)"
done
lnet_unload
