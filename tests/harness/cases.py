# SPDX-License-Identifier: GPL-2.0
"""Test kinds: HostTest (a command on the host) and VmTest (a topology).

A test expands into jobs, one per kernel flavour it runs on; a job's id is
"name[flavour]".  VM jobs of a flavour run only if that flavour's module
build (the host test "build[flavour]") passed.
"""

import os
import re
import subprocess
import threading
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

import vm

# distro: Debian's own kernel, the one users run (scripts/distro-kernel.sh);
# debug: a minimal kernel with every bug catcher (scripts/test-kernel.sh).
FLAVOURS = ("distro", "debug")
_built = {}                 # flavour -> Result of its module build
# One lock per flavour: the two flavours' builds (separate object trees)
# run at once, each make on one core.
_build_lock = {f: threading.Lock() for f in FLAVOURS}
# lnetctl (build/utils) is common to both: built by one make at a time.
_tool_lock = threading.Lock()


def _kdir(which):
    return subprocess.run([os.path.join(vm.TOP, "scripts", "kdir.sh"), which],
                          check=True, capture_output=True, text=True).stdout.strip()


def ensure_kernel(flavour):
    """Make the flavour's kernel once per machine (a no-op when cached)."""
    script = "distro-kernel.sh" if flavour == "distro" else "test-kernel.sh"
    args = [] if flavour == "distro" else [flavour]
    subprocess.run([os.path.join(vm.TOP, "scripts", script)] + args,
                   check=True, stdout=subprocess.DEVNULL)


def boot(flavour):
    """How to boot the flavour's kernel (see vm.Boot)."""
    init = os.path.join(vm.TOP, "tests", "harness", "guest-init.sh")
    if flavour == "distro":
        d = subprocess.run([os.path.join(vm.TOP, "scripts", "distro-kernel.sh"),
                            "--path"], check=True, capture_output=True,
                           text=True).stdout.strip()
        # The initramfs (tests/harness/initramfs-init.sh) reads these.
        return vm.Boot(flavour, os.path.join(d, "vmlinuz"),
                       os.path.join(d, "initrd.gz"),
                       ["LNET_INIT=" + init,
                        "LNET_DISTRO_MODULES=" + os.path.join(d, "lib", "modules")])
    return vm.Boot(flavour, os.path.join(_kdir(flavour), "arch/x86/boot/bzImage"),
                   "", ["init=" + init])


def module_dir(flavour):
    """Where `make KDIR=<kernel>` leaves the modules (see Makefile)."""
    return os.path.join(vm.TOP, "build", os.path.basename(_kdir(flavour)))


# Compiler, sparse and modpost findings; kbuild's own notes are not.
FINDING = re.compile(r"warning:|error:|WARNING:|ERROR:")
NOT_FINDING = re.compile(r"Skipping BTF generation")


def build_modules(which):
    """Build the modules against a kernel with W=1 and sparse on every file.

    Any compiler, sparse or modpost finding fails the build.
    """
    with _build_lock[which]:
        if which in _built:
            return _built[which]
        _built[which] = res = _build(which)
        return res


