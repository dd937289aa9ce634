#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lnetctl's help forms, as admins type them, without the kernel.

    tests/help_check.py     (also the host check "lnetctl_help" of tests/run.py)

The lnetctl built from the tree (make -C utils, into build/help_check/)
runs, for every command and subcommand of COMMANDS below, each help form
stock's lnetctl answers: "lnetctl help", "lnetctl --help", "lnetctl -h",
"lnetctl --list-commands", "lnetctl help COMMAND [SUB]", "lnetctl COMMAND
--help|-h|help", "lnetctl COMMAND SUB --help|-h" (also after other
options: stock's commands take --help anywhere).  Each must exit 0, print
to stdout only, name the command's subcommands ("net add: ...", stock's
print_help() shape) and exactly the long options the subcommand parses,
and never open a netlink socket: every run has an LD_PRELOAD shim whose
socket(AF_NETLINK) fails and says so (the check first shows the shim
catches "lnetctl net show").  COMMANDS' options must be the long options
of utils/lnetctl's getopt tables, and its commands lnetctl's command
table, so a new command or option without its help fails here.  About
2 s warm.
"""

import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(TOP, "build", "help_check")
LNETCTL = os.path.join(OUT, "lnetctl")
SHIM = os.path.join(OUT, "no_netlink.so")
MARK = "help_check: netlink socket opened"

SHIM_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
    static int (*real)(int, int, int);

    if (domain == AF_NETLINK) {
        fprintf(stderr, "%s\n", "MARK");
        errno = EACCES;
        return -1;
    }
    if (!real)
        real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
    return real(domain, type, protocol);
}
""".replace("MARK", MARK)

# command -> {subcommand: long options it parses}; None: no subcommands,
# the command's own options.  Stock's order.
COMMANDS = {
    "lnet": {"configure": {"--all"}, "unconfigure": set()},
    "route": {
        "add": {"--net", "--gateway", "--hop", "--hop-count", "--priority"},
        "del": {"--net", "--gateway"},
        "show": {"--net", "--gateway", "--hop", "--hop-count", "--priority",
                 "--verbose"},
    },
    "net": {
        "add": {"--net", "--if", "--nid", "--ip2net", "--peer-timeout",
                "--peer-credits",
                "--peer-buffer-credits", "--credits", "--conns-per-peer",
                "--tos"},
        "del": {"--net", "--if", "--nid"},
        "show": {"--net", "--verbose"},
        "set": {"--nid", "--all", "--health", "--conns-per-peer", "--net",
                "--lnd-timeout"},
    },
    "routing": {"show": set()},
    "set": {p: set() for p in (
        "tiny_buffers", "small_buffers", "large_buffers", "routing",
        "numa_range", "max_interfaces", "discovery", "drop_asym_route",
        "retry_count", "transaction_timeout", "health_sensitivity",
        "recovery_interval", "router_sensitivity", "response_tracking",
        "recovery_limit", "max_recovery_ping_interval")},
    "import": {None: {"--add", "--del", "--show", "--exec", "--old-api", "--help"}},
    "export": {None: {"--backup", "--help"}},
    "stats": {"show": set(), "reset": set()},
    "debug": {"recovery": {"--local", "--peer"}, "peer": {"--nid"}},
    "global": {"show": set()},
    "peer": {
        "add": {"--prim_nid", "--nid", "--non_mr", "--lock_prim"},
        "del": {"--prim_nid", "--nid", "--force"},
        "show": {"--nid", "--verbose"},
        "list": set(),
        "set": {"--nid", "--all", "--health"},
    },
    "ping": {None: {"--source", "--timeout", "--help"}},
    "discover": {None: {"--force", "--timeout", "--help"}},
    "udsp": {
        "add": {"--src", "--dst", "--rte", "--priority", "--idx"},
        "del": {"--all", "--idx"},
        "show": {"--idx"},
    },
    "fault": {
        "drop add": {"--source", "--dest", "--rate", "--interval", "--portal",
                     "--message", "--health_error", "--random", "--local_nid",
                     "--drop_all"},
        "drop del": {"--all", "--source", "--dest"},
        "drop reset": set(),
        "drop show": set(),
        "delay add": {"--source", "--dest", "--rate", "--interval", "--portal",
                      "--message", "--latency", "--local_nid"},
        "delay del": {"--all", "--source", "--dest"},
        "delay reset": set(),
        "delay show": set(),
    },
    "nidmap": {
        "publish": {"--max-entries", "--max-tombstones", "--tombstone-age",
                    "--max-subscribers", "--relay-fanout"},
        "unpublish": set(),
        "subscribe": {"--publisher", "--relay", "--routes"},
        "unsubscribe": set(),
        "register": {"--publisher", "--name", "--nid", "--router", "--net"},
        "remove": {"--publisher", "--name"},
        "show": set(),
        "table": {"--copy"},
        "lookup": {"--name"},
        "key add": {"--id", "--secret-file"},
        "key use": {"--id"},
        "key del": {"--id"},
    },
}
BUILTINS = ["help", "--list-commands"]

