// Importing a real machine: NCCL's topology dump (NCCL_TOPO_DUMP_FILE, the XML NCCL_TOPO_FILE
// reads) and `nvidia-smi topo -m` become a ccforge topology spec (docs/topologies.md, "Importing
// a machine"). Reading gives an ImportedBox per file; buildImportedSpec joins boxes with a declared
// fabric and writes the spec JSON with the assumptions it made as "notes".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.hpp"
#include "topology/rational.hpp"

namespace ccforge::topo {

enum class NvlinkTarget : uint8_t { Gpu, Switch, Cpu };

struct ImportedNvlink {
  int32_t gpu = 0;         // index into ImportedBox::gpus
  std::string target;      // bus id (dump) or "GPU<k>" (nvidia-smi)
  int32_t targetGpu = -1;  // resolved when the target is a GPU of this box
  NvlinkTarget kind = NvlinkTarget::Gpu;
  int32_t count = 0;
  base::TextLocation where;
};

struct ImportedGpu {
  std::string busId;
  int32_t dev = -1;
  int32_t rank = -1;
  int32_t sm = -1;
  int32_t cpu = -1;       // index of its <cpu> (NUMA domain), -1 when unknown
  std::string parent;     // bus id of the enclosing PCI bridge, "" under the CPU itself
  Rational pcieGBps = 0;  // per direction, 0 when the dump does not say
  base::TextLocation where;
};

struct ImportedNic {
  std::string name;
  int32_t dev = -1;
  int64_t speedMbps = 0;
  int32_t cpu = -1;
  std::string parent;
  base::TextLocation where;
};

struct ImportedBox {
  std::string source;
  std::vector<ImportedGpu> gpus;
  std::vector<ImportedNvlink> nvlinks;
  std::vector<ImportedNic> nics;
  int32_t cpus = 0;
  // NVLink counts in nvidia-smi's matrix are per pair; above a GPU's link count they mean a switch.
  bool pairCountsFromMatrix = false;
  std::vector<std::string> notes;  // what the reader skipped or assumed
};

// Reads an NCCL topology dump. Malformed XML, a truncated file, a missing or non-numeric
// attribute on <gpu>/<nvlink>/<net> and a dump without GPUs are InputErrors at file:line:column.
ImportedBox readNcclTopologyDump(std::string_view text, const std::string& sourceName);
// Reads `nvidia-smi topo -m` output (the matrix; the legend is ignored). Errors likewise.
ImportedBox readNvidiaSmiTopology(std::string_view text, const std::string& sourceName);
// Either, told apart by content (an XML dump starts with '<').
ImportedBox readMachineFile(const std::filesystem::path& path);

enum class Fabric : uint8_t { Rail, Switch, Clos };

struct ImportOptions {
  std::string name = "imported";
  int32_t boxes = 1;  // copies of a single input; with several inputs, 1
  Fabric fabric = Fabric::Rail;
  int32_t railSwitches = 0;  // rail: NIC j on switch rail<j mod this>; 0: one switch per rail
  // rail and clos: the leaves' uplinks to one aggregate spine carry their NIC links' bandwidth
  // divided by this; 0: no spine (rail only: the rails then meet nowhere but through PXN)
  Rational spineOversubscription = 1;
  int32_t boxesPerLeaf = 4;            // clos: the NICs of this many consecutive boxes on one leaf
  bool nvls = true;                    // false: the spec says no NVLS even on an sm 90+ NVSwitch box
  std::optional<int32_t> sm;           // overrides / supplies the compute capability (nvidia-smi has none)
  std::optional<Rational> nvlinkGBps;  // overrides the per-link bandwidth table
  double networkAlphaUs = 0;           // alpha of each NIC-switch link
};

struct ImportResult {
  std::string specJson;            // a spec readTopology accepts
  std::vector<std::string> notes;  // also inside the spec as "notes"
};

// Per-link NVLink bandwidth per direction for a compute capability, with the generation's
// name; nullopt for one without a known NVLink (docs/topologies.md lists the table and sources).
struct NvlinkGeneration {
  Rational perLinkGBps;
  int32_t linksPerGpu = 0;
  std::string_view name;
};
std::optional<NvlinkGeneration> nvlinkGeneration(int32_t sm);

// Throws std::invalid_argument for an impossible request (boxes < 1, rails of unequal NIC
// counts, several boxes without NICs, an unknown sm without --nvlink-gbps).
ImportResult buildImportedSpec(const std::vector<ImportedBox>& boxes, const ImportOptions& options);

}  // namespace ccforge::topo
