"""The wire format between genebench and a worker (src/runner/wire.c is the C side).

Both directions: u32 little-endian body length, then the body: a sequence of fields, each
u32 key length, key bytes, u32 value length, value bytes. Requests that run something carry
three file descriptors (SCM_RIGHTS) on their first bytes: stdin, stdout and stderr for the
child.
"""

import os
import socket
import struct

MAX_FIELD = 4096  # longest exception message / test name sent back


def encode(fields):
    parts = []
    for key, value in fields.items():
        kb = key.encode()
        if isinstance(value, bytes):
            vb = value
        else:
            vb = str(value).encode("utf-8", "surrogateescape")
        parts.append(struct.pack("<I", len(kb)))
        parts.append(kb)
        parts.append(struct.pack("<I", len(vb)))
        parts.append(vb)
    body = b"".join(parts)
    return struct.pack("<I", len(body)) + body


def decode(body):
    fields = {}
    i = 0
    n = len(body)
    while i + 4 <= n:
        (kl,) = struct.unpack_from("<I", body, i)
        i += 4
        key = body[i:i + kl].decode()
        i += kl
        (vl,) = struct.unpack_from("<I", body, i)
        i += 4
        fields[key] = body[i:i + vl]
        i += vl
    return fields


def send(sock, fields):
    sock.sendall(encode(fields))


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def recv_msg(sock):
    """Next request and the descriptors that came with it, or (None, []) at EOF."""
    head = b""
    fds = []
    while len(head) < 4:
        data, got, _flags, _addr = socket.recv_fds(sock, 4 - len(head), 8)
        if not data:
            for fd in got:
                os.close(fd)
            for fd in fds:
                os.close(fd)
            return None, []
        head += data
        fds.extend(got)
    (length,) = struct.unpack("<I", head)
    body = recv_exact(sock, length) if length else b""
    if body is None:
        for fd in fds:
            os.close(fd)
        return None, []
    return decode(body), fds


def text(fields, key, default=""):
    value = fields.get(key)
    if value is None:
        return default
    return value.decode("utf-8", "surrogateescape")


def clip(s):
    s = str(s)
    return s if len(s) <= MAX_FIELD else s[:MAX_FIELD] + "..."

