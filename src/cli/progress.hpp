// Progress of long commands on stderr: the phase, the instance or file, and the time since the
// command started, e.g. "ccforge synth: progress: [12.3 s] solving (2,3,4)". On when stderr is a
// terminal or `--progress` is given; off otherwise, so that piped and CI output stays the report.
// A phase that lasts is repeated every few seconds ("still ..."), so a long solver call or
// simulation shows it is alive. Reports go to stdout; progress never does.
#pragma once

#include <string>
#include <string_view>

namespace ccforge::cli::progress {

// --progress: report even when stderr is not a terminal.
void force();
// A long command begins: names it in the lines and starts the clock.
void start(std::string_view command);
bool enabled();
// Starts a phase: prints it now, and again every few seconds until the next phase or done().
void phase(const std::string& text);
// The command is finished: stops the repetition.
void done();

}  // namespace ccforge::cli::progress
