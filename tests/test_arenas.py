"""The hydration contract, caller-supplied arenas and two models in one
image (memory-placement spec), each with a C program built against real
generated modules."""

import json
import os
import subprocess

import numpy as np

from tests.harness import difftest, module, oracle

AD01 = module.MODELS / "mlperf_tiny_ad01_int8.tflite"
HELLO = module.MODELS / "tflm_hello_world_int8.tflite"

STAGED = """
platform: {name: apollo510_evb}
memory:
  tensors:
    - attributes: {memory: DTCM}
    - type: constant
      attributes: {memory: MRAM}
    - id: "11"
      attributes: {memory: MRAM, constant_destination_memory: SRAM}
"""

CHECK = """
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d: %s\\n", __FILE__, __LINE__, #c); \\
                                   exit(1); } } while (0)
"""


def compile_and_run(tmp_path, mods, main_c, args=(), extra_srcs=()):
    src = tmp_path / "main.c"
    src.write_text(main_c)
    exe = tmp_path / "main"
    incs = [a for m in mods for a in ("-I", str(m.path))]
    srcs = [s for m in mods for s in module.sources(m.path) if "/runtime/" not in s]
    runtime = sorted({str(module.ROOT / os.path.relpath(s, m.path))
                      for m in mods for s in module.sources(m.path) if "/runtime/" in s})
    cmd = [os.environ.get("CC", "cc"), *module.cflags(), *incs, str(src), *srcs,
           *module.cached_runtime(runtime),
           *extra_srcs, "-lm", "-o", str(exe)]
    c = subprocess.run(cmd, capture_output=True, text=True)
    assert c.returncode == 0, c.stderr
    r = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def convert(tmp_path, model, name, prefix, yaml_text="{}\n", keys=None):
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(yaml_text)
    return module.convert(model, tmp_path / name, prefix=prefix, config=cfg, keys=keys)


def test_hydration_contract(tmp_path):
    m = convert(tmp_path, AD01, "mod", "m", STAGED)
    main_c = CHECK + """
#include "m_internal.h"
static int calls;
static int mode; /* 0: copy and mark, 1: forget to mark, 2: fail */

/* A strong definition replaces the module's weak default. */
int32_t m_hydrate_constants(m_model_context_t *ctx)
{
    CHECK(ctx != NULL && ctx->arena_buffers != NULL);
    calls++;
    if (mode == 2)
        return 99;
    memcpy(M_BASE_SRAM_STAGED_FROM_MRAM, m_arena_sram_staged_from_mram_source,
           M_ARENA_SRAM_STAGED_FROM_MRAM_SIZE);
    if (mode == 0)
        m_mark_hydrated();
    return TA_OK;
}

int main(void)
{
    m_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED && TA_ERR_NOT_INITIALIZED == 14);
    CHECK(m_model_run(NULL) == TA_ERR_NULL_CONTEXT);
    CHECK(m_model_init(NULL) == TA_ERR_NULL_CONTEXT);
    /* Marking before init does not avoid the copy: init clears the latch. */
    m_mark_hydrated();
    CHECK(m_model_init(&ctx) == TA_OK);
    CHECK(calls == 1);
    CHECK(memcmp(M_BASE_SRAM_STAGED_FROM_MRAM, m_arena_sram_staged_from_mram_source,
                 M_ARENA_SRAM_STAGED_FROM_MRAM_SIZE) == 0);
    CHECK(m_model_run(&ctx) == TA_OK);
    /* context_init clears the latch: runs need hydration again. */
    CHECK(m_context_init(&ctx) == TA_OK);
    CHECK(m_model_run(&ctx) == TA_ERR_HYDRATION_REQUIRED && TA_ERR_HYDRATION_REQUIRED == 200);
    CHECK(m_model_init(&ctx) == TA_OK && calls == 2);
    CHECK(m_model_run(&ctx) == TA_OK);
    /* A replacement that never marks the latch fails the init... */
    mode = 1;
    CHECK(m_model_init(&ctx) == TA_ERR_HYDRATION_FAILED);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    /* ... and one that reports an error makes init return its number
       unchanged, as helia-aot's modules do. */
    mode = 2;
    CHECK(m_model_init(&ctx) == 99);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    mode = 0;
    memset(M_BASE_SRAM_STAGED_FROM_MRAM, 0xa5, M_ARENA_SRAM_STAGED_FROM_MRAM_SIZE);
    CHECK(m_model_init(&ctx) == TA_OK && calls == 5);
    CHECK(memcmp(M_BASE_SRAM_STAGED_FROM_MRAM, m_arena_sram_staged_from_mram_source,
                 M_ARENA_SRAM_STAGED_FROM_MRAM_SIZE) == 0);
    CHECK(m_model_run(&ctx) == TA_OK);
    printf("ok\\n");
    return 0;
}
"""
    assert compile_and_run(tmp_path, [m], main_c).strip() == "ok"


