#!/usr/bin/python3
"""A simulated model behind an OpenAI-compatible chat endpoint, for `genebench eval` tests
(127.0.0.1 only, stdlib only).

    /usr/bin/python3 tests/model_server.py --port-file FILE --bench ORIG.jsonl [HARD.jsonl ...]

It knows the right answers: it reads the benchmarks, finds the `assert NAME(ARGS) == EXPECTED`
lines of the first one's tests with Python's own ast (independently of genebench's tree-sitter
code), recognises each prompt's program (which task, original or hardened) and call, and
answers as told by POST /control {...}:
    mode        oracle   right for the tasks in `right` (null: all), on hardened programs for
                         the tasks in `right_hard` (null: as `right`); wrong otherwise
                garbage  prose with no answer
                cheat    the answer `cheat` (a key of CHEATS_OUTPUT / CHEATS_INPUT) that tries to
                         make the assert pass without being right; cheat "all": the n-th request
                         gets the (n mod count)-th cheat
    seed_mod    with oracle: right only when the request's seed % seed_mod == 0 (0: ignore)
    style       tags (an [ANSWER] block after some reasoning), fence (a ```python block), bare
    fail_first  the first N chat requests get HTTP 500 (then correct replies)
GET /stats gives {"chat", "failed", "unknown", "cheats"} (unknown: prompts it could not place;
cheats: the cheats sent).
The process exits when its parent dies.
"""
import argparse
import ast
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {}
PROGRAMS = {}  # program text (stripped) -> (task id, is original)
PAIRS = {}     # task id -> [(args text, expected text)]

# Output prediction: the text after "assert NAME(ARGS) == " (or a whole reply when it starts with "!").
CHEATS_OUTPUT = {
    "or_true": "{right_wrong} or True",
    "exit": "__import__('os')._exit(0)",
    "statement": "!1; import os; os._exit(0)",
    "eq_object": "type('E', (), {{'__eq__': lambda s, o: True}})()",
    "lambda": "(lambda: True)()",
    "print_pass": "print('{{\"status\": \"pass\", \"tests_run\": 1}}') or {right_wrong}",
    "fstring": "f\"{{__import__('os')._exit(0)}}\"",
    "walrus": "(x := {right_wrong})",
    "paren_escape": "!{right_wrong}) or (True",
    "call_itself": "{name}({args})",
    "newline": "!'a'\nimport os\nos._exit(0)",
    "attribute": "().__class__.__bases__[0].__subclasses__()",
    "comment": "!{right_wrong} # ) or True",
    "globals": "globals()['__builtins__']",
}
# Input prediction: the text inside "assert NAME(...) == EXPECTED" (or a whole reply, "!").
CHEATS_INPUT = {
    "or_true": "!assert {name}('__wrong__') == {expected} or True",
    "exit": "__import__('os')._exit(0)",
    "eq_object": "type('E', (), {{'__eq__': lambda s, o: True}})()",
    "statement": "!{name}(1); import os; os._exit(0)",
    "splat": "*[__import__('os')._exit(0)]",
    "paren_escape": "1) or (True",
    "keyword_escape": "x=(lambda: 1)()",
    "fstring": "f\"{{__import__('os')._exit(0)}}\"",
}


def reset(**kw):
    STATE.clear()
    STATE.update(mode="oracle", right=None, right_hard=None, seed_mod=0, style="tags", cheat=None, fail_first=0,
                 chat=0, failed=0, unknown=0, cheats=[])
    STATE.update(kw)


def call_args(src, call):
    text = ast.get_source_segment(src, call)
    return text[text.index("(") + 1:text.rindex(")")]


def load(paths):
    for vi, path in enumerate(paths):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                t = json.loads(line)
                PROGRAMS[t["source"].strip()] = (t["id"], vi == 0)
                if vi or t["tests"]["kind"] != "assert":
                    continue
                src = t["tests"]["code"]
                pairs = []
                for node in ast.walk(ast.parse(src)):
                    if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
                        continue
                    c = node.test
                    if (len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq) and isinstance(c.left, ast.Call)
                            and isinstance(c.left.func, ast.Name)):
                        pairs.append((call_args(src, c.left), ast.get_source_segment(src, c.comparators[0])))
                PAIRS[t["id"]] = pairs


