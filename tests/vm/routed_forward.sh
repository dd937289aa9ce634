#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end through a router (tests/vm/routed.py: a on tcp, r routing
# between tcp and o2ib, b on o2ib; spec lnet-routing.md 3, 4, 9 and 13,
# test 220):
#  - routing_on: r forwards ("set routing 1", "routing show" enable 1
#    with its buffer pools), a routes o2ib through r, b tcp through r;
#  - routed_ping: lnetctl ping a -> b and b -> a through r;
#  - routed_discovery: a's peer table has b (its o2ib NID, discovered
#    across the router: lnetctl discover too), and b's has a (spec 3.5);
#  - routed_bulk: PUT and GET of 0 B .. 1 MiB both ways at once through
#    r (tcp -> o2ib and back), every byte checked at the receiver;
#  - routed_lst: lnet_selftest, a the console: brw write and read,
#    check=full, 4 KiB and 1 MiB, a -> b through r: 0 errors;
#  - router_counters: r's route_count and route_length grew by what
#    crossed it, its send_count did not (forwarded messages are not
#    its own), buffers were taken from its pools, drop_count 0;
#  - next_hop_down: a unloaded, r's ksocklnd fails to connect to it and
#    tells LNet, which drops what r forwards to a (peer_down) without a
#    new connection attempt until a, back, pings r (spec 4.7); then b
#    and r's ko2iblnd alike;
#  - routing_states: "set routing 0" on r stops (a's PUT to b crosses r
#    meanwhile), then disables it (a's PUT dropped and counted by r);
#    "set routing 1" starts (a's PUT crosses r), then enables it (r's
#    push reaches a and b, a's PUT crosses r): spec 5.1, 5.3;
#  - drop_asym_route: b, with drop_asym_route on, drops a's ping that r
#    routed while no route of b's to tcp goes through r (spec 7);
#  - router_resend: r's onward sends of b's PUTs to a (ksocklnd) and of
#    a's PUTs to b (ko2iblnd) failed by a health-error drop rule
#    (LOCAL_DROPPED) are resent by r: all land (spec 8);
#  - mr_forwarding: b's PUTs to a's NID A land on a's other NI A2 when A
#    is not fully healthy on r, which rewrites dest_nid (spec 4.4);
#  - stock_client: a, its LNet unloaded, plays a stock Lustre client
#    (utils/tests/sock_lustre.c) through r to b: r's router check, b's
#    discovery, PUT/GET 0 B .. 1 MiB, checked as stock would (spec 11.1);
#  - stock_client_o2ib: b, its LNet unloaded, plays a stock Lustre client
#    on o2ib (utils/tests/o2ib_client.c) through r to a: the same checks,
#    PUTs above 3976 B by PUT_REQ/RDMA into r's buffers, GETs always
#    IMMEDIATE, large REPLYs by PUT_REQ onto its sink (spec 4.6, 11.1).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

COUNT=2
[ "$LNET_DEBUG_KERNEL" = 1 ] && COUNT=1
SIZES="0 1 3976 3977 65536 1048576"

# pools_used FILE: how many pools of "routing show" (FILE) had fewer
# credits than buffers at some point (mincredits < nbuffers), or have
# credits out of range.
pools_used() {
	local k v n=0 c=0 used=0
	while read -r k v; do
		case $k in
		nbuffers:) n=$v ;;
		credits:) c=$v ;;
		mincredits:)
			{ [ "$v" -lt "$n" ] || [ "$c" -gt "$n" ] || [ "$v" -gt "$c" ]; } &&
				used=$((used + 1)) ;;
		esac
	done < "$1"
	echo "$used"
}

phase routing_on
# small pools on r, so that the traffic below takes from each.  r's W
# (alive_router_check_interval + router_ping_timeout, spec 5.1 and 6.7)
# is read at each pass of r's router checker: stock's 110 s holds a
# window open while the nodes check it (on the debug kernel that takes
# several seconds), 4 s then ends it at the next pass; 110 s also keeps
# up a net of r that a or b stop pinging (next_hop_down).
RPT=/sys/module/lnet/parameters/router_ping_timeout
ARCI=/sys/module/lnet/parameters/alive_router_check_interval
if [ "$LNET_NODE" = r ]; then
	routed_load large_router_buffers=4 small_router_buffers=8 tiny_router_buffers=9 \
		alive_router_check_interval=2 router_ping_timeout=108
else
	routed_load
fi
# r routes before a and b add their routes: the router checker's first
# ping of r must not find RTE_DISABLED (it would take the route down
# until the next check, alive_router_check_interval later).  Spec 5.1:
# "set routing 1" STARTs (forwarding, RTE_DISABLED still advertised),
# ENABLED W later; a and b ping r meanwhile (as their checks would) and
# see RTE_DISABLED until then.
case $LNET_NODE in
r) "$LNETCTL" set routing 1 || fail "set routing 1"
   "$LNETCTL" routing show > "$T/routing"
   grep -qE '^[- ]*enable: 3$' "$T/routing" ||
	{ cat "$T/routing"; fail "routing show: not enable: 3 (starting)"; }
   dmesg | grep -q "LNet: Message forwarding will be enabled in 110s" ||
	fail "no 'Message forwarding will be enabled in 110s' on the console"
   [ "$(routes_first_line)" = "Routing starting" ] ||
	fail "debugfs routes: '$(routes_first_line)', want 'Routing starting'"
   # fresh pools: every buffer free, and none ever taken
   pools_used "$T/routing" > "$T/used"
   read -r used < "$T/used"
   [ "$used" = 0 ] ||
	{ cat "$T/routing"; fail "routing show: $used pools used before any traffic"; }
   ;;
