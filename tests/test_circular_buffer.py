"""CIRCULAR_BUFFER, TFLite Micro's stateful custom operator (int8): the
window of the last inputs is persistent state, zero after model_init.
TFLite Micro keeps the window in its output tensor, which starts as
whatever its arena held, so before the window has filled only the slots
already written can be compared: those must match TFLite Micro byte for
byte and the rest must be zero. Refusals: cycles_max other than 1 (TFLite
Micro then skips the rest of the graph on some runs), a batch above 1."""

import numpy as np
import pytest
from flatbuffers import flexbuffers

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module, oracle
from tests.harness.refusals import refusal


def _model(slots, h, w, options=None, batch=1):
    b = ModelBuilder()
    x = b.tensor([batch, 1, h, w], "int8", Q(0.1, 3), name="input")
    y = b.tensor([batch, slots, h, w], "int8", Q(0.1, 3), name="output")
    opts = b"" if options is None else flexbuffers.Dumps(options)
    b.custom_op("CIRCULAR_BUFFER", [x], [y], opts)
    return b.build([x], [y])


@pytest.mark.parametrize("slots,h,w,options", [
    (3, 2, 3, {"cycles_max": 1}),
    (1, 4, 4, {"cycles_max": 1}),
    (5, 1, 7, None),          # TFLite Micro's default for 5 slots is cycles_max 1
    (13, 2, 2, {"cycles_max": 0}),
])
def test_circular_buffer_matches_tflite_micro_on_written_slots(tmp_path, slots, h, w, options):
    model = _model(slots, h, w, options)
    rng = np.random.default_rng(slots * 100 + h * 10 + w)
    n_runs = slots + 3
    runs = [[rng.integers(-128, 128, size=[1, 1, h, w], dtype=np.int8)] for _ in range(n_runs)]
    ref = oracle.run_tflm(model, runs, isolated=True)
    (tmp_path / "m.tflite").write_bytes(model)
    m = module.convert(tmp_path / "m.tflite", tmp_path / "mod")
    ours = module.run(m, module.build(m), runs)
    for k in range(n_runs):
        written = min(k + 1, slots)
        got, want = ours[k][0].reshape(slots, -1), ref[k][0].reshape(slots, -1)
        assert np.array_equal(got[slots - written:], want[slots - written:]), k
        assert not got[:slots - written].any(), k
        assert np.array_equal(got[-1], runs[k][0].reshape(-1)), k


@pytest.mark.parametrize("slots,options,shown", [
    (3, {"cycles_max": 2}, 2),
    (3, None, 0),
])
def test_circular_buffer_other_cycles_are_refused(tmp_path, slots, options, shown):
    line = refusal(_model(slots, 2, 2, options), tmp_path)
    assert f"operator 0 (CIRCULAR_BUFFER): cycles_max {shown} is not supported" in line, line


def test_circular_buffer_batch_above_one_is_refused(tmp_path):
    line = refusal(_model(3, 2, 2, {"cycles_max": 1}, batch=2), tmp_path)
    assert "operator 0 (CIRCULAR_BUFFER): batch 2 is not supported" in line, line


def test_generator_comparison_checks_written_slots_and_zeros():
    """The generator variant's comparison (tests/gen/ops/stateful.py) counts
    a changed written slot and a non-zero unwritten slot as differences, and
    ignores what TFLite Micro holds in the slots it has not written."""
    from tests.gen.ops.stateful import _written_slots_compare as compare
    rng = np.random.default_rng(5)
    want = [[rng.integers(-128, 128, size=[1, 3, 2, 2], dtype=np.int8)] for _ in range(2)]
    ours = [[w[0].copy()] for w in want]
    for k in range(2):
        ours[k][0][0, :3 - (k + 1)] = 0  # unwritten: zero in ours, anything in TFLM
    assert compare(ours, want) == (24, 0)
    ours[1][0][0, 2, 1, 1] ^= 1          # a written slot differs
    assert compare(ours, want) == (24, 1)
    ours[1][0][0, 2, 1, 1] ^= 1
    ours[0][0][0, 0, 0, 0] = 1           # an unwritten slot is not zero
    assert compare(ours, want)[1] == 1
