# Chunk values as msccl-tools' scripts see them: a Chunk is one input chunk (where it starts and,
# for the collective's description, where it must end); a ReduceChunk a sum of Chunks.
from dataclasses import dataclass, field


@dataclass
class Chunk:
    origin_rank: int
    origin_index: int
    dst_rank: int = -1
    dst_index: int = -1

    def reduce(self, dst, chunk):
        if isinstance(chunk, ReduceChunk):
            return chunk.reduce(dst, self)
        return ReduceChunk(dst, [self, chunk])

    def _key(self):
        return (self.origin_rank, self.origin_index)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return type(other) is Chunk and self._key() == other._key()

    def __lt__(self, other):
        return self._key() < other._key()


@dataclass
class ReduceChunk:
    creation_rank: int
    chunks: list = field(default_factory=list)

    def reduce(self, dst, chunk):
        more = chunk.chunks if isinstance(chunk, ReduceChunk) else [chunk]
        return ReduceChunk(self.creation_rank, self.chunks + more)

    def sort(self):
        self.chunks.sort()

    def __hash__(self):
        return hash(tuple(sorted(c._key() for c in self.chunks)))

    def __eq__(self, other):
        return isinstance(other, ReduceChunk) and \
            sorted(c._key() for c in self.chunks) == sorted(c._key() for c in other.chunks)
