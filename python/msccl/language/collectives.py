# The collectives of msccl-tools' scripts. The built-in ones are ccforge's collectives (their
# pre/postconditions live in C++); a Python subclass of Collective with its own init_buffers and
# check is a custom collective: init_buffers gives the precondition, check the postcondition
# (docs/python.md, "Custom collectives").
from msccl.language.ir import Buffer
from msccl.language.chunk import Chunk, ReduceChunk


class Collective:
    _ccforge_name = None  # None: custom

    def __init__(self, num_ranks, chunk_factor, inplace):
        self.num_ranks = num_ranks
        self.chunk_factor = chunk_factor
        self.inplace = inplace
        self.name = 'custom'

    def init_buffers(self):
        pass

    def check(self, prog):
        pass

    def get_buffer_index(self, rank, buffer, index):
        return buffer, index

    # ccforge: the metadata of every input chunk, {(origin_rank, origin_index): Chunk}.
    def _input_chunks(self):
        out = {}
        buffers = self.init_buffers()
        if buffers is None:
            return out
        for r, bufs in enumerate(buffers):
            for c in bufs.get(Buffer.input, []) or []:
                if c is not None:
                    out[(c.origin_rank, c.origin_index)] = c
        return out


class AllReduce(Collective):
    _ccforge_name = 'allreduce'

    def get_buffer_index(self, rank, buffer, index):
        if self.inplace and buffer is Buffer.output:
            return Buffer.input, index
        return buffer, index

    def __init__(self, num_ranks, chunk_factor, inplace):
        super().__init__(num_ranks, chunk_factor, inplace)
        self.name = 'allreduce'

    def init_buffers(self):
        out = []
        for r in range(self.num_ranks):
            inp = [Chunk(r, c, -1, c) for c in range(self.chunk_factor)]
            out.append({Buffer.input: inp, Buffer.output: inp if self.inplace else [None] * self.chunk_factor})
        return out


class AllGather(Collective):
    _ccforge_name = 'allgather'

    def get_buffer_index(self, rank, buffer, index):
        # In place, a rank's input is its share of the output buffer.
        if self.inplace and buffer is Buffer.input:
            return Buffer.output, index + rank * self.chunk_factor
        return buffer, index

    def __init__(self, num_ranks, chunk_factor, inplace):
        super().__init__(num_ranks, chunk_factor, inplace)
        self.name = 'allgather'

    def init_buffers(self):
        out = []
        n = self.num_ranks * self.chunk_factor
        for r in range(self.num_ranks):
            inp = [Chunk(r, c, -1, r * self.chunk_factor + c) for c in range(self.chunk_factor)]
            out.append({Buffer.input: inp, Buffer.output: [None] * n})
        return out


class AllToAll(Collective):
    _ccforge_name = 'alltoall'

    def __init__(self, num_ranks, chunk_factor, inplace):
        super().__init__(num_ranks, chunk_factor, inplace)
        self.name = 'alltoall'

    def init_buffers(self):
        out = []
        cf = self.chunk_factor
        n = self.num_ranks * cf
        for r in range(self.num_ranks):
            inp = [Chunk(r, i, i // cf, i % cf + r * cf) for i in range(n)]
            out.append({Buffer.input: inp, Buffer.output: inp if self.inplace else [None] * n})
        return out


class ReduceScatter(Collective):
    _ccforge_name = 'reducescatter'

    def get_buffer_index(self, rank, buffer, index):
        # In place, a rank's output is its share of the input buffer.
        if self.inplace and buffer is Buffer.output:
            return Buffer.input, index + rank * self.chunk_factor
        return buffer, index

    def __init__(self, num_ranks, chunk_factor, inplace):
        super().__init__(num_ranks, chunk_factor, inplace)
        self.name = 'reduce_scatter'

    def init_buffers(self):
        out = []
        cf = self.chunk_factor
        for r in range(self.num_ranks):
            inp = [Chunk(r, i * cf + c, i, c) for i in range(self.num_ranks) for c in range(cf)]
            out.append({Buffer.input: inp, Buffer.output: [None] * cf})
        return out
