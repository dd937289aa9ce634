#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Debian packaging (debian/) against the tree.

    tests/deb_check.py           (the host check "deb_layout": < 1 s)
    tests/deb_check.py --build   make deb (both packages, lintian), then
                                 their contents (~1-2 min; not in make check)

Always: the dkms.conf of lnet-dkms (debian/lnet-dkms.dkms) builds every
module the tree's Kbuild files make (obj-m), from its directory, and
installs each; debian/rules copies every directory the top Kbuild
descends into (but kunit/), and installs lnet.service into lnet-utils'
/lib/systemd/system with its helpers under /usr/lib/lnet/.  With
--build: lnet-utils holds lnetctl, lst, the four man pages, the bash
completion, the example lnet.conf, lnet.service, its helpers and
/etc/default/lnet; lnet-dkms holds dkms.conf and every module's sources under
/usr/src/lnet-VERSION.
"""

import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kbuild_modules():
    """{module: directory} of every obj-m of the tree but kunit/."""
    mods = {}
    for path in glob.glob(os.path.join(TOP, "*", "**", "Kbuild"), recursive=True):
        d = os.path.relpath(os.path.dirname(path), TOP)
        if d.startswith(("kunit", "build", "debian")):
            continue
        with open(path) as f:
            for m in re.findall(r"^obj-m\s*\+?=\s*(.*)$", f.read(), re.M):
                for obj in m.split():
                    mods[obj[:-2]] = d + "/"
    return mods


def top_dirs():
    with open(os.path.join(TOP, "Kbuild")) as f:
        return [d.split("/")[0] for d in re.findall(r"^obj-\S+\s*\+?=\s*(\S+)/", f.read(), re.M)
                if not d.startswith("kunit")]


def check_layout(errors):
    with open(os.path.join(TOP, "debian", "lnet-dkms.dkms")) as f:
        conf = f.read()
    names = dict(re.findall(r'^BUILT_MODULE_NAME\[(\d+)\]="([^"]+)"', conf, re.M))
    locs = dict(re.findall(r'^BUILT_MODULE_LOCATION\[(\d+)\]="([^"]+)"', conf, re.M))
    dests = dict(re.findall(r'^DEST_MODULE_LOCATION\[(\d+)\]="([^"]+)"', conf, re.M))
    packaged = {names[i]: locs.get(i) for i in names}
    mods = kbuild_modules()
    if not mods:
        errors.append("found no obj-m in the Kbuild files")
    for mod, d in sorted(mods.items()):
        if mod not in packaged:
            errors.append("debian/lnet-dkms.dkms: module %s (%s) is not built" % (mod, d))
        elif packaged[mod] != d:
            errors.append("debian/lnet-dkms.dkms: %s built in %s, the tree has it in %s"
                          % (mod, packaged[mod], d))
    for mod in sorted(set(packaged) - set(mods)):
        errors.append("debian/lnet-dkms.dkms: %s is not a module of the tree" % mod)
    for i in names:
        if i not in dests:
            errors.append("debian/lnet-dkms.dkms: no DEST_MODULE_LOCATION[%s]" % i)
    with open(os.path.join(TOP, "debian", "rules")) as f:
        rules = f.read()
    copied = re.search(r"cp -a ([^$]*)\$\(DKMS_SRC\)", rules)
    copied = copied.group(1).split() if copied else []
    for d in sorted(set(top_dirs()) | {"include"}):
        if d not in copied:
            errors.append("debian/rules: directory %s (Kbuild) is not copied into lnet-dkms" % d)
    check_service_layout(errors, rules)


def check_service_layout(errors, rules):
    """lnet.service lands in lnet-utils where systemd looks for a
    package's units, each helper it runs where it runs it."""
    from service_check import helpers
    if not re.search(r"-t debian/lnet-utils/lib/systemd/system systemd/lnet\.service", rules):
        errors.append("debian/rules: systemd/lnet.service is not installed into "
                      "lnet-utils' /lib/systemd/system")
    for h in helpers():
        if not re.search(r"systemd/%s\.sh\s*\\?\s*debian/lnet-utils/usr/lib/lnet/%s\n"
                         % (h, h), rules):
            errors.append("debian/rules: lnet.service runs /usr/lib/lnet/%s: "
                          "systemd/%s.sh is not installed there" % (h, h))


def contents(deb):
    out = subprocess.run(["dpkg-deb", "-c", deb], check=True, capture_output=True,
                         text=True).stdout
    return {line.split()[-1].lstrip(".") for line in out.splitlines()}


def check_build(errors):
    p = subprocess.run(["make", "-s", "deb"], cwd=TOP, capture_output=True, text=True)
    if p.returncode:
        errors.append("make deb failed:\n" + (p.stdout + p.stderr)[-4000:])
        return
    debs = glob.glob(os.path.join(TOP, "build", "deb", "*.deb"))
    utils = [d for d in debs if os.path.basename(d).startswith("lnet-utils_")]
    dkms = [d for d in debs if os.path.basename(d).startswith("lnet-dkms_")]
    if len(utils) != 1 or len(dkms) != 1:
        errors.append("make deb made %s" % [os.path.basename(d) for d in debs])
        return
    have = contents(utils[0])
    for f in ["/usr/sbin/lnetctl", "/usr/sbin/lst", "/usr/sbin/lnet-nid-resolver",
              "/etc/request-key.d/lnet.conf", "/usr/share/man/man8/lnet-nid-resolver.8.gz",
              "/usr/share/man/man8/lnetctl.8.gz", "/usr/share/man/man8/lst.8.gz",
              "/usr/share/man/man5/lnet.conf.5.gz", "/usr/share/man/man7/lnet.7.gz",
              "/usr/share/bash-completion/completions/lnetctl",
              "/usr/share/bash-completion/completions/lst",
              "/usr/share/doc/lnet-utils/examples/lnet.conf.example",
              "/lib/systemd/system/lnet.service", "/usr/lib/lnet/lnet-wait-interfaces",
              "/usr/lib/lnet/lnet-unload", "/etc/default/lnet"]:
        if f not in have:
            errors.append("lnet-utils lacks %s" % f)
    have = contents(dkms[0])
    src = [f for f in have if re.match(r"/usr/src/lnet-[^/]+/dkms.conf$", f)]
    if not src:
        errors.append("lnet-dkms lacks /usr/src/lnet-VERSION/dkms.conf")
        return
    root = os.path.dirname(src[0])
    for mod, d in kbuild_modules().items():
        if "%s/%sKbuild" % (root, d) not in have:
            errors.append("lnet-dkms lacks %s/%sKbuild (module %s)" % (root, d, mod))


def main():
    errors = []
    check_layout(errors)
    if "--build" in sys.argv[1:] and not errors:
        check_build(errors)
    for e in errors:
        print(e)
    print("deb_check: %d findings" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
