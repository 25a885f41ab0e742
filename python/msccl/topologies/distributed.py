from msccl.topologies.topology import Topology


def _copies(local_topology, num_copies, remote_bw, remote):
    n = local_topology.num_nodes()
    size = n * num_copies
    links = [[0] * size for _ in range(size)]
    for dst in range(size):
        for src in range(size):
            if dst // n == src // n:
                links[dst][src] = local_topology.links[dst % n][src % n]
            elif remote(src, dst, n):
                links[dst][src] = remote_bw
    return links


def distributed_fully_connected(local_topology, num_copies, remote_bw):
    links = _copies(local_topology, num_copies, remote_bw, lambda s, d, n: True)
    return Topology(f'DistributedFullyConnected(local={local_topology.name},copies={num_copies},bw={remote_bw})',
                    links)


def distributed_hub_and_spoke(local_topology, num_copies, remote_bw):
    links = _copies(local_topology, num_copies, remote_bw, lambda s, d, n: True)
    return Topology(f'DistributedHubAndSpoke(local={local_topology.name},copies={num_copies},bw={remote_bw})',
                    links)
