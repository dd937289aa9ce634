# SPDX-License-Identifier: GPL-2.0
"""The harness judges failures: a kernel splat, a VM past its timeout, a
failing script and a scenario that leaves a module of ours loaded must
each fail a test.  This test passes only if all four are reported, and if
the splat scanner caught every report the "splat" node planted, each where
it must (see harness_selftest.sh)."""

import os
import re

import vm
from cases import VmTest
from splat import find_splat

PLANT = re.compile(r"LNET-TEST: plant (\d+) (\w+)$")
MIN_PLANTS = 30


def sections(text):
    """Map plant number -> the log lines of its section."""
    out = {}
    cur = None
    for line in text.splitlines():
        m = PLANT.search(line)
        if m:
            cur = int(m.group(1))
            out[cur] = (m.group(2), [])
        elif cur is not None:
            out[cur][1].append(line)
    return out


def check(run_dir, _job):
    d = os.path.join(run_dir, "splat")
    try:
        planted = int(open(os.path.join(d, "plants")).read())
        console = sections(open(os.path.join(d, "console.log"),
                                errors="replace").read())
        dmesg = sections(open(os.path.join(d, "dmesg.txt"),
                              errors="replace").read())
    except (OSError, ValueError) as e:
        return vm.Result(False, "splat node left no results: %s" % e)
    if planted < MIN_PLANTS or sorted(dmesg) != list(range(1, planted + 1)):
        return vm.Result(False, "%d plants, dmesg has sections %s"
                         % (planted, sorted(dmesg)))
    wrong = []
    for n in range(1, planted + 1):
        where, dlines = dmesg[n]
        clines = console.get(n, ("", []))[1]
        in_console = bool(find_splat("\n".join(clines)))
        in_dmesg = bool(find_splat("\n".join(dlines)))
        want = {"console": (True, None), "dmesg": (False, True),
                "clean": (False, False)}.get(where)
        if want is None or in_console != want[0] or \
                (want[1] is not None and in_dmesg != want[1]):
            wrong.append("plant %d (%s): console %s, dmesg %s: %s"
                         % (n, where, in_console, in_dmesg,
                            " | ".join(dlines or clines)[:200]))
    if wrong:
        return vm.Result(False, "the scanner misjudged %d plant(s)" % len(wrong),
                         "\n".join(wrong))
    return vm.Result(True)


TESTS = [
    VmTest("harness_selftest",
           nodes=[vm.Node("splat", script="harness_selftest.sh"),
                  vm.Node("hang", script="harness_selftest.sh"),
                  vm.Node("exit", script="harness_selftest.sh"),
                  vm.Node("leftover", script="harness_selftest.sh")],
           flavours=("distro",), timeout=60,
           expect_failure=r"(?=.*splat: kernel splat)(?=.*hang: timeout)"
                          r"(?=.*exit: script exit 1)(?=.*leftover: script exit 1)",
           check=check),
]
