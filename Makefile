# SPDX-License-Identifier: GPL-2.0
#
# LNet kernel modules (built out of tree with Kbuild), the user tool and
# the test entry points.  See README.md.
#
#   make                  modules against the distro headers
#   make KDIR=<dir>       modules against another kernel build directory
#   make check            the whole test suite (what CI runs)
#   make check-quick      host checks and the distro VM tests (developers)
#   make demo             two VMs running LNet
#   make bench            LND benchmarks: ksocklnd vs iperf3, ko2iblnd vs ib_write_bw,
#                         then routed vs unrouted (not a test)
#   make bench-routed     the routed benchmark alone (three VMs)
#   make kunit [SUITE=s]  KUnit suites in a VM (debug kernel)
#   make vmtest T=<name>  one VM test (FLAVOUR=distro|debug)
#   make shell            a shell in a VM with the modules (FLAVOUR=...)
#   make fuzz             every fuzz target, FUZZ_TIME seconds each (default
#                         60), or FUZZ_TARGET=<name> only; crashes are saved
#                         under build/fuzz/crashes (Documentation/testing.rst)
#   make fuzz-seeds       rewrite the fuzz seed corpora from the KUnit vectors
#   make install          lnetctl, lst, lnet-nid-resolver (and its
#                         request-key.d file), their man pages and bash completion
#                         into $(DESTDIR)$(PREFIX); lnet.service, its
#                         helpers and /etc/default/lnet (systemd/)
#   make deb              Debian packages lnet-dkms and lnet-utils, lintian
#                         checked, into build/deb/
#                         (default /usr, Debian's paths); never the modules

KDIR ?= $(shell scripts/kdir.sh distro)
# Each kernel gets its own object tree, so builds against different
# kernels never share (and never mix) .o files.
BUILD ?= build/$(notdir $(patsubst %/,%,$(KDIR)))
FLAVOUR ?= distro
MODSRC := $(wildcard Kbuild include lnet lnettest lnd health nidmap selftest kunit)

.PHONY: all modules clean deps check demo kunit vmtest shell kernels FORCE

all: modules lnetctl

# The user tool, into build/utils/lnetctl (see utils/Makefile).
.PHONY: lnetctl
lnetctl:
	$(MAKE) -C utils O=$(CURDIR)/build/utils

$(BUILD)/.synced: FORCE
	@mkdir -p $(BUILD)
	@rsync -a --delete --prune-empty-dirs --include='*/' \
		--include='*.[ch]' --include='Kbuild' --exclude='*' \
		$(MODSRC) $(BUILD)/
	@touch $@

modules: $(BUILD)/.synced
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(BUILD) modules

clean:
	rm -rf build

deps:
	scripts/deps.sh

kernels: deps
	scripts/distro-kernel.sh
	scripts/test-kernel.sh debug

check:
	scripts/check.sh

.PHONY: check-quick
check-quick:
	scripts/deps.sh
	scripts/distro-kernel.sh >/dev/null
	tests/run.py --quick

demo:
	scripts/demo.sh

.PHONY: bench bench-routed
bench:
	scripts/bench.py
	scripts/bench_routed.py

bench-routed:
	scripts/bench_routed.py

kunit:
	tests/run.py --flavour debug kunit $(if $(SUITE),--suite $(SUITE))

vmtest:
	tests/run.py --flavour $(FLAVOUR) $(T)

shell:
	tests/run.py --flavour $(FLAVOUR) --shell

.PHONY: fuzz fuzz-seeds
fuzz:
	fuzz/run.sh

fuzz-seeds:
	fuzz/seeds.py

# The tools, the man pages (man/) and the bash completion (completion/),
# where Debian keeps them; DESTDIR for
# a staging tree (packages, tests).
PREFIX ?= /usr
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
# lnet.service (systemd/) where Debian keeps units, its helpers, and its
# settings; the unit's paths follow PREFIX and LNETLIBDIR.
UNITDIR ?= /lib/systemd/system
LNETLIBDIR ?= $(PREFIX)/lib/lnet
.PHONY: install
install: lnetctl
	install -D -m 0755 -t $(DESTDIR)$(PREFIX)/sbin build/utils/lnetctl build/utils/lst \
		build/utils/lnet-nid-resolver
	install -D -m 0644 utils/nidresolver/lnet.conf $(DESTDIR)/etc/request-key.d/lnet.conf
	for p in man/*.[578]; do \
		install -D -m 0644 $$p $(DESTDIR)$(MANDIR)/man$${p##*.}/$${p#man/} || exit 1; \
	done
	install -D -m 0644 -t $(DESTDIR)$(COMPLETIONDIR) completion/lnetctl completion/lst
	install -D -m 0755 systemd/lnet-wait-interfaces.sh $(DESTDIR)$(LNETLIBDIR)/lnet-wait-interfaces
	install -D -m 0755 systemd/lnet-unload.sh $(DESTDIR)$(LNETLIBDIR)/lnet-unload
	mkdir -p $(DESTDIR)$(UNITDIR)
	sed -e 's|/usr/sbin/|$(PREFIX)/sbin/|' -e 's|/usr/lib/lnet/|$(LNETLIBDIR)/|' \
		systemd/lnet.service > $(DESTDIR)$(UNITDIR)/lnet.service
	# an admin's settings stay
	[ -e $(DESTDIR)/etc/default/lnet ] || \
		install -D -m 0644 systemd/lnet.default $(DESTDIR)/etc/default/lnet

# The Debian packages (debian/), built from a copy of the tree in
# build/deb/lnet (dpkg-buildpackage writes to the parent directory), then
# lintian: any error or warning fails.
.PHONY: deb
deb:
	rm -rf build/deb
	mkdir -p build/deb/lnet
	rsync -a --exclude=/build --exclude=/.git ./ build/deb/lnet/
	cd build/deb/lnet && dpkg-buildpackage -b -us -uc
	lintian --fail-on error,warning build/deb/*.changes
