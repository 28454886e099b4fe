#!/bin/sh
# Installs what a make target needs, in three modes (docs/install.md):
#
#   scripts/deps.sh build   a C compiler, CMake, make and libyaml (make build)
#   scripts/deps.sh demo    build + arm-none-eabi-gcc with newlib,
#                           qemu-system-arm and python3 (make demo)
#   scripts/deps.sh test    everything the suite uses (make test; the default):
#                           demo + clang with libFuzzer, python3-venv, chromium,
#                           the oracle's .venv and helia-aot's .venv-helia
#
# Safe to run again: it only does what is missing. As root it installs
# Debian packages with apt-get; otherwise it says which are missing.
set -eu
cd "$(dirname "$0")/.."

mode=${1:-test}
case "$mode" in
build | demo | test) ;;
*)
    echo "usage: scripts/deps.sh [build|demo|test]" >&2
    exit 2
    ;;
esac

need_pkgs=""
have() { command -v "$1" >/dev/null 2>&1; }
have cmake || need_pkgs="$need_pkgs cmake"
have cc || need_pkgs="$need_pkgs gcc"
have make || need_pkgs="$need_pkgs make"
[ -f /usr/include/yaml.h ] || need_pkgs="$need_pkgs libyaml-dev"

if [ "$mode" != build ]; then
    # newlib: without it the compiler cannot find libc.a by name.
    have arm-none-eabi-gcc && [ "$(arm-none-eabi-gcc -print-file-name=libc.a)" != libc.a ] ||
        need_pkgs="$need_pkgs gcc-arm-none-eabi libnewlib-arm-none-eabi"
    have qemu-system-arm || need_pkgs="$need_pkgs qemu-system-arm"
    # examples/firmware/run.sh's module size (module_size.py, standard library only).
    have python3 || need_pkgs="$need_pkgs python3"
fi

if [ "$mode" = test ]; then
    have clang || need_pkgs="$need_pkgs clang"
    # libFuzzer and LeakSanitizer come with clang's runtime package.
    have clang && [ -f "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ] ||
        need_pkgs="$need_pkgs libclang-rt-dev"
    python3 -c 'import venv, ensurepip' 2>/dev/null || need_pkgs="$need_pkgs python3-venv"
    # tests/test_documentation.py renders the module documentation in it.
    have chromium || need_pkgs="$need_pkgs chromium"
fi

if [ -n "$need_pkgs" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "deps ($mode): installing$need_pkgs"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq $need_pkgs >/dev/null
    else
        echo "deps ($mode): missing Debian packages:$need_pkgs (run as root, or install them)" >&2
        exit 1
    fi
fi

[ "$mode" = test ] || exit 0

stamp=.venv/.requirements
if [ ! -x .venv/bin/python ] || ! cmp -s tests/requirements.txt "$stamp"; then
    echo "deps: preparing .venv (the test oracle)"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r tests/requirements.txt
    cp tests/requirements.txt "$stamp"
fi

# helia-aot 1.1.0, the reference product, in a venv of its own: the
# compatibility tests (tests/test_helia_compat.py) convert with it to compare
# its generated headers with ours, and bench/models.py prints its arenas.
# Only its output is used; none of its code or templates enter tinyaot.
stamp=.venv-helia/.requirements
if [ ! -x .venv-helia/bin/helia-aot ] || ! cmp -s tests/requirements-helia.txt "$stamp"; then
    echo "deps: preparing .venv-helia (helia-aot, for the compatibility tests)"
    python3 -m venv .venv-helia
    .venv-helia/bin/pip install -q --disable-pip-version-check -r tests/requirements-helia.txt
    cp tests/requirements-helia.txt "$stamp"
fi
