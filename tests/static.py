# SPDX-License-Identifier: GPL-2.0
"""Host checks: module builds (W=1, sparse) against every kernel, and
checkpatch --strict on every project C file and header."""

import glob
import os
import subprocess

import vm
from cases import HostTest, build_modules

SOURCE_DIRS = ["include", "lnet", "lnettest", "lnd", "health", "nidmap", "kunit",
               "utils"]


def checkpatch(_run_dir):
    src = subprocess.run(["bash", "-c", ". scripts/lib.sh; kernel_src_dir"],
                         cwd=vm.TOP, check=True, capture_output=True,
                         text=True).stdout.strip()
    files = []
    for d in SOURCE_DIRS:
        for ext in ("c", "h"):
            files += glob.glob(os.path.join(vm.TOP, d, "**", "*." + ext),
                               recursive=True)
    if not files:
        return vm.Result(False, "no source files found")
    p = subprocess.run([os.path.join(src, "scripts", "checkpatch.pl"),
                        "--strict", "--no-tree", "--quiet", "--no-summary",
                        "--show-types", "-f"] + sorted(files),
                       cwd=vm.TOP, capture_output=True, text=True)
    if p.returncode != 0 or p.stdout.strip():
        return vm.Result(False, "checkpatch findings", p.stdout + p.stderr)
    return vm.Result(True)


TESTS = [
    HostTest("build[distro]", lambda d: build_modules("distro"), flavour="distro",
             builds=True),
    HostTest("build[debug]", lambda d: build_modules("debug"), flavour="debug",
             builds=True),
    HostTest("checkpatch", checkpatch),
]
