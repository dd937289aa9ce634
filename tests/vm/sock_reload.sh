#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# a and b exchange traffic; b unloads every module and loads them again
# (a new NI incarnation); then traffic works again both ways, a having
# dropped its connections to the old b and connected to the new one.
# Twice, the second time with b gone for long enough that a tries (and
# fails) to reach it meanwhile.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

# traffic NID: ping, and 1 MiB and 4 KiB PUT/GET with the data checked.
traffic() {
	ping_ok "$1" 10
	lt_ok put "$1" 1048576 4 2
	lt_ok get "$1" 1048576 4 2
	lt_ok put "$1" 4096 20 4
	lt_ok get "$1" 4096 20 4
}

sock_load
echo serve > "$RUN" || fail "serve"
barrier up
for round in 1 2; do
	if [ "$LNET_NODE" = a ]; then
		traffic "$(nid_of b)"
		closed0=$(counter "$KSTATS" conns_closed)
		barrier "loaded-$round"
		if [ "$round" = 2 ]; then
			# b is away: a ping fails cleanly, and does not hang.
			barrier "b-down-$round"
			if "$LNETCTL" ping "$(nid_of b)"; then
				fail "ping of an unloaded node succeeded"
			fi
			lt put "$(nid_of b)" 4096 4 4
			[ "$(field done)" = 4 ] && [ "$(field errors)" = 4 ] &&
				[ "$(field timeouts)" = 0 ] ||
				fail "PUTs to an unloaded node: $RESULT"
			barrier "a-tried-$round"
		fi
		barrier "reloaded-$round"
		traffic "$(nid_of b)"
		closed=$(counter "$KSTATS" conns_closed)
		log "connections closed since b left: $((closed - closed0))"
		[ "$closed" -gt "$closed0" ] ||
			fail "no connection to the old b was closed"
		barrier "b-to-a-$round"
	else
		traffic "$(nid_of a)"
		barrier "loaded-$round"
		# a's traffic to this incarnation: one exchange (24 PUTs) in
		# round 1, two (after the reload of round 1, then now) in 2.
		target_expect $((round * 24))
		sock_unload
		log "round $round: modules unloaded"
		if [ "$round" = 2 ]; then
			barrier "b-down-$round"
			barrier "a-tried-$round"
		fi
		sock_load
		echo serve > "$RUN" || fail "serve"
		log "round $round: modules loaded again"
		barrier "reloaded-$round"
		# The new b reaches a, which must take the new incarnation.
		traffic "$(nid_of a)"
		barrier "b-to-a-$round"
	fi
done
barrier done
# a took b's 24 PUTs twice a round; the last b took a's 24 after its
# reload.
if [ "$LNET_NODE" = a ]; then target_expect 96; else target_expect 24; fi
sock_unload
log "sock reload OK"
