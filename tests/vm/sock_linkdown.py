# SPDX-License-Identifier: GPL-2.0
"""ksocklnd: a link goes down mid-transfer; every operation ends with an
error (none hangs), and traffic resumes once the link is back."""

import vm
from cases import VmTest

TESTS = [
    VmTest("sock_linkdown", nodes=[vm.Node("a", script="sock_linkdown.sh"),
                                   vm.Node("b", script="sock_linkdown.sh")],
           flavours=("distro", "debug"), timeout=180, debug_timeout=400),
]
