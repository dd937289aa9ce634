#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The bash completion of completion/ (lnetctl, lst), sourced in bash.

    tests/completion_check.py  (also the host check "completion" of tests/run.py)

Each case sets COMP_WORDS and COMP_CWORD as bash does, calls the
completion function and compares COMPREPLY.  lnetctl and lst are the
tools built from the tree (make -C utils, into build/completion_check/),
behind wrappers that answer the queries needing a kernel ("net show",
"peer show", "list_group", "list_batch") with output of the tools'
documented shape.  Besides the cases: every command and subcommand
"lnetctl help" and "lnetctl COMMAND --help" list completes, and so does
every long option the help names for it; every command of "lst --list-commands" and every option
of "lst help COMMAND".  shellcheck on both files.  About 10 s cold, 3 s
warm.
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

from man_check import lnetctl_help

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(TOP, "build", "completion_check")

NET_SHOW = """net:
-     net type: lo
      local NI(s):
      -     nid: 0@lo
            status: up
-     net type: tcp
      local NI(s):
      -     nid: 192.0.2.1@tcp
            status: up
            interfaces:
                  0: eth0
-     net type: tcp1
      local NI(s):
      -     nid: 198.51.100.1@tcp1
            status: up
"""

PEER_SHOW = """peer:
-     primary nid: 192.0.2.2@tcp
      Multi-Rail: true
      peer ni:
      -     nid: 192.0.2.2@tcp
            state: NA
      -     nid: 198.51.100.2@tcp1
            state: NA
-     primary nid: 192.0.2.3@tcp
      Multi-Rail: false
      peer ni:
      -     nid: 192.0.2.3@tcp
            state: NA
"""

WRAPPER = """#!/bin/bash
case "$1 $2" in
%s
esac
exec %s "$@"
"""

NIDS = ["192.0.2.2@tcp", "192.0.2.3@tcp", "198.51.100.2@tcp1"]
BRW_WORDS = ["check=discard", "check=full", "check=none", "check=simple",
             "off=", "read", "size=", "skip_rx_copy", "write"]

# (command line, the cursor's word last; what COMPREPLY must be, as a set)
CASES = [
    ("lnetctl ne", {"net"}),
    ("lnetctl net ", {"add", "del", "show", "set"}),
    ("lnetctl net add --net ", {"tcp", "tcp1"}),
    ("lnetctl net add --net tcp --if eth0 --peer-", {"--peer-timeout", "--peer-credits",
                                                     "--peer-buffer-credits"}),
    ("lnetctl net del --nid ", {"192.0.2.1@tcp", "198.51.100.1@tcp1"}),
    ("lnetctl ping ", set(NIDS)),
    ("lnetctl ping 192.0.2.2@tcp --t", {"--timeout"}),
    ("lnetctl discover 198", {"198.51.100.2@tcp1"}),
    ("lnetctl peer del --prim_nid 192.0.2.", {"192.0.2.2@tcp", "192.0.2.3@tcp"}),
    ("lnetctl fault drop ", {"add", "del", "reset", "show"}),
    ("lnetctl fault delay add --l", {"--latency", "--local_nid"}),
    ("lnetctl nidmap k", {"key"}),
    ("lnetctl nidmap key ", {"add", "use", "del"}),
    ("lnetctl nidmap key add --", {"--id", "--secret-file"}),
    ("lnetctl nidmap key del --id 1 --", {"--id"}),
    ("lnetctl set transaction", {"transaction_timeout"}),
    ("lnetctl import --", {"--add", "--del", "--show", "--exec", "--old-api"}),
    ("lnetctl help ro", {"route", "routing"}),
    ("lst new_", {"new_session"}),
    ("lst stat --m", {"--max", "--mbs", "--min"}),
    ("lst run ", {"bulk", "batch"}),
    ("lst add_test --from ", {"clients", "servers"}),
    ("lst add_test --from clients --to servers ", {"brw", "ping"}),
    ("lst add_test --batch bulk --from clients --to servers brw ", set(BRW_WORDS)),
    ("lst add_test --from clients --to servers brw write si", {"size="}),
    ("lst help add_", {"add_batch", "add_group", "add_test"}),
    ("lst add_group g 192.0.2.", {"192.0.2.2@tcp", "192.0.2.3@tcp"}),
    ("lst update_group clients --clean ", {"busy", "down", "unknown", "invalid"}),
]


