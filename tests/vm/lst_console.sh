#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# LNet selftest driven by a console that is not a test node (spec
# lnet-selftest.md 8.2, between our own nodes), over ksocklnd: c is lst's
# console and in no group, a and b are the test nodes.
#  - console_only: groups of a and b; ping shows both Active in c's
#    session;
#  - brw_both_ways: one batch, data from a to b and from b to a (brw
#    write and read with check=full at 1 MiB, 4 KiB and 4000 B at
#    off=8, check=simple, check=discard and skip_rx_copy in stock lst's
#    words) and ping with D:S 1:2 over both nodes: show_error clean on
#    both (the node that received the data checked each byte), the data
#    moved between a and b (their LNet counters), none of it through c;
#  - hijack: a, as a second console, cannot take b from c's session
#    without --force (b is Busy for a, still Active in c's session);
#    with new_session --force it takes b (Busy for c), and once a's
#    session ended c's update_group --refresh takes b back;
#  - stat_remote: c's stat of a write from a to b shows a's W and b's R;
#  - node_leaves: b unloads lnet_selftest under that running write: c
#    sees a's brw errors and b Down, stop --force ends the batch, b
#    loaded again is Active after update_group --refresh;
#  - end_session: REMOVE_SESSION reached both: a new session without
#    --force takes them (Active, not Busy).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
LST_LND=sock
. "$LNET_TOP/tests/vm/lst_lib.sh"

A=$(nid_of a)
B=$(nid_of b)
M=1048576
# 16 RPCs per test below (2 units of 8); what each node sends of them
# (a write's data leaves the client, a read's the server)
A_SENDS=$((16 * (M + M + 65536)))
B_SENDS=$((16 * (4096 + 4000 + 4000 + 8192 + 8192)))
lst_load
barrier up

# The test nodes: their own LNet counters say where the data went.
if [ "$LNET_NODE" != c ]; then
	# the data phases wait for an RPC as long as stock does (a loaded
	# debug host may stall one past lst_load's 5 s without losing it)
	set_rpc_timeout 64
	sent=$(lnet_stat send_length)
	rcvd=$(lnet_stat recv_length)
	barrier data 600
	barrier data-done 600
	if [ "$LNET_NODE" = a ]; then
		grew send_length "$sent" $A_SENDS
		grew recv_length "$rcvd" $B_SENDS
	else
		grew send_length "$sent" $B_SENDS
		grew recv_length "$rcvd" $A_SENDS
	fi
	if [ "$LNET_NODE" = a ]; then
		phase hijack
		# a's own console: b is held by c's session
		LST_SESSION=77 run new_session intruder
		LST_SESSION=77 refused "Can't add 1 nodes" add_group b "$B"
		LST_SESSION=77 run list_group --busy b
		want "12345-$B: Busy"
		LST_SESSION=77 run end_session
		LST_SESSION=78 run new_session --force thief
		LST_SESSION=78 run add_group b "$B"
		LST_SESSION=78 run list_group --active b
		want "12345-$B: Active"
	fi
	barrier stolen 600
	barrier stolen-seen 600		# c saw b in a's session
	if [ "$LNET_NODE" = a ]; then
		LST_SESSION=78 run end_session
	fi
	barrier hijacked 600
	# b's leaving fails a's RPCs to it in 5 s
	[ "$LNET_NODE" = a ] && set_rpc_timeout 5
	barrier leave 600		# the forever write from a to b runs
	if [ "$LNET_NODE" = b ]; then
		rmmod lnet_selftest || fail "rmmod lnet_selftest under a batch"
	fi
	barrier left 600
	barrier down-seen 600		# c saw b Down
	if [ "$LNET_NODE" = b ]; then
		insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=5 ||
			fail "reload lnet_selftest"
	fi
	barrier back 600
	barrier done 600
	lst_unload
	exit 0
fi

phase console_only
sent=$(lnet_stat send_length)
rcvd=$(lnet_stat recv_length)
run new_session --timeout 600 lstc
run add_group a "$A"
run add_group b "$B"
run add_group ab "$A" "$B"
run list_group
want "Total 3 groups"
run ping --group ab
want "12345-$A: Active [session: lstc"
want "12345-$B: Active [session: lstc"