# A plausible option (with its value) before --help, per subcommand form.
BEFORE = {("net", "add"): ["--net", "tcp", "--if", "eth0"],
          ("peer", "show"): ["--nid", "192.0.2.1@tcp", "-v", "2"],
          ("route", "add"): ["--net", "tcp1", "--gateway", "192.0.2.1@tcp"],
          ("fault", "drop add"): ["-s", "*@tcp", "-d", "*@tcp", "-r", "1"],
          ("set", "retry_count"): ["3"],
          ("nidmap", "key add"): ["--id", "1", "--secret-file", "/nonexistent"],
          ("ping", None): ["192.0.2.1@tcp"]}

LONG_OPT = re.compile(r'\{\s*"([\w\-]+)",\s*(?:no|required|optional)_argument')
CMD_ENTRY = re.compile(r'\{\s*"(\w+)",\s*cmd_\w+')
OPT = re.compile(r"(?<![\w\-])--[A-Za-z][\w\-]*")


class Check:
    def __init__(self):
        self.errors = []
        self.runs = 0

    def need(self, ok, msg):
        if not ok:
            self.errors.append(msg)
        return ok

    def run(self, *argv):
        self.runs += 1
        env = dict(os.environ, LD_PRELOAD=SHIM, LC_ALL="C")
        return subprocess.run([LNETCTL] + list(argv), capture_output=True,
                              text=True, env=env, timeout=10)

    def help_form(self, argv, want=None):
        """A help form: exit 0, stdout only, no netlink; its stdout."""
        p = self.run(*argv)
        line = "lnetctl " + " ".join(argv)
        self.need(MARK not in p.stderr, "%s: opened a netlink socket" % line)
        if self.need(p.returncode == 0 and not p.stderr and p.stdout,
                     "%s: exit %d, stdout %r, stderr %r"
                     % (line, p.returncode, p.stdout[:200], p.stderr[:300])):
            if want is not None:
                self.need(p.stdout == want, "%s: says\n%s\nnot as the other forms:\n%s"
                          % (line, p.stdout, want))
        return p.stdout


