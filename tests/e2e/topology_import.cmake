# `ccforge topo import` (docs/topologies.md, "Importing a machine") on the dumps of
# tests/fixtures/topology-dumps (README.md there names each source).
set(DUMPS ${FIXTURES}/topology-dumps)

ccforge_cli_test("topo import: a real H100 dump" 0
  --has "\"name\": \"imported\"" --has "\"from\": \"gpu0\", *$|\"from\": \"gpu0\"" --has "\"to\": \"nvswitch\""
  --has "note: sm 90 \\(H100/H200, NVLink4\\): 25 GB/s per NVLink per direction, 18 links per GPU"
  --has "note: .*4 NVSwitch targets merged into one vertex"
  --has "note: .*nic0 = mlx5_0 \\(rail 0\\), 200000 Mb/s = 25 GB/s, linked to gpu7"
  -- topo import ${DUMPS}/h100-ibm-cloud-gx3d.xml)
ccforge_cli_test("topo import: a PCIe-only dump goes through the CPUs" 0
  --has "\"to\": \"cpu1\"" --has "note: .*NVLink does not connect every GPU"
  -- topo import ${DUMPS}/a100-pcie-2gpu-nccl-2397.xml --name a100pcie)
ccforge_cli_test("topo import: a partial dump is a located error" 2
  --has "h200-vm-nccl-tests-256-excerpt.xml:13:1: error: malformed XML"
  -- topo import ${DUMPS}/h200-vm-nccl-tests-256-excerpt.xml)
ccforge_cli_test("topo import: an NCCL_TOPO_FILE skeleton without GPUs is a located error" 2
  --has "ndv4-topo-azhpc-images.xml:1:1: error: the dump has no <gpu>: 8 GPU-class <pci> devices"
  -- topo import ${DUMPS}/ndv4-topo-azhpc-images.xml)
ccforge_cli_test("topo import: a truncated nvidia-smi matrix is a located error" 2
  --has "smi-dgx-a100-nccl-1505-excerpt.txt:7:1: error: the matrix ends after 4 of 8 GPU rows"
  -- topo import ${DUMPS}/smi-dgx-a100-nccl-1505-excerpt.txt)
ccforge_cli_test("topo import: nvidia-smi NVLinks need --sm" 1
  --has "give --sm"
  -- topo import ${DUMPS}/smi-synthetic-dgx-a100.txt)
ccforge_cli_test("topo import: nvidia-smi with --sm 80" 0
  --has "NV<n> on every pair adds up to more than 12 links per GPU"
  -- topo import ${DUMPS}/smi-synthetic-dgx-a100.txt --sm 80)
ccforge_cli_test("topo import: boxes need NICs" 1
  --has "no NIC with a speed"
  -- topo import ${DUMPS}/smi-2x3090-pcie-club3090-178.txt --boxes 2)
ccforge_cli_test("topo import: two boxes on one switch" 0
  --has "\"name\": \"b1.gpu7\"" --has "\"to\": \"net\"" --has "fabric switch"
  -- topo import ${DUMPS}/synthetic-dgx-a100.xml ${DUMPS}/synthetic-dgx-a100.xml --fabric switch -q)
ccforge_cli_test("topo import: a missing file is a usage error" 1
  -- topo import ${DUMPS}/no-such-dump.xml)

# Bounds of imported boxes equal the catalog's (allgather values from docs/bounds.md).
function(ccforge_import_bounds_test name dump catalog allgather)
  add_test(NAME "cli: topo import bounds: ${name}"
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/import_bounds.sh $<TARGET_FILE:ccforge> ${dump} ${catalog} ${allgather} ${ARGN})
  set_tests_properties("cli: topo import bounds: ${name}" PROPERTIES TIMEOUT 300)
endfunction()
ccforge_import_bounds_test("synthetic DGX-1 = dgx1" ${DUMPS}/synthetic-dgx1-v100.xml dgx1 1200/7)
ccforge_import_bounds_test("synthetic DGX-A100 = a100-1" ${DUMPS}/synthetic-dgx-a100.xml a100-1 2400/7)
ccforge_import_bounds_test("real H100 (IBM Cloud) = h100-1" ${DUMPS}/h100-ibm-cloud-gx3d.xml h100-1 3600/7)
# Several boxes: rails on two switches (even/odd), as the catalog's a100-2 and a100-4.
ccforge_import_bounds_test("2 synthetic DGX-A100 on 2 rail switches = a100-2" ${DUMPS}/synthetic-dgx-a100.xml a100-2 1040/3
  --boxes 2 --rail-switches 2 --net-alpha-us 1.3)
