# SPDX-License-Identifier: GPL-2.0
"""Test reports: the phases of a VM test, the machine-readable results
(JUnit XML) and the summary of the slowest tests.

A node runs one or more scenarios (scripts, guest-init.sh marks each with
"LNET-TEST: <node> scenario NAME") and a script divides its work into
phases with guest-lib.sh's `phase NAME` ("LNET-TEST: <node> phase NAME"),
reported as SCENARIO/NAME.  A phase ends where the node's next phase or
scenario starts, a scenario where the next scenario starts: it passed (the
node went on); both end where the script exits (passed if it exited 0).
A phase run by several nodes passed if it passed on each; its time is the
longest.

Before each of those marks a node writes "LNET-TEST: <node> pid N", the
last process id it handed out (guest-lib.sh's ``pid_mark``): a phase's
processes are the difference between the marks around it.  On the debug
kernel each process costs ~0.15-0.25 s under TCG (Documentation/
testing.rst, "Where the debug kernel's time goes"): the count says where
a slow phase's time goes.  Summed over nodes when merged.
"""

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

STAMP = r"\[ *(\d+\.\d+)\] "


@dataclass
class Phase:
    name: str
    ok: bool
    secs: float
    procs: int = 0          # processes started during it (0: not known)


def node_phases(console, node):
    """The scenarios and phases one node's console shows, in order."""
    mark = re.compile(STAMP + r"LNET-TEST: %s (?:(phase|scenario) (\S+)|"
                      r"script exit (\d+)|pid (\d+))$" % re.escape(node))
    phases = []
    running = {}            # "phase"/"scenario" -> (index in phases, start, pid)
    scenario = ""
    pid = None              # the last "pid N" mark, if any
    for line in console.splitlines():
        m = mark.search(line)
        if not m:
            continue
        if m.group(5):
            pid = int(m.group(5))
            continue
        t, kind, name, rc = float(m.group(1)), m.group(2), m.group(3), m.group(4)
        # A phase mark ends the phase before; a scenario mark also ends
        # the scenario before, and the exit ends both.
        for k in ("phase",) if kind == "phase" else ("phase", "scenario"):
            if k in running:
                i, start, pid0 = running.pop(k)
                procs = pid - pid0 if pid is not None and pid0 is not None \
                    and pid >= pid0 else 0
                phases[i] = Phase(phases[i].name, rc in (None, "0"), t - start, procs)
        if rc is not None:
            break
        if kind == "scenario":
            scenario = name
        elif scenario:
            name = scenario + "/" + name
        running[kind] = (len(phases), t, pid)
        # Until it ends, it has not passed (the script never exited).
        phases.append(Phase(name, False, 0.0))
    return phases


def merge_phases(per_node):
    """Combine the phases of every node (lists of Phase) by name."""
    merged = {}
    for phases in per_node:
        for p in phases:
            if p.name in merged:
                q = merged[p.name]
                merged[p.name] = Phase(p.name, q.ok and p.ok, max(q.secs, p.secs),
                                       q.procs + p.procs)
            else:
                merged[p.name] = p
    return list(merged.values())


def write_junit(path, results):
    """results: (job id, vm.Result, seconds, [Phase]) per job."""
    suite = ET.Element("testsuite", name="lnet", tests=str(len(results)),
                       failures=str(sum(1 for r in results if not r[1].ok)),
                       time="%.1f" % sum(r[2] for r in results))
    for job_id, res, secs, phases in results:
        case = ET.SubElement(suite, "testcase", classname="lnet", name=job_id,
                             time="%.1f" % secs)
        if not res.ok:
            f = ET.SubElement(case, "failure", message=res.reason)
            f.text = res.details
        for p in phases:
            pc = ET.SubElement(suite, "testcase", classname=job_id, name=p.name,
                               time="%.1f" % p.secs)
            if p.procs:
                ET.SubElement(pc, "properties").append(
                    ET.Element("property", name="processes", value=str(p.procs)))
            if not p.ok:
                ET.SubElement(pc, "failure", message="phase failed")
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


# Lines of a failure's details worth repeating in the recap at the end of
# a run (whose middle a reader of a long log may never see).
KEY_LINE = re.compile(r"\] FAIL: |timed out|BUG:|WARNING:|Oops|KASAN|"
                      r"kmemleak:|unreferenced object|lockdep|UBSAN|"
                      r"hung_task|ib_post_send|RIP: |Kernel panic")
# A kernel report's first frames say where it happened.
TRACE_START = re.compile(r"Call Trace:")
TRACE_FRAME = re.compile(r"\]\s+(\? )?\w+\+0x[0-9a-f]+/0x[0-9a-f]+")
TRACE_FRAMES = 6


# A script's own lines ("[a] ...") shown before its first FAIL: what it
# printed on the way there (a diagnosis such as "peer show") is all that
# CI's log, which keeps only its end, will ever show of a failure.
FAIL_CONTEXT = 12
SCRIPT_LINE = re.compile(r"^\[([a-z0-9_]+)\] ")


def failure_recap(results, per_job=20):
    """Lines that recap the failed jobs: each one's reason, the key lines
    of its details, and before a node's first FAIL the lines its script
    printed just before."""
    lines = []
    for name, res, _, _ in results:
        if res.ok:
            continue
        lines.append("  %s: %s" % (name, res.reason))
        seen = []
        context = {}        # node -> its last script lines
        failed = set()
        frames = 0
        for line in (res.details or "").splitlines():
            line = line.strip()
            node = SCRIPT_LINE.match(line)
            if TRACE_START.search(line):
                frames = TRACE_FRAMES
            elif frames and TRACE_FRAME.search(line):
                frames -= 1
                seen.append(line)
            elif KEY_LINE.search(line) and line not in seen:
                if node and "] FAIL: " in line and node.group(1) not in failed:
                    failed.add(node.group(1))
                    seen += ["| " + x for x in context.get(node.group(1), [])]
                seen.append(line)
            elif node:
                context.setdefault(node.group(1), []).append(line)
                del context[node.group(1)][:-FAIL_CONTEXT]
        keys = 0
        for x in seen:
            keys += not x.startswith("| ")
            if keys > per_job:
                break
            lines.append("      " + x[:300])
    return lines


def slowest(results, n=5):
    """Lines naming the n slowest jobs."""
    top = sorted(results, key=lambda r: -r[2])[:n]
    return ["  %5ds  %s" % (r[2], r[0]) for r in top]
