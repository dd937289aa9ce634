# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the routed topologies' scenarios (tests/vm/routed.py,
# routed_pair.py): a, a client on tcp (eth0, link net0); r (and in
# routed_pair r2), a router on tcp (eth0, net0) and o2ib (rxe0 on eth1,
# net1); b, a server on o2ib (rxe0 on eth0, net1).
# Source it after guest-lib.sh:
#	. "$LNET_TOP/tests/vm/routed_lib.sh"
# It brings o2ib_lib.sh's helpers (and through it sock_lib.sh's lnet_test
# ones: lt, lt_ok, field, counter, target_expect, ping_ok, lnet_idle).

. "$LNET_TOP/tests/vm/o2ib_lib.sh"
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

T=/tmp/routed.$LNET_SCENARIO
mkdir -p "$T"

# The nodes' NIDs: a and r (r2) on tcp, r (r2) and b on o2ib.
A=${IP_a_net0:?}@tcp
R_TCP=${IP_r_net0:?}@tcp
R_O2IB=${IP_r_net1:?}@o2ib
B=${IP_b_net1:?}@o2ib
export A R_TCP R_O2IB B
if [ -n "${IP_r2_net0:-}" ]; then
	R2_TCP=${IP_r2_net0}@tcp
	R2_O2IB=${IP_r2_net1:?}@o2ib
	export R2_TCP R2_O2IB
fi

# routed_load [LNET_PARAM=VALUE...]: our modules (lnet.ko with the given
# parameters) and lnet_test, LNet configured with this node's NIs: tcp
# on a, tcp and o2ib on r, o2ib on b (its rxe0 ACTIVE first).  lnet_test
# serves (it is the target of the other end's PUTs and GETs).
routed_load() {
	case $LNET_NODE in
	r | r2) rxe_setup eth1 ;;
	b) rxe_setup eth0 ;;
	esac
	routed_insmod "$@"
	case $LNET_NODE in
	a) "$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp" ;;
	r | r2) "$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp"
	   "$LNETCTL" net add --net o2ib --if eth1 ||
		{ o2ib_diag; fail "net add o2ib --if eth1"; } ;;
	b) "$LNETCTL" net add --net o2ib --if eth0 ||
		{ o2ib_diag; fail "net add o2ib --if eth0"; } ;;
	*) fail "routed_load: no such node $LNET_NODE" ;;
	esac
	echo serve > "$RUN" || fail "serve"
}

# routed_insmod [LNET_PARAM=VALUE...]: debugfs mounted, our modules
# (lnet.ko with the given parameters) and lnet_test loaded, LNet
# configured with no NI yet.
routed_insmod() {
	local m
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	for m in $LNET_MODULES; do
		if [ "$m" = lnet/lnet.ko ]; then
			insmod "$LNET_MODDIR/$m" "$@" || fail "insmod $m $*"
		else
			insmod "$LNET_MODDIR/$m" || fail "insmod $m"
		fi
	done
	insmod "$LNET_MODDIR/lnettest/lnet_test.ko" || fail "insmod lnet_test"
	"$LNETCTL" lnet configure || fail "lnetctl lnet configure"
}

# routed_unload: the reverse of routed_load; rmmod fails on a leaked
# reference.
routed_unload() {
	sock_unload
}

# The lnet tracepoints (include/lnet/trace.h) a test may turn on.
TRACEFS=/sys/kernel/tracing

# routed_diag: what a failing routed test wants to see, on any node.
diag() {
	{
		echo "== nis"; cat /sys/kernel/debug/lnet/nis
		echo "== lnet stats"; cat /sys/kernel/debug/lnet/stats
		echo "== routes"; "$LNETCTL" route show -v
		echo "== routing"; "$LNETCTL" routing show
		echo "== peers"; "$LNETCTL" peer show -v 2
		echo "== target"; cat "$TARGET"
		[ "$LNET_NODE" = b ] || { echo "== ksocklnd"; cat "$KSTATS"; }
		[ "$LNET_NODE" = a ] || { echo "== ko2iblnd"; cat "$O2IB_STATS"; }
		echo "== peers (debugfs)"; cat /sys/kernel/debug/lnet/peers
		if [ "$(cat "$TRACEFS/events/lnet/enable" 2>/dev/null)" = 1 ]; then
			echo "== lnet trace"; grep -v '^#' "$TRACEFS/trace" | tail -60
		fi
		echo "== dmesg"; dmesg | tail -30
	} 2>&1 | sed "s/^/[$LNET_NODE] /"
}

