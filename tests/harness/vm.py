# SPDX-License-Identifier: GPL-2.0
"""Multi-VM QEMU harness.

A test describes a topology: nodes, each with 1..N virtio NICs, each NIC on
a named link.  Every link is a QEMU socket netdev on a multicast group bound
to host loopback (localaddr 127.0.0.1), so guest traffic never leaves this
host.  Guest addresses come from documentation ranges (192.0.2.0/24, ...).

The guest's root is the host's / over virtio-9p, read-only; a second 9p share
(the run directory) is writable and shared by all nodes of a test, so nodes
can leave results and meet at barriers.  /tmp/shared/<node> in the guest is
<run dir>/<node> on the host.

Every QEMU is started with PR_SET_PDEATHSIG and tracked by PID; kill_all()
reaps whatever is left, whatever way the runner exits.
"""

import ctypes
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from qmp import LinkControl
from report import merge_phases, node_phases
from splat import find_splat

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Subnet per link index: documentation ranges only (RFC 5737, then 6890).
SUBNETS = ["192.0.2", "198.51.100", "203.0.113", "198.18.0", "198.18.1"]

_live = {}              # pid -> Popen of every QEMU still running
_accel = None


@dataclass
class Node:
    """One VM: a name, the links its NICs sit on, and the script it runs:
    a path, or a list of paths run one after another in the same boot (the
    scenarios of a topology, see guest-init.sh)."""
    name: str
    links: list = field(default_factory=lambda: ["net0"])
    script: object = ""         # path(s) relative to tests/vm, or absolute
    rxe: str = ""               # NIC to put soft-RoCE (rxe0) on, e.g. "eth0"
    env: dict = field(default_factory=dict)
    memory: int = 0             # MiB; 0 = default for the kernel flavour
    # Every NIC's MTU; 0: by kernel flavour.  On the debug kernel jumbo
    # frames (9000, as much HPC Ethernet runs): each packet costs ~2 ms
    # there under TCG, and a 1 MiB message is 6x fewer packets (rxe's
    # RoCE MTU 4096 instead of 1024): bulk runs 3-5x faster.  On the
    # distro kernel 1500: it is fast enough to overflow the host's UDP
    # socket buffers behind the links with jumbo bursts (rxe then waits
    # out retransmissions: o2ib_pair took 392 s instead of 214 s).
    mtu: int = 0
    # vCPUs (QEMU -smp).  One by default: under TCG each is a host
    # thread, and the runner counts a node's vCPUs as the cores it takes
    # (cases.VmJob.slots).  Two make two CPUs run LNet code at once, as
    # the teardown races need (teardown_load).
    cpus: int = 1


@dataclass
class Boot:
    """How a kernel flavour boots: its image, its initramfs if it has one,
    and how its first process finds the harness's init (guest-init.sh)."""
    flavour: str
    image: str
    initrd: str = ""
    args: list = field(default_factory=list)


@dataclass
class Result:
    ok: bool
    reason: str = ""
    details: str = ""


def scripts_of(node):
    """The scripts a node runs, in order."""
    if not node.script:
        return []
    if isinstance(node.script, str):
        return [node.script]
    return list(node.script)


def scenario_of(script):
    """A scenario's name: its script's file name without .sh."""
    name = os.path.basename(script)
    return name[:-3] if name.endswith(".sh") else name


def _pdeathsig():
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG


# A link is a UDP multicast socket in each QEMU (-netdev socket), whose
# receive buffer is the host's net.core.rmem_default (208 KiB on Debian).
# Under TCG a guest drains its NIC slower than the other guest fills it:
# a burst bigger than that buffer (four 256 KiB RDMA WRITEs) is dropped
# on the host.  ksocklnd's TCP recovers quickly; soft-RoCE waits out its
# retransmission timer (~0.5 s) for each loss, and a bulk flow stalls
# for seconds, or its QP gives up (Udp RcvbufErrors: ~1% of the
# datagrams of o2ib_health + lst_o2ib).  The tests want links that lose
# nothing unless a test cuts them: the buffers are raised while they run.
LINK_RCVBUF = 16 << 20
RMEM_DEFAULT = "/proc/sys/net/core/rmem_default"


