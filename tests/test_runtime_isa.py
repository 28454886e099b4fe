"""One ISA per runtime file (issue 27, item 6): a runtime/kernels/*.c file
holds the portable path (and the dispatch), or Helium (MVE) code, or DSP
(SIMD32) code, never both Helium and DSP code, so that each reads alone.

A file holds Helium code when it uses Helium vector types, intrinsics or
instructions, or a helper that a runtime header defines for Helium only;
DSP code likewise with the ACLE SIMD32 intrinsics and instructions and the
headers' DSP-only helpers. A dispatch that calls a kernel's *_mve and *_dsp
functions holds neither. Saturation (__ssat, __usat, __qadd) is not counted:
it is the portable integer code's on every Cortex-M with it.
"""

import re

from tests.harness import module

RUNTIME = module.ROOT / "runtime"
# Files that still mix both, to be split as ta_conv_2d.c,
# ta_depthwise_conv_2d.c and ta_fully_connected.c are (the elementwise
# kernels and the pools inline their row loop per ISA). The list may only
# shrink: a file on it that no longer mixes fails the test until it is
# taken off.
NOT_YET_SPLIT = {"ta_add_sub.c", "ta_maximum_minimum.c", "ta_mul.c", "ta_pooling.c",
                 "ta_pool_rows.c"}

ISA_MACRO = {"mve": re.compile(r"^(?:__ARM_FEATURE_MVE|TA_[A-Z0-9]+_MVE)$"),
             "dsp": re.compile(r"^(?:__ARM_FEATURE_DSP|TA_[A-Z0-9]+_DSP)$")}
TOKENS = {
    "mve": re.compile(r"\b(?:u?int|float)(?:8|16|32|64)x\d+(?:x\d)?_t\b|\bmve_pred16_t\b"
                      r"|\bv[a-z0-9]+q(?:_[a-z0-9]+)*\s*\("
                      r'|"[^"\n]*\b(?:wlstp|letp|vldr[bhw]|vstr[bhw]|vmladava|vmlava)\b'),
    "dsp": re.compile(r"\b__(?:sxtb16|sxtab16|uxtb16|uxtab16|smlad|smladx|smlald|smuad|smusd|smlsd"
                      r"|sadd8|ssub8|uadd8|usub8|qadd8|qsub8|qadd16|qsub16|sadd16|ssub16|usada8"
                      r"|usad8|sel|pkhbt|pkhtb|smmla|smmul|smmulr)\b"
                      r'|"[^"\n]*\b(?:sxtb16|sxtab16|smlad|ssub8|sel|usada8|smmulr|pkhbt)\b'),
}


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def required_isa(condition):
    """The ISA a preprocessor condition requires ('mve', 'dsp' or None):
    a conjunction with a positive defined() of that ISA's macro."""
    if "||" in condition:
        return None
    found = None
    for neg, macro in re.findall(r"(!?)\s*defined\s*\(?\s*(\w+)", condition):
        for isa, pattern in ISA_MACRO.items():
            if pattern.match(macro) and not neg:
                found = isa
    return found


def lines_by_isa(text):
    """(isa or None, code line) for every line outside preprocessor lines:
    the ISA its enclosing conditionals require (the innermost that does)."""
    stack = []  # per open #if: the ISA of the current branch
    for line in strip_comments(text).splitlines():
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
        if d:
            kind, cond = d.groups()
            if kind == "ifdef":
                stack.append(required_isa(f"defined({cond.strip()})"))
            elif kind == "ifndef":
                stack.append(None)
            elif kind == "if":
                stack.append(required_isa(cond))
            elif kind == "elif":
                stack[-1] = required_isa(cond)
            elif kind == "else":
                stack[-1] = None
            else:
                stack.pop()
            continue
        isa = next((i for i in reversed(stack) if i), None)
        yield isa, line


def header_helpers():
    """The ta_* functions the runtime headers define for one ISA only:
    isa -> set of names."""
    defined = {"mve": set(), "dsp": set()}
    for header in sorted(RUNTIME.rglob("*.h")):
        for isa, line in lines_by_isa(header.read_text()):
            m = re.match(r"(?:static\s+)?(?:inline\s+)?[\w\s\*]*?\b(\w+)\s*\([^;]*$", line)
            if isa and m and not line.startswith((" ", "\t")):
                defined[isa].add(m.group(1))
    both = defined["mve"] & defined["dsp"]
    return {isa: {n for n in names - both if n.startswith("ta_")} for isa, names in defined.items()}


def isas_used(path, helpers):
    """The ISAs whose code a source file holds."""
    code = strip_comments(path.read_text())
    used = set()
    for isa, pattern in TOKENS.items():
        names = helpers[isa]
        if pattern.search(code) or any(re.search(rf"\b{re.escape(n)}\b", code) for n in names):
            used.add(isa)
    return used


def mixed_files():
    helpers = header_helpers()
    return {p.name for p in sorted((RUNTIME / "kernels").glob("*.c"))
            if isas_used(p, helpers) == {"mve", "dsp"}}


def test_no_kernel_file_holds_both_helium_and_dsp_code():
    mixed = mixed_files()
    assert mixed <= NOT_YET_SPLIT, f"Helium and DSP code in one file: {sorted(mixed - NOT_YET_SPLIT)}"
    assert NOT_YET_SPLIT <= mixed, f"split now, take off NOT_YET_SPLIT: {sorted(NOT_YET_SPLIT - mixed)}"


def test_split_kernels_hold_one_isa_per_file():
    helpers = header_helpers()
    kernels = RUNTIME / "kernels"
    for stem in ("ta_conv_2d", "ta_depthwise_conv_2d", "ta_fully_connected"):
        assert isas_used(kernels / f"{stem}.c", helpers) == set(), stem
        assert isas_used(kernels / f"{stem}_mve.c", helpers) == {"mve"}, stem
        assert isas_used(kernels / f"{stem}_dsp.c", helpers) == {"dsp"}, stem


def test_the_check_sees_a_mixed_file(tmp_path):
    """The detector itself: one Helium and one DSP line make a mixed file,
    either alone does not, and a dispatch calling *_mve / *_dsp is neither."""
    helpers = header_helpers()
    mve = "static void f(int8_t *o) { vstrbq_s8(o, vdupq_n_s8(1)); }\n"
    dsp = "static uint32_t g(uint32_t a) { return __sxtb16(a); }\n"
    dispatch = ("#if defined(TA_HAVE_MVE)\n    ta_x_s8_mve(p);\n#elif defined(TA_HAVE_DSP)\n"
                "    ta_x_s8_dsp(p);\n#endif\n")
    cases = {"both.c": (mve + dsp, {"mve", "dsp"}), "mve.c": (mve, {"mve"}),
             "dsp.c": (dsp, {"dsp"}), "dispatch.c": (dispatch, set()),
             "helper.c": ("x = ta_sxtb16_ror8(v);\n", {"dsp"})}
    for name, (text, want) in cases.items():
        (tmp_path / name).write_text(text)
        assert isas_used(tmp_path / name, helpers) == want, name
