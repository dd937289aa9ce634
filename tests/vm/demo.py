# SPDX-License-Identifier: GPL-2.0
"""The demo: two VMs on one link run LNet over TCP (ksocklnd)."""

import vm
from cases import VmTest

TESTS = [
    VmTest("demo", nodes=[vm.Node("a", script="demo.sh"),
                          vm.Node("b", script="demo.sh")],
           flavours=("distro", "debug"), timeout=150),
]
