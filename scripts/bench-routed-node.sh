#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Node script of the routed benchmark (scripts/bench_routed.py), on the
# routed topology (tests/vm/routed.py): a on tcp, r routing between tcp
# and o2ib (soft-RoCE), b on o2ib.  In one boot, BENCH_RUNS runs of each,
# the same traffic unrouted (each hop alone) and routed (through r), so
# that a ratio says what the hop through a router costs:
#
#  hop_tcp    a -> r 1 MiB PUTs over ksocklnd (8 in flight)
#  hop_o2ib   b -> r 1 MiB PUTs over ko2iblnd
#  rt_ab      a -> b 1 MiB PUTs through r (tcp in, o2ib out)
#  rt_ba      b -> a 1 MiB PUTs through r (o2ib in, tcp out)
#  rt_get     a <- b 1 MiB GETs through r (the REPLY: o2ib in, tcp out)
#  small_ar   a -> r 0-byte PUTs (64 in flight): messages/s unrouted
#  small_ab   a -> b 0-byte PUTs through r
#  ping_ar, ping_ab   LNet pings (one at a time), unrouted and routed
#
# and the raw links in the same boot: iperf3 a -> r, ib_write_bw b -> r.
# Each node writes the "kind elapsed_ns count" lines of what it measured
# to $RESULTS/bench.txt.  lnet_test neither writes nor checks patterns
# (as scripts/bench-node.sh).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/routed_lib.sh"

RUNS=${BENCH_RUNS:-5}
SECONDS_PER_RUN=${BENCH_SECONDS:-5}
PUTS=${BENCH_PUTS:-64}
SMALL=${BENCH_SMALL:-3000}
PINGS=${BENCH_PINGS:-300}
OUT=${RESULTS:?}/bench.txt
: > "$OUT"

# put_runs KIND NID SIZE COUNT CONC: RUNS runs of lnet_test PUTs.
put_runs() {
	local r
	lt_ok put "$2" "$3" 8 8		# warm: connections and credits
	for ((r = 1; r <= RUNS; r++)); do
		lt_ok put "$2" "$3" "$4" "$5"
		echo "$1 $(field elapsed_ns) $4" >> "$OUT"
	done
}

# get_runs KIND NID COUNT: RUNS runs of 1 MiB GETs, 8 in flight.
get_runs() {
	local r
	for ((r = 1; r <= RUNS; r++)); do
		lt_ok get "$2" 1048576 "$3" 8
		echo "$1 $(field elapsed_ns) $3" >> "$OUT"
	done
}

# ping_runs KIND NID: RUNS runs of PINGS LNet pings.
ping_runs() {
	local r
	for ((r = 1; r <= RUNS; r++)); do
		lt_ok ping "$2" "$PINGS"
		echo "$1 $(field elapsed_ns) $PINGS" >> "$OUT"
	done
}

