#!/usr/bin/env python3
"""The GitHub Actions workflow (.github/workflows/ccforge-verify.yml) parses, its problem matcher
reads ccforge's diagnostics, and its ccforge steps run as written: the gate passes on the files
the workflow compiles, fails (exit 10) once a broken file joins them, and leaves a SARIF 2.1.0
report either way. The build step (apt packages) is not run here; CI runs its commands already.

usage: github_workflow.py REPO_ROOT CCFORGE WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

root, ccforge, work = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


with open(os.path.join(root, ".github/workflows/ccforge-verify.yml")) as f:
    flow = yaml.safe_load(f)
triggers = flow.get("on", flow.get(True))  # YAML 1.1 reads the key `on` as true
check(isinstance(triggers, dict) and "push" in triggers and "pull_request" in triggers, "runs on push and pull_request")
check(flow["permissions"].get("security-events") == "write", "may upload SARIF (security-events: write)")
steps = flow["jobs"]["verify"]["steps"]
by_id = {s["id"]: s for s in steps if "id" in s}
for needed in ("build", "algorithms", "matcher", "verify", "sarif"):
    check(needed in by_id, f"a step with id {needed}")
check("scripts/setup" in by_id["build"]["run"] and "--target ccforge" in by_id["build"]["run"],
      "the build step sets up from Debian packages and builds ccforge")
upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
check(len(upload) == 1, "one upload-sarif step")
env = flow["env"]
check(upload[0]["with"]["sarif_file"] == env["REPORT_DIR"] + "/ccforge.sarif", "uploads the file the sarif step writes")
check(upload[0].get("if") == "always()" and by_id["sarif"].get("if") == "always()",
      "the SARIF report is written and uploaded when the gate fails too")

matcher_ref = re.search(r"::add-matcher::([^\s\"]+)", by_id["matcher"]["run"])
check(matcher_ref is not None, "the matcher step adds a matcher")
with open(os.path.join(root, matcher_ref.group(1))) as f:
    pattern = json.load(f)["problemMatcher"][0]["pattern"][0]
regexp = re.compile(pattern["regexp"])

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
step_env = dict(os.environ, CCFORGE=ccforge, ALGORITHMS=os.path.join(work, "algorithms"), REPORT_DIR=work)


def run(step_id):
    return subprocess.run(["bash", "-e", "-c", by_id[step_id]["run"]], cwd=root, env=step_env,
                          capture_output=True, text=True, timeout=600)


r = run("algorithms")
check(r.returncode == 0, f"the algorithms step exits 0 (got {r.returncode}: {r.stderr[-500:]})")
r = run("verify")
check(r.returncode == 0, f"the gate passes on the compiled files (exit {r.returncode}: {r.stdout[-500:]})")
r = run("sarif")
sarif = os.path.join(work, "ccforge.sarif")
check(r.returncode == 0 and json.load(open(sarif)).get("version") == "2.1.0", "a SARIF 2.1.0 report")

broken = os.path.join(root, "tests/fixtures/verify/limits/nchannels_int32_min.xml")
shutil.copy(broken, step_env["ALGORITHMS"])
r = run("verify")
check(r.returncode == 10, f"the gate fails with exit 10 on a broken file (got {r.returncode})")
annotated = [m for m in map(regexp.match, r.stdout.splitlines()) if m]
check(len(annotated) >= 5, f"the matcher reads the findings ({len(annotated)} lines matched)")
for m in annotated:
    check(m.group(pattern["file"]).endswith("nchannels_int32_min.xml") and int(m.group(pattern["line"])) > 0
          and int(m.group(pattern["column"])) > 0 and m.group(pattern["severity"]) == "error"
          and m.group(pattern["code"]) == "limits.channels", f"a finding read as file, line, column, rule: {m.group(0)}")
os.remove(sarif)
r = run("sarif")
check(r.returncode == 0 and json.load(open(sarif))["runs"][0]["results"], "the SARIF report of a failing gate has results")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
