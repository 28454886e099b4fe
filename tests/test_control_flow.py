"""IF and WHILE (docs/control-flow.md): the views list each subgraph's
operators with (subgraph, operator) source indices between the markers;
the built-in test case's expected outputs (the host executor walking the
markers) equal TFLite Micro's; the module builds warning-free for
Cortex-M; and what tinyaot refuses is one line naming the operator."""

import shutil
import subprocess

import numpy as np
import pytest

from tests.gen import variants
from tests.gen.common import ModelBuilder, Q
from tests.harness import module, oracle
from tests.test_test_case import build_and_run, module_test_data

ARM_GCC = ["arm-none-eabi-gcc", "-std=c99", "-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard",
           "-O2", "-Wall", "-Wextra", "-Werror"]


def case_model(tmp_path, name, seed):
    case = variants.ALL[name].case(seed)
    path = tmp_path / f"{name}-{seed}.tflite"
    path.write_bytes(case.model)
    return path


def convert(tmp_path, model, keys=None, out="mod"):
    return module.convert(model, tmp_path / out, prefix="cf", keys=keys)


def refused(tmp_path, model_bytes, keys=None):
    path = tmp_path / "refused.tflite"
    path.write_bytes(model_bytes)
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, path, keys)
    errors = [line for line in e.value.stderr.splitlines() if "error" in line]
    assert len(errors) == 1, e.value.stderr
    return errors[0]


def test_views_list_each_subgraph_with_its_indices(tmp_path):
    m = convert(tmp_path, case_model(tmp_path, "IF.int8", 2))
    ops = m.views["operators"]
    types = [op["type"] for op in ops]
    begin, middle, end = types.index("IF"), types.index("ELSE"), types.index("END_IF")
    assert begin < middle < end
    # The IF marker is the model's IF operator; the branches' operators are
    # (subgraph, index) of subgraphs 1 (then) and 2 (else); copies are created.
    main_if = [op for op in ops if op["type"] == "IF"][0]
    assert len(main_if["source_indices"]) == 1
    then_ops = [op["source_indices"] for op in ops[begin + 1:middle] if op["type"] != "COPY"]
    else_ops = [op["source_indices"] for op in ops[middle + 1:end] if op["type"] != "COPY"]
    assert then_ops == [[1, i] for i in range(len(then_ops))] and then_ops
    assert else_ops == [[2, i] for i in range(len(else_ops))] and else_ops
    assert all(op["source_indices"] == [] for op in ops if op["type"] in ("COPY", "ELSE"))
    assert [op["layer_index"] for op in ops] == list(range(len(ops)))


def test_while_views_and_generated_loop(tmp_path):
    m = convert(tmp_path, case_model(tmp_path, "WHILE.counter", 1))
    ops = m.views["operators"]
    types = [op["type"] for op in ops]
    begin, test, end = types.index("WHILE"), types.index("WHILE_TEST"), types.index("END_WHILE")
    assert begin < test < end
    assert [op["source_indices"] for op in ops[begin + 1:test] if op["type"] != "COPY"] == [[1, 0]]
    assert ops[test + 1:end][-1]["type"] == "COPY"
    source = (m.path / "cf_model.c").read_text()
    assert "for (;;) {" in source and "break;" in source and "end of WHILE" in source


@pytest.mark.parametrize("name,seed", [("IF.int8", 1), ("IF.int8", 4), ("WHILE.counter", 2),
                                       ("WHILE.counter", 5)])
def test_executor_and_module_equal_tflm(tmp_path, name, seed):
    model = case_model(tmp_path, name, seed)
    m = convert(tmp_path, model, {"test.enabled": "true"})
    status, out = build_and_run(m)
    assert status == 0 and "test case: status 0 (ok)" in out, out
    inputs, expected = module_test_data(m)
    tflm = oracle.run_tflm(model.read_bytes(), inputs, isolated=True)
    for r, (ours, theirs) in enumerate(zip(expected, tflm)):
        for o, (a, b) in enumerate(zip(ours, theirs)):
            b = np.asarray(b).astype(a.dtype).reshape(a.shape)
            assert a.tobytes() == b.tobytes(), f"run {r} output {o} differs from TFLite Micro"


