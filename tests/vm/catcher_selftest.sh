#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug kernel's catchers must catch in our code: UBSAN instruments
# our modules (Kbuild), so lnet's debugfs hook test_ubsan, asked for a
# 40-bit shift and element 40 of a 32-element array, must make UBSAN
# report both, naming lnet/debugfs.c; DEBUG_OBJECTS must report the armed
# timer test_odebug frees.  The node checks its own dmesg;
# the harness must then fail the run with a kernel splat
# (catcher_selftest.py checks that it did, and why).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

[ "${LNET_DEBUG_KERNEL:-0}" = 1 ] || fail "runs on the debug kernel only"
insmod "$LNET_MODDIR/lnet/lnet.ko" || fail "insmod lnet"
hook=/sys/kernel/debug/lnet/test_ubsan
[ -e $hook ] || fail "$hook missing"
echo 40 > $hook || fail "the write to $hook failed"
out=$(dmesg)
for what in shift-out-of-bounds array-index-out-of-bounds; do
	[[ "$out" == *"UBSAN: $what in "*"lnet/debugfs.c"* ]] ||
		fail "no UBSAN $what report naming lnet/debugfs.c"
done
log "UBSAN reported both"
# DEBUG_OBJECTS tracks our timers: test_odebug frees one still armed.
hook=/sys/kernel/debug/lnet/test_odebug
[ -e $hook ] || fail "$hook missing"
echo 1 > $hook || fail "the write to $hook failed"
out=$(dmesg)
[[ "$out" == *"ODEBUG: free active "*"object type: timer_list hint: lnet_test_odebug_timer"* ]] ||
	fail "no ODEBUG report of the freed active timer"
[[ "$out" != *"test_odebug timer ran"* ]] || fail "the freed timer ran"
log "ODEBUG reported the freed active timer"
rmmod lnet || fail "rmmod lnet"
