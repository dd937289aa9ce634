#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of a test VM.  The root is the host's / over 9p, read-only; this
# mounts the pseudo filesystems and a writable /tmp, joins the shared run
# directory, brings up the NICs, runs the node's script and powers off.
# The script's exit status lands in /tmp/shared/<node>/rc.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
for d in /tmp /run /var/tmp /var/log /dev/shm; do
	mount -t tmpfs tmpfs "$d"
done
mount -t debugfs debugfs /sys/kernel/debug
# Without its own /proc the guest would see the host's through the 9p
# root: stop right here rather than run a test against the wrong kernel.
if [ ! -e /proc/sys/kernel/sysrq ]; then
	echo "LNET-TEST: FATAL: /proc did not mount"
	exit 1
fi
mkdir -p /tmp/shared
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 shared /tmp/shared

# Milestones go through the kernel log so the console shows when they
# happened, next to the kernel's own messages.
mark() {
	echo "LNET-TEST: $*" > /dev/kmsg
}

# As guest-lib.sh's pid_mark (report.py counts each phase's processes).
pid_mark() {
	local _a _b _c _d last
	read -r _a _b _c _d last < /proc/loadavg
	mark "$node pid $last"
}

node=${LNET_NODE:?LNET_NODE missing from the kernel command line}
RESULTS=/tmp/shared/$node
export RESULTS
set -a
# shellcheck disable=SC1090,SC1091
. "$RESULTS/node.env"
set +a

# Debian's kernel has the RDMA stack and netem as modules and this PID 1
# has no udev: load what ko2iblnd, soft-RoCE, ib_write_bw and tc need.
# A missing prerequisite fails the node: its script does not run.
setup_failed=""
if [ "$LNET_FLAVOUR" = distro ]; then
	modprobe -a ib_core rdma_cm ib_uverbs rdma_ucm rdma_rxe sch_netem ||
		setup_failed="modprobe of the RDMA stack and netem failed"
fi

hostname "$node"
ip link set lo up
for nic in $LNET_NICS; do
	dev=${nic%%=*}
	ip addr add "${nic#*=}" dev "$dev"
	ip link set "$dev" mtu "$LNET_MTU" up
done
if [ -n "$LNET_RXE" ]; then
	rdma link add rxe0 type rxe netdev "$LNET_RXE" ||
		setup_failed="rdma link add on $LNET_RXE failed"
fi

sysctl -q -w kernel.hung_task_timeout_secs=60
sysctl -q -w kernel.panic_on_oops=0

# Our modules (as /proc/modules names them): a scenario must leave none
# of them loaded.
OUR_MODULES="lnet_selftest lnet_test lnet_nidmap ko2iblnd ksocklnd lnet_health lnet"
# A read with a timeout on a FIFO that never has data: a sleep that
# starts no process (a process costs ~0.2 s under TCG).
mkfifo /tmp/.init-nap
exec {nap_fd}<>/tmp/.init-nap

# scenario_barrier NAME: wait until every node starts scenario NAME, so
# that no node's traffic reaches another still finishing the scenario
# before.  Returns 1 if another node failed or after 600 s.  Not
# guest-lib.sh's barrier: its fail exits, and PID 1 must not.
scenario_barrier() {
	local f n tries=0 nodes
	read -r -a nodes <<< "$LNET_NODES"
	: > "/tmp/shared/.scenario.$1.$node"
	while :; do
		n=0
		for f in "${nodes[@]}"; do
			[ -e "/tmp/shared/.scenario.$1.$f" ] && n=$((n + 1))
		done
		[ "$n" = "${#nodes[@]}" ] && return 0
		for f in /tmp/shared/.failed.*; do
			[ -e "$f" ] && return 1
		done
		[ $tries -ge 6000 ] && return 1
		read -r -t 0.1 -u "$nap_fd" _ || true
		tries=$((tries + 1))
	done
}