esac
barrier routing-starting
if [ "$LNET_NODE" != r ]; then
	# The first connection of a fresh boot may take seconds (rxe: a
	# first ping of r, run alone, timed out at 5 s while its REPLY was
	# on the way); in the full test routed_config made it already.
	case $LNET_NODE in
	a) ping_ok "$R_TCP" 10 ;;
	b) ping_ok "$R_O2IB" 10 ;;
	esac
	r_features_now
	[ "$R_FEATURES" = 0x1e ] ||
		fail "r's ping features $R_FEATURES while starting, want 0x1e (RTE_DISABLED)"
fi
barrier starting-seen
case $LNET_NODE in
r) [ "$(routing_enable)" = 3 ] || fail "routing not starting any more with W 110 s"
   echo 2 > $RPT || fail "router_ping_timeout 2"
   routing_wait 1 15
   log "routing enabled $((WAITED / 10)).$((WAITED % 10)) s after W became 4 s"
   [ "$(routes_first_line)" = "Routing enabled" ] ||
	fail "debugfs routes: '$(routes_first_line)', want 'Routing enabled'"
   echo 108 > $RPT || fail "router_ping_timeout 108" ;;
*) r_features_wait 0x1a 20 ;;
esac
barrier routing-enabled
case $LNET_NODE in
a) "$LNETCTL" route add --net o2ib --gateway "$R_TCP" || fail "route add o2ib" ;;
b) "$LNETCTL" route add --net tcp --gateway "$R_O2IB" || fail "route add tcp" ;;
esac
barrier routing-on

phase routed_ping
case $LNET_NODE in
a) far=$B ;;
b) far=$A ;;
r) far= ;;
esac
if [ -n "$far" ]; then
	# (a's route is up once r's routing is enabled and a checked r)
	ping_ok "$far" 30
	lt_ok ping "$far" 4
	[ "$(field done)" = 4 ] || fail "lnet_test ping $far: $RESULT"
	log "$far answers through r"
fi
barrier pinged

phase routed_discovery
# Routing spec 3.5: the final destination of a routed send is a peer
# like any, discovered through r (a ping GET and a push PUT, both
# routed); "lnetctl discover" works through r too.  Both ends have
# discovery on: each becomes multi-rail, discovered and up to date
# (peer state 273) on the other, with its own NID only: nothing of r's
# merged into it.
if [ -n "$far" ]; then
	"$LNETCTL" discover "$far" > "$T/discover" 2>&1 ||
		{ cat "$T/discover"; diag; fail "lnetctl discover $far through r"; }
	grep -q "nid: $far\$" "$T/discover" ||
		{ cat "$T/discover"; fail "lnetctl discover $far: its NID not listed"; }
	peer_wait "$far" "primary nid: $far.*Multi-Rail: true.*peer state: 273" 10
	[ "$(grep -cE -- '^ *- +nid: ' "$T/peer")" = 1 ] ||
		{ cat "$T/peer"; fail "peer $far: not its NID alone"; }
	"$LNETCTL" peer show > "$T/peers"
	grep -q "primary nid: $far\$" "$T/peers" ||
		{ cat "$T/peers"; fail "peer show does not list $far"; }
	log "$far discovered across the router: $(tr -s ' \n' ' ' < "$T/peer")"
fi
barrier discovered

phase routed_bulk
if [ "$LNET_NODE" = r ]; then
	rc0=$(routed_stat route_count)
	rl0=$(routed_stat route_length)
	sc0=$(routed_stat send_count)
	echo "$rc0 $rl0 $sc0" > "$T/r0"
fi
# r's counters are taken before any of the traffic they must count.
barrier bulk-base
if [ "$LNET_NODE" != r ]; then
	for op in put get; do
		for size in $SIZES; do
			lt_ok "$op" "$far" "$size" "$COUNT" 2
			[ "$(field done)" = "$COUNT" ] &&
				[ "$(field bytes)" = $((size * COUNT)) ] ||
				fail "$op $size to $far: $RESULT"
		done
	done
	log "PUT/GET 0 B .. 1 MiB to $far through r: OK, data checked"
fi
barrier bulk-done
# each end: the other's PUTs landed intact
[ "$LNET_NODE" = r ] || target_expect $((6 * COUNT))
barrier bulk-checked

phase router_counters
if [ "$LNET_NODE" = r ]; then
	read -r rc0 rl0 sc0 < "$T/r0"
	rc1=$(routed_stat route_count)
	rl1=$(routed_stat route_length)
	sc1=$(routed_stat send_count)
	# Each way, per size and op, COUNT requests and COUNT responses
	# (ACK or REPLY): at least 2 x 2 x 6 x 2 x COUNT messages; the
	# payload: both ways, PUT data and GET replies, every size.
	want_msgs=$((2 * 2 * 6 * 2 * COUNT))
	want_len=$((2 * 2 * COUNT * (1 + 3976 + 3977 + 65536 + 1048576)))
	log "route_count $rc0 -> $rc1, route_length $rl0 -> $rl1, send_count $sc0 -> $sc1"
	[ $((rc1 - rc0)) -ge "$want_msgs" ] ||
		{ diag; fail "route_count grew by $((rc1 - rc0)), want >= $want_msgs"; }
	[ $((rl1 - rl0)) -ge "$want_len" ] ||
		{ diag; fail "route_length grew by $((rl1 - rl0)), want >= $want_len"; }
	[ "$sc1" = "$sc0" ] ||
		fail "send_count grew by $((sc1 - sc0)): forwarded messages counted as r's own"
	[ "$(routed_stat drop_count)" = 0 ] ||
		{ diag; fail "r dropped $(routed_stat drop_count) messages"; }
	"$LNETCTL" routing show > "$T/routing"
	# every pool's lowest credits below its buffers: the 1 MiB ones
	# took large buffers, the small ones small or tiny buffers
	pools_used "$T/routing" > "$T/used"
	read -r used < "$T/used"
	[ "$used" -ge 2 ] ||
		{ cat "$T/routing"; fail "routing show: $used pools used, want >= 2"; }
	log "routing show: $(tr -s ' \n' ' ' < "$T/routing")"
