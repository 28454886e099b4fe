"""`tinyaot convert --dump-after PASS`: the graph after one pass as text,
one line per operator with its tensors' ids, dtypes and shapes."""

import re
import subprocess

from tests.harness import module

HELLO = module.MODELS / "tflm_hello_world_int8.tflite"
MICRO_SPEECH = module.MODELS / "tflm_micro_speech_quantized.tflite"
PASSES = ["read", "check", "FOLD_STATIC_SHAPE_EXPRESSIONS", "DEPTHWISE_TO_CONV",
          "TRANSPOSE_REVERSE_CONV", "SPARSE_CHANNELS", "FUSE_ACTIVATIONS", "FUSE_RESIDUAL_ADD",
          "FOLD_INVARIANT_VARIABLES", "PRUNE_IDENTITY_OPS", "SCHEDULE_CONSTANT_DEQUANTIZE",
          "lower", "drop_dead", "SPARSE_WEIGHTS", "ORDER_FOR_PEAK"]
TENSOR = r"(-|\S+:[a-z0-9]+\[[0-9,]*\]( const)?)"
OP_LINE = re.compile(rf"op (\d+) ([A-Z0-9_]+|\S+) \((model op \d+|created)\):"
                     rf"( {TENSOR})* ->( {TENSOR})+$")


def convert(tmp_path, model, *extra):
    return subprocess.run([module.tinyaot_bin(), "convert", "--model.path", str(model),
                           "--module.path", str(tmp_path / "out"), "--quiet", *extra],
                          capture_output=True, text=True, timeout=120)


def dumped_ops(text, pass_name):
    lines = text.splitlines()
    head = re.fullmatch(r"== after (\S+): (\d+) operators, (\d+) tensors", lines[0])
    assert head and head.group(1) == pass_name, lines[0]
    assert lines[1].startswith("inputs: ") and lines[2].startswith("outputs: ")
    # a lowered operator's local tensors and calls follow it, indented
    ops = [OP_LINE.match(line) for line in lines[3:] if not line.startswith("    ")]
    assert all(ops), [line for line, m in zip(lines[3:], ops) if not m]
    assert [int(m.group(1)) for m in ops] == list(range(len(ops)))
    assert len(ops) == int(head.group(2))
    return [m.group(2) for m in ops]


def test_every_pass_dumps_the_graph(tmp_path):
    for name in PASSES:
        # PRUNE_IDENTITY_OPS is the one transform off by default.
        on = ["--transforms", f"{{{name}: true}}"] if name == "PRUNE_IDENTITY_OPS" else []
        p = convert(tmp_path, HELLO, "--dump-after", name, *on)
        assert p.returncode == 0, p.stderr
        assert dumped_ops(p.stdout, name) == ["FULLY_CONNECTED"] * 3, name
    assert "0:int8[1,1] 6:int8[16,1] const 5:int32[16] const -> 7:int8[1,16]" in p.stdout


def test_lowered_dump_shows_locals_and_kernel_calls(tmp_path):
    """Issue 27.4: after lowering the dump shows what lowering made: each
    operator's local tensors and its kernel calls with their tensor
    arguments and parameters; before lowering there are none."""
    before = convert(tmp_path, HELLO, "--dump-after", "check")
    after = convert(tmp_path, HELLO, "--dump-after", "lower")
    assert before.returncode == 0 and after.returncode == 0, before.stderr + after.stderr
    assert "    call " not in before.stdout and "    local " not in before.stdout
    calls = re.findall(r"^    call run (\w+)\(([^)]*)\) (.*)$", after.stdout, re.M)
    assert [c[0] for c in calls] == ["ta_fully_connected_s8"] * 3, after.stdout
    first_args, first_params = calls[0][1].split(", "), dict(
        kv.split("=") for kv in calls[0][2].split())
    assert first_args[0] == "0" and first_args[2] == "op0.bias_sum"
    assert first_params["accum_depth"] == "1" and first_params["output_depth"] == "16"
    assert "    local op0.bias_sum:int32[16] const" in after.stdout.splitlines()


def test_dump_shows_what_a_transform_changed(tmp_path):
    """micro_speech's depthwise convolution has one input channel: it is a
    DEPTHWISE_CONV_2D after check and a CONV_2D after DEPTHWISE_TO_CONV."""
    before = convert(tmp_path, MICRO_SPEECH, "--dump-after", "check")
    after = convert(tmp_path, MICRO_SPEECH, "--dump-after=depthwise_to_conv")
    assert before.returncode == 0 and after.returncode == 0, before.stderr + after.stderr
    ops_before = dumped_ops(before.stdout, "check")
    ops_after = dumped_ops(after.stdout, "DEPTHWISE_TO_CONV")
    assert "DEPTHWISE_CONV_2D" in ops_before and "DEPTHWISE_CONV_2D" not in ops_after
    assert [t.replace("DEPTHWISE_CONV_2D", "CONV_2D") for t in ops_before] == ops_after


def test_unknown_pass_is_an_error_naming_the_passes(tmp_path):
    p = convert(tmp_path, HELLO, "--dump-after", "lowering")
    assert p.returncode == 1 and p.stdout == ""
    assert "unknown pass 'lowering'" in p.stderr and ", ".join(PASSES) in p.stderr
    assert not (tmp_path / "out").exists()


def test_a_transform_that_is_off_is_reported(tmp_path):
    p = convert(tmp_path, HELLO, "--dump-after", "FUSE_ACTIVATIONS",
                "--transforms", "{FUSE_ACTIVATIONS: false}")
    assert p.returncode == 0 and p.stdout == ""
    assert "FUSE_ACTIVATIONS is off in this configuration" in p.stderr