phase brw_both_ways
barrier data
run add_batch data
for t in "--from a --to b brw write size=1M check=full" \
	 "--from b --to a brw read size=1M check=full" \
	 "--from b --to a brw write size=4k check=full" \
	 "--from a --to b brw read size=4000 off=8 check=full" \
	 "--from b --to a brw write size=4000 off=8 check=full" \
	 "--from a --to b brw w size=64k check=simple" \
	 "--from a --to b brw size=8k check=discard" \
	 "--from b --to a brw w size=8k skip_rx_copy"; do
	# shellcheck disable=SC2086 # the test's words
	run add_test --batch data --concurrency 2 --loop 8 $t
done
run add_test --batch data --concurrency 2 --loop 8 --distribute 1:2 --from ab --to ab ping
run list_batch data
# stock lst's words: w is write, read the default, skip_rx_copy discard
want "brw write size=65536 off=0 check=simple"
want "brw read size=8192 off=0 check=discard"
want "brw write size=8192 off=0 check=discard"
want "Test 9 (ping)"
run run data
batch_idle data
run show_error ab
want "Total 0 error nodes in ab"
# c moved RPC headers and small bulks only (TEST's destination lists,
# the stat replies): no 1 MiB of the data went through it.
now_s=$(($(lnet_stat send_length) - sent))
now_r=$(($(lnet_stat recv_length) - rcvd))
log "c sent $now_s bytes, received $now_r"
[ $((now_s + now_r)) -lt $M ] ||
	fail "the console moved $now_s + $now_r bytes: data went through it"
barrier data-done

phase hijack
barrier stolen
run ping --group ab
want "12345-$A: Active [session: lstc"
want "12345-$B: Busy [session: thief"
barrier stolen-seen
barrier hijacked
run update_group b --refresh
run ping --group ab
want "12345-$A: Active [session: lstc"
want "12345-$B: Active [session: lstc"

phase stat_remote
run add_batch flow
flow_size=1M
[ "$LNET_DEBUG_KERNEL" = 1 ] && flow_size=256k
run add_test --batch flow --concurrency 4 --from a --to b brw write size=$flow_size check=full
run run flow
# a sample that starts before the first RPC moved shows 0: a few tries
for i in 1 2 3 4 5; do
	run stat --count 1 --delay 2 --bw a b
	w=$(echo "$OUT" | sed -n '/of a\]/,/of b\]/s/^\[W\] Avg: *\([0-9.]*\).*/\1/p')
	r=$(echo "$OUT" | sed -n '/of b\]/,$s/^\[R\] Avg: *\([0-9.]*\).*/\1/p')
	log "sample $i: a writes at ${w:-?} MiB/s, b reads at ${r:-?} MiB/s"
	awk -v w="${w:-0}" -v r="${r:-0}" 'BEGIN { exit !(w > 0 && r > 0) }' &&
		break
done
awk -v w="${w:-0}" -v r="${r:-0}" 'BEGIN { exit !(w > 0 && r > 0) }' ||
	fail "no write seen from a to b: a W ${w:-?}, b R ${r:-?}"

phase node_leaves
errs=$(brw_errors_of a)
barrier leave
barrier left
# a's RPCs to b fail now (rpc_timeout 5 s): errors counted, no hang
for i in $(seq 1 60); do
	[ "$(brw_errors_of a)" -gt "$errs" ] && break
	nap 1
done
[ "$(brw_errors_of a)" -gt "$errs" ] || fail "a counted no brw error with b gone"
# no framework service on b: c's RPC times out, b is Down
run ping --group b --timeout 6
want "12345-$B: Down"
run stop --force flow
want "flow is stopped"
barrier down-seen
barrier back
run update_group b --refresh
run ping --group b
want "12345-$B: Active [session: lstc"

phase end_session
run end_session
want "session is ended"
run new_session again
run add_group ab "$A" "$B"
run list_group --active ab
want "12345-$A: Active"
want "12345-$B: Active"
run end_session
barrier done
lst_unload
