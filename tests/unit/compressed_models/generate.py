"""Writes the compressed models test_reader_fuzz mutates (ctest
reader_fuzz_compressed): a FULLY_CONNECTED whose weights and bias the
wheel's tool LUT-compresses per channel, and DECODE outputs decoded from
Huffman and Prune encodings (tests/harness/tflm_decode.py). Run from the
repository root:
    PYTHONPATH=. .venv/bin/python tests/unit/compressed_models/generate.py"""

import pathlib

import numpy as np

from tests.gen.builder import ModelBuilder, Q
from tests.harness import tflm_decode as td

HERE = pathlib.Path(__file__).parent


def lut_fully_connected():
    rng = np.random.default_rng(1)
    b = ModelBuilder()
    x = b.tensor([1, 8], "int8", Q(0.05, 1), name="input")
    pools = [rng.integers(-127, 128, 4) for _ in range(3)]
    w = b.tensor([3, 8], "int8", Q([0.01, 0.02, 0.03], 0, 0), name="weights",
                 data=np.stack([rng.choice(p, 8) for p in pools]))
    bias = b.tensor([3], "int32", Q([5e-4, 1e-3, 1.5e-3], 0, 0), name="bias",
                    data=[10, -20, 30])
    y = b.tensor([1, 3], "int8", Q(0.1, 0), name="output")
    b.op("FULLY_CONNECTED", [x, w, bias], [y], "FullyConnectedOptions")
    return td.compress_lut(b.build([x], [y]), [(w, 0), (bias, 0)], 2)


def main():
    (HERE / "lut_fully_connected.tflite").write_bytes(lut_fully_connected())
    values = np.array([1, 1, 1, 2, 2, 3, 4, 1, 1, 2, 1, 5], np.int8).reshape(3, 4)
    enc, anc = td.huffman(values, False, 2)
    (HERE / "huffman.tflite").write_bytes(td.decode_model([3, 4], "int8", enc, anc))
    pruned = np.array([[0, 4, 0, 6], [7, 0, 0, 9]], np.int16)
    enc, anc = td.prune(pruned)
    (HERE / "prune.tflite").write_bytes(td.decode_model([2, 4], "int16", enc, anc))


if __name__ == "__main__":
    main()
