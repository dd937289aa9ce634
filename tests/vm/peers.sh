#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The peer table (Documentation/lifetimes.rst, "Peers"), seen by a after
# traffic with b: lnetctl peer show (-v, -v 2, --nid), peer list and peer
# del in Lustre's shapes; bad input refused with a message and nothing
# changed; a deleted peer comes back with the next send; an idle one is
# freed by the reaper (peer_idle_timeout) and comes back too.  Then peer
# add: a configured multi-rail peer takes over the one traffic made, more
# NIDs, --non_mr, --lock_prim and --force, each misuse refused with
# nothing changed, export and import (--show, --del) of configured peers,
# and configured NIDs outlive the reaper; 400 peers each listed once by
# peer show, peer list and debugfs.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

IDLE=/sys/module/lnet/parameters/peer_idle_timeout

# peer_yaml NID: write "peer show" of one idle peer NI NID to $T/one: b,
# which a's discovery found multi-rail (one NID: b has one NI here).
peer_yaml() {
	cat > "$T/one" <<YAML
peer:
-     primary nid: $1
      Multi-Rail: true
      peer ni:
      -     nid: $1
            state: NA
YAML
}

# value KEY: the value of "KEY: N" in stdin (first match).
value() {
	sed -n "s/^ *$1: //p" | head -1
}

sock_load
echo serve > "$RUN" || fail "serve"
barrier up
if [ "$LNET_NODE" = a ]; then
	B=$(nid_of b)
	NOBODY=${B%.*}.99@tcp
	printf 'peer: []\n' > "$T/none"
	"$LNETCTL" peer show | expect_yaml "peer show, no peer" "$T/none"
	lt_ok put "$B" 4096 10 4
	lt_ok get "$B" 4096 10 4

	phase show
	peer_yaml "$B"
	"$LNETCTL" peer show | expect_yaml "peer show" "$T/one"
	"$LNETCTL" peer show --nid "$B" | expect_yaml "peer show --nid" "$T/one"
	printf 'peer list:\n-     nid: %s\n' "$B" > "$T/list"
	"$LNETCTL" peer list | expect_yaml "peer list" "$T/list"
	"$LNETCTL" peer show -v > "$T/v1"
	cat "$T/v1"
	[ "$(value max_ni_tx_credits < "$T/v1")" = 8 ] &&
		[ "$(value available_tx_credits < "$T/v1")" = 8 ] &&
		[ "$(value tx_q_num_of_buf < "$T/v1")" = 0 ] &&
		[ "$(value refcount < "$T/v1")" = 0 ] ||
		fail "peer show -v: credits or refcount of an idle peer"
	# 10 PUTs and 10 GETs sent to b, and the discovery's ping and push;
	# its 10 ACKs and 10 REPLYs received.
	[ "$(value send_count < "$T/v1")" -ge 20 ] &&
		[ "$(value recv_count < "$T/v1")" -ge 20 ] &&
		[ "$(value drop_count < "$T/v1")" = 0 ] ||
		fail "peer show -v: statistics"
	"$LNETCTL" peer show -v 2 > "$T/v2"
	sed -n '/sent_stats:/,/hello:/p' "$T/v2" > "$T/sent"
	[ "$(value put < "$T/sent")" = 11 ] &&
		[ "$(value get < "$T/sent")" = 11 ] ||
		{ cat "$T/v2"; fail "peer show -v 2: sent_stats"; }

	phase bad_input
	must_fail "peer show of an unknown NID" "no peer has NID" \
		"$LNETCTL" peer show --nid "$NOBODY"
	must_fail "peer show --nid garbage" "not a NID" \
		"$LNETCTL" peer show --nid garbage
	must_fail "peer del without --prim_nid" "missing mandatory" \
		"$LNETCTL" peer del --nid "$B"
	must_fail "peer del --prim_nid garbage" "not a NID" \
		"$LNETCTL" peer del --prim_nid 1.2.3@tcp
	must_fail "peer del of an unknown peer" "no peer has this primary NID" \
		"$LNETCTL" peer del --prim_nid "$NOBODY"
	must_fail "peer del of a NID not the peer's" "the peer has no such NID" \
		"$LNETCTL" peer del --prim_nid "$B" --nid "$NOBODY"
	must_fail "peer del without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
		setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
		"$LNETCTL" peer del --prim_nid "$B"
	"$LNETCTL" peer show | expect_yaml "peer show after bad input" "$T/one"

	phase del
	"$LNETCTL" peer del --prim_nid "$B" || fail "peer del"
	"$LNETCTL" peer show | expect_yaml "peer show after del" "$T/none"
	lt_ok put "$B" 4096 4 2
	"$LNETCTL" peer show | expect_yaml "peer show, made again" "$T/one"

	phase reaper
	echo 1 > $IDLE || fail "no $IDLE"
	for ((i = 0; i < 100; i++)); do
		"$LNETCTL" peer list | grep -q "$B" || break
		nap 0.2
	done
	echo 300 > $IDLE
	"$LNETCTL" peer show | expect_yaml "peer show after the reaper" \
		"$T/none"
	log "the idle peer was freed after $((i / 5)) s"
	lt_ok get "$B" 1048576 2 2
	"$LNETCTL" peer show | expect_yaml "peer show, back after reaping" \
		"$T/one"

	phase add
	# Two more NIDs of b on a net a has no NI on: sends still go to $B.
	X1=10.9.9.1@tcp5
	X2=10.9.9.2@tcp5
	"$LNETCTL" peer add --prim_nid "$B" --nid "$X1,$X2" ||
		fail "peer add of the peer traffic made"
	cat > "$T/mr" <<YAML
