#include "calibrate/calibrated_spec.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>

#include "base/json_document.hpp"
#include "topology/catalog.hpp"

namespace ccforge::calibrate {
namespace {

using nlohmann::ordered_json;

// Nested "boxes" may name a spec file relative to the spec that holds them.
void anchorBoxPaths(ordered_json& spec, const std::filesystem::path& directory) {
  if (!spec.is_object() || !spec.contains("boxes") || !spec["boxes"].is_object()) return;
  ordered_json& box = spec["boxes"]["box"];
  if (box.is_string()) {
    const std::string name = box.get<std::string>();
    if (!topo::catalogSpec(name) && std::filesystem::path(name).is_relative() && !directory.empty())
      box = std::filesystem::absolute(directory / name).lexically_normal().string();
  } else if (box.is_object()) {
    anchorBoxPaths(box, directory);
  }
}

}  // namespace

std::string calibratedSpec(std::string_view specText, const std::string& specDirectory, const topo::Calibration& c) {
  ordered_json spec = ordered_json::parse(specText.begin(), specText.end(), nullptr, false);
  if (!spec.is_object()) throw std::invalid_argument("the topology spec is not a JSON object");
  anchorBoxPaths(spec, specDirectory);
  ordered_json calibration = ordered_json::object();
  for (const topo::CalibrationField& f : topo::calibrationFields())
    if (const std::optional<double>& v = c.*(f.member)) calibration[std::string(f.key)] = *v;
  calibration["logs"] = c.logs;
  spec["calibration"] = calibration;
  return base::jsonDocument(spec);
}

}  // namespace ccforge::calibrate
