"""The plain-data codec between a split run's judge and its program (harness_judge.py,
harness_host.py).

A value crosses only as plain data: None, bool, int, float, complex, str, bytes, and list,
tuple, dict, set and frozenset of those, each checked by its exact type (a subclass of str
with its own __eq__ is not a str here). Anything else crosses as a handle: a number that
names an object in the program's process, with its kind and type name. No object's own
methods run while a value is encoded or decoded (no __eq__, __hash__ of a program type,
__iter__, __reduce__ or __getstate__), and nothing is unpickled: the decoder builds only the
types above and what its caller makes of a handle.

numpy arrays and scalars of numeric, bytes or text dtypes (exact numpy types) cross as their
dtype, shape and bytes, rebuilt by numpy: an object or structured dtype, or a subclass, is a handle.

A value: a tag byte, then its body. Messages over a pipe: u32 little-endian length, then one
encoded value (harness_codec.send / recv).
"""

import os
import struct

MAX_DEPTH = 64  # deeper containers cross as a handle (program side) or are refused
MAX_MESSAGE = 64 << 20

_U32 = struct.Struct("<I")
_F64 = struct.Struct("<d")
_C128 = struct.Struct("<dd")


class Refused(Exception):
    """A value that may not cross (the judge never sends what is not plain data or a handle)."""


class Broken(Exception):
    """The other side sent something that is not a well-formed message, or went away."""


def encode(value, handle_of):
    """value as bytes. handle_of(obj) -> (handle id, kind character, type name) for a value
    that is not plain data (or that is nested deeper than MAX_DEPTH), or raises Refused."""
    out = bytearray()
    _put(value, out, handle_of, 0)
    return bytes(out)


def _put_bytes(tag, data, out):
    out += tag
    out += _U32.pack(len(data))
    out += data


def _put(value, out, handle_of, depth):
    kind = type(value)
    if value is None:
        out += b"N"
    elif kind is bool:
        out += b"T" if value else b"F"
    elif depth > MAX_DEPTH:
        _put_handle(value, out, handle_of)
    elif kind is int:
        _put_bytes(b"i", value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True), out)
    elif kind is float:
        out += b"f"
        out += _F64.pack(value)
    elif kind is complex:
        out += b"c"
        out += _C128.pack(value.real, value.imag)
    elif kind is str:
        _put_bytes(b"s", value.encode("utf-8", "surrogatepass"), out)
    elif kind is bytes:
        _put_bytes(b"b", value, out)
    elif kind in _SEQUENCE_TAGS:
        out += _SEQUENCE_TAGS[kind]
        out += _U32.pack(len(value))
        for item in value:
            _put(item, out, handle_of, depth + 1)
    elif kind is dict:
        out += b"d"
        out += _U32.pack(len(value))
        for key, item in value.items():
            _put(key, out, handle_of, depth + 1)
            _put(item, out, handle_of, depth + 1)
    elif kind.__module__ == "numpy" and _put_numpy(value, kind, out):
        pass
    else:
        _put_handle(value, out, handle_of)


# numpy values of these dtype kinds cross as data (bool, integers, floats, complex, fixed-width
# bytes and text): an exact ndarray or numpy scalar type, rebuilt by numpy from raw bytes.
NUMPY_KINDS = "biufcSU"


def _put_numpy(value, kind, out):
    import sys

    np = sys.modules.get("numpy")
    if np is None:
        return False
    if kind is np.ndarray:
        dtype = value.dtype
        if dtype.kind not in NUMPY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
            return False
        out += b"A"
        _put_bytes(b"s", dtype.str.encode("ascii"), out)
        out += _U32.pack(value.ndim)
        for n in value.shape:
            out += _U32.pack(n)
        _put_bytes(b"b", np.ascontiguousarray(value).tobytes(), out)
        return True
    if issubclass(kind, np.generic) and kind is getattr(value, "dtype", None).type and value.dtype.kind in NUMPY_KINDS:
        out += b"G"
        _put_bytes(b"s", value.dtype.str.encode("ascii"), out)
        _put_bytes(b"b", value.tobytes(), out)
        return True
    return False


