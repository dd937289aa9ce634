#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The routed topology configured (tests/vm/routed.py: a on tcp, r on tcp
# and o2ib, b on o2ib), and what holds whether or not anything forwards:
#  - lnet_up: r has an NI on each net (ksocklnd and ko2iblnd at once);
#  - gateway_ping: each end node and r reach each other on their common
#    net: lnetctl ping both ways, PUT and GET of 0 B and 1 MiB, every
#    byte checked by the receiver (r the target of both ends' PUTs);
#  - routes: a routes o2ib through r's tcp NID, b routes tcp through r's
#    o2ib NID (route add, route show in lnetctl's shape);
#  - no_route: a send to a net that no NI and no route reaches fails at
#    once with -EHOSTUNREACH (lnetctl ping: its errno and text; an
#    lnet_test PUT: LNetPut's rc), and changes nothing.
#  - rte_disabled: r's ping buffer, pinged by a and b, has RTE_DISABLED
#    while r does not route, not once "set routing 1" has started and
#    ended W later (spec 5.1), again at once after "set routing 0" (our
#    buffer used to advertise it always);
#  - gateway_check: the router checker (routing spec 6; lnet.ko loaded
#    with alive_router_check_interval=2 on every node) finds r's ping
#    info RTE_DISABLED while r does not route: a's and b's routes go
#    down; "set routing 1" on r: both up and single-hop, a pings b
#    through r;
#  - udsp_rte: a's "udsp add --dst o2ib --rte <r's tcp NID>" shown by
#    udsp show and, for b, by peer show -v 4 ("Preferred gateway NIDs"),
#    --rte with --src refused; a pings b with it and with a rule that
#    prefers a gateway no route has (fallback);
#  - gateway_down: r's LNet unloaded: a's and b's checks fail, their
#    routes go down, a send from a to b fails at once with
#    -EHOSTUNREACH; r back and routing again: both routes up, a pings b.
#  - ni_liveness: r routes with W = alive_router_check_interval +
#    router_ping_timeout = 4 s (routing spec 6.7); b stops pinging r
#    (no checks, health_sensitivity 0 so that no recovery ping follows
#    r's NI reported down): r's o2ib NI goes down (net show, the console
#    line), its tcp NI, checked by a every 2 s, stays up; b's route (r's
#    NI on its net down) and a's (single-hop, r's NI on the remote net
#    down) go down from r's push and ping info; b pings r's o2ib NI: up
#    again on r, both routes up.
#  - router_discovery: r reloaded with check_routers_before_use=1 and
#    routing, b then not checking r, its peer deleted on r: a's ping of b through r is
#    dropped (r's new peer NI of b is DOWN until heard from, spec 4.7,
#    peer_down), a's PUT to b waits on r for b's discovery (spec 4.4:
#    b multi-rail on r after it, b's ping heard makes it UP) and lands
#    intact, then a's ping passes; b's peer deleted on r and r's pings
#    dropped by a fault rule on b: a's next PUT is dropped by r with the
#    failed discovery, b gets nothing.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

# No remote net has a route or an NI: this one stands for all of them.
NOWHERE=192.0.2.99@tcp7

# The router checker every 2 s (stock 60, sanity-lnet 5); r's pools small.
# W on r (spec 6.7) is 102 s: its NIs stay up while a and b check it
# every 2 s, even when a check waits out a transaction_timeout (50 s: r
# back in gateway_down, on the debug kernel its o2ib NI went down with a
# W of 12 s); ni_liveness makes it 4 s.
RTR_OPTS="alive_router_check_interval=2 router_ping_timeout=100
tiny_router_buffers=64 small_router_buffers=64 large_router_buffers=8"

phase lnet_up
# shellcheck disable=SC2086 # RTR_OPTS is words
routed_load $RTR_OPTS
"$LNETCTL" net show > "$T/net"
case $LNET_NODE in
r) want_nids="$R_TCP $R_O2IB" ;;
a) want_nids=$A ;;
b) want_nids=$B ;;
esac
for nid in $want_nids; do
	grep -q "nid: $nid\$" "$T/net" || { cat "$T/net"; fail "net show lacks $nid"; }
done
log "NIs up: $want_nids"
barrier up

