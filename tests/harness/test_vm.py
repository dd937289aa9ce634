# SPDX-License-Identifier: GPL-2.0
"""Unit tests of vm.py's host set-up: the links' UDP receive buffer."""

import os
import tempfile
import unittest

import vm


class LinkBuffersTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp()
        os.close(fd)

    def tearDown(self):
        os.unlink(self.path)

    def value(self):
        with open(self.path) as f:
            return int(f.read())

    def set(self, v):
        with open(self.path, "w") as f:
            f.write("%d\n" % v)

    def test_raised_while_running_then_restored(self):
        self.set(212992)
        with vm.LinkBuffers(self.path, 1 << 24):
            self.assertEqual(self.value(), 1 << 24)
        self.assertEqual(self.value(), 212992)

    def test_a_bigger_buffer_is_left_alone(self):
        self.set(1 << 25)
        with vm.LinkBuffers(self.path, 1 << 24):
            self.assertEqual(self.value(), 1 << 25)
        self.assertEqual(self.value(), 1 << 25)

    def test_no_access_is_a_note_not_a_failure(self):
        with vm.LinkBuffers(os.path.join(self.path, "missing"), 1 << 24) as b:
            self.assertIsNone(b.old)


if __name__ == "__main__":
    unittest.main()
