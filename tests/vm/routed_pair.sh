#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two routers in parallel (tests/vm/routed_pair.py: a on tcp, r and r2
# routing between tcp and o2ib, b on o2ib; spec lnet-routing.md 3.2, 5.3,
# 6, 13 test 257, 14 items 5 and 17):
#  - pair_up: both routers route; a's routes to o2ib and b's to tcp go
#    through both, and come up;
#  - two_gateways: a's PUTs and GETs to b take r and r2 in turn (equal
#    priority and hops: both routers' route_count grows), every byte
#    checked at b; debugfs peers in stock's columns, with the state of
#    a's gateways and the routers' credits (a write resets minimums);
#  - udsp_rte: with "udsp add --dst b --rte r2" on a, all of a's PUTs to
#    b go through r2;
#  - drain: under a's traffic to b (rounds of PUTs, every byte checked
#    at b, every round passing), "set routing 0" on r: a's and b's
#    checks see RTE_DISABLED and take their routes through r down, r is
#    disabled once its window is over, and r dropped nothing; "set
#    routing 1" on r, traffic still running: r's routes come back at a
#    and b, traffic crosses r again, and neither router dropped anything
#    (sanity-lnet test 257);
#  - gateway_resend: r2's tcp NI deleted (its listener closed) while
#    a's route through it stays up (a's checks off): each of a's PUTs to
#    b that meets r2's refused connection is resent through r (spec 8:
#    REMOTE_DROPPED sending to a multi-rail gateway), so all pass, and a
#    counts successful resends; a's check then takes the route down; r2's
#    tcp NI back, a's and b's routes through r2 up again;
#  - gateway_cut: r2's cable to a's net pulled under a's traffic (every
#    operation ends with a status), a's and b's routes through r2 go
#    down, traffic passes through r; cable back: the routes come up;
#  - gateway_gone: r2's modules unloaded under a's traffic: every
#    operation ends with a status (none hangs), a's and b's routes
#    through r2 go down, and a's traffic after that all passes through
#    r.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

# A and b check each gateway every second; r's W (alive_router_check_
# interval + router_ping_timeout, spec 5.1 and 6.7) is 5 s: its STOPPING
# window outlasts a check and a ping's round trip, as stock's 110 s
# outlasts a 60 s interval.
# Small pools (stock's large one alone is 256 MiB, more than the debug
# guest spares).
case $LNET_NODE in
r | r2) routed_load alive_router_check_interval=1 router_ping_timeout=4 \
	tiny_router_buffers=64 small_router_buffers=64 large_router_buffers=8 ;;
*) routed_load alive_router_check_interval=1 ;;
esac

# route_count_of: this router's forwarded message count.
route_count_of() {
	routed_stat route_count
}

# routes_up N SECS: N of this node's routes say "state: up" within SECS s.
routes_up() {
	local i n
	for ((i = 0; i < $2 * 5; i++)); do
		"$LNETCTL" route show -v > "$T/route.v" || fail "route show -v"
		n=$(grep -c "^ *state: up\$" "$T/route.v" || true)
		[ "$n" = "$1" ] && { log "$1 routes up after $((i / 5)).$((i % 5 * 2)) s"; return 0; }
		nap 0.2
	done
	cat "$T/route.v"
	diag
	fail "not $1 routes up after $2 s"
}

# route_to_gw_state GW: the state of this node's route through GW.
route_to_gw_state() {
	"$LNETCTL" route show -v > "$T/route.v" || fail "route show -v"
	awk -v gw="$1" '$1 == "gateway:" { g = $2 } $1 == "state:" && g == gw { print $2 }' \
		"$T/route.v"
}

# gw_route_wait GW STATE SECS: this node's route through GW is STATE
# within SECS seconds.
gw_route_wait() {
	local i
	for ((i = 0; i < $3 * 5; i++)); do
		[ "$(route_to_gw_state "$1")" = "$2" ] && {
			log "route through $1 $2 after $((i / 5)).$((i % 5 * 2)) s"
			return 0
		}
		nap 0.2
	done
	cat "$T/route.v"
	diag
	fail "route through $1 not $2 after $3 s"
}

