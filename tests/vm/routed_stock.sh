#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our end nodes through a stock Lustre router (tests/vm/routed.py; spec
# lnet-routing.md 11.2 and 14 items 8-11, 13): r, its LNet unloaded, runs
# utils/tests/sock_router, a scripted stock 2.17 router on tcp with a
# NID on tcp (its net0 address, towards a) and on tcp1 (its net1
# address, towards b, which has a tcp1 NI on eth0 here instead of
# o2ib).  a routes tcp1 through r's tcp NID, b tcp through r's tcp1 NID,
# both checking their gateway every second (alive_router_check_interval
# 1, router_ping_timeout 2).  sock_router forwards store-and-forward,
# the LNet header unchanged, discovers b before the first PUT or GET on a
# non-zero portal reaches it, and fails on what the spec forbids our
# nodes: a routed header whose src_nid is not the sender's NI or whose
# dest_nid is not the far end node, a router checker pinging it less
# often than every STOCK_CHECK seconds, a request from a more than a
# second after a saw RTE_DISABLED; it prints "OK: ..." when SIGTERM ends it.
#  - stock_route_up: a's and b's routes through r go up (single-hop: r's
#    ping lists its NI on the far net UP);
#  - stock_forward: ping and discovery of b from a and of a from b through
#    r; PUT/GET of 0 B .. 1 MiB from a to b, every byte checked at the
#    receiver (lnet_test's target for PUTs, a for GET replies);
#  - stock_drain: r advertises RTE_DISABLED (SIGUSR1); a keeps PUTting
#    to b until its route goes down at its next check, and then a PUT
#    fails at once with -EHOSTUNREACH (no other route); every PUT a saw
#    succeed landed intact on b (nothing accepted was lost);
#  - stock_resume: r's routing on again (SIGUSR2): RTE_DISABLED cleared
#    and a forced push to a and b; a's route up again, a's PUTs of
#    0 B .. 1 MiB through r again; r's verdict: forwarded both ways, its
#    push ACKed by a, a's requests through it again.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

SOCK_ROUTER=$LNET_TOP/build/utils/sock_router
R_TCP1=${IP_r_net1:?}@tcp1
B_TCP1=${IP_b_net1:?}@tcp1
SIZES="0 1 3976 3977 65536 1048576"
ARCI=1
# a router checker's period as sock_router may see it: the interval,
# the ping's round trip and the monitor thread's 1 s pass, with slack
STOCK_CHECK=4
[ "$LNET_DEBUG_KERNEL" = 1 ] && STOCK_CHECK=6

if [ "$LNET_NODE" = r ]; then
	# r's side of a failure: what sock_router said
	diag() {
		sed 's/^/[r] sock_router: /' "$T/router" 2>/dev/null || true
	}
fi

# router_alive: sock_router still runs (it exits at once on a failure).
router_alive() {
	kill -0 "$(cat "$T/router.pid")" 2>/dev/null ||
		{ diag; fail "sock_router exited"; }
}

# stock_load: our modules (lnet.ko checking its gateway every ARCI s)
# and lnet_test serving; a's NI on tcp (eth0), b's on tcp1 (eth0).
stock_load() {
	routed_insmod alive_router_check_interval=$ARCI router_ping_timeout=2
	case $LNET_NODE in
	a) "$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp" ;;
	b) "$LNETCTL" net add --net tcp1 --if eth0 || fail "net add tcp1" ;;
	esac
	echo serve > "$RUN" || fail "serve"
}

phase stock_route_up
if [ "$LNET_NODE" = r ]; then
	"$SOCK_ROUTER" -t 20 -c "$STOCK_CHECK" "$R_TCP" "$R_TCP1" "$A" "$B_TCP1" \
		> "$T/router" 2>&1 &
	echo $! > "$T/router.pid"
	for ((i = 0; i < 50; i++)); do
		grep -q "^stock router" "$T/router" && break
		nap 0.1
	done
	router_alive
else
	stock_load
