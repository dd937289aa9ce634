#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nidmap's trust (Documentation/nidmap.rst, "Trust"): without a key no
# role starts (unless auth_required=0).  a and b hold the same key; b publishes, a subscribes and registers a target, every
# message of it signed and checked (the counters say so).  Then a sends
# b's publisher, as an attacker would, messages nidmap_forge.py writes
# from the document: a REGISTER unsigned, one MACed with a wrong secret,
# one naming a key b does not hold, one stamped five minutes ago: each
# refused and counted by its kind, the table unchanged.  One signed
# right is taken (the document's trailer is the kernel's); the same
# bytes again are refused as a replay, also after the target it added
# was removed (a replay cannot bring it back).  b sends a's subscriber
# an unsigned NOTICE and a forged one: refused and counted, and a's
# copy still follows b's next change.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
. "$LNET_TOP/tests/vm/nidmap_lib.sh"

INJECT=/sys/kernel/debug/nidmap/inject
LIMIT=20
[ "$LNET_DEBUG_KERNEL" = 1 ] && LIMIT=60
A=$(nid_of a)
B=$(nid_of b)
X1=192.0.2.99@tcp
X2=192.0.2.98@tcp
KEY=/tmp/nidmap-test.key	# nm_load's, id 1
BAD=$(mktemp)
T=$(mktemp)
printf 'nidmap-test-key-0123456789abcdeX\n' > "$BAD"
chmod 600 "$BAD"

forge() { python3 "$LNET_TOP/tests/nidmap_forge.py" "$@"; }

# until_field KEY WANT: lnetctl nidmap show says KEY: WANT within $LIMIT s.
until_field() {
	local i
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_field "$1")" = "$2" ] && return 0
		sleep 0.2
	done
	"$LNETCTL" nidmap show || true
	fail "$1: want $2, got $(nm_field "$1")"
}

# until_copy WANT: a's copy becomes WANT (lines) within $LIMIT s.
until_copy() {
	local i
	for ((i = 0; i < LIMIT * 5; i++)); do
		[ "$(nm_table --copy)" = "$1" ] && return 0
		sleep 0.2
	done
	fail "copy: want [$1] got [$(nm_table --copy)]"
}

sock_load
t0=${EPOCHREALTIME/./}
if [ "$LNET_NODE" = a ]; then
	# On by default: without a key no role starts, unless the lab turns
	# auth_required off.
	nidmap_insmod
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0019 \
		--nid "$A" 2> "$T" && fail "register without a key"
	grep -q "holds no nidmap key" "$T" || fail "register: $(cat "$T")"
	"$LNETCTL" nidmap publish 2> "$T" && fail "publish without a key"
	grep -q "holds no nidmap key" "$T" || fail "publish: $(cat "$T")"
	P=/sys/module/lnet_nidmap/parameters/auth_required
	[ "$(cat $P)" = Y ] || fail "auth_required: $(cat $P)"
	echo 0 > $P
	"$LNETCTL" nidmap publish || fail "publish, auth_required=0"
	"$LNETCTL" nidmap unpublish || fail "unpublish"
	echo 1 > $P
	rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
fi
nm_load
if [ "$LNET_NODE" = b ]; then
	"$LNETCTL" nidmap publish || fail "publish"
fi
barrier na_pub

if [ "$LNET_NODE" = a ]; then
	"$LNETCTL" nidmap subscribe --publisher "$B" || fail "subscribe"
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0010 \
		--nid "$A" || fail "register fs-OST0010"
	until_copy "fs-OST0010 1 $A"
	# SUBSCRIBE, REGISTER, FETCH signed; their answers and b's notice
	# verified.
	[ "$(nm_field auth_signed)" -ge 3 ] || fail "auth_signed: $(nm_field auth_signed)"
	[ "$(nm_field auth_verified)" -ge 3 ] || fail "auth_verified: $(nm_field auth_verified)"
