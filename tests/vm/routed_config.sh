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
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

# No remote net has a route or an NI: this one stands for all of them.
NOWHERE=192.0.2.99@tcp7

phase lnet_up
routed_load
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

routed_unload
log "routed config OK"
