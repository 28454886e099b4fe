"""`tinyaot profile`: per-operator instructions of a module on the Cortex-M55
and the Cortex-M4 under QEMU (text and JSON), checked against `tinyaot
analyze` (operators, MACs) and against itself (the operators' sum and the
whole run, with and without the callback); the refusal of other platforms;
and examples/op_timer, the operator timer a firmware drops in: built
warning-free for both cores, its DWT clock found missing under QEMU, and,
with the instruction counter plugged in as its clock, the figures of
`tinyaot profile`.
"""

import json
import os
import pathlib
import re
import signal
import subprocess
import time

import pytest

from tests.harness import doc_commands as dc
from tests.harness import module

ROOT = module.ROOT
KWS = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"  # CONV_2D, DEPTHWISE, FC, ...
BOARDS = {"mps3_an547": ("mps3-an547", 125, 128), "mps2_an386": ("mps2-an386", 5, 4)}
RUN_SH = ROOT / "tests" / "qemu" / "run.sh"
OP_TIMER = ROOT / "examples" / "op_timer"

_cache = {}


def tinyaot(tmp, *args, timeout=900):
    tmp.mkdir(parents=True, exist_ok=True)
    return subprocess.run([module.tinyaot_bin(), *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ, TMPDIR=str(tmp)))


def profile(tmp_path, platform, fmt):
    """(CompletedProcess, temp dir) of profile on KWS; asserts it cleaned up."""
    tmp = tmp_path / f"tmp-{platform}-{fmt}"
    # Layer by layer: with its row chain the keyword spotter's chained layers
    # run (and count) at layer 0 (docs/profiling.md).
    p = tinyaot(tmp, "profile", "--model.path", KWS, "--platform.name", platform,
                "--format", fmt, "--memory.row_streaming", "off")
    assert p.returncode == 0, p.stderr
    assert list(tmp.iterdir()) == [], "profile left its temporary directory"
    return p


def profile_json(tmp_path_factory, platform):
    if platform not in _cache:
        p = profile(tmp_path_factory.mktemp("profile"), platform, "json")
        _cache[platform] = json.loads(p.stdout)
    return _cache[platform]


def analyze(platform):
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--format", "json", "--model.path",
                        str(KWS), "--platform.name", platform, "--memory.row_streaming", "off"],
                       capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.qemu
