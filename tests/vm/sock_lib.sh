# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the ksocklnd tests (tests/vm/sock_*.sh).  Source it after
# guest-lib.sh:
#	. "$LNET_TOP/tests/vm/sock_lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl
# shellcheck disable=SC2034 # used by the scripts that source this
HOSTILE=$LNET_TOP/build/utils/sock_hostile
RUN=/sys/kernel/debug/lnet_test/run
TARGET=/sys/kernel/debug/lnet_test/target
KSTATS=/sys/kernel/debug/ksocklnd/stats
ACR=/sys/kernel/debug/lnet/acceptor
# Seconds one lnet_test command may take before the test calls it hung.
CMD_LIMIT=${CMD_LIMIT:-120}
[ "$LNET_DEBUG_KERNEL" = 1 ] && CMD_LIMIT=$((CMD_LIMIT * 4))

# sock_load [KSOCKLND_PARAM=VALUE...]: load lnet (with the parameters in
# $LNET_KO_PARAMS), ksocklnd (with the given parameters) and lnet_test,
# and bring up a tcp NI on eth0.
sock_load() {
	local m
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	for m in $LNET_MODULES; do
		if [ "$(basename "$m")" = ksocklnd.ko ]; then
			insmod "$LNET_MODDIR/$m" "$@" || fail "insmod $m $*"
		elif [ "$(basename "$m")" = lnet.ko ]; then
			# shellcheck disable=SC2086 # one word per parameter
			insmod "$LNET_MODDIR/$m" ${LNET_KO_PARAMS:-} ||
				fail "insmod $m ${LNET_KO_PARAMS:-}"
		else
			insmod "$LNET_MODDIR/$m" || fail "insmod $m"
		fi
	done
	insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
	"$LNETCTL" net add --net tcp --if eth0 || fail "lnetctl net add tcp"
}

# sock_unload: the reverse of sock_load; rmmod fails on a leaked reference.
sock_unload() {
	echo unserve > "$RUN" || fail "unserve"
	rmmod lnet_test || fail "rmmod lnet_test"
	"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
	lnet_unload
}

# nid_of NODE: NODE's tcp NID.
nid_of() {
	local ip_var=IP_${1}_net0
	echo "${!ip_var}@tcp"
}

# peers: the other nodes.
peers() {
	local n
	for n in $LNET_NODES; do
		[ "$n" != "$LNET_NODE" ] && echo "$n"
	done
	return 0
}

