#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nidmap over LNet (Documentation/nidmap.rst): b publishes; a subscribes
# to b and registers a target with two NIDs; a's copy gets it (one full
# resync: a's first fetch).  b's changes (two targets added in one
# REGISTER, the first removed, the failover order of one changed) are
# noticed by a and fetched as deltas: a's copy equals b's table entry
# by entry, name, version and NIDs in order, and a resynced only once.
# b may not take a's target (PERM).  a's address moves (a DHCP renew):
# its registration and its subscription follow its new NID, and b's PUT
# by name reaches a there; then the address moves back.  A malformed
# message to each side's endpoint is
# dropped and counted, and the copy still follows b afterwards.  Both
# look a target up (a in its copy, b in its table); a sends to it by
# name: its first NID is on a net a cannot reach (skipped), its second
# is nobody's (the send fails), its third is b's, where the PUT lands in
# a sink that checks its bytes.  Keys: both nodes hold the test key from
# the start (every message signed and checked); bad key requests are
# refused, a rotation to a second key keeps registrations and the copy
# working.  Export and import: a's subscription and registrations, then
# b's publisher role, saved, removed (import --del) and restored; an
# import the publisher refuses a part of, undone.  a's unsubscribe
# empties b's subscriber list; both unload cleanly.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
. "$LNET_TOP/tests/vm/nidmap_lib.sh"

NMDBG=/sys/kernel/debug/nidmap
INJECT=$NMDBG/inject
T=$(mktemp)
NL_BAD=$LNET_TOP/build/utils/lnet_nl_bad	# raw requests to refuse
LIMIT=20
[ "$LNET_DEBUG_KERNEL" = 1 ] && LIMIT=60
A=$(nid_of a)
B=$(nid_of b)
X1=192.0.2.99@tcp	# NIDs of nobody: a table lists what registrants say
X2=192.0.2.98@tcp
XNET=192.0.2.97@tcp9	# a net nobody here has an NI on or a route to
X3IP=192.0.2.96		# b's second address: no acceptor, refused at once
X3=$X3IP@tcp

