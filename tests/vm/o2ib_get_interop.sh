#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our RDMA GET sinks against the writer a stock Lustre node has (issue:
# our `lnetctl ping` of a Lustre node over o2ib failed, "invalid ping
# reply", the 48 bytes Lustre wrote never landed).  On a, with no LNet of
# its own, utils/tests/o2ib_lustre connects to b's ko2iblnd as
# 192.0.2.250@o2ib and answers b's GET_REQs as Lustre does (spec 5.8):
# RDMA WRITEs into the GET_REQ's descriptor, then GET_DONE with the bytes
# written.  b pings it (a 48-byte reply into a 4128-byte sink, then a
# reply filling the sink: 256 NIDs) and checks every NID listed, then
# GETs 4000 B .. 1 MiB from unaligned buffers, which lnet_test checks
# byte by byte.  No error, no protocol counter on b.  Then, with b's MR
# pool cut to one MR, o2ib_lustre holds b's first GET (its sink keeps the
# MR) so that the second waits for an MR, and pings b: b's REPLY needs
# no MR and must not wait behind that GET (issue: an MR wait blocked the
# connection, credits and completions included).  b runs with discovery
# off: o2ib_lustre plays a GET target, not a whole LNet (it answers only
# the GETs it is told of), so no discovery ping may come first.
#
# In the same run, o2ib_lustre is also a stock gateway (-G) to $FINAL on
# tcp9, a net b has no NI on (routing spec 3, 4.6): with a route to tcp9
# through it, b's GETs of 1000 B (the REPLY IMMEDIATE) and of 8192 B (too
# long for one message: a stock node would send GET_REQ, a GET through a
# router must still go IMMEDIATE, its REPLY comes back as PUT_REQ) and a
# PUT of 1000 B must reach o2ib_lustre with dest_nid = $FINAL and
# src_nid = b's NID (o2ib_lustre checks both, the GET's type and the
# PUT's every byte), and the REPLY and ACK it sends from $FINAL complete
# them on b, the data checked.  A send to tcp8, which has no route, fails
# at once with -EHOSTUNREACH and says so on b's console.
#
# First, o2ib_lustre -D writes as stock Lustre 2.17's ko2iblnd does, defect
# included (Documentation/o2iblnd.rst: the tail RDMA WRITE of a reply
# shorter than the sink is never posted, GET_DONE says the bytes anyway):
# b's lnetctl ping of it must pass, as its GET sinks are sized as stock's
# (272 bytes, IMMEDIATE; a truncated reply is asked again with the size
# it states, which it fills), every NID checked: 1 NID, then 256 (272
# bytes, then 4128 by RDMA).  Then b discovers it (discovery on: a
# 272-byte ping, then b's push, which o2ib_lustre ACKs): the 3 NIDs it
# lists are b's multi-rail peer's.  (Issue: "invalid ping reply" against a stock
# node, its 48 bytes never written into our 4128-byte sink.)
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"

PEER=$LNET_TOP/build/utils/o2ib_lustre
[ -x "$PEER" ] || fail "o2ib_lustre not built: run 'make -C utils' on the host"
FAKE=192.0.2.250@o2ib
FINAL=198.51.100.9@tcp9
# The GETs b sends the second o2ib_lustre: 3 pings (the second truncated,
# asked again), 2 x 3 lnet_test GETs, then through it as a gateway 2 GETs
# and a PUT.
NGETS=12
WAIT=60
[ "$LNET_DEBUG_KERNEL" = 1 ] && WAIT=180

