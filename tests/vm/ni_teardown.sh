#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NI teardown (Documentation/lifetimes.rst, "Stopping an NI"), over tcp
# and o2ib (rxe0 on eth0), one node sending to an address where nobody
# answers (ARP is told to try for 30 s, so the LND holds the first sends
# while it connects):
#
# - queued: with peer_credits 2, 16 PUTs are started: 2 go to the LND,
#   14 wait for a credit of the peer NI.  net del must return promptly
#   and every PUT complete with an error (none hangs, none is handed to
#   the stopped LND when the LND's failures return the peer credits).
# - sender_held: a PUT's sender is held (lnet's test hook) after it chose
#   the NI and dropped the lock, before it reaches the LND; net del runs
#   meanwhile.  The PUT must complete once, with an error, after the LND
#   of the NI never saw it or saw it while it was still running.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

HOLD=/sys/kernel/debug/lnet/test_hold_send_ms
ABSENT=${IP_n_net0:?}
ABSENT=${ABSENT%.*}.201

# all_failed N: the run's N operations each completed with an error,
# none was given up on by lnet_test.
all_failed() {
	[ "$(field done)" = "$1" ] && [ "$(field errors)" = "$1" ] &&
		[ "$(field timeouts)" = 0 ] ||
		{ diag; fail "want $1 operations failed by LNet: $RESULT"; }
}

echo 30 > /proc/sys/net/ipv4/neigh/eth0/mcast_solicit
sock_load
rdma link | grep -q rxe0 || fail "no rxe0"
for lnd in tcp o2ib; do
	"$LNETCTL" net del --net tcp || fail "net del tcp"
	"$LNETCTL" net add --net "$lnd" --if eth0 --peer-credits 2 ||
		fail "$lnd: net add"

	phase "${lnd}_queued"
	lt_start put "$ABSENT@$lnd" 4096 16 16
	nap 1
	timed 20 "$lnd: net del" "$LNETCTL" net del --net "$lnd"
	lt_wait
	all_failed 16
	lnet_idle

	phase "${lnd}_sender_held"
	"$LNETCTL" net add --net "$lnd" --if eth0 || fail "$lnd: net add"
	[ -w $HOLD ] || fail "no $HOLD"
	echo 4000 > $HOLD
	lt_start put "$ABSENT@$lnd" 4096 1 1
	hook_taken $HOLD 10 || fail "$lnd: the hold was not taken"
	timed 20 "$lnd: net del" "$LNETCTL" net del --net "$lnd"
	lt_wait
	all_failed 1
	lnet_idle
	"$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp"
done

# The node works as before: a loopback exchange, then everything unloads.
lt_ok put 0@lo 1048576 4 2
sock_unload
log "NI teardown OK"
