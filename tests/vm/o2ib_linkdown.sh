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
# before giving up on an operation itself; a starts no more PUTs once the
# link is down): every operation started completes,
# some with an error status, none abandoned.  Once the link is back
# traffic resumes; no LNet message is left allocated, the modules
# unload and no RDMA resource (QP, CQ, MR, PD, cm_id) is left behind.
# The NI's status in net show follows: down once the link or the device
# goes (ko2iblnd's port event); once the link is back ko2iblnd clears
# the NI's fatal_error at once, while its status stays down until the
# health its failures cost is recovered (spec 3a: health 0 is status
# down, back at 1000 up), which the renewed NI settles.
#
# On Linux 6.1's rxe a node whose Ethernet link went down and up no
# longer completes any rdma_cm connection (its peer's REQs, or the REPs
# to its own, never reach its rdma_cm; plain IP works): once the link is
# back that node renews its rxe device and its NI, as an admin would
# there (see Documentation/o2iblnd.rst, "Link failures").
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"

LD_NET=o2ib
. "$LNET_TOP/tests/vm/linkdown_lib.sh"

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

# ni_status_is STATUS WHY: the o2ib NI's status in net show becomes
# STATUS within 10 s (ko2iblnd reports port and device events to LNet).
ni_status_is() {
	local i st
	for ((i = 0; i < 50; i++)); do
		st=$("$LNETCTL" net show --net o2ib | awk '$1 == "status:" { print $2 }')
		[ "$st" = "$1" ] && { log "o2ib NI $1 ($2)"; return 0; }
		nap 0.2
	done
	"$LNETCTL" net show --net o2ib
	fail "o2ib NI status '$st' after $2, want $1"
}

# ni_fatal_is 0|1 WHY: the o2ib NI's fatal_error in "net show -v 2"
# becomes 0|1 within 10 s (ko2iblnd's port events).
ni_fatal_is() {
	local i f
	for ((i = 0; i < 50; i++)); do
		f=$("$LNETCTL" net show --net o2ib -v 2 |
			awk '$1 == "fatal_error:" { print $2 }')
		[ "$f" = "$1" ] && { log "o2ib NI fatal_error $1 ($2)"; return 0; }
		nap 0.2
	done
	"$LNETCTL" net show --net o2ib -v 2
	fail "o2ib NI fatal_error '$f' after $2, want $1"
}

ld_cut() {
	if [ "$1" = rdma ]; then
		rdma link delete "$RXE" &
		ld_wait_gone $! "$1: rdma link delete $RXE hangs"
		wait $! || fail "rdma link delete $RXE failed"
		ni_status_is down "rdma link delete"
	else
		ip link set eth0 down
		ni_status_is down "eth0 down"
	fi
}

ld_restore() {
	if [ "$1" = rdma ]; then
		rxe_setup eth0
		ni_renew
	else
		ip link set eth0 up
		ni_fatal_is 0 "eth0 up"
		rxe_renew
	fi
	ni_status_is up "the NI renewed"
}

ld_target_down() {
	ip link set eth0 down
	ni_status_is down "eth0 down"
}

ld_target_up() {
	ip link set eth0 up
	ni_fatal_is 0 "eth0 up"
	rxe_renew
}

rxe_setup eth0
rdma0=$(rdma_resources)
o2ib_load timeout=10
ld_start

for round in rdma initiator target; do
	ld_round "$round"
	if [ "$LNET_NODE" = a ]; then
		log "$round: ko2iblnd: $(o2ib_counters)"
	fi
done

barrier traffic-done
# Every message is finalized: none left allocated on either side.
ld_all_finalized
log "ko2iblnd: $(o2ib_counters)"
barrier checked
o2ib_unload
rdma1=$(rdma_resources)
[ "$rdma1" = "$rdma0" ] ||
	fail "RDMA resources leaked: before '$rdma0', after '$rdma1'"
log "o2ib linkdown OK"
