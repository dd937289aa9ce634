#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure LNet at load (Lustre's config_on_load=1), ping 0@lo through
# lnet_test.ko, move 0 B, 1 B, 4095 B, 4096 B and 1 MiB by PUT and by GET
# over 0@lo with the data checked at both ends, and print the loopback ping
# and 1 MiB PUT rates.  Then check the counters and drop reasons agree.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

RUN=/sys/kernel/debug/lnet_test/run
STATS=/sys/kernel/debug/lnet/stats

# run CMD: run one lnet_test command; the result line is in $RESULT.
run() {
	echo "$*" > "$RUN" || fail "'$*' failed: $(cat "$RUN")"
	RESULT=$(cat "$RUN")
	log "$RESULT"
	field errors | grep -qx 0 || fail "'$*': errors in $RESULT"
}

# field KEY: the value of KEY= in $RESULT.  Builtins only: a process
# costs ~0.25 s on the debug kernel under TCG (KASAN, kmemleak, lockdep),
# and this runs ~40 times.
field() {
	local line=" $RESULT " v
	v=${line#* "$1"=}
	[ "$v" = "$line" ] || echo "${v%% *}"
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$LNET_MODDIR/lnet/lnet.ko" config_on_load=1 || fail "insmod lnet"
insmod "$LNET_MODDIR/health/lnet_health.ko" || fail "insmod lnet_health"
insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
grep -q '^0@lo up' /sys/kernel/debug/lnet/nis || fail "no 0@lo: $(cat /sys/kernel/debug/lnet/nis)"

run ping 0@lo 1
[ "$(field nids)" = 0 ] || fail "0@lo lists NIDs besides itself"
# NI_STATUS | RTE_DISABLED | MULTI_RAIL | DISCOVERY: the multi-rail profile
[ "$(field features)" = 0x1e ] || fail "ping features $(field features), want 0x1e"

# A ping to a NID no NI reaches fails cleanly.
if echo "ping 192.0.2.1@tcp 1" > "$RUN"; then
	fail "ping of an unreachable NID succeeded"
fi
grep -q 'rc=-113' "$RUN" || fail "unreachable ping: $(cat "$RUN")"

echo reset > "$STATS"
total=0
for op in put get; do
	for size in 0 1 4095 4096 1048576; do
		run "$op" 0@lo "$size" 20 4
		[ "$(field done)" = 20 ] || fail "$op $size: not all done"
		[ "$(field bytes)" = $((size * 20)) ] || fail "$op $size: bytes"
		total=$((total + size * 20))
	done
done

# 10 operations of each kind, each a message each way: send = recv = 200
# data messages, no drop, no message left over.
read -r alloc max errs sends recvs _routes drops slen rlen _rtlen _dlen < "$STATS"
log "stats: $(cat "$STATS")"
[ "$alloc" = 0 ] || fail "$alloc messages still allocated"
[ "$errs" = 0 ] && [ "$drops" = 0 ] || fail "errors $errs drops $drops"
[ "$sends" = 400 ] && [ "$recvs" = 400 ] || fail "sent $sends received $recvs, want 400"
[ "$slen" = "$total" ] && [ "$rlen" = "$total" ] ||
	fail "bytes sent $slen received $rlen, want $total"
# At most the request, its delivery and a not yet finalized answer live per
# operation in flight (4 at a time).
[ "$max" -le 12 ] || fail "msgs_max $max above 3 per operation in flight"
if grep -v ' 0$' /sys/kernel/debug/lnet/drops; then
	fail "drop reasons counted"
fi

# Rates.
run ping 0@lo 200
ns=$(field elapsed_ns)
log "loopback ping rate: $((200 * 1000000000 / ns)) pings/s"
run put 0@lo 1048576 100 8
ns=$(field elapsed_ns)
log "1 MiB PUT rate: $((100 * 1000000000 / ns)) PUTs/s ($((100 * 1000000000 / ns)) MiB/s)"
run get 0@lo 1048576 100 8
ns=$(field elapsed_ns)
log "1 MiB GET rate: $((100 * 1000000000 / ns)) GETs/s"

# Per-NI counters of 0@lo (debugfs nis: nid status max tx min, message
# counts send recv drop, payload bytes send recv drop).
read -r nid st cmax cnow cmin nsend nrecv ndrop bsend brecv bdrop \
	< /sys/kernel/debug/lnet/nis
log "nis: $nid $st $cmax $cnow $cmin $nsend $nrecv $ndrop $bsend $brecv $bdrop"
[ "$ndrop" = 0 ] && [ "$nsend" -ge 400 ] && [ "$nsend" = "$nrecv" ] ||
	fail "0@lo counters: sent $nsend received $nrecv dropped $ndrop"
# 200 x 1 MiB PUT/GET above moved at least 200 MiB each way through 0@lo.
[ "$bdrop" = 0 ] && [ "$bsend" -ge $((200 * 1048576)) ] &&
	[ "$bsend" = "$brecv" ] ||
	fail "0@lo byte counters: sent $bsend received $brecv dropped $bdrop"

# Global parameters as module parameters, with lnetctl's checks.
P=/sys/module/lnet/parameters
[ "$(cat $P/lnet_retry_count)" = 2 ] && [ "$(cat $P/lnet_transaction_timeout)" = 150 ] ||
	fail "retry_count/transaction_timeout defaults"
if echo 151 > $P/lnet_retry_count; then fail "retry_count above transaction_timeout accepted"; fi
if echo 2 > $P/lnet_transaction_timeout; then fail "transaction_timeout <= retry_count accepted"; fi
if echo 1001 > $P/lnet_health_sensitivity; then fail "health_sensitivity 1001 accepted"; fi
echo 0 > $P/lnet_health_sensitivity
[ "$(cat $P/lnet_retry_count)" = 0 ] || fail "health_sensitivity 0 left retry_count"
if echo 1 > $P/lnet_retry_count; then fail "retry_count > 0 accepted with health 0"; fi
echo 100 > $P/lnet_health_sensitivity
echo 2 > $P/lnet_retry_count
echo 5 > $P/lnet_interfaces_max
[ "$(cat $P/lnet_interfaces_max)" = 4096 ] || fail "max_interfaces 5 not replaced by 4096"

# Discovery off: the ping buffer is rebuilt without DISCOVERY (soon: a
# work item does it), and with it again once back on.
ping_features() {
	local want=$1 i
	for ((i = 0; i < 50; i++)); do
		run ping 0@lo 1
		[ "$(field features)" = "$want" ] && return 0
		nap 0.1
	done
	fail "features $(field features), want $want (discovery $2)"
}
echo 1 > $P/lnet_peer_discovery_disabled
ping_features 0xe off
echo 0 > $P/lnet_peer_discovery_disabled
ping_features 0x1e on

rmmod lnet_test
rmmod lnet_health
rmmod lnet
log "lo traffic OK"
