#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ko2iblnd on soft-RoCE: a sends 1 MiB PUTs to b, 8 at a time; once they
# flow, the link goes, in three rounds:
#   rdma:      a deletes its RDMA device (rdma link delete rxe0) under
#              the NI (ko2iblnd's ib_client removal path), then adds it
#              again and re-adds its o2ib NI;
#   initiator: a's eth0 goes down;
#   target:    b's eth0 goes down (rxe0's port with it).
# Each time the run must end by itself (ko2iblnd's timeout is 10 s,
# LNet's transaction timeout 10 s with no resend, lnet_test waits 90 s
# before giving up on an operation itself): every operation completes,
# some with an error status, none abandoned.  Once the link is back
# traffic resumes; no LNet message is left allocated, the modules
# unload and no RDMA resource (QP, CQ, MR, PD, cm_id) is left behind.
#
# On Linux 6.1's rxe a node whose Ethernet link went down and up no
# longer completes any rdma_cm connection (its peer's REQs, or the REPs
# to its own, never reach its rdma_cm; plain IP works): once the link is
# back that node renews its rxe device and its NI, as an admin would
# there (see Documentation/o2iblnd.rst, "Link failures").
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"

P=/sys/module/lnet/parameters
COUNT=40

# sent_bytes: payload bytes this node's o2ib NI has sent.
sent_bytes() {
	awk '$1 ~ /@o2ib$/ { print $9 }' /sys/kernel/debug/lnet/nis
}

# wait_gone PID WHAT: wait at most CMD_LIMIT seconds for PID to end.
wait_gone() {
	local i
	for ((i = 0; i < CMD_LIMIT * 5; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	diag
	echo w > /proc/sysrq-trigger
	dmesg | tail -80
	fail "$2"
}

# ni_renew: the o2ib NI again, on the current rxe device.
ni_renew() {
	"$LNETCTL" net del --net o2ib --if eth0 || fail "net del o2ib"
	"$LNETCTL" net add --net o2ib --if eth0 ||
		fail "net add o2ib on the new $RXE"
}

# rxe_renew: after a link bounce, a new rxe device and NI (see above).
rxe_renew() {
	rdma link delete "$RXE" || fail "rdma link delete $RXE after the bounce"
	rxe_setup eth0
	ni_renew
}

rxe_setup eth0
rdma0=$(rdma_resources)
o2ib_load timeout=10
echo 0 > $P/lnet_health_sensitivity	# retry_count 0: no resend
echo 10 > $P/lnet_transaction_timeout
echo 90 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up

for round in rdma initiator target; do
	if [ "$LNET_NODE" = a ]; then
		nid=$(nid_of b)
		ping_ok "$nid" 10
		lt_ok put "$nid" 1048576 4 4
		base=$(sent_bytes)
		( echo "put $nid 1048576 $COUNT 8" > "$RUN" ) 2>/dev/null &
		pid=$!
		# Wait until 4 MiB went out, then cut the link.
		for ((i = 0; i < 1200; i++)); do
			[ $(($(sent_bytes) - base)) -ge $((4 << 20)) ] && break
			kill -0 $pid 2>/dev/null ||
				fail "$round: transfer ended before the cut: $(cat "$RUN")"
			sleep 0.1
		done
		case $round in
		target)
			barrier "cut-$round"
			barrier "down-$round"
			;;
		initiator)
			ip link set eth0 down
			;;
		rdma)
			rdma link delete "$RXE" &
			wait_gone $! "$round: rdma link delete $RXE hangs"
			wait $! || fail "rdma link delete $RXE failed"
			;;
		esac
		log "$round: link cut after $((($(sent_bytes) - base) >> 20)) MiB"
		wait_gone $pid "$round: transfer hangs with the link down"
		wait $pid && fail "$round: transfer succeeded with the link down"
		RESULT=$(cat "$RUN")
		log "$round: $RESULT"
		[ "$(field done)" = $COUNT ] && [ "$(field errors)" -gt 0 ] &&
			[ "$(field status)" != 0 ] && [ "$(field timeouts)" = 0 ] ||
			fail "$round: not every PUT ended by an LNet error: $RESULT"
		log "$round: ko2iblnd: $(o2ib_counters)"
		case $round in
		initiator)
			ip link set eth0 up
			rxe_renew
			;;
		rdma)
			rxe_setup eth0
			ni_renew
			;;
		esac
		barrier "up-$round"
		# The link is back: traffic resumes (after a reconnect).
		ping_ok "$nid" 30
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
			rxe_renew
			log "$round: eth0 up"
		else
			barrier "up-$round" 600
		fi
		barrier "resumed-$round" 600
	fi
done

barrier traffic-done
# Every message is finalized: none left allocated on either side.
for ((i = 0; i < 50; i++)); do
	read -r alloc _ < /sys/kernel/debug/lnet/stats
	[ "$alloc" = 0 ] && break
	sleep 0.2
done
[ "$alloc" = 0 ] || { diag; fail "$alloc LNet messages still allocated"; }
log "ko2iblnd: $(o2ib_counters)"
barrier checked
o2ib_unload
rdma1=$(rdma_resources)
[ "$rdma1" = "$rdma0" ] ||
	fail "RDMA resources leaked: before '$rdma0', after '$rdma1'"
log "o2ib linkdown OK"