fi
barrier counted

phase routed_lst
if [ "$LNET_NODE" != r ]; then
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=20 ||
		fail "insmod lnet_selftest"
fi
barrier lst-up
if [ "$LNET_NODE" = a ]; then
	LST=$LNET_TOP/build/utils/static/lst
	export LST_SESSION=4343
	lst_run() {
		log "\$ lst $*"
		OUT=$("$LST" "$@" 2>&1) || { echo "$OUT"; fail "lst $*"; }
	}
	lst_run new_session --timeout 300 routed
	lst_run add_group a "$A"
	lst_run add_group b "$B"
	lst_run add_batch rw
	for t in "brw write size=1M" "brw read size=1M" "brw write size=4k" \
		 "brw read size=4k"; do
		# shellcheck disable=SC2086 # the test's words
		lst_run add_test --batch rw --concurrency 2 --loop 4 --from a --to b $t check=full
	done
	lst_run run rw
	for ((i = 0; i < CMD_LIMIT * 2; i++)); do
		"$LST" query rw | grep -q "Batch is idle" && break
		nap 0.5
	done
	lst_run query rw
	case $OUT in *"Batch is idle"*) ;; *) fail "batch rw still running: $OUT" ;; esac
	lst_run show_error a b
	case $OUT in
	*"Total 0 error nodes in a"*"Total 0 error nodes in b"*) ;;
	*) echo "$OUT"; fail "lst brw through r: errors" ;;
	esac
	lst_run end_session
	log "lst brw write/read 4 KiB and 1 MiB check=full through r: 0 errors"
fi
barrier lst-done
[ "$LNET_NODE" = r ] || { rmmod lnet_selftest || fail "rmmod lnet_selftest"; }

phase next_hop_down
# Spec 4.7 (sanity-lnet test 227), each LND in turn: a's modules are
# gone, so r's ksocklnd cannot connect to a (refused); then b's, so r's
# ko2iblnd cannot connect to b (rejected).  The LND tells LNet
# (lnet_notify()): r holds that NI down and drops what it would forward
# to it, counted as peer_down, without another connection attempt, until
# it hears from it again (here its own ping of r once it is back).
# peer_ni_state NID: the "state" of NID in this node's "peer show"
# (routing spec 9: up/down for a gateway's NI and, on a router, for a
# peer NI on a net with a peer_timeout; NA otherwise).
peer_ni_state() {
	"$LNETCTL" peer show --nid "$1" |
		sed -n "/^ *- *nid: $1\$/{n;s/^ *state: //p}"
}
# far_status NID: "up" or "down", NID as r's LNet holds it.
far_status() {
	peer_ni_state "$1"
}
drops() {
	counter /sys/kernel/debug/lnet/drops "$1"
}
# ping_fails NID: a ping of NID (an unloaded node, through r) fails.
ping_fails() {
	if "$LNETCTL" ping --timeout 3 "$1" >/dev/null 2>&1; then
		fail "ping of the unloaded $1 through r succeeded"
	fi
	return 0
}
# next_hop_down_round VICTIM: VICTIM (a or b) unloads, the other end
# pings it through r twice, VICTIM comes back and pings r.
next_hop_down_round() {
	local victim=$1 vnid stats rnid route pinger
	case $victim in
	a) vnid=$A; stats=$KSTATS; rnid=$R_TCP; route="o2ib $R_TCP"; pinger=b ;;
	b) vnid=$B; stats=$O2IB_STATS; rnid=$R_O2IB; route="tcp $R_O2IB"; pinger=a ;;
	esac
	if [ "$LNET_NODE" = "$victim" ]; then
		lnet_idle
		routed_unload
	fi
	barrier "$victim-gone"
	[ "$LNET_NODE" = "$pinger" ] && ping_fails "$vnid"
	barrier "$victim-tried"
	if [ "$LNET_NODE" = r ]; then
		for ((i = 0; i < 20; i++)); do
			[ "$(far_status "$vnid")" = down ] && break
			nap 0.5
		done
		[ "$(far_status "$vnid")" = down ] ||
			{ diag; fail "$victim's NI not down on r after its connection failed"; }
		counter "$stats" connect_failed > "$T/cf0"
		drops peer_down > "$T/pd0"
	fi
	barrier "$victim-down"
	[ "$LNET_NODE" = "$pinger" ] && ping_fails "$vnid"
	barrier "$victim-tried-again"
	if [ "$LNET_NODE" = r ]; then
		read -r cf0 < "$T/cf0"
		read -r pd0 < "$T/pd0"
		cf1=$(counter "$stats" connect_failed)
		pd1=$(drops peer_down)
		log "$victim down: r's peer_down drops $pd0 -> $pd1, connect_failed $cf0 -> $cf1"
		[ "$pd1" -gt "$pd0" ] ||
			{ diag; fail "r forwarded to $victim's NI it holds down: no peer_down drop"; }
		[ "$cf1" = "$cf0" ] ||
			{ diag; fail "r tried to connect to $victim's NI it holds down"; }
	elif [ "$LNET_NODE" = "$victim" ]; then
		routed_load
		# shellcheck disable=SC2086 # net and gateway
		set -- $route
		"$LNETCTL" route add --net "$1" --gateway "$2" ||
			fail "route add $route (back)"
		ping_ok "$rnid" 10
	fi
	barrier "$victim-back"
	if [ "$LNET_NODE" = r ]; then
		[ "$(far_status "$vnid")" = up ] ||
			{ diag; fail "$victim's NI not up on r after its ping"; }
	fi
	[ "$LNET_NODE" = "$pinger" ] && ping_ok "$vnid" 10
	barrier "$victim-reached"
}
# Where aliveness is tracked: r, a gateway, is up on a and b; the far
# end (no gateway, a and b do not route) is NA.
case $LNET_NODE in
a) [ "$(peer_ni_state "$R_TCP")" = up ] &&
	[ "$(peer_ni_state "$B")" = NA ] ||
	{ "$LNETCTL" peer show; fail "peer show state: r not up or b not NA"; } ;;
