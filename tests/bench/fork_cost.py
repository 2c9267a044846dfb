"""Print what fork() + _exit + waitpid of this interpreter costs, the host fact every speed
figure of tests/bench is printed beside: microseconds per round (default) or milliseconds with
--ms; --libs first imports numpy, scipy.stats and sklearn.utils (what the test workers map).
Run it with Debian's /usr/bin/python3."""
import os
import sys
import time

if "--libs" in sys.argv:
    import numpy  # noqa: F401
    import scipy.stats  # noqa: F401
    import sklearn.utils  # noqa: F401
ROUNDS = 40 if "--libs" in sys.argv else 300
start = time.perf_counter()
for _ in range(ROUNDS):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
per = (time.perf_counter() - start) / ROUNDS
print(f"{per * 1000:.2f}" if "--ms" in sys.argv else f"{per * 1e6:.0f}")
