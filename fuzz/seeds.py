#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the fuzz targets' seed corpora, fuzz/corpus/<target>/, from the
KUnit tests' vectors (the byte arrays and strings of kunit/*.c) and from
the wire spec's layouts (the byte-swapped forms a big-endian sender
sends, the selftest messages of every type).  The corpora are kept in
the repository; run this again ("make fuzz-seeds") when a vector
changes.  Each seed file is named after the vector it comes from."""

import os
import re
import shutil
import struct
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# LNET_FUZZ_CORPUS: write elsewhere (the fuzz check compares a fresh
# copy with the committed one).
CORPUS = os.environ.get("LNET_FUZZ_CORPUS") or os.path.join(TOP, "fuzz", "corpus")

# The symbolic constants the KUnit byte arrays use.
SYMBOLS = {"LNET_HDR_NID4_SIZE": 72, "LNET_HDR_NID16_SIZE": 96,
           "LNET_LND_SOCK": 2, "LNET_LND_O2IB": 5}


def _eval(expr):
    expr = expr.strip()
    for name, val in SYMBOLS.items():
        expr = re.sub(r"\b%s\b" % name, str(val), expr)
    if not re.fullmatch(r"[0-9a-fA-FxX +*]+", expr):
        raise ValueError("cannot evaluate %r" % expr)
    return eval(expr)  # noqa: S307 - digits and + * only, checked above


def kunit_arrays(name):
    """The "u8 NAME[SIZE] = { ... };" arrays of kunit/NAME, zero-padded
    to SIZE as C pads them."""
    text = open(os.path.join(TOP, "kunit", name)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = {}
    for m in re.finditer(r"\bu8\s+(\w+)\[([^\]]*)\]\s*=\s*\{(.*?)\};",
                         text, flags=re.S):
        size = _eval(m.group(2))
        data = bytes(_eval(tok) for tok in m.group(3).split(",")
                     if tok.strip())
        out[m.group(1)] = data + bytes(size - len(data))
    return out


def kunit_strings(name):
    """Every string literal of kunit/NAME, in order, without repeats."""
    text = open(os.path.join(TOP, "kunit", name)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    seen = []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', text):
        s = bytes(m.group(1), "ascii").decode("unicode_escape")
        if s not in seen:
            seen.append(s)
    return seen


def swap_fields(data, layout, off=0):
    """@data with the integer fields of @layout (sizes; negative for a
    run of bytes) byte-swapped from @off on."""
    b = bytearray(data)
    for size in layout:
        if size > 0:
            b[off:off + size] = b[off:off + size][::-1]
        off += abs(size)
    return bytes(b)


def o2ib_be(msg):
    """An o2ib message as a big-endian sender sends it (spec 5.2): the
    header and the body's SBO fields; the LNet header stays LE."""
    body = {0xc0: [2, 2, 4], 0xc1: [2, 2, 4], 0xd2: [-72, 8],
            0xd4: [8, 8, 4, 4], 0xd6: [-72, 8, 4, 4],
            0xd3: [8, 4], 0xd5: [8, 4], 0xd7: [8, 4]}
    out = swap_fields(msg, [4, 2, 1, 1, 4, 4, 8, 8, 8, 8])
    layout = body.get(msg[6], [])
    out = swap_fields(out, layout, 48)
    if msg[6] in (0xd4, 0xd6):
        rd = 48 + sum(abs(x) for x in layout) - 8
        nfrags = struct.unpack_from("<I", msg, rd + 4)[0]
        out = swap_fields(out, [4, 8] * nfrags, rd + 8)
    return out


