from msccl.topologies.topology import Topology
from msccl.topologies.generic import fully_connected
from msccl.language._where import unsupported


def dgx_a100():
    # Eight GPUs on NVSwitches: every pair has a link.
    t = fully_connected(8)
    t.name = 'DGX-A100'
    return t


def dgx1():
    unsupported('msccl.topologies.dgx1()', 'describe the links with Topology(name, links) instead')


def nvlink_only(nvidia_smi_topo=None):
    unsupported('msccl.topologies.nvlink_only()', 'it reads nvidia-smi; describe the links with Topology(name, links)')