def test_default_hydration_copies_every_staged_byte(tmp_path):
    m = convert(tmp_path, AD01, "mod", "m", STAGED)
    src = (m.path / "m_model.c").read_text()
    assert "TA_WEAK int32_t m_hydrate_constants(m_model_context_t *ctx)" in src
    assert src.count("memcpy(") == 1  # one bulk copy per staged arena
    # And the default works end to end against the oracle.
    exe = module.build(m)
    data = AD01.read_bytes()
    runs = oracle.random_inputs(data, np.random.default_rng(3), 10)
    assert difftest._count_diff(module.run(m, exe, runs),
                                oracle.run_tflm(data, runs, isolated=True))[1] == 0


def test_no_staging_no_hydrate_function(tmp_path):
    m = convert(tmp_path, HELLO, "mod", "m")
    assert "hydrate_constants" not in (m.path / "m_model.c").read_text()
    assert "m_mark_hydrated" in (m.path / "m_model.h").read_text()


def test_caller_supplied_arenas_bind_statuses(tmp_path):
    m = convert(tmp_path, AD01, "mod", "m", STAGED, keys={"memory.allocate_arenas": "false"})
    views = m.views
    sidecars = [r["sidecar_file"] for r in views["regions"] if r["sidecar_file"]]
    assert sidecars and all((m.path / s).exists() for s in sidecars)
    # The module allocates nothing: no arena objects, only the bind table.
    arenas = (m.path / "m_arenas.c").read_text()
    assert "uint8_t m_arena_" not in arenas
    assert all(r["symbol"] is None for r in views["regions"])
    staged = [r for r in views["regions"] if r["source_symbol"]]
    assert staged and staged[0]["sidecar_file"] is None
    main_c = CHECK + """
#include "m_model.h"
static void *aligned(size_t align, size_t size)
{
    void *p = NULL;
    CHECK(posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size + align) == 0);
    return p;
}

int main(void)
{
    m_model_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    void *bufs[M_NUM_ARENA_REGIONS];
    size_t sizes[M_NUM_ARENA_REGIONS];
    for (int i = 0; i < M_NUM_ARENA_REGIONS; i++) {
        sizes[i] = m_arena_sizes[i];
        bufs[i] = aligned(m_arena_alignments[i], sizes[i]);
    }
    CHECK(m_bind_arena((m_arena_region_t)M_NUM_ARENA_REGIONS, bufs[0], sizes[0]) ==
          TA_ERR_UNKNOWN_REGION);
    CHECK(m_bind_arena((m_arena_region_t)-1, bufs[0], sizes[0]) == TA_ERR_UNKNOWN_REGION);
    CHECK(m_bind_arena((m_arena_region_t)0, NULL, sizes[0]) == TA_ERR_NULL_BUFFER);
    CHECK(m_bind_arena((m_arena_region_t)0, bufs[0], sizes[0] - 1) == TA_ERR_BUFFER_TOO_SMALL);
    CHECK(m_bind_arena((m_arena_region_t)0, (char *)bufs[0] + 1, sizes[0]) ==
          TA_ERR_MISALIGNED_BUFFER);
    /* Four distinct statuses. */
    CHECK(TA_ERR_UNKNOWN_REGION != TA_ERR_NULL_BUFFER &&
          TA_ERR_NULL_BUFFER != TA_ERR_BUFFER_TOO_SMALL &&
          TA_ERR_BUFFER_TOO_SMALL != TA_ERR_MISALIGNED_BUFFER);
    CHECK(m_model_init(&ctx) == TA_ERR_UNBOUND_REGION);
    CHECK(m_model_run(&ctx) == TA_ERR_NOT_INITIALIZED);
    for (int i = 0; i + 1 < M_NUM_ARENA_REGIONS; i++)
        CHECK(m_bind_arena((m_arena_region_t)i, bufs[i], sizes[i]) == TA_OK);
    CHECK(m_model_init(&ctx) == TA_ERR_UNBOUND_REGION); /* the last one is still unbound */
    CHECK(m_bind_arenas(bufs, sizes, M_NUM_ARENA_REGIONS) == TA_OK);
    CHECK(m_model_init(&ctx) == TA_OK);
    CHECK(m_module_desc.num_regions == M_NUM_ARENA_REGIONS && m_module_desc.bind_arena != NULL);
    printf("ok\\n");
    return 0;
}
"""
    assert compile_and_run(tmp_path, [m], main_c).strip() == "ok"


