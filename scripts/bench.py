#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The socket LND benchmark (make bench): two lean VMs on one link.

In one boot, node a measures towards node b: TCP bandwidth with iperf3,
then LNet 1 MiB PUT bandwidth, 0-byte PUT rate and ping rate over ksocklnd (with
lnet_test.ko), several runs each.  Prints the median of each and the
ratio of LNet to iperf3 bandwidth.  See Documentation/benchmark.rst.

    scripts/bench.py [--runs N] [--seconds S]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests", "harness"))

import vm      # noqa: E402
import cases   # noqa: E402

MIB = 1048576


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each measure")
    ap.add_argument("--seconds", type=int, default=5,
                    help="seconds per iperf3 run")
    args = ap.parse_args()

    subprocess.run([os.path.join(TOP, "scripts", "test-kernel.sh"), "lean"],
                   check=True, stdout=subprocess.DEVNULL)
    built = cases.build_modules("lean")
    if not built.ok:
        print("module build failed: %s\n%s" % (built.reason, built.details))
        return 1
    run_dir = os.path.join(TOP, "build", "bench", time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(run_dir)
    script = os.path.join(TOP, "scripts", "bench-node.sh")
    env = {"BENCH_RUNS": str(args.runs), "BENCH_SECONDS": str(args.seconds)}
    topo = vm.Topology("bench", [vm.Node("a", script=script),
                                 vm.Node("b", script=script)],
                       cases.kernel_dir("lean"), cases.module_dir("lean"),
                       run_dir, timeout=120 + args.runs * (args.seconds + 60),
                       extra_env=env)
    try:
        res = topo.run()
    finally:
        vm.kill_all()
    if not res.ok:
        print("benchmark run failed: %s\n%s" % (res.reason, res.details))
        print("logs in %s" % run_dir)
        return 1

    tcp, put, small, ping = [], [], [], []
    with open(os.path.join(run_dir, "a", "bench.txt")) as f:
        for line in f:
            kind, *v = line.split()
            if kind == "iperf3_bps":
                tcp.append(int(v[0]) / 8 / MIB)
            elif kind == "put_ns":
                put.append(int(v[1]) * 1e9 / int(v[0]))   # MiB/s
            elif kind == "small_ns":
                small.append(int(v[1]) * 1e9 / int(v[0]))  # msgs/s
            elif kind == "ping_ns":
                ping.append(int(v[1]) * 1e9 / int(v[0]))  # pings/s
    if not (tcp and put and small and ping):
        print("incomplete results in %s" % run_dir)
        return 1

    def show(name, values, unit):
        print("%-36s median %9.1f %-8s (runs: %s)"
              % (name, statistics.median(values), unit,
                 " ".join("%.1f" % v for v in values)))

    print("two lean VMs (QEMU %s), one link; logs in %s"
          % (vm.accel(cases.kernel_dir("lean")).upper(), run_dir))
    show("TCP (iperf3) a -> b", tcp, "MiB/s")
    show("LNet 1 MiB PUT a -> b", put, "MiB/s")
    show("LNet 0 B PUT a -> b (64 in flight)", small, "PUTs/s")
    show("LNet ping a -> b", ping, "pings/s")
    print("LNet PUT / TCP bandwidth: %.2f"
          % (statistics.median(put) / statistics.median(tcp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
