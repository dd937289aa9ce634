# SPDX-License-Identifier: GPL-2.0
"""The harness judges failures: a kernel splat, a VM past its timeout and a
failing script must each fail a test.  This test passes only if all three
are reported."""

import vm
from cases import VmTest

TESTS = [
    VmTest("harness_selftest",
           nodes=[vm.Node("splat", script="harness_selftest.sh"),
                  vm.Node("hang", script="harness_selftest.sh"),
                  vm.Node("exit", script="harness_selftest.sh")],
           flavours=("distro",), timeout=60,
           expect_failure=r"(?=.*splat: kernel splat)(?=.*hang: timeout)"
                          r"(?=.*exit: script exit 1)"),
]
