# SPDX-License-Identifier: GPL-2.0
"""Host checks: module builds (W=1, sparse) against every kernel,
checkpatch --strict on every project C file and header, shellcheck and
flake8 on every script, the harness's own unit tests, the user-space
build of the NID grammar and a bounded run of every fuzz target."""

import filecmp
import glob
import os
import subprocess
import sys
import tempfile

import vm
from cases import HostTest, build_modules

SOURCE_DIRS = ["include", "lnet", "lnettest", "lnd", "health", "nidmap",
               "selftest", "kunit", "utils", "fuzz"]

# The fuzz harness's stand-in for the kernel: it defines, for user space,
# the very macros checkpatch tells kernel code to use instead.
CHECKPATCH_SKIP = ("fuzz/shim/",)

# Checks that a file's very form cannot meet, per file: a trace header's
# TRACE_EVENT() blocks are laid out as the kernel's own
# include/trace/events/*.h (one TP_*() per line, its body below it),
# which --strict's layout checks flag on every event.
CHECKPATCH_IGNORE = {
    "include/lnet/trace.h": "OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT",
}

# Seconds each fuzz target runs in make check: the twelve take about three
# minutes with the build.  "make fuzz FUZZ_TIME=..." runs them longer.
FUZZ_CHECK_TIME = 10


def checkpatch(_run_dir):
    src = subprocess.run(["bash", "-c", ". scripts/lib.sh; kernel_src_dir"],
                         cwd=vm.TOP, check=True, capture_output=True,
                         text=True).stdout.strip()
    files = []
    for d in SOURCE_DIRS:
        for ext in ("c", "h"):
            files += glob.glob(os.path.join(vm.TOP, d, "**", "*." + ext),
                               recursive=True)
    files = [f for f in files
             if not os.path.relpath(f, vm.TOP).startswith(CHECKPATCH_SKIP)]
    if not files:
        return vm.Result(False, "no source files found")
    cmd = [os.path.join(src, "scripts", "checkpatch.pl"), "--strict",
           "--no-tree", "--quiet", "--no-summary", "--show-types", "-f"]
    special = [os.path.join(vm.TOP, f) for f in CHECKPATCH_IGNORE]
    missing = [f for f in special if f not in files]
    if missing:
        return vm.Result(False, "CHECKPATCH_IGNORE names no file: %s"
                         % ", ".join(missing))
    runs = [cmd + sorted(f for f in files if f not in special)]
    runs += [cmd + ["--ignore", CHECKPATCH_IGNORE[f], os.path.join(vm.TOP, f)]
             for f in CHECKPATCH_IGNORE]
    out = ""
    for c in runs:
        p = subprocess.run(c, cwd=vm.TOP, capture_output=True, text=True)
        if p.returncode != 0 or p.stdout.strip():
            out += p.stdout + p.stderr
    if out:
        return vm.Result(False, "checkpatch findings", out)
    return vm.Result(True)


def _run(cmd, what):
    p = subprocess.run(cmd, cwd=vm.TOP, capture_output=True, text=True)
    if p.returncode != 0:
        return vm.Result(False, "%s findings" % what, (p.stdout + p.stderr)[-6000:])
    return vm.Result(True)


def _repo_files(pattern):
    return subprocess.run(["git", "ls-files", "--cached", "--others",
                           "--exclude-standard", pattern], cwd=vm.TOP,
                          check=True, capture_output=True, text=True).stdout.split()


def lint(_run_dir):
    """shellcheck (.shellcheckrc) on every shell script, flake8 (setup.cfg)
    on every Python file of the repo."""
    shells = _repo_files("*.sh")
    pys = _repo_files("*.py")
    if not shells or not pys:
        return vm.Result(False, "no scripts found")
    res = _run(["shellcheck", "-f", "gcc"] + shells, "shellcheck")
    if res.ok:
        res = _run(["flake8"] + pys, "flake8")
    return res


def harness_unit(_run_dir):
    """The splat scanner's and the verdict's unit tests (test_*.py)."""
    return _run(["python3", "-m", "unittest", "discover", "-s",
                 os.path.join("tests", "harness"), "-p", "test_*.py"],
                "harness unit test")


def nid_grammar(_run_dir):
    """lnet/nidparse.c built for user space, as lnetctl links it, against
    the KUnit test's table (kunit/lnet_nid_vectors.h): the kernel and the
    tool must give the same answers."""
    out = os.path.join(vm.TOP, "build", "utils")
    res = _run(["make", "-s", "-C", "utils", "O=" + out,
                os.path.join(out, "nid_grammar")], "nid_grammar build")
    if res.ok:
        res = _run([os.path.join(out, "nid_grammar")], "nid_grammar")
    return res


