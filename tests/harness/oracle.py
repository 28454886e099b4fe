"""Numerical oracle: run a .tflite model in TFLite Micro (the reference the
generated C must match bit for bit) and, as a second opinion, in LiteRT with
its reference kernels.

    from tests.harness import oracle
    ins, outs = oracle.io_details(model)          # TensorInfo tuples
    runs = oracle.random_inputs(model, rng, 3)    # list of runs (lists of arrays)
    tflm = oracle.run_tflm(model, runs, isolated=True)
    lite = oracle.run_litert(model, runs, isolated=True)   # may raise OracleUnsupported
    arena = oracle.tflm_arena(model)              # {"total":..,"head":..,"tail":..}

Every function that runs an interpreter takes isolated=True to run it in a
child process: a crash or abort in C++ then raises OracleCrash in the caller
instead of killing it. The child is kept alive between calls (one per
interpreter kind) and restarted after a crash.

Consecutive runs of one call share one interpreter with no reset, so
stateful models (SVDF, LSTM, resource variables) carry their state from run to
run the way a device calling the model repeatedly does.
"""

import collections
import contextlib
import ctypes
import os
import pickle
import re
import struct
import subprocess
import sys
import tempfile
import threading

import numpy as np

__all__ = [
    "OracleError", "OracleFailed", "OracleUnsupported", "OracleCrash",
    "TensorInfo", "io_details", "model_io", "run_tflm", "run_litert",
    "tflm_arena", "random_inputs", "default_arena_size", "shutdown",
]


class OracleError(Exception):
    """Base class. .log holds what the interpreter printed, if anything."""

    def __init__(self, message, log=""):
        super().__init__(message + (("\n--- interpreter log ---\n" + log.strip())
                                    if log and log.strip() else ""))
        self.log = log or ""


class OracleFailed(OracleError):
    """TFLM refused the model (Prepare/AllocateTensors/Invoke error)."""


class OracleUnsupported(OracleError):
    """LiteRT cannot load, prepare or run the model."""


class OracleCrash(OracleError):
    """The isolated child process died (signal, abort) or timed out."""


TensorInfo = collections.namedtuple(
    "TensorInfo", "name shape dtype scales zero_points")

# --------------------------------------------------------------------------
# model parsing (no interpreter)

_NP_OF_TYPE = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8,
               4: np.int64, 6: np.bool_, 7: np.int16, 9: np.int8,
               10: np.float64, 12: np.uint64, 15: np.uint32, 16: np.uint16}


def _schema():
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated
    return schema_py_generated


def _model_obj(model):
    S = _schema()
    return S.ModelT.InitFromObj(S.Model.GetRootAsModel(bytearray(model), 0))


def _opcode_name(m, opcode_index):
    S = _schema()
    oc = m.operatorCodes[opcode_index]
    code = max(oc.builtinCode, oc.deprecatedBuiltinCode)
    for k, v in vars(S.BuiltinOperator).items():
        if v == code and not k.startswith("_"):
            return k
    return str(code)


def model_io(model):
    """(inputs, outputs) of subgraph 0 read from the flatbuffer itself:
    TensorInfo with the file's names, shapes, dtypes and quantization."""
    m = _model_obj(model)
    sg = m.subgraphs[0]

    def info(i):
        t = sg.tensors[i]
        q = t.quantization
        scales = [float(s) for s in (q.scale if q is not None and q.scale is not None else [])]
        zps = [int(z) for z in (q.zeroPoint if q is not None and q.zeroPoint is not None else [])]
        shape = tuple(int(d) for d in (t.shape if t.shape is not None else []))
        name = t.name.decode() if isinstance(t.name, bytes) else (t.name or "")
        return TensorInfo(name, shape, _NP_OF_TYPE.get(t.type), scales, zps)

    ins = [info(i) for i in (sg.inputs if sg.inputs is not None else [])]
    outs = [info(i) for i in (sg.outputs if sg.outputs is not None else [])]
    return ins, outs


def default_arena_size(model):
    """A generous TFLM arena: every tensor of every subgraph four times over,
    plus room for persistent data. Unused arena costs nothing (not touched)."""
    m = _model_obj(model)
    total = 0
    for sg in m.subgraphs:
        for t in (sg.tensors or []):
            n = int(np.prod(t.shape, dtype=np.int64)) if t.shape is not None else 1
            item = np.dtype(_NP_OF_TYPE.get(t.type, np.int64)).itemsize
            total += max(n, 1) * item + 64
    return int(4 * total + 4 * len(model) + (8 << 20))


