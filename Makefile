# ibahprobe: build, test, install and demo.
#
#   make                 lib/libibahprobe.a and ./ibahprobe
#   make SANITIZE=1      the same with -fsanitize=address,undefined (in build-san/)
#   make deps            install build and test dependencies from Debian packages
#   make check           deps, both builds, every test suite, one summary line
#                        (the VM suite on both kernel series, 6.1 and 6.12)
#   make check-vm-all    the VM suite on 6.1 and on 6.12 only
#   make fuzz            every libFuzzer target for FUZZ_SECONDS (default 60)
#                        each, with executions and coverage per target
#   make demo            deps, build, boot the soft-RoCE fabric and run the main job
#   make install         PREFIX (default /usr/local) and DESTDIR are honoured;
#                        the systemd units go to SYSTEMDUNITDIR (default
#                        /lib/systemd/system), their options file to
#                        SYSCONFDIR/default/ibahprobe (SYSCONFDIR: /etc)
#   make deb             build/deb/ibahprobe_VERSION_ARCH.deb, built by
#                        dpkg-buildpackage from a copy of the tree

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
SYSCONFDIR ?= /etc
SYSTEMDUNITDIR ?= /lib/systemd/system
DATADIR ?= $(PREFIX)/share

CC ?= cc
WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	    -Wmissing-prototypes
ifneq ($(CI),)
WARNINGS += -Werror
endif
CFLAGS ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -DIBAHPROBE_VERSION='"$(VERSION)"' -Ilib
LDLIBS += -libverbs -libumad -libmad -ljson-c -lm -pthread

# Sanitizer builds live in their own tree so both can coexist for make check.
ifeq ($(SANITIZE),1)
O ?= build-san
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
O ?= build
endif

LIB_SRC := $(sort $(wildcard lib/*/*.c lib/*/*/*.c))
CMD_SRC := $(sort $(wildcard cmd/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
# The fabric model's pieces (tests/tools/fabric/): linked into
# tests/tools/fabric_model and its unit test, not into the library.
FABRIC_SRC := $(sort $(wildcard tests/tools/fabric/*.c))
FABRIC_OBJ := $(FABRIC_SRC:%.c=$(O)/%.o)
LIB_OBJ := $(LIB_SRC:%.c=$(O)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(O)/%.o)
UNIT_BIN := $(UNIT_SRC:%.c=$(O)/%)
TOOL_BIN := $(TOOL_SRC:%.c=$(O)/%)
LIBA := $(O)/lib/libibahprobe.a
BIN := $(O)/ibahprobe

.PHONY: all deps check check-build check-vm-all vm-build unit cli sim vm demo install clean format bench fuzz deb
all: $(BIN) lib/libibahprobe.a ibahprobe

# The default build is also exposed at the top level, as users expect.
ifeq ($(O),build)
ibahprobe: $(BIN)
	cp $< $@
lib/libibahprobe.a: $(LIBA)
	cp $< $@
else
ibahprobe lib/libibahprobe.a: $(BIN)
	@:
endif

$(O)/%.o: %.c $(wildcard lib/*/*.h lib/*/*/*.h cmd/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) -MMD -MP -c -o $@ $<

# Made anew each time: `ar r` keeps members of files that no longer exist.
$(LIBA): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CMD_OBJ) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(LIBA) $(LDLIBS)

$(O)/tests/unit/%: tests/unit/%.c $(LIBA) tests/unit/tap.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(WARNINGS) $(LDFLAGS) -o $@ $< $(filter $(FABRIC_OBJ),$^) $(LIBA) $(LDLIBS)

$(O)/tests/tools/%: tests/tools/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(LDFLAGS) -o $@ $< $(filter $(FABRIC_OBJ),$^) $(LIBA) $(LDLIBS)

$(O)/tests/tools/fabric_model $(O)/tests/unit/test_fabric_model: $(FABRIC_OBJ) tests/tools/fabric/fabric.h

check-build: $(BIN) $(UNIT_BIN) $(TOOL_BIN)

deps:
	@tools/install-deps