phase gateway_ping
case $LNET_NODE in
a) gws=$R_TCP ;;
b) gws=$R_O2IB ;;
r) gws="$A $B" ;;
esac
for nid in $gws; do
	ping_ok "$nid" 5
done
if [ "$LNET_NODE" != r ]; then
	for op in put get; do
		for size in 0 1048576; do
			lt_ok "$op" "$gws" "$size" 2 2
			[ "$(field done)" = 2 ] &&
				[ "$(field bytes)" = $((2 * size)) ] ||
				fail "$op $size to $gws: $RESULT"
		done
	done
	log "PUT/GET 0 B and 1 MiB to the gateway $gws: OK, data checked"
fi
barrier direct-done
# r: both ends' PUTs landed, every byte as sent
[ "$LNET_NODE" = r ] && target_expect 8

phase routes
case $LNET_NODE in
a) net=o2ib gw=$R_TCP ;;
b) net=tcp gw=$R_O2IB ;;
esac
if [ "$LNET_NODE" != r ]; then
	"$LNETCTL" route add --net "$net" --gateway "$gw" ||
		fail "route add --net $net --gateway $gw"
	cat > "$T/route" <<YAML
route:
-     net: $net
      gateway: $gw
YAML
	"$LNETCTL" route show | expect_yaml "route show" "$T/route"
	"$LNETCTL" route show -v > "$T/route.v"
	grep -q '^ *hop: -1$' "$T/route.v" && grep -q '^ *priority: 0$' "$T/route.v" ||
		{ cat "$T/route.v"; fail "route show -v: want hop -1, priority 0"; }
	log "route to $net through $gw"
else
	out=$("$LNETCTL" route show) || fail "route show on r"
	[ -z "$out" ] || fail "r has routes: $out"
fi
barrier routes

phase no_route
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" stats show > "$T/stats.before"
	must_fail "ping of a net with no route" 'errno: -113' \
		"$LNETCTL" ping "$NOWHERE"
	grep -qiE 'descr: .*(route|reach)' "$T/err" ||
		{ cat "$T/err"; fail "ping of a net with no route: the text says neither route nor reach"; }
	lt put "$NOWHERE" 4096 1 1
	[ "$(field rc)" = -113 ] || fail "PUT to a net with no route: want rc=-113: $RESULT"
	lnet_idle
	"$LNETCTL" route show | expect_yaml "route show after the failed sends" "$T/route"
	log "no route to $NOWHERE: -EHOSTUNREACH at once"
fi
barrier no-route

phase rte_disabled
# The feature bits of r's ping buffer as a and b see them (lnet_test's
# ping): RTE_DISABLED (0x4) while r does not route, clear once "set
# routing 1" has STARTed and ENABLED W later (spec 5.1: stock clients take
# a route down on it; r's W is 6 s from here to gateway_down's end, as a
# and b check it every 2 s), set again after "set routing 0".  0x1a:
# NI_STATUS|MULTI_RAIL|DISCOVERY.
# r_features WANT: r's buffer has WANT within 12 s.
r_features() {
	local gw i
	case $LNET_NODE in
	a) gw=$R_TCP ;;
	b) gw=$R_O2IB ;;
	esac
	for ((i = 0; i < 60; i++)); do
		lt_ok ping "$gw" 1
		[ "$(field features)" = "$1" ] && {
			log "r's ping features $1 (${2})"
			return 0
		}
		nap 0.2
	done
	fail "r's ping features $(field features), want $1 (${2})"
}
RPT=/sys/module/lnet/parameters/router_ping_timeout
[ "$LNET_NODE" = r ] && { echo 4 > $RPT || fail "router_ping_timeout 4"; }
[ "$LNET_NODE" = r ] || r_features 0x1e "routing off"
barrier rte-initial
[ "$LNET_NODE" = r ] && { "$LNETCTL" set routing 1 || fail "set routing 1 on r"; }
barrier rte-routing-on
[ "$LNET_NODE" = r ] || r_features 0x1a "routing on"
barrier rte-clear
[ "$LNET_NODE" = r ] && { "$LNETCTL" set routing 0 || fail "set routing 0 on r"; }
barrier rte-routing-off
[ "$LNET_NODE" = r ] || r_features 0x1e "routing off again"
barrier rte-set-again