# --------------------------------------------------------------------------
# capturing what C++ prints to file descriptors 1 and 2

_libc = None


def _fflush_all():
    global _libc
    try:
        if _libc is None:
            _libc = ctypes.CDLL(None)
        _libc.fflush(None)
    except Exception:
        pass


# In a worker the capture goes to a file the parent knows, so that what was
# printed before a crash can still be reported.
_CAPTURE_PATH = None


@contextlib.contextmanager
def _capture_fds():
    """Redirect fd 1 and 2 (C and Python) to a file; yields a list that
    receives the captured text on exit."""
    sys.stdout.flush()
    sys.stderr.flush()
    _fflush_all()
    if _CAPTURE_PATH is not None:
        f = open(_CAPTURE_PATH, "w+b")
    else:
        f = tempfile.TemporaryFile()
    saved = (os.dup(1), os.dup(2))
    out = []
    try:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        yield out
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        _fflush_all()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        f.seek(0)
        out.append(f.read().decode("utf-8", "replace"))
        f.close()


# --------------------------------------------------------------------------
# isolated execution: one long-lived child process per interpreter kind

_WORKER_TIMEOUT = 300.0


class _Worker:
    def __init__(self, kind):
        self.kind = kind
        self.proc = None
        self.logpath = None
        self.lock = threading.Lock()

    def _start(self):
        fd, self.logpath = tempfile.mkstemp(prefix="oracle-%s-" % self.kind,
                                            suffix=".log")
        os.close(fd)
        errf = open(self.logpath + ".stderr", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker",
             self.logpath],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errf,
            close_fds=True)
        errf.close()

    def _read_log(self):
        text = ""
        for p in (self.logpath, self.logpath + ".stderr"):
            try:
                with open(p, "rb") as f:
                    text += f.read().decode("utf-8", "replace")
            except OSError:
                pass
        return text

    def _cleanup(self):
        if self.proc is not None:
            try:
                self.proc.kill()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=10)
            except Exception:
                pass
            for s in (self.proc.stdin, self.proc.stdout):
                try:
                    s.close()
                except Exception:
                    pass
        self.proc = None
        if self.logpath:
            for p in (self.logpath, self.logpath + ".stderr"):
                try:
                    os.unlink(p)
                except OSError:
                    pass
        self.logpath = None

    def call(self, fname, args, kwargs, timeout=_WORKER_TIMEOUT):
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                self._cleanup()
                self._start()
            payload = pickle.dumps((fname, args, kwargs), protocol=4)
            timed_out = []

            def kill():
                timed_out.append(True)
                try:
                    self.proc.kill()
                except OSError:
                    pass

            timer = threading.Timer(timeout, kill)
            timer.start()
            try:
                try:
                    self.proc.stdin.write(struct.pack("<Q", len(payload)))
                    self.proc.stdin.write(payload)
                    self.proc.stdin.flush()
                    head = self.proc.stdout.read(8)
                    if len(head) != 8:
                        raise EOFError
                    (n,) = struct.unpack("<Q", head)
                    body = self.proc.stdout.read(n)
                    if len(body) != n:
                        raise EOFError
                except (EOFError, BrokenPipeError, OSError):
                    rc = self.proc.wait()
                    log = self._read_log()
                    self._cleanup()
                    if timed_out:
                        raise OracleCrash("%s worker timed out after %.0f s in %s"
                                          % (self.kind, timeout, fname), log) from None
                    how = ("signal %d" % -rc) if rc < 0 else ("exit code %d" % rc)
                    raise OracleCrash("%s worker died (%s) in %s"
                                      % (self.kind, how, fname), log) from None
            finally:
                timer.cancel()
        status, value = pickle.loads(body)
        if status == "ok":
            return value
        cls_name, message, log = value
        cls = {"OracleFailed": OracleFailed,
               "OracleUnsupported": OracleUnsupported,
               "OracleCrash": OracleCrash}.get(cls_name, OracleError)
        err = cls(message, log)
        raise err

    def stop(self):
        with self.lock:
            self._cleanup()