# run_scenarios: run the node's scripts ($LNET_SCRIPT, one or more) one
# after another, each a scenario of the topology with its own shared
# directory (guest-lib.sh's SHARED), until one fails.  Between them no
# module of ours may be loaded: each scenario starts as after a boot.
run_scenarios() {
	local script scen rc m _
	for script in $LNET_SCRIPT; do
		scen=${script##*/}
		scen=${scen%.sh}
		scenario_barrier "$scen" || {
			mark "$node FATAL: scenario $scen: another node failed or never came"
			return 1
		}
		pid_mark
		mark "$node scenario $scen"
		mkdir -p "/tmp/shared/scenario.$scen"
		(cd /tmp && LNET_SCENARIO=$scen bash -e "$script")
		rc=$?
		[ "$rc" = 0 ] || return "$rc"
		while read -r m _; do
			if [[ " $OUR_MODULES " == *" $m "* ]]; then
				mark "$node FATAL: scenario $scen left $m loaded"
				return 1
			fi
		done < /proc/modules
	done
	return 0
}

kmemleak=/sys/kernel/debug/kmemleak
# Whatever boot left behind is not the test's leak.
if [ "${LNET_DEBUG_KERNEL:-0}" = 1 ]; then
	echo clear > $kmemleak || setup_failed="kmemleak is not active"
	# No automatic scans while the scenarios run (each takes ~10 s of
	# the only CPU under TCG, every 10 minutes): the two scans at the
	# end find any leak of the whole boot.
	echo scan=off > $kmemleak || setup_failed="kmemleak refused scan=off"
fi
mark "$node up"

if [ -n "${LNET_SHELL:-}" ]; then
	echo "LNET-TEST: shell on $node; helpers: . \$LNET_TOP/tests/harness/guest-lib.sh"
	export LNET_SCENARIO=shell
	mkdir -p /tmp/shared/scenario.shell
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
elif [ -n "$setup_failed" ]; then
	mark "$node FATAL: $setup_failed"
	rc=1
else
	run_scenarios
	rc=$?
fi
pid_mark
mark "$node script exit $rc"
# The other nodes' barriers stop waiting for this one (guest-lib.sh).
[ "$rc" = 0 ] || touch "/tmp/shared/.failed.$node"

if [ "${LNET_DEBUG_KERNEL:-0}" = 1 ]; then
	# A leaked object is reported by the second scan that finds it
	# unreferenced and unchanged (the first one only records its
	# checksum), and only once it is 5 s old: scan, let 6 s pass since
	# the script ended (the first scan takes most of them under TCG),
	# scan again, and copy any report to the console where the harness
	# looks for it.  The harness wants the "scan done" line: without it
	# (kmemleak missing or disabled, a write refused) "no report"
	# proves nothing.
	end=$SECONDS
	mark "$node kmemleak scan"
	if echo scan > $kmemleak; then
		wait_s=$((end + 6 - SECONDS))
		[ "$wait_s" -le 0 ] || read -r -t "$wait_s" -u "$nap_fd" _
	fi
	if echo scan > $kmemleak; then
		cat $kmemleak
		mark "$node kmemleak scan done"
	else
		mark "$node kmemleak scan FAILED"
	fi
	# Lockdep switches itself off at its first report and when it runs
	# out of room: from then on "no lockdep report" proves nothing.  The
	# harness wants the "lockdep live" line.
	locks=$(grep -E '^ *debug_locks:' /proc/lockdep_stats 2>&1)
	if [[ "$locks" =~ ^\ *debug_locks:\ +1$ ]]; then
		mark "$node lockdep live"
	else
		mark "$node lockdep DEAD: ${locks:-no debug_locks in /proc/lockdep_stats}"
	fi
fi

dmesg > "$RESULTS/dmesg.txt"
echo "$rc" > "$RESULTS/rc"
sync
# The power-off runs in a kernel worker and takes the 9p root away while
# it does: no command can be started from here on ("sleep: command not
# found", then init exits and the kernel panics: "Attempted to kill
# init").  Wait with a builtin on the FIFO already open; should the
# power-off not come, init's exit (panic=-1) still ends QEMU.
echo o > /proc/sysrq-trigger
read -r -t 30 -u "$nap_fd" _