rdma link | grep -q rxe0 || fail "no rxe0"
if [ "$LNET_NODE" = a ]; then
	# run_peer NAME ARGS...: run o2ib_lustre against b until it answered
	# its GETs and b checked them, then hang up.
	run_peer() {
		local name=$1 out=/tmp/o2ib_lustre.$1 pid i
		shift
		"$PEER" -t $WAIT "$@" "${IP_b_net0:?}" "$(nid_of b)" \
			> "$out" 2>&1 &
		pid=$!
		for ((i = 0; i < 600; i++)); do
			grep -q '^connected$' "$out" && break
			running $pid || break
			nap 0.1
		done
		grep -q '^connected$' "$out" ||
			{ sed 's/^/[a] /' "$out"; fail "$name: o2ib_lustre did not connect"; }
		barrier "connected-$name"
		for ((i = 0; i < WAIT * 10; i++)); do
			grep -q 'GETs answered: OK$' "$out" && break
			running $pid || break
			nap 0.1
		done
		sed "s/^/[a] o2ib_lustre $name: /" "$out"
		grep -q 'GETs answered: OK$' "$out" ||
			fail "$name: o2ib_lustre did not answer every GET"
		barrier "done-$name" 600
		kill $pid 2>/dev/null || true
		wait $pid || true
		grep -q '^FAIL' "$out" && { cat "$out"; fail "$name: o2ib_lustre failed"; }
		return 0
	}
	barrier up 600
	# 1 NID, 256 twice (272-byte ping, then the whole), 3 for discovery.
	run_peer stock -D -n 1,256,256,3 -c 4
	barrier reloaded-get 600
	run_peer get -n 1,256 -c $NGETS -G $FINAL
	grep -q '^3 routed to the final NID$' /tmp/o2ib_lustre.get ||
		fail "o2ib_lustre as a gateway did not see b's 2 GETs and PUT"
	[ "$(grep -c '^routed GET: IMMEDIATE' /tmp/o2ib_lustre.get)" = 2 ] ||
		fail "b's routed GETs did not both come IMMEDIATE"
	grep -q '^routed REPLY: 8192 bytes in 1 RDMA WRITE' /tmp/o2ib_lustre.get ||
		fail "the 8192-byte routed REPLY was not written by PUT_REQ/PUT_ACK"
	grep -q '^routed PUT: 1000 bytes, every byte checked$' /tmp/o2ib_lustre.get ||
		fail "b's routed PUT did not arrive intact"

	barrier reloaded 600
	run_peer mr_wait -H 20 -c 2
	exit 0
fi

# expect_nids CMD N: "lnetctl CMD $FAKE" lists exactly N NIDs, $FAKE and
# the addresses after it (the bytes a wrote, as our parser read them), in
# order for a ping, in any for a discovery (the peer table's order).
expect_nids() {
	local cmd=$1 want=$2 got=() out line q base a nid i
	IFS=. read -r -a q <<< "${FAKE%@*}"
	base=$(( (q[0] << 24) | (q[1] << 16) | (q[2] << 8) | q[3] ))
	out=$("$LNETCTL" "$cmd" "$FAKE" 2>&1) ||
		{ echo "$out"; o2ib_diag; fail "lnetctl $cmd $FAKE failed"; }
	while read -r line; do
		[[ $line =~ ^-\ +nid:\ (.*)$ ]] && got+=("${BASH_REMATCH[1]}")
	done <<< "$out"
	[ "${#got[@]}" = "$want" ] ||
		{ echo "$out"; fail "$cmd listed ${#got[@]} NIDs, want $want"; }
	# (a here-string: the guests have no /dev/fd for <(...))
	[ "$cmd" = ping ] ||
		readarray -t got <<< "$(printf '%s\n' "${got[@]}" | sort -V)"
	for ((i = 0; i < want; i++)); do
		a=$((base + i))
		nid="$((a >> 24 & 255)).$((a >> 16 & 255)).$((a >> 8 & 255)).$((a & 255))@o2ib"
		[ "${got[i]}" = "$nid" ] ||
			{ echo "$out"; fail "$cmd NID $i is ${got[i]}, want $nid"; }
	done
	log "$cmd $FAKE: $want NIDs, each as written"
}
expect_ping() { expect_nids ping "$1"; }

