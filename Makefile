# Earshot — build, test, benchmark.
#   make run     build and run Earshot (see README)
#   make test    install what the tests need, build, run every test
#   make bench   speed and accuracy figures, printed as tables

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT        ?= swift
SHARED       ?= ../shared
VAD_DEV      ?= $(SHARED)/fixtures/vad-dev
RELEASE_BIN   = .build/release
LIVE_SECONDS ?= 60
# Debian packages the build and tests need (more arrive with live audio and speech).
APT_PACKAGES ?= pkg-config libpulse-dev pulseaudio pulseaudio-utils sox \
                libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us flite1-dev libespeak-ng-dev espeak-ng libopusfile-dev libopusenc-dev \
                python3 python3-venv
# Real Wyoming servers from PyPI that the tests talk to, in a private venv.
PEERS_VENV   ?= .venv
PEERS        ?= wyoming==1.10.2 wyoming-ovos-stt==0.2.0 ovos-stt-plugin-pocketsphinx==0.1.1 \
                wyoming-ovos-tts==0.2.0 ovos-tts-plugin-espeakng==0.0.2 ovos-plugin-manager==0.9.0
DEMO_FIXTURE ?= Tests/Fixtures/endpointer/two_phrases_long_pause.wav

.PHONY: all deps peers build release test bench run clean

all: build

deps:
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 is required (expected at /opt/swift or on PATH): https://www.swift.org/install/linux/"; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 $$missing; \
	fi

# The venv is rebuilt when the pinned list changes.
peers: $(PEERS_VENV)/.installed
$(PEERS_VENV)/.installed: Makefile | deps
	python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/pip install -q --disable-pip-version-check $(PEERS)
	touch $@

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Tests run one at a time: several measure how fast something happens (a reconnect, a timeout)
# and the speech tests keep both cores busy, so in parallel on a 2-core machine they starve each other.
test: deps peers
	$(SWIFT) build --build-tests
	@mkdir -p .build
	@set -o pipefail; $(SWIFT) test --skip-build --no-parallel 2>&1 | tee .build/test.log; status=$$?; \
	ran=$$(grep -oE 'Test run with [0-9]+ tests?' .build/test.log | grep -oE '[0-9]+' | tail -1); \
	failed=$$(grep -E '^✘ Test .* failed after' .build/test.log | grep -vc '^✘ Test run with'); \
	echo "$$(( $${ran:-0} - failed )) passed, $$failed failed"; \
	exit $$status

bench: release
	@if [ -d "$(VAD_DEV)" ]; then \
	  $(RELEASE_BIN)/earshot vad-eval "$(VAD_DEV)"; \
	  $(RELEASE_BIN)/earshot-bench replay "$(VAD_DEV)"; \
	else \
	  echo "The VAD dev set is absent ($(VAD_DEV)): the F1 table and the dev-set replay need it."; \
	  echo "Set VAD_DEV=/path/to/vad-dev. Measuring replay on the bundled fixtures instead."; \
	  $(RELEASE_BIN)/earshot-bench replay Tests/Fixtures; \
	fi
	$(RELEASE_BIN)/earshot-bench live --seconds $(LIVE_SECONDS) --stt none
	$(RELEASE_BIN)/earshot-bench live --seconds 30 --stt embedded
	$(RELEASE_BIN)/earshot-bench speech

# Until the daemon lands (issue: live capture), `make run` replays a bundled conversation
# through the full pipeline at the pace of a live microphone.
run: release
	$(RELEASE_BIN)/earshot replay --realtime --levels --level-hz 10 "$(DEMO_FIXTURE)"

clean:
	rm -rf .build
