#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The routed benchmark (make bench-routed, part of make bench): three VMs
on Debian's kernel, the routed topology of tests/vm/routed.py (a on tcp,
r routing tcp <-> o2ib on soft-RoCE, b on o2ib).

In one boot: iperf3 a -> r and ib_write_bw b -> r (the raw links), then
LNet 1 MiB PUT bandwidth of each hop alone (a -> r over ksocklnd, b -> r
over ko2iblnd), through r both ways (a -> b, b -> a) and 1 MiB GETs
a <- b through r, 0-byte PUT and ping rates a -> r and a -> b; several
runs each (scripts/bench-routed-node.sh).  Prints the medians and the
ratios of routed to unrouted figures.  Three one-vCPU VMs share the
host's cores, so routed figures also pay for r's CPU: compare them with
the unrouted ones of the same boot only.  See Documentation/benchmark.rst.

    scripts/bench_routed.py [--runs N] [--seconds S] [--puts N]
"""

import argparse
import os
import statistics
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "harness"))

import vm      # noqa: E402
import cases   # noqa: E402

MIB = 1048576
BULK = ("hop_tcp", "hop_o2ib", "rt_ab", "rt_ba", "rt_get")
RATES = ("small_ar", "small_ab", "ping_ar", "ping_ab")


def read_results(paths):
    """bench.txt of each node: "kind elapsed_ns count" lines -> medians'
    inputs, {kind: [value per run]} (MiB/s or messages/s)."""
    res = {}
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                kind, *v = line.split()
                if kind in BULK or kind in RATES:       # MiB/s or per s
                    val = int(v[1]) * 1e9 / int(v[0])
                elif kind == "iperf3_bps":
                    val = int(v[0]) / 8 / MIB
                elif kind == "ibwrite_mibps":
                    val = float(v[0])
                else:
                    continue
                res.setdefault(kind, []).append(val)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="runs of each measure")
    ap.add_argument("--seconds", type=int, default=5,
                    help="seconds per iperf3 and ib_write_bw run")
    ap.add_argument("--puts", type=int, default=48,
                    help="1 MiB PUTs (and GETs) per LNet run")
    args = ap.parse_args()

    cases.ensure_kernel("distro")
    built = cases.build_modules("distro")
    if not built.ok:
        print("module build failed: %s\n%s" % (built.reason, built.details))
        return 1
    run_dir = os.path.join(TOP, "build", "bench",
                           "routed-" + time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(run_dir)
    script = os.path.join(TOP, "scripts", "bench-routed-node.sh")
    env = {"BENCH_RUNS": str(args.runs), "BENCH_SECONDS": str(args.seconds),
           "BENCH_PUTS": str(args.puts)}
    # setup, raw tools, then 5 bulk measures of PUTS MiB at a few MiB/s
    # (soft-RoCE under TCG: ~10 MiB/s) and the rates
    timeout = 300 + args.runs * (2 * (args.seconds + 30) + 5 * args.puts + 120)
    topo = vm.Topology("bench_routed",
                       [vm.Node("a", script=script, mtu=1500, links=["net0"]),
                        vm.Node("r", script=script, mtu=1500,
                                links=["net0", "net1"], rxe="eth1"),
                        vm.Node("b", script=script, mtu=1500, links=["net1"],
                                rxe="eth0")],
                       cases.boot("distro"), cases.module_dir("distro"),
                       run_dir, timeout=timeout, extra_env=env)
    try:
        res = topo.run()
    finally:
        vm.kill_all()
    if not res.ok:
        print("benchmark run failed: %s\n%s" % (res.reason, res.details))
        print("logs in %s" % run_dir)
        return 1

    r = read_results([os.path.join(run_dir, n, "bench.txt") for n in "arb"])
    want = ("iperf3_bps", "ibwrite_mibps") + BULK + RATES
    missing = [k for k in want if not r.get(k)]
    if missing:
        print("incomplete results (no %s) in %s" % (", ".join(missing), run_dir))
        return 1

    def med(kind):
        return statistics.median(r[kind])

    def show(name, kind, unit):
        print("%-44s median %9.1f %-8s (runs: %s)"
              % (name, med(kind), unit, " ".join("%.1f" % v for v in r[kind])))

    print("three VMs on Debian's kernel (QEMU %s), a -tcp- r -o2ib- b; logs in %s"
          % (vm.accel(cases.boot("distro").image).upper(), run_dir))
    show("TCP (iperf3) a -> r", "iperf3_bps", "MiB/s")
    show("RDMA write (ib_write_bw, rxe) b -> r", "ibwrite_mibps", "MiB/s")
    show("LNet 1 MiB PUT a -> r (tcp hop)", "hop_tcp", "MiB/s")
    show("LNet 1 MiB PUT b -> r (o2ib hop)", "hop_o2ib", "MiB/s")
    show("LNet 1 MiB PUT a -> b routed", "rt_ab", "MiB/s")
    show("LNet 1 MiB PUT b -> a routed", "rt_ba", "MiB/s")
    show("LNet 1 MiB GET a <- b routed", "rt_get", "MiB/s")
    show("LNet 0 B PUT a -> r (64 in flight)", "small_ar", "PUTs/s")
    show("LNet 0 B PUT a -> b routed (64 in flight)", "small_ab", "PUTs/s")
    show("LNet ping a -> r", "ping_ar", "pings/s")
    show("LNet ping a -> b routed", "ping_ab", "pings/s")
    slow = min(med("hop_tcp"), med("hop_o2ib"))
    for name, kind in (("routed a -> b / slower hop:", "rt_ab"),
                       ("routed b -> a / slower hop:", "rt_ba"),
                       ("routed GET a <- b / slower hop:", "rt_get")):
        print("%-44s %.2f" % (name, med(kind) / slow))
    print("%-44s %.2f" % ("0 B PUTs routed / unrouted:",
                          med("small_ab") / med("small_ar")))
    print("%-44s %.2f" % ("pings routed / unrouted:",
                          med("ping_ab") / med("ping_ar")))
    print("%-44s %.2f" % ("LNet tcp hop / iperf3:",
                          med("hop_tcp") / med("iperf3_bps")))
    print("%-44s %.2f" % ("LNet o2ib hop / ib_write_bw:",
                          med("hop_o2ib") / med("ibwrite_mibps")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
