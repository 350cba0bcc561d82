# WireGuard-consumer integration harness.  'make help' lists what is here.

# Knobs, checked while this file is read: every value a user gives (on the
# command line or in the environment) is looked at here, as raw text
# ($(value)), by make's own functions, before any of it reaches a $(shell),
# a recipe or a script.  A bad one is one line, "make: KNOB=value: why",
# and exit 2 ($(error)), with nothing installed, built or booted.  No value
# can hold a quote, so recipes quote each one in single quotes (q).
empty :=
space := $(empty) $(empty)
comma := ,
lower := a b c d e f g h i j k l m n o p q r s t u v w x y z
upper := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
digits := 0 1 2 3 4 5 6 7 8 9
word_chars := $(lower) $(upper) $(digits) / . _ - + , : = @
# drop CHARS,TEXT: TEXT less every one of CHARS (single characters).
drop = $(if $(1),$(call drop,$(wordlist 2,$(words $(1)),$(1)),$(subst $(firstword $(1)),,$(2))),$(2))
# only CHARS,TEXT: non-empty when TEXT holds nothing but CHARS.  (The @s
# keep a leftover space, tab or newline visible to $(if).)
only = $(if $(subst @@,,@$(call drop,$(1),$(2))@),,y)
# Numbers: at_most N,MAX for N and MAX without leading zeros.
spread = $(call spread_,$(digits),$(1))
spread_ = $(if $(1),$(call spread_,$(wordlist 2,10,$(1)),$(subst $(firstword $(1)),$(firstword $(1)) ,$(2))),$(2))
ndigits = $(words $(call spread,$(1)))
at_most = $(if $(filter $(call ndigits,$(1)),$(call ndigits,$(2))),$(filter $(2),$(lastword $(sort $(1) $(2)))),$(word $(call ndigits,$(1)),$(call spread,$(2))))
# number_ok N,MIN,MAX: N is a whole number from MIN (0 or 1) to MAX.
number_ok = $(and $(1),$(call only,$(digits),$(1)),$(if $(filter 0%,$(1)),$(and $(filter 0,$(1)),$(filter 0,$(2))),$(call at_most,$(1),$(3))))
# given KNOB: set on the command line, or non-empty in the environment (make
# exports the BENCH_ knobs empty to a sub-make when they are unset).
given = $(or $(filter command%,$(origin $(1))),$(and $(filter environment%,$(origin $(1))),$(value $(1))))
knob_error = $(error make: $(1)=$(value $(1)): $(2))
# Paths (no spaces): letters, digits and / . _ - + , : = @.
PATH_KNOBS := BUILD_DIR PATCHES KERNEL_TREE KERNEL KERNEL_CONFIG CONFIG_FRAGMENT PAGE \
	KERNEL_ROOT SERIES FIXES KSRC_TARBALL CROSS_COMPILE LAVA_OUT BASELINE NEW \
	BENCH_OUT CAND_PATCHES BASE_PATCHES CAND_TREE BASE_TREE CAND_KERNEL BASE_KERNEL
path_rule := a path here may hold only letters, digits and / . _ - + , : = @ (no spaces, quotes, $$ or shell characters)
# Lists of words: the same characters, and spaces between the words.
WORD_KNOBS := FLAVOR ARCH ACCEL CASES TEST_SUITES CHECK_SUITES MODULAR_CASES STOCK_CASES \
	INTEROP_IMPLS INTEROP_GO_KERNEL MATRIX_FLAVORS MATRIX_SUITES DEBUG_SUITES \
	LAVA_SUITES LAVA_CHECK_SUITES FUZZ_TARGETS CAND BASE BENCH_TESTS BENCH_MODES \
	BENCH_METRIC BENCH_TOL BENCH_ALPHA BENCH_COST BENCH_COST_TOL BENCH_COST_ALPHA \
	BENCH_CAL_SLOW
word_rule := words here may hold only letters, digits and / . _ - + , : = @, with spaces between them
# Free text, only ever handed to a script in the environment (boot words,
# QEMU arguments, labels, a URL): no $$ (make would expand it), backquote,
# backslash, quote, tab or newline.
TEXT_KNOBS := CAND_APPEND BASE_APPEND CAND_QEMU BASE_QEMU CAND_LABEL BASE_LABEL LAVA_URL GOOD BAD
define newline


