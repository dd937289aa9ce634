#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nidmap's notice relay (Documentation/nidmap.rst, "Relaying a notice"):
# r routes between a (tcp) and b (o2ib) and publishes a table with the
# relay fan-out 1 (a chain: two subscribers make no tree); a and b
# subscribe with --relay (b names r by r's o2ib NID, which is not r's
# primary NID: r's notices, which LNet shows from the primary, are taken
# all the same).  r plans them into a chain: one of them, X,
# is noticed by r and given the other, Y, as its relay set; Y hears of
# changes only from X, through r's routing (a RELAYED notice from a NID
# that is not its publisher's).  A change: r sends one notice (to X), X
# forwards one, Y's copy follows r's table, its data fetched from r.
# Then X's nidmap module is unloaded (its UNSUB takes it off r's list,
# r re-plans and notices Y itself): the next change reaches Y's copy
# all the same.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"
. "$LNET_TOP/tests/vm/nidmap_lib.sh"

LIMIT=10
[ "$LNET_DEBUG_KERNEL" = 1 ] && LIMIT=30
ROLE=$SHARED/nidmap_relay.role

# nm_set: this node's relay set, one line of NIDs.
nm_set() {
	"$LNETCTL" nidmap show | awk '
		/^ *relay_set:/ { on = 1; next }
		on && /^ *- / { s = s (s ? "," : "") $NF; next }
		{ on = 0 }
		END { print s }'
}

# nm_copy: this node's copy (a command for nm_until).
nm_copy() {
	nm_table --copy
}

# nm_until WHAT CMD WANT: $(CMD) becomes WANT within $LIMIT s.
nm_until() {
	local i got
	for ((i = 0; i < LIMIT * 20; i++)); do
		got=$($2)
		[ "$got" = "$3" ] && return 0
		nap 0.05
	done
	"$LNETCTL" nidmap show || true
	fail "$1: want [$3] got [$got]"
}

nm_subs() {
	nm_field subscribers
}

nm_plan() {
	echo "$(nm_field subscribers) $(nm_field relays) $(nm_field noticed_directly) $(nm_field relay_depth)"
}

phase nidmap_relay_up
# A short W (alive_router_check_interval + router_ping_timeout): r's
# routing is enabled within a few seconds; small pools (the guest's memory).
if [ "$LNET_NODE" = r ]; then
	routed_load alive_router_check_interval=1 router_ping_timeout=2 \
		large_router_buffers=4 small_router_buffers=8 tiny_router_buffers=9
else
	routed_load alive_router_check_interval=1 router_ping_timeout=2
fi
nm_load
if [ "$LNET_NODE" = r ]; then
	"$LNETCTL" set routing 1 || fail "set routing 1"
fi
barrier nmr_loaded
case $LNET_NODE in
r) routing_wait 1 15 ;;
*) r_features_wait 0x1a 20 ;;
esac
barrier nmr_routing
case $LNET_NODE in
a) "$LNETCTL" route add --net o2ib --gateway "$R_TCP" || fail "route add o2ib"
   ping_ok "$B" 15 ;;
b) "$LNETCTL" route add --net tcp --gateway "$R_O2IB" || fail "route add tcp"
   ping_ok "$A" 15 ;;
r) "$LNETCTL" nidmap publish --relay-fanout 1 || fail "publish" ;;
esac
barrier nmr_pub

phase nidmap_relay_plan
case $LNET_NODE in
a) "$LNETCTL" nidmap subscribe --publisher "$R_TCP" --relay || fail "subscribe" ;;
# b names r by its o2ib NID, not its primary (tcp): r's notices come
# from the primary, another NID of the same peer, and b takes them.
b) "$LNETCTL" nidmap subscribe --publisher "$R_O2IB" --relay || fail "subscribe" ;;
r) # Both subscribed and planned: a chain of depth 2, one noticed.
   nm_until plan nm_plan "2 2 1 2"
   "$LNETCTL" nidmap show
   [ "$(nm_field relay_fanout)" = 1 ] || fail "relay_fanout $(nm_field relay_fanout)"
   ;;
esac
barrier nmr_planned
# The sets come with r's notices: X's is the other's NID, Y's empty.
case $LNET_NODE in
a) other=$B ;;
b) other=$A ;;
esac
if [ "$LNET_NODE" != r ]; then
	[ "$(nm_field relay)" = 1 ] || fail "relay: $(nm_field relay)"
	# Until this node's set comes, or the other's (written to $ROLE).
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_field subscribed)" = 1 ] && [ -n "$(nm_set)" ] && break
		[ -s "$ROLE" ] && break
		nap 0.2
	done
	set=$(nm_set)
	if [ -n "$set" ]; then
		[ "$set" = "$other" ] || fail "relay set [$set], want [$other]"
		echo "$LNET_NODE" > "$ROLE"
		log "relay: $LNET_NODE, relaying to $set"
	fi