# traffic_until FILE: a's rounds of 16 PUTs of 64 KiB to b, 4 at a time,
# until FILE exists; each must pass.  ROUNDS: how many ran.
traffic_until() {
	ROUNDS=0
	while [ ! -e "$1" ]; do
		lt_ok put "$B" 65536 16 4
		ROUNDS=$((ROUNDS + 1))
	done
	log "$ROUNDS rounds of 16 PUTs passed"
}

# rounds_while FILE WHAT: a's rounds of 16 PUTs of 64 KiB to b, 4 at a
# time, until FILE exists, while WHAT happens to a gateway: a round may
# fail (what a gateway held ends with an error) but none may hang.
rounds_while() {
	local fails=0 rounds=0
	echo 60 > /sys/module/lnet_test/parameters/op_timeout
	while [ ! -e "$1" ]; do
		lt put "$B" 65536 16 4
		[ "$(field timeouts)" = 0 ] ||
			{ diag; fail "an operation hung while $2: $RESULT"; }
		[ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ] || fails=$((fails + 1))
		rounds=$((rounds + 1))
	done
	log "$rounds rounds while $2, $fails with errors"
}

PUTS=0	# PUTs b must have taken, intact

phase pair_up
case $LNET_NODE in
r | r2) "$LNETCTL" set routing 1 || fail "set routing 1"
	routing_wait 1 20 ;;
esac
barrier routing
case $LNET_NODE in
a) for gw in "$R_TCP" "$R2_TCP"; do
	"$LNETCTL" route add --net o2ib --gateway "$gw" || fail "route add o2ib via $gw"
   done ;;
b) for gw in "$R_O2IB" "$R2_O2IB"; do
	"$LNETCTL" route add --net tcp --gateway "$gw" || fail "route add tcp via $gw"
   done ;;
esac
case $LNET_NODE in
a | b) routes_up 2 30 ;;
esac
barrier routes-up

phase two_gateways
case $LNET_NODE in
r | r2) route_count_of > "$T/rc0"
	routed_stat drop_count > "$T/drops0" ;;
esac
barrier counted
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$B" 4096 8 1
	lt_ok get "$B" 4096 8 1
fi
PUTS=$((PUTS + 8))
barrier spread
case $LNET_NODE in
r | r2) read -r rc0 < "$T/rc0"
	rc1=$(route_count_of)
	# each router carried at least a quarter of the 32 messages
	# (8 PUTs, 8 ACKs, 8 GETs, 8 REPLYs), as equal routes take turns
	[ $((rc1 - rc0)) -ge 8 ] ||
		{ diag; fail "$LNET_NODE forwarded $((rc1 - rc0)) of 32 messages: routes not taken in turn"; }
	log "$LNET_NODE forwarded $((rc1 - rc0)) of a's and b's 32 messages" ;;
esac
[ "$LNET_NODE" = b ] && target_expect $PUTS
# debugfs peers in stock's columns (spec 9): a gateway's NI is up or
# down at a, a peer beyond the routers NA; on a router the peer NIs that
# sent it messages to forward have router credits, whose low-water mark
# a write resets to their value now.
PEERS=/sys/kernel/debug/lnet/peers
# peers_col NID COL: column COL of NID's line in debugfs peers.
peers_col() {
	awk -v n="$1" -v c="$2" '$1 == n { print $c }' $PEERS
}
[ "$(head -n 1 $PEERS | tr -s ' ')" = "nid refs state last max rtr min tx min queue" ] ||
	{ cat $PEERS; fail "debugfs peers: not stock's header"; }
case $LNET_NODE in
a) [ "$(peers_col "$R_TCP" 3)" = up ] && [ "$(peers_col "$R2_TCP" 3)" = up ] &&
	[ "$(peers_col "$B" 3)" = NA ] && [ "$(peers_col "$B" 4)" = -1 ] ||
	{ cat $PEERS; fail "debugfs peers: r, r2 not up or b not NA"; } ;;
r | r2) rtr=$(peers_col "$A" 6) min=$(peers_col "$A" 7)
	[ -n "$min" ] && [ "$min" -lt "$rtr" ] ||
		{ cat $PEERS; fail "debugfs peers: a's router credits $rtr, min $min: none taken"; }
	echo 0 > $PEERS || fail "write to debugfs peers"
	[ "$(peers_col "$A" 7)" = "$(peers_col "$A" 6)" ] ||
		{ cat $PEERS; fail "debugfs peers: the write reset no minimum"; } ;;
