# libklog - syslog namespaces for Linux.
#
#   make demo    install what is needed, build and boot the patched kernel,
#                and show a host and two containers with their own logs
#   make check   install what is needed and run every test tier
#
# Both work on a fresh Debian 12 machine: tools/deps.sh installs packages.

BUILD   ?= build
MESON   ?= meson
KCACHE  ?= $(HOME)/.cache/libklog
export KCACHE

.PHONY: all demo check deps-core deps-kernel build unit valgrind sanitize \
	kcompile fuzz stress story kernel kernel-stock kernel-debug kernel-rt \
	qemu guest-rt \
	guest guest-debug golden bench bench-consecutive bench-smoke \
	checkpatch bench-guest \
	bench-host-cost clean \
	guest-reliability guest-reliability-debug guest-reliability-full \
	guest-fuzz-long guest-coverage \
	bisect-check sparse host-unchanged shellcheck install

all: build

deps-core:
	@tools/deps.sh core

deps-kernel:
	@tools/deps.sh core kernel

$(BUILD)/build.ninja: | deps-core
	$(MESON) setup $(BUILD) --werror -Dbench=disabled

build: deps-core $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Every meson suite but slow and benchmark (tests/meson.build): unit
# (cmocka, fault injection), regression (golden and fuzz-corpus replays,
# klogsim's story, stress regressions), stress (the short run), install,
# lint (tools/check-context.py, tools/check-kbuild.sh).
unit: build
	$(MESON) test -C $(BUILD) --print-errorlogs --no-suite benchmark \
		--no-suite slow

valgrind: build
	$(MESON) test -C $(BUILD) --setup=valgrind --print-errorlogs \
		--no-suite benchmark --no-suite slow

# AddressSanitizer + UBSan and ThreadSanitizer builds of the same tests.
sanitize: deps-core
	@[ -f $(BUILD)-asan/build.ninja ] || $(MESON) setup $(BUILD)-asan \
		--werror -Dbench=disabled -Db_sanitize=address,undefined \
		-Db_lundef=false
	$(MESON) test -C $(BUILD)-asan --print-errorlogs --no-suite benchmark \
		--no-suite slow
	@[ -f $(BUILD)-tsan/build.ninja ] || $(MESON) setup $(BUILD)-tsan \
		--werror -Dbench=disabled -Db_sanitize=thread -Db_lundef=false
	$(MESON) test -C $(BUILD)-tsan --print-errorlogs --no-suite slow \
		--suite stress

# The core compiled as kernel code against linux-source-6.12, plain and
# with the debug fragment (lockdep, KASAN, kmemleak).
kcompile: deps-kernel
	kernel/kcompile.sh
	KCOMPILE_EXTRA_CONFIG="kernel/config/base.config \
		kernel/config/debug.config" kernel/kcompile.sh

# libFuzzer targets, 60 s each (tests/fuzz/run.sh: a meson build with
# clang and -Dfuzz=true in build-fuzz/).
fuzz:
	@tools/deps.sh core fuzz
	tests/fuzz/run.sh 60

# The long threaded stress run (suite slow).
stress: build
	$(MESON) test -C $(BUILD) --print-errorlogs --suite slow

# The patched kernel (build/kernel/bzImage), cached under $(KCACHE).
kernel: deps-kernel
	kernel/build-kernel.sh patched

kernel-stock: deps-kernel
	kernel/build-kernel.sh stock

kernel-debug: deps-kernel
	kernel/build-kernel.sh patched debug

kernel-rt: deps-kernel
	kernel/build-kernel.sh patched rt

# An interactive shell in the patched kernel.
qemu: kernel
	qemu/initramfs.sh -o $(BUILD)/qemu/shell.cpio.gz
	qemu/run.sh -I -i $(BUILD)/qemu/shell.cpio.gz

# The in-guest suite on the patched kernel.
guest: kernel
	tests/guest/run.sh -t 1200

# docs/design.md S9: the patched host, with no child namespace, answers
# the golden operations exactly as the recorded stock 6.12 transcripts
# (tests/golden/) say; planted defects in the same run must be caught.
# Three short boots.
host-unchanged: kernel
	tests/guest/host_unchanged.sh

# The same suite on the debug kernel (lockdep, KASAN, kmemleak).
guest-debug: kernel-debug
	tests/guest/run.sh -L -k build/kernel/bzImage-debug -t 2400