_WORKERS = {}


def _worker(kind):
    if kind not in _WORKERS:
        _WORKERS[kind] = _Worker(kind)
    return _WORKERS[kind]


def shutdown():
    """Stop the isolated worker processes (they also exit with the caller)."""
    for w in _WORKERS.values():
        w.stop()


def _worker_main(logpath):
    global _CAPTURE_PATH
    _CAPTURE_PATH = logpath
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    # Unbuffered C stdout so that messages printed just before a crash reach
    # the log file.
    try:
        libc = ctypes.CDLL(None)
        for name in ("stdout", "stderr"):
            fp = ctypes.c_void_p.in_dll(libc, name)
            libc.setvbuf(fp, None, 2, 0)  # _IONBF
    except Exception:
        pass
    funcs = {"run_tflm": _run_tflm_local, "run_litert": _run_litert_local,
             "tflm_arena": _tflm_arena_local,
             "io_details": lambda m: tuple([tuple(t) for t in side]
                                           for side in _io_details_local(m))}
    while True:
        head = proto_in.read(8)
        if len(head) != 8:
            return
        (n,) = struct.unpack("<Q", head)
        fname, args, kwargs = pickle.loads(proto_in.read(n))
        try:
            result = ("ok", funcs[fname](*args, **kwargs))
        except OracleError as e:
            result = ("err", (type(e).__name__, str(e).split(
                "\n--- interpreter log ---\n")[0], e.log))
        except Exception as e:  # noqa: BLE001 - reported to the parent
            result = ("err", ("OracleError", "%s: %s" % (type(e).__name__, e), ""))
        data = pickle.dumps(result, protocol=4)
        proto_out.write(struct.pack("<Q", len(data)))
        proto_out.write(data)
        proto_out.flush()


# --------------------------------------------------------------------------
# TFLM

def _tflm_interpreter(model, arena_size):
    from tflite_micro.python.tflite_micro import runtime
    if arena_size is None:
        arena_size = default_arena_size(model)
    with _capture_fds() as log:
        try:
            it = runtime.Interpreter.from_bytes(bytes(model),
                                                arena_size=int(arena_size))
            err = None
        except Exception as e:  # noqa: BLE001
            it, err = None, e
    if err is not None:
        raise OracleFailed("TFLM could not prepare the model: %s" % err, log[0])
    return it


def _tflm_invoke(it, inputs, n_inputs):
    if len(inputs) != n_inputs:
        raise ValueError("model has %d inputs, got %d" % (n_inputs, len(inputs)))
    with _capture_fds() as log:
        try:
            for i, x in enumerate(inputs):
                it.set_input(np.array(x, order="C", copy=True), i)
            it.invoke()
            err = None
        except Exception as e:  # noqa: BLE001
            err = e
    if err is not None:
        raise OracleFailed("TFLM invoke failed: %s" % err, log[0])


def _run_tflm_local(model, runs, arena_size=None):
    ins, outs = model_io(model)
    it = _tflm_interpreter(model, arena_size)
    results = []
    for inputs in runs:
        _tflm_invoke(it, inputs, len(ins))
        results.append([np.array(it.get_output(i), copy=True)
                        for i in range(len(outs))])
    return results


_ARENA_SHORT_RE = re.compile(
    r"Failed to allocate (tail|temp|memory|variable)|Failed to resize buffer")


def _retry_arena(fn, model, arena_size, *args):
    """Isolated call with a bigger arena when TFLM ran out of it."""
    size = arena_size or default_arena_size(model)
    for attempt in range(4):
        try:
            return fn(size)
        except (OracleCrash, OracleFailed) as e:
            if not _ARENA_SHORT_RE.search(e.log) or attempt == 3:
                raise
            size *= 8


def run_tflm(model, runs, isolated=False, arena_size=None, timeout=_WORKER_TIMEOUT):
    """Run `runs` (a list of runs, each a list of input arrays in model input
    order) consecutively on ONE TFLM interpreter; returns, per run, the list
    of output arrays. Raises OracleFailed if TFLM refuses the model."""
    runs = [[np.asarray(x) for x in r] for r in runs]
    if not isolated:
        return _run_tflm_local(bytes(model), runs, arena_size)
    return _retry_arena(
        lambda size: _worker("tflm").call(
            "run_tflm", (bytes(model), runs), {"arena_size": size}, timeout),
        model, arena_size)


