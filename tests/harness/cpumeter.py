# SPDX-License-Identifier: GPL-2.0
"""How busy the host's CPUs were while a job ran.

The suite's time on CI is bounded by the host's two cores: a job line
that says how many of them were busy while it ran shows where a run
waited (cores idle) and where it was CPU-bound (both busy), which is
what the budget (Documentation/testing.rst) is planned from.  A thread
samples /proc/stat; busy() answers for any window of the run."""

import bisect
import threading
import time

INTERVAL = 2.0


def read_stat(path="/proc/stat"):
    """(busy, total) jiffies of all CPUs: busy is all but idle and iowait."""
    with open(path) as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    total = sum(fields[:8])          # guest time is counted in user already
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return total - idle, total


class CpuMeter:
    """Samples (time, busy, total) every INTERVAL seconds until stop()."""

    def __init__(self, ncpu, reader=read_stat, clock=time.monotonic):
        self.ncpu = ncpu
        self.reader = reader
        self.clock = clock
        self.times = []
        self.samples = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread = None

    def sample(self):
        # Read under the lock: the samples stay in the order of their
        # times when the runner's threads sample at once (busy()).
        with self.lock:
            self.times.append(self.clock())
            self.samples.append(self.reader())

    def start(self):
        self.sample()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.done.wait(INTERVAL):
            self.sample()

    def stop(self):
        self.done.set()
        if self.thread:
            self.thread.join()

    def busy(self, t0, t1):
        """Cores busy on average between t0 and t1 (the samples nearest
        inside the window), or None if the window holds fewer than two."""
        self.sample()
        with self.lock:
            i = bisect.bisect_left(self.times, t0)
            j = bisect.bisect_right(self.times, t1) - 1
            if j <= i:
                return None
            b0, n0 = self.samples[i]
            b1, n1 = self.samples[j]
        if n1 <= n0:
            return None
        return self.ncpu * (b1 - b0) / (n1 - n0)
