#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# LNet selftest over ksocklnd (LST_LND=o2ib: over ko2iblnd, the data
# and stat phases only, lst_o2ib.sh): node a is lst's console and a test
# node, b a test node (spec lnet-selftest.md 8.2, between our own
# nodes).
#  - sessions and groups: new_session, add_group (nodes Active),
#    list_group, show_session, ping;
#  - bad input refused with the kernel's message: no key, a foreign key,
#    a 1-byte brw (stock nodes assert), an offset that adds a page; raw
#    netlink requests (lst_nl_bad), also without CAP_NET_ADMIN, changing
#    nothing;
#  - brw write and read, check=full, at 8 B, 4 KiB, 1 MiB and an
#    unaligned offset, and ping, as finite loops: the data moved and was
#    checked by the node that received it (show_error: 0 errors);
#    brw_inject_errors makes exactly one error; stat figures move the
#    right way (a's W and b's R for a write);
#  - hostile framework RPCs from b to a's test node (lnet_test "raw"
#    PUTs): short, bad magic, a request of the wrong type dropped and
#    counted; MAKE_SESSION, REMOVE_SESSION and BATCH stop with a foreign
#    session id refused; an oversized one dropped by LNet: a's session,
#    groups and batch unchanged, and a still serves its console;
#  - a test node that leaves mid-batch (rmmod) gives errors on the
#    console, not a hang; stop --force ends the batch;
#  - a node's session expires (session_timeout=6) without console
#    traffic: ping shows it Unknown; end_session;
#  - server_abort: a's BRW server waits on GETs b drops (a fault rule on
#    b), response tracking off: end_session aborts them (spec 4.9 step
#    2), and it and rmmod on a end within seconds;
#  - lnet_selftest loaded on a node where nothing configured LNet (b,
#    no lnetctl): LNet comes up as stock's does for its first in-kernel
#    user (tcp on the first interface up, b's usual NID), a's console
#    runs brw write and read with check=full against it, 0 errors;
#    "lnet unconfigure" there says LNet is in use, and LNet stops with
#    the module (spec lnet-features-and-lnetctl.md 1c, api.rst).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
LST_LND=${LST_LND:-sock}
if [ "$LST_LND" = o2ib ]; then
	. "$LNET_TOP/tests/vm/o2ib_lib.sh"
else
	. "$LNET_TOP/tests/vm/sock_lib.sh"
fi

. "$LNET_TOP/tests/vm/lst_lib.sh"
LST_NL_BAD=$LNET_TOP/build/utils/static/lst_nl_bad

# le BYTES VALUE: VALUE little-endian in hex.
le() {
	local i b out=
	for ((i = 0; i < $1; i++)); do
		printf -v b '%02x' $((($2 >> (8 * i)) & 255))	# no fork
		out+=$b
	done
	printf '%s' "$out"
}

# lst_msg TYPE [MAGIC]: a selftest message header (spec 3.1), features 1.
lst_msg() {
	le 4 "${2:-0xeeb0f00d}"; le 4 1; le 4 "$1"; le 4 0; le 4 0; le 4 1
}

# raw_to NODE SERVICE LEN HEX: PUT LEN bytes (HEX, then zeros) to NODE's
# selftest framework portal (51), match bits SERVICE.
raw_to() {
	log "raw PUT to $1 service $2: $3 bytes"
	echo "raw $1 51 $2 $3 $4" > "$RUN" || fail "raw PUT: $(cat "$RUN")"
}

