"""The lint worker's pylint: its warm-up, the linter kept across lints, the third-party
libraries kept opaque to astroid, and the lint session a run's child serves (kind "lintd").
The options are documented with gb_pool_lint in src/runner/runner.h."""

import contextlib
import os
import socket
import sys

from harness_wire import clip, recv_msg, send, text

LINT_PRELOAD = ["pylint", "pylint.lint", "pylint.reporters.collecting_reporter"]


class Lint:
    """A lint worker's pylint state; main() owns the one of a lint worker and passes it down.
    warm_dir: the worker's warm-up directory; libraries: the top-level names of the
    third-party libraries (src/runner/library_list.h), opaque to astroid; options: pylint's
    command line; linter: the PyLinter of the warm-up run, reused by every lint (options
    parsed once); warmed: whether the warm-up had ended when this process forked from the
    worker."""

    def __init__(self, warm_dir, libraries):
        self.warm_dir = warm_dir
        self.libraries = tuple(libraries)
        self.options = [
            "--rcfile=" + os.devnull,
            "--persistent=n",
            "--jobs=1",
            "--score=y",
            "--reports=n",
            "--disable=missing-module-docstring,missing-class-docstring,missing-function-docstring",
            "--ignored-modules=" + ",".join(self.libraries),
        ]
        self.linter = None
        self.warmed = False


# The warm-up program when genebench gives none (genebench's commands give one built from
# the operators' library calls: gb_api_warm_program in operators/api_call.c).
WARM_SOURCE = """import numpy as np
import scipy.stats
from sklearn.utils import shuffle


def f(x):
    return np.sum(x) + scipy.stats.norm.pdf(0) + len(shuffle([1]))
"""


