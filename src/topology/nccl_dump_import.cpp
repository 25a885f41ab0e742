// Reads NCCL's topology dump (the XML NCCL_TOPO_DUMP_FILE writes): <system> <cpu> <pci>* <gpu>
// <nvlink target count tclass/> <c2c/>, <nic> <net speed/>. Only what the spec needs is kept:
// GPUs, their NVLinks and PCIe attachment, NICs and where they hang.
#include <expat.h>

#include <charconv>
#include <map>
#include <memory>
#include <set>

#include "base/input_error.hpp"
#include "base/load_file.hpp"
#include "topology/machine_import.hpp"

namespace ccforge::topo {
namespace {

using base::TextLocation;

struct DumpStop {};

struct ExpatFree {
  void operator()(XML_ParserStruct* p) const { XML_ParserFree(p); }
};

std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s": the leading decimal, exact.
std::optional<Rational> transferRate(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) ++end;
  if (end == 0) return std::nullopt;
  return parseRational(text.substr(0, end));
}

class DumpReader {
 public:
  DumpReader(std::string source) : parser_(XML_ParserCreate("UTF-8")) {
    box_.source = std::move(source);
    XML_SetUserData(parser_.get(), this);
    XML_SetElementHandler(parser_.get(), &DumpReader::onStart, &DumpReader::onEnd);
  }

  ImportedBox read(std::string_view text) {
    constexpr size_t kChunk = size_t{1} << 20;
    size_t offset = 0;
    do {
      size_t size = std::min(kChunk, text.size() - offset);
      bool last = offset + size == text.size();
      if (XML_Parse(parser_.get(), text.data() + offset, static_cast<int>(size), last) == XML_STATUS_ERROR) {
        if (stop_) throw *stop_;
        XML_Error code = XML_GetErrorCode(parser_.get());
        std::string message = std::string("malformed XML: ") + XML_ErrorString(code);
        if (code == XML_ERROR_NO_ELEMENTS && sawRoot_) message += " (the dump ends before </system>: truncated?)";
        throw base::InputError(box_.source, location(), message);
      }
      offset += size;
    } while (offset < text.size());
    if (!sawRoot_)
      throw base::InputError(box_.source, base::TextLocation{1, 1}, "not an NCCL topology dump: no <system> element");
    if (box_.gpus.empty()) {
      std::string message = "the dump has no <gpu>";
      if (gpusWithoutElement_ > 0)
        message +=
            ": " + std::to_string(gpusWithoutElement_) +
            " GPU-class <pci> devices without a <gpu> child, as in a hand-written NCCL_TOPO_FILE skeleton (NCCL "
            "fills GPUs and NVLinks in from the driver); write a full dump with NCCL_TOPO_DUMP_FILE on the machine";
      throw base::InputError(box_.source, rootWhere_, message);
    }
    resolveTargets();
    return std::move(box_);
  }

 private:
  base::TextLocation location() const {
    return {static_cast<uint32_t>(XML_GetCurrentLineNumber(parser_.get())),
            static_cast<uint32_t>(XML_GetCurrentColumnNumber(parser_.get()) + 1)};
  }
  [[noreturn]] void fail(const std::string& message) {
    stop_ = base::InputError(box_.source, location(), message);
    XML_StopParser(parser_.get(), XML_FALSE);
    throw DumpStop{};
  }

  static void onStart(void* user, const XML_Char* name, const XML_Char** attributes) {
    auto& r = *static_cast<DumpReader*>(user);
    if (r.stop_) return;
    try {
      r.start(name, attributes);
    } catch (const DumpStop&) {
    }
  }
  static void onEnd(void* user, const XML_Char* name) {
    auto& r = *static_cast<DumpReader*>(user);
    if (r.stop_) return;
    r.end(name);
  }

  static std::map<std::string, std::string, std::less<>> attributeMap(const XML_Char** attributes) {
    std::map<std::string, std::string, std::less<>> out;
    for (const XML_Char** a = attributes; *a; a += 2) out.emplace(a[0], a[1]);
    return out;
  }
  using Attributes = std::map<std::string, std::string, std::less<>>;

