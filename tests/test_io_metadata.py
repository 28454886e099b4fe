"""I/O metadata of <prefix>_model.h: the per-input/output macros, whether a run
may overwrite an input, and <prefix>_quantize_input / _dequantize_output
against TFLite Micro's own QUANTIZE and DEQUANTIZE on many values (ties,
saturation, extremes), int8 and int16."""

import os
import re
import subprocess

import numpy as np
import pytest

from tests.gen.common import ModelBuilder, Q
from tests.harness import module, oracle

MODELS = module.MODELS
KWS = MODELS / "mlperf_tiny_kws_ref_model.tflite"
ADD = MODELS / "tflm_simple_add_model.tflite"

MACROS = r"""
#include <stdio.h>
#include <string.h>
#include "m_model.h"

int main(void)
{
    static const int dims[] = M_INPUT0_DIMS;
    static const int out_dims[] = M_OUTPUT0_DIMS;
    m_model_context_t ctx;
    if (m_model_init(&ctx) != 0)
        return 2;
    size_t elements = 1;
    for (int d = 0; d < M_INPUT0_NDIMS; d++)
        elements *= (size_t)dims[d];
    printf("dtype %d int8 %d ndims %d dims", M_INPUT0_DTYPE, TA_IO_DTYPE_INT8, M_INPUT0_NDIMS);
    for (int d = 0; d < M_INPUT0_NDIMS; d++)
        printf(" %d", dims[d]);
    printf("\nsize %d ctx %zu elements %zu\n", M_INPUT0_SIZE, ctx.inputs[0].size, elements);
    printf("scale %.9g zp %d\n", (double)M_INPUT0_SCALE, M_INPUT0_ZERO_POINT);
    printf("out ndims %d last %d size %d scale %.9g zp %d quantized %d\n", M_OUTPUT0_NDIMS,
           out_dims[M_OUTPUT0_NDIMS - 1], M_OUTPUT0_SIZE, (double)M_OUTPUT0_SCALE,
           M_OUTPUT0_ZERO_POINT, M_OUTPUT0_QUANTIZED);
    /* Bad arguments are refused. */
    float x[1] = {0.0f};
    printf("refusals %d %d %d %d\n", m_quantize_input(NULL, 0, x, 1),
           m_quantize_input(&ctx, 1, x, 1), m_quantize_input(&ctx, 0, x, M_INPUT0_SIZE + 1),
           m_dequantize_output(&ctx, 0, NULL, 1));
    /* Does a run leave the input as it was? */
    signed char *in = ctx.inputs[0].data;
    for (size_t i = 0; i < ctx.inputs[0].size; i++)
        in[i] = (signed char)(i * 7 + 3);
    if (m_model_run(&ctx) != 0)
        return 3;
    size_t changed = 0;
    for (size_t i = 0; i < ctx.inputs[0].size; i++)
        changed += in[i] != (signed char)(i * 7 + 3);
    printf("overwritten %d changed %zu\n", M_INPUT0_OVERWRITTEN_BY_RUN, changed);
    return 0;
}
"""