peer:
-     primary nid: $B
      Multi-Rail: true
      peer ni:
      -     nid: $B
            state: NA
      -     nid: $X1
            state: NA
      -     nid: $X2
            state: NA
YAML
	"$LNETCTL" peer show | expect_yaml "peer show of a configured peer" \
		"$T/mr"
	"$LNETCTL" peer show --nid "$X2" | expect_yaml "peer show --nid X2" \
		"$T/mr"
	# MULTI_RAIL | CONFIGURED | DISCOVERED | NIDS_UPTODATE: Lustre's
	# bits 0, 3, 4 and 8.
	"$LNETCTL" peer show -v 3 > "$T/v3"
	grep -q "^      peer state: 281$" "$T/v3" ||
		{ cat "$T/v3"; fail "peer show -v 3: peer state"; }
	lt_ok put "$B" 65536 8 4

	phase add_bad_input
	A=$(nid_of a)
	NOBODY2=${B%.*}.98@tcp
	must_fail "peer add without --prim_nid" "missing mandatory" \
		"$LNETCTL" peer add --nid "$X1"
	must_fail "peer add --nid garbage" "not a list of NIDs or NID ranges" \
		"$LNETCTL" peer add --prim_nid "$NOBODY" --nid "$X1,garbage"
	must_fail "peer add --nid with an empty entry" "not a list" \
		"$LNETCTL" peer add --prim_nid "$NOBODY" --nid "$X1,"
	must_fail "peer add of another peer's NID as primary" \
		"the primary NID is a NID of another peer" \
		"$LNETCTL" peer add --prim_nid "$X1"
	must_fail "peer add taking another peer's NID" \
		"a NID belongs to another peer" \
		"$LNETCTL" peer add --prim_nid "$NOBODY" --nid "$NOBODY2,$X2"
	must_fail "peer add --non_mr of a multi-rail peer" \
		"the peer exists and is multi-rail" \
		"$LNETCTL" peer add --prim_nid "$B" --non_mr
	must_fail "peer add of our own NID as a NID" "one of this node's" \
		"$LNETCTL" peer add --prim_nid "$NOBODY" --nid "$A"
	must_fail "peer add without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
		setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
		"$LNETCTL" peer add --prim_nid "$NOBODY"
	"$LNETCTL" peer show | expect_yaml "peer show after bad peer add" \
		"$T/mr"

	phase lock_force
	"$LNETCTL" peer add --prim_nid "$NOBODY" --nid "$NOBODY2" --non_mr \
		--lock_prim || fail "peer add --non_mr --lock_prim"
	"$LNETCTL" peer show -v 3 --nid "$NOBODY" > "$T/locked"
	grep -q "Multi-Rail: false" "$T/locked" &&
		grep -q "peer state: 1048584" "$T/locked" ||
		{ cat "$T/locked"; fail "a --non_mr --lock_prim peer"; }
	# as stock: del of a locked peer keeps it with its primary NID only
	"$LNETCTL" peer del --prim_nid "$NOBODY" ||
		fail "peer del of a locked primary"
	"$LNETCTL" peer show --nid "$NOBODY" > "$T/locked"
	grep -q "nid: $NOBODY\$" "$T/locked" &&
		! grep -q "nid: $NOBODY2\$" "$T/locked" ||
		{ cat "$T/locked"; fail "a locked peer after peer del"; }
	must_fail "peer del --force of one NID" "not one of its NIDs" \
		"$LNETCTL" peer del --prim_nid "$NOBODY" --nid "$NOBODY2" --force
	"$LNETCTL" peer del --prim_nid "$NOBODY" --force ||
		fail "peer del --force"
	"$LNETCTL" peer show | expect_yaml "peer show after del --force" \
		"$T/mr"

	phase export_import
	"$LNETCTL" export > "$T/exp" || fail "export"
	# The peer block of the export: up to the next top-level key.
	sed -n '/^peer:/,/^[a-z]/p' "$T/exp" | sed '$ { /^[a-z]/d }' \
		> "$T/peers.yaml"
	expect_yaml "export: the configured peer" "$T/mr" < "$T/peers.yaml"
	"$LNETCTL" import --show < "$T/peers.yaml" |
		expect_yaml "import --show" "$T/mr"
	"$LNETCTL" import --del < "$T/peers.yaml" || fail "import --del"
	"$LNETCTL" peer show | expect_yaml "peer show after import --del" \
		"$T/none"
	must_fail "import --del of a peer that is gone" "no peer has primary NID" \
		"$LNETCTL" import --del "$T/peers.yaml"
	"$LNETCTL" import < "$T/peers.yaml" || fail "import of the peer"
	"$LNETCTL" peer show | expect_yaml "peer show after import" "$T/mr"
	# A bad file changes nothing: checked before, undone after.
	sed 's/Multi-Rail: true/Multi-Rail: maybe/' "$T/peers.yaml" > "$T/bad1"
	must_fail "import of a bad Multi-Rail" "invalid 'Multi-Rail'" \
		"$LNETCTL" import "$T/bad1"
	sed "s/nid: $X2/nid: garbage/" "$T/peers.yaml" > "$T/bad2"
	must_fail "import of a bad peer ni" "invalid or missing peer ni" \
		"$LNETCTL" import "$T/bad2"
	cat > "$T/bad3" <<YAML