@pytest.mark.parametrize("platform", list(BOARDS))
def test_json_matches_analyze_and_adds_up(tmp_path_factory, platform):
    d = profile_json(tmp_path_factory, platform)
    a = analyze(platform)
    ops = d["operators"]
    assert d["platform"] == platform and d["board"] == BOARDS[platform][0]
    assert d["unit"] == "instructions" and d["runs"] == 3
    # Every operator of analyze, in schedule order, with its MACs.
    assert [o["layer_index"] for o in ops] == list(range(len(a["operators"])))
    assert [o["type"] for o in ops] == [o["type"] for o in a["operators"]]
    assert [o["macs"] for o in ops] == [o["macs"] for o in a["operators"]]
    assert sum(o["macs"] or 0 for o in ops) == a["total_macs"] > 0
    assert {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"} <= {o["type"] for o in ops}
    for o in ops:
        if o["macs"]:
            assert o["instructions"] > 0, o
            assert o["instructions_per_mac"] == pytest.approx(o["instructions"] / o["macs"],
                                                              rel=1e-5)
            # No kernel does a MAC in under a tenth of an instruction, nor
            # needs a hundred.
            assert 0.1 < o["instructions_per_mac"] < 100, o
        else:
            assert o["instructions_per_mac"] is None
        assert o["share"] == pytest.approx(o["instructions"] / d["whole_run"], rel=1e-5)
    assert d["operators_total"] == sum(o["instructions"] for o in ops)
    n = len(ops)
    assert d["callbacks"] == n
    # The whole run (around model_run, the callbacks' instructions removed)
    # holds every operator and a little glue: the schedule loop, the checks.
    # Without the callback's own cost removed from each operator the glue
    # goes negative; without the callbacks removed from the whole run it
    # grows by about 85 per operator.
    assert d["glue"] == d["whole_run"] - d["operators_total"]
    assert 0 <= d["glue"] <= 40 * n + 200, d
    assert d["whole_run_with_callback"] > d["whole_run"]
    # The third run, without the callback, agrees with the corrected whole.
    assert len(d["warm_runs"]) == 1
    assert abs(d["whole_run"] - d["warm_runs"][0]) <= 10 * n + 100, d
    assert abs(d["cold_run"] - d["warm_runs"][0]) <= 0.01 * d["warm_runs"][0]


@pytest.mark.qemu
@pytest.mark.parametrize("platform", list(BOARDS))
def test_text_shows_the_json_figures(tmp_path, tmp_path_factory, platform):
    d = profile_json(tmp_path_factory, platform)
    text = profile(tmp_path, platform, "text").stdout
    assert text.startswith(f"tinyaot profile: {KWS} on {platform} (")
    rows = re.findall(r"^ +(\d+)  (\S+) +(\d+) +(\S+) +(\S+) +([\d.]+)%  (.*)$", text, re.M)
    assert len(rows) == len(d["operators"])
    for row, o in zip(rows, d["operators"]):
        index, type_, instructions, macs, per_mac, share, output = row
        assert (int(index), type_, int(instructions)) == (o["layer_index"], o["type"],
                                                          o["instructions"])
        assert macs == (str(o["macs"]) if o["macs"] is not None else "-")
        assert per_mac == (f"{o['instructions_per_mac']:.3f}" if o["instructions_per_mac"]
                           else "-")
        assert float(share) == pytest.approx(100 * o["share"], abs=0.051)
        assert output == o["output"] or (output.endswith("...")
                                         and o["output"].startswith(output[:-3]))
    assert f"\noperators: {d['operators_total']} instructions" in text
    assert f"\nwhole run: {d['whole_run']} instructions" in text
    assert f"\nglue:      {d['glue']} instructions" in text


def test_other_platforms_are_refused_in_one_line(tmp_path):
    for platform in ("host", "apollo510_evb"):
        p = tinyaot(tmp_path / platform, "profile", "--model.path", KWS, "--platform.name",
                    platform)
        assert p.returncode == 3 and p.stdout == ""
        assert p.stderr == (f"tinyaot profile: platform '{platform}' cannot be profiled: "
                            "profile runs the module under QEMU on mps3_an547 (Cortex-M55) or "
                            "mps2_an386 (Cortex-M4F); set --platform.name to one of them\n")
        assert list((tmp_path / platform).iterdir()) == []


# docs/profiling.md shows how to run this file: it is run here, not again.
@dc.doc_command(".venv/bin/python -m pytest -q tests/test_profile.py")
def test_usage_errors(tmp_path):
    for args, message in ((["--format", "xml"], "--format: 'xml' is not one of: text, json"),
                          (["--runs", "1"], "--runs: '1' is not a whole number from 2 to 1000"),
                          (["--runs"], "--runs needs a value"),
                          (["model.tflite"], "unexpected argument 'model.tflite'")):
        p = tinyaot(tmp_path, "profile", "--model.path", KWS, *args)
        assert p.returncode == 2 and message in p.stderr, (args, p.stderr)
        assert "usage: tinyaot profile" in p.stderr
    p = tinyaot(tmp_path, "profile", "--help")
    assert p.returncode == 0 and "instructions per MAC" in p.stdout
    assert "tinyaot profile [--config FILE]" in tinyaot(tmp_path, "--help").stdout


def run_op_timer(module_dir, board, *extra):
    """Builds examples/op_timer/main.c with the module for `board` through
    the kit's run.sh (-Wall -Wextra -Werror) and runs it."""
    cmd = ["bash", str(RUN_SH), "-b", board, "-DTA_PREFIX=kws",
           "-DTA_NUM_OPERATORS=KWS_NUM_OPERATORS", *extra, "-I", str(module_dir), "-I",
           str(OP_TIMER), str(OP_TIMER / "main.c"), str(OP_TIMER / "ta_op_timer.c"),
           *module.sources(module_dir)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


@pytest.mark.qemu
@pytest.mark.parametrize("platform", list(BOARDS))
def test_op_timer_dwt_and_swapped_clock(tmp_path, tmp_path_factory, platform):
    board, num, den = BOARDS[platform]
    m = module.convert(KWS, tmp_path / "kws", "kws",
                       keys={"platform.name": platform, "module.schedule": "table",
                             "memory.row_streaming": "off"})  # as profile_json
    n = len(m.views["operators"])
    # DWT: builds warning-free; QEMU implements no CYCCNT (it reads 0), so
    # ta_dwt_enable() says so and the example stops with status 2.
    p = run_op_timer(m.path, board)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "op_timer: no cycle counter" in p.stdout
    # The instruction counter plugged in as the clock: one callback pair per
    # operator, in order, and the figures of tinyaot profile.
    p = run_op_timer(m.path, board, "-DTA_OP_TIMER_CLOCK=ta_icount_clock",
                     "-DTA_OP_TIMER_CLOCK_START=ta_icount_clock_start", "--cflags",
                     "-include icount.h")
    assert p.returncode == 0, p.stdout + p.stderr
    lines = re.findall(r"^op_timer: op (\d+): (\d+) ticks$", p.stdout, re.M)
    assert [int(i) for i, _ in lines] == list(range(n))
    assert f"op_timer: {n} operators timed, 0 out of order" in p.stdout
    d = profile_json(tmp_path_factory, platform)
    for (_, ticks), o in zip(lines, d["operators"]):
        instructions = (int(ticks) * num + den // 2) // den
        # Its input is zeros, profile's random: allow data-dependent paths.
        assert abs(instructions - o["instructions"]) <= 0.01 * o["instructions"] + 5, o


@pytest.mark.qemu
def test_ctrl_c_stops_and_removes_the_directory(tmp_path):
    """SIGINT while the module builds or runs: the child is stopped, the
    temporary directory removed, the status 130."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.Popen([module.tinyaot_bin(), "profile", "--model.path", str(KWS),
                          "--platform.name", "mps3_an547"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, TMPDIR=str(tmp)))
    deadline = time.monotonic() + 300
    # Once the input is written, the build is under way.
    while not list(tmp.glob("*/inputs.bin")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp.glob("*/inputs.bin")), "profile never wrote its input"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, out + err
    assert "tinyaot profile: interrupted" in err
    assert list(tmp.iterdir()) == []


def test_op_timer_compiles_warning_free_with_clang_and_gcc():
    """The drop-in's own files (main.c needs a module: the QEMU test builds
    it) for both cores with clang, and for the host with gcc and clang."""
    cores = [["--target=arm-none-eabi", "-mcpu=cortex-m55", "-mfloat-abi=hard"],
             ["--target=arm-none-eabi", "-mcpu=cortex-m4", "-mfloat-abi=hard",
              "-mfpu=fpv4-sp-d16"]]
    for cc, flags in [("clang", cores[0]), ("clang", cores[1]), ("clang", []), ("gcc", [])]:
        p = subprocess.run([cc, *flags, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                            "-fsyntax-only", str(OP_TIMER / "ta_op_timer.c")],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0 and p.stderr == "", (cc, flags, p.stderr)


@pytest.mark.qemu
def test_config_file_and_a_fully_connected_model(tmp_path):
    """--config as convert takes it (model.path relative to the file's
    folder), the run elsewhere; MACs of every FULLY_CONNECTED as analyze
    counts them."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "ad.tflite").write_bytes((module.MODELS / "mlperf_tiny_ad01_int8.tflite")
                                       .read_bytes())
    (folder / "ad.yaml").write_text("model:\n  path: ad.tflite\nplatform:\n  name: mps2_an386\n")
    (folder / "in.bin").write_bytes(bytes(range(256)) * 2 + bytes(128))  # int8[1x640]
    # The input must be one run's bytes.
    p = tinyaot(tmp_path / "tmp", "profile", "--config", folder / "ad.yaml", "--inputs",
                folder / "ad.yaml")
    assert p.returncode == 3 and p.stdout == ""
    assert re.search(r"--inputs: \S+ad.yaml holds \d+ bytes; one run of the model's inputs is "
                     r"640 bytes\n", p.stderr), p.stderr
    p = tinyaot(tmp_path / "tmp", "profile", "--config", folder / "ad.yaml", "--format", "json",
                "--runs", "2", "--inputs", folder / "in.bin")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    a = subprocess.run([module.tinyaot_bin(), "analyze", "--format", "json", "--config",
                        str(folder / "ad.yaml")], capture_output=True, text=True, timeout=300)
    ops = json.loads(a.stdout)["operators"]
    assert d["platform"] == "mps2_an386" and d["runs"] == 2 and d["warm_runs"] == []
    assert [o["type"] for o in d["operators"]] == [o["type"] for o in ops]
    assert {o["type"] for o in ops} == {"FULLY_CONNECTED"}
    assert [o["macs"] for o in d["operators"]] == [o["macs"] for o in ops]
    assert all(o["instructions"] > o["macs"] > 0 for o in d["operators"])
    assert 0 <= d["glue"] <= 40 * len(ops) + 200
