#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Teardown under load (tests/vm/teardown_load.py; Documentation/
# testing.rst): a and b, two vCPUs each.  First, at MTU 1500 (the
# debug kernel's LND data path there: the other debug jobs run 9000),
# for each LND (tcp, then o2ib on rxe0): PUTs and GETs of 0 B to 1 MiB,
# and hundreds of small PUTs, then GETs, and 32 of a page, each way at
# once over 8 peer credits (most wait for a credit).  Then at MTU 9000, a and b send each other 1 MiB
# PUTs and GETs, 4 in flight each way, every byte checked (lnet_test
# "mix"), while one of them takes something down; for each LND, one NI
# at a time:
#
# - LND_net_del: a's rmmod of the LND is refused while its NI runs and
#   the traffic goes on; a deletes the NI (over tcp with a discovery of
#   b and every message to b held 3 s by a delay rule: both in flight);
#   then the LND's rmmod works and it is loaded again;
# - LND_peer_unload: b stops its own traffic, says "lnet unconfigure"
#   (refused: lnet_test holds LNet), unloads lnet_test, which stops LNet
#   under a's incoming traffic, and every module; then comes back;
#
# then, over tcp:
#
# - rmmod_health: a's PUTs to b fail (local_dropped: a's NI is demerited;
#   then set to health 300, so that it stays in recovery) and every
#   message to a's own NID is held 2 s (its recovery pings are in
#   flight), and a unloads and reloads lnet_health twice;
# - rmmod_selftest: a, the lst console, runs a brw write and a brw read
#   batch (check=full) with b and unloads lnet_selftest in the middle;
#   b's test node then unloads too.
#
# Each phase: every operation ended exactly once (dups=0), by LNet, not
# given up by lnet_test (timeouts=0), no PUT landed good with wrong bytes
# (bad=0), each action under 20 s, no LNet message left allocated, and
# then 8 operations each way succeed with every byte checked.  The
# harness adds the debug kernel's verdicts (KASAN, lockdep, kmemleak,
# DEBUG_OBJECTS) and the final unload proves no reference leaked.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"
LST_LND=sock
. "$LNET_TOP/tests/vm/lst_lib.sh"

OTHER=$(peers)
# Operations of a flow: more than it will ever do ("stop" ends it).
FLOW_OPS=1000000
# No PUT or GET waits for its answer longer than this (lnet transaction
# timeout): a peer gone mid-transfer fails them within it.
TXN_TIMEOUT=15
# lnet_test gives up on an operation after this: LNet must end each
# before (timeouts=0).
OP_TIMEOUT=60
ACTION_LIMIT=20

declare -A LND_MOD=([tcp]=ksocklnd [o2ib]=ko2iblnd)
declare -A LND_KO=([tcp]=lnd/sock/ksocklnd.ko [o2ib]=lnd/o2ib/ko2iblnd.ko)

# lnd_nid LND NODE: NODE's NID on LND's net.
lnd_nid() {
	local ip_var=IP_${2}_net0
	echo "${!ip_var}@$1"
}

# diag: o2ib_diag's, and what this job adds: both LNDs, the peers, the
# modules loaded.
diag() {
	o2ib_diag
	{
		echo "== rxe"; rdma statistic show link "$RXE/1"
		echo "== ksocklnd"; cat "$KSTATS"
		echo "== peers"; "$LNETCTL" peer show -v 2
		echo "== modules"; cat /proc/modules
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

# tl_load: lnet, lnet_health, both LNDs and lnet_test; LNet configured
# with no NI but 0@lo (each phase adds its own), the timeouts above.
tl_load() {
	local m
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	for m in $LNET_MODULES lnettest/lnet_test.ko; do
		insmod "$LNET_MODDIR/$m" || fail "insmod $m"
	done
	echo "$OP_TIMEOUT" > /sys/module/lnet_test/parameters/op_timeout
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
	"$LNETCTL" set transaction_timeout "$TXN_TIMEOUT" ||
		fail "set transaction_timeout $TXN_TIMEOUT"
}

# net_add LND: this node's NI of LND's net, on eth0.
net_add() {
	"$LNETCTL" net add --net "$1" --if eth0 --peer-credits 8 ||
		fail "net add --net $1"
}

# ended_within WHAT PID: background process PID (its status does not
# matter) ends within ACTION_LIMIT seconds.
ended_within() {
	local i
	for ((i = 0; i < ACTION_LIMIT * 10; i++)); do
		running "$2" || break
		nap 0.1
	done
	if running "$2"; then
		echo w > /proc/sysrq-trigger
		dmesg | tail -150
		fail "$1 still running after $ACTION_LIMIT s"
	fi
	if wait "$2"; then
		log "$1 ended: ok"
	else
		log "$1 ended: failed ($?)"
	fi
}

# must_refuse WHAT TEXT CMD...: CMD must fail saying TEXT.
must_refuse() {
	local what=$1 text=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		fail "$what was taken: $out"
	fi
	case "$out" in
	*"$text"*) log "$what refused: $out" ;;
	*) fail "$what: want '$text', got: $out" ;;
	esac
}

