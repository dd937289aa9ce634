#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The man pages of man/ against groff and against the code they describe.

    tests/man_check.py        (also the host check "man_pages" of tests/run.py)

* every page formats without a warning (groff -ww, as man --warnings);
* lnetctl(8): every command and subcommand "lnetctl help" and "lnetctl
  COMMAND --help" list and every option they name, every long option of
  a getopt table in utils/lnetctl/ and every command of its command
  table;
* lst(8): every command of "lst --list-commands", every option of
  "lst help COMMAND", every long option of utils/lst/lst.c; and lst's
  help forms answer ("lst help", "lst help COMMAND", "lst" reading
  commands);
* lnet(7): every module parameter of lnet, lnet_health, ksocklnd,
  ko2iblnd and lnet_selftest in its module's section, with "(default
  X)", X the initializer's value where the code has a number; and no
  parameter the code does not have;
* lnet.conf(5): every key of lnetctl's "tunables", "lnd tunables" and
  global parameter tables.

A new command, option or parameter without its documentation fails here.
Builds lnetctl and lst (make -C utils) first: about 15 s cold, 1 s warm.
"""

import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAN = os.path.join(TOP, "man")
# Its own tree: the host checks run side by side, and nid_grammar builds
# into build/utils.
UTILS_OUT = os.path.join(TOP, "build", "man_check")
PAGES = ["lnetctl.8", "lst.8", "lnet.conf.5", "lnet.7"]

# A module's source directory -> the section of lnet(7) of its parameters.
PARAM_SECTIONS = {
    "lnet": "LNET PARAMETERS",
    "health": "LNET_HEALTH PARAMETERS",
    "lnd/sock": "KSOCKLND PARAMETERS",
    "lnd/o2ib": "KO2IBLND PARAMETERS",
    "selftest": "LNET_SELFTEST PARAMETERS",
    "nidmap": "LNET_NIDMAP PARAMETERS",
}

OPTION = re.compile(r"(?<![\w\-])(--?[A-Za-z][\w\-]*)")
LONG_OPT = re.compile(r'\{\s*"([\w\-]+)",\s*(?:no|required|optional)_argument')
CMD_ENTRY = re.compile(r'\{\s*"(\w+)",\s*cmd_\w+')
PARAM = re.compile(r"module_param(?:_named|_cb)?\(\s*(\w+)\s*,\s*&?([\w.\[\]]+)")


def groff(page, *args):
    return subprocess.run(["groff", "-man", "-ww"] + list(args)
                          + [os.path.join(MAN, page)],
                          capture_output=True, text=True)


def page_text(page):
    """The page as plain ASCII, one line per paragraph or tag (a line
    length no text reaches), blanks collapsed."""
    p = groff(page, "-Tascii", "-rLL=5000n", "-P-cbou")
    lines = [re.sub(r"\s+", " ", line).strip() for line in p.stdout.splitlines()]
    return "\n".join(line for line in lines if line)


def has_token(text, tok):
    return re.search(r"(?<![\w\-])" + re.escape(tok) + r"(?![\w\-])", text) is not None


def has_phrase(text, phrase):
    """phrase (words, some "a|b" alternatives) is in text literally, with
    each word one of the "a|b|c" alternatives of the text's word there
    ("fault drop del" in "fault drop|delay del"), or each of its
    expansions is."""
    flat = " ".join(text.split())
    if has_token(flat, phrase):
        return True
    alt = r"(?:[\w\-]+ ?\| ?)*%s(?: ?\| ?[\w\-]+)*"
    if re.search(r"(?<![\w\-|])" + " ".join(alt % re.escape(w) for w in phrase.split())
                 + r"(?![\w\-|])", flat):
        return True
    expansions = [[]]
    for word in phrase.split():
        expansions = [e + [alt] for e in expansions for alt in word.split("|")]
    return all(has_token(flat, " ".join(e)) for e in expansions)


def run_tool(*argv):
    return subprocess.run([os.path.join(UTILS_OUT, argv[0])] + list(argv[1:]),
                          capture_output=True, text=True,
                          env=dict(os.environ, LC_ALL="C"))


def source(pattern):
    out = ""
    for path in sorted(glob.glob(os.path.join(TOP, pattern))):
        with open(path) as f:
            out += f.read()
    return out


class Check:
    def __init__(self):
        self.errors = []

    def need(self, ok, msg):
        if not ok:
            self.errors.append(msg)

    def found(self, what, items):
        """A table the check reads must not come back empty (a silent gap)."""
        self.need(bool(items), "found no %s: the check's pattern no longer "
                  "matches the code" % what)
        return items


def check_groff(c):
    for page in PAGES:
        p = groff(page, "-z", "-Tutf8")
        c.need(p.returncode == 0 and not p.stderr.strip(),
               "%s: groff -ww: %s" % (page, p.stderr.strip() or p.returncode))


def lnetctl_help(run):
    """What lnetctl's help forms say, as stock's shapes have it: the
    commands of "lnetctl help", and of each "lnetctl COMMAND --help" its
    entries ("net add: ...", stock's print_help()) or, for a command
    without subcommands, its text.  run(*argv) runs lnetctl.  Returns
    (exit status of "lnetctl help", [(command phrase, help text)])."""
    p = run("help")
    out = []
    for cmd in re.findall(r"^\t(\S+)$", p.stdout, re.M):
        if cmd.startswith("-") or cmd == "help":
            continue
        q = run(cmd, "--help")
        if q.returncode:
            out.append((cmd, ""))
            continue
        ents, cur = [], None
        for line in q.stdout.splitlines():
            m = re.match(r"%s ([a-z_]+(?: [a-z_]+)*): " % re.escape(cmd), line)
            if m:
                cur = [cmd + " " + m.group(1), ""]
                ents.append(cur)
            if cur:
                cur[1] += line + "\n"
        out += [tuple(e) for e in ents] or [(cmd, q.stdout)]
    return p.returncode, out


def check_lnetctl(c, text):
    rc, entries = lnetctl_help(lambda *argv: run_tool("lnetctl", *argv))
    c.need(rc == 0, "lnetctl help: exit %d" % rc)
    c.found("command in lnetctl help", entries)
    for phrase, _ in entries:
        c.need(has_phrase(text, phrase),
               "lnetctl.8: command '%s' of lnetctl's help is not documented" % phrase)
    opts = {o for _, h in entries for o in OPTION.findall(h)}
    c.found("option in lnetctl help", opts)
    src = source("utils/lnetctl/*.c")
    opts |= {"--" + o for o in c.found("getopt table in utils/lnetctl",
                                       LONG_OPT.findall(src))}
    for o in sorted(opts):
        c.need(has_token(text, o), "lnetctl.8: option %s is not documented" % o)
    for cmd in c.found("command table in utils/lnetctl", CMD_ENTRY.findall(src)):
        c.need(has_token(text, cmd), "lnetctl.8: command %s is not documented" % cmd)


def check_lst(c, text):
    """lst.8 against lst's command table and help; lst's help forms."""
    src = source("utils/lst/*.c")
    cmds = set(c.found("command table in utils/lst", CMD_ENTRY.findall(src)))
    p = run_tool("lst", "--list-commands")
    listed = set(p.stdout.split())
    c.need(p.returncode == 0 and cmds <= listed,
           "lst --list-commands: exit %d, lists %s, the table has %s"
           % (p.returncode, sorted(listed), sorted(cmds)))
    cmds |= listed
    p = run_tool("lst", "help")
    c.need(p.returncode == 0 and "Available commands are:" in p.stdout
           and all(("\t%s\n" % cmd) in p.stdout for cmd in cmds),
           "lst help: exit %d, does not list every command:\n%s"
           % (p.returncode, p.stdout))
    p = run_tool("lst", "help", "no_such")
    c.need(p.returncode == 1 and "no command no_such" in p.stderr,
           "lst help no_such: exit %d, %r" % (p.returncode, p.stderr))
    p = subprocess.run([os.path.join(UTILS_OUT, "lst")], input="help run\nquit\nhelp\n",
                       capture_output=True, text=True)
    c.need(p.returncode == 0 and p.stdout == "Usage: lst run [BATCH]\n",
           "lst reading 'help run', 'quit': exit %d, %r" % (p.returncode, p.stdout))
    opts = set()
    for cmd in sorted(cmds):
        c.need(has_token(text, cmd), "lst.8: command %s is not documented" % cmd)
        q = run_tool("lst", "help", cmd)
        c.need(q.returncode == 0 and q.stdout.startswith("Usage: lst " + cmd),
               "lst help %s: exit %d, %r" % (cmd, q.returncode, q.stdout))
        opts |= set(OPTION.findall(q.stdout))
    opts |= {"--" + o for o in c.found("getopt table in utils/lst",
                                       LONG_OPT.findall(src))}
    for o in sorted(opts):
        c.need(has_token(text, o), "lst.8: option %s is not documented" % o)


def initializers(src):
    """Numeric members of the LNDs' tunables initializers: name -> value."""
    return {m.group(1): m.group(2)
            for m in re.finditer(r"^\s*\.(\w+)\s*=\s*(-?\d+),", src, re.M)}


def sections(text):
    """lnet(7)'s text by section heading."""
    out, cur = {}, None
    for line in text.splitlines():
        if re.fullmatch(r"[A-Z][A-Z_ .()0-9]*", line):
            cur = line
            out[cur] = ""
        elif cur:
            out[cur] += line + "\n"
    return out


def check_lnet7(c, text):
    secs = sections(text)
    for d, sec in PARAM_SECTIONS.items():
        src = source(d + "/*.c")
        params = PARAM.findall(src)
        body = secs.get(sec, "")
        if params:
            c.need(sec in secs, "lnet.7: no section %s for %s's parameters" % (sec, d))
        values = initializers(src)
        for name, var in params:
            m = re.search(r"^%s \((?:\w+, )?default ([^)]*)\)" % re.escape(name),
                          body, re.M)
            c.need(m is not None, "lnet.7: %s parameter %s is not documented "
                   "(with '(default X)') in %s" % (d, name, sec))
            field = var.split(".")[-1]
            if m and field in values:
                c.need(m.group(1) == values[field],
                       "lnet.7: %s: default %s, the code's is %s"
                       % (name, m.group(1), values[field]))
        documented = re.findall(r"^(\w+) \((?:\w+, )?default", body, re.M)
        known = {n for n, _ in params}
        for name in documented:
            c.need(name in known, "lnet.7: %s documents %s, which %s does not have"
                   % (sec, name, d))
    c.found("module parameter", PARAM.findall(source("lnet/*.c")))


def check_conf(c, text):
    src = source("utils/lnetctl/lnetctl.c")
    keys = re.findall(r'\{\s*"(\w+)",\s*(?:"[\w\-]+"|NULL),\s*LNET_(?:LND_)?TUN_A_', src)
    keys += re.findall(r'\{\s*"(\w+)",\s*-?\d+,\s*\w+\s*\}', src)
    for k in c.found("tunable or parameter table in utils/lnetctl/lnetctl.c", keys):
        c.need(has_token(text, k), "lnet.conf.5: key %s is not documented" % k)
    for block in ("net", "peer", "global", "udsp"):
        c.need(has_token(text, block + ":"),
               "lnet.conf.5: no example of the %s: block" % block)


def main():
    c = Check()
    p = subprocess.run(["make", "-s", "-C", os.path.join(TOP, "utils"),
                        "O=" + UTILS_OUT, os.path.join(UTILS_OUT, "lnetctl"),
                        os.path.join(UTILS_OUT, "lst")],
                       capture_output=True, text=True)
    if p.returncode:
        print("man_check: building lnetctl and lst failed\n" + p.stdout + p.stderr)
        return 1
    check_groff(c)
    check_lnetctl(c, page_text("lnetctl.8"))
    check_lst(c, page_text("lst.8"))
    check_lnet7(c, page_text("lnet.7"))
    check_conf(c, page_text("lnet.conf.5"))
    for e in c.errors:
        print(e)
    if c.errors:
        print("man_check: say each in its page of man/ (a new lnetctl command or "
              "option also in completion/lnetctl's _lnetctl_opts)")
    print("man_check: %d pages, %d findings" % (len(PAGES), len(c.errors)))
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main())
