#!/usr/bin/env python3
"""Builds the demo model: a tiny waveform classifier, trained and quantized
here so the project ships a model it made itself.

A 16-sample window is one of four shapes: flat, rising, falling or
oscillating (plus noise). The network is
    float32[1,16] -> QUANTIZE -> FULLY_CONNECTED(32, RELU, per-channel)
    -> FULLY_CONNECTED(4, per-tensor) -> SOFTMAX -> DEQUANTIZE -> float32[1,4]
The hidden layer is a fixed random projection; only the output layer is
trained (softmax regression by gradient descent). Everything is seeded, so
the files are the same on every run:

    .venv/bin/python examples/demo/make_model.py   # writes demo.tflite, inputs.bin
"""

import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from tests.gen.builder import ModelBuilder, Q  # noqa: E402

CLASSES = ["flat", "rising", "falling", "oscillating"]


def windows(rng, n):
    t = np.linspace(0.0, 1.0, 16)
    xs, ys = [], []
    for _ in range(n):
        c = int(rng.integers(4))
        level = rng.uniform(-1, 1)
        amp = rng.uniform(0.5, 1.5)
        x = [np.full(16, level), level + amp * t, level - amp * t,
             amp * np.sin(2 * np.pi * rng.uniform(2, 4) * t + rng.uniform(0, 6))][c]
        xs.append(x + rng.normal(0, 0.1, 16))
        ys.append(c)
    return np.array(xs, np.float32), np.array(ys)


def train():
    rng = np.random.default_rng(7)
    x, y = windows(rng, 4000)
    w1 = rng.normal(0, 0.5, (32, 16)).astype(np.float32)
    b1 = rng.normal(0, 0.1, 32).astype(np.float32)
    h = np.maximum(x @ w1.T + b1, 0)
    w2 = np.zeros((4, 32), np.float32)
    b2 = np.zeros(4, np.float32)
    onehot = np.eye(4)[y]
    for _ in range(1500):
        z = h @ w2.T + b2
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        g = (p - onehot) / len(x)
        w2 -= 0.5 * (g.T @ h).astype(np.float32)
        b2 -= 0.5 * g.sum(0).astype(np.float32)
    acc = float(((h @ w2.T + b2).argmax(1) == y).mean())
    return w1, b1, w2, b2, x, h, acc


def symmetric(w, axis=None):
    """Per-channel (axis 0) or per-tensor int8 weights with zero point 0."""
    m = np.abs(w).max(axis=1) if axis == 0 else np.abs(w).max()
    scale = np.maximum(m, 1e-8) / 127.0
    s = scale[:, None] if axis == 0 else scale
    return np.clip(np.round(w / s), -127, 127).astype(np.int8), np.atleast_1d(scale).astype(np.float32)


def affine(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / 255.0
    return np.float32(scale), int(np.clip(round(-128 - lo / scale), -128, 127))


def build():
    w1, b1, w2, b2, x, h, acc = train()
    in_s, in_z = affine(float(x.min()), float(x.max()))
    h_s, h_z = affine(0.0, float(h.max()))
    z = h @ w2.T + b2
    z_s, z_z = affine(float(z.min()), float(z.max()))
    q1, s1 = symmetric(w1, axis=0)
    q2, s2 = symmetric(w2)
    bias1 = np.round(b1 / (in_s * s1)).astype(np.int32)
    bias2 = np.round(b2 / (h_s * s2[0])).astype(np.int32)

    b = ModelBuilder(description="tinyaot demo: waveform classifier")
    xf = b.tensor([1, 16], "float32", name="window")
    xq = b.tensor([1, 16], "int8", Q(in_s, in_z), name="window_q")
    hid = b.tensor([1, 32], "int8", Q(h_s, h_z), name="hidden")
    logits = b.tensor([1, 4], "int8", Q(z_s, z_z), name="logits")
    prob_q = b.tensor([1, 4], "int8", Q(1.0 / 256, -128), name="probabilities_q")
    prob = b.tensor([1, 4], "float32", name="probabilities")
    w1t = b.const(q1, "int8", Q(s1, 0, axis=0), name="dense1/weights")
    b1t = b.const(bias1, "int32", Q(in_s * s1, 0), name="dense1/bias")
    w2t = b.const(q2, "int8", Q(s2, 0), name="dense2/weights")
    b2t = b.const(bias2, "int32", Q(h_s * s2, 0), name="dense2/bias")
    b.op("QUANTIZE", [xf], [xq])
    b.op("FULLY_CONNECTED", [xq, w1t, b1t], [hid], "FullyConnectedOptions",
         fusedActivationFunction=1)
    b.op("FULLY_CONNECTED", [hid, w2t, b2t], [logits], "FullyConnectedOptions")
    b.op("SOFTMAX", [logits], [prob_q], "SoftmaxOptions", beta=1.0)
    b.op("DEQUANTIZE", [prob_q], [prob])
    return b.build(inputs=[xf], outputs=[prob]), acc


def main():
    model, acc = build()
    (HERE / "demo.tflite").write_bytes(model)
    # One example window of each class, in class order.
    rng = np.random.default_rng(11)
    picks = []
    while len(picks) < 4:
        x, y = windows(rng, 1)
        if int(y[0]) == len(picks):
            picks.append(x[0])
    (HERE / "inputs.bin").write_bytes(np.array(picks, np.float32).tobytes())
    print(f"demo.tflite: {len(model)} bytes, float training accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
