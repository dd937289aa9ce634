# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the splat scanner (splat.py) and of the harness's verdict
on a node (vm.Topology._judge_node).  Run by the host test harness_unit:
python3 -m unittest discover -s tests/harness -p 'test_*.py'"""

import os
import re
import tempfile
import unittest

import vm
from splat import MARKERS, find_splat

UP = "[    5.000000] LNET-TEST: a up"
OFF = "[   60.000000] sysrq: Power Off"


def log(*lines):
    return "\n".join(("[   10.000000] " + ln) if not ln.startswith("[") else ln
                     for ln in lines)


class Scanner(unittest.TestCase):
    # Real report lines, one per kind (independent of splat.MARKERS, so
    # dropping a marker fails here).
    REPORTS = [
        "BUG: unable to handle page fault for address: ffffc90000000000",
        "WARNING: CPU: 0 PID: 1 at lnet/ni.c:1 lnet_x+0x0/0x10 [lnet]",
        "Oops: 0000 [#1] PREEMPT SMP",
        "Kernel panic - not syncing: Fatal exception",
        "kernel BUG at lib/list_debug.c:53!",
        "general protection fault, probably for non-canonical address 0xdead",
        "divide error: 0000 [#1] PREEMPT SMP KASAN",
        "stack segment: 0000 [#1] PREEMPT SMP",
        "invalid opcode: 0000 [#1] PREEMPT SMP",
        "int3: 0000 [#1] PREEMPT SMP",
        "BUG: KASAN: use-after-free in kib_x+0x0/0x10 [ko2iblnd]",
        "UBSAN: shift-out-of-bounds in lnet/hdr.c:10:3",
        "WARNING: possible circular locking dependency detected",
        "WARNING: possible recursive locking detected",
        "WARNING: inconsistent lock state",
        "WARNING: suspicious RCU usage",
        "INFO: trying to register non-static key.",
        "INFO: task kworker/0:1:12 blocked for more than 60 seconds.",
        "list_add corruption. prev->next should be next (ffff888000000000)",
        "list_del corruption, ffff888000000000->next is LIST_POISON1",
        "unregister_netdevice: waiting for eth0 to become free. Usage count = 2",
        "kmemleak: Kernel memory leak detector disabled",
        "kmemleak: Cannot allocate a kmemleak_object structure",
        "kmemleak: Memory pool empty, consider increasing CONFIG_DEBUG_KMEMLEAK_MEM_POOL_SIZE",
        "watchdog: BUG: soft lockup - CPU#0 stuck for 26s!",
        "ODEBUG: free active (active state 0) object type: timer_list hint: "
        "kib_x+0x0/0x10 [ko2iblnd]",
        "ODEBUG: Out of memory. ODEBUG disabled",
    ]

    def test_every_report(self):
        for r in self.REPORTS:
            self.assertTrue(find_splat(UP + "\n" + log(r)), r)

    def test_markers_have_a_report(self):
        for m in MARKERS:
            self.assertTrue(any(re.search(m, r) for r in self.REPORTS), m)

    def test_glued_after_user_output(self):
        text = UP + "\nsome output[   12.1] BUG: glued"
        self.assertIn("BUG: glued", find_splat(text))

    def test_kmemleak_report_without_stamp(self):
        self.assertTrue(find_splat(UP + "\nunreferenced object 0xffff8880 (size 8):"))

    def test_user_text_is_not_a_kernel_line(self):
        self.assertEqual(find_splat(UP + "\nBUG: printed by a script"), "")

    def test_before_up_and_after_power_off_ignored(self):
        text = "\n".join([log("BUG: early"), UP, log("all fine"), OFF,
                          log("Kernel panic - not syncing: Attempted to kill init!")])
        self.assertEqual(find_splat(text), "")

    def test_before_up_counts_if_never_up(self):
        self.assertTrue(find_splat(log("BUG: early")))

    def test_alloc_failure_ours_only(self):
        ours = UP + "\n" + log("x: page allocation failure: order:5",
                               "Call Trace:", " ksock_tx+0x1/0x2 [ksocklnd]")
        theirs = UP + "\n" + log("x: page allocation failure: order:5",
                                 "Call Trace:", " virtnet+0x1/0x2 [virtio_net]")
        self.assertTrue(find_splat(ours))
        self.assertEqual(find_splat(theirs), "")

    def test_allow(self):
        text = UP + "\n" + log("x: page allocation failure: order:5",
                               " ksock_tx+0x1/0x2 [ksocklnd]")
        self.assertEqual(find_splat(text, [re.compile("page allocation failure")]), "")

    def test_rcu_stall_not_a_splat(self):
        self.assertEqual(find_splat(UP + "\n" + log(
            "rcu: INFO: rcu_sched self-detected stall on CPU")), "")


class Verdict(unittest.TestCase):
    """_judge_node on a fake run directory."""

    def judge(self, console, dmesg="", rc="0", debug=False):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "a"))
            for name, text in (("console.log", console), ("dmesg.txt", dmesg),
                               ("rc", rc)):
                with open(os.path.join(d, "a", name), "w") as f:
                    f.write(text)
            topo = vm.Topology("t", [vm.Node("a")], vm.Boot("x", "img"), d, d,
                               debug=debug)
            return topo._judge_node(topo.nodes[0], [])

    def test_pass(self):
        self.assertIsNone(self.judge(UP))

    def test_dmesg_is_scanned(self):
        v = self.judge(UP, UP + "\n" + log("BUG: only in dmesg"))
        self.assertIn("kernel splat", v[0])

    def test_rc(self):
        self.assertIn("script exit 1", self.judge(UP, rc="1")[0])
        self.assertIn("script exit missing", self.judge(UP, rc="")[0])

    def test_rc_gives_the_scripts_reason(self):
        failed = UP + "\n[a] phase x\n[a] FAIL: resends 0\n[b] FAIL: other"
        self.assertEqual(self.judge(failed, rc="1")[0],
                         "a: script exit 1 (resends 0)")

    LIVE = "\n" + log("LNET-TEST: a lockdep live")

    def test_debug_needs_final_kmemleak_scan(self):
        self.assertIn("kmemleak", self.judge(UP + self.LIVE, debug=True)[0])
        done = UP + "\n" + log("LNET-TEST: a kmemleak scan done")
        self.assertIsNone(self.judge(done + self.LIVE, debug=True))
        failed = UP + "\n" + log("LNET-TEST: a kmemleak scan FAILED")
        self.assertIn("kmemleak", self.judge(failed + self.LIVE, debug=True)[0])

    def test_debug_needs_live_lockdep(self):
        done = UP + "\n" + log("LNET-TEST: a kmemleak scan done")
        self.assertEqual(self.judge(done, debug=True)[0],
                         "a: lockdep was off at the end (no lockdep line)")
        dead = done + "\n" + log("LNET-TEST: a lockdep DEAD:  debug_locks:     0")
        self.assertEqual(self.judge(dead, debug=True)[0],
                         "a: lockdep was off at the end (debug_locks:     0)")


class Ended(unittest.TestCase):
    """_ended: a node whose QEMU ended without a result fails the others'
    barriers (the file guest-init.sh would have left)."""

    def ended(self, rc):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "a"))
            if rc is not None:
                with open(os.path.join(d, "a", "rc"), "w") as f:
                    f.write(rc)
            topo = vm.Topology("t", [vm.Node("a")], vm.Boot("x", "img"), d, d)
            topo._ended(topo.nodes[0])
            return os.path.exists(os.path.join(d, ".failed.a"))

    def test_no_result_fails_the_others(self):
        self.assertTrue(self.ended(None))

    def test_a_result_is_left_to_the_guest(self):
        self.assertFalse(self.ended("0"))
        self.assertFalse(self.ended("1"))


if __name__ == "__main__":
    unittest.main()
