#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness must catch what it promises to: node "splat" plants every
# kind of kernel report the splat scanner knows (tests/harness/splat.py),
# one per section, node "hang" never finishes, node "exit" fails its
# script, node "leftover" ends its scenario with lnet.ko still loaded
# (guest-init.sh must fail it: the next scenario would not start clean).
# Each section starts with a "plant N WHERE" line: WHERE says
# where the scanner must see it (console, or dmesg only, below the
# console's log level) or "clean", a report-like line it must not count.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

n=0
plant() {
	local where=$1
	shift
	n=$((n + 1))
	echo "LNET-TEST: plant $n $where" > /dev/kmsg
	for line in "$@"; do
		echo "$line" > /dev/kmsg
	done
}

splat_node() {
	plant console "<4>BUG: planted"
	plant console "<4>WARNING: CPU: 0 PID: 1 at planted.c:1 planted+0x0/0x10"
	plant console "<4>Oops: 0000 [#1] PREEMPT SMP"
	plant console "<0>Kernel panic - not syncing: planted"
	plant console "<4>kernel BUG at planted.c:1!"
	plant console "<4>general protection fault, probably for non-canonical address 0xdead: 0000 [#1]"
	plant console "<4>divide error: 0000 [#1] PREEMPT SMP"
	plant console "<4>stack segment: 0000 [#1] PREEMPT SMP"
	plant console "<4>invalid opcode: 0000 [#1] PREEMPT SMP"
	plant console "<4>int3: 0000 [#1] PREEMPT SMP"
	plant console "<3>BUG: KASAN: slab-out-of-bounds in planted+0x0/0x10"
	plant console "<3>UBSAN: shift-out-of-bounds in planted.c:1:1"
	plant console "<4>WARNING: possible circular locking dependency detected"
	plant console "<4>WARNING: possible recursive locking detected"
	plant console "<4>WARNING: inconsistent lock state"
	plant console "<4>WARNING: suspicious RCU usage"
	plant console "<3>INFO: trying to register non-static key."
	plant console "<3>INFO: task planted:1 blocked for more than 60 seconds."
	plant console "<3>list_add corruption. prev->next should be next (ffff888000000000)"
	plant console "<3>list_del corruption, ffff888000000000->next is LIST_POISON1"
	plant console "<0>unregister_netdevice: waiting for eth9 to become free. Usage count = 2"
	plant console "<4>kmemleak: Cannot allocate a kmemleak_object structure"
	plant console "<4>kmemleak: Memory pool empty, consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE"
	plant console "<4>planted: page allocation failure: order:5, mode:0x40cc0" \
		"<4>Call Trace:" "<4> lnet_planted+0x0/0x10 [lnet]"
	plant dmesg "<6>kmemleak: Kernel memory leak detector disabled"
	plant dmesg "<6>BUG: below the console log level"
	# A kmemleak report is user output (the guest cats it after its scan).
	plant console
	echo "unreferenced object 0xffff888000000000 (size 64):" > /dev/console
	# A kernel line glued after user output that has no newline yet.
	plant console
	printf 'user output without a newline ' > /dev/console
	echo "<4>BUG: glued" > /dev/kmsg
	plant clean "<4>planted: page allocation failure: order:5, mode:0x40cc0" \
		"<4>Call Trace:" "<4> virtnet_planted+0x0/0x10 [virtio_net]"
	plant clean "<4>rcu: INFO: rcu_sched self-detected stall on CPU"
	plant clean "<6>a BUGS: is not a BUG marker"
	echo "$n" > "$RESULTS/plants"
}

case "$LNET_NODE" in
splat)	splat_node ;;
hang)	nap 100000 ;;
exit)	fail "deliberate failure" ;;
leftover) insmod "$LNET_MODDIR/lnet/lnet.ko" ;;
esac
