# SPDX-License-Identifier: GPL-2.0
"""lnetctl and the "lnet" generic netlink family: configure, net show (lo),
ping 0@lo, stats, global parameters, export/import round trip, and bad
input (tool arguments and raw netlink requests) refused with a message and
without changing anything."""

import vm
from cases import VmTest

TESTS = [
    VmTest("lnetctl", nodes=[vm.Node("c", script="lnetctl.sh")],
           # Lean only: it takes ~15 min on the debug kernel; the control
           # API under the family runs there in the lnet_ctl KUnit suite.
           flavours=("distro", "debug"), timeout=600),
]
