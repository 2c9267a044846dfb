#!/usr/bin/python3
"""A small OpenAI-compatible server for genebench's tests (127.0.0.1 only, stdlib only).

    /usr/bin/python3 tests/fakes/llm_server.py --port-file FILE [--mode MODE] [--count K] [--delay S]

Listens on 127.0.0.1 on a free port, writes the port to FILE once it accepts connections,
and serves
    POST /v1/chat/completions   the chat-completions shape
    POST /v1/embeddings         the embeddings shape (data deliberately in reverse order,
                                each item with its "index")
    POST /embedding             llama.cpp's native embeddings: {"content": text or [texts]} ->
    POST /embeddings            [{"index", "embedding": [[token 0 ...], ...]}] with `pooling`
                                "none" (unnormalised per-token hidden states), else one row
                                (their mean, L2-normalised); "flat": the pooled vector as a flat
                                list, as older servers send it
    POST /control               {"mode", "count", "delay", "reply", "dim", "embed", "pooling"}:
                                change the behaviour and reset the counters; embed "trigram"
                                (default: /v1/embeddings gives a bag of character trigrams) or
                                "hidden" (/v1/embeddings gives the mean-pooled hidden states, as
                                /embedding always does)
    GET  /stats                 {"requests", "chat", "embeddings", "inputs", "last_auth",
                                 "last_model", "last_seed", "last_encoding_format"}
Modes (for the API paths):
    normal        correct replies
    slow          sleep `delay` seconds, then reply correctly
    fail_then_ok  HTTP 500 with an OpenAI error body for the first `count` requests
    429           HTTP 429 (Retry-After: 0) for the first `count` requests
    429_huge      the same with a Retry-After of 10^20 seconds (more than a long holds)
    malformed     HTTP 200 with a body that is not JSON
    missing       HTTP 200 with JSON that lacks choices / data
    nonsense      chat: prose instead of the JSON asked for; embeddings: one vector too few
    wrong_names   chat: a JSON object of names that are not identifiers, keywords, clashes
    names         chat: reads the identifiers listed after "machine-generated identifiers:" in
                  the prompt (up to the first ".\n") and maps each to "chosen_<it without
                  digits>" (later duplicates get _alt, _extra, ...), as a JSON object in a
                  ```json fence with a sentence before it, like chatty models answer
    unauthorized  HTTP 401 {"error": {"message": "invalid api key", ...}}
    huge          HTTP 200 whose body is `count` bytes (a JSON string padded with spaces)
The process exits when its parent dies, so a crashed test leaves nothing behind.
"""
import argparse
import hashlib
import json
import math
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE_LOCK = threading.Lock()
STATE = {}


def reset(mode="normal", count=0, delay=0.0, reply=None, dim=16, embed="trigram", pooling="none"):
    STATE.clear()
    STATE.update(mode=mode, count=count, delay=delay, reply=reply, dim=dim, embed=embed, pooling=pooling, requests=0,
                 chat=0, embeddings=0, inputs=0, last_auth=None, last_model=None, last_seed=None,
                 last_encoding_format=None)


def token_vector(tok, dim):
    """A fixed pseudo-random vector in [-1, 1]^dim per token text."""
    out, k = [], 0
    while len(out) < dim:
        h = hashlib.sha256(("%d:" % k + tok).encode("utf-8")).digest()
        out.extend((b - 127.5) / 127.5 for b in h)
        k += 1
    return out[:dim]


def hidden_states(text, dim):
    """Per-token "hidden states" of a tiny recurrent model: h_t = tanh(0.7 h_{t-1} + e(token_t)).
    Each state depends on the tokens before it, so their mean is not a bag of tokens: the same
    tokens in another order or context give another vector."""
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\S", text) or [""]
    h, states = [0.0] * dim, []
    for tok in tokens:
        e = token_vector(tok, dim)
        h = [math.tanh(0.7 * a + b) for a, b in zip(h, e)]
        states.append(h)
    return states


def mean_pooled(text, dim):
    states = hidden_states(text, dim)
    v = [sum(col) / len(states) for col in zip(*states)]
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


