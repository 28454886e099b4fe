"""documentation.html (issue 14, item 4): <prefix>_documentation.html,
rendered by headless Chromium (Debian's `chromium`, which scripts/deps.sh
installs). The page Chromium builds must hold the tables and, per region,
one rectangle per planned tensor at the plan's offset and size, as wide as
the tensor lives, whose hover text names it; the page must load nothing
from the network (checked in Chromium's network log, with a page that does
load something as the control); a screenshot must show the picture; names
from the model must stay text; the same conversion writes the same bytes.
Issue 22 (finding 7): laid out 1,280 pixels wide, no element of the page
reaches past the edge, large rectangles carry their tensor's id and name
inside them and clear of each other, no tensor is drawn under 3 pixels,
and the inputs-and-outputs table gives the tensor's bytes (the allocation
apart).

Without chromium the tests fail (they are not skipped): the fixture says
how to install it."""

import html
import io
import json
import pathlib
import shutil
import subprocess
from html.parser import HTMLParser

import numpy as np
import pytest
from PIL import Image

from tests.gen.builder import ModelBuilder, Q
from tests.harness import module

MODELS = module.MODELS
HELLO = MODELS / "tflm_hello_world_int8.tflite"
KWS = MODELS / "mlperf_tiny_kws_ref_model.tflite"
SVDF = MODELS / "tflm_keyword_scrambled.tflite"
# 31 operators, outputs planned over inputs: rectangles that overlap
PERSON = MODELS / "tflm_person_detect.tflite"

# The screen width the page must fit (issue 22, finding 7).
WIDTH = 1280

# The CSS colours of the tensor kinds (src/emit/documentation.css).
SCRATCH_RGB = (0x9B, 0xD3, 0xA6)
CONSTANT_RGB = (0xC7, 0xCD, 0xD5)

# A placement that uses every kind of region: scratch in DTCM, cold
# constants in MRAM, one constant staged into SRAM (apollo510_evb).
STAGED = {"platform.name": "apollo510_evb",
          "memory.tensors": [{"type": "constant", "attributes": {"memory": "MRAM"}},
                             {"type": "constant", "id": "11",
                              "attributes": {"memory": "MRAM",
                                                        "constant_destination_memory": "SRAM"}}]}

HOSTILE_X = '</title><script>document.title="owned"</script><img src="http://127.0.0.1:9/n.png">'
HOSTILE_Y = b'y" onmouseover="alert(1)" &amp; \xff end'


@pytest.fixture(scope="module")
def chromium():
    path = shutil.which("chromium")
    assert path, ("chromium is missing: the module documentation is checked in headless "
                  "Chromium; scripts/deps.sh installs it as root (apt-get install chromium)")
    return path


def run_chromium(chromium, tmp, url, *args):
    """One headless run with a fresh profile and Chromium's own background
    traffic (updates, sync) turned off."""
    profile = pathlib.Path(tmp) / f"profile{len(list(pathlib.Path(tmp).glob('profile*')))}"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-default-apps", "--hide-scrollbars", f"--user-data-dir={profile}", *args,
           url]
    p = subprocess.run(cmd, capture_output=True, timeout=180)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-2000:]
    return p.stdout.decode()


