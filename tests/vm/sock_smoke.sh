#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Both nodes: tcp NI on eth0, ping the other, 1 MiB PUT/GET to it.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/lnetctl
RUN=/sys/kernel/debug/lnet_test/run

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
lnet_load
insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
$LNETCTL lnet configure || fail "configure"
$LNETCTL net add --net tcp --if eth0 || fail "net add"
$LNETCTL net show
echo serve > $RUN || fail "serve"
( sleep 70; echo "== $LNET_NODE at 70s"; cat /sys/kernel/debug/ksocklnd/stats /sys/kernel/debug/lnet/nis /sys/kernel/debug/lnet/drops; ss -tanmi ) &
barrier up
for peer in $LNET_NODES; do
	[ "$peer" = "$LNET_NODE" ] && continue
	ip_var=IP_${peer}_net0
	nid=${!ip_var}@tcp
	if ! $LNETCTL ping "$nid"; then
		cat /sys/kernel/debug/ksocklnd/stats /sys/kernel/debug/lnet/acceptor
		ss -tan
		echo w > /proc/sysrq-trigger; dmesg | tail -60
		fail "ping $nid"
	fi
	for op in put get; do
		( echo "$op $nid 1048576 20 4" > $RUN ) &
		pid=$!
		for i in $(seq 60); do
			kill -0 $pid 2>/dev/null || break
			sleep 1
		done
		if kill -0 $pid 2>/dev/null; then
			cat /sys/kernel/debug/ksocklnd/stats /sys/kernel/debug/lnet/nis
			ss -tan
			echo w > /proc/sysrq-trigger; dmesg | tail -80
			fail "$op hangs"
		fi
		wait $pid || fail "$op: $(cat $RUN)"
		log "$op $nid: $(cat $RUN)"
	done
done
log "ksocklnd: $(tr '\n' ' ' < /sys/kernel/debug/ksocklnd/stats)"
log "acceptor: $(tr '\n' ' ' < /sys/kernel/debug/lnet/acceptor)"
barrier done
echo unserve > $RUN
rmmod lnet_test
$LNETCTL lnet unconfigure || fail "unconfigure"
lnet_unload
