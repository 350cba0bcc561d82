# Native runs of Zinc on the host CPU (bench/native/README.md), included by
# the top-level Makefile.  Userspace only: nothing touches the host kernel.

FUZZ_SECONDS      ?= 60
FUZZ_TARGETS      ?=
TEST_FUZZ_SECONDS ?= 20
export FUZZ_SECONDS TEST_FUZZ_SECONDS

.PHONY: native-test fuzz bench-native native-check

# Every Zinc selftest per CPU-feature subset: plain, ASan+UBSan, valgrind.
native-test: deps
	$(Q)bench/native/run-tests.sh

# Differential fuzzing against OpenSSL/libsodium, FUZZ_SECONDS per target.
fuzz: deps
	$(Q)bench/native/fuzz.sh $(FUZZ_TARGETS)

# cycles/byte beside OpenSSL and libsodium, pinned to one core.
bench-native: deps
	$(Q)bench/native/bench.sh

# What 'make test' runs of the above: summaries only on stderr.
native-check:
	$(Q)bench/native/check.sh

# 'make test' runs native-check beside the guest suites, at nice 19
# (netns-tests/make-test.sh; x86_64 runs only:
# the ARM 'make test' is about the ARM guest); its failure fails 'make test'
# after the guest suites have run.
ifeq ($(ARCH),x86_64)
NATIVE_CHECK := bench/native/check.sh
else
NATIVE_CHECK := true
endif