esac
barrier spread-checked

phase udsp_rte
# A UDSP router preference (udsp add --dst B --rte R2, spec features
# UDSP): a's sends to b all take r2, r forwards none of them (b's ACKs
# go back the way the PUTs came); deleted, the routes take turns again
# (two_gateways showed it).
case $LNET_NODE in
r | r2) route_count_of > "$T/rc0" ;;
a) "$LNETCTL" udsp add --dst "$B" --rte "$R2_TCP" || fail "udsp add --dst $B --rte $R2_TCP" ;;
esac
barrier rte-added
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$B" 4096 8 1
	"$LNETCTL" udsp del --all || fail "udsp del --all"
fi
PUTS=$((PUTS + 8))
barrier rte-sent
case $LNET_NODE in
r) [ "$(route_count_of)" = "$(cat "$T/rc0")" ] ||
	{ diag; fail "r forwarded $(( $(route_count_of) - $(cat "$T/rc0") )) messages: a's preference for r2 not followed"; } ;;
r2) [ $(( $(route_count_of) - $(cat "$T/rc0") )) -ge 16 ] ||
	{ diag; fail "r2 forwarded $(( $(route_count_of) - $(cat "$T/rc0") )) of a's 8 PUTs and b's 8 ACKs"; }
    log "r2 forwarded all of a's PUTs and b's ACKs" ;;
b) target_expect $PUTS ;;
esac
barrier rte-checked

phase drain
if [ "$LNET_NODE" = a ]; then
	traffic_until "$SHARED/drain-stopped"
	echo "$ROUNDS" > "$T/rounds"
fi
if [ "$LNET_NODE" = r ]; then
	nap 1	# a's traffic under way
	route_count_of > "$T/rc0"
	"$LNETCTL" set routing 0 || fail "set routing 0"
	routing_wait 0 30
	log "routing disabled $((WAITED / 10)).$((WAITED % 10)) s after set routing 0"
	touch "$SHARED/drain-stopped"
fi
case $LNET_NODE in
a | b) gw_route_wait "$([ "$LNET_NODE" = a ] && echo "$R_TCP" || echo "$R_O2IB")" down 20 ;;
esac
barrier drained
case $LNET_NODE in
a) read -r rounds < "$T/rounds"
   echo "$rounds" > "$SHARED/rounds.drain" ;;
r | r2) d0=$(cat "$T/drops0")
	[ "$(routed_stat drop_count)" = "$d0" ] ||
		{ diag; fail "$LNET_NODE dropped $(( $(routed_stat drop_count) - d0 )) messages while r drained"; } ;;
esac
barrier drain-checked
read -r rounds < "$SHARED/rounds.drain"
PUTS=$((PUTS + rounds * 16))
[ "$LNET_NODE" = b ] && target_expect $PUTS
barrier drain-counted	# before a's next rounds land
# routing back on r, under traffic: its routes come back up at a and b
# (its push once ENABLED, spec 5.1), and traffic crosses it again
if [ "$LNET_NODE" = a ]; then
	traffic_until "$SHARED/back-on"
	echo "$ROUNDS" > "$SHARED/rounds.back"
fi
if [ "$LNET_NODE" = r ]; then
	nap 1
	route_count_of > "$T/rc0"
	"$LNETCTL" set routing 1 || fail "set routing 1 (back)"
	routing_wait 1 30
	for ((i = 0; i < 100; i++)); do
		[ "$(route_count_of)" -gt "$(cat "$T/rc0")" ] && break
		nap 0.2
	done
	[ "$(route_count_of)" -gt "$(cat "$T/rc0")" ] ||
		{ diag; fail "no traffic through r 20 s after it routes again"; }
	log "traffic through r again"
	touch "$SHARED/back-on"