# serve_fresh: lnet_test's target counts from zero (the other node must
# not send meanwhile: a barrier follows).
serve_fresh() {
	{ echo unserve > "$RUN" && echo serve > "$RUN"; } || fail "re-serve"
}

# lnet_bytes: "SENT RECEIVED", this node's LNet payload bytes so far
# (/sys/kernel/debug/lnet/stats: send_length, recv_length): both
# directions of the flows, GET replies included.
lnet_bytes() {
	local s
	read -r -a s < /sys/kernel/debug/lnet/stats
	echo "${s[7]} ${s[8]}"
}

# flow_start LND: 1 MiB PUTs and GETs to the other node, 4 in flight,
# until flow_stop.
flow_start() {
	FLOW_BYTES0=$(lnet_bytes)
	lt_start mix "$(lnd_nid "$1" "$OTHER")" 1048576 "$FLOW_OPS" 4
}

# target_read: lnet_test's target counts, read and dropped.
target_read() {
	cat "$TARGET" > /dev/null
}

# flowing: 4 MiB at least sent and received since flow_start: both
# flows move (this node's PUTs and the other's GET replies leave, the
# other's PUTs and this node's GET replies arrive).
flowing() {
	local i s0 r0 s r
	read -r s0 r0 <<< "$FLOW_BYTES0"
	for ((i = 0; i < 600; i++)); do
		read -r s r <<< "$(lnet_bytes)"
		if [ $((s - s0)) -ge 4194304 ] && [ $((r - r0)) -ge 4194304 ]; then
			log "flowing: $(((s - s0) >> 20)) MiB sent, $(((r - r0) >> 20)) MiB received"
			# diag reads it: it must not wait for the run.
			timed 5 "lnet_test's target read during a run" \
				target_read
			return 0
		fi
		nap 0.1
	done
	diag
	fail "not flowing both ways in 60 s: $((s - s0)) bytes sent, $((r - r0)) received"
}

# flow_stop: end this node's flow (those in flight end as they will).
flow_stop() {
	echo stop > "$RUN" || fail "lnet_test stop"
	lt_wait
}

# flow_ended [failed|any]: the flow's operations each ended once, by
# LNet; with "failed", at least one with an error or the run ended by a
# start that failed (something went down under it), with "any" errors
# or none, else none.  No PUT landed here
# good with wrong bytes.
flow_ended() {
	local t
	[ "$(field dups)" = 0 ] && [ "$(field timeouts)" = 0 ] &&
		[ "$(field done)" -ge 1 ] ||
		{ diag; fail "want every operation ended once by LNet: $RESULT"; }
	if [ "${1:-}" = failed ]; then
		# An operation failed, or the next could not start (those in
		# flight may all have finished before it went).
		[ "$(field errors)" -ge 1 ] || [ "$(field rc)" != 0 ] ||
			{ diag; fail "nothing failed while it went down: $RESULT"; }
	elif [ "${1:-}" != any ]; then
		[ "$(field errors)" = 0 ] && [ "$LT_RC" = 0 ] ||
			{ diag; fail "want no error: $RESULT"; }
	fi
	t=$(cat "$TARGET")
	[ "$(field bad "$t")" = 0 ] || { diag; fail "wrong bytes landed: $t"; }
	log "flow ended: $(field done) operations, $(field errors) failed, target: $t"
}

