# SPDX-License-Identifier: GPL-2.0
"""The Debian packages end to end, as an admin's machine meets them
(issue 39): before the boot, on the host (tests/deb_dkms_build.sh), `make
deb` builds lnet-dkms and lnet-utils (lintian clean), dkms adds, builds
and installs lnet-dkms's sources against Debian's kernel headers (the
distro test kernel's) into a scratch tree of its own (--dkmstree,
--sourcetree, --installtree, never the host's /lib/modules), and
lnet-utils' files are unpacked; then two VMs on the distro kernel run
deb_dkms.sh on those very modules and utilities: lnet.service's start
from the package's example lnet.conf, a ping, 1 MiB PUTs checked byte for
byte at the receiver, the service's stop.

Distro kernel only, by design: the packages' modules are built against
Debian's headers for Debian's kernel (the debug kernel is this project's
own build, no distro's).  A missing tool (dkms, lintian, ...) fails the
job: scripts/deps.sh installs them.
"""

import os
import subprocess
import time

import vm
from cases import VmTest


def build_packages(run_dir, flavour):
    """tests/deb_dkms_build.sh into build/deb-dkms; its KEY=VALUE lines
    become the nodes' environment.  Its output and time in the run
    directory's prepare.txt."""
    out = os.path.join(vm.TOP, "build", "deb-dkms")
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(vm.TOP, "tests", "deb_dkms_build.sh"), out],
                       cwd=vm.TOP, capture_output=True, text=True, timeout=900)
    secs = time.monotonic() - t0
    with open(os.path.join(run_dir, "prepare.txt"), "w") as f:
        f.write(p.stdout + p.stderr + "prepare: %.0f s\n" % secs)
    if p.returncode != 0:
        return vm.Result(False, "package build (tests/deb_dkms_build.sh) failed",
                         (p.stdout + p.stderr)[-4000:]), {}
    env = dict(line.split("=", 1) for line in p.stdout.splitlines()
               if line.startswith("LNET_PKG_"))
    env["LNET_PKG_PREPARE_SECS"] = "%.0f" % secs
    return vm.Result(True), env


TESTS = [
    VmTest("deb_dkms", nodes=[vm.Node("a", script="deb_dkms.sh"),
                              vm.Node("b", script="deb_dkms.sh")],
           flavours=("distro",), timeout=150, prepare=build_packages),
]