b) [ "$(peer_ni_state "$R_O2IB")" = up ] &&
	[ "$(peer_ni_state "$A")" = NA ] ||
	{ "$LNETCTL" peer show; fail "peer show state: r not up or a not NA"; } ;;
esac
# r freezes health meanwhile: a router handles the health of any peer
# NI (routing spec 8), and one demerited by the failed connection would
# get recovery pings, which are sent whatever its aliveness (stock sends
# recovery messages "irregardless") and connect; what this phase checks
# is that the traffic r forwards does not.
if [ "$LNET_NODE" = r ]; then
	hs=$("$LNETCTL" global show | awk '$1 == "health_sensitivity:" { print $2 }')
	rc=$("$LNETCTL" global show | awk '$1 == "retry_count:" { print $2 }')
	"$LNETCTL" set health_sensitivity 0 || fail "set health_sensitivity 0"
fi
next_hop_down_round a
next_hop_down_round b
if [ "$LNET_NODE" = r ]; then
	# health_sensitivity 0 set retry_count 0, and setting it back does
	# not restore that (spec features 1b, as stock)
	"$LNETCTL" set health_sensitivity "$hs" || fail "set health_sensitivity $hs"
	"$LNETCTL" set retry_count "$rc" || fail "set retry_count $rc"
fi

phase routing_states
# Stock's drain (spec 5.1, 5.3), each window held open with W 110 s on r
# while the nodes check it, then ended with W 4 s (routing_on says why):
# "set routing 0" STOPs (enable 2, debugfs "Routing stopping",
# RTE_DISABLED advertised at once, "set routing 1" refused with -EBUSY)
# while r still forwards, then r is DISABLED once W is over (its tiny
# pool idle) and drops what a still sends through it (drop_count, reason
# no_routing); "set routing 1" STARTs (enable 3, RTE_DISABLED still
# advertised) while r forwards again, and once W is over r is ENABLED
# and pushes that to a and b.  a and b run no router
# checks meanwhile (alive_router_check_interval 0: their routes stay as
# they are, as a stock client's would until its next check) and ping r
# every half second themselves (lnetctl ping: no merge of the reply), which
# keeps r's NIs up (spec 6.7: an NI down would be pushed, and the push
# would carry RTE_DISABLED); a's PUTs to b through r while stopping,
# starting and enabled are checked byte for byte by b.
# r_state N TEXT: r's routing show says N and debugfs routes TEXT.
r_state() {
	local e
	e=$(routing_enable)
	[ "$e" = "$1" ] || { diag; fail "routing show: enable: $e, want $1"; }
	[ "$(routes_first_line)" = "Routing $2" ] ||
		fail "debugfs routes: '$(routes_first_line)', want 'Routing $2'"
}
# window_put WHAT: a's 1 MiB PUT to b through r passes (r in state WHAT).
window_put() {
	lt_ok put "$B" 1048576 1 1
	log "PUT of 1 MiB to $B through r while r is $1: OK"
}
# window_seen WHAT: a and b read RTE_DISABLED in r's ping buffer (r in
# state WHAT, a window), then a's PUT crosses r.
window_seen() {
	if [ "$LNET_NODE" != r ]; then
		r_features_now
		[ "$R_FEATURES" = 0x1e ] ||
			fail "r's ping features $R_FEATURES while $1, want 0x1e (RTE_DISABLED)"
	fi
	[ "$LNET_NODE" = a ] && window_put "$1"
	barrier "$1-put"
}
# window_end N TEXT N2 TEXT2 (r): r is still in its window, state N
# (debugfs TEXT: a's PUT crossed it then), and W 4 s ends it: state N2.
window_end() {
	r_state "$1" "$2"
	echo 2 > $RPT || fail "router_ping_timeout 2"
	routing_wait "$3" 15
	log "routing $4 $((WAITED / 10)).$((WAITED % 10)) s after W became 4 s"
	r_state "$3" "$4"
}
pushes() {
	counter /sys/kernel/debug/lnet/discovery pushes
}
# keep_pinging GW: ping GW every half second until $T/pinger-stop
# exists (r's W of 4 s at each window's end leaves room for a slow ping
# on a loaded debug kernel).
keep_pinging() {
	while [ ! -e "$T/pinger-stop" ]; do
		"$LNETCTL" ping --timeout 2 "$1" > /dev/null 2>&1 || true
		nap 0.5
	done
}
case $LNET_NODE in
a) echo 0 > $ARCI || fail "alive_router_check_interval 0"
   keep_pinging "$R_TCP" & PINGER=$! ;;
b) echo 0 > $ARCI || fail "alive_router_check_interval 0"
   keep_pinging "$R_O2IB" & PINGER=$! ;;