ccforge_import_bounds_test("4 synthetic DGX-A100 on 2 rail switches = a100-4" ${DUMPS}/synthetic-dgx-a100.xml a100-4 800/3
  --boxes 4 --rail-switches 2 --net-alpha-us 1.3)
# Real dumps without a catalog twin; the allgather bound follows from the dump's own figures.
# T600 (NVIDIA/nccl-tests#329) x 2 boxes on one switch: each GPU's 100 Gb/s NIC carries M/2, so
# algbw <= 2 x 12.5 = 25 GB/s.
ccforge_import_bounds_test("real T600 x 2 boxes on a switch" ${DUMPS}/t600-nccl-tests-329.xml - 25 --boxes 2 --fabric switch)
# Azure NCv4 (4 x A100 PCIe; its NVLinks point at the GPU itself and are left out): each GPU
# receives 3M/4 through a PCIe link assumed at 16 GB/s, so algbw <= 64/3.
ccforge_import_bounds_test("real NCv4 file over PCIe" ${DUMPS}/ncv4-topo-azhpc-images.xml - 64/3)
ccforge_cli_test("topo import: a self-targeted NVLink is noted" 0
  --has "ncv4-topo-azhpc-images.xml:5: NVLink from GPU 0001:00:00.0 to itself. left out"
  --has "a GPU without PCIe speed or width: assumed 16 GB/s"
  -- topo import ${DUMPS}/ncv4-topo-azhpc-images.xml)
# A real DGX-1 nvidia-smi matrix (Microway): the hybrid cube-mesh, labelled differently from the
# catalog, has exactly dgx1's bounds.
ccforge_import_bounds_test("real DGX-1 nvidia-smi (Microway) = dgx1" ${DUMPS}/smi-dgx1-microway.txt dgx1 1200/7 --sm 70)
ccforge_cli_test("topo import: older nvidia-smi NIC columns are noted, not read" 0
  --has "columns from 'mlx5_0' on are not read" --has "\"bw\": 2"
  -- topo import ${DUMPS}/smi-dgx1-microway.txt --sm 70)

# Issue 24: an imported machine keeps what it is. Two boxes of the real H100 dump on rails: the
# library ring routes (PXN to the receiver's rail) and simulates; the spec says sm 90, and tune
# models an H100 from it without being told.
set(IMPORT_OUT ${CMAKE_CURRENT_BINARY_DIR}/import_out)
dsl_shell_test("topo import --boxes 2 --fabric rail of a real H100 dump routes the library ring" 0
  --has "\"sm\": 90" --has "\"pxn\": true" --has "^  1073741824 .*float +sum" --lacks "no route"
  -- "rm -rf ${IMPORT_OUT}/h100x2 && mkdir -p ${IMPORT_OUT}/h100x2 && cd ${IMPORT_OUT}/h100x2 && $CCFORGE topo import ${DUMPS}/h100-ibm-cloud-gx3d.xml --boxes 2 --fabric rail -o h100x2.json -q && grep -E '\"(sm|pxn)\"' h100x2.json && $CCFORGE compile ring-allreduce ranks=16 -o ring.xml && $CCFORGE simulate ring.xml h100x2.json -b 1G 2>&1")
dsl_shell_test("tune on an imported H100 models an H100" 0
  --has "\"arch\": \"sm90\""
  -- "rm -rf ${IMPORT_OUT}/tune && mkdir -p ${IMPORT_OUT} && $CCFORGE topo import ${DUMPS}/h100-ibm-cloud-gx3d.xml -o ${IMPORT_OUT}/h100.json -q && $CCFORGE tune ${IMPORT_OUT}/h100.json allreduce -o ${IMPORT_OUT}/tune --no-synth -b 1M -e 4M >/dev/null && grep '\"arch\"' ${IMPORT_OUT}/tune/report/index.json")