# The same suite on PREEMPT_RT with lockdep and the raw_spinlock nesting
# checks (not part of check: one more kernel build, about 8 minutes).
guest-rt: kernel-rt
	tests/guest/run.sh -k build/kernel/bzImage-rt -t 1500

# The in-guest reliability suite (tests/guest/reliability.sh): floods,
# churn, concurrency, privilege.  Short on the patched kernel and
# on the debug kernel (make check); full (10^6 records, 10^4 cycles, 60 s)
# on the patched kernel.  docs/reliability.md has the figures.
guest-reliability: kernel
	tests/guest/run.sh -s reliability -M short -t 600

guest-reliability-debug: kernel-debug
	tests/guest/run.sh -L -s reliability -M short -k build/kernel/bzImage-debug \
		-t 1800

guest-reliability-full: kernel
	tests/guest/run.sh -s reliability -M full -t 1800

# The system call fuzzer (tests/guest/klogfuzz.c) for 30 minutes with a
# new seed on the debug kernel, after the short parts and before fault
# injection (make check replays the seeds of tests/guest/klogfuzz.seeds
# for 40 s each instead).
guest-fuzz-long: kernel-debug
	tests/guest/run.sh -L -s reliability -M fuzz -k build/kernel/bzImage-debug \
		-t 3600

# What share of the series' code the fuzzer and the fault injector run:
# the short reliability suite on the debug kernel with KCOV
# (kernel/config/cover.config), mapped to the lines the series adds
# (tests/guest/coverage.sh; not part of check: one more kernel build).
guest-coverage: deps-kernel
	tests/guest/coverage.sh

# shellcheck on every shell script (tools/shellcheck.sh; .shellcheckrc
# lets it follow sourced files).
shellcheck:
	@tools/deps.sh lint
	tools/shellcheck.sh

# scripts/checkpatch.pl --strict on every patch of kernel-glue/series,
# then with -f on every file of libklog/src and libklog/include (the
# user-space half too; tools/checkpatch-core.sh lists what it ignores).
checkpatch: deps-kernel
	kernel-glue/checkpatch.sh
	tools/checkpatch-core.sh

# sparse on the files the series touches: no message the stock tree lacks
# (not part of check: needs the stock kernel too).
sparse: deps-kernel
	kernel-glue/sparse.sh

# Every prefix of kernel-glue/series builds (not part of check: about
# 15 minutes with a warm ccache, an hour without).
bisect-check: deps-kernel
	kernel-glue/bisect-check.sh

# In-guest cost ratios: a child vs the host on the patched kernel
# (bench.sh), then the host's own paths on stock vs patched (hostcost.sh).
bench-guest: kernel
	tests/guest/bench.sh
	tests/guest/hostcost.sh

# Only the second: stock vs patched bench kernels, booted alternately.
bench-host-cost: deps-kernel
	tests/guest/hostcost.sh

# Re-record the stock 6.12 transcripts (not part of check).
golden: deps-kernel
	tests/golden/regenerate.sh

bench:
	@tools/deps.sh core kernel bench
	bench/run.sh

# Three full runs in a row, and each target's value in every one of them
# (bench/spread.awk); docs untouched.
bench-consecutive:
	@tools/deps.sh core kernel bench
	bench/run.sh --consecutive 3

# The benchmark binary with tiny counts: it runs and writes a well-formed
# CSV; never a timing assertion.
bench-smoke:
	@tools/deps.sh core kernel
	@[ -f $(BUILD)-bench/build.ninja ] || $(MESON) setup $(BUILD)-bench \
		--werror -Dbench=enabled -Dtests=false --buildtype=release \
		-Db_lto=true
	$(MESON) test -C $(BUILD)-bench --suite benchmark --print-errorlogs

# Every tier, in two lanes on the two cores (tools/check.sh says why):
# kernel-debug guest-debug guest-reliability-debug, and shellcheck unit
# valgrind sanitize kcompile checkpatch bench-smoke fuzz, then kernel
# guest host-unchanged guest-reliability.
check:
	tools/check.sh
	@echo "make check: all tiers passed"

# The kernel demo: the patched kernel in QEMU, a host and two containers.
demo: kernel
	qemu/demo.sh

story: build
	@$(BUILD)/tools/klogsim examples/story.klog

# libklog, its headers and libklog.pc, syslogns, klogsim and their man
# pages, under the meson prefix (/usr/local), or staged in DESTDIR.
install: build
	$(MESON) install -C $(BUILD) $(if $(DESTDIR),--destdir $(DESTDIR))

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan $(BUILD)-bench build-fuzz build-bench
