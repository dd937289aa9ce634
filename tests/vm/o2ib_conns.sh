#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ko2iblnd connections between two VMs on soft-RoCE (rxe0 on eth0):
#  1. conns_per_peer: a's NI is added with --conns-per-peer 3, b's with the
#     default (1).  a's traffic to b opens 3 connections (b accepts each:
#     "additional parallel connections are accepted"), and the messages
#     of both nodes go round-robin over all three (debugfs conns: every
#     connection sent and received), data checked.
#  2. V1 (0x11), b active: b plays a Lustre 1.8 node (msg_version=0x11:
#     proposes V1, refuses V2 with FATAL/0x11).  a's CONNREQ (V2) is
#     refused, a reconnects with V1 and queue depth 8; PUT and GET of
#     0 B .. 1 MiB both ways, more in flight than the queue depth (V1
#     credits: NOOPs take a credit, the last credit is kept for one),
#     keepalive NOOPs of an idle V1 connection, traffic again after them.
#  3. V1, a passive: a reloads its modules (a new incarnation); b's next
#     CONNREQ is stale, the short V1 reject carries no incarnation, b
#     retries without one and a accepts V1; traffic both ways again.
#  4. A QP the device cannot make at the negotiated queue depth (ko2iblnd's
#     test_max_recv_wr: at most 13 receive WRs, where queue depth 8 needs
#     19): the queue depth shrinks by quarters (8, 6, 5) until the QP can
#     be made, as the spec allows, rather than failing.  First on the
#     passive side b (its CONNACK carries 5, a adopts it), then on the
#     active side a (its CONNREQ proposes 5); traffic with more in flight
#     than the queue depth each time.
# No RNR, credit overflow, stale message, timeout or leaked LNet message.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"

INLINE=$((4096 - 120))
SIZES="0 1 $INLINE $((INLINE + 1)) 4096 65536 1048576"

# conns_to NID: the lines of $O2IB_CONNS for the peer of NID
conns_to() {
	awk -v p="${1%@*}" '$2 == p' "$O2IB_CONNS"
}

