#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# a plays every attack of utils/tests/o2ib_hostile.c against b's ko2iblnd
# (rxe0 on eth0, peer_credits 8), each on a connection of its own,
# claiming to be 192.0.2.250@o2ib.  The program checks b's answer (the
# reject and its reason, or the disconnect); this script checks, through
# b's counters, that b counted it under the right name and that no
# connection is left over.  b serves its counters to a over the shared
# directory: a writes .stats-req.N, b answers with stats.N.  Afterwards
# b pings a and both move 1 MiB both ways: b still serves.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

KSTATS=/sys/kernel/debug/ko2iblnd/stats
EST_HOOK=/sys/kernel/debug/ko2iblnd/test_established_delay_ms
HOSTILE=$LNET_TOP/build/utils/o2ib_hostile
QD=8
REQ=0
# Seconds the program waits for each answer of b.
WAIT=30
[ "$LNET_DEBUG_KERNEL" = 1 ] && WAIT=120

nid_of() {
	local ip_var=IP_${1}_net0
	echo "${!ip_var}@o2ib"
}

diag() {
	{
		echo "== ko2iblnd"; cat "$KSTATS"
		echo "== nis"; cat /sys/kernel/debug/lnet/nis
		echo "== lnet stats"; cat /sys/kernel/debug/lnet/stats
		rdma link
		dmesg | tail -40
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

# On b: answer a's counter requests until a says it is done.
serve_stats() {
	local n=0
	while [ ! -e "$SHARED/.stats-done" ]; do
		if [ -e "$SHARED/.hook.req" ]; then
			echo 3000 > "$EST_HOOK" || fail "no $EST_HOOK"
			mv "$SHARED/.hook.req" "$SHARED/.hook.set"
		fi
		if [ -e "$SHARED/.stats-req.$n" ]; then
			cat "$KSTATS" /sys/kernel/debug/lnet/drops > "$SHARED/.stats.$n.tmp"
			mv "$SHARED/.stats.$n.tmp" "$SHARED/stats.$n"
			n=$((n + 1))
			continue
		fi
		nap 0.05
	done
}

# On a: b's counters, fresh, into BCTR (the file: $BSTATS_FILE).
b_stats() {
	local i
	touch "$SHARED/.stats-req.$REQ"
	for ((i = 0; i < 600; i++)); do
		[ -e "$SHARED/stats.$REQ" ] && break
		nap 0.05
	done
	[ -e "$SHARED/stats.$REQ" ] || fail "b does not serve its counters"
	# Read by the shell itself: a process costs ~0.2 s on the debug
	# kernel, and each attack reads b's counters several times.
	BSTATS_FILE=$SHARED/stats.$REQ
	BCTR=()
	local name value _
	while read -r name value _; do
		BCTR[$name]=$value
	done < "$BSTATS_FILE"
	REQ=$((REQ + 1))
}

# BCTR[NAME]: b's counter NAME as b_stats last read it.
declare -A BCTR

# attack NAME COUNTER: play NAME against b, then b's COUNTER must have
# grown by exactly one and b's connections be back to $active.
attack() {
	local name=$1 ctr=$2 before now i
	b_stats
	before=${BCTR[$ctr]:-}
	[ -n "$before" ] || fail "no counter $ctr on b"
	"$HOSTILE" -t $WAIT -q $QD "$IP" "$NID" "$name" ||
		{ b_stats; cat "$BSTATS_FILE"; fail "attack $name: b did not answer as it should"; }
	for ((i = 0; i < 300; i++)); do
		b_stats
		now=${BCTR[$ctr]:-}
		[ "$now" -gt "$before" ] &&
			[ "${BCTR[conns_active]:-}" = "$active" ] && break
		nap 0.2
	done
	[ "$now" = $((before + 1)) ] ||
		{ cat "$BSTATS_FILE"; fail "attack $name: $ctr $before -> $now, want +1"; }
	[ "${BCTR[conns_active]:-}" = "$active" ] ||
		{ cat "$BSTATS_FILE"; fail "attack $name: b has ${BCTR[conns_active]:-} connections, want $active"; }
	log "attack $name: $ctr $before -> $now"
}

# refusals: what b's counters (as b_stats last read them) say b refused
# of what came from the wire.
refusals() {
	local n=0 c
	for c in "${!BCTR[@]}"; do
		case $c in
		rx_wire_*|rx_stale|rx_bad_lnet_hdr|rx_truncated|credit_overflow|\
		unknown_cookie|connack_bad|rej_sent_*)
			n=$((n + BCTR[$c]));;
		esac
	done
	echo $n
}

# settle NAME: after an attack with no counter of its own, b's
# connections must come back to $active.
settle() {
	local i
	for ((i = 0; i < 600; i++)); do
		b_stats
		[ "${BCTR[conns_active]:-}" = "$active" ] && break
		nap 0.2
	done
	[ "${BCTR[conns_active]:-}" = "$active" ] ||
		{ cat "$BSTATS_FILE"; fail "$1: b has ${BCTR[conns_active]:-} connections, want $active"; }
	log "$1: conns_active back to $active, created ${BCTR[conns_created]:-}, closed ${BCTR[conns_closed]:-}"
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
rdma link | grep -q rxe0 || fail "no rxe0"
insmod "$LNET_MODDIR/lnet/lnet.ko" || fail "insmod lnet"
insmod "$LNET_MODDIR/health/lnet_health.ko" || fail "insmod lnet_health"
insmod "$LNET_MODDIR/lnd/o2ib/ko2iblnd.ko" peer_credits=$QD ||
	fail "insmod ko2iblnd"
insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
"$LNETCTL" net add --net o2ib --if eth0 || fail "lnetctl net add o2ib"
echo 300 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up

if [ "$LNET_NODE" = a ]; then
	# If a fails, b must not wait for more requests.
	trap '[ $? = 0 ] || touch "$SHARED/.a-failed" "$SHARED/.stats-done"' EXIT
	IP=${IP_b_net0:?}
	NID=$(nid_of b)
	ping_ok "$NID" 10
	lt_ok put "$NID" 4096 4 2
	barrier connected
	b_stats
	active=${BCTR[conns_active]:-}
	log "b's connections before the attacks: $active"
	[ "$active" -ge 1 ] || fail "b has no connection to a"

	attack connreq_short rej_sent_fatal
	attack connreq_bad_magic rej_sent_fatal
	attack connreq_proto_magic rej_sent_fatal
	attack connreq_bad_version rej_sent_fatal
	attack connreq_bad_dstnid rej_sent_fatal
	attack connreq_queue_depth rej_sent_msg_queue_size
	attack connreq_frags rej_sent_rdma_frags
	attack connreq_msg_size rej_sent_fatal
	attack connreq_noop rej_sent_fatal
	# The checks can fail: told a wrong peer_credits, the program must
	# refuse b's (right) MSG_QUEUE_SIZE reject.
	rc=0
	"$HOSTILE" -t $WAIT -q $((QD + 1)) "$IP" "$NID" connreq_queue_depth ||
		rc=$?
	[ $rc = 1 ] || fail "a wrong queue depth in a reject went unnoticed ($rc)"
	log "negative control: a wrong expectation fails the attack"
	attack msg_bad_magic rx_wire_bad_magic
	attack msg_bad_version rx_wire_bad_version
	attack msg_nob_long rx_wire_bad_nob
	attack msg_nob_short rx_wire_bad_nob
	attack msg_bad_cksum rx_wire_bad_cksum
	attack msg_bad_type rx_wire_bad_type
	attack msg_stale rx_stale
	attack msg_bad_srcnid rx_stale
	attack msg_credits credit_overflow
	attack msg_put_ack_cookie unknown_cookie
	attack msg_get_frags0 rx_wire_bad_frags
	attack msg_get_frags300 rx_wire_bad_frags
	attack msg_imm_garbage rx_bad_lnet_hdr
	# routing spec 4.1 row 5 (LNet's drop counter, b serves it too)
	attack msg_get_routed routed_get_req
	attack msg_noop_trunc rx_wire_short
	# A bad message and good ones behind it, all before b handles its
	# ESTABLISHED event (b's hook delays it 3 s and spaces the replay):
	# the first replayed closes the connection, the others must not be
	# handled, and the teardown must wait for the replay (before, it
	# freed the receive buffers under it: KASAN use-after-free).
	touch "$SHARED/.hook.req"
	for ((i = 0; i < 100; i++)); do
		[ -e "$SHARED/.hook.set" ] && break
		nap 0.1
	done
	[ -e "$SHARED/.hook.set" ] || fail "b did not set its ESTABLISHED hook"
	attack msg_early_replay rx_stale

	"$HOSTILE" -t $WAIT -q $QD "$IP" "$NID" cm_abort ||
		fail "cm_abort: local error"
	settle cm_abort
	"$HOSTILE" -t $WAIT -q $QD "$IP" "$NID" cm_flood ||
		fail "cm_flood: local error"
	settle cm_flood
	# Each attack came from a NID of its own making (-S) and left a peer
	# record on b; b forgets idle peers, so it keeps only a's: a stream
	# of new NIDs costs memory only while connected.
	for ((i = 1; i <= 10; i++)); do
		"$HOSTILE" -S "192.0.2.$((100 + i))@o2ib" -t $WAIT -q $QD \
			"$IP" "$NID" msg_bad_type ||
			fail "msg_bad_type from NID $i: b did not close"
	done
	for ((i = 0; i < 300; i++)); do
		b_stats
		[ "${BCTR[peers]:-}" = 1 ] && break
		nap 0.2
	done
	[ "${BCTR[peers]:-}" = 1 ] ||
		{ cat "$BSTATS_FILE"; fail "b keeps ${BCTR[peers]:-} peers, want 1 (a)"; }
	[ "${BCTR[peers_forgotten]:-}" -ge 11 ] ||
		{ cat "$BSTATS_FILE"; fail "b forgot ${BCTR[peers_forgotten]:-} peers, want >= 11"; }
	log "b forgot idle peers: peers 1, peers_forgotten ${BCTR[peers_forgotten]:-}"
	for c in wc_errors tx_timeout; do
		[ "${BCTR[$c]:-}" = 0 ] || { cat "$BSTATS_FILE"; fail "b: $c ${BCTR[$c]:-}"; }
	done
	log "b's ko2iblnd: $(tr '\n' ' ' < "$BSTATS_FILE")"

	# Mutated sessions for 20 s (o2ib_hostile mutate: CONNREQs, and
	# NOOPs, IMMEDIATE PUTs, ping GETs and PUT_REQs on connections, one
	# to four mutations in three sessions of four, each from a NID and an
	# incarnation of its own), from a seed it logs (LNET_MUTATE_SEED
	# replays one): b must answer every CONNREQ, refuse and count what is
	# wrong, drop every hostile connection and still accept a valid one;
	# then b serves a (below).
	b_stats
	r0=$(refusals)
	seed=${LNET_MUTATE_SEED:-$((RANDOM * 32768 + RANDOM + 1))}
	log "mutate: seed $seed"
	out=$("$HOSTILE" -t $WAIT -q $QD -m "$seed" -T 20 "$IP" "$NID" mutate) ||
		{ echo "$out"; b_stats; cat "$BSTATS_FILE"; fail "mutated sessions: b did not answer as it should (seed $seed)"; }
	log "$out"
	[[ "$out" =~ ([0-9]+)\ sessions,\ ([0-9]+)\ mutated ]] ||
		fail "mutate printed no summary: $out"
	[ "${BASH_REMATCH[2]}" -gt 0 ] || fail "mutate: no session was mutated"
	settle "mutate (seed $seed)"
	r1=$(refusals)
	[ "$r1" -gt "$r0" ] ||
		{ cat "$BSTATS_FILE"; fail "mutated sessions: no refusal counted ($r0 -> $r1, seed $seed)"; }
	log "mutate: $((r1 - r0)) refusals counted"
	touch "$SHARED/.stats-done"
	barrier attacked 1800

	ping_ok "$NID" 5
	lt_ok put "$NID" 1048576 2 2
	lt_ok get "$NID" 1048576 2 2
	[ "$(field "done")" = 2 ] || fail "get after the attacks: $RESULT"
else
	# Health frozen during the attacks: b's answers to the hostile NIDs
	# (ping REPLYs, PUT_NAKs) fail once they are gone, which must not
	# demerit b's NI (see sock_hostile's mutated_sessions).
	hs=$("$LNETCTL" global show | awk '$1 == "health_sensitivity:" { print $2 }')
	[ -n "$hs" ] || fail "no health_sensitivity in global show"
	"$LNETCTL" set health_sensitivity 0 || fail "set health_sensitivity 0"
	barrier connected
	serve_stats
	"$LNETCTL" set health_sensitivity "$hs" ||
		fail "set health_sensitivity $hs"
	[ ! -e "$SHARED/.a-failed" ] || fail "a failed its attacks"
	barrier attacked 1800
	# b still reaches a by itself, and moves data.
	ping_ok "$(nid_of a)" 5
	lt_ok put "$(nid_of a)" 1048576 2 2
	lt_ok get "$(nid_of a)" 1048576 2 2
	[ "$(field "done")" = 2 ] || fail "get after the attacks: $RESULT"
	t=$(cat "$TARGET")
	[ "$(field bad "$t")" = 0 ] && [ "$(field failed "$t")" = 0 ] ||
		fail "PUTs landed corrupt or failed: $t"
	log "ko2iblnd: $(tr '\n' ' ' < "$KSTATS")"
fi
barrier done
# b's 2 PUTs landed at a, each once and intact.
if [ "$LNET_NODE" = a ]; then
	target_expect 2
fi

echo unserve > "$RUN" || fail "unserve"
rmmod lnet_test || fail "rmmod lnet_test"
"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
rmmod ko2iblnd || fail "rmmod ko2iblnd"
rmmod lnet_health || fail "rmmod lnet_health"
rmmod lnet || fail "rmmod lnet"
log "o2ib hostile OK"
