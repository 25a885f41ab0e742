from msccl.topologies.topology import Topology


def _matrix(n, connected):
    return [[1 if src != dst and connected(src, dst) else 0 for src in range(n)] for dst in range(n)]


def fully_connected(num_nodes):
    return Topology(f'FullyConnected(n={num_nodes})', _matrix(num_nodes, lambda s, d: True))


def ring(num_nodes):
    return Topology(f'Ring(n={num_nodes})',
                    _matrix(num_nodes, lambda s, d: (s - d) % num_nodes in (1, num_nodes - 1)))


def line(num_nodes):
    return Topology(f'Line(n={num_nodes})', _matrix(num_nodes, lambda s, d: abs(s - d) == 1))


def star(num_nodes, non_blocking=True):
    return Topology(f'Star(n={num_nodes})', _matrix(num_nodes, lambda s, d: s == 0 or d == 0))


def hub_and_spoke(num_nodes):
    # Every pair talks through one switch: for the DSL (which only asks whether a link exists)
    # that is a full connection.
    return Topology(f'HubAndSpoke(n={num_nodes})', _matrix(num_nodes, lambda s, d: True),
                    switches=[(list(range(num_nodes)), list(range(num_nodes)), 1, 'hub')])
