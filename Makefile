# WireGuard-consumer integration harness.  'make help' lists what is here.

FLAVOR    ?= stock
BUILD_DIR ?= $(CURDIR)/build
JOBS      ?= $(shell nproc)
V         ?= 0
CASES     ?=
ACCEL     ?=

export BUILD_DIR JOBS V CASES ACCEL

FLAVORS  := stock zinc zinc-debug
INITRD   := $(BUILD_DIR)/initramfs.cpio.gz

# Debian packages the harness needs; 'make deps' installs the missing ones
# when run as root and names them otherwise.
PACKAGES := make gcc libc6-dev bc bison flex libelf-dev libssl-dev cpio \
	xz-utils file ccache git perl linux-source-6.1 busybox-static \
	wireguard-tools iproute2 iputils-ping iperf3 wireguard-go \
	nftables qemu-system-x86

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all deps kernel image tunnel test test-debug help clean distclean

all: deps kernel image tunnel

deps:
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

kernel:
	$(Q)case " $(FLAVORS) " in *" $(FLAVOR) "*) ;; \
		*) echo "make: unknown FLAVOR '$(FLAVOR)' ($(FLAVORS))" >&2; exit 1;; esac
	$(Q)kernel/build.sh $(FLAVOR)

image:
	$(Q)guest-image/mkinitramfs.sh $(INITRD)

# The main job: one tunnel between two namespaces, summarised.
tunnel: kernel image
	$(Q)netns-tests/tunnel.sh $(FLAVOR)

# What 'make test' runs, as netns-tests/run.sh SUITE:FLAVOR words.
TEST_SUITES ?= netns:$(FLAVOR) two-guest:$(FLAVOR)+$(FLAVOR)
TEST_FLAVORS = $(sort $(subst +, ,$(foreach s,$(TEST_SUITES),$(lastword $(subst :, ,$(s))))))

test: deps image
	$(Q)for f in $(TEST_FLAVORS); do kernel/build.sh $$f || exit 1; done
	$(Q)netns-tests/run.sh $(TEST_SUITES)

# The whole suite on the debug flavor (KASAN, lockdep, kmemleak): too slow
# for CI's budget, so not part of 'make test'.
DEBUG_SUITES ?= zinc-selftest:zinc-debug netns:zinc-debug two-guest:zinc-debug+zinc-debug

test-debug: deps image
	$(Q)kernel/build.sh zinc-debug
	$(Q)SUITE_TIMEOUT=3600 netns-tests/run.sh $(DEBUG_SUITES)

help:
	@echo "Targets:"
	@echo "  make            install missing packages (as root), build the kernel"
	@echo "                  and guest image, boot, run one WireGuard tunnel and"
	@echo "                  print the handshake and the throughput"
	@echo "  make test       the whole test suite: KTAP, then 'N passed, N failed'"
	@echo "  make test-debug the suite on the zinc-debug flavor (KASAN, lockdep,"
	@echo "                  kmemleak); slow, not part of make test"
	@echo "  make deps       install (as root) or name the missing Debian packages"
	@echo "  make kernel     build the FLAVOR kernel (cached by content)"
	@echo "  make image      build the guest initramfs"
	@echo "  make clean      remove results and the guest image"
	@echo "  make distclean  remove everything under BUILD_DIR (kernels too)"
	@echo "Knobs (default):"
	@echo "  FLAVOR=$(FLAVOR)     kernel flavor: $(FLAVORS)"
	@echo "  BUILD_DIR=$(BUILD_DIR)"
	@echo "  JOBS=$(JOBS)          parallel kernel build jobs"
	@echo "  CASES=          comma-separated netns-tests cases (default: all)"
	@echo "  TEST_SUITES=$(TEST_SUITES)"
	@echo "                  what make test runs (netns-tests/run.sh SUITE:FLAVOR)"
	@echo "  ACCEL=          kvm or tcg (default: probe KVM with a real boot)"
	@echo "  V=0             V=1 shows full build logs, consoles, diagnostics"

clean:
	rm -rf $(BUILD_DIR)/results $(INITRD) $(INITRD).key $(BUILD_DIR)/accel

distclean:
	rm -rf $(BUILD_DIR)
