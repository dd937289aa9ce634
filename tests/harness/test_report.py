# SPDX-License-Identifier: GPL-2.0
"""Unit tests of report.py: phases from a console, their merge, JUnit."""

import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import vm
from report import (Phase, failure_recap, merge_phases, node_phases,
                    write_junit)

CONSOLE = """[    5.000000] LNET-TEST: a up
[    5.100000] LNET-TEST: a phase ping
[    7.100000] LNET-TEST: b phase ping
[    9.600000] LNET-TEST: a phase bulk
user output
[   20.600000] LNET-TEST: a script exit 1
"""


class Phases(unittest.TestCase):
    def test_node_phases(self):
        p = node_phases(CONSOLE, "a")
        self.assertEqual([(x.name, x.ok) for x in p], [("ping", True), ("bulk", False)])
        self.assertAlmostEqual(p[0].secs, 4.5)
        self.assertAlmostEqual(p[1].secs, 11.0)

    def test_scenarios(self):
        console = ("[ 1.0] LNET-TEST: a scenario s1\n"
                   "[ 2.0] LNET-TEST: a phase p\n"
                   "[ 4.0] LNET-TEST: a scenario s2\n"
                   "[ 5.0] LNET-TEST: a phase q\n"
                   "[ 8.0] LNET-TEST: a script exit 1\n")
        p = node_phases(console, "a")
        self.assertEqual([(x.name, x.ok, x.secs) for x in p],
                         [("s1", True, 3.0), ("s1/p", True, 2.0),
                          ("s2", False, 4.0), ("s2/q", False, 3.0)])

    def test_processes(self):
        """Each phase's processes: the pid marks around it (none: 0)."""
        console = ("[ 1.0] LNET-TEST: a pid 100\n"
                   "[ 1.0] LNET-TEST: a scenario s1\n"
                   "[ 2.0] LNET-TEST: a pid 130\n"
                   "[ 2.0] LNET-TEST: a phase p\n"
                   "[ 4.0] LNET-TEST: a pid 250\n"
                   "[ 4.0] LNET-TEST: a phase q\n"
                   "[ 5.0] LNET-TEST: a scenario s2\n"
                   "[ 8.0] LNET-TEST: a pid 260\n"
                   "[ 8.0] LNET-TEST: a script exit 0\n")
        p = node_phases(console, "a")
        self.assertEqual([(x.name, x.procs) for x in p],
                         [("s1", 150), ("s1/p", 120), ("s1/q", 0),
                          ("s2", 10)])
        b = node_phases(console.replace(" a ", " b "), "b")
        merged = merge_phases([p, b])
        self.assertEqual(merged[0].procs, 300)

    def test_unfinished_phase_fails(self):
        p = node_phases("[ 1.0] LNET-TEST: a phase x\n", "a")
        self.assertEqual([(x.name, x.ok) for x in p], [("x", False)])

    def test_merge(self):
        m = merge_phases([[Phase("x", True, 1.0)], [Phase("x", False, 3.0)]])
        self.assertEqual(m, [Phase("x", False, 3.0)])

    def test_junit(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.xml")
            write_junit(path, [("t[distro]", vm.Result(False, "boom"), 3.0,
                                [Phase("p", False, 1.0)]),
                               ("u[debug]", vm.Result(True), 2.0, [])])
            root = ET.parse(path).getroot()
            self.assertEqual(root.get("failures"), "1")
            self.assertEqual(len(root.findall("testcase")), 3)
            self.assertEqual(root.find("testcase/failure").get("message"), "boom")


class Recap(unittest.TestCase):
    def test_failed_jobs_only_with_their_key_lines(self):
        details = ("--- a: console tail ---\n[a] fine\n"
                   "[ 0.9] LNET-TEST: a kmemleak scan done\n"
                   "[ 1.0] ko2iblnd: timed out tx to 1.2.3.4, closing\n"
                   "[a] FAIL: put failed\n[a] FAIL: put failed\n")
        results = [("ok[distro]", vm.Result(True), 1, []),
                   ("bad[distro]", vm.Result(False, "a: script exit 1",
                                             details), 2, [])]
        self.assertEqual(failure_recap(results), [
            "  bad[distro]: a: script exit 1",
            "      [ 1.0] ko2iblnd: timed out tx to 1.2.3.4, closing",
            "      | [a] fine",
            "      [a] FAIL: put failed"])

    def test_a_scripts_last_lines_before_its_first_fail(self):
        details = ("--- a: console tail ---\n"
                   + "".join("[a] line %d\n" % i for i in range(20))
                   + "[b] other node\n[ 2.0] kernel line\n"
                   "[a] FAIL: ping 1@tcp\n[a] after\n"
                   "--- b: console tail ---\n[b] FAIL: barrier\n")
        results = [("bad[debug]", vm.Result(False, "a: script exit 1",
                                            details), 2, [])]
        self.assertEqual(failure_recap(results), [
            "  bad[debug]: a: script exit 1"]
            + ["      | [a] line %d" % i for i in range(8, 20)]
            + ["      [a] FAIL: ping 1@tcp",
               "      | [b] other node",
               "      [b] FAIL: barrier"])

    def test_a_kernel_report_with_its_first_frames(self):
        details = ("[ 9.0] watchdog: BUG: soft lockup - CPU#0 stuck for 626s!\n"
                   "[ 9.0] RIP: 0010:rxe_completer+0x12/0x900 [rdma_rxe]\n"
                   "[ 9.0] Call Trace:\n[ 9.0]  <IRQ>\n"
                   + "".join("[ 9.0]  f%d+0x1/0x2\n" % i for i in range(9))
                   + "[ 9.0] Kernel panic - not syncing: softlockup: hung tasks\n")
        results = [("bad[distro]", vm.Result(False, "a: kernel splat", details),
                    2, [])]
        recap = failure_recap(results)
        self.assertEqual(recap[1:3], [
            "      [ 9.0] watchdog: BUG: soft lockup - CPU#0 stuck for 626s!",
            "      [ 9.0] RIP: 0010:rxe_completer+0x12/0x900 [rdma_rxe]"])
        self.assertEqual(recap[3:], ["      [ 9.0]  f%d+0x1/0x2" % i
                                     for i in range(6)] + [
            "      [ 9.0] Kernel panic - not syncing: softlockup: hung tasks"])


if __name__ == "__main__":
    unittest.main()
