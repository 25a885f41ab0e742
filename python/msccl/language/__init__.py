# msccl.language for ccforge: the names msccl-tools' MSCCLang scripts use (MSCCLProgram, chunk,
# Ref.copy/reduce/split/group, XML, Check, Buffer, ...), tracing into ccforge's C++ DSL (the
# embedded module _ccforge). Differences from msccl-tools are listed in docs/python.md.
import contextlib
import io

import _ccforge

from msccl.language.ir import Buffer, ThreadblockPolicy, ChunkInstruction, Instruction
from msccl.language.chunk import Chunk, ReduceChunk
from msccl.language._where import caller, ProgramError, UnsupportedError, unsupported

_current_program = None

_PROTOCOLS = ('Simple', 'LL', 'LL128')


def _standard_letter(buffer):
    """'i' or 'o' for Buffer.input and Buffer.output, else None (a scratch buffer). Compared by
    identity: hashing an Enum member runs Python code, and every call asks this."""
    if buffer is Buffer.input:
        return 'i'
    if buffer is Buffer.output:
        return 'o'
    return None


def _text(what):
    """What a call does, for its error messages: a string, or a function that formats it (every
    call names itself, and formatting the name costs more than most calls)."""
    return what() if callable(what) else what


def _curr():
    if _current_program is None:
        raise ProgramError('no MSCCLProgram in context: use `with MSCCLProgram(...):`')
    return _current_program


def _scratch_name(buffer):
    """The key of a named scratch buffer: any hashable value but Buffer.input/output (msccl-tools'
    scripts use strings and tuples); Buffer.scratch is the buffer named 'scratch'."""
    if buffer is Buffer.scratch:
        return 'scratch'
    try:
        hash(buffer)
    except TypeError:
        raise ProgramError(f'{buffer!r} is not a buffer (Buffer.input, Buffer.output, Buffer.scratch or a name)') from None
    if buffer is None or isinstance(buffer, Buffer):
        raise ProgramError(f'{buffer!r} is not a buffer (Buffer.input, Buffer.output, Buffer.scratch or a name)')
    return buffer


class _CustomSpec:
    """A custom collective as _ccforge.Program takes it."""

    def __init__(self, input_chunks, output_chunks, pre, post):
        self.input_chunks = input_chunks
        self.output_chunks = output_chunks
        self.pre = pre
        self.post = post


class Product:
    """ccforge extension (docs/fused.md): the operator of a fused program, the same on every rank;
    MSCCLProgram(product=...) takes it and compute() evaluates its chunks."""

    def __init__(self, op, rows, inner, cols=1, table_rows=0):
        self.op = op
        self.rows = rows
        self.inner = inner
        self.cols = cols
        self.table_rows = table_rows

    def _ccforge(self):
        return (self.op, self.rows, self.cols, self.inner, self.table_rows)


def Gemv(m, k):
    """y = W x, W: m x k (with AllReduce)."""
    return Product('gemv', m, k)


def EmbeddingBag(batch, dim, pooling, table):
    """batch bags of `pooling` rows of a table x dim table, summed (with AllToAll)."""
    return Product('embag', batch, pooling, dim, table)


def Gemm(tokens, hidden, ffn):
    """X W, X: tokens x hidden, W: hidden x ffn (with AllToAll)."""
    return Product('gemm', tokens, hidden, ffn)


