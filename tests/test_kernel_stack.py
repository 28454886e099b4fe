"""The kernel stack `tinyaot analyze` reports (scripts/flash_sizes.py
measures it from gcc's call graph into src/report/flash_sizes.inc) against
the stack a module really takes on the targets: tests/qemu/module_runner.c
built with -DTA_MEASURE_STACK paints the stack below model_run's caller
and prints how much of it a run wrote.

The report covers the kernels only; model_run's own frame, the operator's
function and an interrupt frame (SysTick counts instructions) come on top,
so the measured figure may exceed it by CALLER_ALLOWANCE at most.
"""

import json
import re
import subprocess

import pytest

from tests.harness import module

CALLER_ALLOWANCE = 384
MODELS = ["tflm_person_detect", "mlperf_tiny_kws_ref_model", "mlperf_tiny_ic_resnet8_quant",
          "tflm_mnist_lstm_int8"]
BOARDS = {"mps3-an547": ("mps3_an547", "cortex-m55"), "mps2-an386": ("mps2_an386", "cortex-m4")}


def analyzed_stack(model, platform):
    p = subprocess.run([module.tinyaot_bin(), "analyze", "--format", "json", "--model.path",
                        str(model), "--platform.name", platform],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["kernel_stack"]


@pytest.mark.qemu
@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("name", MODELS)
def test_reported_kernel_stack_bounds_the_measured_one(tmp_path, name, board):
    platform, cpu = BOARDS[board]
    model = module.MODELS / f"{name}.tflite"
    stack = analyzed_stack(model, platform)
    reported = stack[cpu]
    assert reported > 0 and stack["layer_index"] >= 0

    m = module.convert(model, tmp_path / "m", keys={
        "platform.name": platform,
        "memory.constraints": [{"name": "PSRAM"}, {"name": "MRAM"}]})
    elf = module.build_qemu(m, board=board, defines=["TA_MEASURE_STACK"])
    _, log = module.run_qemu(m, elf, [module.baseline_inputs(m)], board=board)
    measured = int(re.search(r"stack: (\d+) bytes", log).group(1))
    # The measurement sees the kernels at work: at least the kernels'
    # frames without their buffers' untouched ends (a sanity floor that
    # fails when painting or scanning breaks).
    print(f"{name} on {board}: measured {measured}, reported {reported}")
    assert measured >= reported // 4, (measured, reported)
    assert measured <= reported + CALLER_ALLOWANCE, (
        f"{name} on {board}: model_run took {measured} bytes of stack, analyze reports "
        f"{reported} for the kernels (+{CALLER_ALLOWANCE} for the callers): rerun "
        "scripts/flash_sizes.py or find what the call graph misses")


def test_every_kernel_has_a_measured_stack():
    """scripts/flash_sizes.py must be rerun when a kernel is added."""
    inc = (module.ROOT / "src" / "report" / "flash_sizes.inc").read_text()
    measured = set(re.findall(r'TA_KERNEL_STACK\("(\w+)"', inc))
    declared = set()
    for header in (module.ROOT / "runtime" / "kernels").glob("*.h"):
        text = re.sub(r"/\*.*?\*/", "", header.read_text(), flags=re.S)
        declared |= set(re.findall(r"^int\s+(ta_\w+)\s*\(", text, flags=re.M))
    assert declared <= measured, sorted(declared - measured)


def test_python_analysis_gives_the_same_stack():
    import tinyaot
    model = module.MODELS / "tflm_person_detect.tflite"
    cli = analyzed_stack(model, "mps3_an547")
    py = tinyaot.analyze(model_path=str(model), options={"platform.name": "mps3_an547"})
    s = py.analysis.stack
    assert (s.cortex_m55, s.cortex_m4, s.layer_index) == (
        cli["cortex-m55"], cli["cortex-m4"], cli["layer_index"])
    worst = max(py.analysis.operators, key=lambda o: o.kernel_stack_m55)
    assert worst.kernel_stack_m55 == s.cortex_m55
