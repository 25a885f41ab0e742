# `ccforge compile ALGO.json`: an algorithm synthesized by SCCL / msccl-tools (`msccl solve ...
# -o ALGO.json`, the input of `msccl ncclize`) as an MSCCLang program, which ccforge then
# compiles and verifies (docs/python.md, "SCCL's synthesized algorithms").
#
# The lowering follows what the JSON means: rank r's input buffer holds the addresses of its
# input_map in ascending order, its output buffer those of its output_map; an address a rank
# receives that is in neither goes to scratch. Every send (addr, src, dst) of every step, in step
# order, copies the chunk from wherever src holds it. An address in both a rank's input and output
# map is copied locally into the output. Maps laid out as an allgather or alltoall (as SCCL
# writes them) give that collective; others a custom one whose every output slot must hold exactly
# the input chunk of its address. Errors point at the JSON file (line 1: no line per send).
import json
import sys

from msccl.language import MSCCLProgram, chunk, XML, Buffer, Chunk
from msccl.language.collectives import Collective, AllGather, AllToAll
from msccl.language import _where as _where_module
from msccl.language._where import UnsupportedError, ProgramError
from msccl.topologies import Topology

_COMBINING = ('allreduce', 'reducescatter', 'reduce_scatter', 'reduce')


def _where(path):
    return (path, 1, 1)


def _load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise ProgramError(f'cannot read {path}: {e.strerror}', _where(path)) from None
    except json.JSONDecodeError as e:
        raise UnsupportedError(f'not JSON: {e.msg}', (path, e.lineno, e.colno)) from None
    if not isinstance(data, dict) or data.get('msccl_type') != 'algorithm':
        raise UnsupportedError('not an SCCL algorithm (msccl_type "algorithm" expected at the top)', _where(path))
    return data


def _maps(data, key, path):
    try:
        return {int(r): sorted(int(a) for a in addrs) for r, addrs in data[key].items()}
    except (KeyError, AttributeError, TypeError, ValueError):
        raise UnsupportedError(f'{key}: expected {{rank: [address, ...]}}', _where(path)) from None


def _standard(ranks, inputs, outputs, origin):
    """The built-in collective whose layout the maps are (ncclize's coll attribute), else None."""
    sizes_in = {len(v) for v in inputs.values()}
    sizes_out = {len(v) for v in outputs.values()}
    if len(sizes_in) != 1 or len(sizes_out) != 1:
        return None
    n_in, n_out = sizes_in.pop(), sizes_out.pop()
    if n_in == 0:
        return None

    def matches(expected):
        return all(origin.get(a) == expected(d, idx) for d in range(ranks) for idx, a in enumerate(outputs[d]))

    if n_out == ranks * n_in and matches(lambda d, idx: (idx // n_in, idx % n_in)):
        return AllGather(ranks, n_in, False)
    c = n_in // ranks
    if n_in == n_out and c * ranks == n_in and matches(lambda d, idx: (idx // c, d * c + idx % c)):
        return AllToAll(ranks, c, False)
    return None


def lower(path):
    _where_module.fixed = _where(path)
    data = _load(path)
    coll = data.get('collective') or {}
    coll_name = str(coll.get('runtime_name') or coll.get('name') or 'custom')
    if coll_name.lower() in _COMBINING or str(coll.get('name', '')).lower().startswith(_COMBINING):
        raise UnsupportedError(f'collective {coll_name}: SCCL combining collectives (reductions) are not imported; '
                               f'non-combining ones are (allgather, alltoall, broadcast, gather, scatter, custom)',
                               _where(path))
    inputs, outputs = _maps(data, 'input_map', path), _maps(data, 'output_map', path)
    links = (data.get('topology') or {}).get('links')
    ranks = len(links) if links else int(coll.get('nodes', 0))
    if ranks < 1:
        raise UnsupportedError('the file gives neither topology links nor the collective\'s nodes', _where(path))
    for r in range(ranks):
        inputs.setdefault(r, [])
        outputs.setdefault(r, [])
    # The identity of an address: its place in the input of the lowest rank that starts with it.
    origin = {}
    for r in range(ranks):
        for j, a in enumerate(inputs[r]):
            origin.setdefault(a, (r, j))
    n_in = max(len(v) for v in inputs.values())
    n_out = max(len(v) for v in outputs.values())

    class SCCLCollective(Collective):
        def init_buffers(self):
            return [{Buffer.input: [Chunk(*origin[a]) for a in inputs[r]],
                     Buffer.output: [None] * len(outputs[r])} for r in range(ranks)]

        def check(self, prog):
            ok = True
            for r in range(ranks):
                for j, a in enumerate(outputs[r]):
                    got = prog.buffers[r][Buffer.output][j]
                    if a not in origin or got != Chunk(*origin[a]):
                        print(f'rank {r} output {j} (address {a}): expected chunk {origin.get(a)}, got {got}')
                        ok = False
            return ok

    collective = _standard(ranks, inputs, outputs, origin)
    if collective is None:
        collective = SCCLCollective(ranks, max(n_in, n_out, 1), False)
        collective.name = coll_name
    topo = Topology(str((data.get('topology') or {}).get('name', 'sccl')),
                    links if links else [[1 if i != j else 0 for i in range(ranks)] for j in range(ranks)])
    if links:  # SCCL's links count bandwidth; a relay over a missing link is the file's error
        topo.links = [[1 if (i != j and links[j][i]) else 0 for i in range(ranks)] for j in range(ranks)]
    name = str(data.get('name', 'sccl'))
    with MSCCLProgram(name, topo, collective, 1):
        where = {}  # (rank, addr) -> (buffer, index)
        for r in range(ranks):
            for j, a in enumerate(inputs[r]):
                where[(r, a)] = (Buffer.input, j)
        scratch = [0] * ranks

        def deliver(ref, dst, a):
            if a in outputs[dst]:
                place = (Buffer.output, outputs[dst].index(a))
            else:
                place = ('sccl', scratch[dst])
                scratch[dst] += 1
            ref.copy(dst, place[0], place[1])
            where[(dst, a)] = place

        for r in range(ranks):  # own chunks that are also outputs
            for a in inputs[r]:
                if a in outputs[r]:
                    ref = chunk(r, Buffer.input, inputs[r].index(a))
                    ref.copy(r, Buffer.output, outputs[r].index(a))
        for s, step in enumerate(data.get('steps', [])):
            for send in step.get('sends', []):
                a, src, dst = (int(x) for x in send)
                if (src, a) not in where:
                    raise ProgramError(f'step {s}: rank {src} sends address {a}, which it does not hold',
                                       _where(path))
                b, i = where[(src, a)]
                deliver(chunk(src, b, i), dst, a)
        XML()


if __name__ == '__main__':
    lower(sys.argv[1])
