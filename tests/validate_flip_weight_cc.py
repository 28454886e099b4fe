"""A C compiler wrapper that breaks a module on purpose, for tests/test_validate.py.

    CC="python tests/validate_flip_weight_cc.py" tinyaot validate ...

Before running the real compiler ($VALIDATE_REAL_CC, default cc) on its
arguments, it flips the top bit of the first byte of the largest constant
tensor in every `*_constants.c` it is given, once (a marker says it is
done): a weight byte corrupted in the generated module, which validate must
report as a mismatch.
"""

import os
import re
import sys

COMMENT = re.compile(r"^\s*/\* \+\d+: tensor .*\*/\s*$")
NUMBER = re.compile(r"\d+")


MARK = "/* one weight byte flipped by validate_flip_weight_cc.py */"


def flip_largest_tensor(path):
    text = open(path).read()
    if MARK in text:  # validate may compile the module more than once
        return
    lines = text.split("\n")
    blocks = []  # (count of values, index of the block's first data line)
    for i, line in enumerate(lines):
        if COMMENT.match(line):
            blocks.append([0, i + 1])
        elif blocks and not line.strip().startswith(("/*", "}")):
            blocks[-1][0] += len(NUMBER.findall(line))
    if not blocks:
        raise SystemExit("validate_flip_weight_cc: no constant tensor in %s" % path)
    count, first = max(blocks)
    m = NUMBER.search(lines[first])
    flipped = int(m.group()) ^ 0x80
    lines[first] = lines[first][:m.start()] + str(flipped) + lines[first][m.end():]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n" + MARK + "\n")
    sys.stderr.write("validate_flip_weight_cc: %s: byte %s -> %d (a tensor of %d bytes)\n"
                     % (path, m.group(), flipped, count))


def main():
    for arg in sys.argv[1:]:
        if arg.endswith("_constants.c"):
            flip_largest_tensor(arg)
    real = os.environ.get("VALIDATE_REAL_CC", "cc")
    os.execvp(real, [real] + sys.argv[1:])


if __name__ == "__main__":
    main()
