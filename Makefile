# DogBreeds — everything runs with the Swift toolchain alone.
SWIFT ?= swift
DOCC ?= $(shell command -v docc || echo $$(dirname $$(readlink -f $$(command -v $(SWIFT))))/docc)
SOURCES = Package.swift Modules Apps Tests Fuzz

.PHONY: test run session-tests release install bench lint docs format test-core test-coretesting test-architecture clean fuzz fuzz-jpeg fuzz-png fuzz-webp fuzz-gif fuzz-text fuzz-api \
  test-installed test-tsan test-asan coverage

FUZZ_RUNS ?= 1000000

## Run every test suite, the module-boundary check and the lint, with warnings as errors.
TEST_FLAGS = -Xswiftc -warnings-as-errors
test: lint
	$(SWIFT) test $(TEST_FLAGS)

## Run the app (live API, falls back to the cache or the bundled list when offline).
run:
	$(SWIFT) run DogBreedsCLI

## The optimised app, carrying the Swift runtime and Foundation inside it where the system
## allows (Scripts/release-link-flags.sh says how); otherwise an ordinary release build.
## lld where the toolchain has it (Scripts/lld-flag.sh says why): for swiftc, and for swift build.
LLD := $(shell SWIFT=$(SWIFT) Scripts/lld-flag.sh)
XLLD := $(addprefix -Xswiftc ,$(LLD))

RELEASE_FLAGS = -c release $(shell Scripts/release-link-flags.sh) $(XLLD)
PREFIX ?= $(HOME)/.local

RELEASE_BUILD = $(SWIFT) build $(RELEASE_FLAGS) --product $(1) || \
	  { echo "(could not link the Swift runtime statically; building $(1) with shared libraries)"; \
	    $(SWIFT) build -c release --product $(1); }

release:
	$(call RELEASE_BUILD,DogBreedsCLI)

## Installs the optimised app as $(PREFIX)/bin/DogBreedsCLI, its man page, and its
## completions where each shell looks for them under $(PREFIX); the app writes the page
## and the scripts (`DogBreedsCLI man`, `DogBreedsCLI completions SHELL`).
MAN_PAGE = $(PREFIX)/share/man/man1/DogBreedsCLI.1
BASH_COMPLETION = $(PREFIX)/share/bash-completion/completions/DogBreedsCLI
ZSH_COMPLETION = $(PREFIX)/share/zsh/site-functions/_DogBreedsCLI
FISH_COMPLETION = $(PREFIX)/share/fish/vendor_completions.d/DogBreedsCLI.fish
install: release
	install -D .build/release/DogBreedsCLI $(PREFIX)/bin/DogBreedsCLI
	mkdir -p $(dir $(MAN_PAGE)) $(dir $(BASH_COMPLETION)) $(dir $(ZSH_COMPLETION)) $(dir $(FISH_COMPLETION))
	$(PREFIX)/bin/DogBreedsCLI man > $(MAN_PAGE)
	$(PREFIX)/bin/DogBreedsCLI completions bash > $(BASH_COMPLETION)
	$(PREFIX)/bin/DogBreedsCLI completions zsh > $(ZSH_COMPLETION)
	$(PREFIX)/bin/DogBreedsCLI completions fish > $(FISH_COMPLETION)
	chmod 644 $(MAN_PAGE) $(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)
	@echo "Installed:"
	@echo "  the app          $(PREFIX)/bin/DogBreedsCLI"
	@echo "  its man page     $(MAN_PAGE)"
	@echo "  bash completion  $(BASH_COMPLETION)"
	@echo "  zsh completion   $(ZSH_COMPLETION)"
	@echo "  fish completion  $(FISH_COMPLETION)"
	@echo "Docs/Usage.md, \"Completions and the man page\", says how to turn them on."

## The end-to-end suite (scripts, `show` in every picture mode, the full-screen app in a
## pseudo-terminal) against the app as `make install` builds and installs it, into a folder
## of its own: what people install is what is tested. The tests themselves are the debug
## build `make test` made (same flags, nothing rebuilt); DOGBREEDS_CLI names the binary.
INSTALLED = $(CURDIR)/.build/installed
test-installed:
	rm -rf $(INSTALLED)
	$(MAKE) install PREFIX=$(INSTALLED)
	DOGBREEDS_CLI=$(INSTALLED)/bin/DogBreedsCLI $(SWIFT) test $(TEST_FLAGS) --filter DogBreedsCLITests

## Release-mode benchmarks; prints tables of figures (the cold-start rows run the binary
## `make install` would install).
bench: release
	$(call RELEASE_BUILD,DogBreedsBench)
	./.build/release/DogBreedsBench

lint:
	$(SWIFT) format lint --strict --recursive $(SOURCES)

## DocC for Core and CoreTesting, for static hosting, in .build/docs/Core and
## .build/docs/CoreTesting (serve .build/docs and open /Core/documentation/core/; it ends
## by printing how). The two archives link to each other under that one root.
## Symbol graphs from a build of their own (each compile writes its module's anew); any
## warning fails it.
DOCS_BUILD = .build/docs-build
docs:
	rm -rf .build/docs && mkdir -p .build/docs .build/symbol-graphs
	$(SWIFT) build --scratch-path $(DOCS_BUILD) --target CoreTesting \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/symbol-graphs
	for module in Core CoreTesting; do \
	  rm -rf .build/docs/graphs && mkdir -p .build/docs/graphs && \
	  cp .build/symbol-graphs/$$module.symbols.json .build/docs/graphs/ && \
	  $(DOCC) convert Modules/$$module/$$module.docc --additional-symbol-graph-dir .build/docs/graphs \
	    --output-path .build/docs/$$module --fallback-display-name $$module \
	    --fallback-bundle-identifier dogbreeds.$$module --transform-for-static-hosting \
	    --hosting-base-path $$module --warnings-as-errors || exit 1; \
	done
	rm -rf .build/docs/graphs
	@echo "Documentation built in $(CURDIR)/.build/docs. To read it, serve that folder:"
	@echo "  python3 -m http.server --directory $(CURDIR)/.build/docs 8000"
	@echo "then open http://localhost:8000/Core/documentation/core/"
	@echo "      and http://localhost:8000/CoreTesting/documentation/coretesting/"

