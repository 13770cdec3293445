# SPDX-License-Identifier: GPL-2.0
#
# omayexec: O_MAYEXEC for the stock Debian kernels (Debian 12's 6.1 and
# Debian 13's 6.12, generic, cloud and rt: scripts/kernels lists them).
#
# Each target first installs the Debian packages it needs and nothing
# else: the sets of scripts/install-deps in brackets ("make help" lists
# their packages); DEPS=0 installs nothing.  Installing needs root; when
# nothing is missing, only what is said to need root does.  The times are
# the project's 2-core machine's, the packages installed.
#
#   make          the module for Debian 12's generic kernel and the
#                 userspace part: make module and make userspace
#                 [module userspace]; one or two minutes
#   make userspace
#                 libomayexec, omayexec, omxsh, omayexec-python3 and
#                 omayexec-perl in build/userspace/ (make -C userspace; the
#                 PHP extension too where php-config is: scripts/install-deps
#                 php) [userspace]; under a minute
#   make module   the module, module/omayexec.ko, for the kernel
#                 linux-image-amd64 installs (scripts/kver) [module];
#                 under a minute
#   make install [DESTDIR=dir] [PREFIX=/usr/local]
#                 the userspace part without packages (make -C userspace
#                 install; the PHP extension: make -C userspace php
#                 install-php) [userspace]; under a minute
#   make uninstall [DESTDIR=dir] [PREFIX=/usr/local]
#                 removes what make install installed (make -C userspace
#                 uninstall) []; seconds
#   make memcheck omayexec and omxsh under valgrind on the host, no module
#                 (make -C userspace memcheck); root [userspace memcheck];
#                 a minute
#   make deb [DEB_RELEASES=RELEASE...]
#                 the Debian packages, lintian-checked, in
#                 build/deb/RELEASE/: the seven of debian/control
#                 (scripts/packages lists them): omayexec-dkms,
#                 libomayexec1, libomayexec-dev, omayexec, omayexec-python3,
#                 omayexec-perl, omayexec-php.  As a user the host's
#                 release's [deb]; about 4 minutes.  As root both releases'
#                 (bookworm, trixie) and the architecture-dependent ones
#                 but omayexec-php cross-built for arm64 in
#                 build/deb/RELEASE-arm64/ (make-deb --arch arm64), each in
#                 a chroot [deb chroots]: the first time Debian 13's chroot
#                 comes from a full scripts/kernels run, which installs
#                 [check] and fetches the kernels (about 4 GB, 10 minutes
#                 or more).  DEB_RELEASES=bookworm: that release's amd64
#                 packages alone, no chroot on Debian 12 [deb], as root too
#   make repo     a signed apt repository of those packages in build/repo/,
#                 a suite per release (scripts/make-repo: the key is made
#                 once in /var/cache/omayexec/repo-key, OMAYEXEC_REPO_KEY)
#                 [make deb's, repo]; seconds after make deb
#   make sign KEY=MOK.priv CERT=MOK.der [MODULE=module/omayexec.ko]
#                 sign the module with a machine-owner key (Secure Boot)
#                 [module]; seconds after make module
#   make module DEPS=0, make sign DEPS=0 ...
#                 on the machine that runs the module: the build and the
#                 signature with the headers, gcc and make DKMS needs too
#   make tests    build the tests (make -C tests) [check]; a few minutes
#   make demo     build, boot the test VM, show the policy at work
#                 (DEMO_KERNEL=VER: on another kernel scripts/kernels lists)
#                 [check]; a few minutes
#   make check    build for every kernel, boot each in the test VM, run
#                 every test, and the system-check suites: what runs where
#                 is tests/suites', boots side by side (tests/run-check);
#                 root [check]; about 40 minutes with its cache filled
#                 (/var/cache/omayexec, about 4 GB), about an hour the
#                 first time (docs/testing.md)
#   make check-debug
#                 the module's suites on Debian 12's and 13's generic
#                 kernels rebuilt with KASAN, lockdep and the other bug
#                 finders (scripts/debug-kernels: 20 to 40 minutes a kernel
#                 the first time, cached); a report on the console fails it;
#                 the fuzzers' short runs among them;
#                 OMAYEXEC_DEBUG_KERNELS="VER..." limits it to those [check]
#   make fuzz     the fuzzers alone on those kernels, DURATION seconds
#                 (default 300) each variant: interface_fuzz_test's nine,
#                 trinity's two; SEED=N reruns a sequence [check]
#   make soak     build, boot the test VM, run the soak for 10 minutes
#                 (SOAK_SECONDS=N, SOAK_SEED=N to change or repeat a run)
#                 [check]
#   make bench    build, boot the test VM on each release's generic kernel,
#                 measure what an enlightened interpreter and the hooks
#                 cost (docs/performance.md) [check]; about 50 minutes
#   make system-check
#                 the packages on real installed Debian 12 and 13 systems
#                 booted by UEFI firmware from disk (tests/system/run): apt,
#                 DKMS, Secure Boot (MokManager enrols the keys, lockdown),
#                 make sign, systemd, the README's quick starts, a service
#                 under the exec bits, webshells refused by nginx's PHP-FPM,
#                 a kernel upgrade, the initramfs, fapolicyd, dpkg --purge;
#                 root [check]; about 20 minutes
#   make clean    remove build/ and the module's objects []
#   make help     this list, and the packages of each set []
#
# The module is installed by the omayexec-dkms package only (there is no
# module install target): see docs/installing.md.  On a kernel that has
# AT_EXECVE_CHECK itself (6.14 and later), "make -C userspace" and
# "make -C userspace install" build and install the userspace part without
# this Makefile's packages (README.md's quick start).