esac
[ "$LNET_NODE" = r ] || nap 1	# the first ping is out
barrier states-pinging
if [ "$LNET_NODE" = r ]; then
	"$LNETCTL" set routing 0 || fail "set routing 0"
	must_fail "set routing 1 while stopping" \
		"routing is stopping: enable it once it is disabled" \
		"$LNETCTL" set routing 1
	grep -q "errno: -16" "$T/out" "$T/err" ||
		{ cat "$T/out" "$T/err"; fail "set routing 1 while stopping: not -EBUSY"; }
	"$LNETCTL" set routing 0 || fail "set routing 0 while stopping (no-op)"
	r_state 2 stopping
	dmesg | grep -q "LNet: Message forwarding will stop in 110s to 330s" ||
		fail "no 'Message forwarding will stop in 110s to 330s' on the console"
fi
barrier stopping
window_seen stopping
if [ "$LNET_NODE" = r ]; then
	window_end 2 stopping 0 disabled
	# the pools' buffers are freed, the pools kept (spec 5.1)
	awk 'NR > 1 && $2 != 0 { bad = 1 } END { exit bad || NR != 4 }' \
		/sys/kernel/debug/lnet/buffers ||
		{ cat /sys/kernel/debug/lnet/buffers; fail "debugfs buffers: not 3 empty pools"; }
	counter /sys/kernel/debug/lnet/drops no_routing > "$T/nr0"
fi
barrier disabled
# a's route through r is still up (a checks no router): its PUT reaches
# r, which no longer routes: dropped and counted there, never at b.
if [ "$LNET_NODE" = a ]; then
	echo 4 > /sys/module/lnet_test/parameters/op_timeout
	lt put "$B" 4096 1 1
	[ "$(field done)" = 1 ] && [ "$(field errors)" = 0 ] && [ "$(field rc)" = 0 ] &&
		fail "PUT to $B passed with routing disabled on r: $RESULT"
	log "PUT to $B with routing disabled on r failed: $RESULT"
	echo 30 > /sys/module/lnet_test/parameters/op_timeout
fi
barrier disabled-put
if [ "$LNET_NODE" = r ]; then
	read -r nr0 < "$T/nr0"
	nr1=$(counter /sys/kernel/debug/lnet/drops no_routing)
	[ "$nr1" -gt "$nr0" ] ||
		{ diag; fail "a's PUT through r while disabled: no_routing drops $nr0 -> $nr1"; }
	log "a's PUT while disabled dropped by r: no_routing $nr0 -> $nr1"
	"$LNETCTL" set routing 0 || fail "set routing 0 while disabled (no-op)"
	echo 108 > $RPT || fail "router_ping_timeout 108"
	"$LNETCTL" set routing 1 || fail "set routing 1 (after stopping)"
	r_state 3 starting
	"$LNETCTL" set routing 1 || fail "set routing 1 while starting (no-op)"
	awk 'NR > 1 && $2 == 0 { bad = 1 } END { exit bad || NR != 4 }' \
		/sys/kernel/debug/lnet/buffers ||
		{ cat /sys/kernel/debug/lnet/buffers; fail "debugfs buffers: pools not refilled"; }
fi
barrier starting
[ "$LNET_NODE" = r ] || pushes > "$T/pushes0"
window_seen starting
if [ "$LNET_NODE" = r ]; then
	window_end 3 starting 1 enabled
	echo 108 > $RPT || fail "router_ping_timeout 108"
	sed -n 2p /sys/kernel/debug/lnet/routers | grep -q . &&
		fail "debugfs routers on r (no routes): $(cat /sys/kernel/debug/lnet/routers)"
else
	# the forced push of "enabled" (spec 5.1), before any check of ours
	r_features_wait 0x1a 20
	read -r p0 < "$T/pushes0"
	for ((i = 0; i < 50; i++)); do
		[ "$(pushes)" -gt "$p0" ] && break
		nap 0.2
	done
	[ "$(pushes)" -gt "$p0" ] || { diag; fail "no push from r once it was enabled"; }
	log "r's push arrived: pushes $p0 -> $(pushes)"
	# debugfs routes and routers (spec 9): r up, as route show says,
	# once the push is merged (the discovery thread's work: it counts
	# the push when it arrives)
	case $LNET_NODE in
	a) want="o2ib -1 0 up $R_TCP" ;;
	b) want="tcp -1 0 up $R_O2IB" ;;
	esac
	for ((i = 0; i < 50; i++)); do
		sed -n 3p /sys/kernel/debug/lnet/routes | tr -s ' ' | grep -qx "$want" &&
			break
		nap 0.2
	done
	sed -n 3p /sys/kernel/debug/lnet/routes | tr -s ' ' | grep -qx "$want" ||
		{ cat /sys/kernel/debug/lnet/routes; fail "debugfs routes: no '$want' 10 s after r's push"; }
	# its primary NID (the tcp one, as r set its NIs up) names it
	awk -v t="$R_TCP" -v o="$R_O2IB" \
		'NR == 2 && $2 == 1 && $3 == "up" && ($4 == t || $4 == o) { ok = 1 }
		END { exit !ok }' /sys/kernel/debug/lnet/routers ||
		{ cat /sys/kernel/debug/lnet/routers; fail "debugfs routers: r not up with 1 route"; }
	echo 2 > $ARCI || fail "alive_router_check_interval 2"
	touch "$T/pinger-stop"
	wait "$PINGER"
fi
[ "$LNET_NODE" = a ] && window_put enabled
barrier states-done

