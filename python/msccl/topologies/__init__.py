# The topologies msccl-tools' scripts pass to MSCCLProgram (only their links matter here).
from msccl.topologies.topology import Topology
from msccl.topologies.generic import *
from msccl.topologies.distributed import *
from msccl.topologies.nvidia import *
