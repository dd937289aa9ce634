#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a nidmap message byte for byte from Documentation/nidmap.rst (not
from nidmap/wire.c): a REGISTER of one target, or a NOTICE; unsigned, or
with the AUTH trailer ("Trust") made with a secret, or with a wrong MAC.
Prints "hex:" and its bytes, what /sys/kernel/debug/nidmap/inject sends
as they are.  The attacks of nidmap_auth.sh are made with it, and a
message it signs with the right key being taken shows that the kernel
reads the trailer as the document writes it.

    nidmap_forge.py register NAME NID[,NID...] --inc X --seq N [options]
    nidmap_forge.py notice --epoch E --version V --inc X --seq N [options]

options: --key ID --secret-file F (sign: the secret is the file's bytes
less one trailing newline, as lnetctl nidmap key add reads it);
--stamp-offset S (sign as if S seconds from now); --bad-mac (flip the
MAC's first bit); --delete (REGISTER removes NAME).
"""

import argparse
import hashlib
import hmac
import ipaddress
import struct
import sys
import time

MAGIC = 0x4E4D4150
NOTICE, REGISTER = 1, 4
F_AUTH = 0x0001
R_DELETED = 0x0001
SOCKLND = 2


def nid_bytes(nid):
    """A NID's 20-byte form: size - 4, type, num (BE), the address."""
    addr, net = nid.split("@")
    if not net.startswith("tcp"):
        sys.exit("only tcp NIDs: " + nid)
    num = int(net[3:] or "0")
    a = ipaddress.IPv4Address(addr).packed
    return struct.pack(">BBH", len(a) - 4, SOCKLND, num) + a + bytes(16 - len(a))


def record(name, nids, flags):
    n = name.encode() + b"\0"
    n += bytes(-len(n) % 8)
    tail = b"".join(nid_bytes(x) for x in nids)
    tail += bytes(-len(tail) % 8)
    return struct.pack("<QHBBB3x", 0, flags, len(name) + 1, len(nids),
                       0) + n + tail


def message(mtype, body, count, inc, seq, epoch=0, version=0, base=0,
            flags=0, trailer_len=0):
    length = 72 + len(body) + trailer_len
    return struct.pack("<IHHIIQQQQQQIHH", MAGIC, 1, mtype, flags, length,
                       inc, seq, 0, epoch, version, base, count, 0,
                       trailer_len) + body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("type", choices=["register", "notice"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--inc", type=lambda s: int(s, 0), required=True)
    ap.add_argument("--seq", type=int, required=True)
    ap.add_argument("--epoch", type=int, default=0)
    ap.add_argument("--version", type=int, default=0)
    ap.add_argument("--key", type=int)
    ap.add_argument("--secret-file")
    ap.add_argument("--stamp-offset", type=float, default=0)
    ap.add_argument("--bad-mac", action="store_true")
    ap.add_argument("--delete", action="store_true")
    o = ap.parse_args()

    signed = o.key is not None
    flags = F_AUTH if signed else 0
    tlen = 48 if signed else 0
    if o.type == "register":
        name = o.args[0]
        nids = [] if o.delete else o.args[1].split(",")
        body = record(name, nids, R_DELETED if o.delete else 0)
        msg = message(REGISTER, body, 1, o.inc, o.seq, flags=flags,
                      trailer_len=tlen)
    else:
        msg = message(NOTICE, b"", 0, o.inc, o.seq, epoch=o.epoch,
                      version=o.version, flags=flags, trailer_len=tlen)
    if signed:
        with open(o.secret_file, "rb") as f:
            secret = f.read()
        if secret.endswith(b"\n"):
            secret = secret[:-1]
        stamp = int((time.time() + o.stamp_offset) * 1000)
        msg += bytes([1, 32, 0, 0]) + struct.pack(">IQ", o.key, stamp)
        mac = bytearray(hmac.new(secret, msg, hashlib.sha256).digest())
        if o.bad_mac:
            mac[0] ^= 0x80
        msg += bytes(mac)
    print("hex:" + msg.hex())


if __name__ == "__main__":
    main()