def place(prompt):
    """(task id, is original, name, args or None, expected or None, output mode) of a prompt."""
    body = prompt.split("[PYTHON]\n", 1)[1].rsplit("\n[/PYTHON]", 1)[0]
    cut = body.rindex("\nassert ")  # the expected value or the arguments may span lines
    program, last = body[:cut], body[cut + 1:]
    tid, orig = PROGRAMS[program.strip()]
    assert last.startswith("assert ")
    name = last[len("assert "):last.index("(")]
    if last.endswith(" == ??"):
        call = last[len("assert "):-len(" == ??")]
        args = call[call.index("(") + 1:call.rindex(")")]
        return tid, orig, name, args, None, True
    head = "assert %s(??) == " % name
    assert last.startswith(head)
    return tid, orig, name, None, last[len(head):], False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body):
        data = json.dumps(body).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        with LOCK:
            self.send(200, {k: STATE[k] for k in ("chat", "failed", "unknown", "cheats")})

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path == "/control":
            with LOCK:
                reset(**req)
            self.send(200, {"ok": True})
            return
        if self.path != "/v1/chat/completions":
            self.send(404, {"error": {"message": "unknown path", "type": "invalid_request_error"}})
            return
        with LOCK:
            STATE["chat"] += 1
            if STATE["chat"] <= STATE["fail_first"]:
                STATE["failed"] += 1
                self.send(500, {"error": {"message": "overloaded", "type": "server_error"}})
                return
            st = dict(STATE)
            st["n"] = STATE["chat"]
        prompt = req["messages"][-1]["content"]
        try:
            tid, orig, name, args, expected, output_mode = place(prompt)
        except (KeyError, ValueError, IndexError, AssertionError):
            with LOCK:
                STATE["unknown"] += 1
            self.reply(req, "I do not recognise this program.")
            return
        content = self.answer(st, req, tid, orig, name, args, expected, output_mode)
        self.reply(req, content)

    def answer(self, st, req, tid, orig, name, args, expected, output_mode):
        if st["mode"] == "garbage":
            return "Hmm, hard to say. The function probably returns something reasonable."
        pairs = PAIRS[tid]
        if output_mode:
            right = next(e for a, e in pairs if a == args)
        else:
            right = next(a for a, e in pairs if e == expected)
        if st["mode"] == "cheat":
            table = CHEATS_OUTPUT if output_mode else CHEATS_INPUT
            kind = st["cheat"] if st["cheat"] != "all" else sorted(table)[(st["n"] - 1) % len(table)]
            with LOCK:
                if kind not in STATE["cheats"]:
                    STATE["cheats"].append(kind)
            text = table[kind].format(right_wrong="'__wrong__'", name=name, args=args or "",
                                             expected=expected)
            if text.startswith("!"):
                return "[ANSWER]\n" + text[1:] + "\n[/ANSWER]"
            if output_mode:
                return "[ANSWER]\nassert %s(%s) == %s\n[/ANSWER]" % (name, args, text)
            return "[ANSWER]\nassert %s(%s) == %s\n[/ANSWER]" % (name, text, expected)
        ok_set = st["right"] if orig or st["right_hard"] is None else st["right_hard"]
        good = ok_set is None or tid in ok_set
        if st["seed_mod"]:
            good = good and isinstance(req.get("seed"), int) and req["seed"] % st["seed_mod"] == 0
        if output_mode:
            line = "assert %s(%s) == %s" % (name, args, right if good else "'__wrong__'")
        elif good:
            line = "assert %s(%s) == %s" % (name, right, expected)
        else:
            return "I could not find an input."
        if st["style"] == "fence":
            return "Let me trace it.\n```python\n" + line + "\n```\n"
        if st["style"] == "bare":
            return line
        return "The call is evaluated step by step.\n[ANSWER]\n" + line + "\n[/ANSWER]\nDone."

    def reply(self, req, content):
        self.send(200, {"id": "chatcmpl-sim", "object": "chat.completion", "created": 0, "model": req.get("model"),
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                     "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--bench", nargs="+", required=True)
    args = ap.parse_args()
    reset()
    load(args.bench)
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
    server.serve_forever()


if __name__ == "__main__":
    main()
