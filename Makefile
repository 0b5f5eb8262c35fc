# DogBreeds — everything runs with the Swift toolchain alone.
SWIFT ?= swift
SOURCES = Package.swift Modules Apps Tests

.PHONY: test run bench lint format test-core test-coretesting test-architecture clean

## Run every test suite, the module-boundary check and the lint, with warnings as errors.
test: lint
	$(SWIFT) test -Xswiftc -warnings-as-errors

## Run the app (live API, falls back to the cache or the bundled list when offline).
run:
	$(SWIFT) run DogBreedsCLI

## Release-mode benchmarks; prints tables of figures.
bench:
	$(SWIFT) build -c release --product DogBreedsCLI
	$(SWIFT) build -c release --product DogBreedsBench
	./.build/release/DogBreedsBench

lint:
	$(SWIFT) format lint --strict --recursive $(SOURCES)

format:
	$(SWIFT) format --in-place --recursive $(SOURCES)

test-core:
	$(SWIFT) test --filter CoreTests

test-coretesting:
	$(SWIFT) test --filter CoreTestingTests

test-architecture:
	$(SWIFT) test --filter ArchitectureTests

clean:
	rm -rf .build