# within SECONDS CMD...: CMD must end, successfully, within SECONDS; its
# output in $OUT.
within() {
	local secs=$1 pid i
	shift
	log "\$ $* (within $secs s)"
	"$@" > /tmp/lst_within 2>&1 &
	pid=$!
	for ((i = 0; i < secs * 5; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		nap 0.2
	done
	if kill -0 "$pid" 2>/dev/null; then
		{ indent < "/proc/$pid/stack"; } 2>/dev/null || true
		fail "$* still running after $secs s"
	fi
	wait "$pid" || { indent < /tmp/lst_within; fail "$* failed"; }
	OUT=$(cat /tmp/lst_within)
	indent <<< "$OUT"
}

# get_drops: GETs this node's drop rules dropped.
get_drops() {
	"$LNETCTL" fault drop show | awk '$1 == "fs_get:" || $2 == "fs_get:" {
		print $NF; exit }'
}

# hostile_rpcs NID: b's hostile framework requests to NID (a's test
# node), each as a node without a's session id would send it.  A foreign
# sid: b's address with a stamp a's console never uses.
hostile_rpcs() {
	local sid rpy=0x0123456789abcdef
	sid=$(le 8 0x00020000c000020b; le 8 1)
	# dropped by the framework, counted (3)
	raw_to "$1" 1 100 "$(lst_msg 0)$(le 8 $rpy)$sid"
	raw_to "$1" 1 160 "$(lst_msg 0 0xdeadbeef)$(le 8 $rpy)$sid"
	raw_to "$1" 1 160 "$(lst_msg 14)$(le 8 $rpy)$sid"
	# refused with a reply (to b, which has no buffer for it)
	raw_to "$1" 1 160 "$(lst_msg 0)$(le 8 $rpy)$sid$(le 4 0)$(printf evil | od -An -tx1 | tr -d ' \n')"
	raw_to "$1" 2 160 "$(lst_msg 2)$(le 8 $rpy)$sid"
	raw_to "$1" 3 160 "$(lst_msg 4)$(le 8 $rpy)$sid$(le 8 1)$(le 4 2)"
	# more than a request buffer: dropped by LNet
	raw_to "$1" 1 4096 "$(lst_msg 0)$(le 8 $rpy)$sid"
}

A=$(nid_of a)
B=$(nid_of b)
lst_load
barrier up

if [ "$LNET_NODE" = b ] && [ "$LST_LND" != sock ]; then
	barrier done 900
	lst_unload
	exit 0
fi
if [ "$LNET_NODE" = b ]; then
	barrier batches 600		# a runs the batches
	barrier hostile 600
	hostile_rpcs "$A"
	barrier hostile-sent 600
	barrier leave 600		# a's forever batch is running
	rmmod lnet_selftest || fail "rmmod lnet_selftest under a batch"
	barrier left 600
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" session_timeout=6 ||
		fail "reload lnet_selftest"
	barrier back 600
	barrier expired 600
	# server_abort: a session that does not expire while a waits
	rmmod lnet_selftest || fail "rmmod lnet_selftest"
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=5 ||
		fail "reload lnet_selftest"
	barrier abort-reloaded 600
	# a's BRW server GETs the data of b's writes: b drops each GET
	"$LNETCTL" fault drop add -s "$A" -d "$B" -m get -p 52 -r 1 ||
		fail "fault drop add"
	barrier abort-rule 600
	for ((i = 0; i < 100; i++)); do
		[ "$(get_drops)" -ge 4 ] && break
		nap 0.2
	done
	[ "$(get_drops)" -ge 4 ] ||
		{ "$LNETCTL" fault drop show; fail "b dropped $(get_drops) GETs of a, want 4"; }
	barrier abort-stuck 600
	barrier abort-done 600
	"$LNETCTL" fault drop del --all || fail "fault drop del --all"
	barrier done 600
	lst_unload

	phase unconfigured_node
	# The LND modules and lnet_selftest, nothing configured.
	for m in $LNET_MODULES; do
		insmod "$LNET_MODDIR/$m" || fail "insmod $m"
	done
	# not_configured WHAT: LNet is down ("net show" says so)
	not_configured() {
		local out
		out=$("$LNETCTL" net show 2>&1) && fail "$1: LNet is up: $out"
		case "$out" in
		*"not configured"*) ;;
		*) fail "$1: net show says: $out" ;;
		esac
	}
	not_configured "before lnet_selftest"
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" ||
		{ dmesg | tail -5; fail "insmod lnet_selftest with LNet not configured"; }
	"$LNETCTL" net show > /tmp/lst_auto_net ||
		fail "lnet_selftest did not bring LNet up"
	grep -q "nid: $B\$" /tmp/lst_auto_net ||
		{ cat /tmp/lst_auto_net; fail "LNet not up with $B (tcp on the first interface up)"; }
	log "lnet_selftest brought LNet up: $(grep -o 'nid: .*' /tmp/lst_auto_net | tr '\n' ' ')"
	barrier auto-up 600
	barrier auto-done 600
	out=$("$LNETCTL" lnet unconfigure 2>&1) &&
		fail "lnet unconfigure under lnet_selftest was taken: $out"
	case "$out" in
	*"in use"*) log "lnet unconfigure refused: $out" ;;
	*) fail "lnet unconfigure under lnet_selftest: $out" ;;
	esac
	"$LNETCTL" net show > /dev/null || fail "LNet stopped under lnet_selftest"
	rmmod lnet_selftest || fail "rmmod lnet_selftest"
	not_configured "after lnet_selftest, LNet's last user, left"
	lnet_unload
	exit 0
