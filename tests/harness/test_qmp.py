# SPDX-License-Identifier: GPL-2.0
"""Unit tests of qmp.py: requests answered once, bad ones refused, and
the QMP conversation with a fake QEMU."""

import json
import os
import socket
import tempfile
import threading
import unittest

from qmp import Qmp, answer


class FakeQmp:
    def __init__(self, fail=False):
        self.calls = []
        self.fail = fail

    def command(self, execute, **args):
        if self.fail:
            raise OSError("QMP closed")
        self.calls.append((execute, args))
        return {}


def request(d, ident, text):
    with open(os.path.join(d, "link.%s.req" % ident), "w") as f:
        f.write(text + "\n")


def reply(d, ident):
    with open(os.path.join(d, "link.%s.done" % ident)) as f:
        return f.read().strip()


class AnswerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_once(self):
        q = FakeQmp()
        request(self.d, "sock_health.1", "eth1 down")
        self.assertEqual(answer(self.d, q, 2), 1)
        self.assertEqual(answer(self.d, q, 2), 0)
        self.assertEqual(q.calls, [("set_link", {"name": "n1", "up": False})])
        self.assertEqual(reply(self.d, "sock_health.1"), "ok")
        request(self.d, "sock_health.2", "eth1 up")
        answer(self.d, q, 2)
        self.assertEqual(q.calls[-1], ("set_link", {"name": "n1", "up": True}))

    def test_refused(self):
        q = FakeQmp()
        for i, text in enumerate(["eth2 down", "lo down", "eth0 off", "eth0",
                                  "eth0 up now"]):
            request(self.d, "s.%d" % i, text)
        self.assertEqual(answer(self.d, q, 2), 5)
        self.assertEqual(q.calls, [])
        for i in range(5):
            self.assertTrue(reply(self.d, "s.%d" % i).startswith("error: "))

    def test_qemu_gone(self):
        request(self.d, "s.1", "eth0 down")
        answer(self.d, FakeQmp(fail=True), 1)
        self.assertEqual(reply(self.d, "s.1"), "error: QMP closed")


class QmpTest(unittest.TestCase):
    def test_conversation(self):
        tmp = tempfile.TemporaryDirectory()
        path = os.path.join(tmp.name, "q")
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(path)
        srv.settimeout(10)
        srv.listen(1)
        seen = []

        def qemu():
            conn, _ = srv.accept()
            f = conn.makefile("rwb")
            f.write(b'{"QMP": {}}\n')
            f.flush()
            for line in f:
                cmd = json.loads(line)
                seen.append(cmd)
                if cmd["execute"] == "set_link":
                    f.write(b'{"event": "NIC_RX_FILTER_CHANGED"}\n')
                    f.write(b'{"error": {"desc": "no such device"}}\n'
                            if cmd["arguments"]["name"] == "n9"
                            else b'{"return": {}}\n')
                else:
                    f.write(b'{"return": {}}\n')
                f.flush()
            conn.close()

        t = threading.Thread(target=qemu, daemon=True)
        t.start()
        q = Qmp(path)
        self.assertEqual(q.command("set_link", name="n0", up=False), {})
        with self.assertRaisesRegex(OSError, "no such device"):
            q.command("set_link", name="n9", up=True)
        q.close()
        t.join()
        srv.close()
        tmp.cleanup()
        self.assertEqual([c["execute"] for c in seen],
                         ["qmp_capabilities", "set_link", "set_link"])


if __name__ == "__main__":
    unittest.main()
