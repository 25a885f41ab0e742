// What `ccforge calibrate` prints: each parameter (fitted, or why not), predicted against measured
// per row before and after the fit, and the error left per size regime; text or JSON.
#pragma once

#include <string>
#include <vector>

#include "calibrate/fit.hpp"

namespace ccforge::calibrate {

std::string fitReportText(const FitResult& fit, const std::vector<LogInput>& logs, const std::string& topology);
std::string fitReportJson(const FitResult& fit, const std::vector<LogInput>& logs, const std::string& topology);

}  // namespace ccforge::calibrate