phase gateway_check
# r does not route yet: its ping info says RTE_DISABLED (spec 6.3).
if [ "$LNET_NODE" != r ]; then
	# the check's ping fails at once when r's socket is refused, but may
	# wait out a transaction_timeout (50 s) when the old connection
	# lingers: that is the bound (routing spec 15 item 11;
	# router_ping_timeout is not a ping timeout, spec 1.1)
	route_state down 60
	dmesg | grep -q "is used as a gateway but its routing feature is not turned on" ||
		fail "no 'routing feature is not turned on' on the console"
fi
barrier rte-disabled
if [ "$LNET_NODE" = r ]; then
	routing_wait 0 30	# rte_disabled's "set routing 0" stopped it
	"$LNETCTL" set routing 1 || fail "set routing 1 on r"
fi
barrier routing-on
[ "$LNET_NODE" = r ] || route_state up 25 single-hop
barrier routes-up
[ "$LNET_NODE" = a ] && ping_ok "$B" 3
barrier pinged

phase udsp_rte
# UDSP router preference (Documentation/routing.rst): one router here, so
# this checks the rule's shapes and that traffic still flows; which
# route wins among several is KUnit lnet_route's route_udsp_* cases.
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" udsp add --dst o2ib --rte "$R_TCP" ||
		fail "udsp add --dst o2ib --rte $R_TCP"
	cat > "$T/rte" <<YAML
udsp:
-     idx: 0
      src: NA
      dst: o2ib
      rte: $R_TCP
      action: NA
YAML
	"$LNETCTL" udsp show | expect_yaml "udsp show of a router preference" \
		"$T/rte"
	must_fail "--rte with --src" "goes with --dst only" \
		"$LNETCTL" udsp add --src tcp --rte "$R_TCP"
	must_fail "--rte with --src and --dst" "goes with --dst only" \
		"$LNETCTL" udsp add --src tcp --dst o2ib --rte "$R_TCP"
	must_fail "--rte without --dst" "needs --dst" \
		"$LNETCTL" udsp add --rte "$R_TCP"
	"$LNETCTL" udsp show | expect_yaml "udsp show after refusals" "$T/rte"
	ping_ok "$B" 3
	"$LNETCTL" peer show -v 4 --nid "$B" > "$T/peer4" ||
		fail "peer show -v 4 --nid $B"
	grep -A5 'udsp info:' "$T/peer4" > "$T/peer4.udsp"
	cat > "$T/peer4.want" <<YAML
            udsp info:
                  net priority: -1
                  nid priority: -1
                  Preferred gateway NIDs:
                  - $R_TCP
YAML
	diff -u "$T/peer4.want" "$T/peer4.udsp" ||
		{ cat "$T/peer4"; fail "peer show -v 4: preferred gateway"; }
	# a preferred gateway no route has: the others are used
	"$LNETCTL" udsp del --all || fail "udsp del --all"
	"$LNETCTL" udsp add --dst "$B" --rte 192.0.2.1@tcp ||
		fail "udsp add --rte of no gateway"
	ping_ok "$B" 3
	must_lack "a preferred gateway without a route shown" \
		"Preferred gateway" peer show -v 4 --nid "$B"
	"$LNETCTL" udsp del --all || fail "udsp del --all"
	log "udsp --rte: shown, refused with --src, traffic flows"
fi
barrier udsp-rte

phase gateway_down
PARAMS=/sys/module/lnet/parameters
if [ "$LNET_NODE" = a ]; then
	# a learns of r's loss from its LND only (spec 4.8 step 6): no
	# checks, and discovery off, so that r's route has only its cached
	# flag (spec 6.4 rule 2), which the LND's notice sets
	echo 0 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 0"
	"$LNETCTL" set discovery 0 || fail "set discovery 0"
fi
barrier a-unchecked
[ "$LNET_NODE" = r ] && routed_unload
barrier r-gone
if [ "$LNET_NODE" = a ]; then
	route_state up 1
	# the PUT's connect to r is refused: ksocklnd tells LNet, whose
	# notice kills the route through r's NID
	lt put "$B" 4096 1 1
	[ "$(field rc)" = 0 ] && [ "$(field status)" = 0 ] &&
		fail "PUT to $B through the gone r passed: $RESULT"
	route_state down 10
	dmesg | grep -q "gateway .* is down: its check failed" &&
		{ diag; fail "a checked r with its checks off"; }
	log "the LND's notice took a's route through r down (no checks)"
