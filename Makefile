# Earshot — build, test, benchmark.
#   make run     build and run earshotd on this desktop's sound server (see README)
#   make demo    a whole conversation through a private PulseAudio, on any machine
#   make test    install what the tests need, build, run every test
#   make test-pure  the pure modules' tests alone, in seconds
#   make bench   speed and accuracy figures, printed as tables
#   make fuzz    libFuzzer on every parser for SECONDS each (default 60), see Scripts/fuzz.sh
#   make sanitize  the live suites under ThreadSanitizer, then AddressSanitizer (Scripts/sanitize.sh)
#   make soak    MINUTES (default 60) of conversation through the live daemon: memory, descriptors, replay

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

SWIFT        ?= swift
SHARED       ?= ../shared
VAD_DEV      ?= $(SHARED)/fixtures/vad-dev
TURNS_DEV    ?= $(SHARED)/fixtures/turns-dev
TURNS_DEV2   ?= $(SHARED)/fixtures/turns-dev-2
RELEASE_BIN   = .build/release
LIVE_SECONDS ?= 60
# `make bench`: runs of the listening cost, whose goals are on their median.
LIVE_RUNS    ?= 3
# `make fuzz`: seconds per target, and which targets (all of Fuzz/ by default).
SECONDS      ?= 60
FUZZ_TARGETS ?=
# `make soak`: minutes of looped conversation (3 at least: 2 warm up), and the build it runs
# (CI: a short one on the debug build that `make test` made).
MINUTES      ?= 60
SOAK_CONFIG  ?= release
# Debian packages the build and tests need (more arrive with live audio and speech). The live
# audio tests run against PulseAudio and against PipeWire (with pipewire-pulse, WirePlumber and a
# private D-Bus session bus), each started privately by the tests.
APT_PACKAGES ?= pkg-config libpulse-dev pulseaudio pulseaudio-utils sox \
                pipewire pipewire-pulse wireplumber dbus-daemon \
                gcc make flite1-dev libespeak-ng-dev espeak-ng libopusfile-dev libopusenc-dev libsystemd-dev systemd \
                python3 python3-venv chromium chromium-driver \
                xvfb xdotool python3-tk sway wtype python3-gi gir1.2-gtk-3.0
# The embedded transcriber: pocketsphinx's current release (Debian ships 0.8+5prealpha), built
# once from its source release on PyPI into a prefix of its own. The build finds it through
# pkg-config as `earshot-pocketsphinx`, under names that Debian's pocketsphinx cannot shadow.
POCKETSPHINX_VERSION ?= 5.1.1
POCKETSPHINX_PREFIX  ?= /usr/local/lib/earshot/pocketsphinx-$(POCKETSPHINX_VERSION)
PKG_CONFIG_DIR       ?= /usr/local/lib/pkgconfig
POCKETSPHINX_MODEL   ?= $(POCKETSPHINX_PREFIX)/share/pocketsphinx/model/en-us
# The embedded transcriber's dictionary: the language model's 40,000 most probable words (the
# full 135k-entry dictionary costs 28 MB more and recognises no better on vad-dev).
POCKETSPHINX_WORDS   ?= 40000
DEPS_DIR             ?= .deps
# Installing into the system needs root: sudo unless make already runs as root.
SUDO                 := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Real Wyoming servers from PyPI that the tests talk to, pocketsphinx's own Python package (the
# engine's word error rates beside Earshot's in `make bench`), the official OpenAI client that checks
# the OpenAI-compatible test server, selenium for the browser tests and the MCP SDK that drives
# `earshot mcp` (Tests/Peers), in a private venv.
PEERS_VENV   ?= .venv
PEERS        ?= wyoming==1.10.2 wyoming-ovos-stt==0.2.0 ovos-stt-plugin-pocketsphinx==0.1.1 \
                pocketsphinx==$(POCKETSPHINX_VERSION) wyoming-ovos-tts==0.2.0 ovos-tts-plugin-espeakng==0.0.2 ovos-plugin-manager==0.9.0 \
                openai==3.54.0 selenium==4.51.0 mcp==1.30.0