endef
text_bad = $(or $(findstring $$,$(1)),$(findstring `,$(1)),$(findstring \,$(1)),$(findstring ',$(1)),$(findstring ",$(1)),$(findstring $(newline),$(1)),$(findstring $(empty)	$(empty),$(1)))
text_rule := free text here may not hold $$, a backquote, backslash, quote, tab or newline
# Numbers, KNOB:MIN:MAX: whole numbers, no leading zero, within these bounds
# (bench's own where bench checks them too).
NUMBER_KNOBS := JOBS:1:1024 SUITE_JOBS:1:64 TIMEOUT_SCALE:1:100 DEBUG_TIMEOUT_SCALE:1:100 \
	SUITE_TIMEOUT:1:86400 REPEAT:1:1000 FUZZ_SECONDS:1:86400 TEST_FUZZ_SECONDS:1:86400 \
	KERNEL_MIN_FREE_MB:0:1048576 KEEP_RESULTS:1:100000 KEEP_TREES:0:1000 KEEP_USER_KERNELS:1:1000 \
	BENCH_REPS:1:1000 BENCH_SECS:1:3600 BENCH_MICRO_MS:0:10000 \
	BENCH_CAL_COMPARISONS:1:1000 V:0:1 LONG_SELFTESTS:0:1 BENCH_CAL_SAME:0:1 TUNNEL:0:1 RUNS:1:1000
$(foreach k,$(PATH_KNOBS),$(if $(call given,$(k)),$(if $(call only,$(word_chars),$(value $(k))),,$(call knob_error,$(k),$(path_rule)))))
$(foreach k,$(WORD_KNOBS),$(if $(call given,$(k)),$(if $(call only,$(word_chars),$(subst $(space),,$(value $(k)))),,$(call knob_error,$(k),$(word_rule)))))
$(foreach k,$(TEXT_KNOBS),$(if $(call given,$(k)),$(if $(call text_bad,$(value $(k))),$(call knob_error,$(k),$(text_rule)))))
$(foreach n,$(NUMBER_KNOBS),$(foreach k,$(word 1,$(subst :, ,$(n))),$(if $(call given,$(k)),\
	$(if $(call number_ok,$(value $(k)),$(word 2,$(subst :, ,$(n))),$(word 3,$(subst :, ,$(n)))),,\
	$(call knob_error,$(k),must be a whole number from $(word 2,$(subst :, ,$(n))) to $(word 3,$(subst :, ,$(n))))))))
# q WORDS: each word in single quotes, for a recipe.
q = $(foreach w,$(1),'$(w)')

FLAVOR    ?= zinc
BUILD_DIR ?= $(CURDIR)/build
JOBS      ?= $(shell nproc)
V         ?= 0
CASES     ?=
ACCEL     ?=
ARCH      ?= x86_64
# The kernel's own spelling (ARCH=x86 in a kernel developer's environment).
override ARCH := $(patsubst x86,x86_64,$(ARCH))


# BUILD_DIR: the harness writes there and 'make distclean' removes it whole,
# so it must be an absolute path, not /, neither this checkout nor a folder
# holding it, and inside the checkout only build/ or below (the git-ignored
# folder: anywhere else builds would mix with the sources, show in git
# status and be found by the scripts that walk them).  It must be a folder
# the harness made (BUILD_MARK, left by 'make knobs'), or an empty or new
# one; clean and distclean want the mark.  A build/ from before the mark,
# holding kernel/ or results/, is taken as the harness's (knobs marks it).
# Symlinks are resolved for the comparisons.
BUILD_MARK := .wgt-build-dir
bd_abs := $(abspath $(BUILD_DIR))
bd_parent := $(realpath $(dir $(bd_abs)))
bd_paths := $(sort $(bd_abs) $(realpath $(bd_abs)) $(if $(bd_parent),$(patsubst //%,/%,$(bd_parent)/$(notdir $(bd_abs)))))
co_paths := $(sort $(CURDIR) $(realpath $(CURDIR)))
# under A,B: some path of A is one of B's or a folder holding it.
under = $(strip $(foreach a,$(1),$(foreach b,$(2),$(filter $(a)/%,$(b)/))))
bd_files := $(if $(wildcard $(bd_abs)/.),$(filter-out %/. %/..,$(wildcard $(bd_abs)/* $(bd_abs)/.*)))
bd_legacy := $(and $(filter $(CURDIR)/build,$(bd_abs)),$(wildcard $(bd_abs)/kernel $(bd_abs)/results))
bd_why_rel := must be an absolute path (such as $(CURDIR)/build)
bd_why_root := is /: make distclean would remove everything
bd_why_co := is this checkout or a folder holding it: make distclean would delete it
bd_why_in := is inside this checkout, where only build/ (git-ignored) is the harness's
bd_why_file := exists and is not a folder
bd_why_foreign := holds files the harness did not make (no $(BUILD_MARK)): name an empty or new folder
bd_why_unmarked := was not made by this harness (no $(BUILD_MARK)): not removing anything
bd_why := $(strip $(or \
	$(if $(filter /%,$(BUILD_DIR)),,$(bd_why_rel)), \
	$(if $(filter /,$(bd_abs)),$(bd_why_root)), \
	$(if $(call under,$(bd_paths),$(co_paths)),$(bd_why_co)), \
	$(if $(call under,$(co_paths),$(bd_paths)),$(if $(call under,$(addsuffix /build,$(co_paths)),$(bd_paths)),,$(bd_why_in))), \
	$(if $(wildcard $(bd_abs)),$(if $(wildcard $(bd_abs)/.),,$(bd_why_file))), \
	$(if $(bd_files),$(if $(wildcard $(bd_abs)/$(BUILD_MARK)),,$(if $(bd_legacy),,$(bd_why_foreign)))), \
	$(if $(filter clean distclean,$(MAKECMDGOALS)),$(if $(wildcard $(bd_abs)/.),$(if $(wildcard $(bd_abs)/$(BUILD_MARK)),,$(bd_why_unmarked))))))
$(if $(bd_why),$(error make: BUILD_DIR=$(BUILD_DIR): $(bd_why)))
# (Normalized: no trailing /, no . or .. parts.)
override BUILD_DIR := $(bd_abs)

export BUILD_DIR JOBS V CASES ACCEL ARCH

# Disk: what a run or build keeps (an empty one in the environment is its
# default).  Results: the KEEP_RESULTS newest runs of each kind, pruned as
# a run starts (netns-tests/prune-results.sh).  kernel/build.sh, at every
# build: the KEEP_USER_KERNELS most recently used roots of user-kernels/
# (PATCHES, KERNEL_TREE, KERNEL and the fixtures' kernels), never one in
# use; and of the source trees, every one a flavor or a kernel in
# user-kernels/ builds from, plus the KEEP_TREES most recently used others.
KEEP_RESULTS := $(or $(KEEP_RESULTS),20)
KEEP_TREES := $(or $(KEEP_TREES),2)
KEEP_USER_KERNELS := $(or $(KEEP_USER_KERNELS),8)
export KEEP_TREES KEEP_USER_KERNELS
prune_results = netns-tests/prune-results.sh "$${RESULTS_DIR:-$(BUILD_DIR)/results}" '$(KEEP_RESULTS)'

# A user's series on top of each flavor's own (PATCHES=DIR, a 'series'
# file naming git am-able patches): its kernels go to a root of their own,
# keyed on the folder, and start from the flavor's default build.
# A user's tree (KERNEL_TREE=DIR, built out of tree with the flavor's
# fragments) or a prebuilt image (KERNEL=IMAGE, its config beside it or
# KERNEL_CONFIG=FILE) stands for FLAVOR, and the suites run on FLAVOR alone.
# CONFIG_FRAGMENT=FILE adds the user's own fragment to any build.  Each
# path is made absolute: the scripts run from other folders.
$(foreach v,PATCHES KERNEL_TREE KERNEL CONFIG_FRAGMENT,\
	$(if $($(v)),$(eval override $(v) := $(abspath $($(v))))))
USER_KERNEL := $(strip $(PATCHES) $(KERNEL_TREE) $(KERNEL) $(CONFIG_FRAGMENT))
# The files and folders they name exist (also checked here, before any goal).
$(foreach k,PATCHES KERNEL_TREE,$(if $($(k)),$(if $(wildcard $($(k))/.),,\
	$(error make: $(k)=$($(k)): no such folder))))
$(foreach k,KERNEL KERNEL_CONFIG CONFIG_FRAGMENT,$(if $($(k)),$(if $(and $(wildcard $($(k))),$(if $(wildcard $($(k))/.),,y)),,\
	$(error make: $(k)=$($(k)): no such file))))
ifneq ($(USER_KERNEL),)
KERNEL_ROOT ?= $(BUILD_DIR)/user-kernels/$(shell printf '%s' '$(USER_KERNEL)' | sha256sum | cut -c1-12)
endif
ifneq ($(KERNEL)$(KERNEL_TREE),)
ifneq ($(filter zinc%,$(FLAVOR)),)
TEST_SUITES ?= zinc-selftest:$(FLAVOR) zinc-selftest-relax:$(FLAVOR) netns:$(FLAVOR) two-guest:$(FLAVOR)+$(FLAVOR)
else
TEST_SUITES ?= netns:$(FLAVOR) two-guest:$(FLAVOR)+$(FLAVOR)
endif
INTEROP_IMPLS ?= $(FLAVOR) go
INTEROP_GO_KERNEL ?= $(FLAVOR)
endif
KERNEL_ROOT ?=
KERNEL_CONFIG ?=
KERNEL_TREE ?=
CONFIG_FRAGMENT ?=
export PATCHES KERNEL KERNEL_CONFIG KERNEL_TREE CONFIG_FRAGMENT KERNEL_ROOT

FLAVORS  := $(shell kernel/build.sh --flavors)
ARCHES   := x86_64 arm64 arm
ifeq ($(ARCH),x86_64)
INITRD   := $(BUILD_DIR)/initramfs.cpio.gz
else
INITRD   := $(BUILD_DIR)/initramfs-$(ARCH).cpio.gz
endif

# Debian packages the harness needs; 'make deps' installs the missing ones
# when run as root and names them otherwise.
PACKAGES := make gcc libc6-dev bc bison flex libelf-dev libssl-dev cpio \
	xz-utils file ccache git perl kmod linux-source-6.1 busybox-static \
	wireguard-tools iproute2 iputils-ping iperf3 wireguard-go \
	nftables qemu-system-x86 gnuplot-nox
# The KCIDB report every test run writes, validated (netns-tests/kcidb).
PACKAGES += python3 python3-jsonschema
# make lava-jobs writes YAML (netns-tests/lava); make lava-check runs the
# jobs with Debian's lava-dispatcher (lava-run, no server).
PACKAGES += python3-yaml
ifneq ($(filter lava-check,$(MAKECMDGOALS)),)
PACKAGES += lava-dispatcher
endif
# bench/native (native-test, fuzz, bench-native): Zinc built for userspace;
# libsodium and OpenSSL are also crypto-diff's host reference.
# (llvm: llvm-symbolizer, for readable sanitizer stack traces)
PACKAGES += clang libclang-rt-14-dev llvm libsodium-dev valgrind gnuplot-nox
# The harness's own WireGuard peer (guest-image/peer): libsodium in the
# guest; its known-answer check's independent side on python3-cryptography.
PACKAGES += python3-cryptography
# Only for ARCH=arm64 / ARCH=arm: cross compilers, static libc, QEMU.
ARM64_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
ARM_PACKAGES   := gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm
ifeq ($(ARCH),arm64)
PACKAGES += $(ARM64_PACKAGES)
endif
ifeq ($(ARCH),arm)
PACKAGES += $(ARM_PACKAGES)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# A bare 'make' is the README's main job.
.DEFAULT_GOAL := all

.PHONY: all knobs deps kernel image tunnel test check shell history bisect page-check test-matrix test-debug interop soak help clean distclean \
	check-arch x86-only bench bench-compare bench-calibrate lava-jobs lava-check

check-arch:
	$(Q)case " $(ARCHES) " in *" $(ARCH) "*) ;; \
		*) echo "make: unknown ARCH '$(ARCH)' ($(ARCHES))" >&2; exit 1;; esac

# Targets whose guests need Debian's x86_64 userland.
x86-only: check-arch
	$(Q)[ "$(ARCH)" = x86_64 ] || { echo "make: this target runs on x86_64 only; ARCH=$(ARCH) has 'make test' (the Zinc selftests)" >&2; exit 1; }

all: deps kernel image tunnel

# Every knob a target uses is checked before anything is installed, built
# or booted: one line and exit 2 for a bad FLAVOR, ARCH, suite word, case
# name, INTEROP_GO_KERNEL or ACCEL.  KNOB_SUITES is the target's suites.
test soak: KNOB_SUITES = $(TEST_SUITES)
check bisect: KNOB_SUITES = $(CHECK_SUITES)
test-matrix: KNOB_SUITES = $(MATRIX_SUITES)
interop: KNOB_SUITES = $(INTEROP_SUITES)
test-debug: KNOB_SUITES = $(DEBUG_SUITES)
lava-jobs: KNOB_SUITES = $(LAVA_SUITES)
lava-check: KNOB_SUITES = $(LAVA_CHECK_SUITES)
knobs: check-arch
	$(Q)case " $(FLAVORS) " in *" $(FLAVOR) "*) ;; \
		*) echo "make: unknown FLAVOR '$(FLAVOR)' ($(FLAVORS))" >&2; exit 2;; esac
	$(Q)$(if $(KNOB_SUITES),netns-tests/run.sh --check $(call q,$(KNOB_SUITES)))
	$(Q)[ $$(echo $(if $(PATCHES),p) $(if $(KERNEL_TREE),t) $(if $(KERNEL),k) | wc -w) -le 1 ] || { \
		echo "make: name your kernel with one of PATCHES=DIR, KERNEL_TREE=DIR or KERNEL=IMAGE, not several" >&2; exit 2; }
	$(Q)[ -z '$(PATCHES)' ] || kernel/build.sh --check-patches '$(PATCHES)' || exit 2
	$(Q)[ -e '$(BUILD_DIR)/$(BUILD_MARK)' ] || { mkdir -p '$(BUILD_DIR)' && touch '$(BUILD_DIR)/$(BUILD_MARK)'; }

# Installs before builds, also under make -j: every target that builds or
# boots depends on deps, and deps on knobs.
deps: knobs
	$(Q)missing=; \
	for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "make: missing Debian packages:$$missing" >&2; \
		echo "make: run 'make deps' as root, or: apt-get install$$missing" >&2; \
		exit 1; \
	fi; \
	echo "[deps] installing:$$missing"; \
	apt-get update -q >/dev/null && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $$missing >/dev/null || \
		{ echo "make: apt-get install$$missing failed" >&2; exit 1; }

kernel: deps
	$(Q)kernel/build.sh '$(FLAVOR)'

image: deps
ifeq ($(ARCH),x86_64)
	$(Q)guest-image/mkinitramfs.sh '$(INITRD)'
else
	$(Q)guest-image/mkinitramfs-cross.sh '$(ARCH)' '$(INITRD)'
endif

# The main job: one tunnel between two namespaces, summarised.
tunnel: x86-only kernel image
	$(Q)netns-tests/tunnel.sh '$(FLAVOR)'

# What 'make test' runs, as netns-tests/run.sh SUITE:FLAVOR words.  On
# arm64 and arm (not part of CI's x86_64 'make test'): the Zinc selftests
# and the crypto differential.
ifeq ($(ARCH),x86_64)
# Zinc's selftests run on every Zinc flavor.  On zinc the suite also runs on
# stock (the crypto-path case checks the mirror image there), and four cells
# of the interop matrix ('make interop' has all nine): zinc and stock across
# two guests in both initiator roles, zinc and wireguard-go both ways.
# zinc-modular (WireGuard, Zinc and the x86 crypto as modules, loaded by
# the guest) has its selftests and the netns cases that tell a modular
# kernel apart (MODULAR_CASES: which code carried the tunnel, the SG path,
# both CPUs, the counters, teardown); make test-matrix runs its whole
# netns suite.  The crypto differential (crypto-diff: lib/crypto, and Zinc
# where the kernel has it, against libsodium and OpenSSL on the host) runs
# on every flavor.  The timers suite (WireGuard's protocol timers, on
# virtual time) runs on zinc and stock, and on every flavor in make
# test-matrix; CASES (netns cases) leaves it out.  On stock without its
# go-* cases: wireguard-go's own timers are checked once, beside zinc.
TIMERS_STOCK_CASES ?= $(subst $(space),$(comma),$(sort $(basename \
	$(filter-out go-%,$(notdir $(wildcard netns-tests/timers/*.sh))))))
# The peer suite (the harness's own WireGuard peer against the kernel's
# handshake, cookies and transport, netns-tests/peer) the same way: on zinc
# and stock, on stock without its go-* cases, and on every flavor in make
# test-matrix.
PEER_STOCK_CASES ?= $(subst $(space),$(comma),$(sort $(basename \
	$(filter-out go-%,$(notdir $(wildcard netns-tests/peer/*.sh))))))
MODULAR_CASES ?= tunnel-basic,crypto-path,sg-integrity,smp-crypt,counters,teardown
# stock (pristine 6.1) is the baseline: its crypto differential, the interop
# cells, and the same netns cases as zinc-modular (crypto-path checks the
# mirror image there: lib/crypto carried the tunnel, Zinc is absent) plus
# rehandshake-race and newhandshake-race, the known failures that
# wg-patches/fixes/ mends; make test-matrix runs its whole netns suite.
STOCK_CASES ?= $(MODULAR_CASES),rehandshake-race,newhandshake-race
ifeq ($(FLAVOR),zinc)
TEST_SUITES ?= zinc-selftest:zinc zinc-selftest-relax:zinc crypto-diff:zinc netns:zinc \
	two-guest:zinc+zinc crypto-diff:stock $(if $(CASES),netns,netns=$(STOCK_CASES)):stock \
	zinc-selftest:zinc-modular crypto-diff:zinc-modular $(if $(CASES),netns,netns=$(MODULAR_CASES)):zinc-modular \
	interop:zinc+stock interop:stock+zinc interop:zinc+go interop:go+zinc \
	$(if $(CASES),,timers:zinc timers=$(TIMERS_STOCK_CASES):stock) \
	$(if $(CASES),,peer:zinc peer=$(PEER_STOCK_CASES):stock)
else ifneq ($(filter zinc%,$(FLAVOR)),)
TEST_SUITES ?= zinc-selftest:$(FLAVOR) zinc-selftest-relax:$(FLAVOR) crypto-diff:$(FLAVOR) \
	netns:$(FLAVOR) two-guest:$(FLAVOR)+$(FLAVOR) $(if $(CASES),,timers:$(FLAVOR) peer:$(FLAVOR))
else
TEST_SUITES ?= crypto-diff:$(FLAVOR) netns:$(FLAVOR) two-guest:$(FLAVOR)+$(FLAVOR) \
	$(if $(CASES),,timers:$(FLAVOR) peer:$(FLAVOR))
endif
else
TEST_SUITES ?= zinc-selftest:zinc zinc-selftest-relax:zinc crypto-diff:zinc
endif
# The handshake interop matrix: every ordered pair (initiator, responder) of
# these implementations; "go" is wireguard-go, in a guest running
# INTEROP_GO_KERNEL when both ends are wireguard-go.
INTEROP_IMPLS     ?= zinc stock go
INTEROP_GO_KERNEL ?= zinc
export INTEROP_GO_KERNEL
INTEROP_CELLS = $(foreach i,$(INTEROP_IMPLS),$(foreach r,$(INTEROP_IMPLS),interop:$(i)+$(r)))
# And the harness's own peer (wgpeer, the peer suite) against each of them:
# its kernel cases on every kernel in INTEROP_IMPLS, its go-* cases
# (wireguard-go against wgpeer, no kernel WireGuard in the tunnel) in a
# guest running INTEROP_GO_KERNEL when go is one of them.
PEER_GO_CASES ?= $(subst $(space),$(comma),$(sort $(basename \
	$(filter go-%,$(notdir $(wildcard netns-tests/peer/*.sh))))))
interop_go = $(filter go,$(INTEROP_IMPLS))
INTEROP_PEER = $(foreach i,$(filter-out go,$(INTEROP_IMPLS)),$(if $(and $(interop_go),$(filter $(i),$(INTEROP_GO_KERNEL))),peer:$(i),peer=$(PEER_STOCK_CASES):$(i))) \
	$(if $(and $(interop_go),$(filter-out $(INTEROP_IMPLS),$(INTEROP_GO_KERNEL))),peer=$(PEER_GO_CASES):$(INTEROP_GO_KERNEL))
INTEROP_SUITES = $(INTEROP_CELLS) $(INTEROP_PEER)

# The kernel flavors a list of SUITE:FLAVOR words needs, and the recipe
# line that builds them, in order, stopping at the first that fails.
build_kernels = for f in $(call q,$(call flavors_of,$(1))); do kernel/build.sh $$f || exit 1; done
flavors_of = $(sort $(filter-out go,$(subst +, ,$(foreach s,$(1),$(lastword $(subst :, ,$(s)))))) \
	$(if $(filter interop:go+go,$(1)),$(INTEROP_GO_KERNEL)))
TEST_FLAVORS = $(call flavors_of,$(TEST_SUITES))

# bench's own checks (statistics, verdicts, one short zinc-vs-zinc run
# through the instruction-counting plugin): x86_64, with the zinc flavor.
ifeq ($(ARCH),x86_64)
BENCH_CHECK := $(if $(filter zinc,$(TEST_FLAVORS)),bench/check.sh,BENCH_CHECK_BOOT=0 bench/check.sh)
else
BENCH_CHECK := true
endif

# The user's path (PATCHES=) tested with the fixtures in netns-tests/fixtures:
# on zinc, in a full 'make test' (not when CASES or PATCHES narrow it).
FIXTURE_CHECK := $(if $(and $(filter x86_64,$(ARCH)),$(filter zinc,$(TEST_FLAVORS)),$(if $(CASES)$(USER_KERNEL),,y)),netns-tests/fixtures/check.sh zinc,true)

# make shell, fed commands from a pipe (guest-image/check/shell-check.sh):
# on the first flavor make test builds, on x86_64, in a full make test.
SHELL_CHECK := $(if $(and $(filter x86_64,$(ARCH)),$(if $(CASES),,y)),guest-image/check/shell-check.sh $(or $(filter $(FLAVOR),$(TEST_FLAVORS)),$(firstword $(TEST_FLAVORS))),true)

# After the kernels: bench's checks alone, then the suites with the other
# host-side checks beside them (netns-tests/make-test.sh).
test: deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(TEST_SUITES))
	$(Q)BENCH_CHECK='$(BENCH_CHECK)' NATIVE_CHECK='$(NATIVE_CHECK)' FIXTURE_CHECK='$(FIXTURE_CHECK)' \
		SHELL_CHECK='$(SHELL_CHECK)' netns-tests/make-test.sh $(call q,$(TEST_SUITES))

# The developer's fast path: the suite words of CHECK_SUITES only (default
# FLAVOR's netns suite, narrowed by CASES), building only the kernels they
# name; no bench, native, fixture or other host-side checks.  Every
# failure's "# reproduce:" line is such a command.
CHECK_SUITES ?= $(if $(filter x86_64,$(ARCH)),netns:$(FLAVOR),zinc-selftest:$(FLAVOR))
check: deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(CHECK_SUITES))
	$(Q)netns-tests/run.sh $(call q,$(CHECK_SUITES))

# The first bad commit of KERNEL_TREE's history between GOOD and BAD, by
# git bisect run with make check (CHECK_SUITES, CASES) as the test; a
# commit that does not build or boot is skipped (netns-tests/bisect.sh).
bisect: x86-only deps image
	$(Q)netns-tests/bisect.sh

# A run's page (PAGE=DIR, default the newest test run) rendered by
# Debian's headless Chromium (installed, as root, when missing), its DOM
# checked against the KTAP, a screenshot saved beside it
# (netns-tests/page-browser.sh).  Not part of make test.
page-check:
	$(Q)command -v chromium > /dev/null || { \
		if [ "$$(id -u)" != 0 ]; then echo "make: chromium is missing: run 'make page-check' as root, or: apt-get install chromium" >&2; exit 1; fi; \
		echo "[deps] installing: chromium"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium > /dev/null || \
			{ echo "make: apt-get install chromium failed" >&2; exit 1; }; }
	$(Q)netns-tests/page-browser.sh '$(PAGE)'

# The results' history (netns-tests/history.sh): per case and kernel, the
# last RUNS results and how often they flipped.
history:
	$(Q)netns-tests/history.sh show '$(or $(RUNS),10)'

# An interactive shell in a guest of FLAVOR's kernel (any kernel knob),
# the cases' library loaded; TUNNEL=1: two namespaces with a tunnel up.
TUNNEL := $(or $(TUNNEL),0)
export TUNNEL
shell: x86-only deps image
	$(Q)kernel/build.sh '$(FLAVOR)'
	$(Q)guest-image/shell.sh '$(FLAVOR)'

# The suites REPEAT times, then each case's pass rate (netns-tests/soak.sh).
# (Empty in the environment: the default.)
REPEAT := $(or $(REPEAT),10)
soak: deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(TEST_SUITES))
	$(Q)netns-tests/soak.sh '$(REPEAT)' $(call q,$(TEST_SUITES))

# The whole suite on the debug flavors (KASAN, lockdep, kmemleak): too slow
# for CI's budget, so not part of 'make test'.
# KASAN and lockdep under TCG run several times slower: case timeouts and
# waits in the guest stretch by this factor.
DEBUG_TIMEOUT_SCALE := $(or $(DEBUG_TIMEOUT_SCALE),4)
DEBUG_SUITES ?= zinc-selftest:zinc-debug zinc-selftest-relax:zinc-debug crypto-diff:zinc-debug \
	netns:zinc-debug two-guest:zinc-debug+zinc-debug crypto-diff:stock-debug netns:stock-debug \
	two-guest:stock-debug+stock-debug

# Every flavor but the debug one (make test-debug) through the netns suite,
# the Zinc flavors through their selftests too: built-in and modular,
# preemptible and not.
MATRIX_FLAVORS ?= $(filter-out %-debug,$(FLAVORS))
MATRIX_SUITES ?= $(foreach f,$(MATRIX_FLAVORS),$(if $(filter zinc%,$(f)),zinc-selftest:$(f)) crypto-diff:$(f) netns:$(f) timers:$(f) peer:$(f))
# (One guest at a time unless SUITE_JOBS says otherwise: a whole matrix,
# zinc-nopreempt's load-resched among it, has not yet run two at a time.)
test-matrix: x86-only deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(MATRIX_SUITES))
	$(Q)SUITE_JOBS=$${SUITE_JOBS:-1} netns-tests/run.sh $(call q,$(MATRIX_SUITES))

# The full interop matrix, printed at the end, and wgpeer against each
# implementation in it.
interop: x86-only deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(INTEROP_SUITES))
	$(Q)netns-tests/run.sh $(call q,$(INTEROP_SUITES))

# Two guests at a time (SUITE_JOBS, run.sh's default), as measured: the two
# whole netns suites side by side took 6252 s (zinc-debug) and 6260 s
# (stock-debug) on 2 cores, and the whole green run 6777 s.  A debug
# guest keeps one core and a bit busy; its first five netns cases took 375 s
# alone and 629 and 662 s beside the other suite, so two at a time gain
# about an eighth, and every wait scales with the measured speed.
test-debug: x86-only deps image
	$(Q)$(prune_results)
	$(Q)$(call build_kernels,$(DEBUG_SUITES))
	$(Q)TIMEOUT_SCALE='$(DEBUG_TIMEOUT_SCALE)' netns-tests/run.sh $(call q,$(DEBUG_SUITES))

# LAVA (netns-tests/lava/README.md): a job for each suite of one guest in
# LAVA_SUITES (two-guest and interop boot two guests, crypto-diff a module
# built per kernel: no job), for ARCH,
# and the device they run on, in LAVA_OUT; LAVA_URL=URL names where its
# artifacts/ folder is published.  make lava-check runs LAVA_CHECK_SUITES'
# jobs with lava-run and compares each case with a direct run (about 25
# minutes for zinc's netns suite both ways: not part of make test).
LAVA_SUITES ?= $(filter-out two-guest:% interop:% crypto-diff:%,$(TEST_SUITES))
LAVA_OUT ?= $(BUILD_DIR)/lava
LAVA_CHECK_SUITES ?= $(if $(filter zinc%,$(FLAVOR)),zinc-selftest:$(FLAVOR)) netns:$(FLAVOR)
LAVA_URL ?=
export LAVA_URL
lava-jobs: deps image
	$(Q)$(call build_kernels,$(LAVA_SUITES))
	$(Q)netns-tests/lava/jobs.sh '$(LAVA_OUT)' $(call q,$(LAVA_SUITES))

lava-check: x86-only deps image
	$(Q)$(call build_kernels,$(LAVA_CHECK_SUITES))
	$(Q)netns-tests/lava/check.sh $(call q,$(LAVA_CHECK_SUITES))

# Throughput of a candidate kernel (CAND, default zinc) against a baseline
# (BASE, default stock), A/B interleaved, plus Zinc's in-kernel crypto
# microbenchmark; bench/README.md explains the knobs and the verdict.
BENCH_KNOBS := CAND BASE CAND_PATCHES BASE_PATCHES CAND_TREE BASE_TREE \
	CAND_KERNEL BASE_KERNEL CAND_APPEND BASE_APPEND CAND_QEMU BASE_QEMU \
	CAND_LABEL BASE_LABEL BENCH_REPS BENCH_SECS BENCH_TESTS BENCH_MODES \
	BENCH_MICRO_MS BENCH_OUT BENCH_TOL BENCH_ALPHA BENCH_METRIC \
	BENCH_COST BENCH_COST_TOL BENCH_COST_ALPHA BENCH_CAL_COMPARISONS \
	BENCH_CAL_SLOW BENCH_CAL_SAME
export $(BENCH_KNOBS)
BASELINE ?=
NEW      ?=

bench: x86-only deps image
	$(Q)bench/bench.sh

# BASELINE=results.json: a new 'make bench' run (or NEW=results.json, a
# stored one) judged against it; non-zero exit on a regression.
bench-compare: x86-only
	$(Q)[ -n '$(BASELINE)' ] || { echo "make: bench-compare needs BASELINE=path/to/results.json (from an earlier make bench)" >&2; exit 2; }
	$(Q)bench/compare.sh --check '$(BASELINE)'
ifeq ($(NEW),)
	$(Q)$(MAKE) --no-print-directory deps image
	$(Q)out='$(BUILD_DIR)'/results/bench-$$(date +%Y%m%d-%H%M%S); \
		{ BENCH_OUT=$$out bench/bench.sh || [ $$? = 1 ]; } && bench/compare.sh "$$out/results.json" '$(BASELINE)'
else
	$(Q)bench/compare.sh '$(NEW)' '$(BASELINE)'
endif

# The cost verdict's calibration on this machine: zinc against zinc, and a
# known small slowdown against zinc, per BENCH_CAL_SLOW (bench/README.md,
# "Calibration").
bench-calibrate: x86-only deps image
	$(Q)bench/calibration/calibrate.sh

# make native-test, fuzz, bench-native: Zinc natively on the host CPU.
include bench/native/native.mk

help:
	@echo "Targets:"
	@echo "  make            install missing packages (as root), build the kernel"
	@echo "                  and guest image, boot, run one WireGuard tunnel and"
	@echo "                  print the handshake and the throughput"
	@echo "  make test       the whole test suite: KTAP, then 'N passed, N failed'"
	@echo "  make check CASES=tunnel-basic [FLAVOR=stock] [CHECK_SUITES='timers:zinc']"
	@echo "                  only these suite words and cases, only their kernels built:"
	@echo "                  the fast path; each failure prints the make check line"
	@echo "                  that runs it again alone ('# reproduce: ...')"
	@echo "  make bisect GOOD=REV BAD=REV KERNEL_TREE=DIR [CASES=...] [FLAVOR=stock]"
	@echo "                  the first commit between GOOD and BAD whose kernel fails"
	@echo "                  the cases (git bisect run); unbuildable or unbootable"
	@echo "                  commits are skipped; the user's checkout is not touched"
	@echo "  make page-check [PAGE=DIR]  a run's results page (every run writes"
	@echo "                  index.html beside its KTAP) in headless Chromium: its DOM"
	@echo "                  checked against the KTAP, a screenshot saved beside it"
	@echo "  make history [RUNS=10]  each case's last RUNS results per kernel, its flips"
	@echo "                  and whether it is flaky; every run ends with what is new"
	@echo "  make shell [TUNNEL=1]  FLAVOR's kernel (or PATCHES, KERNEL_TREE, KERNEL)"
	@echo "                  booted into a shell on the console, the cases' library"
	@echo "                  loaded; TUNNEL=1: namespaces a and b with a tunnel up"
	@echo "  make interop    the handshake interop matrix: every ordered pair of"
	@echo "                  INTEROP_IMPLS as initiator and responder, then the table;"
	@echo "                  and the harness's own peer (wgpeer) against each of them"
	@echo "  make bench      throughput of CAND vs BASE (zinc-release vs stock), A/B interleaved,"
	@echo "                  netns and two-guest, plus the in-kernel crypto microbenchmark:"
	@echo "                  table, BUILD_DIR/results/bench-TIME/results.json and .png;"
	@echo "                  guest instructions per byte and per handshake (TCG plugin)"
	@echo "                  judged candidate against baseline: exit 1 on a regression"
	@echo "  make bench-calibrate  that verdict on zinc vs zinc and on a known 2-4%"
	@echo "                  slowdown, 10 comparisons each (about 90 min)"
	@echo "  make bench-compare BASELINE=results.json [NEW=results.json]"
	@echo "                  a new (or the NEW) bench run judged against a stored one;"
	@echo "                  exits non-zero when a throughput regressed beyond the noise"
	@echo "  make soak [REPEAT=10]"
	@echo "                  TEST_SUITES REPEAT times, then every case's pass rate"
	@echo "  make test-matrix  every flavor but the debug ones (MATRIX_FLAVORS=): the netns"
	@echo "                  suite, and the Zinc selftests on the zinc flavors"
	@echo "  make test-debug the suite on the zinc-debug and stock-debug flavors"
	@echo "                  (upstream's debug.config: KASAN, lockdep, kmemleak...);"
	@echo "                  slow, not part of make test"
	@echo "  make lava-jobs  LAVA job definitions for the suites of one guest"
	@echo "                  (LAVA_SUITES=) and their QEMU device, in LAVA_OUT=$(LAVA_OUT)"
	@echo "                  (LAVA_URL= where its artifacts are published)"
	@echo "  make lava-check those jobs run by lava-run (Debian's lava-dispatcher, as"
	@echo "                  root) beside a direct run: ok when every case agrees"
	@echo "  make test ARCH=arm64, make test ARCH=arm"
	@echo "                  the Zinc boot-time selftests on an arm64 / ARMv7+NEON"
	@echo "                  guest (cross-built, QEMU TCG); not part of make test"
	@echo "  make native-test  Zinc's selftests run natively on this CPU, every"
	@echo "                  feature subset (AVX-512 too): plain, ASan+UBSan, and"
	@echo "                  valgrind (generic paths); KTAP; part of make test"
	@echo "  make fuzz       differential fuzzing against OpenSSL and libsodium,"
	@echo "                  FUZZ_SECONDS=$(FUZZ_SECONDS) per target (FUZZ_TARGETS=); make test"
	@echo "                  runs TEST_FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) each"
	@echo "  make bench-native  cycles/byte and GB/s of Zinc, lib/crypto, OpenSSL,"
	@echo "                  libsodium on one core: table, native.json and .png"
	@echo "  make deps       install (as root) or name the missing Debian packages"
	@echo "                  (with ARCH=arm64/arm also the cross compilers, qemu-system-arm)"
	@echo "  make kernel     build the FLAVOR kernel (cached by content)"
	@echo "  make image      build the guest initramfs"
	@echo "  make clean      remove results and the guest image"
	@echo "  make distclean  remove everything under BUILD_DIR (kernels too); only"
	@echo "                  a BUILD_DIR the harness made (it holds $(BUILD_MARK))"
	@echo "Knobs (default):"
	@echo "  FLAVOR=$(FLAVOR)     kernel flavor: $(FLAVORS)"
	@echo "  BUILD_DIR=$(BUILD_DIR)"
	@echo "                  an absolute path; not /, this checkout or a folder holding"
	@echo "                  it; inside the checkout only build/ or below; a folder the"
	@echo "                  harness made ($(BUILD_MARK)), or an empty or new one"
	@echo "  JOBS=$(JOBS)          parallel kernel build jobs"
	@echo "  CASES=          comma-separated netns-tests cases (default: all)"
	@echo "  MODULAR_CASES=  the netns cases make test runs on zinc-modular (default: $(MODULAR_CASES))"
	@echo "  STOCK_CASES=    the netns cases make test runs on stock (default: MODULAR_CASES,rehandshake-race)"
	@echo "  TEST_SUITES=$(TEST_SUITES)"
	@echo "                  what make test runs (netns-tests/run.sh SUITE:FLAVOR)"
	@echo "  INTEROP_IMPLS=$(INTEROP_IMPLS)"
	@echo "                  implementations in the interop matrix (flavors, go)"
	@echo "  ACCEL=          kvm or tcg (default: probe KVM with a real boot)"
	@echo "  SUITE_JOBS=     suites whose guests run at once (default: 2; 1 on one CPU)"
	@echo "  LONG_SELFTESTS=1  the Zinc self-tests' longer variants (the AEAD sweep in"
	@echo "                  every feature combination): slower zinc-selftest boots"
	@echo "  ARCH=$(ARCH)     guest architecture: $(ARCHES) (arm64/arm: kernels in"
	@echo "                  BUILD_DIR/kernel/FLAVOR-ARCH, only the zinc-selftest suite)"
	@echo "  V=0             V=1 shows full build logs, consoles, diagnostics"
	@echo "  PATCHES=DIR     your series (DIR/series) on top of each flavor's patches;"
	@echo "  KERNEL_TREE=DIR your kernel tree, built out of tree as FLAVOR; or"
	@echo "  KERNEL=IMAGE    a prebuilt image (KERNEL_CONFIG=FILE) tested as FLAVOR"
	@echo "                  (make, test, interop, test-debug; bench: the candidate)"
	@echo "  CONFIG_FRAGMENT=FILE  your config fragment, merged last and asserted"
	@echo "  CAND=zinc-release BASE=stock  the bench's two kernel flavors (zinc-release:"
	@echo "                  zinc without CONFIG_ZINC_DEBUG); CAND_PATCHES=DIR,"
	@echo "                  CAND_TREE=DIR or CAND_KERNEL=bzImage (and BASE_...) name any"
	@echo "                  other kernel; CAND_APPEND/BASE_APPEND add boot words,"
	@echo "                  CAND_QEMU/BASE_QEMU QEMU arguments (bench/README.md)"
	@echo "  BENCH_REPS=5 BENCH_SECS=3 BENCH_MODES='netns two-guest' BENCH_MICRO_MS=100"
	@echo "  BENCH_TESTS=tcp-1:tcp-4:udp-64:udp-512:udp-1392   what each bench boot runs"
	@echo "  BENCH_TOL=0.05 BENCH_ALPHA=0.01 BENCH_METRIC=paired   bench-compare's wall-clock rule"
	@echo "  BENCH_COST=16/20 BENCH_COST_TOL=0.01 BENCH_COST_ALPHA=0.05   cost windows (MiB/handshakes)"
	@echo "                  and the cost verdict's rule (bench/README.md)"
	@echo "  TIMEOUT_SCALE=1 (1-100), SUITE_TIMEOUT= (1-86400 s): stretch the guests' timeouts"
	@echo "Disk (BUILD_DIR): what is kept, the rest removed, least recently used first:"
	@echo "  KEEP_RESULTS=$(KEEP_RESULTS)  results/: the newest runs of each kind (test, soak, host-checks),"
	@echo "                  pruned as make test, soak, test-matrix, test-debug or interop"
	@echo "                  starts; a run still going and bench-* always stay"
	@echo "  KEEP_USER_KERNELS=$(KEEP_USER_KERNELS)  user-kernels/ (PATCHES, KERNEL_TREE, KERNEL, fixtures):"
	@echo "                  the most recently used kernels, pruned at each kernel build;"
	@echo "                  never one being built or read"
	@echo "  KEEP_TREES=$(KEEP_TREES)    kernel/src/ (about 2 GB each): every tree a flavor or a kernel"
	@echo "                  in user-kernels/ builds from, plus this many others; below"
	@echo "                  KERNEL_MIN_FREE_MB free, none of the others"
	@echo "Every knob given is checked before anything is installed, built or booted;"
	@echo "a bad one is one line, 'make: KNOB=value: why', and exit 2:"
	@echo "  paths (PATCHES, KERNEL_TREE, KERNEL, KERNEL_CONFIG, CONFIG_FRAGMENT, BUILD_DIR,"
	@echo "  KERNEL_ROOT, LAVA_OUT, BASELINE, NEW, CAND_/BASE_ PATCHES TREE KERNEL...):"
	@echo "  letters, digits and / . _ - + , : = @ only, no spaces; PATCHES, KERNEL_TREE,"
	@echo "  KERNEL, KERNEL_CONFIG and CONFIG_FRAGMENT must exist.  Lists (TEST_SUITES,"
	@echo "  CASES, *_SUITES, *_CASES, FLAVOR,"
	@echo "  INTEROP_IMPLS, BENCH_TESTS...): the same characters, words split by spaces."
	@echo "  CAND_/BASE_ APPEND QEMU LABEL, LAVA_URL: no \$$, backquote, backslash,"
	@echo "  quote, tab or newline.  Whole numbers, no leading zero: JOBS 1-1024,"
	@echo "  SUITE_JOBS 1-64, TIMEOUT_SCALE and DEBUG_TIMEOUT_SCALE 1-100, SUITE_TIMEOUT,"
	@echo "  FUZZ_SECONDS and TEST_FUZZ_SECONDS 1-86400, REPEAT 1-1000, KERNEL_MIN_FREE_MB"
	@echo "  0-1048576, KEEP_RESULTS 1-100000, KEEP_TREES 0-1000, KEEP_USER_KERNELS 1-1000,"
	@echo "  BENCH_REPS and BENCH_CAL_COMPARISONS 1-1000, BENCH_SECS 1-3600,"
	@echo "  BENCH_MICRO_MS 0-10000; V, LONG_SELFTESTS and BENCH_CAL_SAME 0 or 1."

# The harness marks the BUILD_DIR it creates (knobs); clean and distclean
# remove nothing from a folder without that mark, nor (again, as the
# shell sees it) from one holding this checkout.
owned_build_dir = [ ! -e '$(BUILD_DIR)' ] || [ -e '$(BUILD_DIR)/$(BUILD_MARK)' ] || \
		{ echo "make: BUILD_DIR=$(BUILD_DIR): not made by this harness (no $(BUILD_MARK)); not removing anything" >&2; exit 2; }; \
	[ ! -e '$(BUILD_DIR)' ] || case "$$(realpath '$(CURDIR)')/" in "$$(realpath '$(BUILD_DIR)')"/*) \
		echo "make: BUILD_DIR=$(BUILD_DIR): holds this checkout; not removing anything" >&2; exit 2;; esac

# Builds, tests and bench runs hold a shared lock on BUILD_DIR/.wgt-in-use
# while they run; clean and distclean remove under it, taken exclusively,
# or refuse.
unless_in_use = [ ! -d '$(BUILD_DIR)' ] || flock -n -x -E 75 '$(BUILD_DIR)/.wgt-in-use'
in_use_error = { rc=$$?; [ $$rc != 75 ] || \
	echo "make: $(BUILD_DIR) is in use by a build, test or bench run; not removing anything" >&2; exit 2; }

clean:
	$(Q)$(owned_build_dir)
	$(Q)$(unless_in_use) rm -rf '$(BUILD_DIR)/results' '$(BUILD_DIR)/accel' \
		'$(BUILD_DIR)'/initramfs*.cpio.gz '$(BUILD_DIR)'/initramfs*.cpio.gz.key || $(in_use_error)

distclean:
	$(Q)$(owned_build_dir)
	$(Q)$(unless_in_use) rm -rf '$(BUILD_DIR)' || $(in_use_error)