phase drop_asym_route
# Spec 7: with drop_asym_route on, b keeps what r routes to it from a
# only while a route of b's to a's net goes through r: with it a's ping
# passes; with that route deleted, a's ping is dropped at b, silently
# (a's ping times out) and counted as asym_route; back, it passes.
ASYM=/sys/kernel/debug/lnet/drops
if [ "$LNET_NODE" = b ]; then
	"$LNETCTL" set drop_asym_route 1 || fail "set drop_asym_route 1"
	counter $ASYM asym_route > "$T/asym0"
fi
barrier asym-on
[ "$LNET_NODE" = a ] && ping_ok "$B" 3
barrier asym-symmetric
[ "$LNET_NODE" = b ] && { "$LNETCTL" route del --net tcp --gateway "$R_O2IB" ||
	fail "route del tcp"; }
barrier asym-route-gone
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" ping --timeout 2 "$B" > "$T/out" 2>&1 &&
		{ cat "$T/out"; fail "ping $B passed: b has no route back through r"; }
	log "ping $B through r, b routing tcp elsewhere: failed, as it should"
fi
barrier asym-pinged
if [ "$LNET_NODE" = b ]; then
	read -r asym0 < "$T/asym0"
	asym1=$(counter $ASYM asym_route)
	[ "$asym1" -gt "$asym0" ] ||
		{ diag; fail "a's ping through r: asym_route drops $asym0 -> $asym1"; }
	log "a's ping dropped as asymmetric: asym_route $asym0 -> $asym1"
	"$LNETCTL" route add --net tcp --gateway "$R_O2IB" || fail "route add tcp (back)"
	route_state up 20 single-hop
	echo "$asym1" > "$T/asym1"
fi
barrier asym-route-back
[ "$LNET_NODE" = a ] && ping_ok "$B" 5
barrier asym-symmetric-again
if [ "$LNET_NODE" = b ]; then
	read -r asym1 < "$T/asym1"
	[ "$(counter $ASYM asym_route)" = "$asym1" ] ||
		fail "asym_route drops grew with r routing both ways"
	"$LNETCTL" set drop_asym_route 0 || fail "set drop_asym_route 0"
fi

# b's lnet_test is new since next_hop_down reloaded b: routing_states'
# three PUTs (stopping, starting, enabled)
[ "$LNET_NODE" = b ] && target_expect 3


phase mr_forwarding
# Spec 4.4, MR forwarding: r may send the final hop of a PUT or GET from
# a multi-rail originator (b, as r knows it) to a multi-rail destination
# (a, with a second tcp NI on eth0's alias) to another NI of it when the
# one the header names is DOWN or not fully healthy, and writes that NI
# into dest_nid.  b addresses exactly A (its discovery off, a's peer
# made anew: one NID, not multi-rail); A healthy on r: the PUTs land on
# A; A's health 0 on r (r's recovery pings of A dropped at a, a's checks
# of r off, so nothing from A makes it healthy again): they land on A2.
A2=${IP_a_net0%.*}.60@tcp
# ni_rx_bytes NID: the payload bytes local NI NID received (debugfs nis)
ni_rx_bytes() {
	awk -v nid="$1" '$1 == nid { print $10 }' /sys/kernel/debug/lnet/nis
}
case $LNET_NODE in
a)	puts0=$(field puts "$(cat "$TARGET")")
	ip addr add "${A2%@*}/24" dev eth0 label eth0:1 || fail "ip addr add ${A2%@*}"
	"$LNETCTL" net add --net tcp --if eth0:1 || fail "net add --net tcp --if eth0:1" ;;
b)	"$LNETCTL" set discovery 0 || fail "set discovery 0 on b" ;;
esac
barrier mr-nis
case $LNET_NODE in
r)	# a discovered with its two NIs.  b, the originator, with its
	# discovery off answers a discovery as a non-multi-rail peer (the
	# merge drops MULTI_RAIL unless the peer is configured), so r
	# configures it multi-rail, as an admin would
	"$LNETCTL" discover "$A" > "$T/disc" 2>&1 || { cat "$T/disc"; fail "discover $A"; }
	"$LNETCTL" peer add --prim_nid "$B" || fail "peer add --prim_nid $B (multi-rail) on r"
	"$LNETCTL" peer show --nid "$A" > "$T/peer" || fail "peer show --nid $A"
	grep -q "nid: $A2\$" "$T/peer" && grep -qi "Multi-Rail: true" "$T/peer" ||
		{ cat "$T/peer"; fail "r does not know a multi-rail with $A2"; }
	"$LNETCTL" peer show --nid "$B" > "$T/peer" || fail "peer show --nid $B"
	grep -qi "Multi-Rail: true" "$T/peer" ||
		{ cat "$T/peer"; fail "r does not know b multi-rail"; } ;;
b)	# a's peer made anew by the PUTs below: one NID, A (if b has one)
	if "$LNETCTL" peer show --nid "$A" > /dev/null 2>&1; then
		"$LNETCTL" peer del --prim_nid "$A" || fail "peer del $A on b"
	fi ;;
esac
barrier mr-known
mr_puts() {	# N: b PUTs N x 64 KiB to A; a says which NI took them
	case $LNET_NODE in
	a) echo "$(ni_rx_bytes "$A") $(ni_rx_bytes "$A2")" > "$T/rx0" ;;
	esac
	barrier "mr-puts-$1-$2"
	[ "$LNET_NODE" = b ] && lt_ok put "$A" 65536 "$1" 1
	barrier "mr-puts-$1-$2-done"
	if [ "$LNET_NODE" = a ]; then
		read -r x0 y0 < "$T/rx0"
		x=$(($(ni_rx_bytes "$A") - x0))
		y=$(($(ni_rx_bytes "$A2") - y0))
		log "b's $1 PUTs to $A ($2): $x bytes on $A, $y on $A2"
		if [ "$2" = healthy ]; then
			[ "$x" -ge $(($1 * 65536)) ] && [ "$y" -lt 65536 ]
		else
			[ "$y" -ge $(($1 * 65536)) ] && [ "$x" -lt 65536 ]
		fi || { diag; fail "b's PUTs to $A, $A $2 on r: $x bytes on $A, $y on $A2"; }
	fi
}
mr_puts 2 healthy
case $LNET_NODE in
a)	echo 0 > $ARCI || fail "alive_router_check_interval 0"
	"$LNETCTL" fault drop add -s "$R_TCP" -d "$A" -m get -r 1 ||
		fail "fault drop add (r's pings of $A)" ;;