fi
barrier na_signed

if [ "$LNET_NODE" = a ]; then
	# Seqs far above a's own: b's answers (STATUS AUTH) match none of
	# a's requests.
	INC=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
	inj() { echo "$B publisher $1" > "$INJECT" || fail "inject: $2"; }
	inj "$(forge register fs-OST0010 "$X1" --inc "$INC" --seq 1001)" unsigned
	inj "$(forge register fs-OST0010 "$X1" --inc "$INC" --seq 1002 \
		--key 1 --secret-file "$BAD")" "wrong secret"
	inj "$(forge register fs-OST0010 "$X1" --inc "$INC" --seq 1003 \
		--key 2 --secret-file "$KEY")" "unknown key"
	inj "$(forge register fs-OST0010 "$X1" --inc "$INC" --seq 1004 \
		--key 1 --secret-file "$KEY" --stamp-offset -300)" stale
	good=$(forge register fs-OST0011 "$X2" --inc "$INC" --seq 1005 \
		--key 1 --secret-file "$KEY")
	inj "$good" "signed right"
	inj "$good" replay
	echo "$good" > "$T"
fi
barrier na_forged

if [ "$LNET_NODE" = b ]; then
	until_field auth_replayed 1
	[ "$(nm_field auth_unsigned)" = 1 ] || fail "auth_unsigned: $(nm_field auth_unsigned)"
	[ "$(nm_field auth_forged)" = 2 ] || fail "auth_forged: $(nm_field auth_forged)"
	[ "$(nm_field auth_stale)" = 1 ] || fail "auth_stale: $(nm_field auth_stale)"
	# Only the one signed right changed the table.
	[ "$(nm_table)" = "fs-OST0010 1 $A
fs-OST0011 2 $X2" ] || fail "table: $(nm_table)"
fi
barrier na_counted

if [ "$LNET_NODE" = a ]; then
	until_copy "fs-OST0010 1 $A
fs-OST0011 2 $X2"
	"$LNETCTL" nidmap remove --publisher "$B" --name fs-OST0011 ||
		fail "remove fs-OST0011"
	until_copy "fs-OST0010 1 $A"
	echo "$B publisher $(cat "$T")" > "$INJECT" || fail "inject: replay"
fi
barrier na_replayed

if [ "$LNET_NODE" = b ]; then
	until_field auth_replayed 2
	[ "$(nm_table)" = "fs-OST0010 1 $A" ] || fail "table: $(nm_table)"
	# b's notices to a's subscriber endpoint, unsigned and forged.
	INC=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')
	echo "$A subscriber $(forge notice --epoch 1 --version 99 --inc "$INC" \
		--seq 1)" > "$INJECT" || fail "inject: unsigned notice"
	echo "$A subscriber $(forge notice --epoch 1 --version 99 --inc "$INC" \
		--seq 2 --key 1 --secret-file "$KEY" --bad-mac)" > "$INJECT" ||
		fail "inject: forged notice"
fi
barrier na_notices

if [ "$LNET_NODE" = a ]; then
	until_field auth_forged 1
	[ "$(nm_field auth_unsigned)" = 1 ] || fail "auth_unsigned: $(nm_field auth_unsigned)"
fi
barrier na_refused

# The copy still follows b, signed as before.
if [ "$LNET_NODE" = b ]; then
	"$LNETCTL" nidmap register --publisher "$B" --name fs-OST0012 \
		--nid "$B" || fail "register fs-OST0012"
else
	until_copy "fs-OST0010 1 $A
fs-OST0012 4 $B"
	"$LNETCTL" nidmap unsubscribe || fail "unsubscribe"
fi
barrier na_done

if [ "$LNET_NODE" = b ]; then
	until_field subscribers 0
	"$LNETCTL" nidmap show
	"$LNETCTL" nidmap unpublish || fail "unpublish"
fi
log "nidmap_auth: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"
rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
sock_unload