fi
barrier nmr_roles
[ -s "$ROLE" ] || { "$LNETCTL" nidmap show; fail "no relay was given a set"; }
X=$(cat "$ROLE")
log "X (the relay) is $X"

phase nidmap_relay_change
if [ "$LNET_NODE" = r ]; then
	n0=$(nm_field notices_sent)
	"$LNETCTL" nidmap register --publisher "$R_TCP" --name fs-OST0000 \
		--nid "$R_TCP,$R_O2IB" || fail "register"		# 1
fi
barrier nmr_change1
case $LNET_NODE in
r) # One notice, to X; X tells Y.
   nap 1
   [ $(($(nm_field notices_sent) - n0)) = 1 ] ||
	fail "notices_sent grew by $(($(nm_field notices_sent) - n0)), want 1" ;;
"$X") nm_until "X's copy" nm_copy "fs-OST0000 1 $R_TCP,$R_O2IB"
   [ "$(nm_field notices_relayed)" -ge 1 ] || fail "notices_relayed $(nm_field notices_relayed)" ;;
*) t0=${EPOCHREALTIME/./}
   nm_until "Y's copy" nm_copy "fs-OST0000 1 $R_TCP,$R_O2IB"
   log "Y's copy at version 1 through the relay within $(((${EPOCHREALTIME/./} - t0) / 1000)) ms of the barrier"
   [ "$(nm_field relayed_received)" -ge 1 ] ||
	fail "relayed_received $(nm_field relayed_received)"
   [ "$(nm_field version)" = 1 ] || fail "copy version $(nm_field version)"
   [ "$(nm_field rx_dropped)" = 0 ] || fail "rx_dropped $(nm_field rx_dropped)"
   nm_field relayed_received > "$T/rr"
   nm_field notices_received > "$T/nr" ;;
esac
barrier nmr_relayed

phase nidmap_relay_unload
# X goes away halfway: its UNSUB takes it off r's list, r re-plans.
if [ "$LNET_NODE" = "$X" ]; then
	rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
fi
barrier nmr_x_gone
if [ "$LNET_NODE" = r ]; then
	nm_until "plan without X" nm_plan "1 1 1 1"
	nap 1	# r's catch-up notice to Y, now its direct child
	n0=$(nm_field notices_sent)
	"$LNETCTL" nidmap register --publisher "$R_TCP" --name fs-OST0001 \
		--nid "$R_O2IB" || fail "register fs-OST0001"	# 2
fi
barrier nmr_change2
if [ "$LNET_NODE" = r ]; then
	nap 1
	[ $(($(nm_field notices_sent) - n0)) = 1 ] ||
		fail "notices_sent grew by $(($(nm_field notices_sent) - n0)) without X, want 1"
fi
if [ "$LNET_NODE" != r ] && [ "$LNET_NODE" != "$X" ]; then
	nm_until "Y's copy without X" nm_copy "fs-OST0000 1 $R_TCP,$R_O2IB
fs-OST0001 2 $R_O2IB"
	# From r itself this time.
	[ "$(nm_field relayed_received)" = "$(cat "$T/rr")" ] ||
		fail "relayed_received $(nm_field relayed_received) after X left"
	[ "$(nm_field notices_received)" -gt "$(cat "$T/nr")" ] ||
		fail "no notice from r after X left"
	"$LNETCTL" nidmap unsubscribe || fail "unsubscribe"
fi
barrier nmr_done

phase nidmap_relay_routes
# Routes from the table: r registers itself as router "rtr" (to o2ib,
# o2ib7 and tcp) and "rtr2" (its only NID on o2ib, no NI of a's: skipped
# and counted); a drops its route to o2ib by hand and subscribes with
# --routes: the route to o2ib through r's tcp NID comes back from the
# table, o2ib7's (the admin's, by hand) is left alone, and a PUT by name
# to b's sink crosses r, every byte checked by b.  route add --gateway
# takes rtr's name, and refuses an unknown name and a non-router.  Then
# rtr stops routing o2ib: a's route from the table goes, the admin's
# stays.
NMDBG=/sys/kernel/debug/nidmap
# rt_gw NET: the gateways of this node's routes to NET, one line.
rt_gw() {
	"$LNETCTL" route show --net "$1" 2>/dev/null |
		sed -n 's/^ *gateway: //p' | sort | paste -sd, -
}
rt_o2ib() {
	rt_gw o2ib
}
# rt_counts: "installed added removed skipped" of one nidmap show.
rt_counts() {
	"$LNETCTL" nidmap show | awk '
		/^ *routes_(installed|added|removed|skipped): / {
			sub(/:$/, "", $1); v[$1] = $2 }
		END { print v["routes_installed"], v["routes_added"],
			v["routes_removed"], v["routes_skipped"] }'
}
# rt_ms WHAT: how long since t0, logged.
rt_ms() {
	log "$1: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"
}
t0=${EPOCHREALTIME/./}
[ "$LNET_NODE" = r ] || [ -d /sys/module/lnet_nidmap ] || nm_load
case $LNET_NODE in
a) "$LNETCTL" route del --net o2ib --gateway "$R_TCP" || fail "route del o2ib"
   "$LNETCTL" route add --net o2ib7 --gateway "$R_TCP" || fail "route add o2ib7"
   "$LNETCTL" nidmap subscribe --publisher "$R_TCP" --routes || fail "subscribe --routes"
   [ "$(nm_field routes)" = 1 ] || fail "routes: $(nm_field routes)" ;;
