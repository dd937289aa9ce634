# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The link-down scenario shared by sock_linkdown.sh and o2ib_linkdown.sh
# (sourced after the LND's own *_lib.sh, which provides lt_ok, ping_ok,
# field, diag and barrier): node a sends 1 MiB PUTs to b, 8 at a time;
# once LD_CUT_MIB MiB went out the link is cut in one of several ways
# (the caller's hooks) and a starts no more PUTs; the transfer must end
# by itself, every PUT started completed, some with an LNet error, none
# given up on by lnet_test; once the link is back traffic resumes.
#
# The caller sets LD_NET (tcp, o2ib) and defines, for node a:
#   ld_cut ROUND       cut the link (for b's link: nothing, b does it)
#   ld_restore ROUND   bring it back (likewise)
# and for node b:
#   ld_target_down ROUND, ld_target_up ROUND   b's own link, in the
#                      rounds where b's link is the one cut
# then, with the LND loaded, calls ld_start, and ld_round ROUND for each
# round, in order, on both nodes;
# ld_is_target ROUND says which rounds cut b's link (default: "target").

LD_CUT_MIB=${LD_CUT_MIB:-4}
# The run is longer than any cut can lag (LD_COUNT MiB), and a stops it
# ("stop": no more operations start) once the link is down: the PUTs in
# flight then must each end by an LNet error.  The loop that watches the
# byte count (a's, or b's when b cuts its link) competes for its node's
# one vCPU with the kernel moving the PUTs: on the debug kernel it once
# first ran when all of a 40 MiB run had gone ("transfer succeeded with
# the link down", CI of stop 42).  Stopping also keeps the link down for
# seconds, not the minute the rest of a run took to fail: on Linux 6.1's
# rxe a QP destroyed while its packets sit in a downed virtio-net's
# queue is freed after 50 s anyway (WARNING at rxe_pool.c:255) and the
# link coming up then frees those packets into it (NULL dereference in
# rxe_skb_tx_dtor: seen once, in the initiator round, link down 65 s).
LD_COUNT=${LD_COUNT:-400}

# ld_start: short LNet and lnet_test timeouts, serve, and wait for the
# other node to be ready.  Health is on (its defaults): with one NI on
# each side its guards resend nothing (spec features 3b).
ld_start() {
	local p=/sys/module/lnet/parameters
	echo 10 > $p/lnet_transaction_timeout
	echo 90 > /sys/module/lnet_test/parameters/op_timeout
	echo serve > "$RUN" || fail "serve"
	barrier up
}

# ld_bytes: LD_SENT and LD_RECV, the payload bytes this node's $LD_NET NI
# has sent and received.  Shell builtins only: the cut must follow the
# byte count closely, and a process costs 0.2-0.4 s under TCG.
ld_bytes() {
	local f
	while read -r -a f; do
		if [[ ${f[0]} == *"@$LD_NET" ]]; then
			LD_SENT=${f[8]}
			LD_RECV=${f[9]}
			return 0
		fi
	done < /sys/kernel/debug/lnet/nis
	fail "no $LD_NET NI in /sys/kernel/debug/lnet/nis"
}

# ld_wait_gone PID WHAT: wait at most CMD_LIMIT seconds for PID to end,
# else fail with WHAT, showing the blocked tasks.
ld_wait_gone() {
	local i
	for ((i = 0; i < CMD_LIMIT * 5; i++)); do
		running "$1" || return 0
		nap 0.2
	done
	diag
	# Where it waits: its state and kernel stack (sysrq-w shows only
	# tasks in D state; an rdma link delete once hung without one).
	grep -h '^State' "/proc/$1/status" || true
	cat "/proc/$1/stack" || true
	echo w > /proc/sysrq-trigger
	dmesg | tail -80
	fail "$2"
}

ld_is_target() {
	[ "$1" = target ]
}

