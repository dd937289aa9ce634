# SPDX-License-Identifier: GPL-2.0
"""Unit tests of cases.py: a VM job's timeout, the scenarios each flavour runs."""

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


def pair(**kw):
    s = ["x.sh", "y.sh", "z.sh"]
    kw.setdefault("debug_only", ("y",))
    return VmTest("p", nodes=[vm.Node("a", script=s), vm.Node("b", script=s)],
                  flavours=("distro", "debug"), **kw)


class DebugOnlyTest(unittest.TestCase):
    def scripts(self, j):
        return [vm.scripts_of(n) for n in j.nodes()]

    def test_distro_skips_debug_only(self):
        jobs = {j.flavour: j for j in pair().jobs(None)}
        self.assertEqual(self.scripts(jobs["distro"]), [["x.sh", "z.sh"]] * 2)
        self.assertEqual(self.scripts(jobs["debug"]), [["x.sh", "y.sh", "z.sh"]] * 2)

    def test_chosen_debug_only_scenario_has_no_distro_job(self):
        jobs = pair().jobs(None, only={"y"})
        self.assertEqual([j.flavour for j in jobs], ["debug"])
        self.assertEqual(self.scripts(jobs[0]), [["y.sh"]] * 2)

    def test_chosen_scenarios_and_debug_only(self):
        jobs = {j.flavour: j for j in pair().jobs(None, only={"x", "y"})}
        self.assertEqual(self.scripts(jobs["distro"]), [["x.sh"]] * 2)
        self.assertEqual(self.scripts(jobs["debug"]), [["x.sh", "y.sh"]] * 2)


class DistroOnlyTest(unittest.TestCase):
    def scripts(self, j):
        return [vm.scripts_of(n) for n in j.nodes()]

    def test_debug_skips_distro_only(self):
        jobs = {j.flavour: j for j in pair(distro_only=("z",)).jobs(None)}
        self.assertEqual(self.scripts(jobs["distro"]), [["x.sh", "z.sh"]] * 2)
        self.assertEqual(self.scripts(jobs["debug"]), [["x.sh", "y.sh"]] * 2)

    def test_chosen_distro_only_scenario_has_no_debug_job(self):
        jobs = pair(distro_only=("z",)).jobs(None, only={"z"})
        self.assertEqual([j.flavour for j in jobs], ["distro"])
        self.assertEqual(self.scripts(jobs[0]), [["z.sh"]] * 2)

    def test_both_lists_empty_runs_everything_twice(self):
        jobs = {j.flavour: j for j in pair(debug_only=()).jobs(None)}
        for f in ("distro", "debug"):
            self.assertEqual(self.scripts(jobs[f]), [["x.sh", "y.sh", "z.sh"]] * 2)


if __name__ == "__main__":
    unittest.main()