def wrappers(d):
    """bin/lnetctl and bin/lst in d: canned answers, else the real tool."""
    os.makedirs(os.path.join(d, "bin"))
    answers = {
        "lnetctl": [("net show", NET_SHOW), ("peer show", PEER_SHOW)],
        "lst": [("list_group ", "1) clients\n2) servers\nTotal 2 groups\n"),
                ("list_batch ", "1) batch (0 tests, idle)\n2) bulk (2 tests, idle)\n")],
    }
    for tool, cases in answers.items():
        arms = "\n".join("%s) printf '%%s' %s; exit 0 ;;" % (shlex.quote(k), shlex.quote(v))
                         for k, v in cases)
        path = os.path.join(d, "bin", tool)
        with open(path, "w") as f:
            f.write(WRAPPER % (arms, shlex.quote(os.path.join(OUT, tool))))
        os.chmod(path, 0o755)


def complete_all(d, lines):
    """COMPREPLY of each command line, in one bash."""
    script = ["source %s" % shlex.quote(os.path.join(TOP, "completion", t))
              for t in ("lnetctl", "lst")]
    for line in lines:
        words = line.split()
        if line.endswith(" "):
            words.append("")
        script.append("COMP_WORDS=(%s); COMP_CWORD=%d; COMP_LINE=%s; COMP_POINT=%d; _%s"
                      % (" ".join(shlex.quote(w) for w in words), len(words) - 1,
                         shlex.quote(line), len(line), words[0]))
        script.append("printf '%s\\n' \"${COMPREPLY[@]}\"; echo '### end'")
    env = dict(os.environ, PATH=os.path.join(d, "bin") + ":" + os.environ["PATH"])
    p = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(script)],
                       capture_output=True, text=True, env=env)
    outs = p.stdout.split("### end\n")[:-1]
    if p.returncode or len(outs) != len(lines):
        raise SystemExit("completion_check: bash failed (%d):\n%s" % (p.returncode, p.stderr))
    return [{w for w in o.splitlines() if w} for o in outs], p.stderr


def expand(phrase):
    out = [[]]
    for w in phrase.split():
        out = [o + [alt] for o in out for alt in w.split("|")]
    return [" ".join(o) for o in out]


def main():
    p = subprocess.run(["make", "-s", "-C", os.path.join(TOP, "utils"), "O=" + OUT,
                        os.path.join(OUT, "lnetctl"), os.path.join(OUT, "lst")],
                       capture_output=True, text=True)
    if p.returncode:
        print("completion_check: building lnetctl and lst failed\n" + p.stdout + p.stderr)
        return 1
    errors = []
    p = subprocess.run(["shellcheck", "-s", "bash", "-f", "gcc",
                        "completion/lnetctl", "completion/lst"],
                       cwd=TOP, capture_output=True, text=True)
    if p.returncode:
        errors.append("shellcheck:\n" + p.stdout + p.stderr)

    checks = [(line, want, "==") for line, want in CASES]
    # lnetctl: what its help lists
    _, entries = lnetctl_help(lambda *argv: subprocess.run(
        [os.path.join(OUT, "lnetctl")] + list(argv), capture_output=True, text=True))
    if not entries:
        errors.append("no command found in lnetctl help")
    for phrase, text in entries:
        opts = set(re.findall(r"--[\w-]+", text)) - {"--help"}
        for cmd in expand(phrase):
            words = cmd.split()
            for i in range(len(words)):
                checks.append(("lnetctl " + " ".join(words[:i + 1]), {words[i]}, ">="))
            if opts:
                checks.append(("lnetctl %s --" % cmd, opts, ">="))
    # lst: its command list and each command's usage
    cmds = subprocess.run([os.path.join(OUT, "lst"), "--list-commands"],
                          capture_output=True, text=True).stdout.split()
    if not cmds:
        errors.append("no command found in lst --list-commands")
    for cmd in cmds:
        checks.append(("lst " + cmd, {cmd}, ">="))
        text = subprocess.run([os.path.join(OUT, "lst"), "help", cmd],
                              capture_output=True, text=True).stdout
        opts = set(re.findall(r"--[\w-]+", text)) - {cmd}
        if opts:
            checks.append(("lst %s --" % cmd, opts, ">="))

    with tempfile.TemporaryDirectory() as d:
        wrappers(d)
        got, stderr = complete_all(d, [c[0] for c in checks])
    if stderr.strip():
        errors.append("bash said:\n" + stderr)
    for (line, want, how), have in zip(checks, got):
        ok = have == want if how == "==" else have >= want
        if not ok:
            errors.append("'%s<TAB>': got %s, want %s%s"
                          % (line, sorted(have), "" if how == "==" else "at least ",
                             sorted(want)))
    for e in errors:
        print(e)
    if errors:
        print("completion_check: a new lnetctl command or option goes into "
              "completion/lnetctl (cmds, the subcommands, _lnetctl_opts)")
    print("completion_check: %d completions, %d findings" % (len(checks), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