# lookup_nids TARGET SOURCE VERSION NIDS: lnetctl nidmap lookup says so.
lookup_nids() {
	local out got
	out=$("$LNETCTL" nidmap lookup --name "$1") || fail "lookup $1"
	got=$(echo "$out" | awk '
		/^ *name: / { n = $NF } /^ *version: / { v = $NF }
		/^ *source: / { src = $NF }
		/^ *- [^ ]*@/ { s = s (s ? "," : "") $NF }
		END { print n, src, v, s }')
	[ "$got" = "$1 $2 $3 $4" ] || fail "lookup $1: [$got] want [$1 $2 $3 $4]: $out"
}

# until_copy WANT: a's copy becomes WANT (lines) within $LIMIT s.
until_copy() {
	local i got
	for ((i = 0; i < LIMIT * 5; i++)); do
		got=$(nm_table --copy)
		[ "$got" = "$1" ] && return 0
		sleep 0.2
	done
	"$LNETCTL" nidmap show || true
	fail "copy: want [$1] got [$got]"
}

sock_load
nm_load		# with the test key (id 1): nidmap takes only signed messages
t0=${EPOCHREALTIME/./}

if [ "$LNET_NODE" = b ]; then
	"$LNETCTL" nidmap publish --max-tombstones 16 || fail "publish"
	# Refused with a message, nothing started twice.
	"$LNETCTL" nidmap publish 2> "$T" && fail "second publish accepted"
	grep -q "already started" "$T" || fail "second publish: $(cat "$T")"
fi
barrier nm_pub

if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" nidmap subscribe --publisher "$B" || fail "subscribe"
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0000 \
		--nid "$A,$X1" || fail "register fs-OST0000"
	until_copy "fs-OST0000 1 $A,$X1"
	[ "$(nm_field resyncs)" = 1 ] || fail "resyncs: $(nm_field resyncs)"
	[ "$(nm_field subscribed)" = 1 ] || fail "not subscribed"
fi
barrier nm_reg

if [ "$LNET_NODE" = b ]; then
	[ "$(nm_table)" = "fs-OST0000 1 $A,$X1" ] || fail "table: $(nm_table)"
	[ "$(nm_field subscribers)" = 1 ] || fail "subscribers: $(nm_field subscribers)"
	# a's target: b is neither its registrant nor one of its NIDs.
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0000 \
		--nid "$B" 2> "$T" && fail "b took a's target"
	grep -q "registered by another NID" "$T" || fail "PERM: $(cat "$T")"
	[ "$(nm_field refused)" = 1 ] || fail "refused: $(nm_field refused)"
	reg() { "$LNETCTL" nidmap register --publisher "$B" "$@" ||
		fail "register $*"; }
	# A --nid before any --name: refused, nothing sent.
	"$LNETCTL" nidmap register --publisher "$B" --nid "$B" \
		--name fs-MDT0000 2> "$T" && fail "--nid before --name accepted"
	grep -q "each --nid follows its --name" "$T" || fail "order: $(cat "$T")"
	# Two targets in one REGISTER, each the next version.
	reg --name fs-MDT0000 --nid "$B" \
		--name fs-OST0001 --nid "$B,$X2"		# versions 2, 3
	[ "$(nm_field version)" = 3 ] || fail "batch: version $(nm_field version)"
	"$LNETCTL" nidmap remove --publisher "$B" --name fs-MDT0000 ||
		fail "remove fs-MDT0000"			# 4
	reg --name fs-OST0001 --nid "$X2,$B"			# 5: failover order
	reg --name fs-OST0001 --nid "$X2,$B"			# no change
	[ "$(nm_field version)" = 5 ] || fail "version: $(nm_field version)"
	[ "$(nm_field tombstones)" = 1 ] || fail "tombstones: $(nm_field tombstones)"
	[ "$(nm_table)" = "fs-OST0000 1 $A,$X1
fs-OST0001 5 $X2,$B" ] || fail "table: $(nm_table)"
fi
barrier nm_changed

if [ "$LNET_NODE" = a ]; then
	until_copy "fs-OST0000 1 $A,$X1
fs-OST0001 5 $X2,$B"
	[ "$(nm_field version)" = 5 ] || fail "copy version: $(nm_field version)"
	# Deltas only after the first fetch; the notices brought them.
	[ "$(nm_field resyncs)" = 1 ] || fail "resyncs: $(nm_field resyncs)"
	[ "$(nm_field notices_received)" -ge 1 ] || fail "no notice received"
	[ "$(nm_field pages_applied)" -ge 2 ] || fail "pages: $(nm_field pages_applied)"
fi
barrier nm_checked

# Malformed messages, one to each side's endpoint.
if [ "$LNET_NODE" = a ]; then
	echo "$B publisher 200" > "$INJECT" || fail "inject to b"
else
	echo "$A subscriber 72" > "$INJECT" || fail "inject to a"
fi
barrier nm_junk
for ((i = 0; i < LIMIT * 5; i++)); do
	[ "$(nm_field rx_dropped)" = 1 ] && break
	sleep 0.2
done
[ "$(nm_field rx_dropped)" = 1 ] || fail "rx_dropped: $(nm_field rx_dropped)"
if [ "$LNET_NODE" = b ]; then
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0002 \
		--nid "$B" || fail "register fs-OST0002"	# 6
else
	until_copy "fs-OST0000 1 $A,$X1
fs-OST0001 5 $X2,$B
fs-OST0002 6 $B"
fi
barrier nm_junked

# Sending by name: fs-MDT0001's first NID is on a net a has no NI or
# route on (skipped at once), its second is an address of b's where
# nothing listens (the connection is refused: the send fails), its
# third is b's: a's PUT by name lands in b's sink, checked there, and
# a's GET by name reads it back, checked in a.
if [ "$LNET_NODE" = b ]; then
	ip addr add "$X3IP/24" dev eth0 || fail "ip addr add $X3IP"
	echo on > "$NMDBG/sink" || fail "sink on"
	"$LNETCTL" nidmap register --publisher "$B" --name fs-MDT0001 \
		--nid "$XNET,$X3,$B" || fail "register fs-MDT0001"	# 7
	lookup_nids fs-MDT0001 publisher 7 "$XNET,$X3,$B"
else
	until_copy "fs-OST0000 1 $A,$X1
fs-OST0001 5 $X2,$B
fs-OST0002 6 $B
fs-MDT0001 7 $XNET,$X3,$B"
	lookup_nids fs-MDT0001 copy 7 "$XNET,$X3,$B"
	"$LNETCTL" nidmap lookup --name fs-MDT0009 2> "$T" &&
		fail "lookup of an unknown target"
	grep -q "no such target" "$T" || fail "lookup unknown: $(cat "$T")"
	# by_name send|get WANT: 3000 bytes of seed 77 to or from
	# fs-MDT0001 through the debugfs hook, its result line WANT.
	by_name() {
		local t1=${EPOCHREALTIME/./} got
		echo "fs-MDT0001 3000 77" > "$NMDBG/$1" ||
			fail "$1 by name: $(cat "$NMDBG/$1")"
		got=$(cat "$NMDBG/$1")
		log "$1 by name: $got ($(((${EPOCHREALTIME/./} - t1) / 1000)) ms)"
		[ "$got" = "$2" ] || fail "$1 by name: $got"
	}
	by_name send "rc=0 nid=$B version=7 resolves=1 skipped=1 failed=1"
	# And a GET by name of the same 3000 bytes back from b's sink,
	# through the same failover, every byte checked here.
	by_name get "rc=0 nid=$B version=7 resolves=1 skipped=1 failed=1 mlength=3000 bad=0"
fi
barrier nm_sent
if [ "$LNET_NODE" = b ]; then
	[ "$(cat "$NMDBG/sink")" = "puts=1 bad=0" ] ||
		fail "sink: $(cat "$NMDBG/sink")"
	echo off > "$NMDBG/sink" || fail "sink off"
	ip addr del "$X3IP/24" dev eth0 || fail "ip addr del $X3IP"
fi

# A NID that moves (Documentation/nidmap.rst, "NIDs that follow the
# address"): a's address changes as a DHCP renew changes it (the old one
# deleted, a new one added); LNet moves a's NI to the new NID and a's
# registration of fs-OST0000 follows: an authenticated REGISTER from the
# new NID, taken by the incarnation rule (version 8).  b's table and a's
# copy (a subscribed again from its new NID) list the new NID first, and
# b's PUT by name to fs-OST0000 lands in a's sink at the new address,
# checked there.  Then the address moves back: version 9, a's NID again.
AIP=${A%@tcp}
NEWIP=${AIP%.*}.$((${AIP##*.} + 100))
NEW=$NEWIP@tcp

# a_moves FROM TO: a's eth0 address FROM -> TO; a's NI follows within
# $LIMIT s, then its registration (renewed: N, the counter after).
a_moves() {
	local i pfx t2=${EPOCHREALTIME/./}
	pfx=$(ip -4 -o addr show dev eth0 |
		awk -v ip="$1" '{ split($4, p, "/") } p[1] == ip { print p[2] }')
	[ -n "$pfx" ] || fail "eth0 has no $1: $(ip -4 -o addr show dev eth0)"
	ip addr del "$1/$pfx" dev eth0 || fail "ip addr del $1"
	ip addr add "$2/$pfx" dev eth0 || fail "ip addr add $2"
	for ((i = 0; i < LIMIT * 5; i++)); do
		"$LNETCTL" net show --net tcp | grep -q "nid: $2@tcp$" && break
		nap 0.2
	done
	"$LNETCTL" net show --net tcp | grep -q "nid: $2@tcp$" ||
		fail "a's NI did not move to $2@tcp: $("$LNETCTL" net show --net tcp)"
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_field renewed)" = "$3" ] && break
		nap 0.2
	done
	[ "$(nm_field renewed)" = "$3" ] || fail "renewed: $(nm_field renewed), want $3"
	log "a moved to $2: NI and registration in $(((${EPOCHREALTIME/./} - t2) / 1000)) ms"
}

if [ "$LNET_NODE" = a ]; then
	echo on > "$NMDBG/sink" || fail "sink on (a)"
	a_moves "$AIP" "$NEWIP" 1
	until_lookup_nids() {
		local i
		for ((i = 0; i < LIMIT * 5; i++)); do
			[ "$(nm_table --copy | grep "^$1 ")" = "$1 $2 $3" ] && return 0
			nap 0.2
		done
		fail "copy: $(nm_table --copy | grep "^$1 "), want $1 $2 $3"
	}
	until_lookup_nids fs-OST0000 8 "$NEW,$X1"
	[ "$(nm_field renew_refused)" = 0 ] || fail "renew_refused: $(nm_field renew_refused)"
fi
barrier nm_moved
if [ "$LNET_NODE" = b ]; then
	[ "$(nm_table | grep '^fs-OST0000 ')" = "fs-OST0000 8 $NEW,$X1" ] ||
		fail "table after a moved: $(nm_table)"
	echo "fs-OST0000 3000 78" > "$NMDBG/send" ||
		fail "send by name to a at $NEW: $(cat "$NMDBG/send")"
	got=$(cat "$NMDBG/send")
	[ "$got" = "rc=0 nid=$NEW version=8 resolves=1 skipped=0 failed=0" ] ||
		fail "send by name to a at $NEW: $got"
fi
barrier nm_moved_sent
if [ "$LNET_NODE" = a ]; then
	[ "$(cat "$NMDBG/sink")" = "puts=1 bad=0" ] ||
		fail "a's sink: $(cat "$NMDBG/sink")"
	echo off > "$NMDBG/sink" || fail "sink off (a)"
	a_moves "$NEWIP" "$AIP" 2
	until_lookup_nids fs-OST0000 9 "$A,$X1"
fi
barrier nm_moved_back
if [ "$LNET_NODE" = b ]; then
	# a subscribed again from each new NID: one entry, its latest.
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_field subscribers)" = 1 ] && break
		nap 0.2
	done
	[ "$(nm_field subscribers)" = 1 ] ||
		fail "subscribers after a moved twice: $(nm_field subscribers)"
fi

# Keys (Documentation/nidmap.rst, "Configuration" and "Trust"): both
# nodes hold nm_load's key 1 (the same secret), and have signed and
# checked every message so far.  Bad input is refused with its message
# and changes nothing, split between the nodes (which run their halves
# at once): lnetctl's own refusals and a non-admin's on a, raw requests
# (lnet_nl_bad --nidmap) and the keys' refusals on b.  Then a rotation:
# key 2 added on both, used on both, key 1 deleted on both; at each step
# a registers a target and looks it up in its copy (REGISTER, STATUS,
# NOTICE, FETCH and its reply, each signed and checked).  Few lnetctl
# runs: each costs about a second on the debug kernel.
t1=${EPOCHREALTIME/./}
S1=/tmp/nidmap-test.key	# nm_load's key 1
S2=$(mktemp)		# mode 600, as a secret file must be
printf 'nidmap-vm-test-key-two-0123456789abcdef' > "$S2"

# keys_are KEYS SIGNING: nidmap show says so (one run of lnetctl); the
# output is left in $T.show.
keys_are() {
	local got
	"$LNETCTL" nidmap show > "$T.show" || fail "show"
	got="$(sed -n 's/^ *keys: //p' "$T.show") $(sed -n 's/^ *signing_key: //p' "$T.show")"
	[ "$got" = "$1 $2" ] || fail "keys: [$got] want [$1 $2]"
}

# refused WHAT ARGS...: "lnetctl nidmap key ARGS" fails saying WHAT.
refused() {
	local what=$1
	shift
	"$LNETCTL" nidmap key "$@" 2> "$T" && fail "key $* accepted"
	grep -q "$what" "$T" || fail "key $*: $(cat "$T")"
}

# until_lookup TARGET VERSION: a's copy has TARGET at VERSION with a's
# NID within $LIMIT s.
until_lookup() {
	local i out got
	for ((i = 0; i < LIMIT * 5; i++)); do
		out=$("$LNETCTL" nidmap lookup --name "$1" 2>&1) || true
		got=$(echo "$out" | awk '/^ *version: / { v = $NF }
			/^ *- [^ ]*@/ { s = s (s ? "," : "") $NF }
			END { print v, s }')
		[ "$got" = "$2 $A" ] && return 0
		nap 0.2
	done
	"$LNETCTL" nidmap show || true
	fail "lookup $1: [$got] want [$2 $A]: $out"
}

# key_step N KEYS SIGNING ARGS...: "nidmap key ARGS" on both, which then
# hold KEYS and sign with SIGNING; a registers fs-KEYN (version 9 + N)
# and finds it in its copy (fs-KEY1, 2, 3: versions 10, 11, 12).
key_step() {
	local n=$1 keys=$2 signing=$3
	shift 3
	"$LNETCTL" nidmap key "$@" || fail "key $*"
	keys_are "$keys" "$signing"
	barrier "nm_key$n"
	if [ "$LNET_NODE" = a ]; then
		"$LNETCTL" nidmap register --publisher "$B" --name "fs-KEY$n" \
			--nid "$A" || fail "register fs-KEY$n after key $*"
		until_lookup "fs-KEY$n" $((9 + n))
	fi
	log "keys: step $n (key $*) at $(((${EPOCHREALTIME/./} - t1) / 1000)) ms"
}

keys_are "[1]" 1
ctr() { sed -n "s/^ *$1: //p" "$T.show"; }
signed=$(ctr auth_signed)
verified=$(ctr auth_verified)
if [ "$LNET_NODE" = a ]; then
	# Refused by lnetctl, before any request.
	refused "an integer in 1..4294967295" add --id 0 --secret-file "$S1"
	printf 'too-short\n' > "$T.short"
	chmod 600 "$T.short"
	refused "holds only 9 bytes" add --id 3 --secret-file "$T.short"
	cp "$S2" "$T.open"
	chmod 644 "$T.open"
	refused "are too open" add --id 3 --secret-file "$T.open"
	rm -f "$T.short" "$T.open"
	# Without CAP_NET_ADMIN: refused by the family (GENL_ADMIN_PERM).
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
		"$LNETCTL" nidmap key del --id 1 2> "$T" && fail "key del as non-admin"
	grep -q "CAP_NET_ADMIN is required" "$T" || fail "non-admin: $(cat "$T")"
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
		"$NL_BAD" --nidmap-eperm > "$T" || { cat "$T"; fail "nl_bad --nidmap-eperm"; }
	keys_are "[1]" 1
else
	# Refused by the kernel: raw requests (policy, handlers), then
	# through lnetctl.
	"$NL_BAD" --nidmap > "$T" || { cat "$T"; fail "lnet_nl_bad --nidmap"; }
	cat "$T"
	refused "held already" add --id 1 --secret-file "$S1"
	"$LNETCTL" nidmap key add --id 9 --secret-file "$S2" || fail "add 9"
	refused "two keys are held already" add --id 3 --secret-file "$S2"
	refused "the signing key and another key is held" del --id 1
	keys_are "[1, 9]" 1
	"$LNETCTL" nidmap key del --id 9 || fail "del 9"
fi
barrier nm_key_bad
key_step 1 "[1, 2]" 1 add --id 2 --secret-file "$S2"
key_step 2 "[1, 2]" 2 use --id 2
key_step 3 "[2]" 2 del --id 1
rm -f "$S2"
# Each step's messages signed and checked on both, none refused.
keys_are "[2]" 2
[ "$(ctr auth_signed)" -ge $((signed + 3)) ] ||
	fail "auth_signed: $signed, then $(ctr auth_signed)"
[ "$(ctr auth_verified)" -ge $((verified + 3)) ] ||
	fail "auth_verified: $verified, then $(ctr auth_verified)"
for c in auth_unsigned auth_forged auth_replayed auth_stale auth_noroom; do
	[ "$(ctr $c)" = 0 ] || fail "$c: $(ctr $c)"
done
log "keys: $(((${EPOCHREALTIME/./} - t1) / 1000)) ms, auth_signed $signed -> $(ctr auth_signed), auth_verified $verified -> $(ctr auth_verified)"
rm -f "$T.show"
barrier nm_keys

# Export and import (Documentation/nidmap.rst, "Saving the
# configuration"): a's "nidmap:" block (its subscription to b, its four
# registrations with b, NIDs in failover order) is removed by import
# --del and brought back by import: a's copy lists the same targets and
# NIDs as before (new versions), and a second export says what the
# first said.  Between the two, an import b's publisher refuses a part of
# (fs-OST0001 is b's: PERM) is undone: a subscribes to nothing and
# registered nothing.  b's publisher role and its settings likewise, once
# a has unsubscribed (below).
nm_block() { awk '/^nidmap:/ { p = 1; print; next } /^[^ ]/ { p = 0 } p'; }
t3=${EPOCHREALTIME/./}
if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" export > "$T.conf" || fail "export"
	nm_block < "$T.conf" > "$T.nm"
	[ "$(sed -n 's/^ *name: //p' "$T.nm" | tr '\n' ' ')" = \
		"fs-OST0000 fs-KEY1 fs-KEY2 fs-KEY3 " ] ||
		fail "exported registrations: $(cat "$T.conf")"
	grep -q "^ *publisher: $B$" "$T.nm" || fail "export: $(cat "$T.nm")"
	grep -q "secret\|key" "$T.nm" && fail "a key exported: $(cat "$T.nm")"
	before=$(nm_table --copy | awk '{ print $1, $3 }' | sort)
	"$LNETCTL" import --del "$T.nm" || fail "import --del"
	"$LNETCTL" nidmap table --copy > /dev/null 2>&1 &&
		fail "still subscribed after import --del"
	cat "$T.nm"
	printf '%s\n' "nidmap:" "    subscriber:" "        publisher: $B" \
		"    registrations:" "    -   publisher: $B" \
		"        name: fs-KEY9" "        nids: [$A]" \
		"    -   publisher: $B" "        name: fs-OST0001" \
		"        nids: [$A]" > "$T.bad"
	"$LNETCTL" import "$T.bad" 2> "$T" && fail "import of b's target taken"
	grep -q "cannot register fs-OST0001 with $B: publisher refused" "$T" ||
		fail "import refused: $(cat "$T")"
	[ -z "$("$LNETCTL" export | nm_block)" ] ||
		fail "refused import not undone: $("$LNETCTL" export | nm_block)"
	"$LNETCTL" import "$T.nm" || fail "import"
	for ((i = 0; i < LIMIT * 5; i++)); do
		got=$(nm_table --copy 2> /dev/null | awk '{ print $1, $3 }' | sort)
		[ "$got" = "$before" ] && break
		nap 0.2
	done
	[ "$got" = "$before" ] || fail "copy after import: [$got] want [$before]"
	"$LNETCTL" export | nm_block | diff "$T.nm" - ||
		fail "export after import differs"
	log "export/import (a): $(((${EPOCHREALTIME/./} - t3) / 1000)) ms"
	rm -f "$T.conf" "$T.bad"
fi
barrier nm_imported

if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" nidmap unsubscribe || fail "unsubscribe"
	"$LNETCTL" nidmap table --copy > /dev/null 2> "$T" &&
		fail "copy listed after unsubscribe"
fi
barrier nm_unsub

if [ "$LNET_NODE" = b ]; then
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_field subscribers)" = 0 ] && break
		sleep 0.2
	done
	[ "$(nm_field subscribers)" = 0 ] || fail "subscribers: $(nm_field subscribers)"
	# b's publisher role: exported with its settings, stopped by
	# import --del, started again by import with them.
	t3=${EPOCHREALTIME/./}
	"$LNETCTL" export | nm_block > "$T.nm"
	grep -q "^ *max_tombstones: 16$" "$T.nm" || fail "export: $(cat "$T.nm")"
	"$LNETCTL" import --del "$T.nm" || fail "import --del (b)"
	show=$("$LNETCTL" nidmap show) || fail "show (b)"
	grep -q "^ *publisher:" <<< "$show" &&
		fail "still a publisher after import --del: $show"
	"$LNETCTL" import "$T.nm" || fail "import (b)"
	"$LNETCTL" export | nm_block | diff "$T.nm" - ||
		fail "export after import differs (b)"
	log "export/import (b): $(((${EPOCHREALTIME/./} - t3) / 1000)) ms"
	rm -f "$T.nm"
	"$LNETCTL" nidmap show
	"$LNETCTL" nidmap unpublish || fail "unpublish"
fi
log "nidmap: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"
rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
sock_unload