elif [ "$LNET_NODE" = b ]; then
	# the check's ping fails at once when r's socket is refused, but may
	# wait out a transaction_timeout (50 s) when the old connection
	# lingers: that is the bound (routing spec 15 item 11;
	# router_ping_timeout is not a ping timeout, spec 1.1)
	route_state down 60
	# the route may go down first: the LND's failed connect marks r's
	# NI down (lnet_notify(), spec 4.8); the check fails after it
	for ((i = 0; i < 300; i++)); do
		dmesg | grep -q "gateway .* is down: its check failed" && break
		nap 0.2
	done
	dmesg | grep -q "gateway .* is down: its check failed" ||
		{ diag; fail "no 'gateway ... is down' on the console within 60 s of the route down"; }
fi
if [ "$LNET_NODE" = a ]; then
	# LNetPut's rc, or its send's status within a second (not a timeout)
	lt put "$B" 4096 1 1
	if [ "$(field rc)" != -113 ]; then
		[ "$(field status)" = -113 ] && [ "$(field bytes)" = 0 ] &&
			[ "$(field elapsed_ns)" -lt 1000000000 ] ||
			fail "PUT to $B with its route down: $RESULT, want -113 at once"
	fi
	must_fail "ping through a dead gateway" 'errno: -113' "$LNETCTL" ping "$B"
	log "route down: a send to $B fails at once with -EHOSTUNREACH"
fi
barrier down-seen
if [ "$LNET_NODE" = r ]; then
	# shellcheck disable=SC2086 # RTR_OPTS is words
	routed_load $RTR_OPTS
	echo 4 > $RPT || fail "router_ping_timeout 4 (back)"
	"$LNETCTL" set routing 1 || fail "set routing 1 on r (back)"
fi
barrier r-back
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" set discovery 1 || fail "set discovery 1"
	echo 2 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 2"
fi
[ "$LNET_NODE" = r ] || route_state up 30 single-hop
barrier routes-back
[ "$LNET_NODE" = r ] && { echo 100 > $RPT || fail "router_ping_timeout 100"; }
[ "$LNET_NODE" = a ] && ping_ok "$B" 3
barrier pinged-again

phase ni_liveness
# r_ni_status NID: up or down, as r's net show says.
r_ni_status() {
	"$LNETCTL" net show > "$T/net" || fail "net show"
	awk -v nid="$1" '$1 == "-" && $2 == "nid:" { cur = $3 }
		$1 == "status:" && cur == nid { print $2; exit }' "$T/net"
}
# peer_health NID: the health value "lnetctl peer show -v 2" gives NID.
peer_health() {
	"$LNETCTL" peer show -v 2 | awk -v nid="$1" '$2 == "nid:" { cur = $3 }
		$1 == "health" && $2 == "value:" && cur == nid { print $3; exit }'
}
case $LNET_NODE in
r)
	[ "$(r_ni_status "$R_O2IB")" = up ] || fail "r's o2ib NI not up at the start"
	lines0=$(dmesg | grep -c "LNet: net o2ib: no ping for 4 s: its NIs are down" || true)
	echo 2 > $PARAMS/router_ping_timeout || fail "router_ping_timeout 2"
	;;
b)
	# r's NI out of any recovery (gateway_down's failed checks) before
	# health freezes: a recovery ping is a ping
	for ((i = 0; i < 150; i++)); do
		[ "$(peer_health "$R_O2IB")" = 1000 ] && break
		nap 0.2
	done
	[ "$(peer_health "$R_O2IB")" = 1000 ] ||
		{ diag; fail "$R_O2IB still in recovery on b after 30 s"; }
	hs=$("$LNETCTL" global show | awk '$1 == "health_sensitivity:" { print $2 }')
	"$LNETCTL" set health_sensitivity 0 || fail "set health_sensitivity 0"
	echo 0 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 0"
	log "b pings r no more (no checks, health_sensitivity 0, was $hs)"
	;;
