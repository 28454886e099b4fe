"""The Helium (Cortex-M55) and DSP (Cortex-M4) kernel paths against the
oracle: random generated models of the operators with SIMD code, run under
QEMU. (The rest of the suite runs the portable paths on the host.)"""

import numpy as np
import pytest

from tests.gen import variants
from tests.harness import batch, difftest, oracle

VARIANTS = ["CONV_2D.int8", "CONV_2D.int16", "CONV_2D.int8_grouped", "DEPTHWISE_CONV_2D.int8",
            "DEPTHWISE_CONV_2D.int8_wide", "DEPTHWISE_CONV_2D.int16", "FULLY_CONNECTED.int8",
            "FULLY_CONNECTED.int16", "CHAIN.conv_pool", "CHAIN.dw_conv"]
BOARDS = [("mps3-an547", "mps3_an547"), ("mps2-an386", "mps2_an386")]
PER_VARIANT = 12


@pytest.mark.parametrize("board,target", BOARDS, ids=[b for b, _ in BOARDS])
def test_simd_paths_match_tflm(tmp_path, board, target):
    cases = []
    for name in VARIANTS:
        rng = np.random.default_rng([77] + [ord(c) for c in name])
        cases += [v for v in (variants.ALL[name].draw(rng) for _ in range(PER_VARIANT))]
    # Every arena in the big RAM and constants in the read-only memory: the
    # cases share one image.
    memories = [{"name": "PSRAM"}, {"name": "MRAM"}]
    b = batch.build_batch_qemu([(c.name, c.model) for c in cases], tmp_path, board, target,
                               keys={"memory.constraints": memories})
    bad, total = [], 0
    for i, case in enumerate(cases):
        assert b.modules[i] is not None, b.errors.get(i)
        runs = oracle.random_inputs(case.model, np.random.default_rng([5, i]), 2)
        ours = batch.run_case_qemu(b, i, runs)
        n, d = difftest._count_diff(ours, oracle.run_tflm(case.model, runs, isolated=True))
        total += n
        if d:
            bad.append(f"{case.name}: {d} of {n} bytes differ; {case.config}")
    assert total > 0 and not bad, "\n".join(bad[:5])
