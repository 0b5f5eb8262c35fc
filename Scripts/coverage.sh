#!/bin/sh
# Line coverage of every module and of the app, from the whole test suite (`make coverage`).
#
# The CLI's tests run the built DogBreedsCLI in other processes; the test environment
# hands them LLVM_PROFILE_FILE, so their profiles land beside the test process's own and
# the app's lines count too (except in a process that ends by a signal, as the crash test's
# does: it writes no profile). Its own build directory, so `make test` is not rebuilt.
set -eu
swift=${SWIFT:-swift}
scratch=.build/coverage
tools=$(dirname "$(readlink -f "$(command -v "$swift")")")
codecov=$(dirname "$("$swift" test --scratch-path "$scratch" --show-codecov-path)")
mkdir -p "$codecov"
rm -f "$codecov"/*.profraw
"$swift" test --scratch-path "$scratch" --enable-code-coverage >"$scratch/coverage-tests.log" 2>&1 || {
  tail -20 "$scratch/coverage-tests.log"
  echo "the tests failed: no coverage (whole log: $scratch/coverage-tests.log)"
  exit 1
}
bin=$("$swift" build --scratch-path "$scratch" --show-bin-path)
"$tools/llvm-profdata" merge -sparse "$codecov"/*.profraw -o "$scratch/all.profdata"
"$tools/llvm-cov" report "$bin/DogBreedsPackageTests.xctest" -object "$bin/DogBreedsCLI" \
  -instr-profile "$scratch/all.profdata" -ignore-filename-regex '/(Tests|\.build)/' \
  -show-region-summary=false -show-branch-summary=false -show-instantiation-summary=false
echo "Line by line: $tools/llvm-cov show $bin/DogBreedsPackageTests.xctest -object $bin/DogBreedsCLI -instr-profile $scratch/all.profdata FILE"