# peer_del_retry PRIM SECONDS: "peer del --prim_nid PRIM", retried while
# the peer has messages in flight (EBUSY), for at most SECONDS.
peer_del_retry() {
	local i tries=$(($2 * 5))
	for ((i = 0; i < tries; i++)); do
		"$LNETCTL" peer del --prim_nid "$1" > "$T/del" 2>&1 && break
		grep -q "messages in flight" "$T/del" ||
			{ cat "$T/del"; fail "peer del $1"; }
		nap 0.2
	done
	[ "$i" -lt "$tries" ] ||
		{ cat "$T/del"; diag; fail "peer del $1: busy for $2 s"; }
	log "peer $1 deleted after $((i / 5)).$((i % 5 * 2)) s"
}

# routed_stat KEY: a counter of this node's "lnetctl stats show".
routed_stat() {
	local k v out
	out=$("$LNETCTL" stats show) || fail "stats show"
	while read -r k v; do
		[ "$k" = "$1:" ] && { echo "$v"; return 0; }
	done <<< "$out"
	fail "stats show: no $1"
}

# r_features_now: R_FEATURES is the feature bits of r's ping buffer as
# this node (a or b) sees them (lnet_test's ping on the common net, which also counts as
# a ping of r's NI there: routing spec 6.7).  0x1e: RTE_DISABLED set,
# 0x1a: clear (NI_STATUS|MULTI_RAIL|DISCOVERY).
r_features_now() {
	local gw
	case $LNET_NODE in
	a) gw=$R_TCP ;;
	b) gw=$R_O2IB ;;
	*) fail "r_features_now on $LNET_NODE" ;;
	esac
	lt_ok ping "$gw" 1
	R_FEATURES=$(field features)
}

# routing_enable: "enable:" of this node's "routing show" (spec 5.1: 0
# disabled, 1 enabled, 2 stopping, 3 starting).
routing_enable() {
	"$LNETCTL" routing show | sed -n 's/^[- ]*enable: //p'
}

# routing_wait N SECS: this node's routing reaches enable N within SECS
# seconds (polled every 0.2 s); the time it took is in $WAITED (tenths).
routing_wait() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		# shellcheck disable=SC2034 # read by the scenarios
		[ "$(routing_enable)" = "$1" ] && { WAITED=$((i * 2)); return 0; }
		nap 0.2
	done
	diag
	fail "routing not enable: $1 within $2 s"
}

# routes_first_line: the first line of debugfs "routes" (spec 9).
routes_first_line() {
	head -n 1 /sys/kernel/debug/lnet/routes
}

# r_features_wait WANT SECS: r's ping features (r_features_now, every
# 0.2 s) are WANT within SECS seconds.
r_features_wait() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		r_features_now
		[ "$R_FEATURES" = "$1" ] && return 0
		nap 0.2
	done
	fail "r's ping features $R_FEATURES after $2 s, want $1"
}

# route_state STATE SECS [TYPE]: this node's route shows "state: STATE"
# (and "type: TYPE") within SECS seconds.
route_state() {
	local want=$1 secs=$2 type=${3:-} i
	for ((i = 0; i < secs * 5; i++)); do
		"$LNETCTL" route show -v > "$T/route.v" || fail "route show -v"
		if grep -q "^ *state: $want\$" "$T/route.v" &&
			{ [ -z "$type" ] || grep -q "^ *type: $type\$" "$T/route.v"; }; then
			log "route $want${type:+ $type} after $((i / 5)).$((i % 5 * 2)) s"
			return 0
		fi
		nap 0.2
	done
	cat "$T/route.v"
	diag
	fail "route not $want${type:+ $type} after ${secs}s"
}