# make check: every suite with the normal build, unit, CLI and sim suites again
# under ASan/UBSan, then one summary line over all of them. Strict: a suite
# or a test that cannot run here (no qemu, ibsim, a tool of make deps, a
# test tool not built) fails instead of skipping, unless IBAHPROBE_ALLOW_SKIP=1
# (CI=true is strict regardless; tools/run-suites says more).
SUITES_STRICT = IBAHPROBE_STRICT=$(if $(filter 1,$(IBAHPROBE_ALLOW_SKIP)),0,1)
check: deps
	$(MAKE) check-build ibahprobe lib/libibahprobe.a
	$(MAKE) SANITIZE=1 check-build
	@$(SUITES_STRICT) tools/run-suites

# What the VM suite runs in the guest: ./ibahprobe, the packet injector and
# the completion stamp checker.
# tests/vm/run makes this before a suite run, so plain `make` is enough.
vm-build: ibahprobe $(O)/tests/tools/ud_inject $(O)/tests/tools/ud_stamps

check-vm-all: deps vm-build
	@$(SUITES_STRICT) tools/run-suites vm vm-6.12

# make check runs each fuzz target for a fixed number of runs (FUZZ_RUNS);
# this runs each for a fixed time instead, to go deeper.
FUZZ_SECONDS ?= 60
fuzz: deps
	@tests/fuzz/run --seconds $(FUZZ_SECONDS)

unit: $(UNIT_BIN)
	@tools/run-suites unit

demo: deps all
	@tests/vm/demo

bench: all
	@tests/bench/run

# An admin's options file survives a reinstall.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 ibahprobe $(DESTDIR)$(BINDIR)/ibahprobe
	install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 completions/ibahprobe.bash $(DESTDIR)$(BASHCOMPDIR)/ibahprobe
	install -m 0644 completions/_ibahprobe $(DESTDIR)$(ZSHCOMPDIR)/_ibahprobe
	install -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSCONFDIR)/default
	for unit in ibahprobe-serve.service ibahprobe-serve@.service \
		    ibahprobe-monitor.service ibahprobe-monitor@.service \
		    ibahprobe-plan.service ibahprobe-plan.timer; do \
		sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
			systemd/$$unit.in >$(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp && \
		mv $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit || exit 1; \
	done
	[ -e $(DESTDIR)$(SYSCONFDIR)/default/ibahprobe ] || \
		install -m 0644 systemd/ibahprobe.default $(DESTDIR)$(SYSCONFDIR)/default/ibahprobe
	install -d $(DESTDIR)$(DATADIR)/ibahprobe/prometheus
	install -m 0644 contrib/prometheus/ibahprobe.rules.yml \
		contrib/prometheus/ibahprobe.rules.test.yml \
		$(DESTDIR)$(DATADIR)/ibahprobe/prometheus/
	install -d $(DESTDIR)$(DATADIR)/ibahprobe/slurm
	install -m 0755 contrib/slurm/ibahprobe-sweep $(DESTDIR)$(DATADIR)/ibahprobe/slurm/

# The .deb is built from a copy of the tree (the files git knows, committed
# or not), so dpkg-buildpackage leaves nothing in it; the package and its
# .buildinfo/.changes land in build/deb/.
deb:
	@git rev-parse --git-dir >/dev/null 2>&1 || \
		{ echo "make deb: needs a git checkout (it copies the files git knows)" >&2; exit 2; }
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	src=$$tmp/ibahprobe-$(VERSION); mkdir -p "$$src" build/deb; \
	git ls-files -z -co --exclude-standard | \
		tar --null -T - --ignore-failed-read -cf - | tar -C "$$src" -xf -; \
	(cd "$$src" && DEB_BUILD_OPTIONS="nocheck $${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b >"$$tmp/build.log" 2>&1) || \
		{ cat "$$tmp/build.log" >&2; echo "make deb: dpkg-buildpackage failed" >&2; exit 1; }; \
	rm -f build/deb/*; \
	mv "$$tmp"/*.deb "$$tmp"/*.buildinfo "$$tmp"/*.changes build/deb/; \
	ls build/deb/*.deb

format:
	clang-format -i lib/*/*.[ch] lib/*/*/*.[ch] cmd/*.[ch] tests/unit/*.[ch]

clean:
	rm -rf build build-san build-fuzz ibahprobe lib/libibahprobe.a

-include $(shell find build build-san -name '*.d' 2>/dev/null)
