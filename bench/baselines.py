"""The peers' figures, read from ../shared/baselines/cortex-m55.md and
cortex-m4.md (Markdown tables, numbers with thousands separators).

    from bench import baselines
    b = baselines.load("mps3-an547")
    b.models["mlperf_tiny_kws_ref_model"]   # {"TFLM ref": 41922325, ...}
    b.ops["mlperf_tiny_kws_ref_model"]      # {"CONV_2D": {"count": 5, "CMSIS-NN instr.": ...}}
    b.peers                                 # instruction columns of the model table

A cell '-' (the tool refuses the model) reads as None. A code cell such as
'26,575 (13,296)' (CMSIS-NN's share in brackets) reads as its first number.
"""

import dataclasses
import pathlib
import re

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared"
FILES = {"mps3-an547": "cortex-m55.md", "mps2-an386": "cortex-m4.md"}
# The instruction columns of the model tables (the others are code sizes).
PEERS = {"mps3-an547": ["TFLM ref", "TFLM + CMSIS-NN", "helia-aot"],
         "mps2-an386": ["TFLM ref", "TFLM + CMSIS-NN"]}
CODE = {"mps3-an547": {"TFLM + CMSIS-NN": "code TFLM + CMSIS-NN (B)",
                       "helia-aot": "code helia-aot (B)"},
        "mps2-an386": {"TFLM + CMSIS-NN": "code TFLM + CMSIS-NN (B)"}}
OUTSIDE = "(interpreter outside ops)"


@dataclasses.dataclass
class Baselines:
    board: str
    path: pathlib.Path
    peers: list
    code: dict      # peer -> code column name
    models: dict    # model -> {column: int or None}
    ops: dict       # model -> {op type or OUTSIDE: {"count": n, column: int}}


def number(cell):
    """'1,234' -> 1234; '-' or '' -> None; '26,575 (13,296)' -> 26575."""
    m = re.match(r"\s*([\d,]+)", cell)
    return int(m.group(1).replace(",", "")) if m else None


def tables(text):
    """Every Markdown table of text: a list of (header cells, rows of cells)."""
    found, header, rows = [], None, []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif header is not None:
            found.append((header, rows))
            header, rows = None, []
    return found


def load(board):
    path = SHARED / "baselines" / FILES[board]
    models, ops = {}, {}
    for header, rows in tables(path.read_text()):
        if header[:2] == ["model", "op type (count)"]:
            model = None
            for cells in rows:
                model = cells[0] or model
                m = re.fullmatch(r"(.+?)\s*\((\d+)\)", cells[1])
                name, count = (m.group(1), int(m.group(2))) if m else (cells[1], None)
                entry = {"count": count}
                for col, cell in zip(header[2:], cells[2:]):
                    entry[col] = number(cell)
                ops.setdefault(model, {})[name] = entry
        elif header[0] == "model":
            for cells in rows:
                models[cells[0]] = {col: number(cell) for col, cell in zip(header[1:], cells[1:])}
    return Baselines(board, path, PEERS[board], CODE[board], models, ops)


def best_peer(figures, peers):
    """(peer, instructions) of the fewest instructions among peers, or (None, None)."""
    known = [(figures.get(p), p) for p in peers if figures.get(p) is not None]
    if not known:
        return None, None
    n, p = min(known)
    return p, n