def compile_run(tmp_path, m, main_text, args=(), libm=False):
    src = tmp_path / "main.c"
    src.write_text(main_text)
    exe = tmp_path / "main"
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), "-I", str(m.path), str(src),
           *module.cached_sources(m.path), "-o", str(exe)]
    # Without -lm unless a kernel of the model needs it: the I/O functions do not.
    cmd += ["-lm"] if libm else []
    c = subprocess.run(cmd, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_macros_describe_the_io(tmp_path):
    # Layers run alone, so that the plan writes over the input (with its row
    # chain the keyword spotter keeps its input whole).
    m = module.convert(KWS, tmp_path / "m", prefix="m", keys={"memory.row_streaming": "off"})
    header = (m.path / "m_model.h").read_text()
    assert "M_TENSOR_" not in header  # the tensor enumeration is internal
    assert "M_TENSOR_" in (m.path / "m_internal.h").read_text()
    ins = [t for t in m.views["tensors"] if t["input_index"] == 0][0]
    outs = [t for t in m.views["tensors"] if t["output_index"] == 0][0]
    out = compile_run(tmp_path, m, MACROS)
    assert "dtype 9 int8 9 ndims 4 dims 1 49 10 1\n" in out
    assert "size 490 ctx 490 elements 490\n" in out
    scale = re.search(r"scale (\S+) zp (-?\d+)\n", out)
    assert np.float32(float(scale.group(1))) == np.float32(ins["quantization"]["scale"][0])
    assert int(scale.group(2)) == ins["quantization"]["zero_point"][0]
    o = re.search(r"out ndims 2 last 12 size 12 scale (\S+) zp (-?\d+) quantized 1", out)
    assert o and np.float32(float(o.group(1))) == np.float32(outs["quantization"]["scale"][0])
    assert int(o.group(2)) == outs["quantization"]["zero_point"][0]
    assert "refusals 500 500 500 500\n" in out  # TA_ERR_BAD_ARGUMENT
    # The plan reuses the input's bytes here, and a run does change them.
    changed = int(re.search(r"overwritten 1 changed (\d+)", out).group(1))
    assert changed > 0
    assert "A run may overwrite the inputs whose _OVERWRITTEN_BY_RUN is set" in header


def test_an_input_written_over_in_place_is_marked(tmp_path):
    # simple_add's ADD writes its sum over input 0 once it has read it
    # (TFLite Micro reuses a dead input's bytes too); input 1 is kept.
    m = module.convert(ADD, tmp_path / "m", prefix="m")
    header = (m.path / "m_model.h").read_text()
    assert "#define M_INPUT0_OVERWRITTEN_BY_RUN 1" in header
    assert "#define M_INPUT1_OVERWRITTEN_BY_RUN 0" in header
    out = compile_run(tmp_path, m, MACROS)
    changed = int(re.search(r"overwritten 1 changed (\d+)", out).group(1))
    assert changed > 0


def test_inputs_kept_when_the_plan_keeps_them(tmp_path):
    m = module.convert(ADD, tmp_path / "m", prefix="m", keys={"memory.keep_inputs": "true"})
    header = (m.path / "m_model.h").read_text()
    assert "#define M_INPUT0_OVERWRITTEN_BY_RUN 0" in header
    assert "#define M_INPUT1_OVERWRITTEN_BY_RUN 0" in header
    assert "A run may overwrite" not in header
    out = compile_run(tmp_path, m, MACROS)
    assert "overwritten 0 changed 0\n" in out


def test_keep_inputs_keeps_every_input_of_an_overlapping_chain(tmp_path):
    # kws's first depthwise-free layer reads the model input; with the
    # inputs kept nothing is written over it.
    m = module.convert(KWS, tmp_path / "m", prefix="m", keys={"memory.keep_inputs": "true"})
    header = (m.path / "m_model.h").read_text()
    assert "#define M_INPUT0_OVERWRITTEN_BY_RUN 0" in header
    out = compile_run(tmp_path, m, MACROS)
    assert "overwritten 0 changed 0\n" in out


CONVERT_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "m_model.h"

#define ELEM (M_INPUT0_DTYPE == TA_IO_DTYPE_INT8 ? 1u : 2u)

/* argv: floats.bin n  quantized-out.bin  qvalues.bin nq  dequantized-out.bin */
static void *slurp(const char *path, size_t size)
{
    void *p = malloc(size + 1);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, 1, size, f) != size)
        exit(10);
    fclose(f);
    return p;
}