def pingbuf_large():
    """Spec 6.2: a LARGE_ADDR buffer, 192.168.1.2@tcp and 2001:db8::1@tcp5
    (the entry of kunit/lnet_pingbuf_test.c's pingbuf_large)."""
    v6 = kunit_arrays("lnet_pingbuf_test.c")["v6"]
    hdr = struct.pack("<IIII", 0x70696e67, 0x1e | 0x20, 12345, 2)
    lo = struct.pack("<QII", 9 << 48, 1, 16 + 2 * 16 + len(v6))
    ip4 = struct.pack("<QII", 2 << 48 | 0xc0a80102, 0x15aac0de, 0)
    return hdr + lo + ip4 + v6


def lst_messages():
    """One 160-byte selftest message of every type (spec 3.2), LE and BE,
    plus the spec's PING example (kunit/lst_wire_test.c)."""
    out = {"ping_example": kunit_arrays("lst_wire_test.c")["want"] +
           bytes(120)}
    for t in range(18):
        le = struct.pack("<IIIIII", 0xeeb0f00d, 1, t, 0, 0, 1) + bytes(136)
        be = struct.pack(">IIIIII", 0xeeb0f00d, 1, t, 0, 0, 1) + bytes(136)
        out["type%02d_le" % t] = le
        out["type%02d_be" % t] = be
    return out


def udsp_record(op, idx, has_prio, prio, terms):
    """One record of the udsp target: length, operation, index, flags,
    priority (u32 LE), the --src, --dst, --rte texts NUL-separated."""
    body = (bytes([op, idx & 0xff, 1 if has_prio else 0]) +
            struct.pack("<I", prio) +
            b"\0".join(t.encode() for t in terms))
    return bytes([len(body)]) + body


def udsp_seeds():
    """Each case of kunit/lnet_udsp_test.c's udsp_cases added to the
    rules, then shown, asked for its first term and deleted; and all of
    them added in a row, then deleted at once."""
    text = open(os.path.join(TOP, "kunit", "lnet_udsp_test.c")).read()
    table = text[text.index("udsp_cases[] = {"):]
    table = table[:table.index("};")]
    cases = []
    for m in re.finditer(r'\{\s*(NULL|"[^"]*"),\s*(NULL|"[^"]*"),\s*'
                         r'(NULL|"[^"]*"),\s*(true|false),\s*(\w+),', table):
        terms = ["" if g == "NULL" else g[1:-1] for g in m.group(1, 2, 3)]
        prio = 0xffffffff if m.group(5) == "LNET_UDSP_PRIO_NONE" else \
            int(m.group(5))
        cases.append((terms, m.group(4) == "true", prio))
    out = {}
    for i, (terms, has_prio, prio) in enumerate(cases):
        out["case%02d" % i] = (udsp_record(0, -1, has_prio, prio, terms) +
                               udsp_record(2, 0, False, 0, []) +
                               udsp_record(3, 0, False, 0, terms[:1]) +
                               udsp_record(1, 0, False, 0, []))
    out["all"] = b"".join(udsp_record(0, -1, h, p, t)
                          for t, h, p in cases) + udsp_record(1, -1, False,
                                                              0, [])
    return out


def connreq_seeds():
    """Spec 3.2: version 1 for 192.0.2.10@tcp, in both byte orders;
    version 2 for 2001:db8::1@tcp; a unified-protocol peer's magic."""
    nid4 = 2 << 48 | 0xc000020a
    nid16 = bytes([12, 2, 0, 0, 0x20, 0x01, 0x0d, 0xb8]) + bytes(11) + b"\1"
    return {"v1": struct.pack("<IIQ", 0xacce7100, 1, nid4),
            "v1_be": struct.pack(">IIQ", 0xacce7100, 1, nid4),
            "v2": struct.pack("<II", 0xacce7100, 2) + nid16,
            "lnet_magic": struct.pack("<II", 0x45726963, 3)}