esac
barrier liveness-quiet
case $LNET_NODE in
r)
	# b's last check may still be answered: W (4 s) from then, plus a pass
	for ((i = 0; i < 150; i++)); do
		[ "$(r_ni_status "$R_O2IB")" = down ] && break
		nap 0.1
	done
	[ "$(r_ni_status "$R_O2IB")" = down ] ||
		{ cat "$T/net"; diag; fail "r's o2ib NI not down 15 s after b stopped pinging (W 4 s)"; }
	log "r's o2ib NI down after ~$((i / 10)) s"
	[ "$(dmesg | grep -c "LNet: net o2ib: no ping for 4 s: its NIs are down" || true)" -gt "$lines0" ] ||
		{ diag; fail "no 'net o2ib: no ping for 4 s' on the console"; }
	# a checks r's tcp NI every 2 s
	[ "$(r_ni_status "$R_TCP")" = up ] ||
		{ cat "$T/net"; diag; fail "r's tcp NI down though a pings it"; }
	;;
a)	route_state down 20 ;;	# single-hop: r's NI on o2ib down
b)	route_state down 20 ;;	# r's NI on b's net down (r's push)
esac
barrier liveness-down
case $LNET_NODE in
r)
	for ((i = 0; i < 100; i++)); do
		[ "$(r_ni_status "$R_O2IB")" = up ] && break
		nap 0.1
	done
	[ "$(r_ni_status "$R_O2IB")" = up ] ||
		{ cat "$T/net"; diag; fail "r's o2ib NI not up 10 s after b pinged it"; }
	dmesg | grep -q "LNet: NI $R_O2IB is up: pinged" ||
		{ diag; fail "no 'NI $R_O2IB is up: pinged' on the console"; }
	log "r's o2ib NI up again: b pinged it"
	;;
b)	ping_ok "$R_O2IB" 3
	route_state up 15 single-hop ;;
a)	route_state up 15 single-hop ;;
esac
barrier liveness-up
case $LNET_NODE in
r) echo 100 > $PARAMS/router_ping_timeout || fail "router_ping_timeout 100" ;;
b)
	echo 2 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 2"
	"$LNETCTL" set health_sensitivity "$hs" || fail "set health_sensitivity $hs"
	;;
esac
barrier liveness-done

phase router_discovery
# r_peer_mr: "true" or "false", r's view of b as multi-rail (only b's
# ping data, from a discovery, says True; b's checks are off here).
r_peer_mr() {
	"$LNETCTL" peer show --nid "$B" 2>/dev/null |
		awk '$1 == "Multi-Rail:" { print tolower($2); exit }'
}
if [ "$LNET_NODE" = r ]; then
	routed_unload
	# shellcheck disable=SC2086 # RTR_OPTS is words
	routed_load $RTR_OPTS check_routers_before_use=1
	# routing ENABLED after a W of 3 s, then W back to 102 s (r's NI
	# liveness, spec 6.7: b stops pinging r below)
	echo 1 > $PARAMS/router_ping_timeout || fail "router_ping_timeout 1"
	"$LNETCTL" set routing 1 || fail "set routing 1 on r (reloaded)"
	routing_wait 1 30
	echo 100 > $PARAMS/router_ping_timeout || fail "router_ping_timeout 100"
fi
barrier r-reloaded
# r's tcp NI is DOWN until a ping reaches it (r's first W was 3 s, spec
# 6.7), and b's route is single-hop only once r lists it UP.  a's checks
# of r may wait out ksocklnd's back-off from its connects refused while
# r reloaded (a debug run saw none for 30 s): a pings r's tcp NID itself.
[ "$LNET_NODE" = a ] && ping_ok "$R_TCP" 40
barrier r-pinged
[ "$LNET_NODE" = r ] || route_state up 60 single-hop
barrier r-routes
if [ "$LNET_NODE" = a ]; then
	# a's own discovery of b would ping b through r, which drops it as
	# it drops any portal-0 message to a peer NI it never heard from
	# (spec 4.7, as stock): a then waits out its transaction_timeout
	"$LNETCTL" set discovery 0 || fail "set discovery 0 on a"
