# SPDX-License-Identifier: GPL-2.0
"""Unit tests of schedule.py: which job may start beside which."""

import unittest

from schedule import Slots, cores_of


class SlotsTest(unittest.TestCase):
    def test_one_narrow_job_beside_a_wide_one(self):
        s = Slots(2)
        self.assertTrue(s.fits(2))
        s.take(2)
        self.assertTrue(s.fits(1))
        s.take(1)
        self.assertFalse(s.fits(1))
        self.assertFalse(s.fits(2))

    def test_the_next_wide_job_starts_beside_the_narrow_one(self):
        s = Slots(2)
        s.take(2)
        s.take(1)
        s.give(2)
        self.assertTrue(s.fits(2))
        s.take(2)
        self.assertFalse(s.fits(1))

    def test_narrow_jobs_alone_two_at_a_time(self):
        s = Slots(2)
        s.take(1)
        self.assertTrue(s.fits(1))
        s.take(1)
        self.assertFalse(s.fits(1))
        self.assertFalse(s.fits(2))

    def test_no_second_wide_job(self):
        s = Slots(4)
        s.take(2)
        self.assertTrue(s.fits(2))
        s.take(2)
        self.assertFalse(s.fits(2))
        self.assertTrue(s.fits(1))

    def test_none_beside_a_job_bigger_than_the_machine(self):
        s = Slots(2)
        self.assertFalse(s.fits(3))
        self.assertTrue(s.idle())
        s.take(3)
        self.assertFalse(s.fits(1))
        s.give(3)
        self.assertTrue(s.idle())

    def test_beside_zero_is_the_old_policy(self):
        s = Slots(2, beside=0)
        s.take(2)
        self.assertFalse(s.fits(1))

    def test_a_distro_pair_is_narrow(self):
        self.assertEqual(cores_of(2, "distro"), 1)
        self.assertEqual(cores_of(2, "debug"), 2)
        self.assertEqual(cores_of(3, "distro"), 3)
        self.assertEqual(cores_of(1, "debug"), 1)
        self.assertEqual(cores_of(0, "host"), 1)

    def test_a_distro_pair_beside_a_debug_pair(self):
        s = Slots(2)
        s.take(cores_of(2, "debug"))
        self.assertTrue(s.fits(cores_of(2, "distro")))
        s.take(cores_of(2, "distro"))
        self.assertFalse(s.fits(cores_of(1, "debug")))
        self.assertFalse(s.fits(cores_of(2, "debug")))


if __name__ == "__main__":
    unittest.main()
