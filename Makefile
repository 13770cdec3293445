# SPDX-License-Identifier: GPL-2.0
#
# omayexec: O_MAYEXEC for the stock Debian 12 kernel.
#
#   make          build the module (and the userspace helpers)
#   make demo     build, boot the test VM, show the policy at work
#   make check    build, boot the test VM, run every test
#   make bench    build, boot the test VM, measure what the hooks cost
#
# Every target first installs the Debian packages it needs (scripts/install-deps).

# Empty on a machine without the kernel yet: "deps" installs it, and the
# recipes and scripts detect the version again when they run.
KVER ?= $(shell scripts/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(CURDIR)/build
export KVER KDIR BUILD

.PHONY: all deps module userspace tests check demo bench install clean

all: module userspace

deps:
	@scripts/install-deps

# KVER is evaluated after deps ran: the headers may have just been installed.
module: deps
	$(MAKE) -C /lib/modules/$$(scripts/kver)/build M=$(CURDIR) modules

userspace: deps
	$(MAKE) -C userspace BUILD=$(BUILD)

tests: module userspace
	$(MAKE) -C tests BUILD=$(BUILD)

check: tests
	tests/run-check

demo: module userspace
	qemu/demo

bench: module
	$(MAKE) -C tests/bench BUILD=$(BUILD)
	tests/bench/run-bench

# make install [DESTDIR=dir] [PREFIX=/usr/local]: libomayexec, its headers and
# pkg-config file, omayexec, omxsh, omayexec-python3 (with
# omayexec-python3-allow-stdlib) and their manual pages.  DESTDIR and PREFIX
# given to make reach userspace/Makefile as they are.
install: userspace
	$(MAKE) -C userspace install BUILD=$(BUILD)

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)