# Files for "lnetctl import", in the shapes "lnetctl export" writes and
# Lustre's lnet.conf takes (Documentation/lnetctl.rst).
IMPORT_DOCS = {
    "export_full": """net:
-     net type: lo
      local NI(s):
      -     nid: 0@lo
            status: up
-     net type: tcp
      local NI(s):
      -     nid: 192.168.1.10@tcp
            status: up
            interfaces:
                  0: eth0
            statistics:
                  send_count: 0
                  recv_count: 0
                  drop_count: 0
            tunables:
                  peer_timeout: 180
                  peer_credits: 8
                  peer_buffer_credits: 0
                  credits: 256
            lnd tunables:
                  conns_per_peer: 1
peer:
-     primary nid: 192.168.1.20@tcp
      Multi-Rail: True
      peer ni:
      -     nid: 192.168.1.20@tcp
      -     nid: 10.0.0.20@o2ib
global:
      max_interfaces: 200
      discovery: 1
      drop_asym_route: 0
      retry_count: 2
      transaction_timeout: 150
      health_sensitivity: 100
      recovery_interval: 1
      lnd_timeout: 49
udsp:
-     idx: 0
      src: tcp1
      dst: NA
      rte: NA
      action:
            priority: 0
-     idx: 1
      src: '*@tcp'
      dst: 192.0.2.9@tcp
      rte: NA
      action: NA
""",
    "backup_o2ib": """net:
-     net type: o2ib
      local NI(s):
      -     interfaces:
                  0: ib0
            tunables:
                  peer_timeout: 180
                  peer_credits: 32
                  credits: 512
            lnd tunables:
                  peercredits_hiw: 16
                  map_on_demand: 1
                  concurrent_sends: 64
                  fmr_pool_size: 512
                  ntx: 512
                  conns_per_peer: 1
""",
    "lustre_lnd_tunables": """net:
-     net type: tcp9
      local NI(s):
      -     interfaces:
                  0: eth0
            lnd tunables:
                  conns_per_peer: 2
                  timeout: 50
                  tos: -1
            CPT: "[0,1]"
""",
    "bad_value": """global:
      retry_count: -1
""",
    "unsupported_block": """colour:
      range: 0
""",
    "numa_block": """numa:
      range: 0
""",
    # one NI per interface, an alias label among them (stock's form)
    "two_interfaces": """net:
-     net type: tcp1
      local NI(s):
      -     interfaces:
                  0: eth0
                  1: eth0:1
            tunables:
                  peer_credits: 16
""",
    # stock's ip2nets rules (lnet.conf), resolved against this node's
    # addresses: interfaces and ranges, ranges only, neither
    "ip2nets": """ip2nets:
-     net-spec: tcp1
      interfaces:
            0: eth0
            1: eth1
      ip-range:
            0: 192.0.*.10
            1: 10.1.[0-3/2].*
      tunables:
            peer_credits: 16
-     net-spec: tcp2
      ip-range:
            0: 192.0.2.[70-80]
-     net-spec: o2ib
""",
    "ip2nets_bad_range": """ip2nets:
-     net-spec: tcp1
      ip-range:
            0: 192.0.2.[9-8]
""",
    # what "lnetctl ping" and "discover" print, run by import --exec
    "exec_blocks": """ping:
-     primary nid: 0@lo
      Multi-Rail: false
      peer_ni:
      -     nid: 0@lo
      timeout: 2000
      source_nid: 0@lo
discover:
-     primary nid: 192.168.1.2@tcp
      force: 1
""",
    # "routing:" and "buffers:" as export --backup and export write them
    # (routing spec 10.5), buffers first, and refusals.
    "routing_backup": """routing:
      enable: 1
buffers:
      tiny: 16
      small: 2
      large: 6
""",
    "routing_full": """routing:
-     cpt[0]:
            tiny:
                  npages: 0
                  nbuffers: 16
                  credits: 16
                  mincredits: 16
            small:
                  npages: 1
                  nbuffers: 8
                  credits: 8
                  mincredits: 8
            large:
                  npages: 256
                  nbuffers: 4
                  credits: 4
                  mincredits: 4
-     enable: 3
buffers:
      tiny: 16
      small: 8
      large: 4
""",
    "routing_buffers_first": """buffers:
      large: 5
routing:
      enable: 1
""",
    "routing_bad": """routing:
      enable: x
buffers:
      huge: -2
""",
    # "route:" as export --backup and export write it, and a refused hop.
    "routes_backup": """net:
-     net type: tcp9
      local NI(s):
      -     interfaces:
                  0: eth0
route:
-     net: tcp1
      gateway: 192.0.2.1@tcp9
      hop: -1
      priority: 0
-     net: o2ib3
      gateway: 192.0.2.3@tcp9
      hop: 255
      priority: 4294967295
""",
    "routes_full": """route:
-     net: tcp1
      gateway: 192.0.2.2@tcp9
      hop: 2
      priority: 7
      state: up
      type: multi-hop
route:
-     net: tcp2
      gateway: 10.0.0.1@o2ib
""",
    "route_bad_hop": """route:
-     net: tcp1
      gateway: 192.0.2.2@tcp9
      hop: 0
""",
    # What the fuzzer found: a second "udsp:" block replaced the first's
    # plan (leaked, and written past the new array when the first was
    # longer).
    "two_udsp_blocks": """udsp:
-     idx: 0
      src: tcp1
      dst: NA
      rte: NA
      action:
            priority: 0
-     idx: 1
      src: tcp2
      dst: NA
      rte: NA
      action: NA
udsp:
-     idx: 2
      src: '*@tcp'
      dst: NA
      rte: NA
      action: NA
""",
    "empty": "",
}


