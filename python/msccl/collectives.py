# msccl-tools' msccl.collectives describes collectives for its SMT synthesizer. MSCCLang scripts
# import it with `from msccl.collectives import *` without using it; ccforge synthesizes with
# `ccforge synth`, so this module is empty on purpose.