def _get_numpy(tag, data, at):
    import numpy as np

    if data[at:at + 1] != b"s":
        raise Broken("a numpy value without its dtype")
    raw, at = _get_bytes(data, at + 1)
    dtype = np.dtype(raw.decode("ascii"))
    if dtype.kind not in NUMPY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise Broken("a numpy dtype that does not cross")
    shape = ()
    if tag == b"A":
        ndim, at = _get_len(data, at)
        if ndim > 32:
            raise Broken("a numpy array of %d dimensions" % ndim)
        dims = []
        for _ in range(ndim):
            n, at = _get_len(data, at)
            dims.append(n)
        shape = tuple(dims)
    if data[at:at + 1] != b"b":
        raise Broken("a numpy value without its bytes")
    raw, at = _get_bytes(data, at + 1)
    array = np.frombuffer(raw, dtype=dtype).copy()
    if tag == b"G":
        if array.size != 1:
            raise Broken("a numpy scalar of %d values" % array.size)
        return array[0], at
    return array.reshape(shape), at


_SEQUENCE_TAGS = {list: b"l", tuple: b"t", set: b"S", frozenset: b"z"}


def _put_handle(value, out, handle_of):
    ident, kind, name = handle_of(value)
    out += b"h"
    out += _U32.pack(ident)
    out += kind.encode()[:1]
    _put_bytes(b"s", name.encode("utf-8", "surrogatepass"), out)


def decode(data, handle):
    """The value encoded in data. handle(id, kind, type name) -> what a handle decodes to.
    Raises Broken on anything malformed (trailing bytes included)."""
    try:
        value, end = _get(data, 0, handle, 0)
    except (IndexError, struct.error, UnicodeDecodeError, TypeError, ValueError, RecursionError) as exc:
        raise Broken("malformed value from the other side: %s" % exc) from None
    if end != len(data):
        raise Broken("trailing bytes after a value")
    return value


def _get_len(data, at):
    if at + 4 > len(data):
        raise Broken("truncated value")
    return _U32.unpack_from(data, at)[0], at + 4


def _get_bytes(data, at):
    n, at = _get_len(data, at)
    if at + n > len(data):
        raise Broken("truncated value")
    return data[at:at + n], at + n


def _get(data, at, handle, depth):
    if depth > MAX_DEPTH + 1:
        raise Broken("value nested too deeply")
    tag = data[at:at + 1]
    at += 1
    if tag == b"N":
        return None, at
    if tag == b"T":
        return True, at
    if tag == b"F":
        return False, at
    if tag == b"i":
        raw, at = _get_bytes(data, at)
        return int.from_bytes(raw, "little", signed=True), at
    if tag == b"f":
        return _F64.unpack_from(data, at)[0], at + 8
    if tag == b"c":
        real, imag = _C128.unpack_from(data, at)
        return complex(real, imag), at + 16
    if tag == b"s":
        raw, at = _get_bytes(data, at)
        return raw.decode("utf-8", "surrogatepass"), at
    if tag == b"b":
        raw, at = _get_bytes(data, at)
        return raw, at
    if tag in (b"l", b"t", b"S", b"z"):
        n, at = _get_len(data, at)
        if n > len(data) - at:
            raise Broken("a container longer than its message")
        items = []
        for _ in range(n):
            item, at = _get(data, at, handle, depth + 1)
            items.append(item)
        if tag == b"l":
            return items, at
        if tag == b"t":
            return tuple(items), at
        return (set(items) if tag == b"S" else frozenset(items)), at
    if tag == b"d":
        n, at = _get_len(data, at)
        if n > len(data) - at:
            raise Broken("a dict longer than its message")
        out = {}
        for _ in range(n):
            key, at = _get(data, at, handle, depth + 1)
            out[key], at = _get(data, at, handle, depth + 1)
        return out, at
    if tag in (b"A", b"G"):
        return _get_numpy(tag, data, at)
    if tag == b"h":
        ident, at = _get_len(data, at)
        kind = data[at:at + 1].decode("ascii")
        if data[at + 1:at + 2] != b"s":
            raise Broken("a handle without a type name")
        raw, at = _get_bytes(data, at + 2)
        return handle(ident, kind, raw.decode("utf-8", "surrogatepass")), at
    raise Broken("unknown tag %r" % tag)


def send(fd, value, handle_of):
    """Write one message holding value to fd."""
    body = encode(value, handle_of)
    if len(body) > MAX_MESSAGE:
        raise Refused("a value of %d bytes is larger than the %d bytes a message may hold" % (len(body), MAX_MESSAGE))
    data = memoryview(_U32.pack(len(body)) + body)
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _read_exactly(fd, n):
    parts = []
    while n > 0:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise Broken("the program's process went away")
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def recv(fd, handle):
    """Read one message from fd and decode it (handle: as for decode)."""
    (n,) = _U32.unpack(_read_exactly(fd, 4))
    if n > MAX_MESSAGE:
        raise Broken("a message of %d bytes" % n)
    return decode(_read_exactly(fd, n), handle)