fi
case $LNET_NODE in
a) gw_route_wait "$R_TCP" up 10 ;;
b) gw_route_wait "$R_O2IB" up 30 ;;
esac
barrier back-on-checked
read -r rounds < "$SHARED/rounds.back"
PUTS=$((PUTS + rounds * 16))
case $LNET_NODE in
b) target_expect $PUTS ;;
r | r2) d0=$(cat "$T/drops0")
	[ "$(routed_stat drop_count)" = "$d0" ] ||
		{ diag; fail "$LNET_NODE dropped messages while r routed again"; } ;;
esac
barrier drain-done

phase gateway_resend
# Spec 8: a send to a gateway that fails in the LND with REMOTE_DROPPED
# (r2's connection refused, ksocklnd's class for it, features spec 3b)
# is resent by full selection again, the gateway being multi-rail (r2's
# tcp and o2ib NIs): r2's NI demerited, r's route ranks first (3.2 step
# 4).  Every PUT passes, whichever gateway it took first.
PARAMS=/sys/module/lnet/parameters
case $LNET_NODE in
a)	# no checks: a's route through r2 stays up after r2's tcp NI went
	echo 0 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 0" ;;
r)	# nor of r then: r's W (5 s) would take its unpinged tcp NI down
	# (spec 6.7) and a's route through r with it; W 61 s for the phase
	echo 60 > $PARAMS/router_ping_timeout ||
		fail "router_ping_timeout 60" ;;
esac
barrier resend-ready
if [ "$LNET_NODE" = r2 ]; then
	"$LNETCTL" net del --net tcp || fail "net del --net tcp on r2"
fi
barrier r2-tcp-gone
if [ "$LNET_NODE" = a ]; then
	[ "$(route_to_gw_state "$R2_TCP")" = up ] ||
		{ diag; fail "a's route through r2 not up with a's checks off"; }
	rs0=$(routed_stat successful_resends)
	lt_ok put "$B" 65536 16 1
	rs1=$(routed_stat successful_resends)
	[ "$rs1" -gt "$rs0" ] ||
		{ diag; fail "no PUT met r2's refusal and was resent through r (successful_resends $rs0 -> $rs1)"; }
	log "r2 refusing, a's route through it up: 16 PUTs passed, successful_resends $rs0 -> $rs1"
	[ "$(route_to_gw_state "$R_TCP")" = up ] ||
		{ cat "$T/route.v"; diag; fail "a's route through r went down while a did not check it"; }
	echo 1 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 1"
	gw_route_wait "$R2_TCP" down 30
fi
barrier resent
if [ "$LNET_NODE" = r ]; then
	# a checks r again (every 1 s): W back to 5 s
	echo 4 > $PARAMS/router_ping_timeout || fail "router_ping_timeout 4"
fi
PUTS=$((PUTS + 16))
if [ "$LNET_NODE" = r2 ]; then
	"$LNETCTL" net add --net tcp --if eth0 || fail "net add --net tcp on r2"
fi
barrier r2-tcp-back
# a's connects to r2 wait out ksocklnd's back-off from the refusals
case $LNET_NODE in
a) gw_route_wait "$R2_TCP" up 60 ;;
b) gw_route_wait "$R2_O2IB" up 60 ;;
esac
barrier r2-back

phase gateway_cut
# r2's cable to a's net pulled (QMP set_link: eth0's carrier gone, no
# frame either way) while a's rounds run: what r2 held ends with a
# status (none hangs: a's and b's transaction_timeout 20 s), a's check
# of r2 fails and takes a's route through it down; r2's tcp NI, pinged
# by nobody, goes down after W (5 s, spec 6.7) and b's route through r2
# goes down with it (avoid_asym_router_failure); then a's traffic passes
# through r.  Cable back: both routes come up again.
case $LNET_NODE in
a | b) "$LNETCTL" set transaction_timeout 20 || fail "set transaction_timeout 20" ;;
esac
barrier cut-ready
[ "$LNET_NODE" = a ] && rounds_while "$SHARED/r2-cut" "r2's cable went"
if [ "$LNET_NODE" = r2 ]; then
	nap 1
	link_set eth0 down
	log "r2's eth0 cable pulled"
	touch "$SHARED/r2-cut"
fi
case $LNET_NODE in
a) gw_route_wait "$R2_TCP" down 60 ;;
b) gw_route_wait "$R2_O2IB" down 60 ;;
esac
barrier r2-cut 150
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$B" 65536 16 4
	log "r2's cable out: 16 PUTs through r passed"
