// How many XML nodes the runtime's parser stores when one rank loads a file. Both runtimes read
// the file once per rank into a fixed array of MAX_NODES nodes (msccl-executor:
// msccl_parser.cc, mscclXmlLoadSub and mscclAlgoXmlGpu; microsoft/msccl: graph/xml.cc, the same
// functions): the <algo> element, every <gpu> element whatever its id, and the <tb> and <step>
// elements of the <gpu> whose id is the loading rank; the children of other ranks' <gpu>
// elements are read and dropped. RuntimeProfile::maxNodesPerLoad is the most a load may store.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::semantics {

// Indexed by rank 0 .. (the last rank with a <gpu> element); the ranks after it, up to ngpus-1,
// store only the shared nodes (rank 0 alone when no rank has one).
std::vector<int64_t> parserNodesPerRank(const ir::Algorithm& algorithm);

}  // namespace ccforge::semantics
