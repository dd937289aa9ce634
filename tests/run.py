#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the project's tests: static checks on the host, KUnit and VM tests.

    tests/run.py                      every test, both kernel flavours
    tests/run.py kunit                one test (both flavours it declares)
    tests/run.py --flavour debug kunit
    tests/run.py kunit --suite lnet_nid
    tests/run.py --shell [--flavour debug]   a VM shell with the modules
    tests/run.py --list
    tests/run.py -k 'sock_'           tests (and scenarios) whose name matches
    tests/run.py sock_reload          one scenario, in its topology's boot
    tests/run.py --quick              host checks + distro VM tests (make check-quick)

Tests live in tests/static.py (host checks) and tests/vm/*.py (VM tests),
each a module with a TESTS list.  VMs run in parallel up to one per core,
and one one-core job beside a job of two nodes (tests/harness/schedule.py);
the last line printed is "N passed, N failed".
"""

import argparse
import glob
import importlib.util
import os
import re
import shutil
import signal
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "harness"))

import vm          # noqa: E402
import report     # noqa: E402
from schedule import Slots, cores_of, is_crowd, order, pick  # noqa: E402
from cpumeter import CpuMeter  # noqa: E402
from cases import HostTest, VmTest, boot, ensure_kernel, module_dir  # noqa: E402


def load_tests():
    """Every test of tests/static.py and tests/vm/*.py.  A file without a
    TESTS list, or two tests with one name, is an error, not a silent
    gap."""
    tests = []
    paths = [os.path.join(HERE, "static.py")]
    paths += sorted(glob.glob(os.path.join(HERE, "vm", "*.py")))
    for path in paths:
        name = "lnet_tests_" + os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        found = getattr(mod, "TESTS", None)
        if not found:
            raise SystemExit("%s: no TESTS list" % os.path.relpath(path, vm.TOP))
        tests += found
    seen = set()
    for t in tests:
        if t.name in seen:
            raise SystemExit("two tests are named %s" % t.name)
        seen.add(t.name)
    # A scenario can be chosen by its name: it must name nothing else.
    owner = {}
    for t in tests:
        for s in t.scenarios():
            if (s in seen and s != t.name) or owner.get(s, t) is not t:
                raise SystemExit("scenario %s of %s: the name is taken" % (s, t.name))
            owner[s] = t
    return tests


def find_test(tests, name):
    """The test named name, or the one with a scenario of that name."""
    for t in tests:
        if t.name == name or name in t.scenarios():
            return t
    return None


def choose(chosen, only, test, name):
    """Add test to chosen; name, if one of its scenarios (not the test
    itself), narrows it to its chosen scenarios."""
    if test not in chosen:
        chosen.append(test)
        only[test.name] = set()
    if only[test.name] is None:
        return                      # the whole test was chosen
    if name == test.name:
        only[test.name] = None
    else:
        only[test.name].add(name)


# The timeout of a narrow VM job (one node, or two on the distro kernel)
# that may run beside a job of two nodes: it may get only the part of a
# core that job leaves (~0.8 of one).
BESIDE_STRETCH = 1.5


class Runner:
    def __init__(self, args):
        self.args = args
        self.slots = Slots(int(os.environ.get("LNET_VM_SLOTS", os.cpu_count() or 1)),
                           int(os.environ.get("LNET_VM_BESIDE", 1)))
        self.lock = threading.Condition()
        self.results = []
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.out = os.path.join(vm.TOP, "build", "tests", stamp)
        os.makedirs(self.out, exist_ok=True)
        latest = os.path.join(vm.TOP, "build", "tests", "latest")
        if os.path.islink(latest) or os.path.exists(latest):
            os.remove(latest)
        os.symlink(stamp, latest)
        self.meter = CpuMeter(os.cpu_count() or 1)
        self.meter.start()

    def report(self, job, res, secs, busy=None):
        phases = getattr(job, "phases", [])
        with self.lock:
            self.results.append((job.id, res, secs, phases))
            word = "PASS" if res.ok else "FAIL"
            # The host's cores busy meanwhile: all of them means the
            # run was CPU-bound there (Documentation/testing.rst, Budget).
            load = "" if busy is None else ", host %.1f of %d cores busy" % (
                busy, self.meter.ncpu)
            line = "%s %s (%ds%s)" % (word, job.id, secs, load)
            if not res.ok:
                line += ": " + res.reason
            print(line, flush=True)
            for p in phases:
                procs = ", %d processes" % p.procs if p.procs else ""
                word = "ok  " if p.ok else "FAIL"
                print("    %s %s (%ds%s)" % (word, p.name, p.secs, procs), flush=True)
            if not res.ok and res.details:
                print("    " + res.details.replace("\n", "\n    "), flush=True)

    @staticmethod
    def slots_of(job):
        """The cores job takes among the others (schedule.cores_of)."""
        return cores_of(job.slots, getattr(job, "flavour", "host"))

    @staticmethod
    def crowd_of(job):
        """Whether job is a crowd (schedule.is_crowd)."""
        return is_crowd(job.slots, getattr(job, "flavour", "host"))

    def run_job(self, job):
        """Run a job in its slots, then free them."""
        self.run_one(job)
        with self.lock:
            self.slots.give(self.slots_of(job), self.crowd_of(job))
            self.lock.notify_all()

    def run_one(self, job):
        start = time.monotonic()
        if job.slots:
            run_dir = os.path.join(self.out, job.id.replace("[", ".").replace("]", ""))
            os.makedirs(run_dir, exist_ok=True)
        else:
            run_dir = self.out
        try:
            res = job.run(run_dir, self.args)
        except Exception as e:  # a broken test is a failed test, not a crash
            res = vm.Result(False, "harness error: %r" % (e,))
        end = time.monotonic()
        self.report(job, res, end - start, self.meter.busy(start, end))

    @staticmethod
    def order(jobs):
        """The jobs after the builds, in the order they are offered the
        cores: the wide ones (which take the machine) longest first, then
        the narrow ones (one core: schedule.cores_of), longest first: one
        of them beside each wide job (schedule.py), then two at a time, so
        that the shortest end the run side by side.  The host checks (no
        VM) and the distro kernel's jobs of two nodes or more are
        narrow (those of three or more, crowds, with no other narrow job
        beside them)."""
        return order(jobs, Runner.slots_of, lambda j: j.cost())

    def run(self, jobs):
        t0 = time.monotonic()
        # The module builds first, both at once (each make on one core):
        # VM jobs need the modules.
        builds = [j for j in jobs if j.slots == 0 and getattr(j, "builds", False)]
        threads = [threading.Thread(target=self.run_one, args=(j,)) for j in builds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        pending = self.order([j for j in jobs if j not in builds])
        threads = []
        while pending:
            with self.lock:
                job = pick(pending, self.slots, self.slots_of, self.crowd_of)
                if job is None:
                    self.lock.wait()
                    continue
                pending.remove(job)
                if job.slots and self.slots_of(job) == 1 and self.slots.beside and (
                        self.slots.wide or any(self.slots_of(j) > 1 for j in pending)):
                    job.stretch = BESIDE_STRETCH    # a wide job is or may be beside
                self.slots.take(self.slots_of(job), self.crowd_of(job))
            t = threading.Thread(target=self.run_job, args=(job,))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        passed = sum(1 for r in self.results if r[1].ok)
        failed = len(self.results) - passed
        report.write_junit(os.path.join(self.out, "results.xml"), self.results)
        recap = report.failure_recap(self.results)
        if recap:
            print("failures:")
            print("\n".join(recap))
        print("slowest:")
        for line in report.slowest(self.results):
            print(line)
        busy = self.meter.busy(t0, time.monotonic())
        self.meter.stop()
        if busy is not None:
            print("host: %.2f of %d cores busy over the run's %d s"
                  % (busy, self.meter.ncpu, time.monotonic() - t0))
        print("results in %s (JUnit: results.xml)" % self.out)
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed else 0


# Mounted over in the guest (guest-init.sh): a tree under one of these is
# invisible to the VMs.
GUEST_TMPFS = ("/tmp", "/run", "/var/tmp", "/var/log", "/dev/shm")


def main():
    if any(vm.TOP == d or vm.TOP.startswith(d + "/") for d in GUEST_TMPFS):
        raise SystemExit("the repository is under %s, which the test VMs mount "
                         "a tmpfs over: clone it elsewhere" % vm.TOP)
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tests", nargs="*", help="test names (default: all)")
    ap.add_argument("--flavour", choices=["distro", "debug"],
                    help="only this kernel flavour")
    ap.add_argument("--suite", action="append", default=[],
                    help="KUnit suite module(s) to run, e.g. lnet_nid")
    ap.add_argument("--shell", action="store_true", help="shell in a VM")
    ap.add_argument("--list", action="store_true", help="list tests")
    ap.add_argument("-k", dest="pattern",
                    help="only tests whose name matches this regular expression")
    ap.add_argument("--quick", action="store_true",
                    help="developer tier: host checks and the distro VM tests "
                         "(not what CI runs: no debug kernel)")
    args = ap.parse_args()

    # Both end in the main thread's finally, which reaps every QEMU.  SIGINT
    # is set explicitly: a runner started in the background inherits it
    # ignored.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    tests = load_tests()

    if args.list:
        for t in tests:
            print(t.name, " ".join(getattr(t, "flavours", ("host",))))
            for s in t.scenarios():
                if s != t.name:
                    print("    " + s)
        return 0

    if args.shell:
        flavour = args.flavour or "distro"
        ensure_kernel(flavour)
        HostTest.build_modules(flavour)
        run_dir = os.path.join(vm.TOP, "build", "shell")
        shutil.rmtree(run_dir, ignore_errors=True)
        os.makedirs(run_dir)
        topo = vm.Topology("shell", [vm.Node("shell")], boot(flavour),
                           module_dir(flavour), run_dir,
                           debug=flavour == "debug")
        return topo.shell()

    if args.quick:
        args.flavour = args.flavour or "distro"
    only = {}               # test name -> the scenarios chosen of it
    if args.pattern or args.tests:
        chosen = []
        for name in args.tests:
            t = find_test(tests, name)
            if t is None:
                ap.error("unknown test or scenario: %s" % name)
            choose(chosen, only, t, name)
        if args.pattern:
            for t in tests:
                for name in [t.name] + t.scenarios():
                    if re.search(args.pattern, name):
                        choose(chosen, only, t, name)
        if not chosen:
            ap.error("no test matches %s" % args.pattern)
        # A VM test needs its modules: add the builds its flavours depend on.
        flavours = {j.flavour for t in chosen if isinstance(t, VmTest)
                    for j in t.jobs(args.flavour)}
        tests = [t for t in tests if isinstance(t, HostTest) and t.builds
                 and t.flavour in flavours and t not in chosen] + chosen

    jobs = []
    for t in tests:
        if only.get(t.name):
            jobs += t.jobs(args.flavour,
                           [s for s in t.scenarios() if s in only[t.name]])
        else:
            jobs += t.jobs(args.flavour)
    for flavour in sorted({j.flavour for j in jobs} & {"distro", "debug"}):
        ensure_kernel(flavour)

    runner = Runner(args)
    try:
        with vm.LinkBuffers():
            return runner.run(jobs)
    finally:
        vm.kill_all()


if __name__ == "__main__":
    sys.exit(main())
