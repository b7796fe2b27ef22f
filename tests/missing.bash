# `missing REASON`: a test cannot run because something the build or
# `make deps` provides is absent (a test tool, promtool, xmllint...). On a
# developer's machine that is a skip with the reason; where every test must
# run (IBAHPROBE_STRICT=1: CI=true, make check, see tools/run-suites) it is
# a failure with the reason. What the machine legitimately has or lacks (an
# RDMA device, root) is a plain `skip`, not this.
# shellcheck shell=bash
missing() {	# REASON
	if [ "${IBAHPROBE_STRICT:-0}" = 1 ]; then
		echo "cannot run: $1 (IBAHPROBE_STRICT=1: a missing build product or tool fails)" >&2
		return 1
	fi
	skip "$1"
}
