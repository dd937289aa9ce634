# SPDX-License-Identifier: GPL-2.0
"""Unit tests of cpumeter.py: cores busy over a window of the run."""

import unittest

from cpumeter import CpuMeter, read_stat


class FakeHost:
    """Two CPUs; each tick of the clock adds @busy and @idle jiffies."""

    def __init__(self):
        self.t = 0.0
        self.busy = 0
        self.total = 0

    def tick(self, busy, idle):
        self.t += 1
        self.busy += busy
        self.total += busy + idle

    def reader(self):
        return self.busy, self.total

    def clock(self):
        return self.t


class CpuMeterTest(unittest.TestCase):
    def test_window(self):
        h = FakeHost()
        m = CpuMeter(2, reader=h.reader, clock=h.clock)
        m.sample()
        for _ in range(10):         # one core of two busy
            h.tick(100, 100)
            m.sample()
        start = h.t
        for _ in range(10):         # both busy
            h.tick(200, 0)
            m.sample()
        self.assertAlmostEqual(m.busy(start, h.t), 2.0)
        self.assertAlmostEqual(m.busy(0, h.t), 1.5)

    def test_too_short_a_window(self):
        h = FakeHost()
        m = CpuMeter(2, reader=h.reader, clock=h.clock)
        m.sample()
        self.assertIsNone(m.busy(5, 6))

    def test_read_stat(self):
        busy, total = read_stat()
        self.assertGreater(total, 0)
        self.assertLessEqual(busy, total)


if __name__ == "__main__":
    unittest.main()