def test_caller_supplied_arenas_run_bit_exact(tmp_path):
    """The host runner binds every region itself and loads the sidecars."""
    for name, yaml_text in (("plain", "{}\n"), ("staged", STAGED)):
        m = convert(tmp_path, AD01, name, "m", yaml_text, keys={"memory.allocate_arenas": "false"})
        exe = module.build(m)
        data = AD01.read_bytes()
        runs = oracle.random_inputs(data, np.random.default_rng(4), 20)
        total, diff = difftest._count_diff(module.run(m, exe, runs),
                                           oracle.run_tflm(data, runs, isolated=True))
        assert total and diff == 0, name


def two_models_program(wake, clf):
    """The spec's example: both models converted with caller-supplied
    arenas, each bound before its init, one shared scratch buffer sized and
    aligned from both headers, outputs copied out before the other runs."""
    def binds(m, p, P):
        out = []
        for r in m.views["regions"]:
            rid = r["id"]
            if r["role"] == "scratch":
                out.append(f"    CHECK({p}_bind_arena(({p}_arena_region_t){rid}, scratch, scratch_size) == TA_OK);")
            elif r["sidecar_file"]:
                out.append(f'    CHECK({p}_bind_arena(({p}_arena_region_t){rid}, '
                           f'load("{m.path}/{r["sidecar_file"]}", {p}_arena_sizes[{rid}], '
                           f'{p}_arena_alignments[{rid}]), {p}_arena_sizes[{rid}]) == TA_OK);')
            else:
                out.append(f"    CHECK({p}_bind_arena(({p}_arena_region_t){rid}, "
                           f"buffer({p}_arena_sizes[{rid}], {p}_arena_alignments[{rid}]), "
                           f"{p}_arena_sizes[{rid}]) == TA_OK);")
        return "\n".join(out)

    def scratch_of(m, p):
        return [r["id"] for r in m.views["regions"] if r["role"] == "scratch"][0]

    ws, cs = scratch_of(wake, "wake"), scratch_of(clf, "clf")
    return CHECK + f"""
#include "wake_model.h"
#include "clf_model.h"

static void *buffer(size_t size, size_t align)
{{
    void *p = NULL;
    CHECK(posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) == 0);
    memset(p, 0, size);
    return p;
}}

static void *load(const char *path, size_t size, size_t align)
{{
    unsigned char *p = buffer(size, align);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    CHECK(n >= 0 && (size_t)n <= size);
    CHECK(fread(p + (size - (size_t)n), 1, (size_t)n, f) == (size_t)n); /* after any guard */
    fclose(f);
    return p;
}}

static void io(FILE *in, void *dst, size_t n) {{ CHECK(fread(dst, 1, n, in) == n); }}

int main(int argc, char **argv)
{{
    CHECK(argc == 6);
    long runs = strtol(argv[5], NULL, 10);
    FILE *wi = fopen(argv[1], "rb"), *wo = fopen(argv[2], "wb");
    FILE *ci = fopen(argv[3], "rb"), *co = fopen(argv[4], "wb");
    CHECK(wi && wo && ci && co);

    /* One scratch buffer for both: the larger size, the larger alignment. */
    size_t ws = wake_arena_sizes[{ws}], cs = clf_arena_sizes[{cs}];
    size_t wa = wake_arena_alignments[{ws}], ca = clf_arena_alignments[{cs}];
    size_t scratch_size = ws > cs ? ws : cs;
    void *scratch = buffer(scratch_size, wa > ca ? wa : ca);

{binds(wake, "wake", "WAKE")}
{binds(clf, "clf", "CLF")}

    wake_model_context_t w;
    clf_model_context_t c;
    CHECK(wake_model_init(&w) == TA_OK);
    CHECK(clf_model_init(&c) == TA_OK);
    unsigned char out[65536];
    for (long r = 0; r < runs; r++) {{
        io(wi, w.inputs[0].data, w.inputs[0].size);
        CHECK(wake_model_run(&w) == TA_OK);
        /* Copy the output out before the other model reuses the scratch. */
        CHECK(w.outputs[0].size <= sizeof out);
        memcpy(out, w.outputs[0].data, w.outputs[0].size);
        fwrite(out, 1, w.outputs[0].size, wo);
        io(ci, c.inputs[0].data, c.inputs[0].size);
        CHECK(clf_model_run(&c) == TA_OK);
        memcpy(out, c.outputs[0].data, c.outputs[0].size);
        fwrite(out, 1, c.outputs[0].size, co);
    }}
    fclose(wi); fclose(ci); fclose(wo); fclose(co);
    printf("ok\\n");
    return 0;
}}
"""


