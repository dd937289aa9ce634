#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a stock Lustre node does when it discovers us (wire spec 6.2, 7),
# played by a against b over ksocklnd:
#  - its discovery ping of b validates as Lustre's receiver rules say, and
#    b advertises the non-MR profile (NI_STATUS|RTE_DISABLED, no
#    MULTI_RAIL or DISCOVERY) until b does multi-rail;
#  - the push it sends anyway (a forced push, or one after b advertised
#    MR) gets its ACK: a PUT of a ping buffer to portal 0, match bits
#    0x8000000000000000, ACK requested;
#  - b keeps serving: traffic both ways with the data checked at the
#    receiver, and b dropped nothing.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

# Features of the non-MR profile: NI_STATUS | RTE_DISABLED.
NON_MR=0x6

sock_load
echo 30 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up
nid=$(nid_of "$(peers)")

phase discovery_ping
# lnet_ping validates as Lustre's discovery does (magic in either order,
# NI_STATUS, 1 <= nnis <= max_interfaces, entry 0 is 0@lo).
lt_ok ping "$nid" 3
[ "$(field features)" = "$NON_MR" ] && [ "$(field nids)" = 1 ] ||
	fail "ping of $nid: want features $NON_MR and one NID: $RESULT"
barrier pinged

phase push
lt push "$nid"
[ "$LT_RC" = 0 ] && [ "$(field acked)" = 1 ] ||
	{ diag; fail "push to $nid: no ACK: $RESULT"; }
barrier pushed

phase traffic_after_push
lt_ok put "$nid" 4096 8 4
lt_ok get "$nid" 1048576 4 2
barrier traffic-done
target_expect 8
read -r _ _ _ _ _ _ drops _ < /sys/kernel/debug/lnet/stats
[ "$drops" = 0 ] || { diag; fail "$drops messages dropped"; }
lnet_idle
barrier checked
sock_unload
