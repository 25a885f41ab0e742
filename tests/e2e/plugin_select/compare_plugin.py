#!/usr/bin/env python3
"""`ccforge select --scheduler plugin` against the msccl-scheduler plugin's own code, call by call.

Builds Azure/msccl-scheduler's src/scheduler.cc and src/parser.cc unmodified with plugin_driver.cpp,
sweeps calls over each given algorithm directory (every collective and rank count its files serve,
six data types, in-place and out-of-place, counts on both sides of every file's size window and of
every nchunksperloop multiple, non-powers of two included), asks both, and compares rank by rank.
Where ccforge says readdir order decides between files, the plugin's pick must be one of them.
Exit 0 when every rank of every call agrees, 1 when one does not, 2 when a tool fails.

tests/e2e/select.cmake runs it as a CTest when CMake is given the two checkouts.

usage: compare_plugin.py CCFORGE SCHEDULER_CHECKOUT EXECUTOR_CHECKOUT DIRECTORY...
  SCHEDULER_CHECKOUT  github.com/Azure/msccl-scheduler (the plugin's source)
  EXECUTOR_CHECKOUT   github.com/Azure/msccl-executor-nccl (its nccl.h.in and msccl_scheduler.h)
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

FUNCS = {"reduce": 0, "broadcast": 1, "allreduce": 2, "reducescatter": 3, "allgather": 4, "alltoall": 9}
MULTIPLIED = {"reducescatter", "allgather", "alltoall"}  # the selectors' sizeMultiplier is the rank count
# name, ncclDataType_t number, real element size (bfloat16 and fp8 are the plugin's -1-size cases)
DTYPES = [("uint8", 1, 1), ("float16", 6, 2), ("float32", 7, 4), ("float64", 8, 8), ("bfloat16", 9, 2),
          ("fp8e4m3", 10, 1)]
GENERIC_COUNTS = [1, 2, 3, 7, 1000, 1023, 1024, 1025, 12345, 1 << 20, 3 << 20]
PLUGIN_LOG = "github.com/Azure/msccl-scheduler:"


def build_driver(scheduler, executor, workdir):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(executor, "src", "nccl.h.in")) as f:
        header = f.read()
    for key, value in {"Major": "2", "Minor": "0", "Patch": "0", "Suffix": "", "Version": "20000"}.items():
        header = header.replace("${nccl:%s}" % key, value)
    os.makedirs(os.path.join(workdir, "include"))
    with open(os.path.join(workdir, "include", "nccl.h"), "w") as f:
        f.write(header)
    driver = os.path.join(workdir, "plugin_driver")
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    subprocess.run(["g++", "-std=c++17", "-O1", "-w", "-I", os.path.join(workdir, "include"),
                    "-I", os.path.join(executor, "src", "include"), "-I", here,
                    "-I", os.path.join(scheduler, "src"), "-I", os.path.join(cuda, "include"),
                    os.path.join(here, "plugin_driver.cpp"), os.path.join(scheduler, "src", "scheduler.cc"),
                    os.path.join(scheduler, "src", "parser.cc"), "-ldl", "-o", driver], check=True)
    return driver


def headers(directory):
    files = []
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name), errors="replace") as f:
            head = f.read(4096)
        algo = re.search(r"<algo\b([^>]*)>", head)
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', algo.group(1))) if algo else {}
        files.append((name, attrs))
    return files


def counts_for(files, coll, ranks, size):
    """Counts on both sides of each file's window and of its nchunksperloop multiples, for one type."""
    per = size * (ranks if coll in MULTIPLIED else 1)
    found = set(GENERIC_COUNTS)
    for _, a in files:
        if a.get("coll") != coll:
            continue
        q = int(a.get("nchunksperloop", "1") or 1)
        found.update({q, 2 * q, 3 * q + 1})
        for bound in (int(a.get("minBytes", "0") or 0), int(a.get("maxBytes", "0") or 0)):
            if bound == 0:
                continue
            c = bound // per
            found.update({c - 1, c, c + 1, (c // q) * q, (c // q + 1) * q})
    return sorted(c for c in found if 1 <= c <= 1 << 40)


def sweep(files):
    calls = []
    colls = sorted({(a["coll"], int(a["ngpus"])) for _, a in files if a.get("coll") in FUNCS and a.get("ngpus")})
    for coll, ranks in colls:
        for dtype, number, size in DTYPES:
            for count in counts_for(files, coll, ranks, size):
                for in_place in (True, False):
                    calls.append((coll, ranks, dtype, number, size, count, in_place))
    return calls


RANK_LINE = re.compile(r"^    (every rank|rank (\d+)|ranks (\d+)\.\.(\d+)) \(sees [^)]*\): (.*)$")


def ccforge_answer(ccforge, directory, call):
    coll, ranks, dtype, _, _, count, in_place = call
    run = subprocess.run([ccforge, "select", directory, "--collective", coll, "--count", str(count), "--dtype",
                          dtype, "--inplace" if in_place else "--outofplace", "--ranks", str(ranks),
                          "--scheduler", "plugin"], capture_output=True, text=True)
    if run.returncode not in (0, 10):
        raise RuntimeError("ccforge select failed (exit %d): %s" % (run.returncode, run.stderr.strip()))
    per_rank = [None] * ranks
    for line in run.stdout.splitlines():
        m = RANK_LINE.match(line)
        if not m:
            continue
        if m.group(1) == "every rank":
            first, last = 0, ranks - 1
        elif m.group(2) is not None:
            first = last = int(m.group(2))
        else:
            first, last = int(m.group(3)), int(m.group(4))
        outcome = m.group(5)
        names = {"NCCL"} if outcome == "NCCL" else {
            os.path.basename(p) for p in (outcome[len("any of "):].split(", ") if outcome.startswith("any of ")
                                          else [outcome])}
        for r in range(first, last + 1):
            per_rank[r] = names
    if None in per_rank:
        raise RuntimeError("ccforge select named no outcome for some rank:\n" + run.stdout)
    return per_rank


def plugin_answers(driver, directory, calls):
    stdin = "".join("%d %d %d %d %d %d\n" % (FUNCS[c[0]], c[3], c[4], c[5], int(c[6]), c[1]) for c in calls)
    run = subprocess.run([driver], input=stdin, capture_output=True, text=True,
                         env=dict(os.environ, MSCCL_ALGO_DIR=os.path.abspath(directory)))
    if run.returncode != 0:
        raise RuntimeError("plugin driver failed: " + run.stderr.strip())
    lines = [l for l in run.stdout.splitlines() if not l.startswith(PLUGIN_LOG)]
    if len(lines) != len(calls):
        raise RuntimeError("plugin driver answered %d of %d calls" % (len(lines), len(calls)))
    return [l.split(" ") for l in lines]


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    ccforge, scheduler, executor, directories = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    mismatches = 0
    with tempfile.TemporaryDirectory() as workdir:
        driver = build_driver(scheduler, executor, workdir)
        for directory in directories:
            calls = sweep(headers(directory))
            plugin = plugin_answers(driver, directory, calls)
            with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                ours = list(pool.map(lambda c: ccforge_answer(ccforge, directory, c), calls))
            ranks_compared = readdir_decided = files_run = 0
            for call, mine, theirs in zip(calls, ours, plugin):
                for rank, (allowed, picked) in enumerate(zip(mine, theirs)):
                    ranks_compared += 1
                    readdir_decided += len(allowed) > 1
                    files_run += picked != "NCCL"
                    if picked not in allowed:
                        mismatches += 1
                        coll, ranks, dtype, _, _, count, in_place = call
                        print("MISMATCH %s: %s on %d ranks, %s count %d %s, rank %d: plugin %s, ccforge %s" % (
                            directory, coll, ranks, dtype, count, "in-place" if in_place else "out-of-place",
                            rank, picked, " or ".join(sorted(allowed))))
            print("%s: %d calls, %d rank answers compared (%d run a file, %d decided by readdir order)" % (
                directory, len(calls), ranks_compared, files_run, readdir_decided))
    print("%d disagreements" % mismatches)
    return 1 if mismatches else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
        print("compare_plugin: %s" % e, file=sys.stderr)
        sys.exit(2)
