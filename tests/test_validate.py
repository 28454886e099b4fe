"""`tinyaot validate`: converts into a temporary directory, builds and runs the
module (host; Cortex-M55 under QEMU), compares with TFLite Micro.

The oracle runs with this test's Python (TINYAOT_PYTHON), which has the
tflite-micro package. Broken on purpose: a compiler wrapper that flips a
weight byte of the generated constants (validate_flip_weight_cc.py), and
expected outputs with one byte changed.
"""

import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

from tests.harness import module, unsupported

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODELS = module.MODELS
FLIP_CC = ROOT / "tests" / "validate_flip_weight_cc.py"
ORACLE = ROOT / "python" / "tinyaot" / "oracle.py"

# Every shared model.
HOST_MODELS = ["tflm_audio_preprocessor_int8", "tflm_hello_world_int8",
               "mlperf_tiny_kws_ref_model", "mlperf_tiny_ad01_int8",
               "mlperf_tiny_ic_resnet8_quant", "tflm_keyword_scrambled",
               "tflm_keyword_scrambled_8bit", "tflm_micro_speech_quantized",
               "tflm_mnist_lstm_int8", "tflm_person_detect", "tflm_simple_add_model"]


def validate(tmp_path, *args, env=None, timeout=1200):
    """Runs tinyaot validate with its temporary directories under
    tmp_path/tmp; returns the CompletedProcess."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    full_env = dict(os.environ, TMPDIR=str(tmp), TINYAOT_PYTHON=sys.executable)
    full_env.update(env or {})
    return subprocess.run([module.tinyaot_bin(), "validate", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=full_env)


def assert_cleaned(tmp_path):
    left = list((tmp_path / "tmp").iterdir())
    assert left == [], f"validate left {left}"


def output_lines(stdout, build):
    return re.findall(r"^  %s.*: output (\d+) '[^']*' \S+: (\d+) of (\d+) bytes differ, "
                      r"largest difference ([^;\s]+)(?:;.*)?$" % re.escape(build), stdout, re.M)


def float_metrics(stdout, build):
    """(max abs error, max ulp error, cosine, elements beyond, elements) of
    each float output line of a build."""
    return [(float(a), int(u), float(c), int(b), int(n)) for a, u, c, b, n in re.findall(
        r"^  %s.*: output \d+ '[^']*' float\S+: .*; max abs error (\S+), max ulp error (\d+), "
        r"cosine similarity (\S+); (\d+) of (\d+) elements beyond the tolerance" % re.escape(build),
        stdout, re.M)]


@pytest.mark.parametrize("name", HOST_MODELS)
def test_validate_passes_on_host(tmp_path, name):
    p = validate(tmp_path, "--model.path", MODELS / f"{name}.tflite", "--runs", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = output_lines(p.stdout, "host")
    assert lines, p.stdout
    for _, differ, total, largest in lines:
        assert differ == "0" and int(total) > 0 and float(largest) == 0
    assert p.stdout.startswith(f"tinyaot validate: reference: TFLite Micro 0.dev"), p.stdout
    assert f"(python {sys.executable})" in p.stdout.splitlines()[0]
    assert "tinyaot validate: OK: every output of every build matches TFLite Micro " in p.stdout
    assert_cleaned(tmp_path)


@pytest.mark.qemu
def test_validate_passes_on_m55_under_qemu(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "mlperf_tiny_kws_ref_model.tflite",
                 "--platform.name", "mps3_an547", "--runs", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    assert output_lines(p.stdout, "host") and output_lines(p.stdout, "mps3-an547 (QEMU)")
    for _, differ, _, _ in output_lines(p.stdout, "mps3-an547 (QEMU)"):
        assert differ == "0"
    assert re.search(r"mps3-an547: module_runner: 2 runs, \d+ instructions per run", p.stdout)
    assert_cleaned(tmp_path)


def test_flipped_weight_byte_fails_and_names_the_output(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "mlperf_tiny_kws_ref_model.tflite",
                 "--runs", "3", env={"CC": f"{sys.executable} {FLIP_CC}"})
    assert p.returncode == 1, p.stdout + p.stderr
    (_, differ, _, largest), = output_lines(p.stdout, "host")
    assert int(differ) > 0 and float(largest) > 0
    assert "MISMATCH: host (" in p.stdout and "output 0 'Identity'" in p.stdout
    assert_cleaned(tmp_path)


@pytest.mark.qemu
def test_flipped_weight_byte_is_caught_on_m55_too(tmp_path):
    """The wrapper flips the weight in the module's source before the host
    build, so the Cortex-M55 build (from the same source) differs too."""
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--platform.name", "mps3_an547", "--runs", "8",
                 env={"CC": f"{sys.executable} {FLIP_CC}"})
    assert p.returncode == 1, p.stdout + p.stderr
    (_, host_differ, _, _), = output_lines(p.stdout, "host")
    (_, qemu_differ, _, _), = output_lines(p.stdout, "mps3-an547 (QEMU)")
    assert int(host_differ) > 0 and int(qemu_differ) > 0
    assert "MISMATCH: host (" in p.stdout
    assert_cleaned(tmp_path)


def test_expected_file_given_by_the_user(tmp_path):
    """--inputs and --expected: the reference without any Python; one byte
    changed in the expected outputs is one differing byte of output 0."""
    model = MODELS / "mlperf_tiny_kws_ref_model.tflite"
    rng = np.random.default_rng(5)
    inputs = tmp_path / "in.bin"
    inputs.write_bytes(rng.integers(-128, 128, 490 * 3, dtype=np.int8).tobytes())
    expected = tmp_path / "expected.bin"
    subprocess.run([sys.executable, str(ORACLE), str(model), str(inputs), str(expected), "3"],
                   check=True, timeout=300)
    p = validate(tmp_path, "--model.path", model, "--inputs", inputs, "--expected", expected,
                 "--python", "/nonexistent/python")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 runs (inputs from" in p.stdout
    assert p.stdout.startswith(f"tinyaot validate: reference: the outputs in {expected}")

    wrong = bytearray(expected.read_bytes())
    wrong[13] ^= 0x01  # run 1, element 1
    bad = tmp_path / "wrong.bin"
    bad.write_bytes(bytes(wrong))
    p = validate(tmp_path, "--model.path", model, "--inputs", inputs, "--expected", bad)
    assert p.returncode == 1, p.stdout + p.stderr
    assert output_lines(p.stdout, "host") == [("0", "1", "36", "1")]
    assert "MISMATCH: host (" in p.stdout and "output 0 'Identity'" in p.stdout
    assert_cleaned(tmp_path)


def test_generated_inputs_are_deterministic(tmp_path):
    def inputs(seed):
        p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                     "--seed", seed, "--runs", "4", "--keep")
        assert p.returncode == 0, p.stdout + p.stderr
        kept = pathlib.Path(re.search(r"kept (\S+)", p.stderr).group(1))
        # A kept directory is the user's: unmarked, no later run removes it.
        assert not (kept / ".tinyaot-owner").exists()
        data = (kept / "inputs.bin").read_bytes()
        shutil.rmtree(kept)
        return data

    first = inputs(7)
    assert len(first) == 4 and first == inputs(7) and first != inputs(8)


def test_without_oracle_the_test_case_is_the_reference(tmp_path):
    """--reference test-case: the module's built-in test case (its stimulus,
    its expected outputs) is the reference, and the first line says it is
    not TFLite Micro."""
    p = validate(tmp_path, "--model.path", MODELS / "tflm_mnist_lstm_int8.tflite",
                 "--reference", "test-case", env={"TINYAOT_PYTHON": "/nonexistent/python3"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("tinyaot validate: reference: the module's built-in test case "
                               "(tinyaot's own kernels; not TFLite Micro)\n"), p.stdout
    assert "(inputs the test case's stimulus)" in p.stdout
    assert "OK: every output of every build matches the module's built-in test case" in p.stdout
    (_, differ, total, _), = output_lines(p.stdout, "host")
    assert differ == "0" and int(total) == 30  # 3 runs of 10 bytes: the LSTM is stateful
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--reference", "test-case", "--inputs", tmp_path / "any.bin")
    assert p.returncode == 3 and "--inputs needs a reference for those inputs" in p.stderr
    assert_cleaned(tmp_path)


def _fake_python(folder, name="python3"):
    """A Python without tflite_micro, as the probe would see one."""
    folder.mkdir(parents=True, exist_ok=True)
    fake = folder / name
    fake.write_text("#!/bin/sh\necho 'ModuleNotFoundError: tflite_micro' >&2\nexit 3\n")
    fake.chmod(0o755)
    return fake


def _python_with_oracle(path):
    """A python3 that runs this test's Python (which has tflite-micro)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    path.chmod(0o755)
    return path