class MSCCLProgram:
    def __init__(self, name, topo, collective, instances, protocol='Simple',
                 threadblock_policy=ThreadblockPolicy.auto, interleaved_replication=True,
                 instr_fusion=True, check_xml=True, dependence_nop=False, product=None):
        where = caller()
        self.name = name
        self.topo = topo
        self.collective = collective
        self.num_ranks = topo.num_nodes()
        self.instances = instances
        self.protocol = protocol
        self.threadblock_policy = threadblock_policy
        self.interleaved_replication = interleaved_replication
        self.instr_fusion = instr_fusion
        self.check_xml = check_xml
        self.dependence_nop = dependence_nop
        if protocol not in _PROTOCOLS:
            raise ProgramError(f'MSCCLProgram: protocol {protocol!r} must be Simple, LL or LL128', where)
        if collective.num_ranks != self.num_ranks:
            raise ProgramError(f'MSCCLProgram: the collective is for {collective.num_ranks} ranks, '
                               f'the topology {topo.name} has {self.num_ranks}', where)
        self._custom = collective._ccforge_name is None
        # A custom collective's spec is made of its chunk objects; a built-in collective's are built
        # only once ccforge accepted its sizes (below), within its limits rather than before them.
        self._input_chunks = collective._input_chunks() if self._custom else {}
        custom = self._custom_spec() if self._custom else None
        kind = collective._ccforge_name or getattr(collective, 'name', 'custom')
        try:
            if product is not None and not isinstance(product, Product):
                raise ValueError(f'product must be a Product (Gemv, EmbeddingBag, Gemm), got {product!r}')
            self._prog = _ccforge.Program(name, kind, self.num_ranks, collective.chunk_factor,
                                          bool(collective.inplace), protocol, instances, custom,
                                          product._ccforge() if product is not None else None)
        except ValueError as e:
            raise ProgramError(f'MSCCLProgram: {e}', where) from None
        if not self._custom:
            self._input_chunks = collective._input_chunks()
        self._scratch = {}        # (rank, name) -> {index: index in ccforge's scratch buffer}
        self._scratch_used = [0] * self.num_ranks
        self._scratch_len = {}    # (rank, name) -> chunks (msccl-tools' instance_size)
        self.buffers = [_RankView(self, r) for r in range(self.num_ranks)]

    # -- custom collectives ------------------------------------------------------------------
    def _custom_spec(self):
        buffers = self.collective.init_buffers()
        if buffers is None or len(buffers) != self.num_ranks:
            raise ProgramError(f'{type(self.collective).__name__}.init_buffers() must return one dict of buffers per rank')
        inputs = max(len(b.get(Buffer.input) or []) for b in buffers)
        outputs = max(len(b.get(Buffer.output) or []) for b in buffers)
        pre = []
        for r, b in enumerate(buffers):
            for k, c in enumerate(b.get(Buffer.input) or []):
                if c is not None:
                    pre.append((r, k, [(c.origin_rank, c.origin_index)]))
        self._custom_outputs = outputs
        self._distinct_buffers = any(b.get(Buffer.output) is not b.get(Buffer.input) for b in buffers)
        return _CustomSpec(inputs, outputs, pre, [])

    def _postcondition_from_check(self, where):
        """Runs the collective's check() on the traced buffers; the output chunks it reads, with
        the values it accepted, are the postcondition ccforge verifies the compiled program against."""
        checker = type(self.collective).check
        if checker is _base_collective().check:
            return self._postcondition_from_destinations()
        self._reads = set()
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                ok = self.collective.check(self)
        finally:
            reads, self._reads = self._reads, None
        if ok is False:
            text = '\n  '.join(line for line in printed.getvalue().splitlines() if line.strip())
            note = ''
            if self.collective.inplace and self._distinct_buffers:
                note = ('\n  note: the collective is in place (inplace=True): at run time input chunk k and output '
                        'chunk k are the same memory, so a chunk received into the output overwrites the input '
                        'chunk of the same index; init_buffers() describes two separate buffers')
            raise ProgramError(f'{type(self.collective).__name__}.check() returned False: the program does not '
                               f'implement the collective' + (f'\n  {text}' if text else '') + note, where)
        post = []
        for r, i in sorted(reads):
            value = self._prog.value(r, 'o', i)
            if value is not None:
                post.append((r, i, value))
        return post

    def _postcondition_from_destinations(self):
        post = []
        for c in self._input_chunks.values():
            if c.dst_index < 0:
                continue
            ranks = range(self.num_ranks) if c.dst_rank < 0 else [c.dst_rank]
            for r in ranks:
                post.append((r, c.dst_index, [(c.origin_rank, c.origin_index)]))
        return post

    # -- context ------------------------------------------------------------------------------
    def __enter__(self):
        global _current_program
        if _current_program is not None:
            raise ProgramError('there is already an MSCCLProgram in context')
        _current_program = self
        return self

    def __exit__(self, exc_type, exc_value, exc_traceback):
        global _current_program
        _current_program = None
        return False

    # -- locations ----------------------------------------------------------------------------
    def _runs(self, rank, buffer, index, size, write, what, where):
        """[(offset in the reference, buffer letter, index there, length)] for `size` chunks."""
        if not isinstance(rank, int) or rank < 0 or rank >= self.num_ranks:
            raise ProgramError(f'{_text(what)}: rank {rank} is out of range (the program has {self.num_ranks} ranks)', where)
        if not isinstance(index, int) or not isinstance(size, int):
            raise ProgramError(f'{_text(what)}: index and size must be integers, got {index!r} and {size!r}', where)
        letter = _standard_letter(buffer)
        if letter is not None:
            return [(0, letter, index, size)]
        name = _scratch_name(buffer)
        slots = self._scratch.setdefault((rank, name), {})
        if index < 0:
            raise ProgramError(f'{_text(what)}: index {index} of buffer {name!r} is negative', where)
        runs = []
        for k in range(size):
            g = slots.get(index + k)
            if g is None:
                if not write:
                    raise ProgramError(f'{_text(what)}: reads an uninitialised chunk: rank {rank} buffer {name!r}[{index + k}] '
                                       f'holds no data yet', where)
                g = slots[index + k] = self._scratch_used[rank]
                self._scratch_used[rank] += 1
            if runs and runs[-1][2] + runs[-1][3] == g:
                runs[-1] = (runs[-1][0], 's', runs[-1][2], runs[-1][3] + 1)
            else:
                runs.append((k, 's', g, 1))
        if write:
            self._scratch_len[(rank, name)] = max(self._scratch_len.get((rank, name), 0), index + size)
        return runs

    def _value(self, rank, buffer, index):
        """The Chunk / ReduceChunk a location holds, as msccl-tools' scripts see it (None: no data)."""
        letter = _standard_letter(buffer)
        if letter is None:
            g = self._scratch.get((rank, _scratch_name(buffer)), {}).get(index)
            if g is None:
                return None
            letter, index = 's', g
        atoms = self._prog.value(rank, letter, index)
        if atoms is None:
            return None
        chunks = [self._input_chunks.get((r, i)) or Chunk(r, i) for r, i in atoms]
        return chunks[0] if len(chunks) == 1 else ReduceChunk(rank, chunks)

    def check(self):
        return Check()