# conn_field LINE KEY: the value after KEY in a line of $O2IB_CONNS
conn_field() {
	echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

# sizes NID: PUT and GET of every size in $SIZES, 4 of each, data checked.
sizes() {
	local op size
	for op in put get; do
		for size in $SIZES; do
			lt_ok "$op" "$1" "$size" 4 2
			[ "$(field done)" = 4 ] &&
				[ "$(field bytes)" = $((size * 4)) ] ||
				fail "$op $size: $RESULT"
		done
	done
}

# many NID: 400 small PUTs and GETs at once, 64 RDMA PUTs of 4 KiB.
many() {
	lt_ok put "$1" 64 400 400
	lt_ok get "$1" 64 400 400
	lt_ok put "$1" 4096 64 64
	[ "$(field done)" = 64 ] || fail "64 PUTs of 4 KiB: $RESULT"
}

# phase_end BARRIER: every PUT landed intact, nothing went wrong, every
# LNet message finalized; unload, and wait for the other node.
phase_end() {
	local t
	t=$(cat "$TARGET")
	[ "$(field bad "$t")" = 0 ] && [ "$(field failed "$t")" = 0 ] ||
		fail "PUTs landed corrupt or failed: $t"
	zero_counters
	lnet_idle
	o2ib_unload
	barrier "$1"
}

# zero_counters: what must stay 0 on this node.
zero_counters() {
	local c
	log "ko2iblnd: $(o2ib_counters)"
	for c in rnr credit_overflow unknown_cookie rx_stale wc_errors \
		 tx_timeout rx_bad_lnet_hdr rx_truncated connack_bad; do
		[ "$(counter "$O2IB_STATS" "$c")" = 0 ] ||
			{ diag; fail "$c is not 0"; }
	done
}

rxe_setup eth0
peer=$(peers)
nid=$(nid_of "$peer")

# --- 1. conns_per_peer ---
phase conns_per_peer
if [ "$LNET_NODE" = a ]; then
	O2IB_NET_OPTS="--conns-per-peer 3" o2ib_load
	"$LNETCTL" net show --net o2ib -v | grep -q '^ *conns_per_peer: 3$' ||
		fail "net show -v: conns_per_peer is not 3"
else
	o2ib_load
fi
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up

if [ "$LNET_NODE" = a ]; then
	# One message opens the first connection; each one of ours that is
	# established opens the next, up to 3.
	lt_ok ping "$nid" 1
	for ((i = 0; i < 100; i++)); do
		[ "$(conns_to "$nid" | grep -c ' established ')" -ge 3 ] && break
		nap 0.2
	done
	lt_ok put "$nid" 65536 60 6
	lt_ok put "$nid" 64 300 30
	log "connections to b: $(conns_to "$nid" | tr '\n' ';')"
fi
barrier a-sent 600
lines=$(conns_to "$nid")
n=$(echo "$lines" | grep -c ' established ' || true)
[ "$n" = 3 ] || { diag; fail "$n established connections to $peer, want 3"; }
if [ "$LNET_NODE" = a ]; then
	[ "$(echo "$lines" | grep -c ' active ')" = 3 ] ||
		fail "a's 3 connections are not all active: $lines"
	key=sent
else
	[ "$(echo "$lines" | grep -c ' passive ')" = 3 ] ||
		fail "b's 3 connections are not all passive: $lines"
	key=received
fi
# 360 messages round-robin: each connection has ~120 of them.
while read -r line; do
	v=$(conn_field "$line" "$key")
	[ "$v" -ge 60 ] || fail "a connection $key $v messages of 360: $line"
done <<<"$lines"
log "3 connections, each $key its share: OK"
barrier counted
# b (conns_per_peer 1) sends over the three as well.
if [ "$LNET_NODE" = b ]; then
	lt_ok put "$nid" 64 300 30
	lt_ok get "$nid" 65536 30 6
	while read -r line; do
		v=$(conn_field "$line" sent)
		[ "$v" -ge 40 ] || fail "b's connection sent $v messages: $line"
	done <<<"$(conns_to "$nid")"
	log "b uses all 3 connections: OK"
fi
barrier cpp-done 600
phase_end cpp-unloaded

# --- 2. V1: b plays a V1-only node, a connects ---
phase v1_active
if [ "$LNET_NODE" = b ]; then
	o2ib_load msg_version=0x11
else
	o2ib_load
fi
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier v1-up
[ "$LNET_NODE" = a ] && lt_ok ping "$nid" 4
barrier v1-connected 600
line=$(conns_to "$nid")
log "V1 connection: $line"
[ "$(echo "$line" | wc -l)" = 1 ] && [ "$(conn_field "$line" qd)" = 8 ] &&
	echo "$line" | grep -q ' established .* v0x11 ' ||
	{ diag; fail "not one established V1 connection of queue depth 8"; }
if [ "$LNET_NODE" = a ]; then
	[ "$(counter "$O2IB_STATS" rej_rcvd_fatal)" -ge 1 ] ||
		fail "a was not refused by the V1 node (rej_rcvd_fatal 0)"
else
	[ "$(counter "$O2IB_STATS" rej_sent_fatal)" -ge 1 ] ||
		fail "b did not refuse a V2 CONNREQ (rej_sent_fatal 0)"
fi
sizes "$nid"
log "V1: PUT/GET 0 B .. 1 MiB to $peer: OK"
barrier v1-sizes 600
many "$nid"
log "V1: more in flight than the queue depth: OK"
barrier v1-many 600
o2ib_keepalive_check "V1: "
barrier v1-keepalive 600
# Credited NOOPs gave their credits back: the queue fills again.
many "$nid"
barrier v1-again 600
zero_counters
# Each node took the other's V1 PUTs: 4 of each size, 2 x (400 + 64).
nsizes=$(echo "$SIZES" | wc -w)
target_expect $((nsizes * 4 + 928))

# --- 3. V1: a reloads, b connects to the new a ---
phase v1_passive
if [ "$LNET_NODE" = a ]; then
	lnet_idle
	o2ib_unload
	o2ib_load
	echo 300 > /sys/module/lnet_test/parameters/op_timeout
	echo serve > "$RUN" || fail "serve"
fi
barrier a-reloaded 600
[ "$LNET_NODE" = b ] && lt_ok ping "$nid" 4
barrier v1-passive 600
line=$(conns_to "$nid")
log "V1 connection after a's reload: $line"
echo "$line" | grep -q ' established .* v0x11 ' ||
	{ diag; fail "no established V1 connection"; }
if [ "$LNET_NODE" = a ]; then
	echo "$line" | grep -q ' passive ' || fail "a's V1 connection is not passive"
fi
sizes "$nid"
log "V1 after a's reload: PUT/GET 0 B .. 1 MiB to $peer: OK"
barrier v1-done 600
# The new a took b's PUTs of every size; b counts on from part 2.
if [ "$LNET_NODE" = a ]; then
	target_expect $((nsizes * 4))
else
	target_expect $((2 * nsizes * 4 + 928))
fi
phase_end v1-unloaded

# --- 4. the queue depth shrinks to what the device can make ---
phase qd_shrink
QP_HOOK=/sys/kernel/debug/ko2iblnd/test_max_recv_wr
for side in b a; do
	o2ib_load
	echo 300 > /sys/module/lnet_test/parameters/op_timeout
	echo serve > "$RUN" || fail "serve"
	if [ "$LNET_NODE" = "$side" ]; then
		[ -w $QP_HOOK ] || fail "no $QP_HOOK"
		echo 13 > $QP_HOOK
	fi
	barrier "qp-$side-up"
	if [ "$LNET_NODE" = a ]; then
		lt_ok ping "$nid" 4
		many "$nid"
	fi
	barrier "qp-$side-sent" 600
	line=$(conns_to "$nid")
	log "connection with $side short of receive WRs: $line"
	[ "$(echo "$line" | wc -l)" = 1 ] &&
		[ "$(conn_field "$line" qd)" = 5 ] ||
		{ diag; fail "$side short of WRs: not one connection of queue depth 5"; }
	if [ "$LNET_NODE" = "$side" ]; then
		[ "$(counter "$O2IB_STATS" qd_shrunk)" = 1 ] ||
			fail "qd_shrunk: $(counter "$O2IB_STATS" qd_shrunk), want 1"
	fi
	echo 0 > $QP_HOOK
	phase_end "qp-$side-done"
done
log "o2ib connections OK"
