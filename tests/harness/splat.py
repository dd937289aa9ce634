# SPDX-License-Identifier: GPL-2.0
"""Find kernel splats in a guest's console log or its saved dmesg.

A kernel line is recognised by its printk timestamp, wherever it sits on
the line: on the console a kernel message can be glued after user output
that had no newline yet.  What counts as a splat is below (SPLAT); RCU
stall reports are not in it on purpose: under TCG they measure the
emulator, and the stall timeout is raised on the command line instead.
kmemleak reports ("unreferenced object"), which the guest copies to the
console after its final scan, count wherever they appear.

tests/harness/test_splat.py unit-tests this file; the VM test
harness_selftest plants every marker in a real guest.
"""

import re

STAMP = r"\[ *\d+\.\d+\] "

# Markers that make a kernel line a splat, one per kind of report.
MARKERS = [
    r"BUG:", r"WARNING:", r"Oops", r"Kernel panic", r"kernel BUG at",
    r"general protection fault", r"divide error: ", r"stack segment: ",
    r"invalid opcode: ", r"int3: ",
    r"KASAN:", r"UBSAN:",
    r"possible circular locking", r"possible recursive locking",
    r"inconsistent lock state", r"suspicious RCU usage",
    r"INFO: trying to register non-static key",
    r"INFO: task .* blocked for more than",
    r"list_add corruption", r"list_del corruption",
    r"unregister_netdevice: waiting for",
    # kmemleak giving up: from then on "no leaks" means nothing.
    r"kmemleak: Kernel memory leak detector disabled",
    r"kmemleak: Cannot allocate a kmemleak_object",
    r"kmemleak: Memory pool empty",
    # DEBUG_OBJECTS: an object freed, re-initialised or destroyed while
    # active (its WARNING follows), and the tracker giving up.
    r"ODEBUG: .*object type:", r"ODEBUG: Out of memory",
]

SPLAT = re.compile(STAMP + ".*(" + "|".join(MARKERS) + ")"
                   r"|unreferenced object 0x")

# A failed allocation is a splat when our code asked for it: its call
# trace (within the next lines) names one of our modules.
ALLOC_FAILURE = re.compile(STAMP + r".*page allocation failure")
OUR_MODULE = re.compile(r"\[(lnet|ksocklnd|ko2iblnd|lnet_test|lnet_selftest|"
                        r"\w+_test)\]")
TRACE_LINES = 60

# The guest's "up" line: from here on the node runs the test.
NODE_UP = re.compile(STAMP + r"LNET-TEST: \S+ up$")

# The power-off the guest asks for once its results are written.  What
# follows is device shutdown racing the still-running init: with the 9p
# root gone, init can fault on its own pages, die of SIGBUS and make the
# kernel panic ("Attempted to kill init").  That is the harness's
# teardown, not the test's splat.
POWER_OFF = re.compile(STAMP + r"sysrq: Power Off$")

CONTEXT_BEFORE = 2
CONTEXT_AFTER = 45


def _is_splat(lines, i, allow):
    line = lines[i]
    if any(a.search(line) for a in allow):
        return False
    if SPLAT.search(line):
        return True
    if ALLOC_FAILURE.search(line):
        return any(OUR_MODULE.search(x) for x in lines[i + 1:i + TRACE_LINES])
    return False


def find_splat(text, allow=()):
    """Return the first splat in a console log or dmesg with its context,
    or ''.

    Splats before the node is up are not ours: none of the project's
    modules is loaded yet.  (The debug kernel under TCG once reported a
    KASAN wild access in an interrupt during early CPU identification.)
    They are skipped, unless the node never came up.  So is what follows
    the final power-off request (see POWER_OFF).  `allow` is a list of
    compiled patterns a test expects (a fault-injection test's allocation
    failures): a line matching one is not a splat.
    """
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if NODE_UP.search(line)),
                 0)
    end = next((i for i, line in enumerate(lines)
                if i >= start and POWER_OFF.search(line)), len(lines))
    for i in range(start, end):
        if _is_splat(lines, i, allow):
            return "\n".join(lines[max(0, i - CONTEXT_BEFORE):i + CONTEXT_AFTER])
    return ""
