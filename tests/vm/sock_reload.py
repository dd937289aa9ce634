# SPDX-License-Identifier: GPL-2.0
"""ksocklnd: a peer unloads and reloads its modules and is reconnected."""

import vm
from cases import VmTest

TESTS = [
    VmTest("sock_reload", nodes=[vm.Node("a", script="sock_reload.sh"),
                                 vm.Node("b", script="sock_reload.sh")],
           flavours=("distro", "debug"), timeout=240),
]
