#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load and unload the modules 20 times (10 on the debug kernel, where each
# round is ~20x slower), then the ip2nets= parameter (lnet configure
# --all); on the debug kernel the harness then runs a kmemleak scan and
# fails the test on any report.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

rounds=20
[ "${LNET_DEBUG_KERNEL:-0}" = 1 ] && rounds=10
for i in $(seq 1 "$rounds"); do
	lnet_load
	for m in $LNET_MODULES; do
		m=${m##*/}; m=${m%.ko}
		module_loaded "$m" || fail "round $i: $m not loaded"
	done
	lnet_unload
done
module_loaded lnet && fail "lnet still loaded"
log "$rounds load/unload rounds done"

# The ip2nets= module parameter (spec 1c): "lnet configure --all" brings
# up the net of each net's first matching rule; a rule matching nothing,
# and networks= with ip2nets=, are refused with LNet left down.
LNETCTL=$LNET_TOP/build/utils/static/lnetctl
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"
me=IP_${LNET_NODE}_net0
me=${!me}
# ip2nets_load PARAM...: lnet.ko with PARAMs, then the other modules
ip2nets_load() {
	local m
	insmod "$LNET_MODDIR/lnet/lnet.ko" "$@" || fail "insmod lnet.ko $*"
	for m in $LNET_MODULES; do
		[ "$m" = lnet/lnet.ko ] || insmod "$LNET_MODDIR/$m" ||
			fail "insmod $m (ip2nets)"
	done
}
ip2nets_load "ip2nets=\"tcp9 10.99.*.*; tcp(eth0) ${me%.*}.[0-254/2] ${me%.*}.[1-255/2] # eth0
tcp 10.98.*.*\""
"$LNETCTL" lnet configure --all || fail "lnet configure --all with ip2nets="
"$LNETCTL" net show >"$T/ip2nets.show" || fail "net show (ip2nets=)"
grep -q "nid: $me@tcp\$" "$T/ip2nets.show" && ! grep -q '@tcp9$' "$T/ip2nets.show" ||
	{ cat "$T/ip2nets.show"; fail "ip2nets=: not tcp on eth0 alone"; }
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (ip2nets=)"
lnet_unload
ip2nets_load 'ip2nets="tcp 10.99.*.*"'
must_fail "ip2nets= matching nothing" "no interfaces match ip2nets rules" \
	"$LNETCTL" lnet configure --all
must_fail "net show after a refused ip2nets=" "not configured" "$LNETCTL" net show
lnet_unload
ip2nets_load 'networks="tcp(eth0)"' 'ip2nets="tcp *.*.*.*"'
must_fail "networks= and ip2nets=" "networks and ip2nets both set" \
	"$LNETCTL" lnet configure --all
must_fail "net show after networks= and ip2nets=" "not configured" "$LNETCTL" net show
lnet_unload
log "ip2nets=: matched, nothing matching and both set refused"