# The raw links: iperf3 a -> r over eth0, ib_write_bw b -> r over rxe.
bench_raw() {
	local r bps mibs try
	case $LNET_NODE in
	r)	iperf3 -s > /tmp/iperf3.log 2>&1 &
		echo $! > /tmp/iperf3.pid ;;
	esac
	barrier iperf3-ready
	if [ "$LNET_NODE" = a ]; then
		for ((r = 0; r < 50; r++)); do
			iperf3 -c "$IP_r_net0" -t 1 > /dev/null 2>&1 && break
			sleep 0.2
		done
		for ((r = 1; r <= RUNS; r++)); do
			bps=$(iperf3 -c "$IP_r_net0" -t "$SECONDS_PER_RUN" -J |
			      python3 -c 'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))')
			echo "iperf3_bps $bps" >> "$OUT"
			log "iperf3 a -> r run $r: $((bps / 8 / 1048576)) MiB/s"
		done
	fi
	barrier iperf3-done 1800
	[ "$LNET_NODE" = r ] && kill "$(cat /tmp/iperf3.pid)"
	local ibw=(ib_write_bw -d "$RXE" -R -F -s 1048576 -D "$SECONDS_PER_RUN")
	for ((r = 1; r <= RUNS; r++)); do
		if [ "$LNET_NODE" = a ]; then	# barriers are every node's
			barrier "ibw-$r"
			barrier "ibw-done-$r" 600
			continue
		fi
		if [ "$LNET_NODE" = r ]; then
			timeout $((SECONDS_PER_RUN + 120)) "${ibw[@]}" > "/tmp/ibw.$r" 2>&1 &
			barrier "ibw-$r"
			wait $! || log "ib_write_bw server run $r: exit $?"
			barrier "ibw-done-$r" 600
			continue
		fi
		barrier "ibw-$r"
		mibs=
		for ((try = 1; try <= 10 && !${#mibs}; try++)); do
			sleep 1		# the server may still be starting
			mibs=$(timeout $((SECONDS_PER_RUN + 60)) "${ibw[@]}" "$IP_r_net1" \
				2> /tmp/ibw.err | awk '$1 == 1048576 && NF >= 5 { print $4 }') || true
		done
		[ -n "$mibs" ] || { cat /tmp/ibw.err; fail "ib_write_bw run $r gave no result"; }
		echo "ibwrite_mibps $mibs" >> "$OUT"
		log "ib_write_bw b -> r run $r: $mibs MiB/s"
		barrier "ibw-done-$r" 600
	done
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
case $LNET_NODE in
r) rxe_setup eth1 ;;
b) rxe_setup eth0 ;;
esac
bench_raw
barrier raw-done 1800

# LNet: a and b check r every 2 s; r routes (set routing 1, its W made
# 3 s so that it ENABLEs at once, spec 5.1) with 64 large buffers (stock's
# 1024, 1 GiB, is more than the guest has; 8 PUTs are in flight at most).
if [ "$LNET_NODE" = r ]; then
	routed_load alive_router_check_interval=2 large_router_buffers=64
else
	routed_load alive_router_check_interval=2
fi
echo 0 > /sys/module/lnet_test/parameters/check
case $LNET_NODE in
a) "$LNETCTL" route add --net o2ib --gateway "$R_TCP" || fail "route add" ;;
b) "$LNETCTL" route add --net tcp --gateway "$R_O2IB" || fail "route add" ;;
r) echo 1 > /sys/module/lnet/parameters/router_ping_timeout
   "$LNETCTL" set routing 1 || fail "set routing 1"
   routing_wait 1 60
   echo 50 > /sys/module/lnet/parameters/router_ping_timeout ;;
esac
barrier lnet-up
[ "$LNET_NODE" = r ] || route_state up 120
barrier routes-up

# Unrouted: each hop alone, one at a time.
[ "$LNET_NODE" = a ] && put_runs hop_tcp "$R_TCP" 1048576 "$PUTS" 8
barrier hop-tcp-done 1800
[ "$LNET_NODE" = b ] && put_runs hop_o2ib "$R_O2IB" 1048576 "$PUTS" 8
barrier hop-o2ib-done 1800
if [ "$LNET_NODE" = a ]; then
	put_runs small_ar "$R_TCP" 0 "$SMALL" 64
	ping_runs ping_ar "$R_TCP"
fi
barrier small-unrouted-done 1800

# Routed.
[ "$LNET_NODE" = a ] && put_runs rt_ab "$B" 1048576 "$PUTS" 8
barrier rt-ab-done 1800
[ "$LNET_NODE" = b ] && put_runs rt_ba "$A" 1048576 "$PUTS" 8
barrier rt-ba-done 1800
if [ "$LNET_NODE" = a ]; then
	get_runs rt_get "$B" "$PUTS"
	put_runs small_ab "$B" 0 "$SMALL" 64
	ping_runs ping_ab "$B"
fi
barrier routed-done 1800
if [ "$LNET_NODE" = r ]; then
	"$LNETCTL" stats show | grep -E "route_(count|length)|drop_count" |
		sed 's/^ */r: /' >> "$OUT"
	"$LNETCTL" routing show >> "$RESULTS/routing-show.txt"
fi
lnet_idle 60
barrier idle 600
routed_unload
log "routed bench done"
