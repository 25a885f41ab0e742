#!/usr/bin/env python3
"""Writes the MSCCL-IR files of verify's scaling benchmark (bench/verify/scaling.sh) and of its
test (tests/e2e/verify_scaling.py): files whose size grows linearly in one dimension.

  chain N       N ranks, rank i sends its one chunk to rank i+1 (alltonext, custom): ranks
  scatter N     scatter from rank 0 over N ranks: the root has N-1 sending thread blocks
  nops T        2 ranks exchanging one chunk, each rank with T-1 more one-nop thread blocks

usage: scaling_inputs.py KIND SIZE > FILE
"""
import sys


def step(kind, srcbuf, srcoff, dstoff=0):
    return (f'<step s="0" type="{kind}" srcbuf="{srcbuf}" srcoff="{srcoff}" dstbuf="o" dstoff="{dstoff}" cnt="1" '
            'depid="-1" deps="-1" hasdep="0"/>')


def tb(ident, send, recv, body):
    return f'<tb id="{ident}" send="{send}" recv="{recv}" chan="0">{body}</tb>'


def header(name, coll, ranks, chunks):
    return (f'<algo name="{name}" proto="Simple" nchannels="1" nchunksperloop="{chunks}" ngpus="{ranks}" '
            f'coll="{coll}" inplace="0" outofplace="1" minBytes="0" maxBytes="0">')


def chain(n):
    out = [header("chain", "custom", n, 1)]
    for r in range(n):
        out.append(f'<gpu id="{r}" i_chunks="1" o_chunks="1" s_chunks="0">')
        blocks = []
        if r + 1 < n:
            blocks.append((r + 1, -1, step("s", "i", 0)))
        if r > 0:
            blocks.append((-1, r - 1, step("r", "i", 0)))
        out += [tb(k, s, v, body) for k, (s, v, body) in enumerate(blocks)]
        out.append('</gpu>')
    return out


def scatter(n):
    out = [header("scatter", "scatter", n, n)]
    for r in range(n):
        out.append(f'<gpu id="{r}" i_chunks="{n if r == 0 else 0}" o_chunks="1" s_chunks="0">')
        if r == 0:
            out.append(tb(0, -1, -1, step("cpy", "i", 0)))
            out += [tb(k, k, -1, step("s", "i", k)) for k in range(1, n)]
        else:
            out.append(tb(0, -1, 0, step("r", "i", 0)))
        out.append('</gpu>')
    return out


def nops(t):
    out = [header("nops", "allgather", 2, 2)]
    for r in range(2):
        out.append(f'<gpu id="{r}" i_chunks="1" o_chunks="2" s_chunks="0">')
        out.append(tb(0, 1 - r, 1 - r, step("rcs", "i", 0, dstoff=1 - r)))
        out += [tb(k, -1, -1, step("nop", "o", 0)) for k in range(1, t)]
        out.append('</gpu>')
    return out


if __name__ == "__main__":
    kind, size = sys.argv[1], int(sys.argv[2])
    print("\n".join({"chain": chain, "scatter": scatter, "nops": nops}[kind](size) + ['</algo>']))