fi

if [ "$LST_LND" != sock ]; then
	run new_session lstvm
	run add_group a "$A"
	run add_group b "$B"
fi
if [ "$LST_LND" = sock ]; then
phase sessions_groups
refused "no session" add_group a "$A"
run new_session --timeout 600 lstvm
want "SESSION: lstvm"
refused "a session exists" new_session other
LST_SESSION=99 refused "not this session's key" add_batch x
run add_group a "$A"
run add_group b "$B"
run list_group
want "Total 2 groups"
run list_group a b
want $'\t1\t0\t0\t0\t1\tb'
run list_group --active b
want "12345-$B: Active"
run show_session
want "lstvm ID:"
# a node in two groups: removed from one, it keeps its session (no
# REMOVE_SESSION: it is in another group)
run add_group tmp "$A"
run update_group tmp --remove "$A"
run list_group tmp
want $'\t0\t0\t0\t0\t0\ttmp'
run del_group tmp
run ping --group a
want "12345-$A: Active"

phase bad_netlink
# each refused with a message; the session and its groups unchanged
before=$("$LST" show_session; "$LST" list_group a b)
"$LST_NL_BAD" "$LST_SESSION" > /tmp/lst_nl_bad ||
	{ cat /tmp/lst_nl_bad; fail "lst_nl_bad"; }
log "lst_nl_bad: $(grep -c '^ok' /tmp/lst_nl_bad) requests refused"
setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LST_NL_BAD" --eperm > /tmp/lst_nl_eperm ||
	{ cat /tmp/lst_nl_eperm; fail "lst_nl_bad --eperm"; }
after=$("$LST" show_session; "$LST" list_group a b)
[ "$before" = "$after" ] || fail "bad requests changed the session: $after"
run ping --group b
want "12345-$B: Active [session: lstvm"

phase bad_test_params
run add_batch bad
refused "size must be a multiple of 8" add_test --batch bad --from a --to b brw write size=1
refused "adds no page" add_test --batch bad --from a --to b brw write size=4k off=8
refused "no such group" add_test --batch bad --from a --to nosuch ping
refused "span is larger" add_test --batch bad --distribute 1:2 --from a --to b ping

fi

