#!/usr/bin/env bats
# The Debian package: `make deb` builds it with dpkg-buildpackage from a
# copy of the tree (the tree stays as it was), and it is checked without
# installing it: its files, control data and maintainer scripts, lintian,
# and the extracted binary run in place.

load helpers

setup_file() {
	# The package is built from the tree, not from the binary under
	# test: once per make check is enough (the cli suite, not cli-san).
	case $IBAHPROBE in
	*/build-san/*) export DEB_SKIP="built once, by the cli suite"; return 0 ;;
	esac
	export VERSION ARCH DEB
	VERSION=$(sed -n 's/^VERSION := //p' "$TOP/Makefile")
	ARCH=$(dpkg --print-architecture)
	DEB=$TOP/build/deb/ibahprobe_${VERSION}_$ARCH.deb
	git -C "$TOP" status --porcelain --ignored=no >"$BATS_FILE_TMPDIR/status.before"
	make -s -C "$TOP" deb >"$BATS_FILE_TMPDIR/make.out" 2>&1 || {
		cat "$BATS_FILE_TMPDIR/make.out" >&2
		return 1
	}
}

setup() {
	[ -z "${DEB_SKIP:-}" ] || skip "$DEB_SKIP"
}

@test "make deb: ibahprobe_VERSION_ARCH.deb in build/deb, of the Makefile's and the changelog's version, the tree untouched" {
	[ -f "$DEB" ] || fail "no $DEB: $(ls "$TOP/build/deb")"
	[ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ]
	(cd "$TOP" && [ "$(dpkg-parsechangelog -S Version)" = "$VERSION" ]) ||
		fail "debian/changelog and the Makefile's VERSION differ"
	git -C "$TOP" status --porcelain --ignored=no >"$BATS_FILE_TMPDIR/status.after"
	diff "$BATS_FILE_TMPDIR/status.before" "$BATS_FILE_TMPDIR/status.after" ||
		fail "make deb changed the tree"
	[ ! -e "$TOP/debian/ibahprobe" ] && [ ! -e "$TOP/debian/files" ]
}

@test "the package holds the binary, every man page, both completions, the units, the alert rules, the Slurm sweep and the options file" {
	local listing page unit
	listing=$(dpkg-deb -c "$DEB" | awk '{ print $1, $6 }')
	grep -qx -- '-rwxr-xr-x ./usr/bin/ibahprobe' <<<"$listing" || fail "$listing"
	for page in "$TOP"/man/*.8; do
		grep -qx -- "-rw-r--r-- ./usr/share/man/man8/$(basename "$page").gz" <<<"$listing" ||
			fail "no $(basename "$page"): $listing"
	done
	grep -qx -- '-rw-r--r-- ./usr/share/bash-completion/completions/ibahprobe' <<<"$listing"
	grep -qx -- '-rw-r--r-- ./usr/share/zsh/vendor-completions/_ibahprobe' <<<"$listing"
	grep -qx -- '-rw-r--r-- ./lib/systemd/system/ibahprobe-serve.service' <<<"$listing"
	grep -qx -- '-rw-r--r-- ./lib/systemd/system/ibahprobe-serve@.service' <<<"$listing"
	for unit in ibahprobe-monitor.service ibahprobe-monitor@.service \
		ibahprobe-plan.service ibahprobe-plan.timer; do
		grep -qx -- "-rw-r--r-- ./lib/systemd/system/$unit" <<<"$listing" || fail "no $unit: $listing"
	done
	grep -qx -- '-rw-r--r-- ./usr/share/ibahprobe/prometheus/ibahprobe.rules.yml' <<<"$listing"
	grep -qx -- '-rwxr-xr-x ./usr/share/ibahprobe/slurm/ibahprobe-sweep' <<<"$listing"
	grep -qx -- '-rw-r--r-- ./etc/default/ibahprobe' <<<"$listing"
}

@test "control: shared-library dependencies from shlibs, the options file a conffile, the units neither enabled nor started" {
	local depends ctl=$BATS_TEST_TMPDIR/control
	depends=$(dpkg-deb -f "$DEB" Depends)
	[[ $depends == *"libibverbs1"* && $depends == *"libjson-c"* && $depends == *"libc6"* ]] ||
		fail "Depends: $depends"
	[ "$(dpkg-deb -f "$DEB" Recommends)" = ibverbs-providers ]
	dpkg-deb -e "$DEB" "$ctl"
	[ "$(cat "$ctl/conffiles")" = /etc/default/ibahprobe ]
	# dh_installsystemd --no-enable --no-start: an enable only for an
	# admin who enabled it before, no start at all.
	run -1 grep -h 'deb-systemd-invoke\|systemctl.*start' "$ctl/postinst"
	run -0 grep -c 'was-enabled' "$ctl/postinst"
}

@test "lintian: no errors" {
	# Exit 0 unless a tag of severity error (or lintian itself) fails;
	# the warnings and notes are shown.
	run -0 lintian --fail-on error --no-tag-display-limit "$DEB"
	echo "$output"
}

@test "the extracted package runs: --version from dpkg -x, the units point at /usr/bin/ibahprobe" {
	local root=$BATS_TEST_TMPDIR/root
	dpkg -x "$DEB" "$root"
	run -0 "$root/usr/bin/ibahprobe" --version
	[[ $output == *"$VERSION"* ]] || fail "$output"
	grep -q '^ExecStart=/usr/bin/ibahprobe \$IBAHPROBE_OPTS serve ' \
		"$root/lib/systemd/system/ibahprobe-serve.service"
	grep -qx 'EnvironmentFile=-/etc/default/ibahprobe' \
		"$root/lib/systemd/system/ibahprobe-serve@.service"
	MANPATH=$root/usr/share/man run -0 man --warnings -E UTF-8 ibahprobe-serve
}
