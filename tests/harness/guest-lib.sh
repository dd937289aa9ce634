# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for node scripts running inside a test VM.  Source it:
#	. "$LNET_TOP/tests/harness/guest-lib.sh"
# Environment from the harness: LNET_NODE, LNET_NODES, LNET_MODDIR,
# RESULTS (this node's results directory), IP_<node>_<link>.

# The nodes' shared directory: one per scenario (guest-init.sh), so that
# the files and barriers of one never meet those of another in one boot.
SHARED=/tmp/shared/scenario.${LNET_SCENARIO:?run by guest-init.sh}

# Under TCG a process costs ~0.1 s to start (0.2 s on the debug kernel):
# the helpers here use shell builtins where they can, and nap replaces
# sleep.  nap reads, with a timeout, from a FIFO that never has data.
LNET_NAP_FIFO=/tmp/.lnet-nap.$$
mkfifo "$LNET_NAP_FIFO"
exec {LNET_NAP_FD}<>"$LNET_NAP_FIFO"

# nap SECONDS: sleep without starting a process.
nap() {
	read -r -t "$1" -u "$LNET_NAP_FD" _ || true
}

# running PID: the process has not exited.  Not kill -0: a child that
# exited stays a zombie until bash reaps it, which a loop of builtins
# (nap) may never make it do, and kill -0 succeeds on a zombie (an
# "rdma link delete" that had ended was once waited for 490 s).
running() {
	local st
	read -r st 2>/dev/null < "/proc/$1/stat" || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}

log() {
	echo "[$LNET_NODE] $*"
}

# timed LIMIT WHAT CMD...: run CMD, which must succeed in under LIMIT
# seconds; if it takes longer the blocked tasks are dumped (sysrq w) so
# the log shows where it hangs, and the test fails.
timed() {
	local limit=$1 what=$2 t0=$SECONDS pid i
	shift 2
	"$@" &
	pid=$!
	for ((i = 0; i < limit * 10; i++)); do
		running $pid || break
		nap 0.1
	done
	if running $pid; then
		echo w > /proc/sysrq-trigger
		dmesg | tail -150
	fi
	wait $pid || fail "$what failed"
	[ $((SECONDS - t0)) -lt "$limit" ] ||
		fail "$what took $((SECONDS - t0)) s"
	log "$what: $((SECONDS - t0)) s"
}

fail() {
	echo "[$LNET_NODE] FAIL: $*" >&2
	exit 1
}

# Our modules in dependency order, as built for the running kernel.
LNET_MODULES="lnet/lnet.ko health/lnet_health.ko lnd/sock/ksocklnd.ko lnd/o2ib/ko2iblnd.ko"

lnet_load() {
	local m
	for m in $LNET_MODULES; do
		insmod "$LNET_MODDIR/$m" "$@" || fail "insmod $m"
	done
}

# nidmap_insmod [PARAM=VALUE...]: load lnet_nidmap, and first the
# kernel's dns_resolver it uses (nidmap's DNS backend): a module on
# Debian's kernel, built in on the debug one (/sys/module shows both).
nidmap_insmod() {
	[ -d /sys/module/dns_resolver ] || modprobe dns_resolver ||
		fail "modprobe dns_resolver"
	insmod "$LNET_MODDIR/nidmap/lnet_nidmap.ko" "$@" ||
		fail "insmod lnet_nidmap $*"
}

# module_loaded NAME: NAME is in /proc/modules.
module_loaded() {
	local name _
	while read -r name _; do
		[ "$name" = "$1" ] && return 0
	done < /proc/modules
	return 1
}

# Our modules that use lnet and that a scenario loads only for itself
# (lnet_load does not): lnet_unload unloads them first if loaded, so
# that a test which does not know them can still unload lnet.
LNET_USER_MODULES="lnet_nidmap"

lnet_unload() {
	local m i lnet_mods=()
	for m in $LNET_USER_MODULES; do
		if module_loaded "$m"; then
			rmmod "$m" || fail "rmmod $m"
		fi
	done
	read -r -a lnet_mods <<< "$LNET_MODULES"
	for ((i = ${#lnet_mods[@]} - 1; i >= 0; i--)); do
		m=${lnet_mods[i]##*/}
		m=${m%.ko}
		if module_loaded "$m"; then
			rmmod "$m" || fail "rmmod $m"
		fi
	done
}

# hook_taken FILE SECONDS: wait until the code under test takes a one-shot
# test hook (a debugfs value it resets to 0 when it acts on it).
hook_taken() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ "$(cat "$1")" = 0 ] && return 0
		nap 0.1
	done
	return 1
}

# link_set IFACE up|down: QEMU restores or cuts this node's link IFACE,
# as a cable plugged or pulled: the guest sees its carrier come or go and
# nothing passes while it is down (tests/harness/qmp.py: QMP set_link).
# Unlike "ip link set down", the interface stays administratively up.
LINK_SEQ=0
link_set() {
	local req i reply
	LINK_SEQ=$((LINK_SEQ + 1))
	req="$RESULTS/link.$LNET_SCENARIO.$LINK_SEQ"
	echo "$1 $2" > "$req.tmp"
	mv "$req.tmp" "$req.req"
	for ((i = 0; i < 100; i++)); do
		[ -e "$req.done" ] && break
		nap 0.1
	done
	[ -e "$req.done" ] || fail "link_set $1 $2: no answer from the harness in 10 s"
	read -r reply < "$req.done"
	[ "$reply" = ok ] || fail "link_set $1 $2: $reply"
}

# pid_mark: the last process id handed out, for report.py to count the
# processes of each phase (each costs ~0.2 s on the debug kernel).
# Builtins only: it must not start a process of its own.
pid_mark() {
	local _a _b _c _d last
	read -r _a _b _c _d last < /proc/loadavg
	echo "LNET-TEST: $LNET_NODE pid $last" > /dev/kmsg
}

# phase NAME: the node's next phase starts here.  The harness times and
# reports each phase on its own (tests/harness/report.py): it ends where
# the next one starts, or with the script, whose exit status judges it.
# Use one name per step that can fail on its own: "ping", "bulk_put", ...
phase() {
	# report.py reads one word: a name with a space would be lost.
	case $1 in
	"" | *[[:space:]]*) fail "phase name '$1': one word, please" ;;
	esac
	pid_mark
	echo "LNET-TEST: $LNET_NODE phase $1" > /dev/kmsg
	log "phase $1"
}

# barrier NAME [TIMEOUT]: wait until every node of the test reached NAME.
# Fails at once when another node's script has failed (guest-init.sh
# leaves .failed.<node>), instead of waiting out the timeout, after the
# scenario's diag (if it has one) showed this node's state.
barrier() {
	local name=$1 timeout=${2:-300} n want waited=0 f nodes arrived
	read -r -a nodes <<< "$LNET_NODES"
	want=${#nodes[@]}
	: > "$SHARED/.barrier.$name.$LNET_NODE"
	while :; do
		arrived=("$SHARED/.barrier.$name".*)
		n=${#arrived[@]}
		[ "$n" -ge "$want" ] && return 0
		for f in /tmp/shared/.failed.*; do
			[ -e "$f" ] || continue
			# This node's side of what failed there, if the
			# scenario knows how to show it.
			if declare -F diag > /dev/null; then
				diag || true
			fi
			fail "barrier $name: node ${f##*.failed.} failed"
		done
		[ $waited -ge $((timeout * 10)) ] && fail "barrier $name: $n/$want"
		nap 0.1
		waited=$((waited + 1))
	done
}