fi
barrier cut-traffic
[ "$LNET_NODE" = r2 ] && { link_set eth0 up; log "r2's eth0 cable back"; }
barrier r2-uncut
case $LNET_NODE in
a) gw_route_wait "$R2_TCP" up 120 ;;
b) gw_route_wait "$R2_O2IB" up 120 ;;
esac
barrier cut-done 180
PUTS=$((PUTS + 16))

phase gateway_gone
# r2 goes (its modules unloaded) while a's traffic runs: what was in
# r2's hands may fail, but with a status, and once a's and b's checks
# took r2's routes down everything passes through r.  a's and b's
# transaction_timeout is 20 s: a PUT r2 forwarded whose ACK cannot come
# back (b sends it through r2, its previous hop, spec 3.4) ends by
# response tracking well within lnet_test's op_timeout of 60 s.
case $LNET_NODE in
a | b) "$LNETCTL" set transaction_timeout 20 || fail "set transaction_timeout 20" ;;
esac
barrier gone-ready
if [ "$LNET_NODE" = a ]; then
	# what a does from here is traced: diag (routed_lib.sh) shows it
	mountpoint -q $TRACEFS || mount -t tracefs nodev $TRACEFS ||
		fail "mount tracefs"
	echo 1 > "$TRACEFS/events/lnet/enable" || fail "no lnet tracepoints"
	rounds_while "$SHARED/r2-gone" "r2 went"
fi
if [ "$LNET_NODE" = r2 ]; then
	nap 1
	routed_unload
	log "r2's modules unloaded"
	touch "$SHARED/r2-gone"
fi
case $LNET_NODE in
a) gw_route_wait "$R2_TCP" down 30 ;;
b) gw_route_wait "$R2_O2IB" down 30 ;;
esac
barrier r2-gone 120
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$B" 65536 16 4
	lt_ok get "$B" 65536 16 4
	log "after r2 went: 16 PUTs and 16 GETs through r passed"
fi
barrier after-r2
case $LNET_NODE in
r) d0=$(cat "$T/drops0")
   [ "$(routed_stat drop_count)" = "$d0" ] ||
	{ diag; fail "r dropped messages when r2 went"; } ;;
b) # some of the PUTs of the rounds while r2 went may not have landed;
   # every one that did is intact, and so are the last 16
   t=$(cat "$TARGET")
   [ "$(field puts "$t")" -ge $((PUTS + 16)) ] && [ "$(field bad "$t")" = 0 ] &&
	[ "$(field failed "$t")" = 0 ] && [ "$(field overlap "$t")" = 0 ] ||
	{ diag; fail "target: want at least $((PUTS + 16)) PUTs landed intact: $t"; }
   log "target: $(field puts "$t") PUTs landed intact" ;;
esac
# The routes through the gone r2 deleted, then r2 as a peer: no more
# checks of it, nor recovery pings of its NI (its health fell), which
# would go on for ever.  (Before ksocklnd failed a send in its reconnect
# back-off at once, as stock does, each of them waited for the next
# connect attempt, up to sock_timeout: this phase's first runs found a
# message still allocated 40 s later.)
case $LNET_NODE in
a) "$LNETCTL" route del --net o2ib --gateway "$R2_TCP" || fail "route del via r2"
   r2=$R2_TCP ;;
b) "$LNETCTL" route del --net tcp --gateway "$R2_O2IB" || fail "route del via r2"
   r2=$R2_O2IB ;;
esac
# A peer with a message in flight is not deleted (EBUSY): retried.
case $LNET_NODE in
a | b) prim=$("$LNETCTL" peer show --nid "$r2" | awk '$2 == "primary" { print $4; exit }')
       [ -n "$prim" ] || fail "no peer of $r2"
       peer_del_retry "$prim" 60 ;;
esac

# Every node idle before any unloads: a router going first would fail
# the others' checks of it meanwhile.
[ "$LNET_NODE" = r2 ] || lnet_idle 60
barrier idle
[ "$LNET_NODE" = r2 ] || routed_unload
log "two routers OK"
