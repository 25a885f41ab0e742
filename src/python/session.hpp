// What one script run hands back to the command that runs it: the programs it built and the ones
// it asked to be written (XML()). The Python bindings fill it; script_runner.cpp owns it.
#pragma once

#include <memory>
#include <set>
#include <string>
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
  void clear() {
    emitted_.clear();
    lastCreated_.reset();
  }

 private:
  std::vector<EmittedProgram> emitted_;
  std::shared_ptr<dsl::Program> lastCreated_;
};

}  // namespace ccforge::python
