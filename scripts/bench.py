#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The LND benchmark (make bench): two VMs on one link, Debian's kernel.

In one boot, node a measures towards node b: TCP bandwidth with iperf3,
then LNet 1 MiB PUT bandwidth, 0-byte PUT rate and ping rate over ksocklnd
(with lnet_test.ko), lst brw write/read 1 MiB and ping as an admin runs
them, and 1 MiB PUT bandwidth over two rails (a second
link, tcp1) with each rail's share and a's CPU load, the failover time
when a's second link goes down and the bandwidth while it flaps;
then, on soft-RoCE (rxe0) over the same link, RDMA
write bandwidth with ib_write_bw and LNet 1 MiB PUT and GET bandwidth over
ko2iblnd, and lst there too; several runs each.  Prints the median of each and the ratios of
LNet to iperf3 and to ib_write_bw bandwidth.  The o2ib part is skipped,
with a message, when ko2iblnd.ko is not built.  See
Documentation/benchmark.rst.

    scripts/bench.py [--runs N] [--seconds S] [--lnd sock|o2ib|both] [--puts N]
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


def read_results(path):
    """bench.txt: one "kind value..." line per run -> {kind: [values]}."""
    res = {"o2ib_skipped": []}
    with open(path) as f:
        for line in f:
            kind, *v = line.split()
            if kind == "iperf3_bps":
                val = int(v[0]) / 8 / MIB                 # MiB/s
            elif kind in ("put_ns", "put2_ns", "o2ib_put_ns",
                          "o2ib_get_ns", "flap_ns"):
                val = int(v[1]) * 1e9 / int(v[0])         # MiB/s
            elif kind in ("small_ns", "ping_ns"):
                val = int(v[1]) * 1e9 / int(v[0])         # per second
            elif kind in ("ibwrite_mibps", "sock_lst_write_mibps",
                          "sock_lst_read_mibps", "o2ib_lst_write_mibps",
                          "o2ib_lst_read_mibps"):
                val = float(v[0])                         # MiB/s
            elif kind in ("sock_lst_ping_rate", "o2ib_lst_ping_rate"):
                val = float(v[0])                         # messages/s
            elif kind == "put2_split":                    # rail 0's share
                val = 100.0 * int(v[0]) / max(int(v[0]) + int(v[1]), 1)
            elif kind in ("failover_ns", "rfailover_ns"):  # max, median
                val = int(v[0]) / 1e6                     # ms
                pre = kind[:-3]
                res.setdefault(pre + "_median_ms", []).append(
                    int(v[1]) / 1e6)
                res.setdefault(pre + "_errors", []).append(
                    int(v[2]) if len(v) > 2 else 0)
            elif kind == "flap_errors":
                val = int(v[0])                           # PUTs failed
            elif kind == "put2_cpu":
                val = float(v[0])                         # % busy
            elif kind == "o2ib_skipped":
                val = " ".join(v)
            else:
                continue
            res.setdefault(kind, []).append(val)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each measure")
    ap.add_argument("--seconds", type=int, default=5,
                    help="seconds per iperf3 and ib_write_bw run")
    ap.add_argument("--lnd", choices=("sock", "o2ib", "both"), default="both",
                    help="LNDs to measure (default both; iperf3 always runs)")
    ap.add_argument("--puts", type=int, default=0,
                    help="1 MiB PUTs (and GETs) per LNet run "
                    "(default: 15 per --seconds, as many MiB as the raw "
                    "tools move in a run at ~15 MiB/s)")
    ap.add_argument("--o2ib-conns", type=int, default=0,
                    help="conns_per_peer of the o2ib NIs (default: "
                    "ko2iblnd's, 1)")
    args = ap.parse_args()

    cases.ensure_kernel("distro")
    built = cases.build_modules("distro")
    if not built.ok:
        print("module build failed: %s\n%s" % (built.reason, built.details))
        return 1
    run_dir = os.path.join(TOP, "build", "bench", time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(run_dir)
    script = os.path.join(TOP, "scripts", "bench-node.sh")
    puts = args.puts or 15 * args.seconds
    env = {"BENCH_RUNS": str(args.runs), "BENCH_SECONDS": str(args.seconds),
           "BENCH_LND": args.lnd, "BENCH_PUTS": str(puts),
           "BENCH_O2IB_CONNS": str(args.o2ib_conns)}
    # Per part: a minute of setup, then every run; soft-RoCE under TCG
    # moves ~10 MiB/s, so 64 MiB PUTs or GETs take seconds each.
    timeout = 120 + args.runs * (args.seconds + 60)
    # two rails: failover, remote failover, flapping (~30 s a run each)
    timeout += args.runs * 90
    # lst: write, read, ping, a sample of --seconds each
    timeout += 60 + args.runs * 3 * (args.seconds + 5)
    if args.lnd != "sock":
        timeout += 120 + args.runs * (args.seconds + 150)
        timeout += 60 + args.runs * 3 * (args.seconds + 5)
    # Standard frames: the figures stay comparable with the earlier ones
    # and with the stock LNet reference measured on such links.
    topo = vm.Topology("bench", [vm.Node("a", script=script, mtu=1500,
                                         links=["net0", "net1"]),
                                 vm.Node("b", script=script, mtu=1500,
                                         links=["net0", "net1"])],
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

    r = read_results(os.path.join(run_dir, "a", "bench.txt"))
    want = ["iperf3_bps"]
    if args.lnd != "o2ib":
        want += ["put_ns", "small_ns", "ping_ns", "put2_ns", "put2_split",
                 "put2_cpu", "failover_ns", "rfailover_ns", "flap_ns",
                 "sock_lst_write_mibps", "sock_lst_read_mibps",
                 "sock_lst_ping_rate"]
    if args.lnd != "sock":
        want += ["ibwrite_mibps"]
    if args.lnd != "sock" and not r["o2ib_skipped"]:
        want += ["o2ib_put_ns", "o2ib_get_ns", "o2ib_lst_write_mibps",
                 "o2ib_lst_read_mibps", "o2ib_lst_ping_rate"]
    missing = [k for k in want if not r.get(k)]
    if missing:
        print("incomplete results (no %s) in %s" % (", ".join(missing), run_dir))
        return 1

    def show(name, kind, unit):
        values = r[kind]
        print("%-40s median %9.1f %-8s (runs: %s)"
              % (name, statistics.median(values), unit,
                 " ".join("%.1f" % v for v in values)))

    def ratio(name, num, den):
        print("%-40s %.2f" % (name, statistics.median(r[num])
                              / statistics.median(r[den])))

    print("two VMs on Debian's kernel (QEMU %s), two links; logs in %s"
          % (vm.accel(cases.boot("distro").image).upper(), run_dir))
    show("TCP (iperf3) a -> b", "iperf3_bps", "MiB/s")
    if args.lnd != "o2ib":
        show("LNet/sock 1 MiB PUT a -> b", "put_ns", "MiB/s")
        show("LNet/sock 0 B PUT a -> b (64 in flight)", "small_ns", "PUTs/s")
        show("LNet/sock ping a -> b", "ping_ns", "pings/s")
        show("lst brw write 1M (8) a -> b, a's W", "sock_lst_write_mibps",
             "MiB/s")
        show("lst brw read 1M (8) a <- b, a's R", "sock_lst_read_mibps",
             "MiB/s")
        show("lst ping (8), a's W rate", "sock_lst_ping_rate", "msgs/s")
        show("LNet/sock 1 MiB PUT a -> b, two rails", "put2_ns", "MiB/s")
        show("  share of rail tcp (rest: tcp1)", "put2_split", "%")
        show("  a's CPUs busy meanwhile", "put2_cpu", "%")
        show("failover, a's eth1 down: slowest PUT", "failover_ns", "ms")
        show("  its median PUT (1 at a time)", "failover_median_ms", "ms")
        show("  PUTs failed (ACK lost with the link)", "failover_errors",
             "PUTs")
        show("remote failover, b's cable: slowest PUT", "rfailover_ns",
             "ms")
        show("  its median PUT (1 at a time)", "rfailover_median_ms", "ms")
        show("  PUTs failed", "rfailover_errors", "PUTs")
        show("LNet/sock PUT, eth1 flapping every 1 s", "flap_ns", "MiB/s")
        show("  PUTs failed (ACK lost in a flap)", "flap_errors", "PUTs")
    if args.lnd != "sock":
        show("RDMA write (ib_write_bw, rxe) a -> b", "ibwrite_mibps", "MiB/s")
    if args.lnd != "sock" and r["o2ib_skipped"]:
        print("LNet over o2ib skipped: %s (no lnd/o2ib in this tree?)"
              % r["o2ib_skipped"][0])
    elif args.lnd != "sock":
        show("LNet/o2ib 1 MiB PUT a -> b", "o2ib_put_ns", "MiB/s")
        show("LNet/o2ib 1 MiB GET a <- b", "o2ib_get_ns", "MiB/s")
        show("lst/o2ib brw write 1M (8), a's W", "o2ib_lst_write_mibps",
             "MiB/s")
        show("lst/o2ib brw read 1M (8), a's R", "o2ib_lst_read_mibps",
             "MiB/s")
        show("lst/o2ib ping (8), a's W rate", "o2ib_lst_ping_rate",
             "msgs/s")
    if args.lnd != "o2ib":
        ratio("LNet/sock PUT / TCP bandwidth:", "put_ns", "iperf3_bps")
        ratio("lst/sock brw write / TCP bandwidth:", "sock_lst_write_mibps",
              "iperf3_bps")
        ratio("lst/sock brw read / TCP bandwidth:", "sock_lst_read_mibps",
              "iperf3_bps")
        ratio("LNet/sock PUT, two rails / one rail:", "put2_ns", "put_ns")
        ratio("LNet/sock PUT, flapping / one rail:", "flap_ns", "put_ns")
    if args.lnd != "sock" and not r["o2ib_skipped"]:
        ratio("LNet/o2ib PUT / ib_write_bw bandwidth:", "o2ib_put_ns",
              "ibwrite_mibps")
        ratio("LNet/o2ib GET / ib_write_bw bandwidth:", "o2ib_get_ns",
              "ibwrite_mibps")
        ratio("lst/o2ib brw write / ib_write_bw:", "o2ib_lst_write_mibps",
              "ibwrite_mibps")
        ratio("lst/o2ib brw read / ib_write_bw:", "o2ib_lst_read_mibps",
              "ibwrite_mibps")
    if args.lnd != "sock":
        ratio("ib_write_bw / TCP bandwidth:", "ibwrite_mibps", "iperf3_bps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
