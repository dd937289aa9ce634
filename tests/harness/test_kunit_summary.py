# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tests/vm/kunit.py: the failure summary names the cases."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "vm"))
import kunit  # noqa: E402


PARSED = """\
[08:51:58] ================= nidmap_pub (10 subtests) =================
[08:51:58] [PASSED] pub_scale_10k
[08:51:58] # pub_scale_100k: ASSERTION FAILED at kunit/nidmap_pub_test.c:503
[08:51:58] [FAILED] pub_scale_100k
[08:51:58] [CRASHED] pub_scale_unsub
[08:51:58] ============= [FAILED] nidmap_pub =============
[08:51:58] Testing complete. Ran 258 tests: passed: 256, failed: 1, crashed: 1
"""


class FailedCasesTest(unittest.TestCase):
    def test_names_failed_and_crashed_once(self):
        self.assertEqual(kunit.failed_cases(PARSED),
                         ["pub_scale_100k", "pub_scale_unsub", "nidmap_pub"])

    def test_none_when_all_passed(self):
        self.assertEqual(kunit.failed_cases("[x] [PASSED] a\n"), [])


if __name__ == "__main__":
    unittest.main()
