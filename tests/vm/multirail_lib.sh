# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The multi-rail scenario, for both LNDs (tests/vm/sock_multirail.sh,
# tests/vm/o2ib_multirail.sh): each node has a NIC on each of two links,
# one net per link (tcp + tcp1, or o2ib + o2ib1 with a soft-RoCE device
# per NIC).  a discovers b ("lnetctl discover": both of b's NIDs, one
# multi-rail peer) and b learns a by a's push; bulk PUTs and GETs to b's
# primary NID then leave by both of a's NIs to both of b's NIDs (per-NI
# counters well above zero), every byte checked.  a deletes one of its
# NIs: its push tells b, which drops that NID of a, and all traffic takes
# the other rail.  UDSP rules move all traffic to one rail (mr_udsp).
# b turns discovery off: a's discovery then finds b NO_DISCOVERY, not
# multi-rail, and sends to it by one NI; over tcp also with two NIs on one
# net, keeping b pinned to one of them (as Lustre keeps one preferred NI
# per non-MR peer NI).
# Source it after guest-lib.sh, sock_lib.sh/o2ib_lib.sh and lnetctl_lib.sh,
# with $LND ("tcp" or "o2ib") set, then call multirail_run.

# peer_count PRIMARY REGEX: the lines of PRIMARY's peer in "$T/peers"
# (peer show -v) that match REGEX.
peer_count() {
	awk -v p="$1" -v re="$2" '/primary nid:/ { in_p = ($NF == p) }
		in_p && $0 ~ re { n++ } END { print n + 0 }' "$T/peers"
}

# ni_sends NID: the send count of local NI NID (debugfs lnet/nis).
ni_sends() {
	awk -v nid="$1" '$1 == nid { print $6 }' /sys/kernel/debug/lnet/nis
}

# ni_puts NID: the PUTs local NI NID sent ("lnetctl net show -v 2"
# sent_stats), which recovery pings (GETs) do not move: over ksocklnd a
# ping on a connection whose peer vanished still counts as sent.
# Builtins, reading to the end (it is polled: on the debug kernel an awk
# per poll cost ~0.3 s).
ni_puts() {
	local f1 f2 f3 rest cur="" sent=0 v="" out
	out=$("$LNETCTL" net show -v 2) || return
	while read -r f1 f2 f3 rest; do
		if [ "$f2" = nid: ]; then
			cur=$f3
			sent=0
		elif [ "$f1" = sent_stats: ]; then
			sent=1
		elif [ $sent = 1 ] && [ "$f1" = put: ]; then
			[ "$cur" != "$1" ] || [ -n "$v" ] || v=$f2
			sent=0
		fi
	done <<< "$out"
	[ -z "$v" ] || echo "$v"
}

# mr_nid NODE LINK: NODE's NID on LINK (net0: $LND, net1: ${LND}1).
mr_nid() {
	local ip_var=IP_${1}_$2 net=$LND
	[ "$2" = net1 ] && net=${LND}1
	echo "${!ip_var}@$net"
}

# mr_pinned PEER NID0: PEER turned discovery off, so a's discovery finds
# it NO_DISCOVERY and not multi-rail (peer state 274: NO_DISCOVERY |
# DISCOVERED | NIDS_UPTODATE), and 16 PUTs to it, data checked, go by one
# NI.  Over tcp a adds a second NI on NID0's net (eth1) first: the PUTs
# all leave by one of the two (the pinning).  Over o2ib a has one NI left
# (rdma_cm binds a source address to its own device, so two NIs of one
# net on two links are not a setup o2ib supports without policy routing).
mr_pinned() {
	local peer=$1 n0=$2 n1="" s0 s1=0
	phase pinned
	if [ "$LND" = tcp ]; then
		n1=$(mr_nid a net1)
		n1=${n1%@*}@$LND
		"$LNETCTL" net add --net "$LND" --if eth1 ||
			fail "net add --net $LND --if eth1 (a second NI)"
	fi
	"$LNETCTL" discover --force "$peer" > "$T/disc" ||
		fail "discover --force $peer"
	grep -q "Multi-Rail: false" "$T/disc" ||
		{ cat "$T/disc"; fail "$peer with discovery off is multi-rail"; }
	peer_wait "$peer" "Multi-Rail: false.*peer state: 274"
	s0=$(ni_sends "$n0")
	[ -z "$n1" ] || s1=$(ni_sends "$n1")
	lt_ok put "$peer" 4096 16 4
	s0=$(($(ni_sends "$n0") - s0))
	[ -z "$n1" ] || s1=$(($(ni_sends "$n1") - s1))
	log "16 PUTs to non-MR $peer: $n0 sent $s0, ${n1:-no second NI} sent $s1"
	{ [ "$s0" = 16 ] && [ "$s1" = 0 ]; } ||
		{ [ "$s0" = 0 ] && [ "$s1" = 16 ]; } ||
		fail "a non-MR peer was sent to by both NIs: $s0, $s1"
	if [ -n "$n1" ]; then
		"$LNETCTL" net del --net "$LND" --if eth1 ||
			fail "net del --if eth1"
	fi
}