def man_pages(_run_dir):
    """tests/man_check.py: man/ formats without warnings and documents
    every command, option and module parameter of the code."""
    return _run(["python3", os.path.join("tests", "man_check.py")], "man page")


def completion(_run_dir):
    """tests/completion_check.py: completion/ sourced in bash, against
    the tools' help."""
    return _run(["python3", os.path.join("tests", "completion_check.py")],
                "completion")


def lnetctl_help(_run_dir):
    """tests/help_check.py: every help form of lnetctl (help, COMMAND
    --help, COMMAND SUB --help, ...) answers as stock's, names the options
    each subcommand parses, and opens no netlink socket."""
    return _run(["python3", os.path.join("tests", "help_check.py")], "lnetctl help")


def deb_layout(_run_dir):
    """tests/deb_check.py: lnet-dkms's dkms.conf builds every module of
    the Kbuild files, debian/rules copies their directories."""
    return _run(["python3", os.path.join("tests", "deb_check.py")], "deb layout")


def service_unit(_run_dir):
    """tests/service_check.py: systemd-analyze verify on lnet.service,
    its helpers installed where it runs them."""
    return _run(["python3", os.path.join("tests", "service_check.py")], "lnet.service")


def stale_seeds():
    """The seed files (target/name) that differ between fuzz/corpus and
    what fuzz/seeds.py writes from today's KUnit vectors and spec."""
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(vm.TOP, "fuzz", "seeds.py")],
                       env=dict(os.environ, LNET_FUZZ_CORPUS=d), check=True,
                       capture_output=True)
        old = os.path.join(vm.TOP, "fuzz", "corpus")
        return sorted(stale_files(d, old))


def stale_files(new, old):
    """Files under new and old (two corpus trees) that are not the same
    bytes, or are in one only; target/name each."""
    def files(top):
        return {os.path.relpath(os.path.join(r, f), top)
                for r, _, fs in os.walk(top) for f in fs}
    a, b = files(new), files(old)
    out = a ^ b
    for rel in a & b:
        if not filecmp.cmp(os.path.join(new, rel), os.path.join(old, rel),
                           shallow=False):
            out.add(rel)
    return out


def fuzz(run_dir):
    """Every fuzz target (fuzz/run.sh) for FUZZ_CHECK_TIME seconds from its
    seed corpus: any crash, sanitizer report, leak or hang fails, and
    names the input saved under build/fuzz/crashes/.  The executions and
    corpus sizes go to fuzz.txt in the run's directory."""
    stale = stale_seeds()
    if stale:
        return vm.Result(False, "fuzz/corpus is not what fuzz/seeds.py writes "
                         "(run make fuzz-seeds and commit): %s" % " ".join(stale))
    env = dict(os.environ, FUZZ_TIME=str(FUZZ_CHECK_TIME))
    env.pop("FUZZ_TARGET", None)
    p = subprocess.run([os.path.join(vm.TOP, "fuzz", "run.sh")], cwd=vm.TOP,
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        failed = [line.split()[0] for line in p.stdout.splitlines()
                  if " FAIL" in line]
        return vm.Result(False, "fuzz target failed: %s"
                         % (" ".join(failed) or "build"),
                         (p.stdout + p.stderr)[-6000:])
    with open(os.path.join(run_dir, "fuzz.txt"), "w") as f:
        f.write(p.stdout)
    return vm.Result(True)


TESTS = [
    HostTest("build[distro]", lambda d: build_modules("distro"), flavour="distro",
             builds=True),
    HostTest("build[debug]", lambda d: build_modules("debug"), flavour="debug",
             builds=True),
    # secs: the usual time (2026-11-28), which orders the jobs.
    HostTest("checkpatch", checkpatch, secs=45),
    HostTest("lint", lint, secs=25),
    HostTest("harness_unit", harness_unit),
    HostTest("nid_grammar", nid_grammar, secs=5),
    HostTest("man_pages", man_pages, secs=15),
    HostTest("completion", completion, secs=10),
    HostTest("lnetctl_help", lnetctl_help, secs=2),
    HostTest("deb_layout", deb_layout, secs=1),
    HostTest("service_unit", service_unit, secs=2),
    HostTest("fuzz", fuzz, secs=180),
]
