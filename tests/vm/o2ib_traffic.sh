#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ko2iblnd between two VMs on soft-RoCE (rxe0 on eth0), both nodes at once,
# each towards the other:
#  1. lnetctl ping and LNet pings;
#  2. PUT and GET of 0 B, 1 B, the IMMEDIATE limit (3976 B = 4096 - 120)
#     and one byte more (3977 B: the first RDMA size), 4096 B, 64 KiB,
#     64 KiB + 1, 1 MiB - 4 KiB and 1 MiB, data checked at both ends.
#     lnet_test's initiator buffers are kmalloc'ed: page-aligned from
#     4 KiB up, at arbitrary offsets in a page below; a GET reads the
#     target's page-array source at a 512-byte multiple that changes with
#     every GET (always 0 for 1 MiB), so unaligned RDMA sources are
#     covered on the GET side; then again from initiator buffers 100
#     bytes into a page (lnet_test buf_offset): unaligned PUT sources and
#     GET sinks, 1 MiB spanning 257 pages (one MR holds it all);
#  3. more messages in flight than the queue depth (peer_credits):
#     1,000 small PUTs and GETs at once (IMMEDIATE), 64 PUTs and GETs of
#     4 KiB at once (RDMA);
#  4. the target saw every PUT intact, no LNet message is left allocated;
#  5. b unloads its modules: a's PUTs fail at once, 4 at once and 6 one
#     after another (each its own refused attempt, no back-off); b loads
#     them again
#     (a new incarnation) with an MR pool of one MR (fmr_pool_size=1,
#     fmr_flush_trigger=1: grown only once exhausted, fmr_pool_max=2:
#     never beyond 2) while a keeps its NI: traffic works again both ways;
#  6. 8 sinks at once on b's pool of at most 2 MRs (a PUTs to b, b GETs
#     from a, 1 MiB): messages that find the pool empty wait for an MR
#     (b's mr_waits > 0), none fails or times out;
#  7. a sink of gapped fragments is refused with a PUT_NAK;
#  8. PUTs from page arrays overwritten at their SEND event, over a link
#     that delays, reorders and loses packets, land intact (reuse_check);
#  9. the modules unload, and the RDMA resources (QPs, CQs, MRs, PDs)
#     are back to what they were before ko2iblnd loaded.
# The debug kernel does fewer operations of each.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"

COUNT=10
MANY=1000
[ "$LNET_DEBUG_KERNEL" = 1 ] && COUNT=3 MANY=200
# The inline limit: an IMMEDIATE message carries at most this payload.
INLINE=$((4096 - 120))
SIZES="0 1 $INLINE $((INLINE + 1)) 4096 65536 65537 $((1048576 - 4096)) 1048576"
USIZES="1 $INLINE $((INLINE + 1)) 4096 65537 1048576"

# sizes NID: PUT and GET of every size in $SIZES, data checked.
sizes() {
	local op size
	for op in put get; do
		for size in $SIZES; do
			lt_ok "$op" "$1" "$size" "$COUNT" 4
			[ "$(field done)" = "$COUNT" ] &&
				[ "$(field bytes)" = $((size * COUNT)) ] ||
				fail "$op $size: $RESULT"
		done
	done
	log "PUT/GET 0 B .. 1 MiB to $1: OK, data checked"
	echo 100 > /sys/module/lnet_test/parameters/buf_offset
	for op in put get; do
		for size in $USIZES; do
			lt_ok "$op" "$1" "$size" "$COUNT" 4
			[ "$(field done)" = "$COUNT" ] &&
				[ "$(field offset)" = 100 ] &&
				[ "$(field bytes)" = $((size * COUNT)) ] ||
				fail "$op $size at offset 100: $RESULT"
		done
	done
	echo 0 > /sys/module/lnet_test/parameters/buf_offset
	log "PUT/GET 1 B .. 1 MiB from buffers at offset 100 to $1: OK"
}

# many NID: more operations in flight than the queue depth.
many() {
	local op
	for op in put get; do
		lt_ok "$op" "$1" 64 "$MANY" "$MANY"
		[ "$(field done)" = "$MANY" ] || fail "$MANY ${op}s: $RESULT"
		log "$MANY ${op}s of 64 B in flight: reordered $(field reordered)"
		lt_ok "$op" "$1" 4096 $((MANY / 4)) 64
		[ "$(field done)" = $((MANY / 4)) ] ||
			fail "$((MANY / 4)) ${op}s of 4 KiB: $RESULT"
	done
	log "more in flight than the queue depth ($depth) to $1: OK"
}

rxe_setup eth0
rdma0=$(rdma_resources)
log "RDMA resources before ko2iblnd: $rdma0"
o2ib_load
depth=$(cat /sys/module/ko2iblnd/parameters/peer_credits 2>/dev/null || echo 8)
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
"$LNETCTL" net show
barrier up

