"""The program in a run's child: run as __main__ from its run directory, with the tests
compiled before it runs, and its exceptions described (type, message, the line to blame)."""

import os
import sys

from harness_wire import clip


def frame_of_interest(tb, run_dir):
    """(file label, line, source) of the frame to blame: the innermost frame of the test
    code, else the innermost frame of the program's own files, else the innermost."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    pick = None
    for filename, line in reversed(frames):
        if filename == "<tests>":
            pick = (filename, line)
            break
    if pick is None:
        for filename, line in reversed(frames):
            if filename.startswith(run_dir + os.sep):
                pick = (filename, line)
                break
    if pick is None and frames:
        pick = frames[-1]
    if pick is None:
        return None
    import linecache

    filename, line = pick
    label = "tests" if filename == "<tests>" else os.path.relpath(filename, run_dir)
    source = statement_at(filename, line) or linecache.getline(filename, line).strip()
    return "%s line %d: %s" % (label, line, source) if source else "%s line %d" % (label, line)


def statement_at(filename, line):
    """The innermost simple statement covering line, on one line with its whitespace
    collapsed, so a multi-line assert is named whole."""
    import ast
    import linecache

    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    best = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.lineno > line or (node.end_lineno or node.lineno) < line:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While,
                             ast.With, ast.Try, ast.AsyncFor, ast.AsyncWith)):
            continue
        if best is None or node.lineno >= best.lineno:
            best = node
    if best is None:
        return None
    segment = ast.get_source_segment(text, best)
    if not segment:
        return None
    return clip(" ".join(segment.split()))


def describe_exception(exc, run_dir):
    if isinstance(exc, SystemExit):
        message = "SystemExit(%r) raised before the tests finished" % (exc.code,)
    else:
        try:
            message = str(exc)
        except Exception:  # noqa: BLE001 - a broken __str__ is the program's problem
            message = "<unprintable %s>" % type(exc).__name__
    try:
        where = frame_of_interest(exc.__traceback__, run_dir) or ""
    except Exception:  # noqa: BLE001 - e.g. the program replaced compile(), which ast uses
        where = ""
    return {
        "exc_type": type(exc).__name__,
        "exc_message": clip(message),
        "failed_test": clip(where),
    }


def new_main_module(run_dir, main_path, name="__main__"):
    """The program's module: named "__main__" (`python main.py`), or name, the module name an
    upstream harness imports the program under (harness_rules.main_name)."""
    import builtins
    import types

    mod = types.ModuleType(name)
    mod.__file__ = main_path
    mod.__builtins__ = builtins
    mod.__dict__["__cached__"] = None
    # The program runs as __main__ (like `python main.py`), and helper modules that do
    # `from main import x` get this same module instead of a second copy.
    sys.modules["__main__"] = mod
    sys.modules["main"] = mod
    if name != "__main__":
        sys.modules[name] = mod
    return mod


def exec_program(mod, main_path):
    with open(main_path, "rb") as f:
        source = f.read()
    exec(compile(source, main_path, "exec"), mod.__dict__)


def compile_tests(test_source):
    """The tests' code object, compiled before the program runs, so that a program that
    replaces builtins.compile cannot change what the tests are."""
    import linecache

    lines = test_source.splitlines(True)
    linecache.cache["<tests>"] = (len(test_source), None, lines, "<tests>")
    return compile(test_source, "<tests>", "exec")
