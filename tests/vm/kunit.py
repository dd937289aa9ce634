# SPDX-License-Identifier: GPL-2.0
"""KUnit: every suite module in kunit/, loaded in a VM on both kernels.

The guest keeps the KTAP each suite module prints; here the documents are
joined into one and judged by the kernel's own
`tools/testing/kunit/kunit.py parse`."""

import glob
import os
import re
import subprocess

import vm
from cases import VmTest, module_dir


def join_ktap(files):
    """Join the KTAP printed by each suite module into one document.

    A module's suites are printed as indented subtests followed by an
    unindented "ok N <suite>" line; the top-level header was printed once
    at boot (6.1 prints it only there), so one is made here.  Kernel lines
    before the first subtest are dropped and the top-level result lines
    are renumbered across modules."""
    body = []
    total = 0
    for path in files:
        lines = open(path, errors="replace").read().splitlines()
        start = next((i for i, ln in enumerate(lines)
                      if "KTAP version" in ln), None)
        if start is None:
            continue
        if lines[start].startswith("KTAP") and start + 1 < len(lines) and \
                re.match(r"^1\.\.\d+$", lines[start + 1]):
            start += 2          # a top-level header of its own: replaced
        for ln in lines[start:]:
            m = re.match(r"^(ok|not ok) \d+ (.*)$", ln)
            if m:
                total += 1
                ln = "%s %d %s" % (m.group(1), total, m.group(2))
            body.append(ln)
    return "\n".join(["KTAP version 1", "1..%d" % total] + body) + "\n"


def expected_suites(job):
    """The suite modules the run had to load: those asked for with
    --suite, else every one the host built for this kernel."""
    if job.suites:
        return sorted(s if s.endswith("_test") else s + "_test"
                      for s in job.suites)
    built = glob.glob(os.path.join(module_dir(job.flavour), "kunit", "*_test.ko"))
    return sorted(os.path.basename(p)[:-3] for p in built)


def failed_cases(parsed):
    """The cases (and suites) kunit.py parse marked failed, so that the
    one-line summary CI shows names them."""
    names = []
    for ln in parsed.splitlines():
        m = re.search(r"\[(FAILED|CRASHED)\] (\S+)", ln)
        if m and m.group(2) not in names:
            names.append(m.group(2))
    return names


def check(run_dir, job):
    kdir = os.path.join(run_dir, "k", "kunit")
    want = expected_suites(job)
    files = sorted(glob.glob(os.path.join(kdir, "*.ktap")))
    got = sorted(os.path.basename(f)[:-5] for f in files)
    if not want or got != want:
        return vm.Result(False, "suite modules: wanted %s, got results of %s"
                         % (" ".join(want) or "none", " ".join(got) or "none"))
    silent = [os.path.basename(f) for f in files
              if "KTAP version" not in open(f, errors="replace").read()]
    if silent:
        return vm.Result(False, "no KTAP from: %s" % " ".join(silent))
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
    summary = "".join(ln for ln in p.stdout.splitlines()
                      if "Testing complete" in ln).strip()
    if p.returncode != 0:
        return vm.Result(False, "KUnit failures: %s; failed: %s"
                         % (summary, " ".join(failed_cases(p.stdout)) or "?"),
                         p.stdout[-6000:])
    # A skipped case is a case that did not run: not a pass.
    m = re.search(r"Ran (\d+) tests: passed: (\d+)$", summary)
    if not m or m.group(1) != m.group(2):
        return vm.Result(False, "KUnit: not every case passed: %s" % summary,
                         p.stdout[-6000:])
    print("    kunit[%s]: %s" % (job.flavour, "".join(summary).strip()
                                 .replace("=", "").strip()), flush=True)
    return vm.Result(True)


TESTS = [
    VmTest("kunit", nodes=[vm.Node("k", script="kunit.sh")],
           flavours=("debug",), timeout=120, debug_timeout=600, check=check),
]