peer=$(peers)
nid=$(nid_of "$peer")
ping_ok "$nid" 10
lt_ok ping "$nid" 10
[ "$(field done)" = 10 ] || fail "ping: $RESULT"
log "ping $nid: OK"
barrier pinged

sizes "$nid"
barrier sizes-done 600
many "$nid"
barrier many-done 600

# As a target: every PUT landed intact.
t=$(cat "$TARGET")
log "target: $t"
[ "$(field bad "$t")" = 0 ] && [ "$(field failed "$t")" = 0 ] ||
	fail "PUTs landed corrupt or failed: $t"
# Each PUT the peer started, aligned and at offset 100, exactly once.
nsizes=$(echo "$SIZES $USIZES" | wc -w)
want=$((nsizes * COUNT + MANY + MANY / 4))
[ "$(field puts "$t")" = "$want" ] || fail "PUTs landed: want $want: $t"
lnet_idle
log "ko2iblnd: $(o2ib_counters)"
for c in rnr credit_overflow unknown_cookie rx_stale wc_errors tx_timeout \
	 rx_bad_lnet_hdr rx_truncated connack_bad mr_map_failed; do
	[ "$(counter "$O2IB_STATS" "$c")" = 0 ] || { diag; fail "$c is not 0"; }
done
barrier checked

# b reloads its modules, now with the smallest MR pool (one MR, grown
# only once exhausted, to 2 at most); a keeps its NI and must take the
# new b.
if [ "$LNET_NODE" = b ]; then
	o2ib_unload
	log "modules unloaded"
	barrier b-gone
	barrier a-tried
	o2ib_load fmr_pool_size=1 fmr_flush_trigger=1 fmr_pool_max=2
	echo 300 > /sys/module/lnet_test/parameters/op_timeout
	echo serve > "$RUN" || fail "serve"
	log "modules loaded again, MR pool of 1, at most 2"
	barrier b-back
else
	barrier b-gone
	# b is away: a PUT fails cleanly, it does not hang.
	lt put "$nid" 4096 4 4
	[ "$(field done)" = 4 ] && [ "$(field errors)" = 4 ] &&
		[ "$(field timeouts)" = 0 ] ||
		fail "PUTs to an unloaded node: $RESULT"
	# One after another, each PUT starts a connection attempt of its
	# own, refused at once (no listener): no back-off after a failed
	# attempt, as stock's o2iblnd (o2iblnd.rst).  With a back-off
	# doubling from 1 s the sixth would wait 16 s.
	cf0=$(counter "$O2IB_STATS" tx_connect_failed)
	lt put "$nid" 4096 6 1
	[ "$(field done)" = 6 ] && [ "$(field errors)" = 6 ] &&
		[ "$(field timeouts)" = 0 ] && [ "$(field status)" != 0 ] ||
		fail "PUTs one by one to an unloaded node: $RESULT"
	ms=$(($(field elapsed_ns) / 1000000))
	[ "$ms" -lt 4000 ] ||
		fail "6 PUTs to an unloaded node took $ms ms: a back-off?"
	cf=$(counter "$O2IB_STATS" tx_connect_failed)
	[ -n "$cf0" ] && [ "$cf" -ge $((cf0 + 6)) ] ||
		fail "6 PUTs failed, not by their connection attempts: tx_connect_failed $cf0 -> $cf"
	log "6 PUTs to an unloaded node failed one by one in $ms ms (tx_connect_failed $cf0 -> $cf)"
	barrier a-tried
	barrier b-back
	# b is back: the next PUT connects at once, no back-off to wait.
	lt_ok put "$nid" 64 1 1
	ms=$(($(field elapsed_ns) / 1000000))
	[ "$ms" -lt 3000 ] ||
		fail "the first PUT after b's reload took $ms ms: a back-off?"
	log "first PUT after b's reload: $ms ms"
fi
ping_ok "$nid" 15
lt_ok put "$nid" 64 100 100
lt_ok get "$nid" "$((INLINE + 1))" 4 1
log "traffic after b's reload: OK"
barrier reloaded 600

# b's pool of at most 2 MRs against 8 sinks at once on b (a's PUTs to b, b's
# GETs from a): a message that finds the pool empty waits in its
# connection's queue until an MR is free or the pool has grown; none
# fails, none waits for op_timeout.  Then the same again.
if [ "$LNET_NODE" = a ]; then op="put"; else op="get"; fi
lt_ok "$op" "$nid" 1048576 16 8
[ "$(field timeouts)" = 0 ] || fail "$op with b's pool of 2 MRs: $RESULT"
barrier pool-done 600
if [ "$LNET_NODE" = b ]; then
	waits=$(counter "$O2IB_STATS" mr_waits)
	failed=$(counter "$O2IB_STATS" mr_map_failed)
	log "pool of 2 MRs: mr_waits $waits, mr_map_failed $failed"
	[ -n "$waits" ] && [ -n "$failed" ] ||
		fail "no mr_waits or mr_map_failed counter in $O2IB_STATS"
	[ "$waits" -gt 0 ] ||
		fail "8 sinks at once never found the pool of 2 MRs empty"
	[ "$failed" = 0 ] || fail "MR maps failed: $failed"