esac
barrier mr-quiet
if [ "$LNET_NODE" = r ]; then
	"$LNETCTL" peer set --nid "$A" --health 0 || fail "peer set --health 0"
fi
barrier mr-sick
mr_puts 4 unhealthy
case $LNET_NODE in
a)	"$LNETCTL" fault drop del --all || fail "fault drop del --all"
	"$LNETCTL" net del --net tcp --if eth0:1 || fail "net del --if eth0:1"
	ip addr del "${A2%@*}/24" dev eth0 || fail "ip addr del ${A2%@*}"
	echo 2 > $ARCI || fail "alive_router_check_interval 2"
	target_expect $((puts0 + 2 + 4)) ;;
b)	"$LNETCTL" set discovery 1 || fail "set discovery 1 on b" ;;
esac
barrier mr-undone
# r forgets a's two-NI peer (the stock client below plays A alone) and
# b's configured one (a peer with a message in flight is busy: retried)
if [ "$LNET_NODE" = r ]; then
	lnet_idle
	peer_del_retry "$A" 20
	peer_del_retry "$B" 20
fi
barrier mr-done

phase router_resend
# Spec 8: an onward send that fails in r's LND with a class an
# originator resends (LOCAL_DROPPED, made by a health-error drop rule on
# r: one in each run of 2 of the matching sends is failed instead of
# sent, and the connection closed, as stock's) is sent again by r,
# header, buffer and router credit kept: every PUT lands intact (at most
# two failures in a row: retry_count 2), and r counts its resends.  One
# hop at a time, each rule naming the other way's source: b's PUTs to a
# fail on r's ksocklnd, a's PUTs to b on r's ko2iblnd.  b's PUTs are
# IMMEDIATE (3976 B): a larger one would have r's ko2iblnd send b a
# PUT_ACK for it, a send of that message too, which the rule fails as
# stock's (the PUT then fails at b, not at r).
# resend_hop SRC DST SRC_NID DST_NID SIZE: 8 PUTs of SIZE from node SRC to
# DST, r failing one in 2 of its onward sends of them.
resend_hop() {
	local src=$1 dst=$2 rs0 ok0 rs1 ok1 dropped puts0=
	case $LNET_NODE in
	r)	# what r did, in diag's trace tail if this fails
		mountpoint -q $TRACEFS || mount -t tracefs nodev $TRACEFS ||
			fail "mount tracefs"
		echo > $TRACEFS/trace
		echo 1 > $TRACEFS/events/lnet/enable
		rs0=$(routed_stat resend_count)
		ok0=$(routed_stat successful_resends)
		"$LNETCTL" fault drop add -s "$3" -d "$4" -m put -r 2 -e local_dropped ||
			fail "fault drop add -s $3 -d $4 (r's onward PUTs)" ;;
	"$dst")	puts0=$(field puts "$(cat "$TARGET")") ;;
	esac
	barrier "resend-rule-$src"
	if [ "$LNET_NODE" = "$src" ]; then
		# a PUT r failed to resend: its ACK's wait ends in 20 s
		"$LNETCTL" set transaction_timeout 20 || fail "set transaction_timeout 20"
		lt_ok put "$4" "$5" 8 1
		"$LNETCTL" set transaction_timeout 150 || fail "set transaction_timeout 150"
	fi
	barrier "resend-puts-$src"
	case $LNET_NODE in
	r)	rs1=$(routed_stat resend_count)
		ok1=$(routed_stat successful_resends)
		"$LNETCTL" fault drop show > "$T/fd" || fail "fault drop show"
		dropped=$(awk '$1 == "ds_dropped:" { print $2; exit }' "$T/fd")
		"$LNETCTL" fault drop del --all || fail "fault drop del --all"
		echo 0 > $TRACEFS/events/lnet/enable
		log "r: the rule failed $dropped onward PUTs $src -> $dst; resend_count $rs0 -> $rs1, successful_resends $ok0 -> $ok1"
		[ "${dropped:-0}" -ge 4 ] ||
			{ cat "$T/fd"; fail "the rule failed ${dropped:-0} of r's onward PUTs, want >= 4 (1 in 2 of >= 8)"; }
		[ $((rs1 - rs0)) -ge "$dropped" ] && [ $((ok1 - ok0)) -ge 1 ] ||
			{ diag; fail "r resent $((rs1 - rs0)) of $dropped failed onward PUTs, $((ok1 - ok0)) successfully"; } ;;
	"$dst")	target_expect $((puts0 + 8)) ;;
	esac
	barrier "resend-done-$src"
}
resend_hop b a "$B" "$A" 3976
resend_hop a b "$A" "$B" 65536

