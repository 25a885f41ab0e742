// Writing output files so that none is ever left half written: the text goes to a temporary
// file beside the target, which is renamed over it once complete (a device or FIFO such as
// /dev/stdout is written in place). A failure names the file and the system's reason.
#pragma once

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ccforge::base {

// An output that could not be written (missing directory, no permission, disk full); the
// commands report it with exit 1 (docs/exit-codes.md).
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` (temporary file, then rename). Throws OutputError.
void writeOutputFile(const std::filesystem::path& path, std::string_view text);

// The same for a text produced piece by piece, so that a file of hundreds of MB (a 1,024-rank
// program) is never held in memory whole: `produce` hands each piece to the sink in order.
using TextSink = std::function<void(std::string_view)>;
void writeOutputFile(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce);

// Lets `produce` write the complete file at the temporary path it is given, then renames it
// to `path`; a throw from `produce` removes the temporary file and propagates. Throws
// OutputError when the directory cannot take the file or the rename fails.
void replaceOutputFile(const std::filesystem::path& path,
                       const std::function<void(const std::filesystem::path&)>& produce);

// Throws OutputError unless `path` can be written as an output file: its directory exists and
// it is not a directory itself. For a check before long work; the write checks again.
void checkOutputPath(const std::filesystem::path& path);

}  // namespace ccforge::base
