# SPDX-License-Identifier: GPL-2.0
"""Which job may start now (tests/run.py's Runner).

A job takes one core per vCPU of its VMs; a host check takes one.  A job
of two nodes or more ("wide") does not keep its cores busy: measured
under TCG, the two QEMUs of a two-node job used 0.72 and 0.50 of the two
cores, the rest waiting for each other over the links.  So beside a wide
job one narrow job (a one-node VM or a host check) may run over the
count: it takes the idle part of the cores instead of waiting for the
end of every wide job (Documentation/testing.rst, "Budget").

A two-node job on the distro kernel counts as narrow (cores_of): its
VMs wait for each other as much, and its checks are the debug job's,
timed for a kernel several times faster.  So it runs beside a debug
two-node job, or beside another narrow job, instead of in the chain of
wide jobs, whose length (the debug ones, one after another) is the
run's.  Two debug two-node jobs never run at once: the debug kernel's
timing is where a loaded machine shows first.
"""


def cores_of(slots, flavour):
    """The cores a job takes in the schedule: slots is its VMs' count (0
    for a host check, which takes one core), flavour its kernel."""
    if slots == 2 and flavour == "distro":
        return 1
    return slots or 1


class Slots:
    """cores: the machine's; beside: narrow jobs allowed over the count
    while a wide job runs."""

    def __init__(self, cores, beside=1):
        self.cores = cores
        self.beside = beside
        self.wide = 0           # cores taken by wide jobs
        self.narrow = 0         # cores taken by narrow jobs

    def used(self):
        return self.wide + self.narrow

    def idle(self):
        return self.used() == 0

    def fits(self, n):
        """Whether a job of n cores may start now."""
        if n > 1:
            return (self.wide + n <= self.cores
                    and self.used() + n <= self.cores + self.beside)
        if self.used() + n <= self.cores:
            return True
        return self.wide > 0 and self.used() + n <= self.cores + self.beside

    def take(self, n):
        if n > 1:
            self.wide += n
        else:
            self.narrow += n

    def give(self, n):
        if n > 1:
            self.wide -= n
        else:
            self.narrow -= n