def _installed_copy(folder):
    """The tinyaot binary copied where no Python and no .venv are near it."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / "tinyaot"
    shutil.copy(pathlib.Path(module.tinyaot_bin()).resolve(), exe)
    return exe


def _run_copy(tmp_path, exe, *args, path_dirs=()):
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "TINYAOT_PYTHON"}
    env.update(TMPDIR=str(tmp), PATH=os.pathsep.join([*map(str, path_dirs), "/usr/bin", "/bin"]))
    return subprocess.run([str(exe), "validate", *map(str, args)], capture_output=True,
                          text=True, timeout=600, env=env)


def test_without_tflite_micro_validate_stops_with_status_3(tmp_path):
    """Finding 1 of issue 22: with no Python that has tflite_micro,
    validate used to compare the module with its own test case and say OK
    (exit 0). Now it stops with status 3 naming every Python it tried and
    how to get the oracle."""
    exe = _installed_copy(tmp_path / "opt" / "bin")
    fake = _fake_python(tmp_path / "fakebin")
    p = _run_copy(tmp_path, exe, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                  "--runs", "2", path_dirs=[fake.parent])
    assert p.returncode == 3, p.stdout + p.stderr
    assert "OK" not in p.stdout and "reference:" not in p.stdout
    err = p.stderr
    assert err.startswith("tinyaot validate: no TFLite Micro to compare with"), err
    assert f"{exe.parent}/python3 (beside the tinyaot executable): not there" in err
    assert f"{tmp_path / 'opt'}/.venv/bin/python (the project's .venv): not there" in err
    assert f"{fake} (python3 on PATH): ModuleNotFoundError: tflite_micro" in err
    for how in ("pip install tflite-micro numpy", "make deps", "--python PATH",
                "--expected FILE", "--reference test-case: the outputs tinyaot's own kernels"):
        assert how in err
    assert len(err.strip().splitlines()) == 1, err

    # A Python named by the user is the only one tried.
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--python", fake)
    assert p.returncode == 3
    assert f"tried {fake} (--python): ModuleNotFoundError: tflite_micro." in p.stderr
    assert_cleaned(tmp_path)


def test_the_oracle_is_found_beside_the_executable_or_in_the_project_venv(tmp_path):
    """python3 beside the executable (a venv's bin), then <exe>/../.venv,
    then python3 on PATH: the first with tflite_micro wins and the first
    line names it."""
    model = MODELS / "tflm_hello_world_int8.tflite"
    fakebin = _fake_python(tmp_path / "fakebin").parent
    venv_bin = tmp_path / "venv" / "bin"
    exe = _installed_copy(venv_bin)
    beside = _python_with_oracle(venv_bin / "python3")
    p = _run_copy(tmp_path, exe, "--model.path", model, "--runs", "1", path_dirs=[fakebin])
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[0] == \
        f"tinyaot validate: reference: TFLite Micro {_tflm_version()} (python {beside})"

    clone = tmp_path / "clone"
    exe = _installed_copy(clone / "build")
    in_venv = _python_with_oracle(clone / ".venv" / "bin" / "python")
    p = _run_copy(tmp_path, exe, "--model.path", model, "--runs", "1", path_dirs=[fakebin])
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"(python {in_venv})" in p.stdout.splitlines()[0]
    assert "OK: every output of every build matches TFLite Micro" in p.stdout

    on_path = _python_with_oracle(tmp_path / "goodbin" / "python3")
    exe = _installed_copy(tmp_path / "bare")
    p = _run_copy(tmp_path, exe, "--model.path", model, "--runs", "1",
                  path_dirs=[on_path.parent])
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"(python {on_path})" in p.stdout.splitlines()[0]
    assert_cleaned(tmp_path)


def _tflm_version():
    import tflite_micro
    return tflite_micro.__version__


def test_reference_and_tolerance_options_are_checked(tmp_path):
    model = MODELS / "tflm_hello_world_int8.tflite"
    for args, message in ((["--reference", "auto"], "--reference: 'auto' is not one of: tflm"),
                          (["--tolerance", "-1"], "--tolerance: '-1' is not a finite number"),
                          (["--tolerance", "nan"], "--tolerance: 'nan'"),
                          (["--ulps", "1.5"], "--ulps: '1.5' is not a whole number"),
                          (["--layers", "--reference", "test-case"],
                           "--layers compares with TFLite Micro's tensors")):
        p = validate(tmp_path, "--model.path", model, *args)
        assert p.returncode == 2 and message in p.stderr, (args, p.stderr)


def test_flipped_weight_byte_fails_against_the_test_case(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "mlperf_tiny_kws_ref_model.tflite",
                 "--reference", "test-case", env={"CC": f"{sys.executable} {FLIP_CC}"})
    assert p.returncode == 1, p.stdout + p.stderr
    (_, differ, _, _), = output_lines(p.stdout, "host")
    assert int(differ) > 0
    assert "MISMATCH: host (" in p.stdout and "output 0 'Identity'" in p.stdout
    assert_cleaned(tmp_path)


@pytest.mark.qemu
def test_test_case_reference_on_m55(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "mlperf_tiny_ad01_int8.tflite",
                 "--platform.name", "mps3_an547", "--reference", "test-case")
    assert p.returncode == 0, p.stdout + p.stderr
    (_, differ, _, _), = output_lines(p.stdout, "mps3-an547 (QEMU)")
    assert differ == "0"
    assert_cleaned(tmp_path)


def test_no_compiler_is_said(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 env={"CC": "/nonexistent/cc -O1"})
    assert p.returncode == 3
    assert "no host C compiler: '/nonexistent/cc' ($CC)" in p.stderr
    assert_cleaned(tmp_path)


def test_failed_conversion_removes_the_directory(tmp_path):
    p = validate(tmp_path, "--model.path", unsupported.model(tmp_path))
    assert p.returncode == 3
    assert "not supported" in p.stderr and "the conversion failed" in p.stderr
    assert_cleaned(tmp_path)


def test_help_lists_options_and_every_key(tmp_path):
    p = subprocess.run([module.tinyaot_bin(), "validate", "--help"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0
    for option in ("--runs N", "--seed S", "--inputs FILE", "--expected FILE", "--python PATH",
                   "--no-qemu", "--keep", "--tolerance ABS", "--ulps N", "--layers",
                   "--reference tflm|test-case"):
        assert option in p.stdout
    keys = subprocess.run([module.tinyaot_bin(), "convert", "--help"], capture_output=True,
                          text=True, timeout=60).stdout
    table = keys[keys.index("Configuration keys"):]
    assert table in p.stdout
    p = subprocess.run([module.tinyaot_bin(), "validate", "--runs", "0"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "--runs: '0'" in p.stderr


@pytest.mark.qemu
def test_interrupt_stops_and_removes_the_directory(tmp_path):
    """SIGTERM while the module builds or runs under QEMU: the child is
    stopped, the temporary directory removed, the status 130."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), TINYAOT_PYTHON=sys.executable)
    p = subprocess.Popen([module.tinyaot_bin(), "validate", "--model.path",
                          str(MODELS / "mlperf_tiny_ic_resnet8_quant.tflite"),
                          "--platform.name", "mps3_an547", "--runs", "3"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    # Once the host outputs exist, the QEMU build or run is under way.
    while not list(tmp.glob("*/host_outputs.bin")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp.glob("*/host_outputs.bin")), "validate never ran the host build"
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, out + err
    assert "interrupted" in err
    assert_cleaned(tmp_path)


def test_config_file_with_a_relative_model_path(tmp_path):
    """model.path in a --config file is relative to the file's folder, for
    the conversion and for the oracle alike; validate runs from elsewhere."""
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(MODELS / "tflm_hello_world_int8.tflite", folder / "hw.tflite")
    (folder / "hw.yaml").write_text("model:\n  path: hw.tflite\nmodule:\n  path: unused\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), TINYAOT_PYTHON=sys.executable)
    p = subprocess.run([str(pathlib.Path(module.tinyaot_bin()).resolve()), "validate",
                        "--config", str(folder / "hw.yaml")], capture_output=True, text=True,
                       timeout=600, env=env, cwd=elsewhere)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"tinyaot validate: {folder / 'hw.tflite'} on host" in p.stdout
    assert p.stdout.startswith("tinyaot validate: reference: TFLite Micro ")
    assert not (folder / "unused").exists() and list(elsewhere.iterdir()) == []
    assert_cleaned(tmp_path)


def test_oracle_is_also_a_module_of_the_python_package(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    p = subprocess.run([sys.executable, "-m", "tinyaot.oracle", "--probe"], capture_output=True,
                       text=True, timeout=120, env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("TFLite Micro 0."), p.stderr
    assert "(tflite_micro from " in p.stdout
    p = subprocess.run([sys.executable, "-m", "tinyaot.oracle", "x"], capture_output=True,
                       text=True, timeout=120, env=env, cwd=tmp_path)
    assert p.returncode == 2 and "usage: python -m tinyaot.oracle" in p.stderr


@pytest.mark.qemu
def test_validate_passes_on_m4_under_qemu(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--platform.name", "mps2_an386", "--runs", "4")
    assert p.returncode == 0, p.stdout + p.stderr
    (_, differ, total, _), = output_lines(p.stdout, "mps2-an386 (QEMU)")
    assert differ == "0" and total == "4"
    assert_cleaned(tmp_path)


def test_caller_bound_arenas_on_host_and_m55(tmp_path):
    """memory.allocate_arenas: false: both runners bind every region, and
    load the cold constants of KWS (MRAM on this board) from their sidecar
    file, before model_init."""
    p = validate(tmp_path, "--model.path", MODELS / "mlperf_tiny_kws_ref_model.tflite",
                 "--platform.name", "mps3_an547", "--memory.allocate_arenas", "false",
                 "--runs", "2", "--keep")
    assert p.returncode == 0, p.stdout + p.stderr
    kept = pathlib.Path(re.search(r"kept (\S+)", p.stderr).group(1))
    sidecars = list((kept / "module").glob("*.bin"))
    shutil.rmtree(kept)
    assert sidecars, "the module has no sidecar: the test no longer covers loading one"
    for build in ("host", "mps3-an547 (QEMU)"):
        (_, differ, _, _), = output_lines(p.stdout, build)
        assert differ == "0"


def test_missing_cross_compiler_is_said_and_the_host_still_validated(tmp_path):
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--platform.name", "mps3_an547",
                 env={"ARM_NONE_EABI_GCC": "/nonexistent/arm-none-eabi-gcc"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert output_lines(p.stdout, "host")
    assert "QEMU: not run for mps3_an547: /nonexistent/arm-none-eabi-gcc is not on PATH" \
        in p.stdout
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--platform.name", "mps3_an547", "--no-qemu")
    assert p.returncode == 0 and "QEMU: not run (--no-qemu)" in p.stdout
    assert_cleaned(tmp_path)


def _marker(pid, start):
    return f"tinyaot temporary directory {socket.gethostname()} {pid} {start}\n"


def _start_time(pid):
    """/proc/<pid>/stat field 22, as validate writes it in its marker."""
    stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[19])


def test_killed_validate_leaves_a_directory_the_next_run_removes(tmp_path):
    """kill -9 cannot be caught: the killed run's temporary directory stays,
    and the next validate removes it - only directories named like ours,
    really directories (not symbolic links), owned by us and marked by a
    process of this host that no longer runs. Decoys that fail one of these
    each stay, whatever is behind a symbolic link is not touched."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), TINYAOT_PYTHON=sys.executable)
    hello = str(MODELS / "tflm_hello_world_int8.tflite")
    p = subprocess.Popen([module.tinyaot_bin(), "validate", "--model.path", hello],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 120
    while not list(tmp.glob("tinyaot-validate.*/module")) and time.monotonic() < deadline:
        time.sleep(0.02)
    p.kill()
    p.wait()
    (killed,) = tmp.glob("tinyaot-validate.*")
    assert re.fullmatch(re.escape(_marker(p.pid, "@")).replace("@", r"[1-9]\d*"),
                        (killed / ".tinyaot-owner").read_text())

    dead = _marker(p.pid, 1)
    outside = tmp_path / "outside"  # a symbolic link's target: must survive
    outside.mkdir()
    (outside / ".tinyaot-owner").write_text(dead)
    (outside / "precious").write_text("x")
    decoys = {
        "tinyaot-validate.alive": _marker(os.getpid(), _start_time(os.getpid())),
        "tinyaot-validate.other-host": dead.replace(socket.gethostname(), "elsewhere"),
        "tinyaot-validate.unmarked": None,
        "tinyaot-profile.garbled": "tinyaot temporary directory\n",
        "tinyaot-other.dead": dead,  # not one of our names
    }
    for name, text in decoys.items():
        (tmp / name).mkdir()
        if text is not None:
            (tmp / name / ".tinyaot-owner").write_text(text)
    (tmp / "tinyaot-validate.link").symlink_to(outside, target_is_directory=True)
    (tmp / "tinyaot-profile.linked-marker").mkdir()
    (tmp / "tinyaot-profile.linked-marker" / ".tinyaot-owner").symlink_to(
        outside / ".tinyaot-owner")
    # Killed between mkdtemp and its marker: empty, unmarked, over a minute old.
    abandoned = tmp / "tinyaot-validate.abandoned"
    abandoned.mkdir()
    os.utime(abandoned, (time.time() - 120, time.time() - 120))
    kept_old = tmp / "tinyaot-profile.kept"  # --keep: unmarked, not empty
    kept_old.mkdir()
    (kept_old / "module").write_text("x")
    os.utime(kept_old, (time.time() - 120, time.time() - 120))
    stale_profile = tmp / "tinyaot-profile.stale"
    stale_profile.mkdir()
    (stale_profile / ".tinyaot-owner").write_text(dead)

    again = validate(tmp_path, "--model.path", hello)
    assert again.returncode == 0, again.stdout + again.stderr
    assert not killed.exists() and not stale_profile.exists() and not abandoned.exists()
    assert f"tinyaot validate: removed {killed}, left behind by a run that was killed" \
        in again.stderr
    left = sorted(e.name for e in tmp.iterdir())
    assert left == sorted([*decoys, "tinyaot-validate.link", "tinyaot-profile.linked-marker",
                           "tinyaot-profile.kept"])
    assert (outside / "precious").exists()

