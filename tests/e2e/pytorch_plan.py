#!/usr/bin/env python3
"""`ccforge plan --emit-pytorch` end to end (issue 28): the module's BUCKETS are the plan's buckets
(as the JSON report lists them), and its PlannedBuckets hook, run by two gloo processes on the CPU
with the model the workload describes, AllReduces exactly those buckets and leaves every gradient
equal to the average of the ranks' gradients. Exit 77 (skipped) where PyTorch is missing.
usage: pytorch_plan.py CCFORGE WORKLOAD OUT_DIR"""
import datetime
import importlib.util
import json
import os
import subprocess
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def model():
    import torch
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024),
                               torch.nn.ReLU(), torch.nn.Linear(1024, 10))


def worker(rank, module_path, store):
    import torch
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=120))  # a failed rank stops the other
    spec = importlib.util.spec_from_file_location("plan", module_path)
    plan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plan)
    net = model()
    hook = plan.PlannedBuckets(net)
    sizes = []

    class Recording:  # the module's torch.distributed, recording what each AllReduce carries
        def __getattr__(self, name):
            return getattr(dist, name)

        def all_reduce(self, tensor, **kw):
            sizes.append(tensor.numel())
            return dist.all_reduce(tensor, **kw)

    hook._dist = Recording()
    for step in range(2):
        sizes.clear()
        net.zero_grad()
        generator = torch.Generator().manual_seed(100 * step + rank)
        net(torch.randn(8, 256, generator=generator)).square().mean().backward()
        launched = list(hook.launched)
        expected = [p.grad.clone() for p in net.parameters()]
        for g in expected:  # the reference: each gradient averaged on its own, after the buckets
            dist.all_reduce(g)
            g.div_(2)
        hook.synchronize()
        if sorted(launched) != list(range(len(plan.BUCKETS))):
            fail("rank %d step %d: buckets launched %s" % (rank, step, launched))
        want = [sum(p.numel() for p in hook.buckets[k]) for k in launched]
        if sizes[:len(want)] != want:
            fail("rank %d step %d: AllReduce sizes %s, the buckets hold %s" % (rank, step, sizes[:len(want)], want))
        for (name, p), g in zip(net.named_parameters(), expected):
            if not torch.allclose(p.grad, g, rtol=1e-5, atol=1e-7):
                fail("rank %d step %d: %s is not the average of the ranks' gradients" % (rank, step, name))
    dist.destroy_process_group()


def main():
    ccforge, workload, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    module_path = os.path.join(out, "mlp_plan.py")
    report_path = os.path.join(out, "mlp_plan.json")
    for path in (module_path, report_path):
        if os.path.exists(path):
            os.remove(path)
    run = subprocess.run([ccforge, "plan", workload, "--network", "10gbe", "--workers", "2", "--emit-pytorch",
                          module_path, "--format", "json", "-o", report_path], capture_output=True, text=True)
    if run.returncode != 0:
        fail("ccforge plan exited %d: %s" % (run.returncode, run.stderr))
    with open(report_path) as f:
        report = json.load(f)
    spec = importlib.util.spec_from_file_location("plan", module_path)
    plan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plan)  # the module needs PyTorch only when PlannedBuckets is used
    planned = [b["tensors"] for b in report["buckets"]]
    if plan.BUCKETS != planned:
        fail("BUCKETS %s, the plan's buckets %s" % (plan.BUCKETS, planned))
    if len(planned) < 2:
        fail("the workload was meant to plan more than one bucket: %s" % planned)
    if not (isinstance(plan.BUCKET_CAP_MB, int) and 1 <= plan.BUCKET_CAP_MB <= 1024):
        fail("BUCKET_CAP_MB %r" % plan.BUCKET_CAP_MB)
    if plan.DDP_ITERATION_US < plan.PLAN_ITERATION_US:
        fail("the nearest DDP setting (%s us) beats the optimal plan (%s us)" % (plan.DDP_ITERATION_US,
                                                                               plan.PLAN_ITERATION_US))
    print("buckets:", planned, "bucket_cap_mb:", plan.BUCKET_CAP_MB)
    try:
        import torch
        import torch.multiprocessing
    except ImportError:
        print("PyTorch is not installed: the hook is not run")
        sys.exit(77)
    try:
        plan.PlannedBuckets(torch.nn.Linear(3, 3))
        fail("a model with other parameters was accepted")
    except ValueError as e:
        if "does not match the model" not in str(e):
            fail("unexpected error: %s" % e)
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    store = os.path.join(out, "gloo_store")
    if os.path.exists(store):
        os.remove(store)
    torch.multiprocessing.spawn(worker, args=(module_path, store), nprocs=2, join=True)
    print("pytorch plan test: done")


if __name__ == "__main__":
    main()