# mr_held_fail NID: PUTs to NID, which nobody answers, wait for its
# discovery and then fail with its error, all of them, within
# transaction_timeout (5 s here) and a margin: none hangs, none is sent.
mr_held_fail() {
	local p=/sys/module/lnet/parameters t0 secs
	phase held_fail
	echo 5 > $p/lnet_transaction_timeout
	t0=$SECONDS
	lt put "$1" 4096 4 4
	secs=$((SECONDS - t0))
	echo 150 > $p/lnet_transaction_timeout
	log "4 PUTs to $1: $RESULT after ${secs} s"
	[ "$(field errors)" = 4 ] || fail "PUTs to $1 did not all fail: $RESULT"
	[ "$secs" -le 15 ] || fail "PUTs to $1 took $secs s to fail"
	grep -q "^failed [1-9]" /sys/kernel/debug/lnet/discovery ||
		{ cat /sys/kernel/debug/lnet/discovery; fail "no failed discovery counted"; }
}

# mr_udsp B0 A0 A1: UDSP rules steer a's traffic to b (spec features 4d):
# a local net priority sends every PUT by ${LND}1, a peer net priority
# every PUT to b's NID on $LND; with the rules gone the rails share again.
mr_udsp() {
	local b0=$1 a0=$2 a1=$3 s0 s1 i
	local -a rules=("--src ${LND}1" "--dst $LND" "")
	local -a want0=(0 16 -) want1=(16 0 -)

	phase udsp
	for i in 0 1 2; do
		"$LNETCTL" udsp del --all || fail "udsp del --all"
		# shellcheck disable=SC2086 # the rule's options, split
		[ -z "${rules[i]}" ] ||
			"$LNETCTL" udsp add ${rules[i]} --priority 0 ||
			fail "udsp add ${rules[i]}"
		# PUTs only: a recovery ping (a GET) of an NI an earlier
		# phase demerited is no choice of the rules' (o2ib_pair
		# [distro]: a0, pinging itself after the discover phase's
		# address error, "sent 2" under '--src o2ib1')
		s0=$(ni_puts "$a0")
		s1=$(ni_puts "$a1")
		lt_ok put "$b0" 4096 16 4
		s0=$(($(ni_puts "$a0") - s0))
		s1=$(($(ni_puts "$a1") - s1))
		log "16 PUTs with rule '${rules[i]:-none}': $a0 sent $s0 PUTs, $a1 $s1"
		if [ "${want0[i]}" = - ]; then
			[ "$s0" -ge 4 ] && [ "$s1" -ge 4 ] ||
				fail "without rules the rails do not share: $s0, $s1"
		else
			[ "$s0" = "${want0[i]}" ] && [ "$s1" = "${want1[i]}" ] ||
				fail "rule '${rules[i]}' not obeyed: $s0, $s1"
		fi
	done
	"$LNETCTL" udsp show | grep -q '^udsp: \[\]$' ||
		fail "rules left over"
}