def _base_collective():
    from msccl.language.collectives import Collective
    return Collective


class _RankView:
    """prog.buffers[rank]: what a collective's check() reads."""

    def __init__(self, prog, rank):
        self._prog, self._rank = prog, rank

    def __getitem__(self, buffer):
        return _BufferView(self._prog, self._rank, buffer)

    def __contains__(self, buffer):
        return buffer in (Buffer.input, Buffer.output) or (self._rank, _scratch_name(buffer)) in self._prog._scratch


class _BufferView:
    def __init__(self, prog, rank, buffer):
        self._prog, self._rank, self._buffer = prog, rank, buffer

    def __len__(self):
        p = self._prog
        if self._buffer is Buffer.output and p._custom:
            return p._custom_outputs
        if self._buffer in (Buffer.input, Buffer.output):
            n = p.collective.num_ranks * p.collective.chunk_factor
            sharded = p.collective._ccforge_name in ('allgather', 'alltoall', 'reducescatter')
            cf = p.collective.chunk_factor
            if p.collective._ccforge_name == 'allgather':
                return n if self._buffer is Buffer.output else cf
            if p.collective._ccforge_name == 'reducescatter':
                return cf if self._buffer is Buffer.output else n
            return n if sharded else cf
        return p._scratch_len.get((self._rank, _scratch_name(self._buffer)), 0)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < 0 or index >= len(self):
            raise IndexError(f'rank {self._rank} buffer {self._buffer}: index {index} out of range')
        p = self._prog
        if self._buffer is Buffer.output and getattr(p, '_reads', None) is not None:
            p._reads.add((self._rank, index))
        return p._value(self._rank, self._buffer, index)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _sub(cref, start, length, where):
    """The part [start, start+length) of a _ccforge.ChunkRef."""
    if start == 0 and length == cref.count:
        return cref
    parts = cref.split(cref.count, where)
    out = parts[start]
    for k in range(1, length):
        out = out.group(parts[start + k], where)
    return out


def _segments(a, b):
    """Overlaps of two run lists [(offset, ..., length)]: (offset, length, run of a, run of b)."""
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        a0, a1 = a[i][0], a[i][0] + a[i][-1]
        b0, b1 = b[j][0], b[j][0] + b[j][-1]
        lo, hi = max(a0, b0), min(a1, b1)
        if lo < hi:
            out.append((lo, hi - lo, a[i], b[j]))
        if a1 <= b1:
            i += 1
        else:
            j += 1
    return out


