#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug kernel's fault injection during ksocklnd traffic: while a
# moves 1 MiB PUTs and GETs to b and back, failslab and fail_page_alloc
# fail a share of the atomic allocations (the ones made where nothing can
# sleep: receive paths, completions) on both nodes, until one of LNet's
# own receive allocations failed at a.  Operations may fail,
# with an error; none may hang (lnet_test's op_timeout bounds each).  Once
# the injection stops, PUTs and GETs of every size work again with the
# data checked at both ends, nothing stays allocated in LNet, the modules
# unload (a leaked reference fails rmmod) and kmemleak finds nothing.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

FI=/sys/kernel/debug
[ -d $FI/failslab ] && [ -d $FI/fail_page_alloc ] ||
	fail "no failslab / fail_page_alloc in debugfs (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC)"

# inject on|off: fail 5% of atomic slab and 2% of atomic page allocations.
inject() {
	local f
	for f in failslab fail_page_alloc; do
		echo Y > $FI/$f/ignore-gfp-wait
		echo 0 > $FI/$f/verbose
		echo 1 > $FI/$f/interval
		echo -1 > $FI/$f/times
		echo 0 > $FI/$f/space
	done
	if [ "$1" = on ]; then
		echo 5 > $FI/failslab/probability
		echo 2 > $FI/fail_page_alloc/probability
	else
		echo 0 > $FI/failslab/probability
		echo 0 > $FI/fail_page_alloc/probability
	fi
}

sock_load sock_timeout=30
# Every message must end by itself, with a status: a lost ACK or REPLY
# after LNet's transaction timeout, a stuck send after ksocklnd's
# sock_timeout.  lnet_test gives up (timeouts=) only well after both.
echo 10 > /sys/module/lnet/parameters/lnet_transaction_timeout
echo 90 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up
nid=$(nid_of "$(peers)")

phase under_injection
DROPS=/sys/kernel/debug/lnet/drops
# The injection must reach our code, not only the network stack's: a
# round is 8 PUTs and 8 GETs, and rounds go on until the message
# allocation of a's receive path (lnet_parse(), GFP_ATOMIC) failed at
# least once, a "nomem" drop (P(none) < 0.5 a round at 5%).
ROUNDS_MAX=12
nomem0=$(counter $DROPS nomem)
inject on
fails=0 runs=0
if [ "$LNET_NODE" = a ]; then
	while :; do
		for op in put get; do
			lt "$op" "$nid" 1048576 8 4
			[ "$(field timeouts)" = 0 ] ||
				{ inject off; diag; fail "$op under injection: an operation hung: $RESULT"; }
			[ "$LT_RC" = 0 ] || fails=$((fails + 1))
			runs=$((runs + 1))
		done
		[ "$(counter $DROPS nomem)" -gt "$nomem0" ] && break
		[ "$runs" -lt $((2 * ROUNDS_MAX)) ] ||
			{ inject off; diag; cat $DROPS; fail "$ROUNDS_MAX rounds under injection: no allocation of LNet's receive path failed"; }
	done
	# Each ping ends, with a reply or an error (lnet_ping's own timeout).
	lt ping "$nid" 20
	[ "$(field done)" = 20 ] || { inject off; fail "pings: $RESULT"; }
fi
barrier injected 600
inject off
log "under injection: $fails of $runs runs failed; LNet receives dropped for want of memory: $(($(counter $DROPS nomem) - nomem0))"
# Every message of the injection phase ends (a receive can outlive the
# initiator's timeout) before b takes its snapshot.
lnet_idle 60
barrier settled 600
# What b's target counted so far.  A PUT whose receive failed under
# injection counts as failed (its event carries the error).  A PUT that
# a gave up on (LNet's transaction timeout) may still land while the PUT
# a sent next from the same slot lands in the same sink over another
# connection: both write it, and lnet_test counts that as overlap (every
# wrong byte is the other PUT's), which LNet allows.  None may be bad:
# delivered as good with bytes no PUT sent.
t0=$(cat "$TARGET")
log "under injection, target: $t0"
[ "$LNET_NODE" = a ] || [ "$(field bad "$t0")" = 0 ] ||
	fail "PUTs delivered corrupt under injection: $t0"

phase recovered
if [ "$LNET_NODE" = a ]; then
	ping_ok "$nid" 10
	for op in put get; do
		for size in 0 1 4096 65537 1048576; do
			lt_ok "$op" "$nid" "$size" 4 2
		done
	done
fi
barrier recovered 600
# Since the injection stopped, b took a's 20 PUTs, each once and intact.
t=$(cat "$TARGET")
log "target: $t0 -> $t"
if [ "$LNET_NODE" = b ]; then
	[ "$(field bad "$t")" = "$(field bad "$t0")" ] &&
		[ "$(field failed "$t")" = "$(field failed "$t0")" ] &&
		[ "$(field overlap "$t")" = "$(field overlap "$t0")" ] ||
		fail "PUTs failed or corrupt after the injection: $t0 -> $t"
	[ "$(field puts "$t")" = $(($(field puts "$t0") + 20)) ] ||
		fail "want 20 PUTs landed after the injection: $t0 -> $t"
fi
lnet_idle 60
# b's GET replies of 1 MiB went by reference with zero-copy requests: each
# was acknowledged or lost with its connection, none waited out its ACK
# (ZC ACKs need no allocation: none may be lost to the injection).
zc="requests $(counter "$KSTATS" zc_requests) acknowledged $(counter "$KSTATS" zc_acks_received) aborted $(counter "$KSTATS" zc_aborted) overdue $(counter "$KSTATS" zc_ack_timeout)"
log "ksocklnd zero-copy: $zc"
read -r _ req _ ack _ abt _ late <<< "$zc"
[ -n "$late" ] && [ "$late" = 0 ] && [ "$req" = $((ack + abt)) ] ||
	fail "zero-copy requests not all acknowledged or aborted: $zc"
[ "$LNET_NODE" = a ] || [ "$req" -gt 0 ] || fail "b made no zero-copy request: $zc"
barrier idle

phase unload
sock_unload
