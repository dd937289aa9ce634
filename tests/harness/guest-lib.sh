# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for node scripts running inside a test VM.  Source it:
#	. "$LNET_TOP/tests/harness/guest-lib.sh"
# Environment from the harness: LNET_NODE, LNET_NODES, LNET_MODDIR,
# RESULTS (this node's results directory), IP_<node>_<link>.

SHARED=/tmp/shared

log() {
	echo "[$LNET_NODE] $*"
}

fail() {
	echo "[$LNET_NODE] FAIL: $*" >&2
	exit 1
}

# Our modules in dependency order, as built for the running kernel.
LNET_MODULES="lnet/lnet.ko lnd/sock/ksocklnd.ko lnd/o2ib/ko2iblnd.ko"

lnet_load() {
	local m
	for m in $LNET_MODULES; do
		insmod "$LNET_MODDIR/$m" "$@" || fail "insmod $m"
	done
}

lnet_unload() {
	local m
	for m in $(echo "$LNET_MODULES" | tr ' ' '\n' | tac); do
		m=$(basename "$m" .ko)
		if grep -q "^$m " /proc/modules; then
			rmmod "$m" || fail "rmmod $m"
		fi
	done
}

# phase NAME: the node's next phase starts here.  The harness times and
# reports each phase on its own (tests/harness/report.py): it ends where
# the next one starts, or with the script, whose exit status judges it.
# Use one name per step that can fail on its own: "ping", "bulk_put", ...
phase() {
	echo "LNET-TEST: $LNET_NODE phase $1" > /dev/kmsg
	log "phase $1"
}

# barrier NAME [TIMEOUT]: wait until every node of the test reached NAME.
# Fails at once when another node's script has failed (guest-init.sh
# leaves .failed.<node>), instead of waiting out the timeout.
barrier() {
	local name=$1 timeout=${2:-300} n want waited=0 f
	want=$(echo "$LNET_NODES" | wc -w)
	touch "$SHARED/.barrier.$name.$LNET_NODE"
	while :; do
		n=$(find "$SHARED" -maxdepth 1 -name ".barrier.$name.*" | wc -l)
		[ "$n" -ge "$want" ] && return 0
		for f in "$SHARED"/.failed.*; do
			[ -e "$f" ] && fail "barrier $name: node ${f##*.failed.} failed"
		done
		[ $waited -ge $((timeout * 10)) ] && fail "barrier $name: $n/$want"
		sleep 0.1
		waited=$((waited + 1))
	done
}