# verified LND NAME: 8 operations each way (4 PUTs, 4 GETs of 1 MiB),
# every one good and every byte checked, both nodes at once.
verified() {
	serve_fresh
	barrier "$2-vserve" 600
	lt_ok mix "$(lnd_nid "$1" "$OTHER")" 1048576 8 4
	barrier "$2-vdone" 600
	target_expect 4
}

# data_sizes LND: PUTs and GETs of 0 B to 1 MiB, from buffers that start
# 100 bytes into a page, every byte checked: the LND's data path on the
# sanitised kernel at 1500-byte frames (rxe's RoCE MTU 1024), which the
# other debug jobs run at 9000.
data_sizes() {
	local lnd=$1 size n=0 nid p=/sys/module/lnet_test/parameters/buf_offset
	phase "${lnd}_sizes_mtu1500"
	nid=$(lnd_nid "$lnd" "$OTHER")
	serve_fresh
	barrier "$lnd-ds-serve" 600
	echo 100 > $p || fail "buf_offset 100"
	for size in 0 1 4097 65537 1048576; do
		lt_ok put "$nid" "$size" 2 2
		lt_ok get "$nid" "$size" 2 2
		n=$((n + 2))
	done
	echo 0 > $p || fail "buf_offset 0"
	barrier "$lnd-ds-done" 600
	target_expect "$n"
}

# credit_flood LND: N PUTs of 1,000 bytes (o2ib: IMMEDIATE), then N
# GETs, all in flight at once over 8 peer credits, then 32 PUTs and GETs
# of a page (o2ib: RDMA), both nodes at once on two CPUs: most wait in
# LNet's credit queues while the completions of the others run on the
# other CPU; every one succeeds, every byte checked.  N is 200 (25 times
# the credits): rxe moves ~200 packets a second on this kernel with two
# vCPUs (rdma statistic, no retransmission), and 1,000 IMMEDIATE PUTs
# each way outlasted the transaction timeout.
declare -A FLOOD=([tcp]=200 [o2ib]=200)
credit_flood() {
	local lnd=$1 nid n=${FLOOD[$1]}
	phase "${lnd}_credit_flood"
	nid=$(lnd_nid "$lnd" "$OTHER")
	serve_fresh
	barrier "$lnd-cf-serve" 600
	lt_ok put "$nid" 1000 "$n" "$n"
	log "reordered answers: $(field reordered)"
	lt_ok get "$nid" 1000 "$n" "$n"
	lt_ok put "$nid" 4096 32 32
	lt_ok get "$nid" 4096 32 32
	barrier "$lnd-cf-done" 600
	target_expect $((n + 32))
}

# lnd_net_del LND: the first phase (above).
lnd_net_del() {
	local lnd=$1 mod=${LND_MOD[$1]} b disc=
	phase "${lnd}_net_del"
	serve_fresh
	barrier "$lnd-nd-serve" 600
	flow_start "$lnd"
	flowing
	barrier "$lnd-nd-flowing" 600
	if [ "$LNET_NODE" = a ]; then
		b=$(lnd_nid "$lnd" b)
		must_refuse "rmmod $mod under traffic" "in use" rmmod "$mod"
		if [ "$lnd" = tcp ]; then
			"$LNETCTL" fault delay add -s '*' -d "$b" -r 1 -l 3 ||
				fail "fault delay add"
			"$LNETCTL" discover "$b" > /dev/null 2>&1 &
			disc=$!
			nap 1
		fi
		timed "$ACTION_LIMIT" "net del --net $lnd under traffic" \
			"$LNETCTL" net del --net "$lnd"
		if [ -n "$disc" ]; then
			ended_within "the discovery in flight" "$disc"
			"$LNETCTL" fault delay del --all || fail "fault delay del"
		fi
		flow_stop
		flow_ended failed
		timed "$ACTION_LIMIT" "rmmod $mod" rmmod "$mod"
		insmod "$LNET_MODDIR/${LND_KO[$lnd]}" || fail "insmod $mod"
	fi
	barrier "$lnd-nd-deleted" 600
	if [ "$LNET_NODE" = b ]; then
		flow_stop
		flow_ended failed
	fi
	lnet_idle 60
	[ "$LNET_NODE" = a ] && net_add "$lnd"
	barrier "$lnd-nd-back" 600
	ping_ok "$(lnd_nid "$lnd" "$OTHER")" 10
	verified "$lnd" "$lnd-nd"
}