WAKE = module.MODELS / "tflm_micro_speech_quantized.tflite"      # yes/no wake word
CLASSIFIER = module.MODELS / "mlperf_tiny_kws_ref_model.tflite"  # 12-way keyword classifier


def test_two_models_in_one_image_share_scratch(tmp_path):
    wake_model, clf_model = WAKE, CLASSIFIER
    keys = {"memory.allocate_arenas": "false"}
    wake = convert(tmp_path, wake_model, "wake", "wake", keys=keys)
    clf = convert(tmp_path, clf_model, "clf", "clf", keys=keys)
    runs = 20
    wd, cd = wake_model.read_bytes(), clf_model.read_bytes()
    w_runs = oracle.random_inputs(wd, np.random.default_rng(1), runs)
    c_runs = oracle.random_inputs(cd, np.random.default_rng(2), runs)
    module.write_inputs(wake, w_runs, tmp_path / "w.in")
    module.write_inputs(clf, c_runs, tmp_path / "c.in")
    out = compile_and_run(tmp_path, [wake, clf], two_models_program(wake, clf),
                          args=["w.in", "w.out", "c.in", "c.out", runs])
    assert out.strip() == "ok"
    w_out = module.read_outputs(wake, w_runs, (tmp_path / "w.out").read_bytes())
    c_out = module.read_outputs(clf, c_runs, (tmp_path / "c.out").read_bytes())
    assert difftest._count_diff(w_out, oracle.run_tflm(wd, w_runs, isolated=True))[1] == 0
    assert difftest._count_diff(c_out, oracle.run_tflm(cd, c_runs, isolated=True))[1] == 0


