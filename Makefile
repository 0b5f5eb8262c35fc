# DogBreeds — everything runs with the Swift toolchain alone.
SWIFT ?= swift
DOCC ?= $(shell command -v docc || echo $$(dirname $$(readlink -f $$(command -v $(SWIFT))))/docc)
SOURCES = Package.swift Modules Apps Tests

.PHONY: test run release install bench lint docs format test-core test-coretesting test-architecture clean fuzz fuzz-jpeg fuzz-png fuzz-webp fuzz-gif fuzz-text fuzz-api \
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

## Installs the optimised app as $(PREFIX)/bin/DogBreedsCLI.
install: release
	install -D .build/release/DogBreedsCLI $(PREFIX)/bin/DogBreedsCLI

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
## .build/docs/CoreTesting (serve .build/docs and open /Core/documentation/core/).
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

## libFuzzer on a picture decoder (clang's fuzzer runtime ships with the toolchain), built
## with ImageDecoding's sources: $(1) its name, $(2) its seeds (test fixtures), $(3) the
## largest input. FUZZ_RUNS=N to change the number of inputs.
define FUZZ_PICTURES
	mkdir -p .build/fuzz/$(1)-corpus
	cp $(2) .build/fuzz/$(1)-corpus/
	swiftc $(LLD) -sanitize=fuzzer,address -parse-as-library -O -module-name ImageDecoding \
	  $$(find Modules/ImageDecoding -name '*.swift') Fuzz/$(shell echo $(1) | tr a-z A-Z)Fuzz.swift \
	  -o .build/fuzz/$(1) 2>&1 | grep -v "Cannot export local symbol" || true
	./.build/fuzz/$(1) -runs=$(FUZZ_RUNS) -max_len=$(3) -timeout=10 -rss_limit_mb=2048 -artifact_prefix=.build/fuzz/ \
	  $(FUZZ_EXTRA) .build/fuzz/$(1)-corpus
endef

## The JPEG decoder at every scale.
fuzz-jpeg:
	$(call FUZZ_PICTURES,jpeg,Tests/ImageDecodingTests/Fixtures/jpeg/g-*.jpg,8192)

## The PNG decoder and its inflater.
fuzz-png:
	$(call FUZZ_PICTURES,png,Tests/ImageDecodingTests/Fixtures/png/c*.png,8192)

## The WEBP decoders (lossy, lossless, transparency).
fuzz-webp:
	$(call FUZZ_PICTURES,webp,Tests/ImageDecodingTests/Fixtures/webp/*.webp,16384)

## The GIF decoder.
fuzz-gif:
	$(call FUZZ_PICTURES,gif,Tests/ImageDecodingTests/Fixtures/gif/*.gif,8192)

## libFuzzer on the key decoder, the sanitiser and the screen differ: TextRendering's and
## ImageDecoding's sources built as one module (their `import ImageDecoding` lines removed
## in a copy under .build/fuzz).
fuzz-text:
	rm -rf .build/fuzz/text-src && mkdir -p .build/fuzz/text-src .build/fuzz/text-corpus
	for f in $$(find Modules/TextRendering Modules/ImageDecoding -name '*.swift'); do \
	  sed -e '/^import ImageDecoding$$/d' $$f > .build/fuzz/text-src/$$(echo $$f | tr / _); done
	swiftc $(LLD) -sanitize=fuzzer,address -parse-as-library -O -module-name TextRendering \
	  .build/fuzz/text-src/*.swift Tests/Support/VirtualTerminal/VirtualTerminal.swift \
	  Fuzz/TextFuzz.swift -o .build/fuzz/text 2>&1 | grep -v "Cannot export local symbol\|ignoring import" || true
	./.build/fuzz/text -runs=$(FUZZ_RUNS) -max_len=512 -timeout=10 -artifact_prefix=.build/fuzz/ $(FUZZ_EXTRA) .build/fuzz/text-corpus

## libFuzzer on the API response decoding: Core's and DogAPIClient's sources built as one
## module (their `import Core` lines removed in a copy under .build/fuzz).
fuzz-api:
	rm -rf .build/fuzz/api-src && mkdir -p .build/fuzz/api-src .build/fuzz/api-corpus
	for f in $$(find Modules/Core Modules/DogAPIClient -name '*.swift'); do \
	  sed -e '/^import Core$$/d' -e 's/^@_spi(Internals) import Core$$//' $$f > .build/fuzz/api-src/$$(echo $$f | tr / _); done
	swiftc $(LLD) -sanitize=fuzzer,address -parse-as-library -O -module-name DogAPIClient \
	  .build/fuzz/api-src/*.swift Fuzz/APIFuzz.swift -o .build/fuzz/api 2>&1 | grep -v "Cannot export local symbol" || true
	./.build/fuzz/api -runs=$(FUZZ_RUNS) -max_len=4096 -timeout=10 -artifact_prefix=.build/fuzz/ $(FUZZ_EXTRA) \
	  .build/fuzz/api-corpus Tests/DogAPIClientTests/Fixtures

## Every fuzzer, each for a bounded time (FUZZ_SECONDS, default 60).
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) fuzz-jpeg FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)
	$(MAKE) fuzz-png FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)
	$(MAKE) fuzz-webp FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)
	$(MAKE) fuzz-gif FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)
	$(MAKE) fuzz-text FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)
	$(MAKE) fuzz-api FUZZ_RUNS=-1 FUZZ_EXTRA=-max_total_time=$(FUZZ_SECONDS)

## The whole suite under ThreadSanitizer (a debug build), and under AddressSanitizer built
## with optimisation on (`-c release`, `-enable-testing` so the tests reach internals):
## code that is right only until the optimiser moves it (lifetimes, unsafe pointers,
## effects) fails there, with the sanitizer's checks on top.
test-tsan:
	DOGBREEDS_TIME_SCALE=10 $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

test-asan:
	ASAN_OPTIONS=detect_leaks=0 DOGBREEDS_TIME_SCALE=10 $(SWIFT) test -c release -Xswiftc -enable-testing \
	  --sanitize=address --scratch-path .build/asan $(XLLD)