# no_errors: none of the counters of a protocol or transfer error moved.
no_errors() {
	local c
	log "ko2iblnd: $(o2ib_counters)"
	for c in wc_errors tx_timeout rx_bad_lnet_hdr rx_truncated \
		 unknown_cookie credit_overflow; do
		[ "$(counter "$O2IB_STATS" "$c")" = 0 ] ||
			{ o2ib_diag; fail "$c is not 0"; }
	done
}

o2ib_load
"$LNETCTL" set discovery 0 || fail "set discovery 0"
barrier up 600
barrier connected-stock 600

phase stock_ping_short
expect_ping 1
phase stock_ping_long
expect_ping 256
phase stock_discover
"$LNETCTL" set discovery 1 || fail "set discovery 1"
expect_nids discover 3
"$LNETCTL" peer show --nid "$FAKE" | grep -q "Multi-Rail: true" ||
	{ "$LNETCTL" peer show --nid "$FAKE"; fail "$FAKE not multi-rail after discovery"; }
no_errors
barrier done-stock 600
lnet_idle
o2ib_unload

o2ib_load
"$LNETCTL" set discovery 0 || fail "set discovery 0"
barrier reloaded-get 600
barrier connected-get 600

phase ping_short_reply
expect_ping 1

phase ping_full_sink
expect_ping 256

phase bulk_get
echo 100 > /sys/module/lnet_test/parameters/buf_offset
for size in 4000 65536 1048576; do
	lt_ok get "$FAKE" $size 2 1
	[ "$(field done)" = 2 ] && [ "$(field errors)" = 0 ] ||
		fail "GET $size from $FAKE: $RESULT"
done
echo 0 > /sys/module/lnet_test/parameters/buf_offset
log "GETs of 4000 B .. 1 MiB into unaligned sinks, data checked"
no_errors

phase routed_send
# The scripted gateway expects the test's messages only: no router check.
ARCI=/sys/module/lnet/parameters/alive_router_check_interval
echo 0 > $ARCI || fail "alive_router_check_interval 0"
"$LNETCTL" route add --net tcp9 --gateway "$FAKE" ||
	fail "route add --net tcp9 --gateway $FAKE"
for op in "get $FINAL 1000" "get $FINAL 8192" "put $FINAL 1000"; do
	# shellcheck disable=SC2086 # op is words
	lt_ok $op 1 1
	[ "$(field done)" = 1 ] || fail "$op through $FAKE: $RESULT"
done
log "GETs (1000, 8192 B) and a PUT (1000 B) to $FINAL through $FAKE: data checked"
lt get 198.51.100.8@tcp8 1000 1 1
[ "$(field rc)" = -113 ] && [ "$(field done)" = 0 ] ||
	fail "a GET to tcp8, which has no route: $RESULT, want rc=-113 at once"
dmesg | grep -q 'LNet: no route to 198.51.100.8@tcp8 from any local NI' ||
	fail "no 'no route to 198.51.100.8@tcp8' on the console"
log "a GET to tcp8 (no route): -EHOSTUNREACH at once, said on the console"
"$LNETCTL" route del --net tcp9 --gateway "$FAKE" || fail "route del tcp9"
echo 60 > $ARCI || fail "alive_router_check_interval 60"
no_errors
barrier done-get 600
lnet_idle
o2ib_unload

phase mr_wait
o2ib_load fmr_pool_size=1 fmr_flush_trigger=1 fmr_pool_max=1
"$LNETCTL" set discovery 0 || fail "set discovery 0"
barrier reloaded 600
barrier connected-mr_wait 600
lt_ok get "$FAKE" 65536 2 2
[ "$(field done)" = 2 ] || fail "GETs with one MR: $RESULT"
waits=$(counter "$O2IB_STATS" mr_waits)
[ "$waits" -ge 1 ] || fail "the second GET never waited for the MR (mr_waits 0)"
log "2 GETs through one MR (mr_waits $waits), b's ping REPLY passed the one waiting"
no_errors
barrier done-mr_wait 600
lnet_idle
o2ib_unload
log "o2ib GET interop OK"