def _io_details_local(model):
    names_in, names_out = model_io(model)
    it = _tflm_interpreter(model, None)

    def conv(d, name):
        q = d["quantization_parameters"]
        return TensorInfo(name, tuple(int(s) for s in d["shape"]),
                          np.dtype(d["dtype"]).type,
                          [float(s) for s in q["scales"]],
                          [int(z) for z in q["zero_points"]])

    with _capture_fds():
        ins = [conv(it.get_input_details(i), names_in[i].name)
               for i in range(len(names_in))]
        outs = [conv(it.get_output_details(i), names_out[i].name)
                for i in range(len(names_out))]
    return ins, outs


def io_details(model, isolated=False):
    """(inputs, outputs): lists of TensorInfo(name, shape, dtype, scales,
    zero_points) as TFLM reports them (names from the model file)."""
    if not isolated:
        return _io_details_local(bytes(model))
    ins, outs = _worker("tflm").call("io_details", (bytes(model),), {})
    return [TensorInfo(*t) for t in ins], [TensorInfo(*t) for t in outs]


_ARENA_RE = re.compile(r"\[RecordingMicroAllocator\] Arena allocation (\w+) (\d+) bytes")
_REC_RE = re.compile(r"\[RecordingMicroAllocator\] '([^']+)' used (\d+) bytes "
                     r"with alignment overhead \(requested (\d+) bytes for (\d+) ")


def _parse_allocations(text):
    res = {}
    for m in _ARENA_RE.finditer(text):
        res[m.group(1)] = int(m.group(2))
    recs = {}
    for m in _REC_RE.finditer(text):
        recs[m.group(1)] = {"used": int(m.group(2)), "requested": int(m.group(3)),
                            "count": int(m.group(4))}
    if not {"total", "head", "tail"} <= set(res):
        raise OracleError("could not parse TFLM allocation report", text)
    res["records"] = recs
    return res


def _tflm_arena_local(model, arena_size=None, inputs=None):
    ins, _ = model_io(model)
    it = _tflm_interpreter(model, arena_size)
    if inputs is None:
        inputs = [np.zeros(i.shape, i.dtype) for i in ins]
    _tflm_invoke(it, inputs, len(ins))
    with _capture_fds() as log:
        it.print_allocations()
    return _parse_allocations(log[0])


def tflm_arena(model, isolated=False, arena_size=None, inputs=None):
    """TFLM's arena use after one invoke: {"total", "head" (the planned
    non-persistent part), "tail" (persistent), "records": {...}}."""
    if not isolated:
        return _tflm_arena_local(bytes(model), arena_size, inputs)
    return _retry_arena(
        lambda size: _worker("tflm").call(
            "tflm_arena", (bytes(model),), {"arena_size": size, "inputs": inputs}),
        model, arena_size)


# --------------------------------------------------------------------------
# LiteRT

