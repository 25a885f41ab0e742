# Allgather on MI250 boxes by rings, an experiment toward issue 12's mi250-2 target (at least 95 %
# of the bound in the simulator); written for ccforge, run by bench/synth_trees/mi250_rings.
#
# Inside a box: the xGMI graph (specs/topologies/mi250-1.json) contracted to its eight packages
# (the GCD pairs joined by 4 links) is 6-regular and splits into three Hamiltonian cycles; each
# cycle enters a package on one GCD and leaves it from the other, so the three GCD-level cycles
# below use every external link unit once and 3 of the 4 units of each package's own link. Both
# directions of each cycle give six rings. A ring hop that enters a package carries every shard
# but the two of that package: the shard of the GCD after it in the ring is not forwarded the long
# way round but sent straight back over the package link's spare unit ("truncated" ring). Fluid
# limit: the 2400/7 GB/s bound of mi250-1 exactly.
#
# Two boxes (mi250-2): every GCD first sends its shard to the same GCD of the other box over its
# NIC, then the rings of each box carry both boxes' shards: the box's own in one pass, the other
# box's in a second pass on other channels, each cut into ROUNDS pieces (rounds on channels of their
# own: a ring that sends two of its own pieces before its first receive deadlocks at two slots).
# Fluid limit: 2400/7 GB/s, 96.8 % of mi250-2's 5312/15 bound; the rest needs the NICs to carry
# part of the other shards too (the bound's cut is a package: 6 xGMI units plus two NICs).
import argparse

from msccl.language import *
from msccl.topologies import *
from msccl.language.collectives import AllGather

GCDS = 16
CYCLES = [
    [0, 4, 5, 6, 7, 3, 2, 9, 8, 12, 13, 14, 15, 11, 10, 1],
    [0, 1, 5, 4, 6, 7, 3, 2, 10, 11, 15, 14, 12, 13, 9, 8],
    [0, 4, 5, 7, 6, 2, 3, 11, 10, 14, 15, 13, 12, 8, 9, 1],
]
RINGS = [ring for c in CYCLES for ring in (c, [c[0]] + c[:0:-1])]


def package_partner(gcd):
    return gcd ^ 1


def mi250_rings(boxes, rounds, nic_channels, instances, protocol):
    parts = len(RINGS) * rounds
    ranks = GCDS * boxes
    passes = boxes * rounds  # ring passes per ring: one per (source box, round)
    direct_channel = len(RINGS) * passes
    nic_channel = direct_channel + 1
    if nic_channel + (nic_channels if boxes > 1 else 0) > 32:
        raise ValueError('more than the runtime\'s 32 channels: lower --rounds or --nic-channels')
    collective = AllGather(ranks, parts, inplace=False)

    def output_index(rank, part):
        return rank * parts + part

    with MSCCLProgram('mi250_rings', fully_connected(ranks), collective, instances, protocol=protocol):
        for rnd in range(rounds):
            for box in range(boxes):
                for gcd in range(GCDS):
                    rank = box * GCDS + gcd
                    for r in range(len(RINGS)):
                        part = rnd * len(RINGS) + r
                        c = chunk(rank, Buffer.input, part).copy(rank, Buffer.output, output_index(rank, part))
                        for other in range(boxes):
                            if other != box:
                                c.copy(other * GCDS + gcd, Buffer.output, output_index(rank, part),
                                       ch=nic_channel + r % nic_channels)

        def ring_pass(box, source_box, r, rnd):
            ring = RINGS[r]
            channel = r + len(RINGS) * ((source_box - box) % boxes * rounds + rnd)
            part = rnd * len(RINGS) + r
            for i, gcd in enumerate(ring):
                index = output_index(source_box * GCDS + gcd, part)
                c = chunk(box * GCDS + gcd, Buffer.output, index)
                before = ring[i - 1]
                hops = GCDS - 1
                if package_partner(before) == gcd:
                    hops -= 1
                    c.copy(box * GCDS + before, Buffer.output, index, ch=direct_channel)
                for hop in range(1, hops + 1):
                    c = c.copy(box * GCDS + ring[(i + hop) % GCDS], Buffer.output, index, ch=channel)

        for shift in range(boxes):
            for rnd in range(rounds):
                for box in range(boxes):
                    for r in range(len(RINGS)):
                        ring_pass(box, (box + shift) % boxes, r, rnd)
        XML()


parser = argparse.ArgumentParser()
parser.add_argument('boxes', type=int, choices=[1, 2])
parser.add_argument('--rounds', type=int, default=1)
parser.add_argument('--nic-channels', type=int, default=6)
parser.add_argument('--instances', type=int, default=1)
parser.add_argument('--protocol', default='Simple', choices=['Simple', 'LL', 'LL128'])
args = parser.parse_args()
mi250_rings(args.boxes, args.rounds, args.nic_channels, args.instances, args.protocol)