# diag: what a failing test wants to see.
diag() {
	{
		echo "== ksocklnd"; cat "$KSTATS"
		echo "== acceptor"; cat "$ACR"
		echo "== nis"; cat /sys/kernel/debug/lnet/nis
		echo "== lnet stats"; cat /sys/kernel/debug/lnet/stats
		echo "== lnet_test slots"; cat /sys/kernel/debug/lnet_test/slots
		echo "== target"; cat "$TARGET"
		ss -tan
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

# An lnet_test command's background writer ends by writing its exit
# status to this FIFO: lt_wait wakes the moment the command is done
# instead of polling (a poll, and the latency it adds, cost under TCG).
LT_FIFO=/tmp/.lnet-lt.$$
mkfifo "$LT_FIFO"
exec {LT_FD}<>"$LT_FIFO"
rm -f "$LT_FIFO"

# lt_start CMD...: start one lnet_test command in the background.
lt_start() {
	LT_CMD="$*"
	(
		if echo "$*" > "$RUN"; then rc=0; else rc=1; fi
		echo "$rc" >&"$LT_FD"
	) 2>/dev/null &
	LT_PID=$!
}

# lt_wait: wait for it, at most CMD_LIMIT seconds (a hang dumps the
# blocked tasks and fails).  The result line is in $RESULT, the write's
# exit status in $LT_RC.
lt_wait() {
	if ! read -r -t "$CMD_LIMIT" -u "$LT_FD" LT_RC; then
		diag
		echo w > /proc/sysrq-trigger
		dmesg | tail -80
		fail "lnet_test '$LT_CMD' still running after ${CMD_LIMIT}s"
	fi
	wait "$LT_PID" || true
	read -r RESULT < "$RUN" || true
	log "$LT_CMD -> $RESULT"
}

# lt CMD...: run one lnet_test command (lt_start + lt_wait).
lt() {
	lt_start "$@"
	lt_wait
}

# lt_ok CMD...: as lt, and every operation must have succeeded.
lt_ok() {
	lt "$@"
	[ "$LT_RC" = 0 ] && [ "$(field errors)" = 0 ] ||
		{ diag; fail "'$*' failed: $RESULT"; }
}

# field KEY [LINE]: the value of KEY= in LINE (default $RESULT).
field() {
	local line=" ${2:-$RESULT} " v
	v=${line#* "$1"=}
	[ "$v" = "$line" ] || echo "${v%% *}"
}

# target_expect PUTS: as the target of the other nodes' lnet_test PUTs,
# exactly PUTS landed since "serve", every one intact (lnet_test checks
# each byte as it lands): the receiver's verdict on the data it was sent.
target_expect() {
	local t
	t=$(cat "$TARGET")
	[ "$(field puts "$t")" = "$1" ] && [ "$(field bad "$t")" = 0 ] &&
		[ "$(field failed "$t")" = 0 ] &&
		[ "$(field overlap "$t")" = 0 ] ||
		{ diag; fail "target: want $1 PUTs landed intact: $t"; }
	log "target: $1 PUTs landed intact"
}

# counter FILE NAME: a "name value" counter.
counter() {
	local name value _
	while read -r name value _; do
		[ "$name" = "$2" ] && { echo "$value"; return 0; }
	done < "$1"
	return 0
}

# lnet_idle [SECONDS]: wait (default 20 s) until no LNet message is
# allocated on this node: every one was finalized.
lnet_idle() {
	local i alloc
	for ((i = 0; i < ${1:-20} * 5; i++)); do
		read -r alloc _ < /sys/kernel/debug/lnet/stats
		[ "$alloc" = 0 ] && return 0
		nap 0.2
	done
	diag
	fail "$alloc LNet messages still allocated"
}

# ping_ok NID [TRIES]: lnetctl ping NID, retrying (a peer that just came
# back may need a reconnect first).
ping_ok() {
	local i tries=${2:-1}
	for ((i = 1; i <= tries; i++)); do
		"$LNETCTL" ping "$1" > /dev/null 2>&1 && {
			log "lnetctl ping $1: OK (try $i)"
			return 0
		}
		nap 2
	done
	"$LNETCTL" ping "$1" || true
	diag
	fail "lnetctl ping $1 failed $tries times"
}

# reuse_check NID COUNT [NETEM]: PUTs of 1 B to 1 MiB (COUNT of each size)
# whose sources are page arrays that lnet_test overwrites the moment each
# SEND event arrives (scribble), as a caller reusing its buffer would,
# over a link that delays, reorders and loses packets (netem on eth0,
# NETEM its parameters), both nodes at once.  An LND that completes a
# send while it, TCP or the HCA still reads those pages puts other bytes
# on the wire: the receiver's check of every byte counts them
# (target_expect).
reuse_check() {
	local nid=$1 count=$2 netem=${3:-delay 4ms 2ms loss 1% reorder 10%}
	local size n=0 p=/sys/module/lnet_test/parameters
	{ echo unserve > "$RUN" && echo serve > "$RUN"; } || fail "re-serve"
	barrier reuse-serve 600
	# shellcheck disable=SC2086 # netem's parameters, split on purpose
	tc qdisc add dev eth0 root netem $netem || fail "netem $netem on eth0"
	echo 0 > $p/buf_offset && echo Y > $p/src_pages &&
		echo Y > $p/scribble || fail "lnet_test params"
	for size in 1 4095 16383 16384 65536 1048576; do
		lt_ok put "$nid" "$size" "$count" 4
		n=$((n + count))
	done
	echo N > $p/src_pages && echo N > $p/scribble || fail "lnet_test params"
	tc qdisc del dev eth0 root || fail "netem off eth0"
	barrier reuse-done 600
	target_expect "$n"
	log "buffers reused at their SEND event: $n PUTs landed intact"
}