# Where `make install` puts things (DESTDIR for staging, as packagers expect).
PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
DATADIR      ?= $(PREFIX)/share/earshot
SYSTEMD_USER_DIR ?= $(PREFIX)/lib/systemd/user
DATADIR_FILES = config.example.toml $(addprefix voices/,$(notdir $(wildcard voices/*.toml))) \
                $(addprefix web/,$(notdir $(wildcard web/*.html web/*.css web/*.js web/*.svg)))

.PHONY: all deps pocketsphinx pocketsphinx-library peers build release test test-pure bench fuzz sanitize soak run demo install uninstall clean

all: build

deps:
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 is required (expected at /opt/swift or on PATH): https://www.swift.org/install/linux/"; exit 1; }
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 $$missing; \
	fi
	@$(MAKE) --no-print-directory pocketsphinx

# pocketsphinx $(POCKETSPHINX_VERSION): its sdist from PyPI (C library, CMake build, US English
# model), built with CMake from PyPI in a private venv, installed as a static library. Skipped
# once pkg-config finds that version.
pocketsphinx: pocketsphinx-library
	@[ -f $(POCKETSPHINX_MODEL)/earshot-top-words.dict ] || { \
	  mkdir -p $(DEPS_DIR) && \
	  python3 Scripts/top_words.py $(POCKETSPHINX_MODEL)/en-us.lm.bin \
	    $(POCKETSPHINX_MODEL)/cmudict-en-us.dict $(POCKETSPHINX_WORDS) $(DEPS_DIR)/earshot-top-words.dict && \
	  $(SUDO) install -m 0644 $(DEPS_DIR)/earshot-top-words.dict $(POCKETSPHINX_MODEL)/; }

pocketsphinx-library:
	@if pkg-config --exact-version=$(POCKETSPHINX_VERSION) earshot-pocketsphinx 2>/dev/null; then exit 0; fi; \
	for tool in cc python3; do command -v $$tool >/dev/null || { echo "Building pocketsphinx needs $$tool: install gcc and python3-venv (make deps does, with apt)"; exit 1; }; done; \
	set -e; echo "building pocketsphinx $(POCKETSPHINX_VERSION) into $(POCKETSPHINX_PREFIX) (once)"; \
	mkdir -p $(DEPS_DIR); \
	[ -x $(DEPS_DIR)/tools/bin/cmake ] || { python3 -m venv $(DEPS_DIR)/tools && $(DEPS_DIR)/tools/bin/pip install -q --disable-pip-version-check cmake==4.4.4; }; \
	[ -f $(DEPS_DIR)/pocketsphinx-$(POCKETSPHINX_VERSION).tar.gz ] || \
	  $(DEPS_DIR)/tools/bin/pip download -q --disable-pip-version-check --no-deps --no-binary pocketsphinx \
	    pocketsphinx==$(POCKETSPHINX_VERSION) -d $(DEPS_DIR); \
	rm -rf $(DEPS_DIR)/pocketsphinx-$(POCKETSPHINX_VERSION); \
	tar -xzf $(DEPS_DIR)/pocketsphinx-$(POCKETSPHINX_VERSION).tar.gz -C $(DEPS_DIR); \
	src=$(DEPS_DIR)/pocketsphinx-$(POCKETSPHINX_VERSION); \
	$(DEPS_DIR)/tools/bin/cmake -S $$src -B $$src/build -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
	  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX=$(POCKETSPHINX_PREFIX) \
	  -DCMAKE_INSTALL_LIBDIR=lib >$(DEPS_DIR)/pocketsphinx-build.log 2>&1; \
	$(DEPS_DIR)/tools/bin/cmake --build $$src/build -j2 >>$(DEPS_DIR)/pocketsphinx-build.log 2>&1 || \
	  { echo "pocketsphinx $(POCKETSPHINX_VERSION) did not build: see $(DEPS_DIR)/pocketsphinx-build.log"; exit 1; }; \
	$(SUDO) $(DEPS_DIR)/tools/bin/cmake --install $$src/build >>$(DEPS_DIR)/pocketsphinx-build.log 2>&1; \
	$(SUDO) ln -sf libpocketsphinx.a $(POCKETSPHINX_PREFIX)/lib/libearshot-pocketsphinx.a; \
	printf '%s\n' "prefix=$(POCKETSPHINX_PREFIX)" "Name: earshot-pocketsphinx" \
	  "Description: pocketsphinx $(POCKETSPHINX_VERSION) for Earshot, static, with its US English model" \
	  "Version: $(POCKETSPHINX_VERSION)" 'Libs: -L$${prefix}/lib -learshot-pocketsphinx -lm' \
	  'Cflags: -I$${prefix}/include -I$${prefix}/include/pocketsphinx' > $(DEPS_DIR)/earshot-pocketsphinx.pc; \
	$(SUDO) install -D -m 0644 $(DEPS_DIR)/earshot-pocketsphinx.pc $(PKG_CONFIG_DIR)/earshot-pocketsphinx.pc; \
	pkg-config --exact-version=$(POCKETSPHINX_VERSION) earshot-pocketsphinx || \
	  { echo "pocketsphinx $(POCKETSPHINX_VERSION) was installed but pkg-config does not find $(PKG_CONFIG_DIR)/earshot-pocketsphinx.pc"; exit 1; }

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
	python3 Scripts/check_modules.py
	$(SWIFT) build --build-tests
	@mkdir -p .build
	@set -o pipefail; $(SWIFT) test --skip-build --no-parallel 2>&1 | tee .build/test.log; status=$$?; \
	ran=$$(grep -oE 'Test run with [0-9]+ tests?' .build/test.log | grep -oE '[0-9]+' | tail -1); \
	failed=$$(grep -E '^✘ Test .* failed after' .build/test.log | grep -vc '^✘ Test run with'); \
	echo "$$(( $${ran:-0} - failed )) passed, $$failed failed"; \
	exit $$status

# The pure modules' tests alone (no sound server, daemon, speech server or program): seconds.
PURE_TESTS = EarshotBaseTests|EarshotTurnsTests|EarshotAudioTests|EarshotProtocolTests|EarshotSpeechTests
test-pure:
	python3 Scripts/check_modules.py
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '^($(PURE_TESTS))\.'

bench: release peers
	@if [ -d "$(VAD_DEV)" ]; then \
	  $(RELEASE_BIN)/earshot vad-eval "$(VAD_DEV)"; \
	  $(RELEASE_BIN)/earshot-bench replay "$(VAD_DEV)"; \
	else \
	  echo "The VAD dev set is absent ($(VAD_DEV)): the F1 table and the dev-set replay need it."; \
	  echo "Set VAD_DEV=/path/to/vad-dev. Measuring replay on the bundled fixtures instead."; \
	  $(RELEASE_BIN)/earshot-bench replay Tests/Fixtures; \
	fi
	@if [ -d "$(TURNS_DEV)" ]; then \
	  for eagerness in low medium high; do \
	    out=.build/turns-dev/$$eagerness; mkdir -p $$out; \
	    for f in $(TURNS_DEV)/*.wav; do $(RELEASE_BIN)/earshot replay "$$f" --stt embedded --eagerness $$eagerness > $$out/$$(basename "$$f" .wav).jsonl; done; \
	    echo "Turn taking on turns-dev (replay --stt embedded), eagerness $$eagerness:"; \
	    python3 $(SHARED)/tools/score_turns.py "$(TURNS_DEV)" $$out --no-details | grep -E '^\| (group|\*\*all|clean|babble|pink|case)'; \
	  done; \
	  python3 Scripts/turns_at_phases.py "$(TURNS_DEV)" $(RELEASE_BIN)/earshot --scorer $(SHARED)/tools/score_turns.py; \
	else \
	  echo "The turn-taking dev set is absent ($(TURNS_DEV)): the turn table needs it (TURNS_DEV=/path/to/turns-dev)."; \
	fi
	@if [ -d "$(TURNS_DEV2)" ]; then \
	  for eagerness in low medium high; do \
	    out=.build/turns-dev-2/$$eagerness; mkdir -p $$out; \
	    for f in $(TURNS_DEV2)/*.wav; do $(RELEASE_BIN)/earshot replay "$$f" --stt embedded --eagerness $$eagerness > $$out/$$(basename "$$f" .wav).jsonl; done; \
	    echo "Turn taking on turns-dev-2 (mid-sentence pauses, replay --stt embedded), eagerness $$eagerness:"; \
	    python3 $(SHARED)/tools/score_turns.py "$(TURNS_DEV2)" $$out --no-details | grep -E '^\| (group|\*\*all|clean|babble|pink|case)'; \
	  done; \
	  python3 Scripts/turns_at_phases.py "$(TURNS_DEV2)" $(RELEASE_BIN)/earshot --scorer $(SHARED)/tools/score_turns.py; \
	  python3 Scripts/turns_at_phases.py "$(TURNS_DEV2)" $(RELEASE_BIN)/earshot --scorer $(SHARED)/tools/score_turns.py --stt none; \
	  $(PEERS_VENV)/bin/python Scripts/pause_words_reference.py "$(TURNS_DEV2)" $(RELEASE_BIN)/earshot --model $(POCKETSPHINX_MODEL); \
	  $(RELEASE_BIN)/earshot-bench voice "$(TURNS_DEV2)"; \
	  $(RELEASE_BIN)/earshot-bench voice --assistant-first-token-ms 200 --assistant-tokens-per-second 30 "$(TURNS_DEV2)"; \
	  $(RELEASE_BIN)/earshot-bench voice --assistant-first-token-ms 0 --assistant-tokens-per-second 30 "$(TURNS_DEV2)"; \
	else \
	  echo "The turn set with mid-sentence pauses is absent ($(TURNS_DEV2)): its tables and voice to voice need it (TURNS_DEV2=/path/to/turns-dev-2)."; \
	fi
	@if [ -d "$(VAD_DEV)" ]; then $(RELEASE_BIN)/earshot-bench wer "$(VAD_DEV)"; \
	  $(PEERS_VENV)/bin/python Scripts/transcription_reference.py "$(VAD_DEV)" $(RELEASE_BIN)/earshot --model $(POCKETSPHINX_MODEL); \
	else echo "The VAD dev set is absent ($(VAD_DEV)): the transcription word error rates need its labelled texts."; fi
	@if [ -d "$(SHARED)/fixtures" ]; then $(RELEASE_BIN)/earshot-bench wake "$(SHARED)/fixtures"; \
	else echo "The dev sets are absent ($(SHARED)/fixtures): the wake phrase's false wakes need their speech."; fi
	$(RELEASE_BIN)/earshot-bench live --seconds $(LIVE_SECONDS) --runs $(LIVE_RUNS) --stt none
	$(RELEASE_BIN)/earshot-bench live --seconds 30 --stt embedded
	@if [ -d "$(TURNS_DEV2)" ]; then sox $(TURNS_DEV2)/*_clean.wav $(RELEASE_BIN)/turns-dev-2-clean.wav && \
	  $(RELEASE_BIN)/earshot-bench live --wake "hey computer" --seconds $(LIVE_SECONDS) $(RELEASE_BIN)/turns-dev-2-clean.wav; \
	else echo "The turn set with mid-sentence pauses is absent ($(TURNS_DEV2)): waiting for the wake phrase in speech needs it."; fi
	$(RELEASE_BIN)/earshot-bench speech
	$(RELEASE_BIN)/earshot-bench mcp
	$(RELEASE_BIN)/earshot-bench dictation

# libFuzzer on each parser for SECONDS (not part of `make test`: too slow). Needs only Swift and
# the libraries `make deps` installs; builds under .build-fuzz, apart from the normal build.
fuzz:
	Scripts/fuzz.sh $(SECONDS) $(FUZZ_TARGETS)

# The live suites (capture, playback, socket, barge-in, reconnect, reload, sound-server faults)
# built with ThreadSanitizer, then AddressSanitizer, each under .build-tsan / .build-asan; any
# report fails. CI runs it after `make test`.
sanitize: deps peers
	Scripts/sanitize.sh
# The live daemon (embedded transcription and speech, a responder) hearing MINUTES of looped
# fixtures with a subscribed client: fails if its memory or descriptors grow after the warm-up, or
# if replaying the same audio in pieces prints other events than replaying it whole.
soak: deps
	$(SWIFT) build -c $(SOAK_CONFIG)
	.build/$(SOAK_CONFIG)/earshot-bench soak --minutes $(MINUTES)

# The daemon in the foreground on this desktop's sound server, with the embedded backends.
run: release
	@if ! command -v pactl >/dev/null || ! pactl info >/dev/null 2>&1; then \
	  echo "No sound server answers (PulseAudio or PipeWire): earshotd needs one for the microphone and speaker."; \
	  echo "On a desktop, log in to a graphical session (or start pipewire-pulse) and try again."; \
	  echo "On a machine without sound, 'make demo' shows Earshot at work with a private PulseAudio."; \
	  exit 1; \
	fi
	@echo "Starting earshotd (Ctrl-C stops it). From another terminal:"
	@echo "  $(RELEASE_BIN)/earshot watch     a live view: state, the voice blob's level, transcripts"
	@echo "  $(RELEASE_BIN)/earshot start     enter voice mode; then talk"
	$(RELEASE_BIN)/earshotd --stt embedded --tts embedded

# A whole conversation on a machine with no sound card: a private PulseAudio, a recorded person
# talking into its virtual microphone, earshotd answering through a small responder script.
demo: release
	$(RELEASE_BIN)/earshot-bench demo Tests/Fixtures/conversation/barge_in.wav Tests/Fixtures/conversation/responder.sh

# Installs the programs, the voices, the systemd user units and the example configuration.
# The programs load the Swift runtime from the toolchain they were built with (/opt/swift).
install: release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/voices $(DESTDIR)$(DATADIR)/web $(DESTDIR)$(SYSTEMD_USER_DIR)
	install -m 0755 $(RELEASE_BIN)/earshot $(RELEASE_BIN)/earshotd $(DESTDIR)$(BINDIR)/
	install -m 0644 voices/*.toml $(DESTDIR)$(DATADIR)/voices/
	install -m 0644 $(wildcard web/*.html web/*.css web/*.js web/*.svg) $(DESTDIR)$(DATADIR)/web/
	install -m 0644 config.example.toml $(DESTDIR)$(DATADIR)/config.example.toml
	sed 's|^ExecStart=/usr/local/bin/earshotd|ExecStart=$(BINDIR)/earshotd|' systemd/earshotd.service \
	  > $(DESTDIR)$(SYSTEMD_USER_DIR)/earshotd.service
	install -m 0644 systemd/earshotd.socket $(DESTDIR)$(SYSTEMD_USER_DIR)/earshotd.socket
	chmod 0644 $(DESTDIR)$(SYSTEMD_USER_DIR)/earshotd.service
	@echo "Installed. Start it with your session:  systemctl --user daemon-reload && systemctl --user enable --now earshotd.socket"

uninstall:
	@if [ -z "$(DESTDIR)" ] && systemctl --user is-enabled earshotd.socket >/dev/null 2>&1; then \
	  systemctl --user disable --now earshotd.socket earshotd.service; fi
	rm -f $(DESTDIR)$(BINDIR)/earshot $(DESTDIR)$(BINDIR)/earshotd
	rm -f $(DESTDIR)$(SYSTEMD_USER_DIR)/earshotd.service $(DESTDIR)$(SYSTEMD_USER_DIR)/earshotd.socket
	rm -f $(DATADIR_FILES:%=$(DESTDIR)$(DATADIR)/%)
	-rmdir $(DESTDIR)$(DATADIR)/voices $(DESTDIR)$(DATADIR)/web $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf .build