static void spill(const char *path, const void *p, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, size, f) != size)
        exit(11);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 7)
        return 12;
    size_t n = (size_t)atol(argv[2]), nq = (size_t)atol(argv[5]);
    m_model_context_t ctx;
    if (m_model_init(&ctx) != 0)
        return 13;
    float *x = slurp(argv[1], n * sizeof(float));
    if (m_quantize_input(&ctx, 0, x, n) != 0)
        return 14;
    spill(argv[3], ctx.inputs[0].data, n * ELEM);
    void *q = slurp(argv[4], nq * ELEM);
    memcpy(ctx.outputs[0].data, q, nq * ELEM);
    float *y = malloc(nq * sizeof(float));
    if (!y || m_dequantize_output(&ctx, 0, y, nq) != 0)
        return 15;
    spill(argv[6], y, nq * sizeof(float));
    free(x);
    free(q);
    free(y);
    return 0;
}
"""


def probe_floats(scale, zero_point, dtype):
    """Halves (ties) around zero and around the saturation points, values
    just off the ties, random values, far out of range (within the int32
    steps where TFLite's conversion is defined), zeros of both signs."""
    info = np.iinfo(dtype)
    s = np.float32(scale)
    ks = np.concatenate([np.arange(-300, 300), np.arange(info.min - zero_point - 40,
                                                         info.min - zero_point + 40),
                         np.arange(info.max - zero_point - 40, info.max - zero_point + 40)])
    ties = (ks.astype(np.float64) + 0.5) * float(s)
    near = np.concatenate([np.nextafter(ties.astype(np.float32), np.float32(np.inf)),
                           np.nextafter(ties.astype(np.float32), np.float32(-np.inf))])
    rng = np.random.default_rng(11)
    rand = rng.uniform(-1.5, 1.5, 2000) * float(s) * (info.max - info.min)
    far = np.array([1e3, -1e3, 1e6, -1e6, 2e9, -2e9], dtype=np.float64) * float(s)
    values = np.concatenate([ties, near, rand, far, [0.0, -0.0]]).astype(np.float32)
    return values


def single_op(op, src_dtype, dst_dtype, n, q_in, q_out):
    b = ModelBuilder()
    x = b.tensor([1, n], src_dtype, q_in, name="x")
    y = b.tensor([1, n], dst_dtype, q_out, name="y")
    b.op(op, [x], [y])
    return b.build([x], [y])


@pytest.mark.parametrize("dtype,scale,zero_point", [
    ("int8", 0.0372, -3), ("int8", 0.5, 127), ("int8", 1.0, -128), ("int8", 3.1e-4, 20),
    ("int16", 0.00123, 0), ("int16", 0.25, 0), ("int16", 7.3e-6, 0),
])
def test_quantize_and_dequantize_match_tflm(tmp_path, dtype, scale, zero_point):
    np_dtype = np.dtype(dtype).type
    x = probe_floats(scale, zero_point, np_dtype)
    n = x.size
    info = np.iinfo(np_dtype)
    qs = np.concatenate([np.arange(info.min, info.max + 1)
                         if dtype == "int8" else
                         np.concatenate([np.arange(info.min, info.min + 300),
                                         np.arange(-300, 300),
                                         np.arange(info.max - 300, info.max + 1)])])
    # Pad so both the float probe and the q values fit one [1, N] tensor.
    size = max(n, qs.size)
    x = np.concatenate([x, np.zeros(size - n, np.float32)])
    qs = np.concatenate([qs, np.zeros(size - qs.size, np.int64)]).astype(np_dtype)
    q = Q(scale, zero_point)
    # The module: an identity requantization, so its input and output carry q.
    mod_model = tmp_path / "identity.tflite"
    mod_model.write_bytes(single_op("QUANTIZE", dtype, dtype, size, q, q))
    m = module.convert(mod_model, tmp_path / "m", prefix="m")
    (tmp_path / "x.bin").write_bytes(x.tobytes())
    (tmp_path / "q.bin").write_bytes(qs.tobytes())
    compile_run(tmp_path, m, CONVERT_MAIN,
                [tmp_path / "x.bin", size, tmp_path / "ours_q.bin", tmp_path / "q.bin", size,
                 tmp_path / "ours_f.bin"], libm=True)
    ours_q = np.frombuffer((tmp_path / "ours_q.bin").read_bytes(), np_dtype)
    ours_f = np.frombuffer((tmp_path / "ours_f.bin").read_bytes(), np.float32)
    quant = single_op("QUANTIZE", "float32", dtype, size, None, q)
    dequant = single_op("DEQUANTIZE", dtype, "float32", size, q, None)
    tflm_q = np.asarray(oracle.run_tflm(quant, [[x.reshape(1, size)]], isolated=True)[0][0])
    tflm_f = np.asarray(oracle.run_tflm(dequant, [[qs.reshape(1, size)]], isolated=True)[0][0])
    bad = np.nonzero(ours_q != tflm_q.reshape(-1))[0]
    assert bad.size == 0, f"{bad.size} quantized values differ, first x={x[bad[0]]!r}: " \
        f"ours {ours_q[bad[0]]}, TFLM {tflm_q.reshape(-1)[bad[0]]}"
    assert ours_f.tobytes() == tflm_f.astype(np.float32).tobytes()
    # The probe does reach both saturation points and the ties.
    assert ours_q.min() == info.min and ours_q.max() == info.max


def round_half_away(t):
    t = np.asarray(t, np.float64)
    return np.sign(t) * np.floor(np.abs(t) + 0.5)


def test_per_channel_io(tmp_path):
    """Per-channel input and output quantization: the macros are lists and
    the functions use each element's channel (TFLite's formulas, per
    channel, computed here in float32 as the C code does)."""
    scales_in, zps_in = [0.1, 0.03, 0.7], [0, 5, -9]
    scales_out, zps_out = [0.25, 0.002, 0.05], [3, -4, 0]
    rows = 200
    b = ModelBuilder()
    # Channels on a middle axis, so an element's channel is (k / rows) % 3.
    x = b.tensor([1, 3, rows], "int8", Q(scales_in, zps_in, axis=1), name="x")
    y = b.tensor([1, 3, rows], "int8", Q(scales_out, zps_out, axis=1), name="y")
    b.op("RESHAPE", [x], [y], "ReshapeOptions", newShape=[1, 3, rows])
    model = tmp_path / "pc.tflite"
    model.write_bytes(b.build([x], [y]))
    m = module.convert(model, tmp_path / "m", prefix="m")
    header = (m.path / "m_model.h").read_text()
    assert "#define M_INPUT0_QUANT_AXIS 1\n#define M_INPUT0_NUM_CHANNELS 3" in header
    assert "#define M_INPUT0_ZERO_POINT {0, 5, -9}" in header
    scale_list = re.search(r"#define M_OUTPUT0_SCALE \{(.*)\}", header).group(1)
    assert [np.float32(float(v.rstrip("f"))) for v in scale_list.split(", ")] == \
        [np.float32(s) for s in scales_out]
    n = rows * 3
    rng = np.random.default_rng(5)
    channel = (np.arange(n) // rows) % 3
    s_in = np.array(scales_in, np.float32)[channel]
    ties = (rng.integers(-140, 140, n) + 0.5) * s_in.astype(np.float64)
    xs = np.where(rng.random(n) < 0.5, ties, rng.uniform(-150, 150, n) * s_in).astype(np.float32)
    qs = rng.integers(-128, 128, n).astype(np.int8)
    (tmp_path / "x.bin").write_bytes(xs.tobytes())
    (tmp_path / "q.bin").write_bytes(qs.tobytes())
    compile_run(tmp_path, m, CONVERT_MAIN,
                [tmp_path / "x.bin", n, tmp_path / "oq.bin", tmp_path / "q.bin", n,
                 tmp_path / "of.bin"])
    ours_q = np.frombuffer((tmp_path / "oq.bin").read_bytes(), np.int8)
    ours_f = np.frombuffer((tmp_path / "of.bin").read_bytes(), np.float32)
    t = (xs / s_in).astype(np.float32)  # the division in float32
    want_q = np.clip(round_half_away(t) + np.array(zps_in)[channel], -128, 127).astype(np.int8)
    assert (ours_q == want_q).all()
    s_out = np.array(scales_out, np.float32)[channel].astype(np.float64)
    want_f = (s_out * (qs.astype(np.float64) - np.array(zps_out)[channel])).astype(np.float32)
    assert ours_f.tobytes() == want_f.tobytes()