format:
	$(SWIFT) format --in-place --recursive $(SOURCES)

## Line coverage of every module and the app, from the whole suite (its own build directory).
coverage:
	SWIFT=$(SWIFT) Scripts/coverage.sh

test-core:
	$(SWIFT) test --filter CoreTests

test-coretesting:
	$(SWIFT) test --filter CoreTestingTests

test-architecture:
	$(SWIFT) test --filter ArchitectureTests

clean:
	rm -rf .build

## libFuzzer on the harnesses of Fuzz/Checks (clang's fuzzer runtime ships with the
## toolchain): one executable, DogBreedsFuzz (Fuzz/Harness), built from the package's
## modules as they are, every one instrumented (-sanitize=fuzzer,address -D FUZZING, in a
## build folder of its own); DOGBREEDS_FUZZ names the harness it runs. Built as any other
## product, the same executable replays files through a harness's rules
## (`DogBreedsFuzz NAME FILE...`). The seeds are test fixtures and every finding kept
## under Fuzz/Findings/NAME (copied into the corpus under .build, which is the only folder
## libFuzzer writes to); a new finding is written to .build/fuzz/NAME-crash-… (keep it
## under Fuzz/Findings/NAME, and FuzzFindingsTests replays it on every `make test`).
## FUZZ_RUNS=N to change the number of inputs.
FUZZ_DIR = .build/fuzz
FUZZ_BUILD = .build/fuzz-build
FUZZ_BUILD_FLAGS = -c release --scratch-path $(FUZZ_BUILD) --product DogBreedsFuzz $(XLLD) \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
## $(1) the harness, $(2) seeds, $(3) the largest input.
define FUZZ
	$(SWIFT) build $(FUZZ_BUILD_FLAGS)
	mkdir -p $(FUZZ_DIR)/$(1)-corpus
	cp $(2) Fuzz/Findings/$(1)/* $(FUZZ_DIR)/$(1)-corpus/ 2>/dev/null || true
	DOGBREEDS_FUZZ=$(1) $(FUZZ_BUILD)/release/DogBreedsFuzz -runs=$(FUZZ_RUNS) -max_len=$(3) -timeout=10 \
	  -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_DIR)/$(1)- $(FUZZ_EXTRA) $(FUZZ_DIR)/$(1)-corpus
endef
FIXTURES = Tests/ImageDecodingTests/Fixtures

## The JPEG decoder at every scale.
fuzz-jpeg:
	$(call FUZZ,jpeg,$(FIXTURES)/jpeg/g-*.jpg,8192)

## The PNG decoder and its inflater.
fuzz-png:
	$(call FUZZ,png,$(FIXTURES)/png/c*.png,8192)

## The WEBP decoders (lossy, lossless, transparency).
fuzz-webp:
	$(call FUZZ,webp,$(FIXTURES)/webp/*.webp,16384)

## The GIF decoder.
fuzz-gif:
	$(call FUZZ,gif,$(FIXTURES)/gif/*.gif,8192)

## The key decoder, the sanitiser and the screen differ (against the test virtual terminal).
fuzz-text:
	$(call FUZZ,text,,512)

## The API response decoding.
fuzz-api:
	$(call FUZZ,api,Tests/DogAPIClientTests/Fixtures/*,4096)

## Every fuzzer, each for a bounded time (FUZZ_SECONDS, default 60).
FUZZ_SECONDS ?= 60
fuzz:
	for name in jpeg png webp gif text api; do \
	  $(MAKE) fuzz-$$name FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS) || exit 1; done

## The whole suite, nothing left out, under ThreadSanitizer (a debug build), and under
## AddressSanitizer built with optimisation on (`-c release`, `-enable-testing` so the
## tests reach internals): code that is right only until the optimiser moves it (lifetimes,
## unsafe pointers, effects) fails there, with the sanitizer's checks on top. The
## end-to-end suites run the sanitized app itself; DOGBREEDS_TIME_SCALE stretches the
## tests' waits for its slower starts and steps.
test-tsan:
	DOGBREEDS_TIME_SCALE=10 $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

test-asan:
	ASAN_OPTIONS=detect_leaks=0 DOGBREEDS_TIME_SCALE=10 $(SWIFT) test -c release -Xswiftc -enable-testing \
	  --sanitize=address --scratch-path .build/asan $(XLLD)

## The AppFeature tests made from the sessions in Tests/AppFeatureTests/Recordings, written
## again (after a change of the app's state or actions; a log that no longer replays to its
## states is refused: record it again, Docs/Usage.md says how).
session-tests:
	$(SWIFT) build --product DogBreedsCLI
	for log in Tests/AppFeatureTests/Recordings/*.jsonl; do \
	  .build/debug/DogBreedsCLI replay "$$log" --test Tests/AppFeatureTests || exit 1; \
	done
	$(SWIFT) format -i Tests/AppFeatureTests/*SessionTests.swift