class Page(HTMLParser):
    """What the tests read from the DOM: every element with its
    attributes, per section the table rows as cell texts, and per picture
    (svg data-region) its tensor rectangles with their hover text and the
    labels drawn on them (text.label, by tensor id)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.rows, self.figures, self.labels, self.frames = [], {}, {}, {}, {}
        self.section = self.region = self.rect = self.row = self.cell = self.label = None
        self.in_title = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag in ("h2", "h3"):
            self.section = a.get("id")
        elif tag == "tr":
            self.row = []
            self.rows.setdefault(self.section, []).append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.row.append(self.cell)
        elif tag == "svg" and "data-region" in a:
            self.region = int(a["data-region"])
            self.figures[self.region] = []
            self.labels[self.region] = {}
        elif tag == "rect" and "tensor" in a.get("class", "").split():
            self.rect = dict(a, title="")
            self.figures[self.region].append(self.rect)
        elif tag == "rect" and a.get("class") == "frame":
            self.frames[self.region] = {k: float(a[k]) for k in ("x", "y", "width", "height")}
        elif tag == "text" and "label" in a.get("class", "").split():
            self.label = a["data-id"]
            self.labels[self.region][self.label] = ""
        elif tag == "title" and self.rect is not None:
            self.in_title = True
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        elif tag == "rect":
            self.rect = None
        elif tag == "text":
            self.label = None
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.in_title:
            self.rect["title"] += data
        if self.label is not None:
            self.labels[self.region][self.label] += data
        if self.cell is not None:
            self.cell.append(data)

    def table(self, section):
        """The rows under a section heading, header row first, as texts."""
        return [["".join(c) for c in row] for row in self.rows.get(section, [])]


def convert(tmp, model, prefix, keys=None, name="mod"):
    keys = dict(keys or {}, **{"documentation.html": "true",
                               "memory.dump_residency_json": "true"})
    m = module.convert(model, pathlib.Path(tmp) / name, prefix, keys)
    page = m.path / f"{prefix}_documentation.html"
    assert page.is_file(), sorted(p.name for p in m.path.iterdir())
    residency = json.loads((m.path / f"{prefix}_residency.json").read_text())
    return m, page, residency


def without_csp(page, tmp, extra=""):
    """A copy of the page without its Content-Security-Policy (which would
    block a fetch before the network log sees it), plus `extra` markup."""
    text = page.read_text(encoding="utf-8")
    start = text.index('<meta http-equiv="Content-Security-Policy"')
    text = text[:start] + text[text.index(">", start) + 1:]
    copy = pathlib.Path(tmp) / ("open_" + page.name)
    copy.write_text(text.replace("</body>", extra + "</body>"), encoding="utf-8")
    return copy


def page_requests(chromium, tmp, page):
    """The URLs the page itself asked the network for (Chromium's network
    log; requests of a file:// page carry file:// as their isolation key)."""
    log = pathlib.Path(tmp) / "netlog.json"
    run_chromium(chromium, tmp, page.as_uri(), f"--log-net-log={log}",
                 "--net-log-capture-mode=Everything", "--virtual-time-budget=3000", "--dump-dom")
    events = json.loads(log.read_text())
    kinds = {v: k for k, v in events["constants"]["logEventTypes"].items()}
    urls = set()
    for e in events["events"]:
        params = e.get("params", {})
        if (kinds.get(e["type"]) == "URL_REQUEST_START_JOB"
                and "file://" in params.get("network_isolation_key", "")
                and not params.get("url", "").startswith(("file:", "data:"))):
            urls.add(params["url"])
    return urls


def check_picture(dom, views, residency):
    """One rectangle per planned tensor of every region, where the plan put
    it, as wide as it lives, with its name, id, size and lifetime; drawn in
    the region's frame, at least MIN_PX tall, and apart from every tensor
    whose bytes it does not share."""
    num_ops = len(views["operators"])
    tensors = {t["id"]: t for t in residency["tensors"]}
    names = {t["id"]: t["name"] for t in views["tensors"]}
    assert sorted(dom.figures) == [r["id"] for r in views["regions"]]
    for region in residency["regions"]:
        rects = {r["data-id"]: r for r in dom.figures[region["id"]]}
        assert len(rects) == len(dom.figures[region["id"]]), "a tensor drawn twice"
        planned = {t["id"] for t in residency["tensors"]
                   if t["region_id"] == region["id"] and t["alias_of"] is None}
        assert set(rects) == planned and len(planned) == region["tensors"], region["name"]
        check_geometry(dom.frames[region["id"]], rects, num_ops + 1)
        for tid, rect in rects.items():
            t = tensors[tid]
            assert int(rect["data-offset"]) == t["offset"] and int(rect["data-size"]) == t["size"]
            title = rect["title"]
            assert title.startswith(f"tensor {tid} "), title
            assert f"{t['size']:,} bytes at offset {t['offset']:,} of {region['name']}" in title
            if names[tid] is not None:
                assert f'"{names[tid]}"' in title
            for alias in (a["id"] for a in residency["tensors"] if a["alias_of"] == tid):
                assert alias in title.split("also tensors ")[1], (tid, alias)
            if region["role"] != "scratch":
                assert columns_of(dom.frames[region["id"]], rect, num_ops + 1) == (0, num_ops), tid
                assert f"the life of the module ({region['role']}" in title.replace(
                    "persistent state", "persistent"), title
                continue
            first, last = t["first_op"], t["last_op"]
            assert columns_of(dom.frames[region["id"]], rect, num_ops + 1) == (first, last), tid
            assert (int(rect["data-first"]), int(rect["data-last"])) == (first, last)
            start = ("before operator 0" if t["io"] == "input"
                     else f"from operator {first} ({views['operators'][first]['type']})")
            end = ("after the run" if last == num_ops
                   else f"to operator {last} ({views['operators'][last]['type']})")
            assert start in title and end in title, title


# The least height of a tensor's rectangle, in pixels (emit_html.c MIN_TENSOR_PX).
MIN_PX = 3


def box(rect):
    return [float(rect[k]) for k in ("x", "y", "width", "height")]


def columns_of(frame, rect, columns):
    """The first and last operator column a rectangle covers."""
    x, _, w, _ = box(rect)
    column = frame["width"] / columns
    return round((x - frame["x"]) / column), round((x + w - frame["x"]) / column) - 1


def check_geometry(frame, rects, columns):
    """Inside the frame, at least MIN_PX tall, and where two tensors' bytes
    are apart, so are their rectangles (ordered as their offsets)."""
    eps = 0.015
    for tid, rect in rects.items():
        x, y, w, h = box(rect)
        assert h >= MIN_PX - eps, (tid, h)
        assert frame["y"] - eps <= y and y + h <= frame["y"] + frame["height"] + eps, tid
        assert frame["x"] - eps <= x and x + w <= frame["x"] + frame["width"] + eps, tid
    spans = sorted((int(r["data-offset"]), int(r["data-size"]), box(r)[1], box(r)[3], tid)
                   for tid, r in rects.items())
    for i, (offset, size, y, h, tid) in enumerate(spans):
        for other_offset, _, other_y, _, other in spans[i + 1:]:
            if other_offset >= offset + size:
                assert other_y >= y + h - eps, (tid, other)


def tensor_bytes(t):
    """A tensor's own bytes: its elements times its element size (not the
    allocation, which the region's alignment rounds up)."""
    return int(np.prod(t["shape"], dtype=np.int64)) * np.dtype(module.DTYPES[t["dtype"]]).itemsize


def check_tables(dom, views, residency):
    ops = dom.table("operators")[1:]
    assert len(ops) == len(views["operators"])
    for row, op in zip(ops, views["operators"]):
        assert row[0] == str(op["layer_index"]) and row[1] == op["symbol"] and row[2] == op["type"]
        assert row[6] == ("" if op["macs"] is None else f"{op['macs']:,}")
        for role, function in op["kernel_calls"].items():
            assert f"{role}: {function}" in row[8]
        for tid in op["input_ids"] + op["output_ids"]:
            assert any(line.startswith(tid + " ") for line in (row[4] + "\n" + row[5]).split("\n"))
    io = dom.table("io")[1:]
    expected = [t for t in views["tensors"] if t["input_index"] is not None] + \
               [t for t in views["tensors"] if t["output_index"] is not None]
    assert [(r[0], r[2]) for r in io] == [("input" if t["input_index"] is not None else "output",
                                           t["id"]) for t in expected]
    for row, t in zip(io, expected):
        assert row[4] == t["dtype"] and row[5] == str(t["shape"])
        assert [row[10], row[11]] == [f"{tensor_bytes(t):,}", f"{t['nbytes']:,}"], row
        if t["quantization"]:
            assert row[6].split(", ")[0] == repr(t["quantization"]["scale"][0])
            assert row[7].split(", ")[0] == str(t["quantization"]["zero_point"][0])
    types = dom.table("operator-types")[1:]
    assert [r[0] for r in types] == list(dict.fromkeys(op["type"] for op in views["operators"]))
    for row in types:
        same = [op for op in views["operators"] if op["type"] == row[0]]
        assert row[1] == str(len(same))
        assert row[2] == f"{sum(op['macs'] or 0 for op in same):,}"
    tensors = dom.table("tensors")[1:]
    by_id = {t["id"]: t for t in residency["tensors"]}
    assert [r[1] for r in tensors] == [t["id"] for t in views["tensors"]]
    for row, t in zip(tensors, views["tensors"]):
        placed, r = views["placements"][t["id"]], by_id[t["id"]]
        assert row[3] == t["kind"] and row[5] == str(t["shape"]), row
        assert row[6] == (str(placed["region"]) if placed["region"] is not None
                          else "none (no bytes)")
        assert [row[7], row[8], row[9]] == [f"{placed['offset']:,}", f"{tensor_bytes(t):,}",
                                            f"{placed['size']:,}"]
        assert [row[10], row[11]] == [str(r["first_op"]) if r["first_op"] >= 0 else "",
                                      str(r["last_op"]) if r["last_op"] >= 0 else ""]
        assert row[12] == (r["alias_of"] or "")
    regions = dom.table("regions")[1:]
    assert [r[10] for r in regions] == [r["symbol"] or "bound by the application"
                                        for r in views["regions"]]
    assert [r[11] for r in regions] == [r["source_symbol"] or r["sidecar_file"] or ""
                                        for r in views["regions"]]
    assert [r[1] for r in regions] == [r["name"] for r in residency["regions"]]
    assert [int(r[0]) for r in regions] == [r["id"] for r in views["regions"]]
    assert [r[2] for r in regions] == [r["role"] for r in views["regions"]]
    assert [int(r[6].replace(",", "")) for r in regions] == [r["size"] for r in views["regions"]]


def check_self_contained(dom):
    """Nothing in the page names a resource: no element that fetches, no
    link off the page, no script, no event handler."""
    for tag, attrs in dom.elements:
        assert tag not in ("script", "img", "link", "iframe", "object", "embed", "image",
                           "use", "video", "audio", "source", "base"), tag
        for key, value in attrs.items():
            assert not key.startswith("on"), (tag, key)
            assert key != "src", (tag, key)
            if key in ("href", "xlink:href", "action"):
                assert value.startswith("#"), (tag, key, value)


@pytest.mark.parametrize("model,keys", [(HELLO, {}), (KWS, STAGED), (SVDF, {}),
                                        (HELLO, {"memory.allocate_arenas": "false"})],
                         ids=["hello_world", "kws_staged", "svdf_persistent", "bound_arenas"])
def test_page_renders_the_plan(chromium, tmp_path, model, keys):
    m, page, residency = convert(tmp_path, model, "doc", keys)
    text = page.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    dom = Page(run_chromium(chromium, tmp_path, page.as_uri(), "--dump-dom"))
    check_self_contained(dom)
    check_tables(dom, m.views, residency)
    check_picture(dom, m.views, residency)
    assert page_requests(chromium, tmp_path, without_csp(page, tmp_path)) == set()


def test_every_region_kind_is_drawn(tmp_path):
    roles = set()
    for model, keys in [(KWS, STAGED), (SVDF, {})]:
        _, _, residency = convert(tmp_path, model, "doc", keys, name=model.stem)
        roles |= {(r["role"], r["staged"]) for r in residency["regions"]}
    assert roles >= {("scratch", False), ("constant", False), ("constant", True),
                     ("persistent", False)}, roles


def test_network_log_sees_a_page_that_loads_something(chromium, tmp_path):
    # The control: the same page with an image and a stylesheet from
    # elsewhere; if the log missed them, the check above would prove nothing.
    _, page, _ = convert(tmp_path, HELLO, "doc")
    extra = ('<img src="http://127.0.0.1:9/probe.png">'
             '<link rel="stylesheet" href="http://127.0.0.1:9/probe.css">')
    urls = page_requests(chromium, tmp_path, without_csp(page, tmp_path, extra))
    assert urls == {"http://127.0.0.1:9/probe.png", "http://127.0.0.1:9/probe.css"}, urls


def png_pixels(data):
    """RGB pixels of the PNG Chromium writes (Pillow decodes it: a pure
    Python decoder took a minute on the 1280 x 9000 page)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), np.int16)


def test_screenshot_shows_the_picture(chromium, tmp_path):
    _, page, residency = convert(tmp_path, KWS, "doc")
    shot = tmp_path / "page.png"
    run_chromium(chromium, tmp_path, page.as_uri(), f"--window-size={WIDTH},12000",
                 f"--screenshot={shot}")
    pixels = png_pixels(shot.read_bytes())
    assert pixels.shape[1] == WIDTH, pixels.shape
    # Where Chromium laid out the labels and rectangles (the same width,
    # so the same places): the labels show as dark text, and the smallest
    # tensor as a line of its colour at least MIN_PX tall.
    seen = measured(chromium, tmp_path, page)
    assert seen["labels"], "no labels"
    for key, (left, top, right, bottom) in seen["labels"].items():
        area = pixels[int(top):int(bottom) + 1, int(left):int(right) + 1]
        assert np.count_nonzero((area < 110).all(axis=2)) >= 10, key
    drawn = [t for t in residency["tensors"] if t["alias_of"] is None and t["size"] > 0]
    smallest = min(drawn, key=lambda t: t["size"])
    left, top, right, bottom = seen["rects"][f"{smallest['region_id']}:{smallest['id']}"]
    assert bottom - top >= MIN_PX - 0.05
    fill = {"scratch": SCRATCH_RGB, "constant": CONSTANT_RGB}[
        next(r["role"] for r in residency["regions"] if r["id"] == smallest["region_id"])]
    area = pixels[int(top):int(bottom) + 1, int(left) + 2:int(right) - 2]
    rows = (np.abs(area - np.array(fill, np.int16)) <= 12).all(axis=2).mean(axis=1)
    assert (rows > 0.9).any(), (smallest, rows)
    # distinct colours, each packed into one integer (np.unique over rows
    # of three took minutes on the 11.5 million pixels)
    wide = pixels.astype(np.int32)
    packed = (wide[:, :, 0] << 16) | (wide[:, :, 1] << 8) | wide[:, :, 2]
    assert len(np.unique(packed)) > 50, "a blank screenshot"

    def painted(rgb):
        near = (np.abs(pixels - np.array(rgb, np.int16)) <= 3).all(axis=2)
        return int(np.count_nonzero(near))

    # The legend's swatches are 144 pixels each: these are the rectangles.
    assert painted(SCRATCH_RGB) > 20000 and painted(CONSTANT_RGB) > 20000


def test_names_from_the_model_stay_text(chromium, tmp_path):
    rng = np.random.default_rng(0)
    b = ModelBuilder()
    x = b.tensor([1, 8], "int8", Q(0.1, -5), name=HOSTILE_X)
    y = b.tensor([1, 4], "int8", Q(0.2, 3), name="y")
    w = b.const(rng.integers(-127, 128, (4, 8)).astype(np.int8), "int8", Q(0.02, 0), name="w")
    b.g.tensors[y].name = HOSTILE_Y
    b.op("FULLY_CONNECTED", [x, w], [y], "FullyConnectedOptions")
    model = tmp_path / "hostile.tflite"
    model.write_bytes(b.build(inputs=[x], outputs=[y]))
    m, page, _ = convert(tmp_path, model, "doc")
    dom = Page(run_chromium(chromium, tmp_path, page.as_uri(), "--dump-dom"))
    check_self_contained(dom)
    y_text = HOSTILE_Y.decode("utf-8", errors="replace")
    titles = [r["title"] for rects in dom.figures.values() for r in rects]
    assert any(f'"{HOSTILE_X}"' in t for t in titles) and any(f'"{y_text}"' in t for t in titles)
    assert [r[3] for r in dom.table("io")[1:]] == [HOSTILE_X, y_text]
    assert page_requests(chromium, tmp_path, without_csp(page, tmp_path)) == set()


def test_same_conversion_same_bytes(tmp_path):
    pages = [convert(tmp_path, KWS, "doc", STAGED, name=name)[1].read_bytes()
             for name in ("a", "b")]
    assert pages[0] == pages[1]
    # Nothing of where the module was written reaches the page.
    assert str(tmp_path).encode() not in pages[0]


def test_off_by_default_and_checked(tmp_path):
    m = module.convert(HELLO, tmp_path / "plain", "doc")
    assert not list(m.path.glob("*.html"))
    for value, message in [("maybe", "documentation.html"), ("{html: yes, htm: 1}", "htm")]:
        key, val = ("documentation.html", value) if value == "maybe" else ("documentation", value)
        with pytest.raises(module.ConvertError) as e:
            module.convert(HELLO, tmp_path / "bad", "doc", {key: val})
        assert message in e.value.stderr and len(e.value.stderr.strip().splitlines()) == 1, \
            e.value.stderr
    assert not (tmp_path / "bad").exists()


# Issue 22, finding 7: at 1,280 pixels across nothing leaves the screen,
# rectangles large enough carry their tensor's id and name, a tensor of a
# few bytes is still drawn MIN_PX tall, and the inputs-and-outputs table
# gives a tensor's own bytes.

SCOPE = "model/a_rather_long_scope_name_as_converters_write_them/" * 5

# Run in a copy of the page once it is laid out: every element's right
# edge, and per picture the boxes Chromium drew for rectangles and labels.
MEASURE = """<script>
addEventListener("load", () => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const out = {inner: innerWidth, scroll: document.documentElement.scrollWidth,
               right: 0, widest: "", rects: {}, labels: {}};
  for (const e of document.body.querySelectorAll("*")) {
    const right = e.getBoundingClientRect().right;
    if (right > out.right) { out.right = right; out.widest = e.tagName + " " + e.textContent.slice(0, 60); }
  }
  for (const svg of document.querySelectorAll("svg[data-region]")) {
    const region = svg.getAttribute("data-region");
    for (const r of svg.querySelectorAll("rect.tensor")) out.rects[region + ":" + r.getAttribute("data-id")] = box(r);
    for (const t of svg.querySelectorAll("text.label")) out.labels[region + ":" + t.getAttribute("data-id")] = box(t);
  }
  const pre = document.createElement("pre");
  pre.id = "measured";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def long_names_model(tmp):
    """Two FULLY_CONNECTEDs whose tensors carry 300-character names; the
    output is [1, 2] int8: 2 bytes, allocated 16."""
    rng = np.random.default_rng(1)
    b = ModelBuilder()
    x = b.tensor([1, 256], "int8", Q(0.1, -5), name=SCOPE + "serving_default_features:0")
    h = b.tensor([1, 64], "int8", Q(0.2, 3), name=SCOPE + "dense/MatMul;dense/BiasAdd;dense/Relu")
    y = b.tensor([1, 2], "int8", Q(0.2, 3), name=SCOPE + "StatefulPartitionedCall:0")
    w1 = b.const(rng.integers(-127, 128, (64, 256)).astype(np.int8), "int8", Q(0.02, 0),
                 name=SCOPE + "dense/kernel")
    w2 = b.const(rng.integers(-127, 128, (2, 64)).astype(np.int8), "int8", Q(0.02, 0),
                 name=SCOPE + "dense_1/kernel")
    b.op("FULLY_CONNECTED", [x, w1], [h], "FullyConnectedOptions")
    b.op("FULLY_CONNECTED", [h, w2], [y], "FullyConnectedOptions")
    model = pathlib.Path(tmp) / "long_names.tflite"
    model.write_bytes(b.build(inputs=[x], outputs=[y]))
    return model


def measured(chromium, tmp, page):
    """What MEASURE saw in a copy of the page laid out WIDTH pixels wide."""
    copy = without_csp(page, tmp, MEASURE)
    dom = run_chromium(chromium, tmp, copy.as_uri(), f"--window-size={WIDTH},2000",
                       "--virtual-time-budget=3000", "--dump-dom")
    start = dom.index('<pre id="measured">') + len('<pre id="measured">')
    return json.loads(html.unescape(dom[start:dom.index("</pre>", start)]))


def inside(inner, outer, slack=0.5):
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def apart(a, b):
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def check_labels(dom, m, seen):
    """Each label is the tensor's id, then as much of its name as fits in
    its lines (cut with an ellipsis), inside its rectangle and clear of the
    others;
    the tallest and widest rectangles all have one."""
    names = {t["id"]: t["name"] or "" for t in m.views["tensors"]}
    for region, labels in dom.labels.items():
        for tid, text in labels.items():
            head, _, rest = text.partition(" ")
            assert head == tid, text
            if rest.endswith("\u2026"):
                assert names[tid].startswith(rest[:-1]) and len(rest) <= len(names[tid]), text
            else:
                assert rest in ("", names[tid]), text  # the id alone, or all of it
            key = f"{region}:{tid}"
            assert inside(seen["labels"][key], seen["rects"][key]), (key, text)
        boxes = [seen["labels"][f"{region}:{tid}"] for tid in labels]
        assert all(apart(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]), region
        # every rectangle at least 20 pixels tall and 200 wide is labelled,
        # and a region with one 20 by 60 pixels has labels
        sizes = {key.split(":")[1]: (r[3] - r[1], r[2] - r[0])
                 for key, r in seen["rects"].items() if key.startswith(f"{region}:")}
        big = {tid for tid, (h, w) in sizes.items() if h >= 20 and w >= 200}
        assert big <= set(labels), (region, big, sorted(labels))
        if any(h >= 20 and w >= 60 for h, w in sizes.values()):
            assert labels, region
    assert any(dom.labels.values()), "no labels"


@pytest.mark.parametrize("model", ["long_names", KWS, PERSON],
                         ids=["long_names", "kws", "person_detect"])
def test_page_fits_1280_pixels_with_labels(chromium, tmp_path, model):
    model = long_names_model(tmp_path) if model == "long_names" else model
    m, page, residency = convert(tmp_path, model, "doc")
    seen = measured(chromium, tmp_path, page)
    assert seen["inner"] == WIDTH, seen["inner"]
    assert seen["scroll"] <= WIDTH and seen["right"] <= WIDTH, (seen["right"], seen["widest"])
    dom = Page(page.read_text(encoding="utf-8"))
    check_labels(dom, m, seen)
    # the smallest planned tensor still shows, and so does every other
    heights = {key: r[3] - r[1] for key, r in seen["rects"].items()}
    drawn = [t for t in residency["tensors"] if t["alias_of"] is None and t["size"] > 0]
    smallest = min(drawn, key=lambda t: t["size"])
    assert smallest["size"] <= 16, smallest
    assert heights[f"{smallest['region_id']}:{smallest['id']}"] >= MIN_PX - 0.05, smallest
    assert min(heights.values()) >= MIN_PX - 0.05, min(heights.items(), key=lambda kv: kv[1])
    # the output's bytes are the tensor's, the allocation apart
    out = next(t for t in m.views["tensors"] if t["output_index"] == 0)
    row = next(r for r in dom.table("io")[1:] if r[0] == "output")
    assert row[10] == f"{tensor_bytes(out):,}" and row[11] == f"{out['nbytes']:,}", row
    if model not in (KWS, PERSON):
        assert (tensor_bytes(out), out["nbytes"]) == (2, 16)
        assert any(len(text) < len(SCOPE) and text.endswith("\u2026")
                   for labels in dom.labels.values() for text in labels.values())