def entries(text, cmd):
    """stock's print_help() shape: {"SUB": text} of "CMD SUB: ..." blocks."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"%s ([\w ]+?): " % re.escape(cmd), line)
        if m:
            cur = m.group(1)
            out[cur] = ""
        if cur is not None:
            out[cur] += line + "\n"
    return out


def check_command(c, cmd, subs):
    if None in subs:
        want = c.help_form([cmd, "--help"])
        for argv in ([cmd, "-h"], ["help", cmd]) + \
                (([cmd, "help"],) if cmd in ("ping", "discover") else ()):
            c.help_form(argv, want)
        c.help_form([cmd] + BEFORE.get((cmd, None), []) + ["--help"], want)
        c.need(want.startswith(cmd + " "),
               "lnetctl %s --help does not start with its usage: %r" % (cmd, want[:80]))
        c.need(set(OPT.findall(want)) == subs[None],
               "lnetctl %s --help names %s, the command parses %s"
               % (cmd, sorted(set(OPT.findall(want))), sorted(subs[None])))
        return
    whole = c.help_form([cmd, "--help"])
    for argv in ([cmd, "-h"], [cmd, "help"], ["help", cmd]):
        c.help_form(argv, whole)
    got = entries(whole, cmd)
    c.need(list(got) == list(subs),
           "lnetctl %s --help lists %s, lnetctl has %s" % (cmd, list(got), list(subs)))
    for sub, opts in subs.items():
        words = sub.split()
        one = c.help_form([cmd] + words + ["--help"])
        for argv in ([cmd] + words + ["-h"], ["help", cmd] + words,
                     [cmd] + words + BEFORE.get((cmd, sub), []) + ["--help"]):
            c.help_form(argv, one)
        c.need(one == got.get(sub), "lnetctl %s %s --help is not its entry of "
               "lnetctl %s --help:\n%s" % (cmd, sub, cmd, one))
        c.need(one.startswith("%s %s: " % (cmd, sub)),
               "lnetctl %s %s --help: not stock's shape: %r" % (cmd, sub, one[:80]))
        named = set(OPT.findall(one)) - {"--help"}
        c.need(named == opts, "lnetctl %s %s --help names %s, it parses %s"
               % (cmd, sub, sorted(named), sorted(opts)))
    groups = {s.split()[0] for s in subs if " " in s}
    for g in sorted(groups):
        text = c.help_form([cmd, g, "--help"])
        c.help_form([cmd, g, "help"], text)
        c.help_form(["help", cmd, g], text)
        c.need(list(entries(text, cmd)) == [s for s in subs if s.startswith(g + " ")],
               "lnetctl %s %s --help lists %s" % (cmd, g, list(entries(text, cmd))))


def main():
    os.makedirs(OUT, exist_ok=True)
    p = subprocess.run(["make", "-s", "-C", os.path.join(TOP, "utils"), "O=" + OUT,
                        LNETCTL], capture_output=True, text=True)
    if p.returncode:
        print("help_check: building lnetctl failed\n" + p.stdout + p.stderr)
        return 1
    shim_c = os.path.join(OUT, "no_netlink.c")
    with open(shim_c, "w") as f:
        f.write(SHIM_C)
    p = subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", SHIM, shim_c, "-ldl"],
                       capture_output=True, text=True)
    if p.returncode:
        print("help_check: building the shim failed\n" + p.stderr)
        return 1
    c = Check()
    # the shim sees a command that does talk to the kernel
    p = c.run("net", "show")
    c.need(MARK in p.stderr and p.returncode == 1,
           "the no-netlink shim did not see 'lnetctl net show' (exit %d, %r)"
           % (p.returncode, p.stderr))

    listing = c.help_form(["help"])
    c.help_form(["--help"], listing)
    c.help_form(["-h"], listing)
    listed = re.findall(r"^\t(\S+)$", listing, re.M)
    c.need(listed == list(COMMANDS) + BUILTINS,
           "lnetctl help lists %s, lnetctl has %s" % (listed, list(COMMANDS) + BUILTINS))
    c.need("Available commands are:" in listing, "lnetctl help: not stock's shape")
    cols = c.help_form(["--list-commands"]).split()
    c.need(cols == list(COMMANDS) + BUILTINS, "lnetctl --list-commands: %s" % cols)
    for b in BUILTINS:
        c.help_form(["help", b])
    for cmd, subs in COMMANDS.items():
        check_command(c, cmd, subs)

    # not help: an unknown command or subcommand fails, without the kernel
    for argv in (["help", "frob"], ["help", "net", "frob"], ["frob", "--help"]):
        p = c.run(*argv)
        c.need(p.returncode == 1 and MARK not in p.stderr and not p.stdout,
               "lnetctl %s: exit %d, %r" % (" ".join(argv), p.returncode, p.stderr))
    p = c.run()
    c.need(p.returncode == 1 and "Available commands are:" in p.stderr,
           "lnetctl alone: exit %d, %r" % (p.returncode, p.stderr))

    # COMMANDS is lnetctl's: its command table and its getopt tables
    src = ""
    for path in sorted(glob.glob(os.path.join(TOP, "utils", "lnetctl", "*.c"))):
        with open(path) as f:
            src += f.read()
    table = CMD_ENTRY.findall(src)
    c.need(table and sorted(table) == sorted(COMMANDS),
           "lnetctl's command table has %s, COMMANDS %s" % (sorted(table), sorted(COMMANDS)))
    parsed = {"--" + o for o in LONG_OPT.findall(src)}
    known = set().union(*(o for subs in COMMANDS.values() for o in subs.values()))
    c.need(parsed and parsed == known - {"--help"},
           "options parsed but not in COMMANDS: %s; in COMMANDS, not parsed: %s"
           % (sorted(parsed - known), sorted(known - parsed - {"--help"})))

    for e in c.errors:
        print(e)
    print("help_check: %d runs of lnetctl, %d findings" % (c.runs, len(c.errors)))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
