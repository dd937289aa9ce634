# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the selftest scenarios (lst.sh, lst_console.sh): lst run
# and checked, the nodes' counters.  Source it after guest-lib.sh and the
# LND's library (sock_lib.sh or o2ib_lib.sh), with LST_LND set.

LST=$LNET_TOP/build/utils/static/lst
export LST_SESSION=4242

# lst_load [PARAM=VALUE...]: the LND's modules, then lnet_selftest.
lst_load() {
	"${LST_LND}_load"
	# rpc_timeout: RPCs to a node that left fail in 5 s, not 64
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" rpc_timeout=5 "$@" ||
		fail "insmod lnet_selftest $*"
}

# lst_unload: the reverse of lst_load.
lst_unload() {
	module_loaded lnet_selftest && { rmmod lnet_selftest || fail "rmmod lnet_selftest"; }
	"${LST_LND}_unload"
}

indent() {
	sed "s/^/[$LNET_NODE]   /"
}

# run CMD...: lst CMD, logged; its output in $OUT; a failure fails.
run() {
	log "\$ lst $*"
	if ! OUT=$("$LST" "$@" 2>&1); then
		indent <<< "$OUT"
		fail "lst $* failed"
	fi
	indent <<< "$OUT"
}

# refused "MSG" CMD...: lst CMD must fail, saying MSG.
refused() {
	local want=$1 out
	shift
	if out=$("$LST" "$@" 2>&1); then
		fail "lst $* was taken: $out"
	fi
	case "$out" in
	*"$want"*) log "lst $* refused: $out" ;;
	*) fail "lst $*: want '$want', got: $out" ;;
	esac
}

# want TEXT: the last run's output has TEXT (a failure quotes the output,
# so the suite's summary shows what lst said).
want() {
	case "$OUT" in
	*"$1"*) ;;
	*) fail "lst output: want '$1', got: $(tr '\n' '|' <<< "$OUT" | cut -c1-300)" ;;
	esac
}

# set_rpc_timeout SECONDS: this node's selftest client RPC timeout (read
# at each RPC's post).
set_rpc_timeout() {
	echo "$1" > /sys/module/lnet_selftest/parameters/rpc_timeout ||
		fail "rpc_timeout $1"
	log "rpc_timeout $1 s"
}

# lnet_stat KEY: a counter of this node's "lnetctl stats show".
lnet_stat() {
	"$LNETCTL" stats show | awk -v k="$1:" '$1 == k { print $2 }'
}

# batch_idle NAME: wait until batch NAME has no test running.
batch_idle() {
	local i
	for ((i = 0; i < CMD_LIMIT * 2; i++)); do
		"$LST" query "$1" | grep -q "Batch is idle" && break
		nap 0.5
	done
	run query "$1"
	want "Batch is idle"
}

# grew KEY BEFORE MIN: this node's LNet counter KEY grew by MIN at least.
grew() {
	local now
	now=$(lnet_stat "$1")
	log "$1 grew by $((now - $2)) (want >= $3)"
	[ $((now - $2)) -ge "$3" ] || fail "$1 grew by $((now - $2)), want >= $3"
}

# brw_errors_of NODE: NODE's session brw errors (show_error), 0 if none.
brw_errors_of() {
	local n
	n=$("$LST" show_error "$1" 2>&1 |
	    sed -n 's/.*\[Session \([0-9]*\) brw errors.*/\1/p')
	echo "${n:-0}"
}

# rpcs_dropped_of NODE: NODE's RPCs dropped (show_error), 0 if none.
rpcs_dropped_of() {
	local n
	n=$("$LST" show_error "$1" 2>&1 |
	    sed -n 's/.*\[RPC: [0-9]* errors, \([0-9]*\) dropped.*/\1/p')
	echo "${n:-0}"
}

