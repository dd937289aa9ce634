# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Checks of lnetctl's output for the VM tests.  Source it after
# guest-lib.sh, with $T a scratch directory:
#	. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

# expect_yaml NAME FILE: stdin must equal FILE's text exactly.
expect_yaml() {
	if ! diff -u "$2" - >"$T/diff"; then
		cat "$T/diff"
		fail "$1: output differs from the expected YAML"
	fi
}

# must_fail NAME PATTERN CMD...: CMD exits non-zero and its stderr is an
# lnetctl error report (errno, descr) matching PATTERN.
must_fail() {
	local name=$1 pat=$2
	shift 2
	local line errno=0 descr="" match=0
	if "$@" >"$T/out" 2>"$T/err"; then
		fail "$name: accepted: $*"
	fi
	# Line by line as grep, but with builtins: on the debug kernel a
	# process costs ~0.3 s, and the scenarios refuse ~150 commands.
	while IFS= read -r line || [ -n "$line" ]; do
		if [[ $line =~ ^\ *errno:\ -[0-9] ]]; then errno=1; fi
		if [[ -z $descr && $line =~ ^\ *descr:\  ]]; then descr=$line; fi
		if [[ $line =~ $pat ]]; then match=1; fi
	done <"$T/err"
	[ $errno = 1 ] && [ -n "$descr" ] ||
		{ cat "$T/err"; fail "$name: no errno/descr report"; }
	[ $match = 1 ] ||
		{ cat "$T/err"; fail "$name: report does not match '$pat'"; }
	log "refused as expected: $name: $descr"
}

# must_lack NAME PATTERN ARGS...: "lnetctl ARGS" succeeds and no line of
# its output matches the extended regex PATTERN; NAME says what a match
# means.  (A failing lnetctl prints nothing: it is not "none listed".)
must_lack() {
	local name=$1 pat=$2
	shift 2
	"$LNETCTL" "$@" >"$T/out" 2>"$T/err" ||
		{ cat "$T/err"; fail "$name: lnetctl $* failed"; }
	if grep -qE -- "$pat" "$T/out"; then
		cat "$T/out"
		fail "$name"
	fi
}

# peer_wait NID PATTERN [SECONDS]: wait until "peer show -v 3 --nid NID"
# matches the extended regex PATTERN (a discovery or push ends in the
# background); fail with what it shows after SECONDS (default 20).
peer_wait() {
	local nid=$1 pat=$2 i
	for ((i = 0; i < ${3:-20} * 10; i++)); do
		"$LNETCTL" peer show -v 3 --nid "$nid" >"$T/peer" 2>&1 &&
			grep -qzE -- "$pat" "$T/peer" && return 0
		nap 0.1
	done
	cat "$T/peer"
	fail "peer $nid: no match for '$pat'"
}

# peer_wait_gone NID PATTERN [SECONDS]: as peer_wait, until the peer of
# NID no longer matches PATTERN.
peer_wait_gone() {
	local nid=$1 pat=$2 i
	for ((i = 0; i < ${3:-20} * 10; i++)); do
		"$LNETCTL" peer show -v 3 --nid "$nid" >"$T/peer" 2>&1 &&
			! grep -qzE -- "$pat" "$T/peer" && return 0
		nap 0.1
	done
	cat "$T/peer"
	fail "peer $nid: still matches '$pat'"
}

# expect_peer NAME PRIM NID...: "peer show --nid PRIM" is exactly a
# multi-rail peer with primary NID PRIM and the peer NIs PRIM NID... in
# that order.
expect_peer() {
	local name=$1 nid
	shift
	printf 'peer:\n-     primary nid: %s\n      Multi-Rail: true\n      peer ni:\n' "$1" \
		>"$T/peer.want"
	for nid in "$@"; do
		printf '      -     nid: %s\n            state: NA\n' "$nid" \
			>>"$T/peer.want"
	done
	"$LNETCTL" peer show --nid "$1" | expect_yaml "$name" "$T/peer.want"
}
