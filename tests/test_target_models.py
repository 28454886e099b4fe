"""Every shared model tinyaot converts, run on the targets: Cortex-M55
(mps3-an547, Helium kernels) and Cortex-M4 (mps2-an386, DSP kernels) under
QEMU, outputs byte-equal to TFLite Micro's interpreter on the host.

Each model gets the benchmarks' input (x[i] = (i*7+3)%256 - 128, module.
baseline_inputs) as its first run after model_init, then random runs, one after
the other on one module instance (so the stateful models are compared over
a sequence, from the same initial state as TFLM's). All models of a board
share one image and one emulation (tests/harness/batch.py) per board.

TINYAOT_TARGET_RUNS sets the random runs per model (default 3; stateful
models get twice as many); `make test-target-long` runs 20.
"""

import os

import numpy as np
import pytest

from tests.harness import batch, difftest, module, oracle
from tests.test_models import CONVERTED

RANDOM_RUNS = int(os.environ.get("TINYAOT_TARGET_RUNS", "3"))
NAMES = sorted(CONVERTED)
BOARDS = {"mps3-an547": "mps3_an547", "mps2-an386": "mps2_an386"}


def stateful(data):
    """A model with variable tensors (SVDF and LSTM states) or the Signal
    library's noise estimate (the audio preprocessor)."""
    m = oracle._model_obj(data)
    return (any(t.isVariable for t in m.subgraphs[0].tensors) or
            any(oc.customCode == b"SignalFilterBankSpectralSubtraction" for oc in m.operatorCodes))


@pytest.fixture(scope="module", params=sorted(BOARDS))
def board_batch(request, tmp_path_factory):
    board = request.param
    work = tmp_path_factory.mktemp(f"target-{board}")
    cases = [(n, (module.MODELS / f"{n}.tflite").read_bytes()) for n in NAMES]
    # Arenas in the big RAM and constants in the read-only memory, so that
    # every model fits one image.
    memories = [{"name": "PSRAM"}, {"name": "MRAM"}]
    b = batch.build_batch_qemu(cases, work, board, BOARDS[board],
                               keys={"memory.constraints": memories})
    data = dict(cases)
    # Every model in one emulation; each test then checks its own outputs.
    results = batch.run_cases_qemu(b, [(i, runs_for(b.modules[i], data[n], i))
                                       for i, n in enumerate(NAMES) if b.modules[i]])
    return board, b, data, results


def test_every_shared_model_tinyaot_converts_is_tested_on_target(tmp_path):
    """NAMES is the real-model suite's list: a shared model tinyaot starts
    to convert must be added there, and so is tested here."""
    for path in sorted(module.MODELS.glob("*.tflite")):
        if path.stem not in CONVERTED:
            with pytest.raises(module.ConvertError):
                module.convert(path, tmp_path / path.stem)


def runs_for(m, data, index):
    """The baseline input, then random ones."""
    n_random = RANDOM_RUNS * (2 if stateful(data) else 1)
    rng = np.random.default_rng([2031, index])
    return [module.baseline_inputs(m)] + oracle.random_inputs(data, rng, n_random)


@pytest.mark.parametrize("index,name", list(enumerate(NAMES)), ids=NAMES)
def test_model_on_target_matches_tflm(board_batch, index, name):
    board, b, data, results = board_batch
    m = b.modules[index]
    assert m is not None, b.errors.get(index)
    runs = runs_for(m, data[name], index)
    ours = results[index]
    assert not isinstance(ours, str), ours
    expected = oracle.run_tflm(data[name], runs, isolated=True)
    total, diff = difftest._count_diff(ours, expected)
    assert total > 0
    assert diff == 0, f"{name} on {board}: {diff} of {total} output bytes differ from TFLM"
