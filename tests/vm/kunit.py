# SPDX-License-Identifier: GPL-2.0
"""KUnit: every suite module in kunit/, loaded in a VM on both kernels.

The guest copies each suite's KTAP from debugfs; here the suites are joined
into one KTAP document and judged by the kernel's own
`tools/testing/kunit/kunit.py parse`."""

import glob
import os
import re
import subprocess

import vm
from cases import VmTest


def join_ktap(files):
    """Join per-suite debugfs KTAP documents (each "1..1") into one."""
    out = ["KTAP version 1", "1..%d" % len(files)]
    for i, path in enumerate(files, 1):
        lines = open(path).read().splitlines()
        body = [ln for ln in lines[2:]]     # drop "KTAP version 1", "1..1"
        if body:
            body[-1] = re.sub(r"^(ok|not ok) 1 ", r"\g<1> %d " % i, body[-1])
        out += body
    return "\n".join(out) + "\n"


def check(run_dir, job):
    kdir = os.path.join(run_dir, "k", "kunit")
    mods = open(os.path.join(kdir, "modules")).read().split()
    files = sorted(glob.glob(os.path.join(kdir, "*.ktap")))
    if len(files) < len(mods):
        return vm.Result(False, "%d suite module(s) but %d result(s)"
                         % (len(mods), len(files)))
    joined = os.path.join(run_dir, "kunit.ktap")
    with open(joined, "w") as f:
        f.write(join_ktap(files))
    src = subprocess.run(["bash", "-c", ". scripts/lib.sh; kernel_src_dir"],
                         cwd=vm.TOP, check=True, capture_output=True,
                         text=True).stdout.strip()
    p = subprocess.run(["python3", os.path.join(src, "tools/testing/kunit/kunit.py"),
                        "parse", joined], capture_output=True, text=True)
    with open(os.path.join(run_dir, "kunit.parsed"), "w") as f:
        f.write(p.stdout + p.stderr)
    summary = [ln for ln in p.stdout.splitlines() if "Testing complete" in ln]
    if p.returncode != 0:
        return vm.Result(False, "KUnit failures: %s" % "".join(summary).strip(),
                         p.stdout[-6000:])
    print("    kunit[%s]: %s" % (job.flavour, "".join(summary).strip()
                                 .replace("=", "").strip()), flush=True)
    return vm.Result(True)


TESTS = [
    VmTest("kunit", nodes=[vm.Node("k", script="kunit.sh")],
           flavours=("lean", "debug"), timeout=120, check=check),
]
