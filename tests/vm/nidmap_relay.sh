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
insmod "$LNET_MODDIR/nidmap/lnet_nidmap.ko" || fail "insmod lnet_nidmap"
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
if [ "$LNET_NODE" = r ]; then
	nm_until "no subscriber" nm_subs 0
	"$LNETCTL" nidmap show
	"$LNETCTL" nidmap unpublish || fail "unpublish"
fi
[ "$LNET_NODE" = "$X" ] || rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
barrier nmr_unloaded
lnet_idle
routed_unload
log "nidmap relay OK"
