# SPDX-License-Identifier: GPL-2.0
"""The debug kernel's catchers reach our code: UBSAN, which instruments
only what asks for it, must report the undefined behaviour lnet's
test_ubsan hook commits on purpose, DEBUG_OBJECTS the armed timer its
test_odebug hook frees (catcher_selftest.sh), and the harness
must fail the run for it, as harness_selftest proves the splat scanner
with planted reports."""

import os
import re

import vm
from cases import VmTest

WANT = [re.compile(r"UBSAN: %s in \S*lnet/debugfs\.c:\d+" % what)
        for what in ("shift-out-of-bounds", "array-index-out-of-bounds")]
WANT.append(re.compile(r"ODEBUG: free active \(active state \d+\) "
                       r"object type: timer_list hint: "
                       r"lnet_test_odebug_timer\+\S+ \[lnet\]"))


def check(run_dir, _job):
    try:
        console = open(os.path.join(run_dir, "ubsan", "console.log"),
                       errors="replace").read()
        rc = open(os.path.join(run_dir, "ubsan", "rc")).read().strip()
    except OSError as e:
        return vm.Result(False, "the ubsan node left no console: %s" % e)
    missing = [w.pattern for w in WANT if not w.search(console)]
    if missing:
        return vm.Result(False, "the console lacks %s" % ", ".join(missing))
    if rc != "0" or not re.search(r"\[ubsan\] ODEBUG reported the freed "
                                  r"active timer$", console, re.MULTILINE):
        return vm.Result(False, "the node's script failed (exit %s)" % rc)
    return vm.Result(True)


TESTS = [
    VmTest("catcher_selftest",
           nodes=[vm.Node("ubsan", script="catcher_selftest.sh")],
           flavours=("debug",), timeout=60, debug_timeout=120,
           expect_failure=r"^ubsan: kernel splat$",
           check=check),
]
