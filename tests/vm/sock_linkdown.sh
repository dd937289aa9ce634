#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# a sends 1 MiB PUTs to b, 8 at a time; once they flow, eth0 goes down:
# in round "initiator" on a, in round "target" on b.  The run must end by
# itself (ksocklnd's sock_timeout is 5 s and LNet's transaction timeout
# 10 s with no resend, lnet_test waits 90 s before giving up on an
# operation itself): every operation completes, some with an error
# status (ACKs the link lost are given up on by LNet's response tracking),
# none abandoned.  Once the link is up again traffic resumes, no
# LNet message is left allocated, and the modules unload.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

P=/sys/module/lnet/parameters
COUNT=100

# sent_bytes: payload bytes this node's tcp NI has sent.
sent_bytes() {
	awk '$1 ~ /@tcp$/ { print $9 }' /sys/kernel/debug/lnet/nis
}

sock_load sock_timeout=5
echo 0 > $P/lnet_health_sensitivity	# retry_count 0: no resend
echo 10 > $P/lnet_transaction_timeout
echo 90 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up

for round in initiator target; do
	if [ "$LNET_NODE" = a ]; then
		nid=$(nid_of b)
		ping_ok "$nid" 10
		lt_ok put "$nid" 1048576 4 4
		base=$(sent_bytes)
		( echo "put $nid 1048576 $COUNT 8" > "$RUN" ) 2>/dev/null &
		pid=$!
		# Wait until 4 MiB went out, then cut the link.
		for ((i = 0; i < 600; i++)); do
			[ $(($(sent_bytes) - base)) -ge $((4 << 20)) ] && break
			kill -0 $pid 2>/dev/null || fail "$round: transfer ended before the cut: $(cat "$RUN")"
			sleep 0.1
		done
		if [ "$round" = initiator ]; then
			ip link set eth0 down
			log "$round: eth0 down after $((($(sent_bytes) - base) >> 20)) MiB"
		else
			barrier "cut-$round"
			barrier "down-$round"
			log "$round: b's eth0 down after $((($(sent_bytes) - base) >> 20)) MiB"
		fi
		for ((i = 0; i < CMD_LIMIT * 5; i++)); do
			kill -0 $pid 2>/dev/null || break
			sleep 0.2
		done
		if kill -0 $pid 2>/dev/null; then
			diag
			echo w > /proc/sysrq-trigger
			dmesg | tail -80
			fail "$round: transfer hangs with the link down"
		fi
		wait $pid && fail "$round: transfer succeeded with the link down"
		RESULT=$(cat "$RUN")
		log "$round: $RESULT"
		[ "$(field done)" = $COUNT ] && [ "$(field errors)" -gt 0 ] &&
			[ "$(field status)" != 0 ] && [ "$(field timeouts)" = 0 ] ||
			fail "$round: not every PUT ended by an LNet error: $RESULT"
		log "$round: ksocklnd: $(tr '\n' ' ' < "$KSTATS")"
		if [ "$round" = initiator ]; then
			ip link set eth0 up
		fi
		barrier "up-$round"
		# The link is back: traffic resumes (after a reconnect).
		ping_ok "$nid" 15
		lt_ok put "$nid" 1048576 8 4
		lt_ok get "$nid" 4096 20 4
		barrier "resumed-$round"
	else
		if [ "$round" = target ]; then
			barrier "cut-$round"
			ip link set eth0 down
			log "$round: eth0 down"
			barrier "down-$round"
			# Down until a's transfer is over, so no PUT can get through.
			barrier "up-$round" 600
			ip link set eth0 up
			log "$round: eth0 up"
		else
			barrier "up-$round" 600
		fi
		barrier "resumed-$round" 600
	fi
done

barrier traffic-done
# PUTs that ksocklnd had written to the socket when the link went were
# sent as far as it knows: LNet's response tracking ended them.
rto=$("$LNETCTL" stats show | awk '$1 == "response_timeout_count:" { print $2 }')
log "ACKs given up on: $rto"
if [ "$LNET_NODE" = a ]; then
	[ "$rto" -ge 1 ] || fail "no response timeout counted"
fi
# Every message is finalized: none left allocated on either side.
for ((i = 0; i < 50; i++)); do
	read -r alloc _ < /sys/kernel/debug/lnet/stats
	[ "$alloc" = 0 ] && break
	sleep 0.2
done
[ "$alloc" = 0 ] || { diag; fail "$alloc LNet messages still allocated"; }
log "ksocklnd: $(tr '\n' ' ' < "$KSTATS")"
barrier checked
sock_unload
log "sock linkdown OK"
