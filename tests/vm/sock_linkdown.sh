#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# a sends 1 MiB PUTs to b, 8 at a time; once they flow, eth0 goes down:
# in round "initiator" on a, in round "target" on b.  The run must end by
# itself (ksocklnd's sock_timeout is 5 s and LNet's transaction timeout
# 10 s with no resend, lnet_test waits 90 s before giving up on an
# operation itself; a starts no more PUTs once the link is down): every
# operation started completes, some with an error
# status (ACKs the link lost are given up on by LNet's response tracking),
# none abandoned.  Once the link is up again traffic resumes, no
# LNet message is left allocated, and the modules unload.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

LD_NET=tcp
. "$LNET_TOP/tests/vm/linkdown_lib.sh"

ld_cut() {
	ip link set eth0 down
}

ld_restore() {
	ip link set eth0 up
}

ld_target_down() {
	ip link set eth0 down
}

ld_target_up() {
	ip link set eth0 up
}

sock_load sock_timeout=5
ld_start

for round in initiator target; do
	ld_round "$round"
	if [ "$LNET_NODE" = a ]; then
		log "$round: ksocklnd: $(tr '\n' ' ' < "$KSTATS")"
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
ld_all_finalized
log "ksocklnd: $(tr '\n' ' ' < "$KSTATS")"
barrier checked
sock_unload
log "sock linkdown OK"