fi
barrier stock-router-up
case $LNET_NODE in
a) far=$B_TCP1
   "$LNETCTL" route add --net tcp1 --gateway "$R_TCP" || fail "route add tcp1" ;;
b) far=$A
   "$LNETCTL" route add --net tcp --gateway "$R_TCP1" || fail "route add tcp" ;;
r) far= ;;
esac
[ -n "$far" ] && route_state up 15 single-hop
barrier stock-routes-up

phase stock_forward
if [ -n "$far" ]; then
	ping_ok "$far" 5
	"$LNETCTL" discover "$far" > "$T/discover" 2>&1 ||
		{ cat "$T/discover"; diag; fail "lnetctl discover $far through r"; }
	peer_wait "$far" "primary nid: $far.*Multi-Rail: true.*peer state: 273" 10
	log "$far pinged and discovered through the stock router"
fi
barrier stock-discovered
if [ "$LNET_NODE" = a ]; then
	for op in put get; do
		for size in $SIZES; do
			lt_ok "$op" "$B_TCP1" "$size" 1 1
			[ "$(field done)" = 1 ] && [ "$(field bytes)" = "$size" ] ||
				fail "$op $size to $B_TCP1: $RESULT"
		done
	done
	log "PUT/GET 0 B .. 1 MiB to $B_TCP1 through the stock router: data checked"
fi
[ "$LNET_NODE" = r ] && router_alive
barrier stock-forwarded
[ "$LNET_NODE" = b ] && target_expect 6

phase stock_drain
[ "$LNET_NODE" = r ] && kill -USR1 "$(cat "$T/router.pid")"
barrier stock-draining
if [ "$LNET_NODE" = a ]; then
	# PUTs until the route goes down: each either crosses r (and must
	# land) or fails as no route; the first failure must be that.
	ok=0
	for ((i = 0; i < 100; i++)); do
		lt put "$B_TCP1" 4096 1 1
		if [ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ]; then
			ok=$((ok + 1))
			nap 0.1
			continue
		fi
		[ "$(field rc)" = -113 ] ||
			{ [ "$(field status)" = -113 ] && [ "$(field bytes)" = 0 ]; } ||
			{ diag; fail "PUT to $B_TCP1 while r drains: $RESULT, want success or -113"; }
		break
	done
	[ "$i" -lt 100 ] || { diag; fail "a's PUTs still cross r 10 s after RTE_DISABLED"; }
	route_state down 1
	must_fail "ping with the only route down" 'errno: -113' "$LNETCTL" ping "$B_TCP1"
	log "r drained: $ok PUTs crossed it, then -EHOSTUNREACH"
	echo "$ok" > "$SHARED/stock_drain_puts"
fi
[ "$LNET_NODE" = r ] && router_alive
barrier stock-drained
[ "$LNET_NODE" = b ] && target_expect $((6 + $(cat "$SHARED/stock_drain_puts")))

phase stock_resume
[ "$LNET_NODE" = r ] && kill -USR2 "$(cat "$T/router.pid")"
barrier stock-enabled
if [ "$LNET_NODE" = a ]; then
	route_state up 10
	for size in $SIZES; do
		lt_ok put "$B_TCP1" "$size" 1 1
		[ "$(field done)" = 1 ] || fail "put $size to $B_TCP1: $RESULT"
	done
	log "PUTs through the stock router again after its routing 1"
fi
barrier stock-resumed
case $LNET_NODE in
b) target_expect $((12 + $(cat "$SHARED/stock_drain_puts"))) ;;
r) pid=$(cat "$T/router.pid")
   kill -TERM "$pid"
   rc=0
   wait "$pid" || rc=$?
   sed 's/^/[r] sock_router: /' "$T/router"
   [ "$rc" = 0 ] || fail "sock_router: exit $rc"
   grep -q "^OK: .* drains=1 resumed=[1-9]" "$T/router" ||
	fail "sock_router: $(tail -n 1 "$T/router")" ;;
esac
barrier stock-verdict
if [ "$LNET_NODE" != r ]; then
	lnet_idle
	routed_unload
fi
log "stock router OK"
