# A topology as msccl-tools' scripts use it: links[dst][src] is the bandwidth from src to dst
# (0: no link). MSCCLProgram asks link(src, dst) before every transfer between two ranks.


class Topology:
    def __init__(self, name, links, switches=None):
        self.name = name
        self.links = links
        self.switches = switches if switches is not None else []
        for row in links:
            if len(row) != len(links):
                raise ValueError(f'topology {name}: the link matrix must be square')

    def num_nodes(self):
        return len(self.links)

    def nodes(self):
        return range(self.num_nodes())

    def link(self, src, dst):
        return self.links[dst][src]

    def sources(self, dst):
        return [src for src, bw in enumerate(self.links[dst]) if bw > 0]

    def destinations(self, src):
        return [dst for dst, row in enumerate(self.links) if row[src] > 0]
