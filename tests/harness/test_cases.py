# SPDX-License-Identifier: GPL-2.0
"""Unit tests of cases.py: a VM job's timeout."""

import unittest

import vm
from cases import VmTest


def job(**kw):
    t = VmTest("t", nodes=[vm.Node("a"), vm.Node("b")],
               flavours=("distro", "debug"), timeout=100, **kw)
    return {j.flavour: j for j in t.jobs(None)}


class TimeoutTest(unittest.TestCase):
    def test_debug_timeout_derived(self):
        self.assertEqual(job()["debug"].timeout(), 3 * 100 + 120)
        self.assertEqual(job(debug_timeout=250)["debug"].timeout(), 250)

    def test_stretched_beside_a_wide_job(self):
        j = job()["distro"]
        j.stretch = 1.5
        self.assertEqual(j.timeout(), 150)

    def test_a_test_that_must_fail_is_not_stretched(self):
        # harness_selftest's hang node waits out the whole timeout.
        j = job(expect_failure="hang: timeout")["distro"]
        j.stretch = 1.5
        self.assertEqual(j.timeout(), 100)


if __name__ == "__main__":
    unittest.main()