fi
if [ "$LNET_NODE" = b ]; then
	puts0=$(field puts "$(cat "$TARGET")")
	# b is heard from by r only if r asks: no checks, no recovery pings
	hs=$("$LNETCTL" global show | awk '$1 == "health_sensitivity:" { print $2 }')
	"$LNETCTL" set health_sensitivity 0 || fail "set health_sensitivity 0"
	echo 0 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 0"
fi
barrier b-quiet
if [ "$LNET_NODE" = r ]; then
	# b's checks made its peer on r, UP: a new one, never heard from,
	# starts DOWN (check_routers_before_use, spec 4.7)
	nap 0.5		# b's last check answered
	"$LNETCTL" peer del --prim_nid "$B" || fail "peer del $B on r"
	"$LNETCTL" set transaction_timeout 3 || fail "set transaction_timeout 3"
	pd0=$(counter /sys/kernel/debug/lnet/drops peer_down)
	dc0=$(routed_stat drop_count)
fi
barrier b-deleted
if [ "$LNET_NODE" = a ]; then
	# portal 0 never waits for discovery: b's new peer NI on r is DOWN
	"$LNETCTL" ping "$B" > "$T/ping" 2>&1 &&
		{ cat "$T/ping"; diag; fail "ping of $B through r passed before r heard from b"; }
	log "ping of $B through r dropped (r never heard from b)"
fi
barrier pinged-down
if [ "$LNET_NODE" = r ]; then
	[ "$(counter /sys/kernel/debug/lnet/drops peer_down)" -gt "$pd0" ] ||
		{ diag; fail "r did not drop a's ping to the unheard b as peer_down"; }
	[ "$(r_peer_mr)" = false ] ||
		{ "$LNETCTL" peer show --nid "$B"; fail "r knows b multi-rail before any discovery"; }
fi
barrier r-checked
if [ "$LNET_NODE" = a ]; then
	lt_ok put "$B" 4096 1 1
	ping_ok "$B" 1
	log "PUT to $B through r after r's discovery of b: OK; ping too"
fi
barrier discovered
case $LNET_NODE in
r)	[ "$(r_peer_mr)" = true ] ||
		{ "$LNETCTL" peer show -v --nid "$B"; diag; fail "r forwarded the PUT without discovering b"; }
	"$LNETCTL" peer del --prim_nid "$B" || fail "peer del $B on r"
	dc1=$(routed_stat drop_count) ;;
b)	target_expect $((puts0 + 1))
	"$LNETCTL" fault drop add -s "$R_O2IB" -d "$B" -m get -p 0 -r 1 ||
		fail "fault drop add (r's pings)" ;;
esac
barrier dc-fails
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" set transaction_timeout 6 || fail "set transaction_timeout 6"
	lt put "$B" 4096 1 1
	[ "$(field errors)" = 1 ] && [ "$(field bytes)" = 0 ] ||
		{ diag; fail "PUT to $B did not fail though r's discovery of b failed: $RESULT"; }
	# ended by a's response tracker after its 6 s (-ETIMEDOUT), not by
	# lnet_test giving up after its op_timeout: a's pings of r lost
	# while r reloaded, tracked with the 150 s timeout, must not hold it
	[ "$(field status)" = -110 ] && [ "$(field timeouts)" = 0 ] ||
		{ diag; fail "PUT to $B not ended by a's transaction_timeout: $RESULT"; }
	log "PUT to $B dropped by r (its discovery of b failed): $RESULT"
fi
barrier dc-failed
case $LNET_NODE in
r)	[ "$(routed_stat drop_count)" -gt "$dc1" ] ||
		{ diag; fail "r did not count the PUT it dropped"; }
	log "r: drop_count $dc0 -> $(routed_stat drop_count)" ;;
a)	"$LNETCTL" set discovery 1 || fail "set discovery 1 on a" ;;
b)	target_expect $((puts0 + 1))
	"$LNETCTL" fault drop del --all || fail "fault drop del --all"
	echo 2 > $PARAMS/alive_router_check_interval ||
		fail "alive_router_check_interval 2"
	"$LNETCTL" set health_sensitivity "$hs" || fail "set health_sensitivity $hs" ;;
esac
lnet_idle
barrier dc-done

routed_unload
log "routed config OK"
