#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# LNet's tracepoints (Documentation/tracepoints.rst) as an operator turns
# them on: every event of the "lnet" trace system enabled through
# tracefs, then, towards the other node, a ping (discovery), a verified
# 4 KiB PUT, a PUT to a portal nobody serves (dropped there: no_match),
# a ping of an address nobody has on the link (the message fails), and
# a local NI's health set by lnetctl.  Each node then finds in its trace
# the events that traffic must have produced, with the NIDs, types,
# lengths and reasons it knows they carry.  Over ksocklnd; over
# ko2iblnd when TRACE_LND=o2ib (tracepoints_o2ib.sh).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

LND=${TRACE_LND:-socklnd}
if [ "$LND" = o2ib ]; then
	nid_of() {
		local ip_var=IP_${1}_net0
		echo "${!ip_var}@o2ib"
	}
	mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug
	rdma link | grep -q rxe0 || fail "no rxe0"
	for m in lnet/lnet.ko health/lnet_health.ko lnd/o2ib/ko2iblnd.ko \
		 lnettest/lnet_test.ko; do
		insmod "$LNET_MODDIR/$m" || fail "insmod $m"
	done
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
	"$LNETCTL" net add --net o2ib --if eth0 || fail "lnetctl net add o2ib"
else
	sock_load
fi
T=/sys/kernel/tracing
# On net0 (192.0.2.0/24) but no node's address: connecting to it fails.
NOBODY=192.0.2.99@${LND/socklnd/tcp}
mountpoint -q $T || mount -t tracefs nodev $T || fail "mount tracefs"
[ -d $T/events/lnet ] ||
	fail "no lnet trace events in $T/events (CONFIG_EVENT_TRACING?)"
for e in lnet_send lnet_recv lnet_drop lnet_msg_failed lnet_resend \
	 lnet_health lnet_discovery lnet_route lnet_conn; do
	[ -d "$T/events/lnet/$e" ] || fail "trace event lnet:$e missing"
done
echo 0 > $T/tracing_on
echo > $T/trace
echo 4096 > $T/buffer_size_kb
echo 1 > $T/events/lnet/enable
echo 1 > $T/tracing_on
echo serve > "$RUN" || fail "serve"
me=$(nid_of "$LNET_NODE")
barrier up

for peer in $(peers); do
	nid=$(nid_of "$peer")
	ping_ok "$nid" 5
	lt_ok put "$nid" 4096 1 1
	echo "raw $nid 7 0 4 deadbeef" > "$RUN" || fail "raw PUT to portal 7"
	# Fails (no ARP answer); what it says does not matter, the trace does.
	"$LNETCTL" ping --timeout 5 "$NOBODY" > /dev/null 2>&1 &&
		fail "ping of $NOBODY succeeded"
done
"$LNETCTL" net set --nid "$me" --health 900 || fail "net set --health"
"$LNETCTL" net set --nid "$me" --health 1000 || fail "net set --health"
# The failed ping's message ends once its connection attempts (and any
# resends) have failed: wait for it, not for a fixed time.
for ((i = 0; i < 120; i++)); do
	grep -q "lnet_msg_failed: send GET $me -> $NOBODY" $T/trace && break
	nap 0.5
done
barrier traffic-done
target_expect 1
echo 0 > $T/tracing_on
echo 0 > $T/events/lnet/enable
trace=$(grep -v '^#' $T/trace)
log "$(printf '%s\n' "$trace" | wc -l) lnet events"

# expect EVENT PATTERN: a line of EVENT whose text matches PATTERN (glob).
expect() {
	local line
	while IFS= read -r line; do
		# shellcheck disable=SC2053 # $2 is a glob on purpose
		[[ $line == *" $1: "$2 ]] && return 0
	done <<< "$trace"
	printf '%s\n' "$trace" | tail -40
	fail "no '$1: $2' in the trace"
}

for peer in $(peers); do
	nid=$(nid_of "$peer")
	expect lnet_conn "$LND $me <-> $nid up (0)"
	expect lnet_send "GET $me -> $nid via $nid on $me len * retry 0"
	expect lnet_send "PUT $me -> $nid via $nid on $me len 4096 retry 0"
	expect lnet_recv "PUT $nid -> $me from $nid on $me len 4096"
	expect lnet_recv "ACK $nid -> $me from $nid on $me len 0"
	expect lnet_drop "PUT len 4 on $me: no_match"
	expect lnet_discovery "$nid discovered (0)"
done
expect lnet_send "GET $me -> $NOBODY via $NOBODY on $me len * retry 0"
expect lnet_msg_failed "send GET $me -> $NOBODY: -*"
expect lnet_health "ni $me health 1000 -> 900"
expect lnet_health "ni $me health 900 -> 1000"
while IFS= read -r line; do
	[[ $line == *"$NOBODY"* ]] && log "  ${line##*: lnet_}"
done <<< "$trace"
log "tracepoints: conn, send, recv, drop, discovery, failure, health seen"
echo > $T/trace
echo 4 > $T/buffer_size_kb
sock_unload
