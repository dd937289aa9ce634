#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lnet.service (systemd/) on the host: the host check "service_unit".

    tests/service_check.py      (< 1 s)

* systemd-analyze verify on the unit as installed: its commands under
  /usr/lib/lnet/ are the helpers of systemd/, /usr/sbin/lnetctl a stand-in
  (the tool is built elsewhere), anything else must exist on this host
  (/sbin/modprobe); its man: Documentation= pages are man/'s;
* the same verify on a copy with a broken line fails (the check can fail);
* make install installs the unit and every helper it names, where the
  unit looks for them (debian/rules: tests/deb_check.py);
* lnet-unload unloads every module of the Kbuild files.

A missing systemd-analyze fails (Debian's systemd: scripts/deps.sh).
The VM scenario lnet_service runs the unit's steps.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = os.path.join(TOP, "systemd", "lnet.service")
LIBDIR = "/usr/lib/lnet/"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deb_check import kbuild_modules  # noqa: E402


def exec_paths(text):
    return sorted({m.split()[0].lstrip("-@:+!")
                   for m in re.findall(r"^Exec\w+=(.*)$", text, re.M)})


def stage(text, root):
    """The unit with its paths into root; root holds what they name."""
    for path in exec_paths(text):
        if path.startswith(LIBDIR):
            src = os.path.join(TOP, "systemd", path[len(LIBDIR):] + ".sh")
            if not os.path.exists(src):
                raise SystemExit("lnet.service runs %s: no %s in the tree"
                                 % (path, os.path.relpath(src, TOP)))
        elif path == "/usr/sbin/lnetctl":
            src = "/bin/true"
        else:
            continue
        dst = root + path
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(src, dst)
        text = text.replace("=" + path, "=" + dst).replace("=-" + path, "=-" + dst)
    for page in os.listdir(os.path.join(TOP, "man")):
        sec = page.rsplit(".", 1)[-1]
        os.makedirs(os.path.join(root, "man", "man" + sec), exist_ok=True)
        shutil.copy(os.path.join(TOP, "man", page), os.path.join(root, "man", "man" + sec))
    return text


def verify(text, root):
    unit = os.path.join(root, "lnet.service")
    with open(unit, "w") as f:
        f.write(text)
    env = dict(os.environ, MANPATH=os.path.join(root, "man"))
    p = subprocess.run(["systemd-analyze", "verify", unit], env=env,
                       capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip()
    return p.returncode == 0 and not out, out


def check_verify(errors):
    if not shutil.which("systemd-analyze"):
        errors.append("systemd-analyze not found: install Debian's systemd "
                      "(scripts/deps.sh)")
        return
    with open(UNIT) as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as root:
        staged = stage(text, root)
        ok, out = verify(staged, root)
        if not ok:
            errors.append("systemd-analyze verify lnet.service:\n" + out)
        broken = staged.replace("Type=oneshot", "Type=oneshott")
        ok, out = verify(broken, root)
        if ok or "oneshott" not in out:
            errors.append("systemd-analyze verify passed a unit with Type=oneshott:\n" + out)


def helpers():
    """The helpers (systemd/NAME.sh) the unit runs as /usr/lib/lnet/NAME."""
    with open(UNIT) as f:
        return [p[len(LIBDIR):] for p in exec_paths(f.read()) if p.startswith(LIBDIR)]


def check_install(errors):
    with open(os.path.join(TOP, "Makefile")) as f:
        make = f.read()
    if not re.search(r"systemd/lnet\.service > \$\(DESTDIR\)\$\(UNITDIR\)/lnet\.service", make):
        errors.append("Makefile: install does not install systemd/lnet.service")
    for h in helpers():
        if not re.search(r"systemd/%s\.sh \$\(DESTDIR\)\$\(LNETLIBDIR\)/%s\b" % (h, h), make):
            errors.append("Makefile: install does not install %s as $(LNETLIBDIR)/%s" % (h, h))


def check_unload(errors):
    with open(os.path.join(TOP, "systemd", "lnet-unload.sh")) as f:
        m = re.search(r'^MODULES="([^"]*)"', f.read(), re.M)
    listed = m.group(1).split() if m else []
    for mod in sorted(set(kbuild_modules()) - set(listed)):
        errors.append("systemd/lnet-unload.sh: module %s of the Kbuild files is not unloaded"
                      % mod)
    for mod in sorted(set(listed) - set(kbuild_modules())):
        errors.append("systemd/lnet-unload.sh: %s is not a module of the tree" % mod)
    if listed and listed[-1] != "lnet":
        errors.append("systemd/lnet-unload.sh: lnet, which every other module uses, "
                      "must unload last")


def main():
    errors = []
    check_verify(errors)
    check_install(errors)
    check_unload(errors)
    for e in errors:
        print(e)
    print("service_check: %d findings" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