class LinkBuffers:
    """Raise the host's default UDP receive buffer for the QEMU links
    while tests run (a context manager); the old value comes back."""

    def __init__(self, path=RMEM_DEFAULT, size=LINK_RCVBUF):
        self.path = path
        self.size = size
        self.old = None

    def __enter__(self):
        try:
            with open(self.path) as f:
                old = int(f.read())
            if old < self.size:
                with open(self.path, "w") as f:
                    f.write("%d\n" % self.size)
                self.old = old
        except OSError as e:
            print("note: the QEMU links keep the host's UDP receive buffer "
                  "(%s: %s): bulk RDMA tests may stall on drops" % (self.path, e))
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            with open(self.path, "w") as f:
                f.write("%d\n" % self.old)
        return False


def kill_all():
    """Kill and reap every QEMU this process started."""
    for pid, proc in list(_live.items()):
        try:
            proc.kill()
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        _live.pop(pid, None)


def accel(image):
    """QEMU accelerator: TCG, unless a quick probe shows that KVM boots.

    On the machines this project runs on /dev/kvm exists but a KVM guest
    hangs, so KVM is used only when a 20 s probe boots a kernel to its
    first panic (there is no root) and QEMU exits by itself.  The answer
    is cached per host kernel in $LNET_CACHE; LNET_ACCEL=tcg|kvm overrides.
    """
    global _accel
    if os.environ.get("LNET_ACCEL"):
        return os.environ["LNET_ACCEL"]
    if _accel:
        return _accel
    cache = os.path.join(os.environ.get("LNET_CACHE", "/var/cache/lnet-test"),
                         "accel-" + os.uname().release)
    try:
        _accel = open(cache).read().strip()
        return _accel
    except FileNotFoundError:
        pass
    _accel = "tcg"
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        log = cache + ".console"
        cmd = ["qemu-system-x86_64", "-machine", "q35,accel=kvm", "-cpu", "host",
               "-m", "256", "-nodefaults", "-display", "none", "-no-reboot",
               "-kernel", image,
               "-append", "console=ttyS0 panic=-1 root=/dev/nonexistent",
               "-serial", "file:" + log]
        try:
            p = subprocess.run(cmd, timeout=20, capture_output=True,
                               preexec_fn=_pdeathsig)
            if p.returncode == 0 and "Kernel panic" in open(log, errors="replace").read():
                _accel = "kvm"
        except subprocess.TimeoutExpired:
            pass
    with open(cache, "w") as f:
        f.write(_accel + "\n")
    return _accel


