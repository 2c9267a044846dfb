/* The subcommands of the genebench CLI: one X-macro row each, in the order `genebench --help`
 * lists them. Each row is implemented by `int gb_cmd_<name>(int argc, char **argv)` in
 * src/cli/cmd_<name>.c (argv[0] is the subcommand name). No include guard: included with
 * different definitions of GB_COMMAND. */
GB_COMMAND(version, "print the version of genebench and of its dependencies")
GB_COMMAND(report, "write a self-contained HTML report of hardening runs")
GB_COMMAND(import, "convert an upstream benchmark to canonical JSONL")
GB_COMMAND(export, "write a canonical benchmark back in an upstream format")
GB_COMMAND(validate, "check a canonical benchmark and summarise it")
GB_COMMAND(evolve, "harden a benchmark: NSGA-II over the hardening operators, tests as the gate")
GB_COMMAND(levels, "turn an evolve output into benchmarks at graded complexity along each pick's lineage")
GB_COMMAND(merge, "join the outputs of sharded `evolve --shard K/N` runs")
GB_COMMAND(compare, "check that two benchmarks behave alike beyond their tests: derived inputs, results, run time")
GB_COMMAND(similarity, "CodeBLEU, token cosine and Jaccard between two benchmarks, per task and in summary")
GB_COMMAND(nnmr, "nearest-neighbour miss rate of program embeddings between an original and a hardened benchmark")
GB_COMMAND(check, "run every task's tests against its program in the sandboxed worker pool")
GB_COMMAND(inject_bugs, "inject the same bugs into original and hardened programs (program-repair tasks)")
GB_COMMAND(eval, "measure a model's drop on hardened versions: output / input prediction, pass@k, paired comparison")
GB_COMMAND(breaks, "where a model breaks along the levels: pass@1 per level, breaking operators, complexity or size")
GB_COMMAND(versions, "harden a benchmark once per seed and measure how different the versions are")
GB_COMMAND(metrics, "print the raw metrics (C1..C7, R1..R14), RC and RR of every task of a benchmark")
GB_COMMAND(calibrate, "compute thresholds (corpora/NAME.json) from a corpus of Python files")
GB_COMMAND(transform,
           "apply one operator to every task (one site, a chosen site or all sites), run the tests, show diffs")