@pytest.mark.parametrize("name", ["IF.int8", "WHILE.counter"])
def test_cortex_m_build_is_warning_free(tmp_path, name):
    assert shutil.which(ARM_GCC[0]), "arm-none-eabi-gcc is not installed (make deps installs it)"
    m = convert(tmp_path, case_model(tmp_path, name, 3))
    c = subprocess.run([*ARM_GCC, "-I", str(m.path), "-c", *module.sources(m.path)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert c.returncode == 0, c.stderr


# ---- refused -----------------------------------------------------------------

def identity_branch(b, shape, q, name, with_cond=False):
    """A subgraph giving back its int8 input through RELU (taking the
    condition first, unused, with_cond)."""
    sg = b.subgraph(name)
    b.select(sg)
    c = [b.tensor([1], "bool", name=name + "_c")] if with_cond else []
    x = b.tensor(shape, "int8", q, name=name + "_in")
    y = b.tensor(shape, "int8", q, name=name + "_out")
    b.op("RELU", [x], [y])
    b.set_io(sg, c + [x], [y])
    return sg


def nested_ifs(depth):
    """IF inside the then branch of IF ..., `depth` levels; each IF passes
    the condition on."""
    b, q, shape = ModelBuilder(), Q(0.1, 0), [1, 4]
    inner = identity_branch(b, shape, q, "leaf", True)
    for level in range(depth - 1):
        else_sg = identity_branch(b, shape, q, "else%d" % level, True)
        sg = b.subgraph("level%d" % level)
        b.select(sg)
        c = b.tensor([1], "bool", name="c")
        x = b.tensor(shape, "int8", q, name="x")
        y = b.tensor(shape, "int8", q, name="y")
        b.op("IF", [c, c, x], [y], "IfOptions", thenSubgraphIndex=inner,
             elseSubgraphIndex=else_sg)
        b.set_io(sg, [c, x], [y])
        inner = sg
    else_sg = identity_branch(b, shape, q, "else", True)
    b.select(0)
    c = b.tensor([1], "bool", name="cond")
    x = b.tensor(shape, "int8", q, name="input")
    y = b.tensor(shape, "int8", q, name="output")
    b.op("IF", [c, c, x], [y], "IfOptions", thenSubgraphIndex=inner, elseSubgraphIndex=else_sg)
    return b.build([c, x], [y])


def test_nesting_of_four_converts(tmp_path):
    path = tmp_path / "four.tflite"
    path.write_bytes(nested_ifs(4))
    m = convert(tmp_path, path, {"test.enabled": "true"})
    assert [op["type"] for op in m.views["operators"]].count("IF") == 4
    inputs, expected = module_test_data(m)
    tflm = oracle.run_tflm(path.read_bytes(), inputs, isolated=True)
    for ours, theirs in zip(expected, tflm):
        assert ours[0].tobytes() == np.asarray(theirs[0]).astype(np.int8).tobytes()


def test_refuses_nesting_deeper_than_four(tmp_path):
    line = refused(tmp_path, nested_ifs(5))
    assert "subgraph" in line and "operator 0 (IF)" in line and "nested 5 deep" in line, line


def test_refuses_a_subgraph_used_twice(tmp_path):
    b, q, shape = ModelBuilder(), Q(0.1, 0), [1, 4]
    sg = identity_branch(b, shape, q, "branch")
    b.select(0)
    c = b.tensor([1], "bool", name="cond")
    x = b.tensor(shape, "int8", q, name="input")
    y = b.tensor(shape, "int8", q, name="output")
    b.op("IF", [c, x], [y], "IfOptions", thenSubgraphIndex=sg, elseSubgraphIndex=sg)
    line = refused(tmp_path, b.build([c, x], [y]))
    assert "operator 0 (IF)" in line and "subgraph 1 is already run" in line, line


def test_refuses_a_shape_that_changes_across_iterations(tmp_path):
    b, q = ModelBuilder(), Q(0.1, 0)
    cond_sg = b.subgraph("cond")
    b.select(cond_sg)
    x = b.tensor([1, 4], "int8", q, name="x")
    go = b.tensor([1], "bool", name="go")
    zero = b.const(np.zeros([1, 4], np.int8), "int8", q, name="zero")
    b.op("LESS", [x, zero], [go])
    b.set_io(cond_sg, [x], [go])
    body_sg = b.subgraph("body")
    b.select(body_sg)
    x = b.tensor([1, 4], "int8", q, name="x")
    y = b.tensor([1, 8], "int8", q, name="y")
    b.op("CONCATENATION", [x, x], [y], "ConcatenationOptions", axis=1)
    b.set_io(body_sg, [x], [y])
    b.select(0)
    x = b.tensor([1, 4], "int8", q, name="input")
    y = b.tensor([1, 4], "int8", q, name="output")
    b.op("WHILE", [x], [y], "WhileOptions", condSubgraphIndex=cond_sg, bodySubgraphIndex=body_sg)
    line = refused(tmp_path, b.build([x], [y]))
    assert "operator 0 (WHILE)" in line and "subgraph 2 output 0" in line, line
    assert "[1,8]" in line and "change at run time" in line, line


def test_refuses_the_table_schedule(tmp_path):
    model = case_model(tmp_path, "IF.int8", 1)
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, model, {"module.schedule": "table"})
    assert "module.schedule: table" in e.value.stderr and "IF or WHILE" in e.value.stderr


def endless_while():
    """The issue's model: a WHILE whose body applies RELU to its counter and
    whose condition is counter < 10; the counter starts at 0 (the model
    input), so the loop never ends."""
    b, q = ModelBuilder(), Q(0.25, 0)
    cond_sg = b.subgraph("cond")
    b.select(cond_sg)
    x = b.tensor([1], "int8", q, name="counter")
    go = b.tensor([1], "bool", name="go")
    ten = b.const(np.full([1], 40, np.int8), "int8", q, name="ten")  # 10.0
    b.op("LESS", [x, ten], [go])
    b.set_io(cond_sg, [x], [go])
    body_sg = b.subgraph("body")
    b.select(body_sg)
    x = b.tensor([1], "int8", q, name="counter")
    y = b.tensor([1], "int8", q, name="next")
    b.op("RELU", [x], [y])
    b.set_io(body_sg, [x], [y])
    b.select(0)
    x = b.tensor([1], "int8", q, name="input")
    y = b.tensor([1], "int8", q, name="output")
    b.op("WHILE", [x], [y], "WhileOptions", condSubgraphIndex=cond_sg, bodySubgraphIndex=body_sg)
    return b.build([x], [y])


def test_a_while_that_never_ends_stops_at_the_iteration_limit_in_bounded_memory(tmp_path):
    """Issue 26, defect 1: the converter's executor (test.enabled) looped
    forever and allocated per kernel call (628 MB after 6 s). It stops at
    test.max_loop_iterations with one line naming the WHILE, and its peak
    memory does not grow with the number of iterations."""
    import resource
    import subprocess
    model = tmp_path / "endless.tflite"
    model.write_bytes(endless_while())
    (tmp_path / "zero.bin").write_bytes(b"\0")
    peaks = {}
    for limit in (1000, 1000000):
        code = ("import resource, subprocess, sys;"
                "p = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
                "sys.stderr.write(p.stderr);"
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
                "sys.exit(p.returncode)")
        p = subprocess.run(["python3", "-c", code, module.tinyaot_bin(), "convert",
                            "--model.path", str(model), "--module.path", str(tmp_path / "mod"),
                            "--test.enabled", "true", "--test.inputs", str(tmp_path / "zero.bin"),
                            "--test.max_loop_iterations", str(limit)],
                           capture_output=True, text=True, timeout=600)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 1 and len(lines) == 1, p.stderr
        assert "(WHILE) went round more than" in lines[0], lines[0]
        assert f"more than {limit} times in run 1 (test.max_loop_iterations)" in lines[0], lines[0]
        assert not (tmp_path / "mod").exists()
        peaks[limit] = int(p.stdout)
    # A thousand times the iterations, the same memory (within 8 MiB).
    assert peaks[1000000] <= peaks[1000] + 8192, peaks


def test_the_loop_limit_is_a_positive_integer(tmp_path):
    model = tmp_path / "endless.tflite"
    model.write_bytes(endless_while())
    with pytest.raises(module.ConvertError) as e:
        convert(tmp_path, model, {"test.enabled": "true", "test.max_loop_iterations": "0"})
    assert "test.max_loop_iterations: expected at least 1, got 0" in e.value.stderr