def embed(text, dim):
    """A deterministic bag of hashed character trigrams, L2-normalised."""
    v = [0.0] * dim
    padded = "  " + text + "  "
    for i in range(len(padded) - 2):
        h = hashlib.md5(padded[i:i + 3].encode("utf-8")).digest()
        v[int.from_bytes(h[:4], "little") % dim] += 1.0
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path == "/stats":
            with STATE_LOCK:
                self.send(200, {k: STATE[k] for k in ("requests", "chat", "embeddings", "inputs", "last_auth",
                                                      "last_model", "last_seed", "last_encoding_format")})
        else:
            self.send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            req = json.loads(raw or b"{}")
        except ValueError:
            self.send(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
            return
        if self.path == "/control":
            with STATE_LOCK:
                reset(req.get("mode", "normal"), int(req.get("count", 0)), float(req.get("delay", 0)),
                      req.get("reply"), int(req.get("dim", 16)), req.get("embed", "trigram"),
                      req.get("pooling", "none"))
            self.send(200, {"ok": True})
            return
        if self.path not in ("/v1/chat/completions", "/v1/embeddings", "/embedding", "/embeddings"):
            self.send(404, {"error": {"message": "unknown path " + self.path, "type": "invalid_request_error"}})
            return
        is_chat = self.path == "/v1/chat/completions"
        native = self.path in ("/embedding", "/embeddings")
        with STATE_LOCK:
            STATE["requests"] += 1
            STATE["chat" if is_chat else "embeddings"] += 1
            n = STATE["requests"]
            STATE["last_auth"] = self.headers.get("Authorization")
            STATE["last_model"] = req.get("model")
            STATE["last_seed"] = req.get("seed")
            STATE["last_encoding_format"] = req.get("encoding_format")
            if not is_chat:
                inp = req.get("content" if native else "input")
                STATE["inputs"] += len(inp) if isinstance(inp, list) else 1
            mode, count, delay, reply, dim, kind, pooling = (
                STATE[k] for k in ("mode", "count", "delay", "reply", "dim", "embed", "pooling"))
        if mode == "slow":
            time.sleep(delay)
        if mode == "fail_then_ok" and n <= count:
            self.send(500, {"error": {"message": "model overloaded, try again", "type": "server_error"}})
            return
        if mode in ("429", "429_huge") and n <= count:
            self.send(429, {"error": {"message": "rate limit reached", "type": "rate_limit_error"}},
                      {"Retry-After": "0" if mode == "429" else "100000000000000000000"})
            return
        if mode == "huge":
            pad = max(0, count - 2)
            self.send(200, b'"' + b" " * pad + b'"')
            return
        if mode == "unauthorized":
            self.send(401, {"error": {"message": "invalid api key", "type": "invalid_request_error",
                                      "param": None, "code": "invalid_api_key"}})
            return
        if mode == "malformed":
            self.send(200, b'{"object": "list", "data": [1, 2')
            return
        if mode == "missing":
            self.send(200, {"object": "chat.completion" if is_chat else "list", "model": req.get("model")})
            return
        if is_chat:
            self.chat(req, mode, reply)
        elif native:
            self.native_embeddings(req, mode, dim, pooling)
        else:
            self.embeddings(req, mode, dim, kind)

    def chat(self, req, mode, reply):
        msgs = req.get("messages") or []
        user = next((m.get("content", "") for m in reversed(msgs) if m.get("role") == "user"), "")
        if mode == "nonsense":
            content = "I'm sorry, but as a language model I cannot rename variables."
        elif mode == "names":
            listed = user.split("machine-generated identifiers:", 1)[-1].split(".\n", 1)[0]
            names = [n.strip() for n in listed.split(",") if n.strip()]
            words = ["alt", "extra", "more", "other", "spare"]
            out, used = {}, set()
            for n in names:
                base = "chosen_" + (re.sub(r"_*[0-9]+", "", n).strip("_") or "name")
                cand, k = base, 0
                while cand in used:
                    cand = base + "_" + words[k % len(words)] * (1 + k // len(words))
                    k += 1
                used.add(cand)
                out[n] = cand
            content = "Here are the names:\n```json\n" + json.dumps(out, indent=1) + "\n```\n"
        elif mode == "wrong_names":
            content = json.dumps({"v_1": "class", "v_2": "2fast", "v_3": "x-y", "v_4": "print", "v_5": "v_6"})
        elif reply is not None:
            content = reply
        else:
            content = "echo: " + user
        self.send(200, {"id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                        "model": req.get("model"), "system_fingerprint": "test",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                     "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

    def native_embeddings(self, req, mode, dim, pooling):
        inp = req.get("content", req.get("input"))
        texts = inp if isinstance(inp, list) else [inp]
        out = []
        for i, t in enumerate(texts):
            if pooling == "none":
                emb = hidden_states(str(t), dim)
            elif pooling == "flat":
                emb = mean_pooled(str(t), dim)
            else:
                emb = [mean_pooled(str(t), dim)]
            out.append({"index": i, "embedding": emb})
        if mode == "nonsense":
            out = out[:-1]
        out.reverse()
        self.send(200, out)

    def embeddings(self, req, mode, dim, kind="trigram"):
        inp = req.get("input")
        texts = inp if isinstance(inp, list) else [inp]
        fn = mean_pooled if kind == "hidden" else embed
        data = [{"object": "embedding", "index": i, "embedding": fn(str(t), dim)} for i, t in enumerate(texts)]
        if mode == "nonsense":
            data = data[:-1]
        data.reverse()
        self.send(200, {"object": "list", "data": data, "model": req.get("model"),
                        "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--mode", default="normal")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args()
    reset(args.mode, args.count, args.delay)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    parent = os.getppid()

    def watchdog():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
