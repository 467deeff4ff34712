# libklog - syslog namespaces for Linux.
#
#   make demo    install what is needed, build, and show the story
#   make check   install what is needed and run every test tier
#
# Both work on a fresh Debian 12 machine: tools/deps.sh installs packages.

BUILD   ?= build
MESON   ?= meson
WERROR  := $(if $(CI),--werror,--werror)
KCACHE  ?= $(HOME)/.cache/libklog

PHONY_EXTRA := story
.PHONY: all demo check story deps-core deps-kernel build unit valgrind sanitize \
	kcompile clean

all: build

deps-core:
	@tools/deps.sh core

deps-kernel:
	@tools/deps.sh core kernel

$(BUILD)/build.ninja: | deps-core
	$(MESON) setup $(BUILD) $(WERROR) -Dbench=false

build: deps-core $(BUILD)/build.ninja
	ninja -C $(BUILD)

unit: build
	$(MESON) test -C $(BUILD) --print-errorlogs --no-suite benchmark

valgrind: build
	$(MESON) test -C $(BUILD) --setup=valgrind --print-errorlogs \
		--no-suite benchmark --no-suite slow

# AddressSanitizer + UBSan and ThreadSanitizer builds of the same tests.
sanitize: deps-core
	@[ -f $(BUILD)-asan/build.ninja ] || $(MESON) setup $(BUILD)-asan \
		--werror -Dbench=false -Db_sanitize=address,undefined \
		-Db_lundef=false
	$(MESON) test -C $(BUILD)-asan --print-errorlogs --no-suite benchmark
	@[ -f $(BUILD)-tsan/build.ninja ] || $(MESON) setup $(BUILD)-tsan \
		--werror -Dbench=false -Db_sanitize=thread -Db_lundef=false
	$(MESON) test -C $(BUILD)-tsan --print-errorlogs --no-suite benchmark \
		--suite threads

# Compile the core against linux-source-6.12 as an external Kbuild object.
kcompile: deps-kernel
	KCACHE=$(KCACHE) qemu/kcompile.sh

check: unit valgrind sanitize kcompile
	@echo "make check: all tiers passed"

demo: story

story: build
	@$(BUILD)/tools/klogsim examples/story.klog

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-tsan