class Ref:
    """A reference to `size` chunks of one buffer of one rank (msccl-tools' Ref)."""

    __slots__ = ('prog', 'rank', 'buffer', 'index', 'size', '_pieces')

    def __init__(self, prog, rank, buffer, index, size, pieces):
        self.prog = prog
        self.rank = rank
        self.buffer = buffer
        self.index = index
        self.size = size
        self._pieces = pieces  # [(offset, _ccforge.ChunkRef, length)], in order

    def __repr__(self):
        return f'Ref(Buffer:{self.buffer}, Index:{self.index}, Size:{self.size}, Rank:{self.rank})'

    def _end(self):
        return self.index + self.size

    def _tbs(self, sendtb, recvtb):
        if self.prog.threadblock_policy == ThreadblockPolicy.manual:
            return sendtb, recvtb
        return -1, -1  # msccl-tools' automatic policy ignores the thread block annotations

    def _require_link(self, src, dst, what, where):
        if src != dst and not self.prog.topo.link(src, dst):
            raise ProgramError(f'{_text(what)}: the topology {self.prog.topo.name} has no link from rank {src} to rank {dst}',
                               where)

    def copy(self, dst, buffer=None, index=-1, sendtb=-1, recvtb=-1, ch=-1):
        where = caller()
        prog = self.prog
        if index == -1 and buffer is None:
            index, buffer = self.index, self.buffer
        elif index == -1 and buffer is not Buffer.input and buffer is not Buffer.output:
            index = prog._scratch_len.get((dst, _scratch_name(buffer)), 0)
        elif buffer is None:
            buffer = self.buffer
        # As in msccl-tools, an in-place collective's aliasing is applied with the *sending* rank
        # (an in-place allgather's input index i names output[i + sender * chunk_factor] on dst).
        buffer, index = prog.collective.get_buffer_index(self.rank, buffer, index)
        what = lambda: f'copy(rank {self.rank} {self.buffer}[{self.index}] -> rank {dst} {buffer}[{index}])'
        self._require_link(self.rank, dst, what, where)
        if dst == self.rank and self._same_memory(buffer, index):
            return self  # msccl-tools skips a copy onto itself (in-place aliasing)
        sendtb, recvtb = self._tbs(sendtb, recvtb)
        runs = prog._runs(dst, buffer, index, self.size, True, what, where)
        if len(runs) == 1 and len(self._pieces) == 1:  # one run each, over the whole reference
            _, letter, d_index, _ = runs[0]
            ref = self._pieces[0][1].copy(dst, letter, d_index, ch, sendtb, recvtb, where)
            return Ref(prog, dst, buffer, index, self.size, [(0, ref, self.size)])
        pieces = []
        for off, length, (s_off, s_ref, _), (d_off, letter, d_index, _) in _segments(self._pieces, runs):
            src = _sub(s_ref, off - s_off, length, where)
            pieces.append((off, src.copy(dst, letter, d_index + off - d_off, ch, sendtb, recvtb, where), length))
        return Ref(prog, dst, buffer, index, self.size, pieces)

    def _same_memory(self, buffer, index):
        if buffer in (Buffer.input, Buffer.output) and self.buffer in (Buffer.input, Buffer.output):
            a, b = _standard_letter(self.buffer), _standard_letter(buffer)
            return all(self.prog._prog.shares_memory(self.rank, a, self.index + k, b, index + k, 1)
                       for k in range(self.size))
        if buffer in (Buffer.input, Buffer.output) or self.buffer in (Buffer.input, Buffer.output):
            return False
        return _scratch_name(buffer) == _scratch_name(self.buffer) and index == self.index

    def reduce(self, other_chunkref, sendtb=-1, recvtb=-1, ch=-1):
        where = caller()
        other = other_chunkref
        what = lambda: f'reduce(rank {self.rank} {self.buffer}[{self.index}] += rank {other.rank} {other.buffer}[{other.index}])'
        if not isinstance(other, Ref):
            raise ProgramError(f'reduce: the argument is {other!r}, not a chunk reference', where)
        if other.size != self.size:
            raise ProgramError(f'{what()}: count mismatch: reduces {other.size} chunks into {self.size}', where)
        self._require_link(other.rank, self.rank, what, where)
        sendtb, recvtb = self._tbs(sendtb, recvtb)
        if len(self._pieces) == 1 and len(other._pieces) == 1:  # one run each, over the whole reference
            self._pieces = [(0, self._pieces[0][1].reduce(other._pieces[0][1], ch, sendtb, recvtb, where), self.size)]
            return self
        pieces = []
        for off, length, (d_off, d_ref, _), (s_off, s_ref, _) in _segments(self._pieces, other._pieces):
            d = _sub(d_ref, off - d_off, length, where)
            s = _sub(s_ref, off - s_off, length, where)
            pieces.append((off, d.reduce(s, ch, sendtb, recvtb, where), length))
        # msccl-tools returns this reference, which stays usable: it now names the sum.
        self._pieces = pieces
        return self

    def split(self, num):
        where = caller()
        if num < 1 or self.size % num != 0:
            raise ProgramError(f'split: cannot split {self.size} chunks into {num} equal parts', where)
        each = self.size // num
        if len(self._pieces) == 1:
            parts = self._pieces[0][1].split(num, where)
            return [Ref(self.prog, self.rank, self.buffer, self.index + k * each, each, [(0, parts[k], each)])
                    for k in range(num)]
        return [self.prog_chunk(self.index + k * each, each, where) for k in range(num)]

    def prog_chunk(self, index, size, where):
        return _make_ref(self.prog, self.rank, self.buffer, index, size, where, 'split')

    def group(self, other):
        where = caller()
        if self.rank != other.rank or self.buffer != other.buffer:
            raise ProgramError(f'group: only chunks of one buffer of one rank can be grouped (rank {self.rank} '
                               f'{self.buffer} and rank {other.rank} {other.buffer})', where)
        first, second = (self, other) if self.index < other.index else (other, self)
        end = max(first._end(), second._end())
        if first._end() == second.index and len(first._pieces) == 1 and len(second._pieces) == 1:
            ref = first._pieces[0][1].group(second._pieces[0][1], where)
            return Ref(self.prog, self.rank, self.buffer, first.index, end - first.index,
                       [(0, ref, end - first.index)])
        return _make_ref(self.prog, self.rank, self.buffer, first.index, end - first.index, where, 'group')

    def _chunk_at(self, index):
        return self.prog._value(self.rank, self.buffer, self.index + index)

    def _meta(self, index, attr):
        c = self._chunk_at(index)
        if not isinstance(c, Chunk):
            raise ProgramError(f'{attr}: rank {self.rank} {self.buffer}[{self.index + index}] holds '
                               f'{"no data" if c is None else "a reduction"}, not one input chunk')
        return getattr(c, attr)

    def get_origin_index(self, index=0):
        return self._meta(index, 'origin_index')

    def get_origin_rank(self, index=0):
        return self._meta(index, 'origin_rank')

    def get_dst_index(self, index=0):
        return self._meta(index, 'dst_index')

    def get_dst_rank(self, index=0):
        return self._meta(index, 'dst_rank')

    def print_chunk_info(self, index=0):
        print(self._chunk_at(index))


