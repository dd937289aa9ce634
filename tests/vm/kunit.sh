#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load our modules, then every KUnit suite module (or those in
# LNET_KUNIT_SUITES), and keep the KTAP each one prints.  The kernel log is
# used rather than debugfs: 6.1's debugfs copy truncates a verbose case.
# The selftest suites (lst_*) need lnet_selftest.ko, which needs LNet
# configured: they run last, after "lnetctl lnet configure" (the others
# find LNet as a fresh load leaves it: lnet_ctl's life cycle wants that).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl

# load_suite MODULE: load one suite and keep what it printed.
# The kernel log is kept whole (the harness scans it at the end): a
# suite's KTAP is what the log gained while its module loaded, the lines
# after the first $log_seen: one dmesg per suite, the rest builtins (each
# process costs ~0.2 s on the debug kernel, and there are 36 suites).
load_suite() {
	local m=$1 name lines
	name=${m##*/}
	name=${name%.ko}
	[ -f "$m" ] || fail "no such suite module: $m"
	log "loading $name"
	insmod "$m" || fail "insmod $m"
	dmesg -t > /tmp/kunit-dmesg
	mapfile -t -s "$log_seen" lines < /tmp/kunit-dmesg
	log_seen=$((log_seen + ${#lines[@]}))
	printf '%s\n' "${lines[@]}" > "$RESULTS/kunit/$name.ktap"
	echo "$name" >> "$RESULTS/kunit/modules"
}

lnet_load
# The nidmap suites call lnet_nidmap.ko (its table and wire code).
nidmap_insmod
mkdir -p "$RESULTS/kunit"
# The lines of the kernel log read so far (load_suite).
log_seen=$(dmesg | wc -l)
if [ -n "${LNET_KUNIT_SUITES:-}" ]; then
	mods=""
	for s in $LNET_KUNIT_SUITES; do
		mods="$mods $LNET_MODDIR/kunit/${s%_test}_test.ko"
	done
else
	mods=$(ls "$LNET_MODDIR"/kunit/*.ko)
fi
lst_mods=""
for m in $mods; do
	case $(basename "$m") in
	lst_*) lst_mods="$lst_mods $m" ;;
	*) load_suite "$m" ;;
	esac
done
if [ -n "$lst_mods" ]; then
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" ||
		fail "insmod lnet_selftest.ko"
	for m in $lst_mods; do
		load_suite "$m"
	done
fi
for m in $mods; do
	rmmod "$(basename "$m" .ko)"
done
if [ -n "$lst_mods" ]; then
	rmmod lnet_selftest || fail "rmmod lnet_selftest"
	"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
fi
rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
lnet_unload
