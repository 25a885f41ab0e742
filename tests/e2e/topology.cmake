# End-to-end tests of `ccforge topo`, `ccforge bounds` and `ccforge simulate`.
# ccforge_e2e(NAME EXIT_CODE [--has RE]... [--lacks RE]... -- ARGS...): runs `ccforge ARGS`.
set(CCFORGE_E2E_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data)
function(ccforge_e2e name)
  add_test(NAME "e2e: ${name}" COMMAND bash ${CCFORGE_EXPECT} ${ARGN})
  set_tests_properties("e2e: ${name}" PROPERTIES TIMEOUT 120)
endfunction()
set(CCF $<TARGET_FILE:ccforge>)

ccforge_e2e("topo show dgx1" 0
  --has "^topology dgx1 " --has "vertices: 8 GPUs, 0 switches, 0 NICs in 1 box"
  --has "GPU egress: 150 GB/s on every GPU" --has "diameter: 2 steps"
  --has "automorphisms: 4 keeping bandwidth, alpha and link class. 48 ignoring them"
  -- ${CCF} topo show dgx1)
ccforge_e2e("topo show json" 0
  --has "\"diameter_steps\": 1" --has "\"gpus\": 8" --has "\"switches\": 1" --has "\"order\": \"40320\""
  -- ${CCF} topo show a100-1 --format json)
ccforge_e2e("topo show a spec file by path" 0
  --has "topology torus4x4 " --has "16 GPUs" --has "diameter: 4 steps" --has "automorphisms: 384 "
  -- ${CCF} topo show ${CCFORGE_E2E_DATA}/topo_torus.json)
ccforge_e2e("topo show reports a disconnected topology" 0
  --has "diameter: none: a cannot reach c"
  -- ${CCF} topo show ${CCFORGE_E2E_DATA}/topo_disconnected.json)
ccforge_e2e("topo show rejects zero bandwidth with a location" 2
  --has "topo_zero_bandwidth.json:4:44: /links/0/bw: bandwidth must be positive, got 0"
  -- ${CCF} topo show ${CCFORGE_E2E_DATA}/topo_zero_bandwidth.json)
ccforge_e2e("topo show of an unknown name" 2
  --has "dgx9: no such file, and not a catalog topology \\(a100-1, a100-2"
  -- ${CCF} topo show dgx9)
ccforge_e2e("topo dot" 0
  --has "^digraph \"ndv2-2\" \\{" --has "subgraph cluster_box1" --has "\"b1.gpu0\" -> \"b0.gpu1\""
  -- ${CCF} topo dot ndv2-2)
ccforge_e2e("topo list" 0
  --has "^a100-1: 8 GPUs" --has "mi250-2: 32 GPUs" --has "amd-z52: 8 GPUs"
  -- ${CCF} topo list)
ccforge_e2e("topo without a subcommand is a usage error" 1 -- ${CCF} topo)
