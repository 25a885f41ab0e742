#!/usr/bin/env python3
"""verify's cost grows linearly in ranks and thread blocks (issue: linear costs). Each check runs
`ccforge verify` on files of bench/verify/scaling_inputs.py at a small and an 8x larger size and
fails when CPU time grows more than 3x faster than the size, or when memory passes a bound that
quadratic growth would cross. 100,000 ranks and 100,000 thread blocks must finish in seconds.
usage: verify_scaling.py CCFORGE INPUTS_SCRIPT"""
import os
import subprocess
import sys
import tempfile

ccforge, inputs = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp()
failures = []


def cost(kind, size):
    path = os.path.join(work, f"{kind}{size}.xml")
    with open(path, "w") as f:
        subprocess.run([sys.executable, inputs, kind, str(size)], stdout=f, check=True)
    extra = ["--collective", "alltonext", "--profile", "msccl-legacy"] if kind == "chain" else []
    child = subprocess.Popen([ccforge, "verify", *extra, path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    os.remove(path)
    cpu, rss_mib = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
    print(f"{kind} {size}: exit {code}, {cpu:.2f} s CPU, {rss_mib:.0f} MiB")
    if code not in (0, 5, 10):
        failures.append(f"{kind} {size}: exit {code}")
    return cpu, rss_mib


def linear(kind, small, factor=8, slack=3):
    a, _ = cost(kind, small)
    b, _ = cost(kind, small * factor)
    # 0.05 s: the process's own start-up, which does not grow with the file.
    if b > slack * factor * max(a, 0.05):
        failures.append(f"{kind}: {small} -> {small * factor} took {a:.2f} -> {b:.2f} s CPU, more than {slack}x linear")


def bounded(kind, size, seconds, mib):
    cpu, rss = cost(kind, size)
    if cpu > seconds or rss > mib:
        failures.append(f"{kind} {size}: {cpu:.1f} s CPU and {rss:.0f} MiB, over {seconds} s or {mib} MiB")


linear("chain", 512)
linear("nops", 512)
# A T x T vector clock per rank would take 1 GiB here (it took 1.6 GB at 20,000 thread blocks).
bounded("nops", 16000, 20, 400)
bounded("chain", 100000, 30, 2048)
bounded("nops", 100000, 30, 2048)
os.rmdir(work)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
