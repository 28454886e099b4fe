# tinyaot: the two commands a newcomer runs are `make demo` and `make test`.
# Each installs what it needs first (scripts/deps.sh, docs/install.md):
# `make build` only a C compiler, CMake and libyaml; `make demo` also the
# Cortex-M toolchain and QEMU; `make test` and the other test targets the
# whole test toolchain and the Python environments.

JOBS ?= 2
PYTHON := .venv/bin/python
OPTEST_COUNT ?= 30
OPTEST_SEED ?= 1
FUZZ_SECONDS ?= 30
# Each stage's heading shows the seconds since make started, so a log says
# where the time went.
STARTED := $(shell date +%s)
ELAPSED = $$(( $$(date +%s) - $(STARTED) )) s

.PHONY: all deps deps-build deps-demo build build-asan demo test test-unit test-python test-ops test-qemu \
	test-target-long bench fuzz lint clean

all: build

# Everything the suite needs (as root it installs it; otherwise it names what is missing).
deps:
	@scripts/deps.sh test

deps-build:
	@scripts/deps.sh build

deps-demo:
	@scripts/deps.sh demo

build: deps-build
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTINYAOT_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

demo: deps-demo build
	@examples/demo/run.sh build/tinyaot

# The parts of the suite, each runnable alone (make test-unit, ...).

# The C tests (ctest) in the plain and the sanitized build.
define run_unit
	@echo "== [$(ELAPSED)] C tests (plain build)"
	@cd build && ctest --output-on-failure -j $(JOBS)
	@echo "== [$(ELAPSED)] C tests (AddressSanitizer + UndefinedBehaviorSanitizer)"
	@cd build-asan && ctest --output-on-failure -j $(JOBS) -E 'qemu|m55|m4|naive'
endef

# The Python package (pyproject.toml, with build/'s tinyaot and libtinyaot.so:
# cmake/prebuilt.cmake, no third compile), then the pytest suites
# (tests/test_*.py) with the sanitized converter and every generated module
# built with ASan+UBSan, on JOBS pytest-xdist workers (each test file on one
# worker, so a file's module-scoped fixtures are built once); the slowest 30
# tests are listed.
define run_python
	@echo "== [$(ELAPSED)] Python package (pip install ., the command and library of build/)"
	@$(PYTHON) -m pip install -q --disable-pip-version-check \
	    -C cmake.define.TINYAOT_PREBUILT_DIR=$(CURDIR)/build .
	@echo "== [$(ELAPSED)] Python suites (sanitized converter and modules, $(JOBS) workers)"
	@TINYAOT_BIN=build-asan/tinyaot TINYAOT_SANITIZE=1 $(PYTHON) -m pytest -q \
	    -n $(JOBS) --dist loadfile --durations=30 tests
endef

# The operator generator's tests: random single-operator models compared
# with TFLite Micro's interpreter (tests/gen, tests/optest.py).
define run_ops
	@echo "== [$(ELAPSED)] Operator tests: $(OPTEST_COUNT) configurations per variant, seed $(OPTEST_SEED)"
	@TINYAOT_BIN=build/tinyaot TINYAOT_SANITIZE=1 $(PYTHON) -m tests.optest \
	    --count $(OPTEST_COUNT) --seed $(OPTEST_SEED) --variants all
endef

# The whole suite, in this order: static analysis, test-unit, test-python,
# test-ops, fuzzing. test-qemu is a selection from test-unit and
# test-python, so it runs as part of those.
test: deps build build-asan
	@echo "== [$(ELAPSED)] Static analysis (clang-tidy analyzer checks, cppcheck)"
	@scripts/lint.sh build
	$(run_unit)
	$(run_python)
	$(run_ops)
	@echo "== [$(ELAPSED)] Coverage-guided fuzzing: seed 1, a fixed number of runs per target (libFuzzer, ASan+UBSan)"
	@scripts/fuzz.sh --replayable
	@echo "== [$(ELAPSED)] make test: every stage passed"

test-unit: deps build build-asan
	$(run_unit)

test-python: deps build build-asan
	$(run_python)

test-ops: deps build
	$(run_ops)

# Everything that runs on Cortex-M under QEMU: the ctest label `qemu` (the
# kit's self-tests, the runtime arena on Cortex-M55) and the pytest marker
# `qemu` (SIMD kernel paths, placed modules, real models on the boards).
test-qemu: deps build
	@echo "== [$(ELAPSED)] QEMU tests (ctest -L qemu)"
	@cd build && ctest --output-on-failure -j $(JOBS) -L qemu
	@echo "== [$(ELAPSED)] QEMU tests (pytest -m qemu)"
	@TINYAOT_BIN=build/tinyaot $(PYTHON) -m pytest -q -s -m qemu tests

# Static analysis alone: no finding is allowed.
lint: deps build
	@scripts/lint.sh build

# The fuzz targets alone, for as long as asked: make fuzz FUZZ_SECONDS=3600
fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS)

# Exactness on target at length: every shared model with 20 random runs
# (stateful ones 40), five times the generated SIMD cases of `make test` and
# every output-over-input case (tests/test_overlap.py), under QEMU on
# Cortex-M55 and Cortex-M4 (about five times as long).
test-target-long: deps build
	@TINYAOT_BIN=build/tinyaot TINYAOT_TARGET_RUNS=20 TINYAOT_SIMD_SCALE=5 \
	    $(PYTHON) -m pytest -q tests/test_target_models.py tests/test_simd.py
	@TINYAOT_BIN=build/tinyaot TINYAOT_SIMD_SCALE=5 \
	    $(PYTHON) -m pytest -q -m qemu tests/test_overlap.py

# Instructions, code and RAM of every shared model on both boards against
# the baselines (prints figures, asserts nothing).
bench: deps build
	@TINYAOT_BIN=build/tinyaot $(PYTHON) -m bench.models

clean:
	rm -rf build build-asan build-fuzz
