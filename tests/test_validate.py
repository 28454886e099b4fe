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
                      r"largest difference (\S+)$" % re.escape(build), stdout, re.M)


@pytest.mark.parametrize("name", HOST_MODELS)
def test_validate_passes_on_host(tmp_path, name):
    p = validate(tmp_path, "--model.path", MODELS / f"{name}.tflite", "--runs", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = output_lines(p.stdout, "host")
    assert lines, p.stdout
    for _, differ, total, largest in lines:
        assert differ == "0" and int(total) > 0 and float(largest) == 0
    assert "reference: TFLite Micro's interpreter" in p.stdout
    assert "tinyaot validate: OK" in p.stdout
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
    assert "3 runs (inputs from" in p.stdout and f"reference: the outputs in {expected}" in p.stdout

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
        data = (kept / "inputs.bin").read_bytes()
        shutil.rmtree(kept)
        return data

    first = inputs(7)
    assert len(first) == 4 and first == inputs(7) and first != inputs(8)


def test_without_oracle_the_test_case_is_the_reference(tmp_path):
    """No Python with tflite-micro: a note names the Python and why, and the
    module's built-in test case (its stimulus, its expected outputs) is the
    reference; --reference tflm makes that an error."""
    p = validate(tmp_path, "--model.path", MODELS / "tflm_mnist_lstm_int8.tflite",
                 env={"TINYAOT_PYTHON": "/nonexistent/python3"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no TFLite Micro oracle: Python '/nonexistent/python3' ($TINYAOT_PYTHON) is not an " \
        "executable on PATH; comparing with the expected outputs of the module's built-in " \
        "test case" in p.stderr
    assert "reference: the expected outputs of the module's built-in test case" in p.stdout
    assert "(inputs the test case's stimulus)" in p.stdout
    (_, differ, total, _), = output_lines(p.stdout, "host")
    assert differ == "0" and int(total) == 30  # 3 runs of 10 bytes: the LSTM is stateful

    # A Python without tflite-micro: the probe's own message is shown.
    fake = tmp_path / "python-without-tflm"
    fake.write_text("#!/bin/sh\necho 'ModuleNotFoundError: tflite_micro' >&2\nexit 3\n")
    fake.chmod(0o755)
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--python", fake, "--reference", "tflm")
    assert p.returncode == 3
    assert f"no reference to compare with: {fake} ({fake}, --python) cannot run TFLite " \
        "Micro's interpreter: ModuleNotFoundError: tflite_micro" in p.stderr
    assert "--expected FILE" in p.stderr and "--reference test-case" in p.stderr
    p = validate(tmp_path, "--model.path", MODELS / "tflm_hello_world_int8.tflite",
                 "--reference", "test-case", "--inputs", tmp_path / "any.bin")
    assert p.returncode == 3 and "--inputs needs a reference for those inputs" in p.stderr
    assert_cleaned(tmp_path)


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
                   "--no-qemu", "--keep"):
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
    assert "reference: TFLite Micro's interpreter" in p.stdout
    assert not (folder / "unused").exists() and list(elsewhere.iterdir()) == []
    assert_cleaned(tmp_path)


def test_oracle_is_also_a_module_of_the_python_package(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    p = subprocess.run([sys.executable, "-m", "tinyaot.oracle", "--probe"], capture_output=True,
                       text=True, timeout=120, env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.startswith("tflite_micro from "), p.stderr
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