def _run_litert_local(model, runs):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    model = bytes(model)
    with _capture_fds() as log:
        try:
            it = Interpreter(model_content=model,
                             experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
            it.allocate_tensors()
            err = None
        except Exception as e:  # noqa: BLE001
            err = e
    if err is not None:
        raise OracleUnsupported("LiteRT cannot prepare the model: %s" % err, log[0])
    ind = it.get_input_details()
    outd = it.get_output_details()
    results = []
    for inputs in runs:
        if len(inputs) != len(ind):
            raise ValueError("model has %d inputs, got %d" % (len(ind), len(inputs)))
        with _capture_fds() as log:
            try:
                for d, x in zip(ind, inputs):
                    it.set_tensor(d["index"], np.array(x, order="C", copy=True))
                it.invoke()
                out = [np.array(it.get_tensor(d["index"]), copy=True) for d in outd]
                err = None
            except Exception as e:  # noqa: BLE001
                err = e
        if err is not None:
            raise OracleUnsupported("LiteRT invoke failed: %s" % err, log[0])
        results.append(out)
    return results


def run_litert(model, runs, isolated=False, timeout=_WORKER_TIMEOUT):
    """Like run_tflm, with LiteRT's reference kernels (BUILTIN_REF). Raises
    OracleUnsupported when LiteRT cannot run the model."""
    runs = [[np.asarray(x) for x in r] for r in runs]
    if not isolated:
        return _run_litert_local(bytes(model), runs)
    return _worker("litert").call("run_litert", (bytes(model), runs), {}, timeout)


# --------------------------------------------------------------------------
# random inputs

_INT_RANGE = {np.int8: (-128, 127), np.int16: (-32768, 32767),
              np.uint8: (0, 255), np.int32: (-2**31, 2**31 - 1),
              np.int64: (-2**63, 2**63 - 1), np.uint16: (0, 65535),
              np.uint32: (0, 2**32 - 1)}


def _float_range_for(m, tensor_index):
    """Interesting float range for a float32 input: the representable range
    of the QUANTIZE that consumes it, or the range of the CAST target type;
    a ROUND's input gets rounding ties too."""
    sg = m.subgraphs[0]
    for op in sg.operators or []:
        if op.inputs is None or tensor_index not in list(op.inputs):
            continue
        name = _opcode_name(m, op.opcodeIndex)
        out = sg.tensors[op.outputs[0]]
        dt = _NP_OF_TYPE.get(out.type)
        if name == "QUANTIZE" and out.quantization is not None \
                and out.quantization.scale is not None and dt in _INT_RANGE:
            s = float(out.quantization.scale[0])
            z = int(out.quantization.zeroPoint[0]) if out.quantization.zeroPoint is not None else 0
            lo, hi = _INT_RANGE[dt]
            return (lo - z) * s, (hi - z) * s, s, True
        if name == "CAST" and dt in _INT_RANGE:
            # float -> int conversion out of range is undefined in C: stay in
            lo, hi = _INT_RANGE[dt]
            return float(max(lo, -2**24)), float(min(hi, 2**24)), 1.0, False
        if name == "ROUND":
            # some inputs exactly halfway between integers: ROUND's ties
            return -8.0, 8.0, 1.0, True
    return -8.0, 8.0, None, True


def _draw_float(rng, shape, lo, hi, step, outside=True):
    n = int(np.prod(shape, dtype=np.int64))
    width = hi - lo
    x = rng.uniform(lo, hi, n)
    kind = rng.random(n)
    out_of_range = (kind < 0.1) & outside
    x[out_of_range] = rng.uniform(lo - 0.5 * width, hi + 0.5 * width,
                                  int(out_of_range.sum()))
    if step is not None:
        # values near rounding ties of the quantizer
        ties = (kind >= 0.1) & (kind < 0.2)
        k = np.floor(rng.uniform(lo / step, hi / step, int(ties.sum())))
        x[ties] = (k + 0.5) * step
    x = x.astype(np.float32)
    if not outside:
        # truncation toward zero must land inside [lo, hi]
        x = np.clip(x, np.float32(lo), np.float32(hi))
        x = np.where(x > hi, np.nextafter(np.float32(hi), np.float32(0)), x)
    return x.reshape(shape)


def random_inputs(model, rng, n_runs):
    """n_runs runs of random inputs for subgraph 0's inputs, in input order.
    Integer inputs cover their dtype's full range; float32 inputs feeding a
    QUANTIZE are drawn over the quantizer's representable range with some
    values out of range and some at rounding ties."""
    m = _model_obj(model)
    sg = m.subgraphs[0]
    runs = []
    for _ in range(int(n_runs)):
        run = []
        for ti in sg.inputs:
            t = sg.tensors[ti]
            shape = tuple(int(d) for d in (t.shape if t.shape is not None else []))
            dt = _NP_OF_TYPE.get(t.type)
            if dt in _INT_RANGE:
                lo, hi = _INT_RANGE[dt]
                x = rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)
            elif dt is np.bool_:
                x = rng.integers(0, 2, size=shape).astype(np.bool_)
            elif dt is np.float32:
                lo, hi, step, outside = _float_range_for(m, ti)
                x = _draw_float(rng, shape, lo, hi, step, outside)
            else:
                raise ValueError("no random input for tensor type %d" % t.type)
            run.append(np.asarray(x, dtype=dt).reshape(shape))
        runs.append(run)
    return runs


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker_main(sys.argv[2])
    else:
        sys.stderr.write("usage: oracle.py --worker LOGPATH (internal)\n")
        sys.exit(2)