def test_two_modules_link_with_cmake_without_clashes(tmp_path):
    """Both modules' CMake targets in one program: their runtime libraries
    hold the same kernels, and the archives let the linker take one copy."""
    a = convert(tmp_path, HELLO, "a", "wake")
    b = convert(tmp_path, AD01, "b", "clf", keys={"module.name": "classifier"})
    app = tmp_path / "app"
    app.mkdir()
    (app / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.13)\nproject(app C)\n"
        f"add_subdirectory({a.path} wake)\nadd_subdirectory({b.path} clf)\n"
        "add_executable(app main.c)\ntarget_link_libraries(app PRIVATE wake classifier)\n")
    (app / "main.c").write_text(
        '#include "wake_model.h"\n#include "clf_model.h"\n'
        "int main(void) {\n  wake_model_context_t w; clf_model_context_t c;\n"
        "  if (wake_model_init(&w) || clf_model_init(&c)) return 1;\n"
        "  return wake_model_run(&w) || clf_model_run(&c);\n}\n")
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", app, "-B", build], check=True, capture_output=True)
    r = subprocess.run(["cmake", "--build", build], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert subprocess.run([build / "app"]).returncode == 0


def arena_program(wake, clf):
    """Both modules bound from one runtime tensor arena (runtime/arena):
    persistent and staged regions as persistent blocks, one scratch buffer
    from the scratch pool shared by both, cold constants from sidecars."""
    def blobs(m, p):
        lines = [f"    static const void *{p}_blobs[{len(m.views['regions']) or 1}];",
                 f"    static size_t {p}_blob_sizes[{len(m.views['regions']) or 1}];"]
        for r in m.views["regions"]:
            if r["sidecar_file"]:
                lines.append(f'    {p}_blobs[{r["id"]}] = load("{m.path}/{r["sidecar_file"]}", '
                             f'&{p}_blob_sizes[{r["id"]}], {r["alignment"]});')
        return "\n".join(lines)

    return CHECK + f"""
#include "ta_arena.h"
#include "ta_arena_bind.h"
#include "wake_model.h"
#include "clf_model.h"

static unsigned char memory[262144];

static const void *load(const char *path, size_t *size, size_t align)
{{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = NULL;
    CHECK(posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, (size_t)n + 1) == 0);
    CHECK(fread(p, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return p;
}}

static void io(FILE *in, void *dst, size_t n) {{ CHECK(fread(dst, 1, n, in) == n); }}

int main(int argc, char **argv)
{{
    CHECK(argc == 6);
    long runs = strtol(argv[5], NULL, 10);
    FILE *wi = fopen(argv[1], "rb"), *wo = fopen(argv[2], "wb");
    FILE *ci = fopen(argv[3], "rb"), *co = fopen(argv[4], "wb");
    CHECK(wi && wo && ci && co);
    static ta_arena_t arena;
    CHECK(ta_arena_init(&arena, memory, sizeof memory) == TA_OK);
{blobs(wake, "wake")}
{blobs(clf, "clf")}
    const ta_module_desc_t *descs[2] = {{&wake_module_desc, &clf_module_desc}};
    size_t scratch_size = 0, scratch_align = 0;
    CHECK(ta_modules_scratch_requirement(descs, 2, &scratch_size, &scratch_align) == TA_OK);
    size_t got = 0;
    void *scratch = ta_arena_alloc_modules_scratch(&arena, descs, 2, TA_BIND_SCRATCH_FROM_POOL, &got);
    CHECK(scratch != NULL && got >= scratch_size);
    ta_bind_options_t wopt = {{scratch, got, TA_BIND_SCRATCH_FROM_POOL, wake_blobs, wake_blob_sizes}};
    ta_bind_options_t copt = {{scratch, got, TA_BIND_SCRATCH_FROM_POOL, clf_blobs, clf_blob_sizes}};
    CHECK(ta_arena_bind_module(&arena, &wake_module_desc, &wopt) == TA_OK);
    CHECK(ta_arena_bind_module(&arena, &clf_module_desc, &copt) == TA_OK);

    wake_model_context_t w;
    clf_model_context_t c;
    CHECK(wake_model_init(&w) == TA_OK);
    CHECK(clf_model_init(&c) == TA_OK);
    unsigned char out[65536];
    for (long r = 0; r < runs; r++) {{
        io(wi, w.inputs[0].data, w.inputs[0].size);
        CHECK(wake_model_run(&w) == TA_OK);
        memcpy(out, w.outputs[0].data, w.outputs[0].size);
        fwrite(out, 1, w.outputs[0].size, wo);
        io(ci, c.inputs[0].data, c.inputs[0].size);
        CHECK(clf_model_run(&c) == TA_OK);
        memcpy(out, c.outputs[0].data, c.outputs[0].size);
        fwrite(out, 1, c.outputs[0].size, co);
    }}
    fclose(wi); fclose(ci); fclose(wo); fclose(co);

    ta_arena_stats_t st;
    CHECK(ta_arena_get_stats(&arena, &st) == TA_OK);
    size_t wp = 0, cp = 0, a = 0;
    CHECK(ta_module_persistent_requirement(&wake_module_desc, &wp, &a) == TA_OK);
    CHECK(ta_module_persistent_requirement(&clf_module_desc, &cp, &a) == TA_OK);
    printf("peak %zu persistent %zu scratch %zu modules persistent %zu+%zu\\n", st.arena_peak,
           st.persistent_used, st.scratch_used, wp, cp);
    /* The arena holds each module's state once and one scratch for both. */
    CHECK(st.arena_peak == st.persistent_used + st.scratch_used);
    CHECK(st.persistent_used >= wp + cp && st.persistent_used < wp + cp + 2 * st.alignment);
    CHECK(st.scratch_used >= scratch_size && st.scratch_used < scratch_size + st.alignment);
    return 0;
}}
"""


def test_two_models_share_one_runtime_arena(tmp_path):
    """Issue 6's integration: two converted models bound from one
    runtime/arena arena, separate persistent blocks, one shared scratch,
    outputs checked against the oracle, peak = persistent + larger scratch."""
    # Two stateful models: each keeps its own persistent state (the SVDF
    # memories) in the arena; one staged region of AD01 is persistent too.
    wake_model = module.MODELS / "tflm_keyword_scrambled_8bit.tflite"
    clf_model = module.MODELS / "tflm_keyword_scrambled.tflite"
    keys = {"memory.allocate_arenas": "false"}
    wake = convert(tmp_path, wake_model, "wake", "wake", keys=keys)
    clf = convert(tmp_path, clf_model, "clf", "clf", keys=keys)
    assert any(r["role"] == "persistent" for r in wake.views["regions"])
    assert any(r["role"] == "persistent" for r in clf.views["regions"])
    runs = 20
    wd, cd = wake_model.read_bytes(), clf_model.read_bytes()
    w_runs = oracle.random_inputs(wd, np.random.default_rng(7), runs)
    c_runs = oracle.random_inputs(cd, np.random.default_rng(8), runs)
    module.write_inputs(wake, w_runs, tmp_path / "w.in")
    module.write_inputs(clf, c_runs, tmp_path / "c.in")
    arena = module.ROOT / "runtime" / "arena"
    out = compile_and_run(tmp_path, [wake, clf], arena_program(wake, clf),
                          args=["w.in", "w.out", "c.in", "c.out", runs],
                          extra_srcs=["-I", str(arena), "-I", str(module.ROOT / "runtime" / "include"),
                                      str(arena / "ta_arena.c"), str(arena / "ta_arena_bind.c")])
    assert out.startswith("peak"), out
    w_out = module.read_outputs(wake, w_runs, (tmp_path / "w.out").read_bytes())
    c_out = module.read_outputs(clf, c_runs, (tmp_path / "c.out").read_bytes())
    assert difftest._count_diff(w_out, oracle.run_tflm(wd, w_runs, isolated=True))[1] == 0
    assert difftest._count_diff(c_out, oracle.run_tflm(cd, c_runs, isolated=True))[1] == 0


def test_reinitialization_resets_state(tmp_path):
    """model_init zeroes (or sets to their start values) every state tensor:
    after a re-initialization a stateful model repeats its outputs."""
    from tests.gen import variants
    # A variable that accumulates its inputs: every output depends on the
    # state the earlier runs left.
    case = variants.ALL["VARIABLES.int8"].draw(np.random.default_rng(4))
    path = tmp_path / "acc.tflite"
    path.write_bytes(case.model)
    m = convert(tmp_path, path, "mod", "m")
    assert any(r["role"] == "persistent" for r in m.views["regions"])
    exe = module.build(m)
    runs = oracle.random_inputs(path.read_bytes(), np.random.default_rng(6), 6)
    straight = module.run(m, exe, runs + runs)
    again = module.run(m, exe, runs + runs, reinit_each=False)
    assert difftest._count_diff(straight, again)[1] == 0
    # The state carries over: the second pass differs from the first...
    first, second = straight[:6], straight[6:]
    assert difftest._count_diff(first, second)[1] > 0
    # ...unless the model is re-initialized before it.
    src = tmp_path / "reinit.c"
    src.write_text(CHECK + """
#include "m_model.h"
int main(int argc, char **argv)
{
    CHECK(argc == 4);
    long runs = strtol(argv[3], NULL, 10);
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    CHECK(in && out);
    m_model_context_t ctx;
    for (int pass = 0; pass < 2; pass++) {
        CHECK(m_model_init(&ctx) == TA_OK);
        fseek(in, 0, SEEK_SET);
        for (long r = 0; r < runs; r++) {
            CHECK(fread(ctx.inputs[0].data, 1, ctx.inputs[0].size, in) == ctx.inputs[0].size);
            CHECK(m_model_run(&ctx) == TA_OK);
            fwrite(ctx.outputs[0].data, 1, ctx.outputs[0].size, out);
        }
    }
    fclose(in);
    fclose(out);
    return 0;
}
""")
    module.write_inputs(m, runs, tmp_path / "r.in")
    compile_and_run(tmp_path, [m], src.read_text(), args=["r.in", "r.out", 6])
    both = module.read_outputs(m, runs + runs, (tmp_path / "r.out").read_bytes())
    assert difftest._count_diff(both[:6], both[6:])[1] == 0
    assert difftest._count_diff(both[:6], first)[1] == 0


RESNET8 = module.MODELS / "mlperf_tiny_ic_resnet8_quant.tflite"


def total_ram(m):
    """Every scratch and persistent arena of the module (issue 13's total)."""
    res = json.loads((m.path / f"{m.prefix}_residency.json").read_text())
    return sum(r["size"] for r in res["regions"] if r["role"] in ("scratch", "persistent"))


def test_resnet8_fits_its_ram_goal_bit_exact(tmp_path):
    """Issue 13: ResNet-8 in at most 33,000 bytes of RAM (default settings,
    host), where keeping every tensor whole and apart needs 49,152: the
    convolution before each ADD writes into the residual's bytes."""
    keys = {"memory.dump_residency_json": "true"}
    report = difftest.compare_model(RESNET8, tmp_path / "fused", n_runs=10, seed=13,
                                    litert=False, keys=keys)
    assert report.diff["tflm"] == 0
    fused = module.Module(tmp_path / "fused" / "module", "m", None, "", "")
    apart = convert(tmp_path, RESNET8, "apart", "m",
                    keys={**keys, "transforms": "{FUSE_RESIDUAL_ADD: false}",
                          "memory.output_over_input": "false",
                          "memory.row_streaming": "off"})  # whole tensors
    assert total_ram(fused) <= 33000
    assert total_ram(apart) == 49152
    res = json.loads((fused.path / "m_residency.json").read_text())
    pieces = [t for t in res["tensors"] if t["id"].endswith(".piece")]
    # Default settings run the blocks in a row chain: a piece is a whole
    # 512-byte output row (192 bytes at most without row streaming).
    assert len(pieces) == 3 and all(t["size"] <= 512 for t in pieces)