def nidmap_msg(mtype, body=b"", count=0, flags=0, seq=1, reply_to=0,
               epoch=1, version=0, base=0, status=0, trailer=b"", be=False):
    """A nidmap message (Documentation/nidmap.rst), written here from the
    document rather than by nidmap/wire.c."""
    e = ">" if be else "<"
    length = 72 + len(body) + len(trailer)
    hdr = struct.pack(e + "IHHIIQQQQQQIHH", 0x4E4D4150, 1, mtype, flags,
                      length, 0x1122334455667788, seq, reply_to, epoch,
                      version, base, count, status, len(trailer))
    return hdr + body + trailer


def nidmap_rec(name, nids=(), nets=(), version=0, flags=0, be=False):
    """One record: NIDs as (type, num, addr bytes)."""
    e = ">" if be else "<"
    n = name.encode() + b"\0"
    n += bytes(-len(n) % 8)
    tail = b""
    for typ, num, addr in nids:
        tail += struct.pack(">BBH", len(addr) - 4, typ, num) + \
            addr + bytes(16 - len(addr))
    for net in nets:
        tail += struct.pack(e + "I", net)
    tail += bytes(-len(tail) % 8)
    return struct.pack(e + "QHBBB3x", version, flags, len(name) + 1,
                       len(nids), len(nets)) + n + tail


