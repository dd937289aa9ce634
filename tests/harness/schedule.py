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

A distro job of three VMs or more (a "crowd": routed, routed_pair,
lst_console, harness_selftest) counts as narrow too, for the same
reason, but takes the narrow part alone: no other narrow job runs beside
it, and it starts only when none runs.  So it runs beside a debug
two-node job (up to six VMs on the machine, routed_pair[distro] beside a
debug pair; its four distro VMs wait for each other and for a kernel
several times faster) instead of alone at the end of the run, where
nothing ran beside it: in the 2026-11-29 run the four of them took 268 s
there, after the debug chain, while the narrow part beside that chain
had time to spare (replayed in test_schedule.py: 2,883 s -> 2,741 s
after the builds).  Debug jobs of three VMs or more still run alone.
"""


def cores_of(slots, flavour):
    """The cores a job takes in the schedule: slots is its VMs' count (0
    for a host check, which takes one core), flavour its kernel."""
    if slots >= 2 and flavour == "distro":
        return 1
    return slots or 1


def is_crowd(slots, flavour):
    """Whether a job is a crowd: on the distro kernel, three VMs or more
    (narrow, but no other narrow job beside it)."""
    return slots > 2 and flavour == "distro"


def order(jobs, cores, cost):
    """The jobs in the order they are offered the cores: the wide ones
    (cores(job) > 1) longest first (cost(job)), then the narrow ones,
    longest first (tests/run.py's Runner.order)."""
    wide = [j for j in jobs if cores(j) > 1]
    narrow = [j for j in jobs if cores(j) <= 1]
    return (sorted(wide, key=lambda j: -cost(j))
            + sorted(narrow, key=lambda j: -cost(j)))


def pick(pending, slots, cores, crowd):
    """The first of pending (in the order they are offered the cores)
    that may start now, or the first of all if the machine is idle and
    none fits (bigger than the machine: it runs alone); None: wait.
    cores(job) and crowd(job) say what a job takes."""
    job = next((j for j in pending if slots.fits(cores(j), crowd(j))), None)
    if job is None and pending and slots.idle():
        job = pending[0]
    return job


class Slots:
    """cores: the machine's; beside: narrow jobs allowed over the count
    while a wide job runs."""

    def __init__(self, cores, beside=1):
        self.cores = cores
        self.beside = beside
        self.wide = 0           # cores taken by wide jobs
        self.narrow = 0         # cores taken by narrow jobs
        self.crowd = 0          # of which by crowds (is_crowd)

    def used(self):
        return self.wide + self.narrow

    def idle(self):
        return self.used() == 0

    def fits(self, n, crowd=False):
        """Whether a job of n cores (a crowd if crowd) may start now."""
        if n <= 1 and (self.crowd or (crowd and self.narrow)):
            return False        # a crowd has the narrow part to itself
        if n > 1:
            return (self.wide + n <= self.cores
                    and self.used() + n <= self.cores + self.beside)
        if self.used() + n <= self.cores:
            return True
        return self.wide > 0 and self.used() + n <= self.cores + self.beside

    def take(self, n, crowd=False):
        if n > 1:
            self.wide += n
        else:
            self.narrow += n
            self.crowd += n if crowd else 0

    def give(self, n, crowd=False):
        if n > 1:
            self.wide -= n
        else:
            self.narrow -= n
            self.crowd -= n if crowd else 0
