# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the ko2iblnd tests (tests/vm/o2ib_*.sh) and the o2ib part of
# the benchmark, on soft-RoCE (rdma_rxe) over the VMs' virtio NICs.
# Source it after guest-lib.sh:
#	. "$LNET_TOP/tests/vm/o2ib_lib.sh"
# It brings sock_lib.sh's lnet_test helpers (lt, lt_ok, lt_start, lt_wait,
# field, counter, peers, ping_ok) and replaces nid_of and diag with
# their o2ib forms; sock_load and sock_unload stay usable, so one boot can
# run both LNDs one after the other.

. "$LNET_TOP/tests/vm/sock_lib.sh"

O2IB_KO=lnd/o2ib/ko2iblnd.ko
O2IB_MODULES="lnet/lnet.ko health/lnet_health.ko $O2IB_KO"
O2IB_STATS=/sys/kernel/debug/ko2iblnd/stats
O2IB_CONNS=/sys/kernel/debug/ko2iblnd/conns
RXE=rxe0

# rxe_setup [NETDEV] [SECONDS]: soft-RoCE device $RXE on NETDEV (default
# eth0; the harness may have made it already, see vm.Node.rxe), then wait
# until its port is ACTIVE and user-space verbs see it.  rxe takes the
# RoCE MTU from the netdev's: 4096 on the debug kernel's 9000-byte
# links, 1024 on 1500-byte ones (the distro kernel's, the benchmark's:
# vm.Node.mtu).
rxe_setup() {
	local dev=${1:-eth0} limit=${2:-30} i
	ip link set "$dev" up
	if ! rdma link show "$RXE/1" > /dev/null 2>&1; then
		rdma link add "$RXE" type rxe netdev "$dev" ||
			fail "rdma link add $RXE type rxe netdev $dev"
	fi
	for ((i = 0; i < limit * 5; i++)); do
		rdma link show "$RXE/1" 2>/dev/null | grep -q 'state ACTIVE' &&
			ibv_devices 2>/dev/null | grep -qw "$RXE" && break
		nap 0.2
	done
	rdma link show "$RXE/1" | grep -q 'state ACTIVE' || {
		rdma link show || true
		fail "$RXE on $dev not ACTIVE after ${limit}s"
	}
	ibv_devices | grep -qw "$RXE" || fail "ibv_devices does not list $RXE"
	log "$(rdma link show "$RXE/1"), $(ibv_devinfo -d "$RXE" |
		awk '$1 == "active_mtu:" { print "active_mtu " $2 }')"
}

# rxe_remove: delete the soft-RoCE device (the RDMA "link down").
rxe_remove() {
	rdma link delete "$RXE" || fail "rdma link delete $RXE"
}

# o2ib_built: true if ko2iblnd.ko was built for the running kernel.
o2ib_built() {
	[ -f "$LNET_MODDIR/$O2IB_KO" ]
}

# o2ib_load [KO2IBLND_PARAM=VALUE...]: load lnet, ko2iblnd (with the given
# parameters) and lnet_test, and bring up an o2ib NI on eth0 ($RXE must
# be up: rxe_setup), with the lnetctl net add options in $O2IB_NET_OPTS.
o2ib_load() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	o2ib_built || fail "$O2IB_KO is not built (no ko2iblnd in this tree?)"
	insmod "$LNET_MODDIR/lnet/lnet.ko" || fail "insmod lnet.ko"
	insmod "$LNET_MODDIR/health/lnet_health.ko" || fail "insmod lnet_health.ko"
	insmod "$LNET_MODDIR/$O2IB_KO" "$@" || fail "insmod ko2iblnd.ko $*"
	insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
	# shellcheck disable=SC2086 # options, word-split on purpose
	"$LNETCTL" net add --net o2ib --if eth0 ${O2IB_NET_OPTS:-} ||
		{ o2ib_diag; fail "lnetctl net add --net o2ib --if eth0 ${O2IB_NET_OPTS:-}"; }
}

# o2ib_unload: the reverse of o2ib_load; rmmod fails on a leaked reference.
o2ib_unload() {
	echo unserve > "$RUN" || fail "unserve"
	rmmod lnet_test || fail "rmmod lnet_test"
	"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
	LNET_MODULES=$O2IB_MODULES lnet_unload
}

# nid_of NODE: NODE's o2ib NID.
nid_of() {
	local ip_var=IP_${1}_net0
	echo "${!ip_var}@o2ib"
}

# o2ib_diag: what a failing o2ib test wants to see.
o2ib_diag() {
	{
		echo "== ko2iblnd"; cat "$O2IB_STATS"
		echo "== connections"; cat "$O2IB_CONNS"
		echo "== nis"; cat /sys/kernel/debug/lnet/nis
		echo "== lnet stats"; cat /sys/kernel/debug/lnet/stats
		echo "== lnet_test slots"; cat /sys/kernel/debug/lnet_test/slots
		echo "== target"; cat "$TARGET"
		echo "== rdma"; rdma link show; rdma resource show
		echo "== neighbours"; ip neigh show dev eth0
		echo "== dmesg"; dmesg | tail -30
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

diag() {
	o2ib_diag
}

# o2ib_counters: ko2iblnd's counters on one line (for the log).
o2ib_counters() {
	tr '\n' ' ' < "$O2IB_STATS" 2>/dev/null || echo "(no $O2IB_STATS)"
}

# o2ib_keepalive_check [WHAT]: with keepalive=1 (seconds) for 6 s, an
# idle connection sends a keepalive NOOP about once a second and the peer
# receives them: at least 2 each way (run on both nodes at once).
o2ib_keepalive_check() {
	local what=${1:-} ka0 ka1 rcvd0 rcvd1
	ka0=$(counter "$O2IB_STATS" keepalives)
	rcvd0=$(counter "$O2IB_STATS" noops_rcvd)
	echo 1 > /sys/module/ko2iblnd/parameters/keepalive
	nap 6
	echo 100 > /sys/module/ko2iblnd/parameters/keepalive
	ka1=$(counter "$O2IB_STATS" keepalives)
	rcvd1=$(counter "$O2IB_STATS" noops_rcvd)
	log "${what}idle 6 s with keepalive=1: keepalives $ka0 -> $ka1, noops_rcvd $rcvd0 -> $rcvd1"
	[ "$ka1" -ge $((ka0 + 2)) ] ||
		fail "${what}keepalive NOOPs sent: $ka0 -> $ka1"
	[ "$rcvd1" -ge $((rcvd0 + 2)) ] ||
		fail "${what}keepalive NOOPs received: $rcvd0 -> $rcvd1"
}

# rdma_resources: "qp N cq N mr N pd N" of every RDMA device (soft-RoCE
# counts what the kernel holds: a leak shows here).
rdma_resources() {
	local out
	out=$(rdma resource show) || fail "rdma resource show failed"
	out=$(echo "$out" |
		awk '{ for (i = 3; i < NF; i += 2) printf "%s %s ", $i, $(i + 1) }')
	case "$out" in
	*qp*) echo "$out" ;;
	*) fail "rdma resource show: no qp count: '$out'" ;;
	esac
}

