# SPDX-License-Identifier: GPL-2.0
"""Link control: a guest asks QEMU to cut or restore one of its links.

A cable pulled is not the same as "ip link set down" in the guest: the
guest's stack sees only its carrier go (virtio-net link status), and no
frame passes either way until the link is back.  QEMU does that with its
QMP command set_link; the guest cannot reach QMP, so it asks the harness
through its results directory (guest-lib.sh link_set):

    <run dir>/<node>/link.<id>.req      "eth1 down" (written whole, by rename)
    <run dir>/<node>/link.<id>.done     "ok", or "error: <why>"

The harness polls for requests while the nodes run and answers each once.
NIC i of a node (eth<i> in the guest) is QEMU netdev n<i> (vm.py).
"""

import json
import os
import re
import socket
import threading

REQ = re.compile(r"^link\.([\w.-]+)\.req$")
IFACE = re.compile(r"^eth(\d+)$")


class Qmp:
    """One QEMU's QMP socket: connect once, then one command at a time."""

    def __init__(self, path):
        self.path = path
        self.sock = None
        self.buf = b""

    def _line(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(4096)
            if not data:
                raise OSError("QMP closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def _reply(self):
        """The next reply, skipping asynchronous events."""
        while True:
            msg = self._line()
            if "return" in msg or "error" in msg:
                return msg

    def command(self, execute, **args):
        if self.sock is None:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(10)
            self.buf = b""
            try:
                self.sock.connect(self.path)
                self._line()                    # the greeting
                self.sock.sendall(b'{"execute": "qmp_capabilities"}\n')
                self._reply()
            except (OSError, ValueError):
                self.close()
                raise
        try:
            self.sock.sendall(json.dumps({"execute": execute,
                                          "arguments": args}).encode() + b"\n")
            msg = self._reply()
        except (OSError, ValueError):
            self.close()        # connect again next time
            raise
        if "error" in msg:
            raise OSError("%s: %s" % (execute, msg["error"].get("desc", msg)))
        return msg["return"]

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def answer(node_dir, qmp, nics):
    """Answer every new request in @node_dir; @nics: the node's NIC count.
    Return how many were answered."""
    done = 0
    for name in sorted(os.listdir(node_dir)):
        m = REQ.match(name)
        if not m:
            continue
        base = os.path.join(node_dir, "link.%s" % m.group(1))
        if os.path.exists(base + ".done"):
            continue
        with open(os.path.join(node_dir, name)) as f:
            words = f.read().split()
        try:
            iface = IFACE.match(words[0]) if len(words) == 2 else None
            if not iface or words[1] not in ("up", "down") or \
                    int(iface.group(1)) >= nics:
                raise ValueError("bad request %r" % " ".join(words))
            qmp.command("set_link", name="n%s" % iface.group(1),
                        up=words[1] == "up")
            reply = "ok"
        except (OSError, ValueError) as e:
            reply = "error: %s" % e
        with open(base + ".tmp", "w") as f:
            f.write(reply + "\n")
        os.rename(base + ".tmp", base + ".done")
        done += 1
    return done


class LinkControl:
    """Answers the link requests of a topology's nodes while they run."""

    def __init__(self, nodes):
        """@nodes: (node dir, QMP socket path, NIC count) per node."""
        self.nodes = [(d, Qmp(path), nics) for d, path, nics in nodes]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.wait(0.1):
            for node_dir, qmp, nics in self.nodes:
                try:
                    answer(node_dir, qmp, nics)
                except OSError:
                    pass        # e.g. the node's QEMU has gone

    def start(self):
        self.thread.start()

    def close(self):
        self.stop.set()
        self.thread.join()
        for _, qmp, _ in self.nodes:
            qmp.close()