  const std::string* find(const Attributes& a, std::string_view key) const {
    auto it = a.find(key);
    return it == a.end() ? nullptr : &it->second;
  }
  int64_t integer(const Attributes& a, std::string_view element, std::string_view key, bool required,
                  int64_t fallback) {
    const std::string* v = find(a, key);
    if (v == nullptr) {
      if (required) fail("<" + std::string(element) + "> needs attribute '" + std::string(key) + "'");
      return fallback;
    }
    auto n = parseInteger(*v);
    if (!n) fail("<" + std::string(element) + "> attribute " + std::string(key) + "=\"" + *v + "\" is not an integer");
    return *n;
  }

  void start(std::string_view name, const XML_Char** raw) {
    Attributes a = attributeMap(raw);
    std::string_view parent = stack_.empty() ? std::string_view() : std::string_view(stack_.back());
    if (stack_.empty()) {
      if (name != "system")
        fail("not an NCCL topology dump: the root element is <" + std::string(name) + ">, not <system>");
      sawRoot_ = true;
      rootWhere_ = location();
    } else if (name == "cpu") {
      if (parent != "system") fail("<cpu> belongs directly under <system>");
      cpu_ = box_.cpus++;
      if (const std::string* h = find(a, "host_hash")) hosts_.insert(*h);
    } else if (name == "pci") {
      const std::string* bus = find(a, "busid");
      if (bus == nullptr) fail("<pci> needs attribute 'busid'");
      const std::string* cls = find(a, "class");
      pci_.push_back(PciFrame{*bus, find(a, "link_speed") ? *find(a, "link_speed") : "",
                              integer(a, "pci", "link_width", false, 0), cls != nullptr && cls->rfind("0x03", 0) == 0,
                              false});
    } else if (name == "gpu") {
      if (gpu_ >= 0) fail("<gpu> inside <gpu>");
      ImportedGpu g;
      g.where = location();
      g.dev = static_cast<int32_t>(integer(a, "gpu", "dev", true, -1));
      g.sm = static_cast<int32_t>(integer(a, "gpu", "sm", true, -1));
      g.rank = static_cast<int32_t>(integer(a, "gpu", "rank", false, -1));
      g.cpu = cpu_;
      if (!pci_.empty()) {
        g.busId = pci_.back().busId;
        g.parent = pci_.size() >= 2 ? pci_[pci_.size() - 2].busId : "";
        auto rate = transferRate(pci_.back().linkSpeed);
        if (rate && pci_.back().width > 0) g.pcieGBps = *rate * pci_.back().width / 8;
      } else {
        g.busId = "dev" + std::to_string(g.dev);
      }
      gpu_ = static_cast<int32_t>(box_.gpus.size());
      box_.gpus.push_back(std::move(g));
      if (!pci_.empty()) pci_.back().hasGpu = true;
    } else if (name == "nvlink") {
      if (gpu_ < 0) fail("<nvlink> outside <gpu>");
      ImportedNvlink l;
      l.where = location();
      l.gpu = gpu_;
      const std::string* target = find(a, "target");
      if (target == nullptr) fail("<nvlink> needs attribute 'target'");
      l.target = *target;
      const int64_t count = integer(a, "nvlink", "count", true, 0);
      if (count <= 0 || count > 4096) fail("<nvlink> count must be 1..4096, not " + std::to_string(count));
      l.count = static_cast<int32_t>(count);
      const std::string* tclass = find(a, "tclass");
      std::string cls = tclass ? *tclass : "";
      // PCI class codes: 0x0302xx/0x0300xx a GPU, 0x0680xx a bridge (NVSwitch), 0x0600xx a host bridge (CPU).
      if (cls.rfind("0x0680", 0) == 0)
        l.kind = NvlinkTarget::Switch;
      else if (cls.rfind("0x0600", 0) == 0)
        l.kind = NvlinkTarget::Cpu;
      else if (cls.rfind("0x03", 0) == 0)
        l.kind = NvlinkTarget::Gpu;
      else
        fail("<nvlink> tclass=\"" + cls + "\" is neither a GPU (0x03...), an NVSwitch (0x0680..) nor a CPU (0x0600..)");
      box_.nvlinks.push_back(std::move(l));
    } else if (name == "c2c") {
      if (!notedC2c_)
        box_.notes.push_back(box_.source + ": <c2c> (GPU-CPU chip-to-chip) links are not GPU-GPU paths; left out");
      notedC2c_ = true;
    } else if (name == "nic") {
      inNic_ = true;
    } else if (name == "net") {
      if (!inNic_) fail("<net> outside <nic>");
      ImportedNic n;
      n.where = location();
      const std::string* nm = find(a, "name");
      n.dev = static_cast<int32_t>(integer(a, "net", "dev", true, -1));
      n.name = nm ? *nm : "net" + std::to_string(n.dev);
      n.speedMbps = integer(a, "net", "speed", false, 0);
      n.cpu = cpu_;
      n.parent = pci_.size() >= 2 ? pci_[pci_.size() - 2].busId : "";
      box_.nics.push_back(std::move(n));
    } else {
      if (unknown_.insert(std::string(name)).second)
        box_.notes.push_back(box_.source + ": element <" + std::string(name) + "> ignored");
    }
    stack_.emplace_back(name);
  }

