# SPDX-License-Identifier: GPL-2.0
"""LNet selftest driven by a console that is not a test node: c runs lst,
a and b are the test nodes (ksocklnd): brw and ping both ways with every
byte checked, no data through the console, a second console refused b,
stat of remote nodes, a test node leaving mid-batch, the session ended
on both nodes (tests/vm/lst_console.sh)."""

import vm
from cases import VmTest

TESTS = [
    VmTest("lst_console",
           nodes=[vm.Node(n, script="lst_console.sh") for n in "cab"],
           flavours=("distro", "debug"), timeout=150, debug_timeout=330),
]
