#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NIDs that follow the address (Documentation/multirail.rst): b sends
# 64 KiB PUTs, 4 in flight, to a's NID; mid-traffic a's eth0 changes its
# address as a DHCP renew does (the new one added, the old one deleted):
# a's NI takes the new NID without a restart (net show, debugfs
# lnet/ni_addr), pushes it, and b's peer of a gets it; the run b started
# to a's old NID goes on to the new one, and a later one to the old NID
# completes with no error, every byte checked at a.  Then the old
# address comes back the other way round (deleted first: the NI is down
# without an address, then moves back): the PUTs b sends to it at once
# all succeed, every byte checked at a, and the modules unload.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

NIA=/sys/kernel/debug/lnet/ni_addr
OLD=$(nid_of a)
OLD_IP=${OLD%@tcp}
NEW_IP=${OLD_IP%.*}.$((${OLD_IP##*.} + 100))
NEW=$NEW_IP@tcp

# net_wait NID [SECONDS]: until "net show" lists NID.
net_wait() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		"$LNETCTL" net show | grep -q "nid: $1\$" && return 0
		nap 0.1
	done
	"$LNETCTL" net show
	fail "net show: no $1"
}

# af_diag: sock_lib's diag, and the peer table and discovery's counters.
af_diag() {
	sock_diag
	{
		echo "== peers"; "$LNETCTL" peer show -v
		echo "== discovery"; cat /sys/kernel/debug/lnet/discovery
		echo "== ni_addr"; cat "$NIA"
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}
eval "sock_$(declare -f diag)"
diag() { af_diag; }

# sock_timeout and transaction_timeout 5: b's connections to the old
# address end soon after it goes, and a PUT whose ACK went with them is
# given up on (what never left is resent by health to the new NID).
sock_load sock_timeout=5
echo 5 > /sys/module/lnet/parameters/lnet_transaction_timeout
echo serve > "$RUN" || fail "serve"
barrier up
if [ "$LNET_NODE" = a ]; then
	sysctl -qw net.ipv4.conf.eth0.promote_secondaries=1 ||
		fail "promote_secondaries"
	"$LNETCTL" discover "$(nid_of b)" > /dev/null || fail "discover b"
else
	"$LNETCTL" discover "$OLD" > /dev/null || fail "discover a"
fi
barrier discovered

phase move
if [ "$LNET_NODE" = b ]; then
	lt_start put "$OLD" 65536 100000 4
	barrier moved 120
	echo stop > "$RUN" || fail "stop"
	lt_wait
	[ "$(field dups)" = 0 ] || fail "an operation completed twice: $RESULT"
	# Those in flight at the change may end with an error (an ACK lost
	# with the old connections: given up on after transaction_timeout).
	done1=$(($(field done) - $(field errors)))
	log "in flight at the change: $(field errors) ended with an error"
	# A fresh run to the old NID: all of it reaches a at its new NID.
	lt_ok put "$OLD" 65536 20 4
	echo $((done1 + 20)) > "$SHARED/addr_follow.done"
	"$LNETCTL" peer show --nid "$OLD" > /tmp/peer.af
	grep -q "nid: $NEW\$" /tmp/peer.af ||
		{ cat /tmp/peer.af; fail "b's peer of a lacks $NEW"; }
	log "peer of $OLD: $(grep -c 'nid:' /tmp/peer.af) NIDs, $NEW among them"
	log "discovery: $(tr '\n' ' ' < /sys/kernel/debug/lnet/discovery)"
	barrier checked 120
else
	moves0=$(counter "$NIA" moves)
	# Traffic flows first.
	for ((i = 0; i < 300; i++)); do
		[ "$(field puts "$(cat "$TARGET")")" -ge 8 ] && break
		nap 0.1
	done
	p0=$(field puts "$(cat "$TARGET")")
	t0=$(date +%s%N)
	ip addr add "$NEW_IP/24" dev eth0 || fail "ip addr add $NEW_IP"
	ip addr del "$OLD_IP/24" dev eth0 || fail "ip addr del $OLD_IP"
	net_wait "$NEW"
	t1=$(date +%s%N)
	# The first PUT that lands after the NI moved came to the new NID.
	for ((i = 0; i < 600; i++)); do
		[ "$(field puts "$(cat "$TARGET")")" -gt "$p0" ] && break
		nap 0.05
	done
	t2=$(date +%s%N)
	[ "$(field puts "$(cat "$TARGET")")" -gt "$p0" ] ||
		fail "no PUT landed after the address change"
	log "PUTs landed before the change: $p0, then: $(field puts "$(cat "$TARGET")")"
	log "address change: NI at $NEW after $(((t1 - t0) / 1000000)) ms, first PUT landed after $(((t2 - t0) / 1000000)) ms"
	[ "$(counter "$NIA" moves)" = $((moves0 + 1)) ] ||
		fail "ni_addr moves: $(cat "$NIA")"
	"$LNETCTL" net show | grep -q "nid: $OLD\$" && fail "net show still lists $OLD"
	nap 1
	barrier moved 120
	barrier checked 120
	t=$(cat "$TARGET")
	want=$(cat "$SHARED/addr_follow.done")
	# Every PUT b saw succeed landed, none damaged (some whose ACK was
	# lost with the old connections landed too; one being received when
	# they closed counts in failed=).
	[ "$(field puts "$t")" -ge "$want" ] && [ "$(field bad "$t")" = 0 ] &&
		[ "$(field overlap "$t")" = 0 ] ||
		{ diag; fail "target: want $want PUTs landed intact: $t"; }
	log "target: $t (b counted $want done)"
fi

phase restore
if [ "$LNET_NODE" = a ]; then
	lost0=$(counter "$NIA" lost)
	# The other order: no address for a moment (the NI is down).
	ip addr del "$NEW_IP/24" dev eth0 || fail "ip addr del $NEW_IP"
	ip addr add "$OLD_IP/24" dev eth0 || fail "ip addr add $OLD_IP"
	net_wait "$OLD"
	sysctl -qw net.ipv4.conf.eth0.promote_secondaries=0 ||
		fail "promote_secondaries"
	log "ni_addr: $(tr '\n' ' ' < "$NIA")"
	[ "$(counter "$NIA" moves)" = $((moves0 + 2)) ] ||
		fail "ni_addr moves: $(cat "$NIA")"
	[ "$(counter "$NIA" lost)" -le $((lost0 + 1)) ] ||
		fail "ni_addr lost: $(cat "$NIA")"
	p0=$(field puts "$(cat "$TARGET")")
	barrier restored 120
	barrier restore_sent 120
	# b's run right after the move back landed whole here.
	t=$(cat "$TARGET")
	[ "$(field puts "$t")" -ge $((p0 + 10)) ] && [ "$(field bad "$t")" = 0 ] &&
		[ "$(field overlap "$t")" = 0 ] ||
		{ diag; fail "target: want $((p0 + 10)) PUTs landed intact: $t"; }
	log "target after the restore: $t"
else
	barrier restored 120
	t0=$(date +%s%N)
	# a's push of its NID back: b's peer of a has it as primary again
	# (until then sends may still go to the address that went).
	for ((i = 0; i < 200; i++)); do
		"$LNETCTL" peer show --nid "$OLD" | grep -q "primary nid: $OLD\$" &&
			break
		nap 0.1
	done
	"$LNETCTL" peer show --nid "$OLD" | grep -q "primary nid: $OLD\$" ||
		{ diag; fail "b's peer of a: primary NID not $OLD"; }
	log "b's peer of a back to $OLD after $i polls"
	"$LNETCTL" peer show -v --nid "$OLD" > "$RESULTS/peer.restore" 2>&1 || true
	# The PUTs sent right after the move back all succeed: a's push
	# lists the NID that went DOWN and the one back UP, and selection
	# takes the one listed UP whatever its health (Documentation/
	# multirail.rst).  t0 is a's move back (a passes "restored" once its
	# NI is at $OLD).
	lt put "$OLD" 4096 10 4
	[ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ] || {
		cat "$RESULTS/peer.restore"
		diag
		fail "PUTs to $OLD right after the restore: $RESULT"
	}
	log "PUTs to $OLD after the restore: clean, done $((($(date +%s%N) - t0) / 1000000)) ms after a's move back"
	barrier restore_sent 120
fi
barrier done 120
lnet_idle 30
sock_unload
log "sock addr follow OK"
