"""documentation.html (issue 14, item 4): <prefix>_documentation.html,
rendered by headless Chromium (Debian's `chromium`, which scripts/deps.sh
installs). The page Chromium builds must hold the tables and, per region,
one rectangle per planned tensor at the plan's offset and size, as wide as
the tensor lives, whose hover text names it; the page must load nothing
from the network (checked in Chromium's network log, with a page that does
load something as the control); a screenshot must show the picture; names
from the model must stay text; the same conversion writes the same bytes.

Without chromium the tests fail (they are not skipped): the fixture says
how to install it."""

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

# The CSS colours of the tensor kinds (src/emit/documentation.css).
SCRATCH_RGB = (0x5A, 0xA4, 0x69)
CONSTANT_RGB = (0x8C, 0x96, 0xA3)

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
    (svg data-region) its tensor rectangles with their hover text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.rows, self.figures = [], {}, {}
        self.section = self.region = self.rect = self.row = self.cell = None
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
        elif tag == "rect" and "tensor" in a.get("class", "").split():
            self.rect = dict(a, title="")
            self.figures[self.region].append(self.rect)
        elif tag == "title" and self.rect is not None:
            self.in_title = True
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        elif tag == "rect":
            self.rect = None
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.in_title:
            self.rect["title"] += data
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
    it, as wide as it lives, with its name, id, size and lifetime."""
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
        for tid, rect in rects.items():
            t = tensors[tid]
            assert int(rect["y"]) == t["offset"] and int(rect["height"]) == t["size"], tid
            title = rect["title"]
            assert title.startswith(f"tensor {tid} "), title
            assert f"{t['size']:,} bytes at offset {t['offset']:,} of {region['name']}" in title
            if names[tid] is not None:
                assert f'"{names[tid]}"' in title
            for alias in (a["id"] for a in residency["tensors"] if a["alias_of"] == tid):
                assert alias in title.split("also tensors ")[1], (tid, alias)
            if region["role"] != "scratch":
                assert (int(rect["x"]), int(rect["width"])) == (0, num_ops + 1), tid
                assert f"the life of the module ({region['role']}" in title.replace(
                    "persistent state", "persistent"), title
                continue
            first, last = t["first_op"], t["last_op"]
            assert (int(rect["x"]), int(rect["width"])) == (first, last - first + 1), tid
            assert (int(rect["data-first"]), int(rect["data-last"])) == (first, last)
            start = ("before operator 0" if t["io"] == "input"
                     else f"from operator {first} ({views['operators'][first]['type']})")
            end = ("after the run" if last == num_ops
                   else f"to operator {last} ({views['operators'][last]['type']})")
            assert start in title and end in title, title


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
        assert [row[7], row[8]] == [f"{placed['offset']:,}", f"{placed['size']:,}"]
        assert [row[9], row[10]] == [str(r["first_op"]) if r["first_op"] >= 0 else "",
                                     str(r["last_op"]) if r["last_op"] >= 0 else ""]
        assert row[11] == (r["alias_of"] or "")
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
    _, page, _ = convert(tmp_path, KWS, "doc")
    shot = tmp_path / "page.png"
    run_chromium(chromium, tmp_path, page.as_uri(), "--window-size=1280,9000",
                 f"--screenshot={shot}")
    pixels = png_pixels(shot.read_bytes())
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