multirail_run() {
	local b0 b1 a0 a1 s0 s1 n=40
	ip link set eth1 up
	if [ "$LND" = o2ib ]; then
		rxe_setup eth0
		RXE=rxe1 rxe_setup eth1
		o2ib_load
	else
		sock_load
	fi
	"$LNETCTL" net add --net "${LND}1" --if eth1 ||
		fail "net add --net ${LND}1 --if eth1"
	echo serve > "$RUN" || fail "serve"
	barrier mr-up
	a0=$(mr_nid a net0)
	a1=$(mr_nid a net1)
	if [ "$LNET_NODE" = a ]; then
		b0=$(mr_nid b net0)
		b1=$(mr_nid b net1)
		mr_held_fail "${b0%.*}.98@$LND"
		phase discover
		cat > "$T/disc" <<YAML
discover:
-     primary nid: $b0
      Multi-Rail: true
      peer_ni:
      -     nid: $b0
      -     nid: $b1
YAML
		"$LNETCTL" discover "$b0" | expect_yaml "discover b" "$T/disc"
		"$LNETCTL" discover --force "$b0" |
			expect_yaml "discover --force b" "$T/disc"
		# MULTI_RAIL | DISCOVERED | NIDS_UPTODATE
		peer_wait "$b0" "peer state: 273"
		# Its discovery goes on in the background: unload ends it.
		must_fail "discover of nobody" "failed to discover" \
			"$LNETCTL" discover "${b0%.*}.99@$LND" --timeout 1
		must_fail "discover without CAP_NET_ADMIN" \
			"needs CAP_NET_ADMIN" \
			setpriv --bounding-set=-net_admin \
			--inh-caps=-net_admin -- "$LNETCTL" discover "$b0"
	fi
	barrier discovered
	if [ "$LNET_NODE" = b ]; then
		# a's discovery pushed a's buffer: b knows both of a's NIDs.
		peer_wait "$a0" "Multi-Rail: true.*peer state: 273.*nid: $a1"
	else
		phase both_rails
		lt_ok put "$b0" 1048576 $n 4
		lt_ok get "$b0" 1048576 $n 4
		lt_ok put "$b0" 4096 $n 8
		s0=$(ni_sends "$a0")
		s1=$(ni_sends "$a1")
		log "sends by NI: $a0 $s0, $a1 $s1 (of $((3 * n)) and the discovery's)"
		# Round robin: each rail takes half, give or take the credits.
		[ "$s0" -ge $((3 * n / 4)) ] && [ "$s1" -ge $((3 * n / 4)) ] ||
			{ diag; fail "traffic did not use both rails: $s0, $s1"; }
		"$LNETCTL" peer show -v > "$T/peers"
		# b's peer only: a local NI's recovery pings cross that NI
		# (issue 33 item 7), so a's own NID may be a peer with sends too.
		[ "$(peer_count "$b0" 'send_count: [1-9]')" = 2 ] ||
			{ cat "$T/peers"; fail "not both of b's NIDs were sent to"; }
		# Latency samples on both peer NIs and both local NIs.
		for k in put_egress get_rtt put_ack; do
			[ "$(peer_count "$b0" "${k}_samples: [1-9]")" = 2 ] ||
				{ cat "$T/peers"; fail "peer NIs: no $k samples"; }
		done
		# (0@lo may have some too: recovery pings of a local NI.)
		{ "$LNETCTL" net show -v --net "$LND"
		  "$LNETCTL" net show -v --net "${LND}1"; } > "$T/nis"
		[ "$(grep -c 'put_egress_samples: [1-9]' "$T/nis")" = 2 ] &&
			[ "$(grep -c 'get_rtt_samples: [1-9]' "$T/nis")" = 2 ] ||
			{ cat "$T/nis"; fail "local NIs: no latency samples"; }
		log "latency: $(grep -m1 'get_rtt_avg_nsec' "$T/peers")"
		mr_udsp "$b0" "$a0" "$a1"

		phase one_rail_left
		# The ping buffer changes: b gets it by a push.  (By the NID:
		# net del --nid removes that one NI.)
		"$LNETCTL" net del --nid "$a1" || fail "net del --nid $a1"
		lt_ok put "$b0" 1048576 8 4
		[ "$(ni_sends "$a1")" = "" ] || fail "$a1 is still there"
		log "8 PUTs after net del ${LND}1: $a0 sent $(ni_sends "$a0")"
	fi
	barrier rail-gone
	if [ "$LNET_NODE" = b ]; then
		# a's push listed a0 alone: b dropped a1.
		peer_wait_gone "$a0" "nid: $a1"
		log "a's NIDs after its push: $(grep -c 'nid:' "$T/peer") listed"
		"$LNETCTL" set discovery 0 || fail "set discovery 0"
	fi
	barrier b-discovery-off
	[ "$LNET_NODE" = a ] && mr_pinned "$b0" "$a0"
	barrier pinned
	# Discovery back on at b: its forced push makes it multi-rail to a
	# again.
	if [ "$LNET_NODE" = b ]; then
		"$LNETCTL" set discovery 1 || fail "set discovery 1"
	fi
	barrier b-discovery-on
	[ "$LNET_NODE" = a ] &&
		peer_wait "$b0" "Multi-Rail: true.*peer state: 273"
	barrier mr-done
	if [ "$LNET_NODE" = b ]; then
		# Both of b's NIs took a share (the REPLYs and ACKs go back by
		# the NI each request came in on).
		log "b's sends by NI: $(mr_nid b net0) $(ni_sends "$(mr_nid b net0)"), $(mr_nid b net1) $(ni_sends "$(mr_nid b net1)")"
		[ "$(ni_sends "$(mr_nid b net1)")" -ge $((3 * n / 4)) ] ||
			fail "b's ${LND}1 NI answered too little"
		# and the 48 PUTs of mr_udsp and the 16 of mr_pinned
		target_expect $((2 * n + 8 + 48 + 16))
		"$LNETCTL" net del --net "${LND}1" || fail "net del ${LND}1"
	fi
	# Each node's pushes are answered before the other unloads.
	lnet_idle
	barrier mr-idle
	if [ "$LND" = o2ib ]; then
		o2ib_unload
		RXE=rxe1 rxe_remove	# rxe0 is the harness's (vm.Node.rxe)
	else
		sock_unload
	fi
	log "multi-rail over $LND OK"
}
