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
	if "$@" >"$T/out" 2>"$T/err"; then
		fail "$name: accepted: $*"
	fi
	grep -q '^ *errno: -[0-9]' "$T/err" && grep -q '^ *descr: ' "$T/err" ||
		{ cat "$T/err"; fail "$name: no errno/descr report"; }
	grep -qE -- "$pat" "$T/err" ||
		{ cat "$T/err"; fail "$name: report does not match '$pat'"; }
	log "refused as expected: $name: $(grep descr: "$T/err" | head -1)"
}