def _make_ref(prog, rank, buffer, index, size, where, what):
    runs = prog._runs(rank, buffer, index, size, False, what, where)
    if len(runs) == 1:
        _, letter, i, n = runs[0]
        return Ref(prog, rank, buffer, index, size, [(0, prog._prog.chunk(rank, letter, i, n, where), n)])
    pieces = [(off, prog._prog.chunk(rank, letter, i, n, where), n) for off, letter, i, n in runs]
    return Ref(prog, rank, buffer, index, size, pieces)


def chunk(rank, buffer, index, size=1):
    where = caller()
    prog = _curr()
    what = lambda b=buffer, i=index: f'chunk({rank}, {b}, {i}, {size})'
    buffer, index = prog.collective.get_buffer_index(rank, buffer, index)
    return _make_ref(prog, rank, buffer, index, size, where, what)


def compute(rank, index, size=1, sendtb=-1, ch=-1):
    """ccforge extension (docs/fused.md): computes input chunks index..index+size-1 of `rank` from its
    operands (the MSCCLProgram's product), each once, and returns the reference to them."""
    where = caller()
    prog = _curr()
    sendtb = sendtb if prog.threadblock_policy == ThreadblockPolicy.manual else -1
    return Ref(prog, rank, Buffer.input, index, size, [(0, prog._prog.compute(rank, index, size, ch, sendtb, where), size)])


def XML():
    """Hands the program to `ccforge compile` / `ccforge dot`, which compile and verify it."""
    where = caller()
    prog = _curr()
    if prog._custom:
        prog._prog.set_postcondition(prog._postcondition_from_check(where))
    prog._prog.emit(where)


def Check():
    where = caller()
    prog = _curr()
    if prog._custom:
        prog._postcondition_from_check(where)
        return True
    mismatches, details = prog._prog.check_postcondition()
    if mismatches:
        text = '\n  '.join(details)
        more = f'\n  ... and {mismatches - len(details)} more' if mismatches > len(details) else ''
        raise ProgramError(f'Check(): the program does not implement {prog.collective.name}: {mismatches} output '
                           f'chunk{"s are" if mismatches != 1 else " is"} wrong\n  {text}{more}', where)
    return True


def Print():
    unsupported('Print()', 'draw the Chunk DAG with `ccforge dot SCRIPT.py --view chunk-dag`')


def create_scratch(rank, name):
    return name