b) echo on > "$NMDBG/sink" || fail "sink on" ;;
esac
rt_ms "loaded, subscribed"
barrier nmr_rt_sub
if [ "$LNET_NODE" = r ]; then
	"$LNETCTL" nidmap register --publisher "$R_TCP" --name b-sink \
		--nid "$B" || fail "register b-sink"			# 3
	"$LNETCTL" nidmap register --publisher "$R_TCP" --name rtr \
		--nid "$R_TCP,$R_O2IB" --router --net o2ib,o2ib7,tcp ||
		fail "register rtr"					# 4
	"$LNETCTL" nidmap register --publisher "$R_TCP" --name rtr2 \
		--nid "$R_O2IB" --router --net o2ib9 || fail "register rtr2"	# 5
	rt_ms "registered"
fi
barrier nmr_rt_reg
if [ "$LNET_NODE" = a ]; then
	nm_until "route to o2ib from the table" rt_o2ib "$R_TCP"
	rt_ms "route to o2ib from the table"
	nm_until "route counts" rt_counts "1 1 0 1"
	[ "$(rt_gw o2ib7)" = "$R_TCP" ] || fail "the admin's route: [$(rt_gw o2ib7)]"
	"$LNETCTL" nidmap lookup --name rtr | grep -q "o2ib7" || fail "lookup rtr: no nets"
	echo "b-sink 3000 77" > "$NMDBG/send" || fail "send by name: $(cat "$NMDBG/send")"
	got=$(cat "$NMDBG/send")
	log "send by name through the route from the table: $got"
	[ "$got" = "rc=0 nid=$B version=3 resolves=1 skipped=0 failed=0" ] ||
		fail "send by name: $got"
	# route add --gateway NAME: a router's name; the others refused.
	"$LNETCTL" route add --net o2ib8 --gateway nosuch 2> "$T/rt.err" &&
		fail "route add via an unknown name"
	grep -q "no registered router of that name" "$T/rt.err" ||
		fail "route add unknown: $(cat "$T/rt.err")"
	"$LNETCTL" route add --net o2ib8 --gateway b-sink 2> "$T/rt.err" &&
		fail "route add via a non-router"
	grep -q "not a router" "$T/rt.err" || fail "route add b-sink: $(cat "$T/rt.err")"
	"$LNETCTL" route add --net o2ib8 --gateway rtr || fail "route add via rtr"
	[ "$(rt_gw o2ib8)" = "$R_TCP" ] || fail "route via rtr: [$(rt_gw o2ib8)]"
	"$LNETCTL" route del --net o2ib8 --gateway "$R_TCP" || fail "route del o2ib8"
	rt_ms "sent, route add by name"
fi
barrier nmr_rt_sent
case $LNET_NODE in
b) [ "$(cat "$NMDBG/sink")" = "puts=1 bad=0" ] || fail "sink: $(cat "$NMDBG/sink")"
   echo off > "$NMDBG/sink" || fail "sink off" ;;
r) "$LNETCTL" nidmap register --publisher "$R_TCP" --name rtr \
	--nid "$R_TCP,$R_O2IB" --router --net o2ib7,tcp || fail "change rtr" ;;	# 6
esac
barrier nmr_rt_change
if [ "$LNET_NODE" = a ]; then
	nm_until "route to o2ib gone" rt_o2ib ""
	rt_ms "route to o2ib gone"
	nm_until "route counts after" rt_counts "0 1 1 1"
	"$LNETCTL" nidmap unsubscribe || fail "unsubscribe"
	# The admin's route through it all, and after unsubscribe.
	[ "$(rt_gw o2ib7)" = "$R_TCP" ] || fail "the admin's route after: [$(rt_gw o2ib7)]"
	"$LNETCTL" route del --net o2ib7 --gateway "$R_TCP" || fail "route del o2ib7"
	rt_ms "routes from the table"
fi
barrier nmr_rt_done
if [ "$LNET_NODE" = r ]; then
	nm_until "no subscriber" nm_subs 0
	"$LNETCTL" nidmap show
	"$LNETCTL" nidmap unpublish || fail "unpublish"
fi
rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
barrier nmr_unloaded
lnet_idle
routed_unload
log "nidmap relay OK"