phase brw_ping_checked
# rpc_timeout=5 (lst_load) is for the phases where a node leaves; a data
# RPC on a loaded debug host may stall longer than that without being
# lost: the data phases wait as long as stock's default
set_rpc_timeout 64
# One batch of seven tests, 2 units of 8 RPCs each: the data moved (a's
# counters: a write's data leaves a as the replies to b's GETs, a read's
# comes as b's PUTs, a ping is one request PUT), and show_error is clean
# on both nodes (with check=full, the node that received the data
# checked each byte).
M=1048576
sent=$(lnet_stat send_length)
rcvd=$(lnet_stat recv_length)
msgs=$(lnet_stat send_count)
run add_batch data
for t in "brw write size=1M" "brw read size=1M" "brw write size=4k" \
	 "brw read size=8" "brw write size=4000 off=8" \
	 "brw read size=4000 off=8"; do
	# shellcheck disable=SC2086 # the test's words
	run add_test --batch data --concurrency 2 --loop 8 --from a --to b $t check=full
done
run add_test --batch data --concurrency 2 --loop 8 --from a --to b ping
# D:S 1:2 over a and b: a's client pings both (a is a server too)
run add_group ab "$A" "$B"
run add_test --batch data --concurrency 2 --loop 8 --distribute 1:2 --from a --to ab ping
run list_batch data
want "Test 8 (ping)"
want "from: a to: ab distribute: 1:2"
run run data
batch_idle data
grew send_length "$sent" $((16 * (M + 4096 + 4000)))
grew recv_length "$rcvd" $((16 * (M + 8 + 4000)))
grew send_count "$msgs" $((16 * 7 + 32))
run show_error a b
want "Total 0 error nodes in a"
want "Total 0 error nodes in b"

phase brw_inject_errors
# a corrupts the buffer of one unit it writes from: b's check finds it,
# a's unit stops on its first error (stop_onerr): one brw error
echo 1 > /sys/module/lnet_selftest/parameters/brw_inject_errors
run add_batch inject
run add_test --batch inject --concurrency 2 --loop 4 --from a --to b brw write size=4k check=full
run run inject
batch_idle inject
[ "$(cat /sys/module/lnet_selftest/parameters/brw_inject_errors)" = 0 ] ||
	fail "brw_inject_errors not used"
[ "$(brw_errors_of a)" = 1 ] || fail "a: want 1 brw error, got $(brw_errors_of a)"
run show_error b
want "Total 0 error nodes in b"
[ "$LST_LND" = sock ] && barrier batches

if [ "$LST_LND" = sock ]; then
phase hostile_rpcs
run add_batch keep
run add_test --batch keep --concurrency 1 --from a --to b ping
run run keep
before=$("$LST" show_session; "$LST" list_group a b)
dropped=$(rpcs_dropped_of a)
lnet_drops=$(lnet_stat drop_count)
barrier hostile
barrier hostile-sent
after=$("$LST" show_session; "$LST" list_group a b)
[ "$before" = "$after" ] || fail "hostile RPCs changed the session: $after"
[ "$(rpcs_dropped_of a)" = $((dropped + 3)) ] ||
	fail "a dropped $(($(rpcs_dropped_of a) - dropped)) hostile RPCs, want 3"
grew drop_count "$lnet_drops" 1
# the session is still a's, the batch still runs, a serves its console
run ping --group a
want "12345-$A: Active [session: lstvm"
run query keep
want "1 of 1 nodes are running"
run stop keep
want "keep is stopped"
fi

phase stat_during_write
run add_batch flow
# (over soft-RoCE under TCG a 1 MiB RPC takes seconds, and on the debug
# kernel four 1 MiB checked flows starve lst's own commands for a minute:
# smaller RPCs keep the phase short there)
flow_size=1M
[ "$LST_LND" = sock ] && [ "${LNET_DEBUG_KERNEL:-0}" != 1 ] || flow_size=256k
run add_test --batch flow --concurrency 4 --from a --to b brw write size=$flow_size check=full
s0=$(lnet_stat send_length)
run run flow
# Measured once it moves data (over o2ib a 2 s sample right after "run"
# was once empty): 1 MiB sent by a within 20 s, or a stall worth a diag.
for i in $(seq 1 100); do
	sent=$(($(lnet_stat send_length) - s0))
	[ "$sent" -ge $M ] && break
	nap 0.2
