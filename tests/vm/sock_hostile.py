# SPDX-License-Identifier: GPL-2.0
"""The acceptor and ksocklnd against a hostile TCP peer: each attack is
refused and counted, and the node keeps serving."""

import vm
from cases import VmTest

TESTS = [
    VmTest("sock_hostile", nodes=[vm.Node("a", script="sock_hostile.sh"),
                                  vm.Node("b", script="sock_hostile.sh")],
           flavours=("distro", "debug"), timeout=240),
]