peer:
-     primary nid: $NOBODY
      peer ni:
      -     nid: $NOBODY2
-     primary nid: $NOBODY2
YAML
	must_fail "import of a second peer with the first one's NID" \
		"the primary NID is a NID of another peer" \
		"$LNETCTL" import "$T/bad3"
	"$LNETCTL" peer show | expect_yaml "peer show after bad imports" \
		"$T/mr"

	phase many
	# 400 configured peers (one import): "peer show" (a netlink dump in
	# several messages, resumed by a cursor), "peer list" and debugfs
	# "peers" (a seq_file read in pages) list each exactly once.
	N=400
	{
		echo "peer:"
		for i in $(seq 1 $N); do
			printf -- '-     primary nid: 10.3.%d.%d@tcp\n' \
				$((i / 200)) $((i % 200 + 1))
			echo "      Multi-Rail: false"
		done
	} > "$T/many.yaml"
	"$LNETCTL" import < "$T/many.yaml" || fail "import of $N peers"
	"$LNETCTL" peer show > "$T/many.show" || fail "peer show of $N peers"
	grep -o 'primary nid: 10\.3\.[0-9.]*@tcp' "$T/many.show" |
		sort | uniq -c > "$T/many.count"
	[ "$(wc -l < "$T/many.count")" = $N ] &&
		! grep -qv '^ *1 ' "$T/many.count" ||
		{ head "$T/many.count"; fail "peer show: not each of $N peers once"; }
	"$LNETCTL" peer list | grep -o 'nid: 10\.3\.[0-9.]*@tcp' |
		sort -u | wc -l > "$T/many.list"
	[ "$(cat "$T/many.list")" = $N ] ||
		fail "peer list: $(cat "$T/many.list") of $N peers"
	grep -o '^10\.3\.[0-9.]*@tcp' /sys/kernel/debug/lnet/peers |
		sort | uniq -c > "$T/many.dbg"
	[ "$(wc -l < "$T/many.dbg")" = $N ] &&
		! grep -qv '^ *1 ' "$T/many.dbg" ||
		fail "debugfs peers: not each of $N peers once"
	# A small read size: many restarts of the seq_file walk.
	dd if=/sys/kernel/debug/lnet/peers bs=100 2>/dev/null |
		grep -c '^10\.3\.' > "$T/many.dd"
	[ "$(cat "$T/many.dd")" = $N ] ||
		fail "debugfs peers read 100 bytes at a time: $(cat "$T/many.dd")"
	"$LNETCTL" import --del < "$T/many.yaml" || fail "import --del of $N"
	"$LNETCTL" peer show | expect_yaml "peer show after the $N" "$T/mr"

	phase configured_kept
	# A configured peer is not reaped (the reaper looks every 10 s at
	# most); deleting one NID keeps the rest.
	echo 1 > $IDLE
	nap 12
	echo 300 > $IDLE
	"$LNETCTL" peer show | expect_yaml "peer show after reaping" "$T/mr"
	"$LNETCTL" peer del --prim_nid "$B" --nid "$X1" ||
		fail "peer del --nid of a configured peer"
	must_lack "X1 is still there" "$X1" peer show
	"$LNETCTL" peer del --prim_nid "$B" || fail "peer del of a MR peer"
	"$LNETCTL" peer show | expect_yaml "peer show, all gone" "$T/none"
fi
barrier done
# b took a's 10 + 4 + 8 PUTs.
[ "$LNET_NODE" = a ] || target_expect 22
sock_unload
log "peers OK"