class Topology:
    """A set of nodes booted together for one test run."""

    def __init__(self, name, nodes, boot, mod_dir, run_dir,
                 debug=False, timeout=120, extra_env=None, allow_splats=()):
        self.name = name
        self.nodes = nodes
        self.boot = boot
        self.mod_dir = mod_dir
        self.run_dir = run_dir
        self.debug = debug
        self.timeout = timeout
        self.extra_env = extra_env or {}
        self.allow_splats = [re.compile(a) for a in allow_splats]
        self.qmp_dir = None     # QMP sockets while running (qmp.py)
        links = []
        for n in nodes:
            for link in n.links:
                if link not in links:
                    links.append(link)
        self.links = links
        # A random group and port per link keeps concurrent runs apart.
        self.mcast = {}
        for link in links:
            group = "239.255.%d.%d" % (random.randint(0, 255),
                                       random.randint(1, 254))
            self.mcast[link] = (group, random.randint(20000, 60000))

    def node_ip(self, node_index, link):
        return "%s.%d" % (SUBNETS[self.links.index(link)], 10 + node_index)

    def _node_env(self, idx, node):
        env = {
            "LNET_TOP": TOP,
            "LNET_TEST": self.name,
            "LNET_NODE": node.name,
            "LNET_NODES": " ".join(n.name for n in self.nodes),
            "LNET_MODDIR": self.mod_dir,
            "LNET_FLAVOUR": self.boot.flavour,
            "LNET_DEBUG_KERNEL": "1" if self.debug else "0",
            "LNET_SCRIPT": " ".join(self._script_paths(node)),
            "LNET_RXE": node.rxe,
            "LNET_MTU": node.mtu or (9000 if self.debug else 1500),
        }
        nics = []
        for i, link in enumerate(node.links):
            nics.append("eth%d=%s/24" % (i, self.node_ip(idx, link)))
        env["LNET_NICS"] = " ".join(nics)
        # Every node's address on every link: IP_<node>_<link>.
        for j, other in enumerate(self.nodes):
            for link in other.links:
                env["IP_%s_%s" % (other.name, link)] = self.node_ip(j, link)
        env.update(self.extra_env)
        env.update(node.env)
        return env

    @staticmethod
    def _script_paths(node):
        paths = []
        for script in scripts_of(node):
            path = script if os.path.isabs(script) else \
                os.path.join(TOP, "tests", "vm", script)
            if any(c.isspace() for c in path):
                raise ValueError("a test script path with white space: %r" % path)
            paths.append(path)
        return paths

    def _qemu_cmd(self, idx, node, interactive):
        memory = node.memory or 1024
        append = [
            "console=ttyS0", "root=root", "rootfstype=9p",
            # The root does not change during a run: the guest may cache it
            # (cache=loose halves the cost of starting a process).
            "rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose",
            "ro",
        ] + self.boot.args + [
            "panic=-1", "rcupdate.rcu_cpu_stall_timeout=300",
            # A soft lockup (a CPU stuck in the kernel for 2 x 60 s) ends
            # the node at once, its trace on the console: the harness
            # then tells the other nodes (_run), and the job fails in
            # minutes with the trace instead of at its timeout.
            "watchdog_thresh=60", "softlockup_panic=1", "loglevel=5",
            # The whole log is kept: the harness scans the guest's dmesg
            # at the end, and KUnit's KTAP is read from it.
            "log_buf_len=16M",
            "LNET_NODE=" + node.name,
        ]
        if interactive:
            append.append("LNET_SHELL=1")
        # For debugging only (e.g. kmemleak=off): tests never set it.
        append += os.environ.get("LNET_KERNEL_ARGS", "").split()
        kvm = accel(self.boot.image) == "kvm"
        cmd = [
            "qemu-system-x86_64", "-machine", "q35,accel=" + ("kvm" if kvm else "tcg"),
            # Under TCG the baseline CPU is faster to emulate than "max"
            # (user space picks plain SSE2 code paths).
            "-cpu", "host" if kvm else "qemu64",
            "-smp", str(node.cpus), "-m", str(memory), "-nodefaults", "-no-user-config",
            "-display", "none", "-no-reboot",
            "-kernel", self.boot.image,
            "-append", " ".join(append),
            "-fsdev", "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap",
            "-device", "virtio-9p-pci,fsdev=root,mount_tag=root",
            "-fsdev", "local,id=shared,path=%s,security_model=none" % self.run_dir,
            "-device", "virtio-9p-pci,fsdev=shared,mount_tag=shared",
            "-device", "virtio-rng-pci",
        ]
        if self.boot.initrd:
            cmd += ["-initrd", self.boot.initrd]
        for i, link in enumerate(node.links):
            group, port = self.mcast[link]
            cmd += ["-netdev", "socket,id=n%d,mcast=%s:%d,localaddr=127.0.0.1"
                    % (i, group, port),
                    "-device", "virtio-net-pci,netdev=n%d,mac=52:54:00:%02x:%02x:%02x"
                    % (i, self.links.index(link), idx, i)]
        if interactive:
            cmd += ["-serial", "mon:stdio"]
        else:
            cmd += ["-serial", "file:" + self.console_path(node)]
            # Link control (qmp.py); a short path: a socket's is limited.
            cmd += ["-qmp", "unix:%s,server=on,wait=off" % self._qmp_path(node)]
        return cmd

    def _qmp_path(self, node):
        return os.path.join(self.qmp_dir, node.name + ".qmp")

    def console_path(self, node):
        return os.path.join(self.run_dir, node.name, "console.log")

    def prepare(self):
        for idx, node in enumerate(self.nodes):
            d = os.path.join(self.run_dir, node.name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "node.env"), "w") as f:
                for k, v in self._node_env(idx, node).items():
                    f.write("%s=%s\n" % (k, shlex.quote(str(v))))

    def shell(self, node_index=0):
        """Boot one node with its console on this terminal."""
        self.prepare()
        node = self.nodes[node_index]
        return subprocess.call(self._qemu_cmd(node_index, node, True))

    def run(self):
        """Boot every node, wait for all, and judge the run."""
        self.prepare()
        self.qmp_dir = tempfile.mkdtemp(prefix="lnet-qmp-")
        try:
            return self._run()
        finally:
            shutil.rmtree(self.qmp_dir, ignore_errors=True)

    def _run(self):
        procs = []
        for idx, node in enumerate(self.nodes):
            p = subprocess.Popen(self._qemu_cmd(idx, node, False),
                                 stdin=subprocess.DEVNULL,
                                 stdout=open(os.path.join(self.run_dir, node.name,
                                                          "qemu.log"), "w"),
                                 stderr=subprocess.STDOUT,
                                 preexec_fn=_pdeathsig)
            _live[p.pid] = p
            procs.append((node, p))

        links = LinkControl([(os.path.join(self.run_dir, n.name),
                              self._qmp_path(n), len(n.links))
                             for n in self.nodes])
        links.start()
        deadline = time.monotonic() + self.timeout
        timed_out = []
        try:
            running = list(procs)
            while running:
                for node, p in list(running):
                    if p.poll() is not None:
                        running.remove((node, p))
                        self._ended(node)
                if running and time.monotonic() >= deadline:
                    for node, p in running:
                        timed_out.append(node.name)
                        p.kill()
                        p.wait()
                    running = []
                if running:
                    time.sleep(0.5)
        finally:
            links.close()
            for _, p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
                _live.pop(p.pid, None)
        return self._judge(timed_out)

    def _ended(self, node):
        """A node's QEMU exited.  If its init wrote no result (a kernel
        panic, a soft lockup: see softlockup_panic), tell the other nodes
        as its init would have (guest-lib.sh's barrier), so that they show
        their side and stop instead of waiting out the timeout."""
        if not os.path.exists(os.path.join(self.run_dir, node.name, "rc")):
            open(os.path.join(self.run_dir, ".failed." + node.name), "a").close()

    def _read(self, node, name):
        try:
            with open(os.path.join(self.run_dir, node.name, name),
                      errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def _judge_node(self, node, timed_out):
        """Return (failure, details) for one node, or None if it passed."""
        console = self._read(node, "console.log")
        tail = "--- %s: console tail ---\n%s" % (
            node.name, "\n".join(console.splitlines()[-40:]))
        # The console shows what went wrong as it happened; dmesg (saved
        # by the guest at the end) also has what was below the console's
        # log level.
        for name, text in (("console", console),
                           ("dmesg", self._read(node, "dmesg.txt"))):
            splat = find_splat(text, self.allow_splats)
            if splat:
                return ("%s: kernel splat" % node.name,
                        "--- %s: splat (%s) ---\n%s" % (node.name, name, splat))
        if node.name in timed_out:
            return "%s: timeout after %ds" % (node.name, self.timeout), tail
        rc = self._read(node, "rc").strip()
        if rc != "0":
            # The script's own reason, so that the one-line summary says
            # what failed even when the details are cut.
            why = re.search(r"^\[%s\] FAIL: (.*)$" % re.escape(node.name),
                            console, re.MULTILINE)
            return ("%s: script exit %s%s" % (
                node.name, rc or "missing",
                " (%s)" % why.group(1).strip()[:300] if why else ""), tail)
        # On the debug kernel "no leak report" means something only if
        # kmemleak was alive and its final scan ran (guest-init.sh).
        if self.debug and not re.search(r"LNET-TEST: %s kmemleak scan done$"
                                        % re.escape(node.name), console,
                                        re.MULTILINE):
            return ("%s: kmemleak's final scan did not run" % node.name, tail)
        # Nor "no lockdep report" unless lockdep was still on at the end.
        if self.debug and not re.search(r"LNET-TEST: %s lockdep live$"
                                        % re.escape(node.name), console,
                                        re.MULTILINE):
            dead = re.search(r"LNET-TEST: %s lockdep DEAD: (.*)$"
                             % re.escape(node.name), console, re.MULTILINE)
            return ("%s: lockdep was off at the end (%s)" % (
                node.name, dead.group(1).strip() if dead else
                "no lockdep line"), tail)
        return None

    def phases(self):
        """The run's phases (see report.py), merged across nodes."""
        return merge_phases([node_phases(self._read(n, "console.log"), n.name)
                             for n in self.nodes])

    def _judge(self, timed_out):
        failures = []
        details = []
        for node in self.nodes:
            verdict = self._judge_node(node, timed_out)
            if verdict:
                failures.append(verdict[0])
                details.append(verdict[1])
        if failures:
            return Result(False, "; ".join(failures), "\n".join(details))
        return Result(True)
