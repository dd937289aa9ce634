#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Both nodes at once, each towards the other over ksocklnd (8 credits per
# NI and per peer, one connection of each type): lnetctl ping, PUT and GET
# of 0 B, 1 B, 4095 B, 4096 B, 16 KiB and 1 MiB with the data checked at
# both ends, then 1,000 small PUTs (and GETs) in flight at once: all
# complete, and the PUTs land and are acknowledged in the order they were
# sent, most of them having waited for credits while a blocked link
# held the credits in ksocklnd.  Then PUTs into gapped sinks, and PUTs
# whose buffers are overwritten at their SEND event over a lossy link
# (reuse_check).  Finally nothing is left allocated and the modules unload.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

STATS=/sys/kernel/debug/lnet/stats
COUNT=10
# Of 1,000 PUTs of 64 B (160 B with headers) at least this many wait
# for credits while the link is blocked: ksocklnd holds 8 and the socket
# buffer (4 KiB, tx_buffer_size) takes a couple of hundred (792 of 1,000
# were still allocated in LNet in a lean run).  None can complete (their
# ACKs cannot come back), so all 1,000 are in flight at once.
QUEUED_MIN=500
# The link is blocked for up to this many seconds.
BLOCK_SECS=20
# Fewer operations of each size on the debug kernel.
[ "$LNET_DEBUG_KERNEL" = 1 ] && COUNT=4

# No timeout may end a message while the link is blocked: sock_timeout,
# TCP keepalive and lnet_test's op_timeout are well above the block.
sock_load credits=8 peer_credits=8 conns_per_peer=1 tx_buffer_size=4096 \
	sock_timeout=300 keepalive_idle=600
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
"$LNETCTL" net show
barrier up

for peer in $(peers); do
	nid=$(nid_of "$peer")
	ping_ok "$nid" 5
	lt_ok ping "$nid" 10
	[ "$(field done)" = 10 ] || fail "ping: $RESULT"

	for op in put get; do
		for size in 0 1 4095 4096 16384 1048576; do
			lt_ok "$op" "$nid" "$size" "$COUNT" 4
			[ "$(field done)" = "$COUNT" ] &&
				[ "$(field bytes)" = $((size * COUNT)) ] ||
				fail "$op $size: $RESULT"
		done
	done
	log "PUT/GET 0 B .. 1 MiB to $nid: OK, data checked"

	# Only one node at a time blocks its link (the other's traffic
	# would stall too).
	barrier sizes-done
	[ "$LNET_NODE" = a ] || barrier "a-burst-done"
	# 1,000 small PUTs in flight over 8 peer credits.  While the link
	# drops every packet a sends (a pfifo of length 0) the socket buffer
	# fills, ksocklnd holds the credits, and the rest wait in LNet.
	tc qdisc add dev eth0 root pfifo limit 0 || fail "tc: block eth0"
	lt_start put "$nid" 64 1000 1000
	last=-1 still=0 end=$((SECONDS + BLOCK_SECS))
	while ((SECONDS < end && still < 10)); do
		read -r alloc _ < "$STATS"
		if [ "$alloc" = "$last" ] && [ "$alloc" -gt 0 ]; then
			still=$((still + 1))
		else
			still=0
		fi
		last=$alloc
		nap 0.1
	done
	tc qdisc del dev eth0 root || fail "tc: unblock eth0"
	log "link blocked: $alloc LNet messages held back by credits"
	lt_wait
	[ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ] &&
		[ "$(field done)" = 1000 ] || fail "1000 PUTs: $RESULT"
	[ "$(field reordered)" = 0 ] ||
		fail "1000 PUTs: ACKs out of order: $RESULT"
	[ "$alloc" -ge "$QUEUED_MIN" ] ||
		fail "only $alloc of 1000 PUTs were held back on credits"
	[ "$LNET_NODE" = a ] && barrier "a-burst-done"
	lt_ok get "$nid" 64 1000 1000
	[ "$(field done)" = 1000 ] || fail "1000 GETs: $RESULT"
	log "1000 GETs: replies out of order: $(field reordered)"
done

barrier traffic-done
# As a target: every PUT landed intact and in order.
t=$(cat "$TARGET")
log "target: $t"
[ "$(field bad "$t")" = 0 ] && [ "$(field failed "$t")" = 0 ] ||
	fail "PUTs landed corrupt or failed: $t"
[ "$(field reordered "$t")" = 0 ] || fail "PUTs landed out of order: $t"
# Each PUT the peer started exactly once: 6 sizes x COUNT, then 1,000.
[ "$(field puts "$t")" = $((6 * COUNT + 1000)) ] ||
	fail "PUTs landed: want $((6 * COUNT + 1000)): $t"
log "ksocklnd: $(tr '\n' ' ' < "$KSTATS")"
barrier checked

# Sinks of gapped fragments (lnet_test sink_gap: 96 bytes left out of
# every page): ksocklnd receives into any fragment list, so PUTs into
# them land intact (ko2iblnd must refuse them: o2ib_traffic).
echo unserve > "$RUN" || fail "unserve"
echo 96 > /sys/module/lnet_test/parameters/sink_gap
echo serve > "$RUN" || fail "serve with gapped sinks"
barrier gap-serve
lt_ok put "$nid" 65536 8 4
barrier gap-put
target_expect 8
log "8 x 64 KiB PUTs into gapped sinks landed intact"
echo unserve > "$RUN" || fail "unserve"
echo 0 > /sys/module/lnet_test/parameters/sink_gap

# Send buffers reused at the SEND event: pages of 16 KiB (zc_min_payload)
# and more go by reference with a zero-copy request, so each such PUT
# completes on the peer's ZC ACK; smaller ones are copied.
phase buffer_reuse
zc0=$(counter "$KSTATS" zc_requests)
reuse_check "$nid" "$COUNT"
lnet_idle
zc1=$(counter "$KSTATS" zc_requests)
acked=$(counter "$KSTATS" zc_acks_received)
aborted=$(counter "$KSTATS" zc_aborted)
log "ksocklnd zero-copy: requests $zc0 -> $zc1, acknowledged $acked, aborted $aborted"
[ -n "$zc1" ] && [ $((zc1 - zc0)) -ge $((3 * COUNT)) ] ||
	fail "want >= $((3 * COUNT)) zero-copy requests, got $zc0 -> $zc1"
[ "$acked" = "$zc1" ] && [ "$aborted" = 0 ] ||
	fail "zero-copy requests $zc1, acknowledged $acked, aborted $aborted"

sock_unload
log "sock traffic OK"