# Empty on a machine without the kernel yet: "deps" installs it, and the
# recipes and scripts detect the version again when they run.
KVER ?= $(shell scripts/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
export KVER KDIR BUILD

# The builds are on make check's critical path, before any boot: every
# CPU for the sub-makes (kbuild, userspace/, tests/), unless make was
# given a -j, -j1 included.  Decided by the recipe's shell: GNU make 4.3
# shows the -j in MAKEFLAGS to recipes only, not while it reads this file
# (4.4 does both).  The command line's variables, after " -- ", are not
# searched.
NPROC := $(shell nproc)
JOBS = $$(f=" $$MAKEFLAGS "; case "$${f%% -- *} " in *" -j"*) ;; *) echo -j$(NPROC) ;; esac)

# The sets of scripts/install-deps each goal needs (the list above); "make
# deps" alone installs every set, as before.  As root, make deb builds the
# other release's packages and the arm64 ones in chroots, unless
# DEB_RELEASES names the host's release alone.
ROOT := $(filter 0,$(shell id -u))
HOST_RELEASE := $(shell . /etc/os-release && echo "$$VERSION_CODENAME")
DEB_RELEASES ?=
DEB_CHROOTS := $(and $(ROOT),$(if $(DEB_RELEASES),$(filter-out $(HOST_RELEASE),$(DEB_RELEASES)),all))
sets.all := module userspace
sets.module := module
sets.userspace := userspace
sets.install := userspace
sets.memcheck := userspace memcheck
sets.sign := module
sets.deb := deb $(if $(DEB_CHROOTS),chroots)
sets.repo := $(sets.deb) repo
$(foreach g,tests check check-debug fuzz system-check soak demo bench deps,$(eval sets.$(g) := check))
DEPS_SETS := $(sort $(foreach g,$(or $(MAKECMDGOALS),all),$(sets.$(g))))

.PHONY: all deps module userspace tests check check-debug fuzz system-check soak demo bench install uninstall memcheck deb repo sign clean help

all: module userspace

# DEPS=0: nothing installed, what is there is used (docs/installing.md's
# module built without DKMS, on the machine that loads it).  Once for all
# the goals, before any of them builds (apt-get runs once).  A goal of no
# set installs nothing (install-deps without a set would install all).
deps:
	@$(if $(or $(filter 0,$(DEPS)),$(if $(DEPS_SETS),,none)),:,scripts/install-deps $(DEPS_SETS))

# KVER is evaluated after deps ran: the headers may have just been installed.
module: deps
	$(MAKE) $(JOBS) -C /lib/modules/$$(scripts/kver)/build M=$(CURDIR) modules

userspace: deps
	$(MAKE) $(JOBS) -C userspace BUILD=$(BUILD)

tests: module userspace
	$(MAKE) $(JOBS) -C tests BUILD=$(BUILD)

# Without make's flags: run-check's own builds (scripts/build-module) are
# no sub-makes of this one, and a warning about make's job server fails them.
check: tests
	MAKEFLAGS= MFLAGS= tests/run-check