# ld_initiator ROUND NID: node a's part of a round.
ld_initiator() {
	local round=$1 nid=$2 count=$LD_COUNT base pid i
	ping_ok "$nid" 10
	lt_ok put "$nid" 1048576 4 4
	ld_bytes
	base=$LD_SENT
	if ld_is_target "$round"; then
		# b counts from what it has now: nothing of the run yet.
		barrier "ready-$round"
		barrier "go-$round"
	fi
	( echo "put $nid 1048576 $count 8" > "$RUN" ) 2>/dev/null &
	pid=$!
	if ld_is_target "$round"; then
		# b cuts its own link once LD_CUT_MIB MiB arrived: a round
		# trip of barriers here took long enough, under TCG, for the
		# whole transfer to get through first.
		barrier "down-$round"
	else
		# Wait until LD_CUT_MIB MiB went out, then cut the link.
		for ((i = 0; i < 1200; i++)); do
			ld_bytes
			[ $((LD_SENT - base)) -ge $((LD_CUT_MIB << 20)) ] && break
			running $pid ||
				fail "$round: transfer ended before the cut: $(cat "$RUN")"
			nap 0.02
		done
		ld_cut "$round"
	fi
	echo stop > "$RUN"
	ld_bytes
	log "$round: link cut after $(((LD_SENT - base) >> 20)) MiB"
	ld_wait_gone $pid "$round: transfer hangs with the link down"
	wait $pid && fail "$round: transfer succeeded with the link down"
	RESULT=$(cat "$RUN")
	log "$round: $RESULT"
	# (With the NI gone the PUTs fail at once: the rdma round may end
	# all of LD_COUNT before a stops it, stopped=0.)
	[ "$(field errors)" -gt 0 ] &&
		[ "$(field status)" != 0 ] && [ "$(field timeouts)" = 0 ] &&
		[ "$(field dups)" = 0 ] ||
		fail "$round: not every PUT ended by an LNet error: $RESULT"
	[ "$("$LNETCTL" stats show |
	      awk '$1 == "resend_count:" { print $2 }')" = 0 ] ||
		fail "$round: a message was sent again, with one rail"
	ld_is_target "$round" || ld_restore "$round"
	barrier "up-$round"
	# The link is back: traffic resumes (after a reconnect).
	ping_ok "$nid" 30
	ld_resume_puts "$round" "$nid"
	lt_ok get "$nid" 4096 20 4
	barrier "resumed-$round"
}

# ld_resume_puts ROUND NID: 8 PUTs to NID must all succeed, in one of
# three tries.  Over o2ib, right after a node renewed its rxe device and
# NI, a batch was seen to fail once (3 of 8 PUTs -EIO: the peer timed out
# the new connection's PUT_ACKs, its old one closed as stale; 1 run in
# ~6): logged, and left to the o2ib work (Documentation/o2iblnd.rst).
ld_resume_puts() {
	local i
	for ((i = 1; i <= 3; i++)); do
		lt put "$2" 1048576 8 4
		[ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ] && return 0
		log "$1: PUTs after the link came back, try $i failed: $RESULT"
	done
	diag
	fail "$1: no batch of 8 PUTs got through after the link came back"
}

# ld_round ROUND: one round, on whichever node this is.
ld_round() {
	local round=$1 t0 t
	if [ "$LNET_NODE" = a ]; then
		ld_initiator "$round" "$(nid_of b)"
		return
	fi
	if ld_is_target "$round"; then
		local base i
		barrier "ready-$round"
		ld_bytes
		base=$LD_RECV
		barrier "go-$round"
		for ((i = 0; i < 1200; i++)); do
			ld_bytes
			[ $((LD_RECV - base)) -ge $((LD_CUT_MIB << 20)) ] && break
			nap 0.05
		done
		ld_target_down "$round"
		ld_bytes
		log "$round: link down after $(((LD_RECV - base) >> 20)) MiB received"
		barrier "down-$round"
		# Down until a's transfer is over, so no PUT can get through.
		t0=$(cat "$TARGET")
		barrier "up-$round" 600
		ld_target_up "$round"
		log "$round: link up"
	else
		t0=$(cat "$TARGET")
		barrier "up-$round" 600
	fi
	barrier "resumed-$round" 600
	# The receiver's verdict on a's 8 PUTs after the link came back: all
	# landed, intact.  (A receive of the cut transfer may still fail, or
	# land, after the snapshot: at least 8 landed, none corrupt.)
	t=$(cat "$TARGET")
	log "$round: target $t0 -> $t"
	[ "$(field bad "$t")" = 0 ] &&
		[ "$(field puts "$t")" -ge $(($(field puts "$t0") + 8)) ] ||
		fail "$round: a's PUTs after the link came back: target $t0 -> $t"
}

# ld_all_finalized: no LNet message is left allocated on this node.
ld_all_finalized() {
	lnet_idle 10
}