def nidmap_seeds():
    w = kunit_arrays("nidmap_wire_test.c")
    v4 = (2, 3, bytes([192, 168, 1, 3]))
    v6 = (2, 0, bytes.fromhex("20010db8000000000000000000000003"))
    ib = (5, 1, bytes([10, 0, 0, 9]))
    a = kunit_arrays("nidmap_auth_test.c")
    out = {"notice_example": w["notice_example"],
           "auth_example": a["auth_example"],
           "register_example": w["register_example"],
           "register_batch_example": w["register_batch_example"]}
    for be in (False, True):
        sfx = "_be" if be else ""
        recs = nidmap_rec("lustre-OST0000", [v4, v6], version=11, be=be) + \
            nidmap_rec("rtr1", [ib], [0x50001, 0x20000], version=12,
                       flags=2, be=be) + \
            nidmap_rec("lustre-MDT0000", version=13, flags=1, be=be)
        out["reply" + sfx] = nidmap_msg(3, recs, 3, flags=2, reply_to=9,
                                        version=13, base=10, be=be)
        out["reply_full" + sfx] = nidmap_msg(3, recs, 3, flags=4,
                                             reply_to=9, version=13,
                                             base=5, be=be)
        out["fetch" + sfx] = nidmap_msg(
            2, struct.pack((">" if be else "<") + "II", 65536, 0),
            version=7, be=be)
        out["fetch_resync" + sfx] = nidmap_msg(
            2, struct.pack((">" if be else "<") + "II", 65536, 0),
            flags=4, version=7, base=3, be=be)
        out["subscribe" + sfx] = nidmap_msg(5, flags=8, version=7, be=be)
        out["status" + sfx] = nidmap_msg(6, reply_to=3, status=4,
                                         version=7, be=be)
        # The relay (nidmap.rst "Relay"): a publisher's notice with a
        # relay set of 8, a relayed one (hint bit 16, no body), a
        # SUBSCRIBE that can relay (hint bit 17).
        nids = b"".join(struct.pack(">BBH", 0, 2, 0) + bytes([10, 0, 0, i]) +
                        bytes(12) for i in range(1, 9))
        out["notice_relay_set" + sfx] = nidmap_msg(1, nids, 8, version=58,
                                                   base=3, be=be)
        out["notice_relayed" + sfx] = nidmap_msg(1, flags=0x10000,
                                                 version=58, base=3, be=be)
        out["subscribe_relay" + sfx] = nidmap_msg(5, flags=0x20000,
                                                  version=7, be=be)
        # A batch (nidmap.rst "Registering in a batch"): an addition, a
        # router's registration with its nets, a removal.
        out["register_batch" + sfx] = nidmap_msg(
            4, nidmap_rec("fs-MDT0000", [(2, 0, bytes([10, 0, 0, 1]))],
                          be=be) +
            nidmap_rec("rtr1", [ib], [0x50001, 0x20000], flags=2, be=be) +
            nidmap_rec("fs-OST0001", flags=1, be=be), 3, be=be)
        out["register_auth" + sfx] = nidmap_msg(
            4, nidmap_rec("lustre-OST0001", [v6, v4], be=be), 1, flags=1,
            trailer=bytes(range(32)), be=be)
        # An AUTH trailer (nidmap.rst "Trust"): HMAC-SHA256, key 7, a
        # stamp, a MAC (any bytes: the harness has no key).
        out["register_hmac" + sfx] = nidmap_msg(
            4, nidmap_rec("lustre-OST0001", [v6, v4], be=be), 1, flags=1,
            trailer=bytes([1, 32, 0, 0]) +
            struct.pack(">IQ", 7, 1764500000000) + bytes(range(32)), be=be)
        # The stamp is the sender's to choose: one at 2^64 - 1 (the
        # replay window once added the skew to it and wrapped).
        out["register_hmac_stamp_max" + sfx] = nidmap_msg(
            4, nidmap_rec("lustre-OST0001", [v4], be=be), 1, flags=1,
            trailer=bytes([1, 32, 0, 0]) +
            struct.pack(">IQ", 7, 2**64 - 1) + bytes(32), be=be)
    return out


def txt_rdata(*strings):
    """A TXT record's data: each string its length byte and its bytes."""
    return b"".join(bytes([len(x)]) + x for x in strings)


def nidmap_dns_seeds():
    """TXT records as the DNS backend's test serves them
    (tests/vm/nidmap_dns.sh), one split in two strings as dnsmasq and
    zone files may, and lists for the kernel parser alone (0xff first)."""
    return {
        "oss0": txt_rdata(b"v=lnet1 nids=192.0.2.10@tcp,192.0.2.99@tcp"),
        "split": txt_rdata(b"v=lnet1 nids=192.0.2.10@tcp,",
                           b"10.0.0.5@o2ib1 ttl=60"),
        "badchar": txt_rdata(b"v=lnet1 nids=192.0.2.1%@tcp"),
        "badaddr": txt_rdata(b"v=lnet1 nids=192.0.2.300@tcp"),
        "other": txt_rdata(b"v=spf1 -all"),
        "list_ipv6": b"\xff2001:db8::1@tcp 192.0.2.11@tcp2",
        "list_dup": b"\xff192.0.2.10@tcp,192.0.2.11@tcp,192.0.2.10@tcp,",
    }