# lnd_peer_unload LND: the second phase (above).
lnd_peer_unload() {
	local lnd=$1
	phase "${lnd}_peer_unload"
	serve_fresh
	barrier "$lnd-pu-serve" 600
	flow_start "$lnd"
	flowing
	barrier "$lnd-pu-flowing" 600
	if [ "$LNET_NODE" = b ]; then
		flow_stop
		flow_ended
		must_refuse "lnet unconfigure with lnet_test serving" "in use" \
			"$LNETCTL" lnet unconfigure
		"$LNETCTL" net show --net "$lnd" | grep -q "status: up" ||
			fail "LNet stopped while lnet_test held it"
		# lnet_test's exit unlinks its MDs under a's traffic, and
		# LNet stops with its last user.
		timed "$ACTION_LIMIT" "rmmod lnet_test under a's traffic" rmmod lnet_test
		[ ! -e /sys/kernel/debug/lnet/nis ] ||
			! grep -q "@$lnd" /sys/kernel/debug/lnet/nis ||
			fail "LNet still runs an $lnd NI after its last user left"
		timed "$ACTION_LIMIT" "unloading every module" lnet_unload
	fi
	barrier "$lnd-pu-gone" 600
	if [ "$LNET_NODE" = a ]; then
		# What was in flight fails within the transaction timeout.
		nap $((TXN_TIMEOUT + 2))
		flow_stop
		flow_ended failed
		lnet_idle 60
	else
		tl_load
		net_add "$lnd"
	fi
	barrier "$lnd-pu-back" 600
	ping_ok "$(lnd_nid "$lnd" "$OTHER")" 10
	verified "$lnd" "$lnd-pu"
}

# local_dropped: LNet's count of sends failed local_dropped.
local_dropped() {
	"$LNETCTL" stats show | sed -n 's/^ *local_dropped_count: //p'
}

# rmmod_health: the third phase (above), over tcp.
rmmod_health() {
	local b i ld0 me
	phase rmmod_health
	serve_fresh
	barrier rh-serve 600
	flow_start tcp
	flowing
	barrier rh-flowing 600
	if [ "$LNET_NODE" = a ]; then
		b=$(lnd_nid tcp b)
		me=$(lnd_nid tcp a)
		# b has one NI: a remote failure would not touch its health
		# (spec features 3b); a local one demerits our NI, whose
		# recovery pings (to itself) the delay rule holds.
		ld0=$(local_dropped)
		"$LNETCTL" fault drop add -s '*' -d "$b" -m put -r 1 \
			-e local_dropped || fail "fault drop add"
		"$LNETCTL" fault delay add -s '*' -d "$me" -r 1 -l 2 ||
			fail "fault delay add"
		for ((i = 0; i < 100; i++)); do
			[ "$(local_dropped)" -gt "$ld0" ] && break
			nap 0.2
		done
		[ "$(local_dropped)" -gt "$ld0" ] ||
			{ diag; fail "no PUT failed local_dropped in 20 s"; }
		# Those few failures demerit the NI by 100 each and one
		# recovery ping (held 2 s) may bring it back: a window an
		# lnetctl run can miss on the debug kernel (it did, once).
		# At 300 it takes seven pings, 14 s at least, to climb back:
		# in recovery through the unloads below.
		"$LNETCTL" net set --nid "$me" --health 300 ||
			fail "net set --health 300"
		"$LNETCTL" debug recovery --local | grep -q "nid-[0-9]*: $me" ||
			{ diag; fail "$me not in recovery at health 300"; }
		nap 3
		log "$me in recovery: $("$LNETCTL" net show -v 2 --net tcp |
			grep -m1 'health value' || true)"
		for i in 1 2; do
			timed "$ACTION_LIMIT" "rmmod lnet_health ($i)" rmmod lnet_health
			nap 2
			insmod "$LNET_MODDIR/health/lnet_health.ko" ||
				fail "insmod lnet_health"
			nap 2
		done
		"$LNETCTL" fault drop del --all || fail "fault drop del"
		"$LNETCTL" fault delay del --all || fail "fault delay del"
		flow_stop
		flow_ended failed
	fi
	barrier rh-done 600
	if [ "$LNET_NODE" = b ]; then
		# a's drop rule fails PUTs with a health error, which closes
		# the connection under b's flow too.
		flow_stop
		flow_ended any
	fi
	lnet_idle 60
	"$LNETCTL" peer set --all --health 1000 || fail "peer set --health"
	"$LNETCTL" net set --all --health 1000 || fail "net set --health"
	verified tcp rh
}

