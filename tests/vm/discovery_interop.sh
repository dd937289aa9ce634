#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a stock Lustre node does when it discovers us (wire spec 6.2, 7),
# played by a against b over ksocklnd:
#  - its discovery ping of b validates as Lustre's receiver rules say, and
#    b advertises the multi-rail profile (NI_STATUS|RTE_DISABLED|
#    MULTI_RAIL|DISCOVERY);
#  - its push, made as spec 7 says (a PUT of a ping buffer to portal 0,
#    match bits 0x8000000000000000, ACK requested, pid 12345), gets its
#    ACK, and b merges it: a becomes a multi-rail peer of b, discovered
#    (peer state 0x111: MULTI_RAIL|DISCOVERED|NIDS_UPTODATE);
#  - before that, a push with a bad magic and one without MULTI_RAIL are
#    ACKed (LNet does) but dropped and counted: b's peer of a stays as
#    traffic made it (state 0), no discovery starts;
#  - 64 pushes landing at once (as from 64 nodes at a mount storm) are
#    all ACKed: none finds the push target without a buffer;
#  - b pushes its own buffer back (a is multi-rail and has none of b's):
#    ours sent to ours is ACKed too, and a learns b as multi-rail;
#  - b keeps serving: traffic both ways with the data checked at the
#    receiver, and b dropped nothing.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

# NI_STATUS | RTE_DISABLED | MULTI_RAIL | DISCOVERY
MR=0x1e
# MULTI_RAIL | DISCOVERED | NIDS_UPTODATE, as "peer state" prints it
DISCOVERED_MR=273

sock_load
echo 30 > /sys/module/lnet_test/parameters/op_timeout
echo serve > "$RUN" || fail "serve"
barrier up
nid=$(nid_of "$(peers)")

phase discovery_ping
# lnet_ping validates as Lustre's discovery does (magic in either order,
# NI_STATUS, 1 <= nnis <= max_interfaces, entry 0 is 0@lo).
if [ "$LNET_NODE" = a ]; then
	lt_ok ping "$nid" 3
	[ "$(field features)" = "$MR" ] && [ "$(field nids)" = 1 ] ||
		fail "ping of $nid: want features $MR and one NID: $RESULT"
fi
barrier pinged

# dc VALUE-NAME: a counter of /sys/kernel/debug/lnet/discovery.
dc() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/lnet/discovery
}

phase hostile_push
if [ "$LNET_NODE" = a ]; then
	for kind in bad nomr; do
		lt push "$nid" $kind
		[ "$LT_RC" = 0 ] && [ "$(field acked)" = 1 ] ||
			{ diag; fail "push $kind to $nid: no ACK: $RESULT"; }
	done
fi
barrier bad-pushed
if [ "$LNET_NODE" = b ]; then
	[ "$(dc pushes_bad)" = 2 ] ||
		{ cat /sys/kernel/debug/lnet/discovery; fail "bad pushes not counted"; }
	"$LNETCTL" peer show -v 3 --nid "$nid" > "$T/peer"
	grep -q "peer state: 0$" "$T/peer" ||
		{ cat "$T/peer"; fail "a bad push changed the peer"; }
fi
barrier bad-checked

phase push
if [ "$LNET_NODE" = a ]; then
	lt push "$nid"
	[ "$LT_RC" = 0 ] && [ "$(field acked)" = 1 ] ||
		{ diag; fail "push to $nid: no ACK: $RESULT"; }
fi
barrier pushed
# b merged a's push; a merged the push b sent back.
peer_wait "$nid" "Multi-Rail: true.*peer state: $DISCOVERED_MR"
log "$(grep -E 'primary nid|Multi-Rail|peer state' "$T/peer" | tr -s ' ' | tr '\n' ' ')"
barrier merged

phase push_burst
if [ "$LNET_NODE" = a ]; then
	lt push "$nid" burst
	[ "$LT_RC" = 0 ] && [ "$(field acked)" = 64 ] ||
		{ diag; fail "a burst of 64 pushes to $nid: not all ACKed: $RESULT"; }
fi
barrier burst-pushed
if [ "$LNET_NODE" = b ]; then
	[ "$(dc pushes)" -ge 67 ] ||
		{ cat /sys/kernel/debug/lnet/discovery; fail "pushes not counted"; }
	peer_wait "$nid" "Multi-Rail: true.*peer state: $DISCOVERED_MR"
fi
barrier burst-merged

phase traffic_after_push
lt_ok put "$nid" 4096 8 4
lt_ok get "$nid" 1048576 4 2
barrier traffic-done
target_expect 8
read -r _ _ _ _ _ _ drops _ < /sys/kernel/debug/lnet/stats
[ "$drops" = 0 ] || { diag; fail "$drops messages dropped"; }
log "discovery: $(tr '\n' ' ' < /sys/kernel/debug/lnet/discovery)"
[ "$(dc failed)" = 0 ] || fail "a discovery failed"
lnet_idle
barrier checked
sock_unload