# The suites that test the module, in the boots tests/suites gives them:
# those of the main, stress, ima and fuzz boots, without the interpreters'
# and mainline's (userspace_*, upstream_*: they test userspace, and cost
# most of the time), and without nfs_test: its NFSv4 server and client
# under KASAN and TCG took about 1.5 s an open, and 1,600 s (its limit)
# did not see its 24,576 opens through (2026-12-07, 6.1).
DEBUG_SUITES ?= $(shell awk '$$1 == "suite" && $$3 ~ /(^|,)(main|stress|ima|fuzz)(,|$$)/ && \
	$$2 !~ /^(userspace|upstream)_/ && $$2 != "nfs_test" { print $$2 }' tests/suites)

check-debug: tests
	MAKEFLAGS= MFLAGS= RUN_CHECK_DEBUG=1 RUN_CHECK_SUITES="$(DEBUG_SUITES)" tests/run-check

# The fuzzers alone on the debug kernels, DURATION seconds each variant
# (interface_fuzz_test's nine in the main boot, trinity_fuzz_test's two in
# the fuzz boot, side by side), SEED to rerun a sequence.
DURATION ?= 300
fuzz: tests
	MAKEFLAGS= MFLAGS= RUN_CHECK_DEBUG=1 OMX_FUZZ_SECONDS="$(DURATION)" \
		$(if $(SEED),OMX_FUZZ_SEED="$(SEED)") \
		RUN_CHECK_SUITES="interface_fuzz_test trinity_fuzz_test" tests/run-check

# The packages of both releases (scripts/make-deb), then run-check's two
# system suites alone, side by side.
system-check: tests
	LINTIAN=0 scripts/make-deb
	MAKEFLAGS= MFLAGS= RUN_CHECK_KERNELS=host RUN_CHECK_SUITES="system_bookworm system_trixie" tests/run-check

soak: tests
	tests/run-soak

demo: module userspace
	qemu/demo

bench: module userspace
	$(MAKE) -C tests/bench BUILD=$(BUILD)
	tests/bench/run-bench

# make install [DESTDIR=dir] [PREFIX=/usr/local]: libomayexec, its headers and
# pkg-config file, omayexec, omxsh, omayexec-python3 and omayexec-perl (with
# omayexec-python3-allow-stdlib and omayexec-perl-allow-stdlib) and their
# manual pages.  DESTDIR and PREFIX
# given to make reach userspace/Makefile as they are.
install: userspace
	$(MAKE) -C userspace install BUILD=$(BUILD)

# Builds nothing, installs nothing: userspace/Makefile knows what install
# put where.
uninstall:
	$(MAKE) -C userspace uninstall BUILD=$(BUILD)

memcheck: deps
	$(MAKE) $(JOBS) -C userspace memcheck BUILD=$(BUILD)

# dpkg-buildpackage on a copy of the tree, then lintian: scripts/make-deb.
# The arm64 cross builds need root (their chroots); DEB_RELEASES leaves
# them out.
deb: deps
	scripts/make-deb $(DEB_RELEASES)
	$(if $(DEB_RELEASES),@echo "make deb: DEB_RELEASES given: no arm64 packages",\
	if [ "$$(id -u)" = 0 ]; then scripts/make-deb --arch arm64; \
	else echo "make deb: not root: no arm64 packages (cross-built in a chroot, as root)"; fi)

# The packages of "make deb", each release's, as an apt repository.
repo: deb
	scripts/make-repo

# Signs MODULE in place with sign-file from the kernel headers
# (scripts/sign-module); builds it first when it is the default one.
MODULE ?= module/omayexec.ko
sign: $(if $(filter module/omayexec.ko,$(MODULE)),module,deps)
	scripts/sign-module "$(KEY)" "$(CERT)" "$(MODULE)"

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)

# The list at the top of this file, then each set's packages, wrapped.
help:
	@sed -n '/^#   make /,/^#$$/{/^#$$/d; s/^# //; p}' Makefile
	@echo
	@echo "The sets of scripts/install-deps (scripts/install-deps SET... installs them):"
	@scripts/install-deps --list userspace php module deb chroots repo memcheck check | \
		awk '{ line = " "; n = split($$0, w, " "); for (i = 1; i <= n; i++) { \
			if (length(line) + length(w[i]) > 76) { print line; line = "     " }; \
			line = line " " w[i] }; print line }'
