# ccforge's msccl-tools-compatible MSCCLang front end (docs/python.md). Scripts written for
# msccl-tools import msccl.language, msccl.language.collectives and msccl.topologies; here
# those names trace into ccforge's C++ DSL (the embedded module _ccforge), and
# `ccforge compile SCRIPT.py` compiles and verifies what the script built.