def warm_pylint(lint):
    """The lint worker's warm-up, in two stages. This first one builds the linter (options
    parsed, checkers loaded, the builtins module inferred) on a one-line program and lints
    it twice, the second time through the path every later lint takes (check() on the kept
    linter), so that what that initialises on first use is in the image every session
    forks from. It takes about 0.1 s after pylint's import, and the worker is ready then.
    Returns the second stage as a list of steps (warm_steps), which serve_lint runs between
    requests."""
    if not lint.warm_dir:
        return []
    path = os.path.join(lint.warm_dir, "warm.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(WARM_SOURCE)
    first = os.path.join(lint.warm_dir, "warm_first.py")
    with open(first, "w") as f:
        f.write("VALUE = 1\n")
    with warm_context(lint.warm_dir):
        run_pylint(lint, [first])
        run_pylint(lint, [first])
    return warm_steps(lint, path)


@contextlib.contextmanager
def warm_context(warm_dir):
    """Run a warm-up step from the warm directory, as a lint runs from its own, and leave
    nothing of it behind but the library modules astroid built."""
    cwd = os.getcwd()
    saved_path = list(sys.path)
    try:
        os.chdir(warm_dir)
        yield
    finally:
        os.chdir(cwd)
        sys.path[:] = saved_path
        forget_modules(warm_dir)


def warm_steps(lint, path):
    """The second stage of the warm-up: have astroid build each standard-library module
    that the warm program (genebench's: the modules its operators insert calls of) imports,
    one step each, then lint the program once, which infers its calls. Each step builds
    whole modules: a session forked between two steps starts from a consistent cache and
    builds what it lacks itself, as a fresh pylint would. Building http.client alone is
    about 0.9 s (it infers into ssl), datetime 0.3 s; the whole stage about 2 s."""
    import ast

    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found = [node.module]
        else:
            continue
        names += [n for n in found if n.partition(".")[0] not in lint.libraries and n not in names]

    def build(name):
        from astroid import MANAGER

        with warm_context(lint.warm_dir):
            try:
                MANAGER.ast_from_module_name(name)
            except Exception:  # noqa: BLE001 - the lint step below meets the same error, if it matters
                pass

    def lint_program():
        with warm_context(lint.warm_dir):
            run_pylint(lint, [path])

    return [lambda name=name: build(name) for name in names] + [lint_program]


def libraries_opaque(libraries):
    """Make the third-party libraries opaque to astroid: a module whose top-level package is
    in libraries is never parsed, so what a program takes from it is uninferable, and
    --ignored-modules (Lint.options) keeps pylint from reporting it as missing. Parsing
    them was most of pylint's warm-up (numpy and scipy.stats alone: 5 of 8.5 s on a quiet
    host) and a third of each lint; on 293 benchmark and hardened programs, 28 of them
    with library calls, every score and message was the same (src/runner/README.md: the lint gate).
    The standard library is still parsed. Idempotent."""
    import astroid.manager
    from astroid.exceptions import AstroidImportError

    manager = astroid.manager.AstroidManager
    if getattr(manager, "genebench_opaque", False):
        return
    build = manager.ast_from_module_name

    def ast_from_module_name(self, modname, *args, **kwargs):
        if isinstance(modname, str) and modname.partition(".")[0] in libraries:
            raise AstroidImportError("genebench: library {modname} is opaque to the lint gate", modname=modname)
        return build(self, modname, *args, **kwargs)

    manager.ast_from_module_name = ast_from_module_name
    manager.genebench_opaque = True


def run_pylint(lint, paths):
    """(score, messages) of pylint on paths as one program. The first call builds the
    linter with lint.options and keeps it in lint.linter; later calls reuse it: check()
    resets the statistics and the per-file message state, so the result is that of a fresh
    `pylint` run."""
    from pylint.reporters.collecting_reporter import CollectingReporter

    reporter = CollectingReporter()
    if lint.linter is None:
        from pylint.lint import Run

        libraries_opaque(lint.libraries)

        lint.linter = Run(lint.options + list(paths), reporter=reporter, exit=False).linter
        reuse_module_checker(lint.linter)
    else:
        # duplicate-code compares the modules of a program with each other: a one-module
        # program can never get it, and pylint then skips that checker's work on the module
        dup = len(paths) > 1
        linter = lint.linter
        if linter.is_message_enabled("duplicate-code") != dup:
            (linter.enable if dup else linter.disable)("duplicate-code")
        linter.set_reporter(reporter)
        linter.check(list(paths))
        linter.generate_reports()
    stats = lint.linter.stats
    if getattr(stats, "statement", 0) == 0:
        return 10.0, reporter.messages
    note = getattr(stats, "global_note", None)
    if note is None:
        return 10.0, reporter.messages
    return max(0.0, min(10.0, float(note))), reporter.messages


def reuse_module_checker(linter):
    """Build pylint's walker once per set of enabled messages instead of at every check().

    check() sets up, in PyLinter._astroid_module_checker, the list of checkers that have an
    enabled message, and a walker holding each one's visit and leave methods; that is about
    4 of a lint's 28 ms. Both depend only on which messages are enabled globally (pylint
    asks is_message_enabled without a line: linter._msgs_state), so they are kept per state
    of it: the first check() in a state goes through pylint's own set-up, which is
    remembered; later ones reset the walker's statement count, open the same checkers, walk
    with the same walker, and close the checkers, which is what pylint's set-up and
    tear-down do beside building them. Only for the pylint versions whose set-up this was
    read against (2.16); any other keeps pylint's own."""
    import pylint

    if not pylint.__version__.startswith("2.16."):
        return
    stock = linter._astroid_module_checker  # noqa: SLF001 - see above
    kept = {}

    @contextlib.contextmanager
    def module_checker():
        key = (frozenset(linter._msgs_state.items()), linter.config.reports)  # noqa: SLF001
        entry = kept.get(key)
        if entry is None:
            with stock() as check:
                walker = getattr(check, "keywords", {}).get("walker")
                if walker is not None and hasattr(walker, "nbstatements"):
                    kept[key] = (linter.prepare_checkers(), check, walker)
                yield check
            return
        checkers, check, walker = entry
        walker.nbstatements = 0
        walker.exception_msg = False
        for checker in checkers:
            checker.open()
        yield check
        linter.stats.statement = walker.nbstatements
        for checker in reversed(checkers):
            checker.close()

    linter._astroid_module_checker = module_checker  # noqa: SLF001


def forget_modules(root):
    """Drop from astroid's caches every module built from a file under root (the program
    just linted), so that a later program's `main` or `helpers` is never answered with an
    earlier one's. Library modules stay cached."""
    try:
        from astroid import MANAGER
    except ImportError:
        return
    prefix = os.path.join(os.path.realpath(root), "")
    prefix_raw = os.path.join(root, "")

    def under(path):
        return isinstance(path, str) and (path.startswith(prefix) or path.startswith(prefix_raw))

    for name, module in list(MANAGER.astroid_cache.items()):
        if under(getattr(module, "file", None)):
            del MANAGER.astroid_cache[name]
    for key, value in list(MANAGER._mod_file_cache.items()):  # noqa: SLF001 - no public API
        if under(key[1]) or under(getattr(value, "location", None)):
            del MANAGER._mod_file_cache[key]  # noqa: SLF001


def lint_messages(messages, run_dir):
    return clip("\n".join("%s:%d: %s %s" % (os.path.relpath(m.path, run_dir) if m.path else "",
                                              m.line, m.msg_id, m.symbol) for m in messages))


def run_lint_session(lint, run_dir, result):
    """A lint session (kind "lintd"): serve lint requests on fd 0, a socket, one at a time
    and in order, until genebench closes it. Each request names a subdirectory of run_dir
    holding a program; the reply has its score. Between lints only the library modules stay
    in astroid's cache (forget_modules), so a lint's result depends on the program and on
    the programs linted before it in this session, which the caller keeps in a fixed order
    (one session per task): results are reproducible, and each lint costs no fork."""
    sock = socket.socket(fileno=0)
    while True:
        req, fds = recv_msg(sock)
        for fd in fds:
            os.close(fd)
        if req is None:
            break
        sub = os.path.join(run_dir, text(req, "sub"))
        reply = {"op": "lint"}
        try:
            paths = [os.path.join(sub, p) for p in text(req, "modules").split("\n") if p]
            sys.path[0] = sub
            score, messages = run_pylint(lint, paths)
            reply["outcome"] = "pass"
            reply["score"] = repr(score)
            reply["messages"] = lint_messages(messages, sub)
            reply["warm"] = "1" if lint.warmed else "0"
        except Exception as exc:  # noqa: BLE001 - reported, the session goes on
            reply = {"op": "lint", "outcome": "error", "exc_type": type(exc).__name__, "exc_message": clip(exc)}
        forget_modules(sub)
        send(sock, reply)
    result["outcome"] = "pass"

