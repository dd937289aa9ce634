#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Both nodes at once, each towards the other over ko2iblnd on rxe0
# (queue depth 8): lnetctl ping; lnet_test PUT and GET of 0 B, 1 B,
# 3976 B (largest IMMEDIATE), 3977 B, 4096 B (PUT_REQ / GET_REQ), 64 KiB
# and 1 MiB with the data checked at both ends; then 200 small PUTs and
# GETs with 64 in flight and 32 x 64 KiB with 8 in flight, over 8
# credits; no RNR, no protocol error.  Then b deletes and re-adds its
# NI (new incarnation) and both exchange traffic again.  Finally the
# modules unload.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

KSTATS=/sys/kernel/debug/ko2iblnd/stats
COUNT=4
[ "$LNET_DEBUG_KERNEL" = 1 ] && COUNT=2

nid_of() {
	local ip_var=IP_${1}_net0
	echo "${!ip_var}@o2ib"
}

diag() {
	{
		echo "== ko2iblnd"; cat "$KSTATS"
		echo "== nis"; cat /sys/kernel/debug/lnet/nis
		echo "== lnet stats"; cat /sys/kernel/debug/lnet/stats
		echo "== target"; cat "$TARGET"
		rdma link
		dmesg | tail -40
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
rdma link | grep -q rxe0 || fail "no rxe0"
insmod "$LNET_MODDIR/lnet/lnet.ko" || fail "insmod lnet"
insmod "$LNET_MODDIR/health/lnet_health.ko" || fail "insmod lnet_health"
insmod "$LNET_MODDIR/lnd/o2ib/ko2iblnd.ko" peer_credits=8 || fail "insmod ko2iblnd"
insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
"$LNETCTL" net add --net o2ib --if eth0 || fail "lnetctl net add o2ib"
"$LNETCTL" net show
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up

for peer in $(peers); do
	nid=$(nid_of "$peer")
	ping_ok "$nid" 10
	lt_ok ping "$nid" 10
	[ "$(field "done")" = 10 ] || fail "ping: $RESULT"
	for op in put get; do
		for size in 0 1 3976 3977 4096 65536 1048576; do
			lt_ok "$op" "$nid" "$size" "$COUNT" 2
			if [ "$(field "done")" != "$COUNT" ] ||
			   [ "$(field bytes)" != $((size * COUNT)) ]; then
				fail "$op $size: $RESULT"
			fi
		done
	done
	log "PUT/GET 0 B .. 1 MiB to $nid: OK, data checked"
	for op in put get; do
		lt_ok "$op" "$nid" 64 200 64
		[ "$(field "done")" = 200 ] || fail "$op 64 x 200: $RESULT"
		lt_ok "$op" "$nid" 65536 32 8
		[ "$(field "done")" = 32 ] || fail "$op 64k x 32: $RESULT"
	done
	log "more in flight than the queue depth: OK"
done

barrier traffic-done
# 7 sizes x COUNT, then 200 small and 32 of 64 KiB, from the peer.
target_expect $((7 * COUNT + 232))
log "ko2iblnd: $(tr '\n' ' ' < "$KSTATS")"
for c in rnr credit_overflow unknown_cookie rx_stale wc_errors tx_timeout \
	 rx_bad_lnet_hdr rx_truncated connack_bad; do
	[ "$(counter "$KSTATS" "$c")" = 0 ] || { diag; fail "$c is not 0"; }
done
barrier checked

# b restarts its NI (a new incarnation): a's next messages must get
# through once the old connection is closed.  (No CONN_STALE here: the
# close leaves a's peer idle and a's reaper forgets it within a second,
# so a's next connection request names no incarnation of b.)
if [ "$LNET_NODE" = b ]; then
	echo unserve > "$RUN" || fail "unserve"
	"$LNETCTL" net del --net o2ib --if eth0 || fail "net del o2ib"
	"$LNETCTL" net add --net o2ib --if eth0 || fail "net add o2ib again"
	echo serve > "$RUN" || fail "serve again"
fi
barrier restarted
for peer in $(peers); do
	nid=$(nid_of "$peer")
	ping_ok "$nid" 15
	lt_ok put "$nid" 1048576 2 2
	lt_ok get "$nid" 1048576 2 2
	[ "$(field "done")" = 2 ] || fail "get after restart: $RESULT"
done
log "after b's restart: OK; rejects: $(grep '^rej_.* [1-9]' "$KSTATS" | tr '\n' ' ')"
barrier restart-checked
# b serves again since its restart: the peer's 2 PUTs since; a counts on.
if [ "$LNET_NODE" = b ]; then
	target_expect 2
else
	target_expect $((7 * COUNT + 232 + 2))
fi

echo unserve > "$RUN" || fail "unserve"
rmmod lnet_test || fail "rmmod lnet_test"
"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
rmmod ko2iblnd || fail "rmmod ko2iblnd"
rmmod lnet_health || fail "rmmod lnet_health"
rmmod lnet || fail "rmmod lnet"
log "o2ib smoke OK"