def corpora():
    hdr = kunit_arrays("lnet_hdr_test.c")
    o2ib = kunit_arrays("o2iblnd_wire_test.c")
    ping = kunit_arrays("lnet_pingbuf_test.c")
    sock = kunit_arrays("socklnd_proto_test.c")
    ksock_lnet = struct.pack("<IIQQ", 0xc1, 0, 0, 0)    # spec 4.10
    msgs = ["v_connreq", "v_connack", "v_noop", "v_immediate", "v_putreq",
            "v_putack1", "v_putack2", "v_getreq", "v_putdone", "v_getdone"]
    nids = kunit_strings("lnet_nid_vectors.h")
    lists = kunit_strings("lnet_nidlist_test.c")
    return {
        "lnet_hdr": {k: v for k, v in hdr.items()},
        "o2ib_msg": dict([(k, o2ib[k]) for k in msgs] +
                         [(k + "_be", o2ib_be(o2ib[k])) for k in msgs] +
                         [("be", o2ib["be"])]),
        "o2ib_conn": {"connreq": b"\0" + o2ib["v_connreq"],
                      "connack": b"\0" + o2ib["v_connack"],
                      "connreq_be": b"\0" + o2ib_be(o2ib["v_connreq"]),
                      "rej": b"\1" + o2ib["v_rej"],
                      "rej_v1": b"\1" + o2ib["v_rej_v1"],
                      "rej_be": b"\1" + swap_fields(o2ib["v_rej"],
                                                    [4, 2, 1, 1, 8, 2, 2,
                                                     4])},
        "pingbuf": {"spec_example": ping["spec_example"],
                    "spec_example_be": swap_fields(ping["spec_example"],
                                                   [4, 4, 4, 4, 8, 4, 4,
                                                    8, 4, 4]),
                    "large_addr": pingbuf_large()},
        "lst_msg": lst_messages(),
        "sock_hello": {"hello_v1": sock["hello_v1"],
                       "hello_v3": sock["hello_v3"],
                       "hello_v4": sock["hello_v4"],
                       "v3_noop": sock["hello_v3"] + sock["noop"],
                       "v3_lnet": sock["hello_v3"] + ksock_lnet +
                       hdr["put4"] + bytes(4096),
                       "v4_lnet": sock["hello_v4"] + ksock_lnet +
                       hdr["put16"] + bytes(4096),
                       "v1_lnet": sock["hello_v1"] + hdr["put4"] +
                       bytes(4096),
                       # what the fuzzer found: bits 63..56 of src_nid
                       "v3_nid_high": sock["hello_v3"][:15] + b"\x0b" +
                       sock["hello_v3"][16:],
                       "v3_lnet_be": swap_fields(sock["hello_v3"],
                                                 [4, 4, 8, 8, 4, 4, 8, 8,
                                                  4, 4]) +
                       sock["lnet_be"] + hdr["ack4"]},
        "connreq": connreq_seeds(),
        "nid": {"nid%03d" % i: s.encode() for i, s in enumerate(nids)},
        "nidlist": {"list%03d" % i: s.encode()
                    for i, s in enumerate(lists)},
        "udsp": udsp_seeds(),
        "nidmap_msg": nidmap_seeds(),
        "nidmap_dns": nidmap_dns_seeds(),
        "lnetctl_import": {k: v.encode() for k, v in IMPORT_DOCS.items()},
    }


def main():
    only = sys.argv[1:]
    for target, seeds in corpora().items():
        if only and target not in only:
            continue
        d = os.path.join(CORPUS, target)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print("%s: %d seeds" % (target, len(seeds)))


if __name__ == "__main__":
    main()