  void end(std::string_view name) {
    if (name == "pci" && !pci_.empty()) {
      if (pci_.back().displayClass && !pci_.back().hasGpu) ++gpusWithoutElement_;
      pci_.pop_back();
    }
    if (name == "gpu") gpu_ = -1;
    if (name == "nic") inNic_ = false;
    if (name == "cpu") cpu_ = -1;
    if (!stack_.empty()) stack_.pop_back();
  }

  void resolveTargets() {
    std::map<std::string, int32_t> byBus;
    for (size_t i = 0; i < box_.gpus.size(); ++i) byBus.emplace(box_.gpus[i].busId, static_cast<int32_t>(i));
    for (ImportedNvlink& l : box_.nvlinks) {
      if (l.kind != NvlinkTarget::Gpu) continue;
      auto it = byBus.find(l.target);
      if (it == byBus.end()) {
        box_.notes.push_back(box_.source + ":" + std::to_string(l.where.line) + ": NVLink to GPU " + l.target +
                             ", which is not in the dump; left out");
        l.count = 0;
      } else if (it->second == l.gpu) {
        box_.notes.push_back(box_.source + ":" + std::to_string(l.where.line) + ": NVLink from GPU " + l.target +
                             " to itself; left out");
        l.count = 0;
      } else {
        l.targetGpu = it->second;
      }
    }
    if (hosts_.size() > 1)
      box_.notes.push_back(box_.source + ": " + std::to_string(hosts_.size()) +
                           " host_hash values (a fused multi-host dump); read as one box");
  }

  struct PciFrame {
    std::string busId;
    std::string linkSpeed;
    int64_t width = 0;
    bool displayClass = false;  // PCI class 0x03...: a GPU
    bool hasGpu = false;
  };
  std::unique_ptr<XML_ParserStruct, ExpatFree> parser_;
  ImportedBox box_;
  std::optional<base::InputError> stop_;
  std::vector<std::string> stack_;
  std::vector<PciFrame> pci_;
  std::set<std::string> unknown_;
  std::set<std::string> hosts_;
  int32_t cpu_ = -1;
  int32_t gpu_ = -1;
  int32_t gpusWithoutElement_ = 0;
  bool inNic_ = false;
  bool sawRoot_ = false;
  bool notedC2c_ = false;
  base::TextLocation rootWhere_;
};

}  // namespace

ImportedBox readNcclTopologyDump(std::string_view text, const std::string& sourceName) {
  return DumpReader(sourceName).read(text);
}

ImportedBox readMachineFile(const std::filesystem::path& path) {
  constexpr uint64_t kMaxMachineFileBytes = uint64_t{64} << 20;
  std::string text = base::loadFile(path, kMaxMachineFileBytes);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '<') return readNcclTopologyDump(text, path.string());
  return readNvidiaSmiTopology(text, path.string());
}

}  // namespace ccforge::topo
