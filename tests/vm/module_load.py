# SPDX-License-Identifier: GPL-2.0
"""Module load/unload, 20 rounds (10 on debug, with kmemleak), both kernels."""

import vm
from cases import VmTest

TESTS = [
    VmTest("module_load", nodes=[vm.Node("m", script="module_load.sh")],
           flavours=("distro", "debug"), timeout=120, debug_timeout=900),
]
