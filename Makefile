# SPDX-License-Identifier: GPL-2.0
#
# omayexec: O_MAYEXEC for the stock Debian kernels (Debian 12's 6.1 and
# Debian 13's 6.12, generic, cloud and rt: scripts/kernels lists them).
#
#   make          build the module for Debian 12's generic kernel and the
#                 userspace part (make module, make userspace: each alone)
#   make demo     build, boot the test VM, show the policy at work
#                 (DEMO_KERNEL=VER: on another kernel scripts/kernels lists)
#   make tests    build the tests (make -C tests)
#   make check    build for every kernel, boot each in the test VM, run
#                 every test, and the system-check suites: what runs where
#                 is tests/suites', boots side by side (tests/run-check)
#   make check-debug
#                 the module's suites on Debian 12's and 13's generic
#                 kernels rebuilt with KASAN, lockdep and the other bug
#                 finders (scripts/debug-kernels: 20 to 40 minutes a kernel
#                 the first time, cached); a report on the console fails it
#   make soak     build, boot the test VM, run the soak for 10 minutes
#                 (SOAK_SECONDS=N, SOAK_SEED=N to change or repeat a run)
#   make bench    build, boot the test VM on each release's generic kernel,
#                 measure what an enlightened interpreter and the hooks
#                 cost (docs/performance.md)
#   make system-check
#                 the packages on real installed Debian 12 and 13 systems
#                 booted by UEFI firmware from disk (tests/system/run): apt,
#                 DKMS, Secure Boot (MokManager enrols the keys, lockdown),
#                 make sign, systemd, the README's quick starts, a service
#                 under the exec bits, webshells refused by nginx's PHP-FPM,
#                 a kernel upgrade, the initramfs, fapolicyd, dpkg --purge
#   make deb      the Debian packages of both releases in
#                 build/deb/{bookworm,trixie}/, lintian-checked: the seven
#                 of debian/control (scripts/packages lists them):
#                 omayexec-dkms, libomayexec1, libomayexec-dev, omayexec,
#                 omayexec-python3, omayexec-perl, omayexec-php;
#                 as root also the architecture-dependent ones but
#                 omayexec-php cross-built for arm64, in
#                 build/deb/{bookworm,trixie}-arm64/ (make-deb --arch arm64)
#   make repo     a signed apt repository of those packages in build/repo/,
#                 a suite per release (scripts/make-repo: the key is made
#                 once in /var/cache/omayexec/repo-key, OMAYEXEC_REPO_KEY)
#   make install [DESTDIR=dir] [PREFIX=/usr/local]
#                 the userspace part without packages (below; the PHP
#                 extension: make -C userspace php install-php)
#   make sign KEY=MOK.priv CERT=MOK.der [MODULE=module/omayexec.ko]
#                 sign the module with a machine-owner key (Secure Boot)
#   make module DEPS=0, make sign DEPS=0 ...
#                 on the machine that runs the module: the build and the
#                 signature without scripts/install-deps (the developer's
#                 packages), with the headers, gcc and make DKMS needs too
#   make clean    remove build/ and the module's objects
#
# The module is installed by the omayexec-dkms package only (there is no
# module install target): see docs/installing.md.  On a kernel that has
# AT_EXECVE_CHECK itself (6.14 and later), "make -C userspace" and
# "make -C userspace install" build and install the userspace part without
# this Makefile's dependencies (README.md's quick start).
#
# Every target first installs the Debian packages it needs (scripts/install-deps),
# unless DEPS=0.

# Empty on a machine without the kernel yet: "deps" installs it, and the
# recipes and scripts detect the version again when they run.
KVER ?= $(shell scripts/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
export KVER KDIR BUILD

# The builds are on make check's critical path, before any boot: every
# CPU for the sub-makes (kbuild, userspace/, tests/), unless -j was given.
JOBS := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

.PHONY: all deps module userspace tests check check-debug system-check soak demo bench install deb repo sign clean

all: module userspace

# DEPS=0: nothing installed, what is there is used (docs/installing.md's
# module built without DKMS, on the machine that loads it).
deps:
	@$(if $(filter 0,$(DEPS)),:,scripts/install-deps)

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
# those of the main, stress and ima boots, without the interpreters' and
# mainline's (userspace_*, upstream_*: they test userspace, and cost most
# of the time).
DEBUG_SUITES ?= $(shell awk '$$1 == "suite" && $$3 ~ /(^|,)(main|stress|ima)(,|$$)/ && \
	$$2 !~ /^(userspace|upstream)_/ { print $$2 }' tests/suites)

check-debug: tests
	MAKEFLAGS= MFLAGS= RUN_CHECK_DEBUG=1 RUN_CHECK_SUITES="$(DEBUG_SUITES)" tests/run-check

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

# dpkg-buildpackage on a copy of the tree, then lintian: scripts/make-deb.
# The arm64 cross builds need root (their chroots).
deb: deps
	scripts/make-deb
	if [ "$$(id -u)" = 0 ]; then scripts/make-deb --arch arm64; \
	else echo "make deb: not root: no arm64 packages (cross-built in a chroot, as root)"; fi

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