phase stock_client
# Spec 11.1 and 14 (items 1-3, 8), S client - N router - N server: a
# unloads its LNet and plays a stock Lustre client on tcp
# (utils/tests/sock_lustre.c: V3 HELLOs on a CONTROL, a BULK_IN and a
# BULK_OUT connection to r, r's router check (ping: r's two NIs UP, no
# RTE_DISABLED; push ACKed), b discovered through r (ping, push), PUTs
# with ACK and GETs of 0 B .. 1 MiB to b's lnet_test, every header field
# of the ACKs and REPLYs and every GET byte checked there, the typed
# connection rules kept by r, pings and pushes from r or b answered).
# b's target checks every PUT byte; r forwarded it all (route_count)
# without a drop.
SOCK_LUSTRE=$LNET_TOP/build/utils/sock_lustre
case $LNET_NODE in
a) lnet_idle
   routed_unload ;;
r) echo "$(routed_stat route_count) $(routed_stat drop_count)" > "$T/stock0" ;;
b) field puts "$(cat "$TARGET")" > "$T/stock0" ;;
esac
barrier stock-ready
if [ "$LNET_NODE" = a ]; then
	"$SOCK_LUSTRE" -t 20 "$IP_r_net0" "$R_TCP" "$R_O2IB" "$B" > "$T/stock" 2>&1 ||
		{ sed 's/^/[a] sock_lustre: /' "$T/stock"; fail "stock client through r"; }
	sed 's/^/[a] sock_lustre: /' "$T/stock"
	grep -qx "OK: puts=6 bytes=1122066 gets=6 .*" "$T/stock" ||
		fail "sock_lustre: not 6 PUTs and 6 GETs: $(tail -n 1 "$T/stock")"
fi
barrier stock-done
case $LNET_NODE in
r) read -r rc0 dc0 < "$T/stock0"
   rc1=$(routed_stat route_count)
   # 14 requests (ping and push of b, 6 PUTs, 6 GETs) and their responses
   [ $((rc1 - rc0)) -ge 28 ] ||
	{ diag; fail "route_count grew by $((rc1 - rc0)) for the stock client, want >= 28"; }
   [ "$(routed_stat drop_count)" = "$dc0" ] ||
	{ diag; fail "r dropped $(($(routed_stat drop_count) - dc0)) of the stock client's messages"; }
   log "stock client through r: route_count $rc0 -> $rc1, no drop" ;;
b) read -r puts0 < "$T/stock0"
   target_expect $((puts0 + 6)) ;;
esac


phase stock_client_o2ib
# Spec 11.1 item 5 and 14 items 2 and 6, S client - N router - N server
# over o2ib: b unloads its LNet (rxe0 stays) and plays a stock Lustre
# client on o2ib (utils/tests/o2ib_client.c: rdma_cm to r's ko2iblnd from
# a privileged port, a V2 CONNREQ {8, 257, 4096} (again with r's
# incarnation after a CONN_STALE reject), r's router check (ping GET
# IMMEDIATE: r's two NIs UP, no RTE_DISABLED; push ACKed), a discovered
# through r (ping, push), PUTs with ACK to a's lnet_test of 0 B .. 3976 B
# IMMEDIATE and 3977 B .. 1 MiB as PUT_REQ (r's PUT_ACK, our RDMA WRITEs
# into r's buffer, PUT_DONE), GETs of the same sizes always IMMEDIATE,
# their REPLYs IMMEDIATE or PUT_REQ onto our sink (PUT_ACK, r's RDMA,
# PUT_DONE), every header field of the ACKs and REPLYs and every GET byte
# checked there, r's credits, message types and o2ib headers checked,
# pings and pushes from r or a answered).  a, its LNet back (stock_client
# left it unloaded) with its route to o2ib through r, checks every PUT
# byte; r forwarded it all (route_count) without a drop.
O2IB_CLIENT=$LNET_TOP/build/utils/o2ib_client
case $LNET_NODE in
a) routed_load
   "$LNETCTL" route add --net o2ib --gateway "$R_TCP" || fail "route add o2ib"
   # r dropped a as a next hop when sock_lustre hung up (spec 4.7):
   # a's ping tells r it is back
   ping_ok "$R_TCP" 5
   route_state up 20 ;;
b) lnet_idle
   routed_unload ;;
esac
barrier o2ib-client-load
[ "$LNET_NODE" = r ] &&
	echo "$(routed_stat route_count) $(routed_stat drop_count)" > "$T/o2ib0"
barrier o2ib-client-ready
if [ "$LNET_NODE" = b ]; then
	"$O2IB_CLIENT" -t 20 "$IP_r_net1" "$R_O2IB" "$R_TCP" "$A" > "$T/o2ib" 2>&1 ||
		{ sed 's/^/[b] o2ib_client: /' "$T/o2ib"; fail "stock o2ib client through r"; }
	sed 's/^/[b] o2ib_client: /' "$T/o2ib"
	grep -qx "OK: puts=6 bytes=1122066 gets=6 .*" "$T/o2ib" ||
		fail "o2ib_client: not 6 PUTs and 6 GETs: $(tail -n 1 "$T/o2ib")"
fi
barrier o2ib-client-done
case $LNET_NODE in
r) read -r rc0 dc0 < "$T/o2ib0"
   rc1=$(routed_stat route_count)
   # 14 requests (ping and push of a, 6 PUTs, 6 GETs) and their responses
   [ $((rc1 - rc0)) -ge 28 ] ||
	{ diag; fail "route_count grew by $((rc1 - rc0)) for the o2ib client, want >= 28"; }
   [ "$(routed_stat drop_count)" = "$dc0" ] ||
	{ diag; fail "r dropped $(($(routed_stat drop_count) - dc0)) of the o2ib client's messages"; }
   log "stock o2ib client through r: route_count $rc0 -> $rc1, no drop" ;;
a) target_expect 6 ;;
esac

if [ "$LNET_NODE" != b ]; then
	lnet_idle
	routed_unload
fi
log "routed forwarding OK"