done
if [ "$sent" -lt $M ]; then
	run query flow
	diag
	fail "the flow sent $sent bytes in 20 s"
fi
log "the flow moved $sent bytes before stat"
run stat --count 1 --delay 2 --bw --write a
want "[LNet Bandwidth of a]"
w=$(echo "$OUT" | sed -n 's/^\[W\] Avg: *\([0-9.]*\).*/\1/p')
log "a writes at $w MiB/s"
awk -v w="$w" 'BEGIN { exit !(w > 0) }' || fail "a's write bandwidth is $w"
run stat --count 1 --delay 2 --bw --read b
r=$(echo "$OUT" | sed -n 's/^\[R\] Avg: *\([0-9.]*\).*/\1/p')
log "b reads at $r MiB/s"
awk -v r="$r" 'BEGIN { exit !(r > 0) }' || fail "b's read bandwidth is $r"

if [ "$LST_LND" != sock ]; then
	run stop flow
	run end_session
	barrier done
	lst_unload
	exit 0
fi

phase node_leaves
set_rpc_timeout 5
barrier leave
barrier left
# the forever loop's RPCs to b fail now (rpc_timeout): errors counted,
# no hang
for i in $(seq 1 60); do
	[ "$(brw_errors_of a)" -gt 1 ] && break
	nap 1
done
[ "$(brw_errors_of a)" -gt 1 ] || fail "a counted no brw error with b gone"
run stop --force flow
want "flow is stopped"

phase session_timeout
barrier back
run ping --group b
want "12345-$B: Unknown"
run update_group b --refresh
run ping --group b
want "12345-$B: Active"
# No lst command to b: the pinger's DEBUG every 8 s does not keep a 6 s
# session, and the round after it ended finds b Unknown.
for i in $(seq 1 40); do
	"$LST" list_group --unknown b | grep -q "12345-$B: Unknown" && break
	nap 1
done
run list_group --all b
want "12345-$B: Unknown"
barrier expired
run end_session
want "session is ended"
refused "no session" show_session

phase server_abort
# b writes 64 KiB to a, 4 at a time: a's BRW server GETs the data, b
# drops the GETs, and with response tracking off no deadline would end
# them.  Ending the session aborts them (spec 4.9 step 2): a answers its
# console, and nothing is left for rmmod to wait on.
rt=$(cat /sys/module/lnet/parameters/lnet_response_tracking)
"$LNETCTL" set response_tracking 0 || fail "set response_tracking 0"
barrier abort-reloaded
run new_session --timeout 600 abort
run add_group a "$A"
run add_group b "$B"
run add_batch stuck
run add_test --batch stuck --concurrency 4 --from b --to a brw write size=64k
barrier abort-rule
run run stuck
barrier abort-stuck
within 20 "$LST" end_session
want "session is ended"
within 20 rmmod lnet_selftest
"$LNETCTL" set response_tracking "$rt" || fail "set response_tracking $rt"
barrier abort-done
barrier done

phase unconfigured_node
# server_abort unloaded a's module: a's console again (LNet configured)
insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=5 ||
	fail "reload lnet_selftest on a"
barrier auto-up 600
run new_session auto
run add_group a "$A"
run add_group b "$B"
run add_batch auto
run add_test --batch auto --concurrency 2 --loop 8 --from a --to b brw write size=1M check=full
run add_test --batch auto --concurrency 2 --loop 8 --from a --to b brw read size=64k check=full
run run auto
batch_idle auto
# (b's RPC counters and a's brw errors: the data checked at each end)
run show_error b
want "Total 0 error nodes in b"
[ "$(brw_errors_of a)" = 0 ] || fail "a: $(brw_errors_of a) brw errors"
log "brw write 1M and read 64k, check=full, to b's self-started LNet: 0 errors"
run end_session
barrier auto-done 600
lst_unload