# rmmod_selftest: the fourth phase (above), over tcp.
rmmod_selftest() {
	local a b sent
	phase rmmod_selftest
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=5 ||
		fail "insmod lnet_selftest"
	barrier rs-loaded 600
	if [ "$LNET_NODE" = a ]; then
		a=$(lnd_nid tcp a)
		b=$(lnd_nid tcp b)
		run new_session --timeout 600 teardown
		run add_group a "$a"
		run add_group b "$b"
		run add_batch bulk
		run add_test --batch bulk --concurrency 8 --from a --to b \
			brw write check=full size=1M
		run add_test --batch bulk --concurrency 8 --from b --to a \
			brw read check=full size=1M
		sent=$(lnet_stat send_length)
		run run bulk
		nap 4
		grew send_length "$sent" 1048576
		timed "$ACTION_LIMIT" "rmmod lnet_selftest during the batch" \
			rmmod lnet_selftest
	fi
	barrier rs-console-gone 600
	if [ "$LNET_NODE" = b ]; then
		timed "$ACTION_LIMIT" "rmmod lnet_selftest (test node)" rmmod lnet_selftest
	fi
	lnet_idle 60
	barrier rs-done 600
	verified tcp rs
}

tl_load
read -r mtu < /sys/class/net/eth0/mtu
[ "$mtu" = 1500 ] || fail "eth0's MTU is $mtu, want 1500 (teardown_load.py)"
rxe_setup
# Data at 1500-byte frames (~2 ms a packet on this kernel under TCG: 8
# MiB each way take ~12 s at once) may take longer than the teardown
# phases' transaction timeout.
"$LNETCTL" set transaction_timeout $((TXN_TIMEOUT * 3)) ||
	fail "set transaction_timeout"
for lnd in tcp o2ib; do
	net_add "$lnd"
	barrier "$lnd-up" 600
	ping_ok "$(lnd_nid "$lnd" "$OTHER")" 10
	data_sizes "$lnd"
	credit_flood "$lnd"
	barrier "$lnd-data-end" 600
	"$LNETCTL" net del --net "$lnd" || fail "net del --net $lnd"
done

# The teardown phases at 9000 (as the other debug jobs), 3-5 times
# faster for 1 MiB messages; rxe follows the netdev (RoCE MTU 4096).
ip link set eth0 mtu 9000 || fail "ip link set eth0 mtu 9000"
"$LNETCTL" set transaction_timeout "$TXN_TIMEOUT" ||
	fail "set transaction_timeout"
barrier mtu9000 600
for lnd in tcp o2ib; do
	net_add "$lnd"
	barrier "$lnd-up9000" 600
	ping_ok "$(lnd_nid "$lnd" "$OTHER")" 10
	lnd_net_del "$lnd"
	lnd_peer_unload "$lnd"
	if [ "$lnd" = tcp ]; then
		rmmod_health
		rmmod_selftest
	fi
	barrier "$lnd-end" 600
	"$LNETCTL" net del --net "$lnd" || fail "net del --net $lnd"
done
sock_unload
log "teardown under load OK"
