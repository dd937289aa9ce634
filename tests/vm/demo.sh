#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, as far as the stack exists: each node loads lnet.ko, configures
# LNet with lnetctl, shows its NIs, pings 0@lo and moves 1 MiB PUTs and
# GETs over the loopback LND with the data checked; then shows that the
# link between the nodes carries traffic (LNet uses it once ksocklnd
# lands).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/lnetctl
RUN=/sys/kernel/debug/lnet_test/run

show() {
	log "\$ $*"
	"$@" 2>&1 | sed "s/^/[$LNET_NODE]   /"
	return "${PIPESTATUS[0]}"
}

lnet_load
show "$LNETCTL" lnet configure
show "$LNETCTL" net show
show "$LNETCTL" ping 0@lo
insmod "$LNET_MODDIR/lnettest/lnet_test.ko"
for op in put get; do
	echo "$op 0@lo 1048576 20 4" > $RUN || fail "$op: $(cat $RUN)"
	log "lnet_test $op 20 x 1 MiB over 0@lo: $(cat $RUN)"
done
show "$LNETCTL" stats show
log "my address on net0: $(ip -4 -br addr show eth0 | awk '{print $3}')"
barrier up
for peer in $LNET_NODES; do
	[ "$peer" = "$LNET_NODE" ] && continue
	ip_var=IP_${peer}_net0
	show ping -c 3 -W 5 "${!ip_var}"
done
barrier done
rmmod lnet_test
show "$LNETCTL" lnet unconfigure
lnet_unload
