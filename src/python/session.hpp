// What one script run hands back to the command that runs it: the programs it built and the ones
// it asked to be written (XML()). The Python bindings fill it; script_runner.cpp owns it.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dsl/program.hpp"

namespace ccforge::python {

struct EmittedProgram {
  std::shared_ptr<dsl::Program> program;
  dsl::SourcePos at;  // the XML() call
};

class Session {
 public:
  static Session& current();
  // A stable copy of a file name, for dsl::SourcePos (which does not own its file name).
  static const char* intern(const std::string& file);

  void programCreated(std::shared_ptr<dsl::Program> program) { lastCreated_ = std::move(program); }
  void programEmitted(std::shared_ptr<dsl::Program> program, dsl::SourcePos at) {
    emitted_.push_back(EmittedProgram{std::move(program), at});
  }
  const std::vector<EmittedProgram>& emitted() const { return emitted_; }
  const std::shared_ptr<dsl::Program>& lastCreated() const { return lastCreated_; }
  // The positions read from the Python layer's position tuples, by tuple (bindings.cpp).
  std::unordered_map<const void*, dsl::SourcePos>& places() { return places_; }
  void clear() {
    emitted_.clear();
    lastCreated_.reset();
    places_.clear();
  }

 private:
  std::vector<EmittedProgram> emitted_;
  std::shared_ptr<dsl::Program> lastCreated_;
  std::unordered_map<const void*, dsl::SourcePos> places_;
};

}  // namespace ccforge::python