fi
lt_ok "$op" "$nid" 1048576 16 8
log "$op 16 x 1 MiB again on the pool of 2 MRs: OK"
barrier pool-checked 600
# Since b's reload: a's first PUT, 100 small PUTs each way, then a's 2 x
# 16 to b's pool.
if [ "$LNET_NODE" = b ]; then
	target_expect 133
else
	target_expect $((want + 100))
fi

# Keepalive NOOPs of an idle connection.
o2ib_keepalive_check
barrier keepalive-done 600

# A sink of gapped fragments (lnet_test sink_gap: 96 bytes left out of
# every page) is a fragment list one MR cannot map: b refuses the PUT
# with a PUT_NAK (-EINVAL, as Lustre's o2iblnd), a's PUT fails with an
# error status, the connection stays, and a PUT into whole pages works again.
gap_serve() {
	echo unserve > "$RUN" || fail "unserve"
	echo "$1" > /sys/module/lnet_test/parameters/sink_gap
	echo serve > "$RUN" || fail "serve with sink_gap $1"
}
[ "$LNET_NODE" = b ] && gap_serve 96
barrier gap-serve 600
if [ "$LNET_NODE" = a ]; then
	naks0=$(counter "$O2IB_STATS" put_naks)
	lt put "$nid" 65536 1 1
	[ "$(field errors)" = 1 ] && [ "$(field status)" != 0 ] &&
		[ "$(field timeouts)" = 0 ] ||
		fail "PUT into a gapped sink: $RESULT, want an error status"
	naks1=$(counter "$O2IB_STATS" put_naks)
	[ "$naks1" -gt "$naks0" ] ||
		fail "PUT into a gapped sink: no PUT_NAK ($naks0 -> $naks1)"
	log "PUT into a gapped sink: status $(field status), put_naks $naks0 -> $naks1"
fi
barrier gap-put 600
if [ "$LNET_NODE" = b ]; then
	[ "$(counter "$O2IB_STATS" mr_map_failed)" -ge 1 ] ||
		fail "gapped sink: mr_map_failed $(counter "$O2IB_STATS" mr_map_failed), want >= 1"
	gap_serve 0
fi
barrier gap-unserve 600
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$nid" 65536 4 2
	log "gapped sink refused with a PUT_NAK; whole pages again: OK"
fi
barrier gap-done 600
[ "$LNET_NODE" = a ] || target_expect 4

# A post the device refuses (the debugfs hook fails the next post of a
# message whose sink was just registered): the connection closes, the GET
# fails with an error, and its MR, whose registration never reached the
# device, is retired, not given to the next sink as if registered (on a
# real HCA the next LOCAL_INV would then fail and take down an unrelated
# connection).  Then GETs work again over a new connection.
phase post_failure
if [ "$LNET_NODE" = b ]; then
	r0=$(counter "$O2IB_STATS" mr_retired)
	echo 1 > /sys/kernel/debug/ko2iblnd/test_fail_post
	lt get "$nid" 65536 1 1
	[ "$(cat /sys/kernel/debug/ko2iblnd/test_fail_post)" = 0 ] ||
		fail "post failure: the hook was not used"
	[ "$(field errors)" = 1 ] && [ "$(field timeouts)" = 0 ] ||
		fail "GET whose post failed: $RESULT, want an error"
	r1=$(counter "$O2IB_STATS" mr_retired)
	[ "$r1" = $((r0 + 1)) ] ||
		fail "the MR of the failed post: mr_retired $r0 -> $r1, want +1"
	ping_ok "$nid" 10
	lt_ok get "$nid" 65536 4 2
	log "failed post: GET failed, its MR retired ($r0 -> $r1), GETs again: OK"
fi
barrier post-failure 600

# Send buffers reused at the SEND event: ko2iblnd may only complete a
# send once the HCA is done with its pages (RDMA and the DONE message).
# RoCE expects a lossless link (PFC): under loss rxe's retransmissions
# made 4 x 1 MiB take 50 s and end in timeouts, and an RC QP gives up
# after retry_count retransmissions of one packet in a row.  So delay,
# which keeps the HCA reading long after the post, and a little
# reordering (each one a retransmission from the PSN it missed).
phase buffer_reuse
reuse_check "$nid" 4 "delay 2ms reorder 0.2%"

lnet_idle
o2ib_unload
rdma1=$(rdma_resources)
log "RDMA resources after unload: $rdma1"
[ "$rdma1" = "$rdma0" ] ||
	fail "RDMA resources leaked: before '$rdma0', after '$rdma1'"
barrier done
log "o2ib traffic OK"