def _build(which):
    kdir = _kdir(which)
    p = subprocess.run(["make", "-C", vm.TOP, "KDIR=" + kdir, "W=1", "C=2",
                        "modules"], capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode == 0:
        # The user tool does not depend on the kernel, but every VM test
        # that needs modules may need it too: make builds it once, then
        # skips it (one make at a time: the tree is shared).
        with _tool_lock:
            p = subprocess.run(["make", "-C", vm.TOP, "KDIR=" + kdir, "W=1",
                                "C=2", "lnetctl"], capture_output=True, text=True)
        out += p.stdout + p.stderr
    findings = [line for line in out.splitlines()
                if FINDING.search(line) and not NOT_FINDING.search(line)]
    if p.returncode != 0:
        res = vm.Result(False, "make failed (exit %d)" % p.returncode,
                        "\n".join(out.splitlines()[-40:]))
    elif findings:
        res = vm.Result(False, "%d warning(s)" % len(findings), "\n".join(findings))
    else:
        res = vm.Result(True)
    return res


@dataclass
class HostTest:
    """A check run on the host; fn(run_dir) returns a vm.Result.

    The module builds run first (VM jobs need them), both at once; the
    other checks need no VM and run among the VM jobs, one CPU's worth
    (see Runner), where a one-node job would leave a core idle."""
    name: str
    fn: Callable
    flavour: str = "host"       # kernel it builds against, if any
    builds: bool = False        # True for the module builds VM tests need
    secs: int = 1               # its usual time on a 2-core machine
    slots: int = 0

    @property
    def id(self):
        return self.name

    def scenarios(self):
        return []

    def jobs(self, flavour_filter):
        # Checks of no kernel (checkpatch, lint) run whatever the flavour.
        if flavour_filter and self.flavour not in (flavour_filter, "host"):
            return []
        return [self]

    def cost(self):
        # On the scale of a VM job's (its timeout: about twice its time).
        return 2 * self.secs

    def run(self, run_dir, args):
        return self.fn(run_dir)

    @staticmethod
    def build_modules(flavour):
        res = build_modules(flavour)
        if not res.ok:
            raise SystemExit("module build against %s failed: %s\n%s"
                             % (flavour, res.reason, res.details))


@dataclass
class VmTest:
    """Nodes booted together; passes if every node's script exits 0, no
    kernel splat appears, and check(run_dir, args), if given, agrees."""
    name: str
    nodes: list
    flavours: tuple = ("distro",)
    timeout: int = 120                  # seconds, distro kernel
    debug_timeout: int = 0              # 0: derived from timeout
    check: Optional[Callable] = None
    env: dict = field(default_factory=dict)
    # For tests of the harness itself: the run must fail, its reason must
    # match this regular expression, and then check(), if given, decides.
    expect_failure: str = ""
    # Regular expressions of kernel lines the test provokes on purpose
    # (see splat.find_splat): matching lines are not splats.
    allow_splats: tuple = ()
    # prepare(run_dir, flavour): work on the host before the boot, in the
    # job's cores (a package build, say); returns a vm.Result and a dict
    # of environment added to the nodes'.  A failed result fails the job
    # without a boot.
    prepare: Optional[Callable] = None
    # Scenarios (names) run on the debug kernel only: logic whose judge
    # is the catchers (a hostile peer's parsers, the peer table's
    # bookkeeping), which Debian's kernel runs the same way and would
    # only repeat (Documentation/testing.rst, Budget).
    debug_only: tuple = ()
    # Scenarios run on Debian's kernel only: behaviour whose code paths
    # the debug kernel already runs in another scenario (the core's
    # health, multi-rail and selftest logic over the other LND), so that
    # the catchers would only see them again, at 3-5 times the cost.
    distro_only: tuple = ()

    def scenarios(self):
        """The names of the scenarios its nodes run, in order."""
        names = []
        for node in self.nodes:
            for script in vm.scripts_of(node):
                name = vm.scenario_of(script)
                if name not in names:
                    names.append(name)
        return names

    def skipped_on(self, flavour):
        """The scenarios the flavour's job leaves out."""
        return self.debug_only if flavour == "distro" else self.distro_only

    def jobs(self, flavour_filter, only=None):
        """Its jobs; only: run just these scenarios (names), in one boot.
        No job of a flavour that leaves out every scenario chosen."""
        return [VmJob(self, f, only) for f in self.flavours
                if (not flavour_filter or f == flavour_filter) and
                not (only and set(only) <= set(self.skipped_on(f)))]


class VmJob:
    def __init__(self, test, flavour, only=None):
        self.test = test
        self.flavour = flavour
        self.only = only
        self.id = "%s[%s]" % (test.name, flavour)
        if only:
            self.id = "%s:%s[%s]" % (test.name, "+".join(only), flavour)
        # A core per vCPU: a node of two vCPUs keeps two host cores busy.
        self.slots = sum(n.cpus for n in test.nodes)
        self.suites = []            # KUnit suites asked for (--suite)
        self.phases = []            # report.Phase of the run, once done
        # Its timeout times this: a one-core job may run beside a job of
        # two nodes and then get less than a core (schedule.py).
        self.stretch = 1.0

    def nodes(self):
        """The test's nodes, running only the chosen scenarios (and none
        of those its flavour leaves out: debug_only, distro_only)."""
        skip = self.test.skipped_on(self.flavour)
        if not self.only and not skip:
            return self.test.nodes

        def kept(script):
            name = vm.scenario_of(script)
            return (not self.only or name in self.only) and name not in skip
        return [replace(n, script=[s for s in vm.scripts_of(n) if kept(s)])
                for n in self.test.nodes]

    def base_timeout(self):
        if self.flavour == "debug":
            return self.test.debug_timeout or 3 * self.test.timeout + 120
        return self.test.timeout

    def timeout(self):
        # A test that must fail (harness_selftest) waits out its whole
        # timeout on its hang node: stretched beside a debug pair it only
        # made the run longer (90 s instead of 60); its other nodes end
        # ~25 s after boot even there.
        if self.test.expect_failure:
            return self.base_timeout()
        return int(self.base_timeout() * self.stretch)

    def cost(self):
        return self.base_timeout() * self.slots

    def run(self, run_dir, args):
        built = _built.get(self.flavour)
        if built is None:
            built = build_modules(self.flavour)
        if not built.ok:
            return vm.Result(False, "modules for %s did not build" % self.flavour)
        env = dict(self.test.env)
        if self.test.prepare:
            res, more = self.test.prepare(run_dir, self.flavour)
            if not res.ok:
                return res
            env.update(more)
        self.suites = list(getattr(args, "suite", None) or [])
        if self.suites:
            env["LNET_KUNIT_SUITES"] = " ".join(self.suites)
        topo = vm.Topology(self.id, self.nodes(), boot(self.flavour),
                           module_dir(self.flavour), run_dir,
                           debug=self.flavour == "debug",
                           timeout=self.timeout(), extra_env=env,
                           allow_splats=self.test.allow_splats)
        res = topo.run()
        # A test that must fail has no phases to judge on their own.
        self.phases = [] if self.test.expect_failure else topo.phases()
        if self.test.expect_failure:
            if res.ok:
                return vm.Result(False, "passed, but it must fail with /%s/"
                                 % self.test.expect_failure)
            if not re.search(self.test.expect_failure, res.reason):
                return vm.Result(False, "failed for the wrong reason: "
                                 + res.reason, res.details)
            res = vm.Result(True)
        if res.ok and self.test.check:
            res = self.test.check(run_dir, self)
        return res
