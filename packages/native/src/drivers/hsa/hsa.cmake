# The hsa driver's build steps, included by CMakeLists.txt after kreplay_core is defined:
# - the committed AMDGPU code objects (src/kernels-amdgpu/*.hsaco) embedded into kreplay_core;
# - hsa-api-check.cpp sees ROCm's headers in /opt/rocm/include when they are there (Debian's are in
#   /usr/include already);
# - kreplay-hsa-layout-test, the C++ tests of the driver (packets, kernargs, signals, code-object
#   metadata, the kernels in a CPU emulation, the driver on a fake ROCr), run by
#   src/drivers/hsa/hsa-layout.test.ts; and that fake ROCr as build/tests/fake-hsa/libhsa-runtime64.so.1
#   for the TypeScript conformance kit (test:fake-hsa). Both only with KREPLAY_BUILD_TESTS=ON, which
#   scripts/build-addon.mjs sets for the repository's own build; an install builds the addon alone.
set(KREPLAY_HSA_DIR "${CMAKE_CURRENT_SOURCE_DIR}/src/drivers/hsa")
set(KREPLAY_AMDGPU_DIR "${CMAKE_CURRENT_SOURCE_DIR}/src/kernels-amdgpu")

file(GLOB KREPLAY_CODE_OBJECTS CONFIGURE_DEPENDS "${KREPLAY_AMDGPU_DIR}/*.hsaco")
list(SORT KREPLAY_CODE_OBJECTS)
set(KREPLAY_EMBEDDED "${CMAKE_CURRENT_BINARY_DIR}/generated/amdgpu-code-objects.cpp")
add_custom_command(
  OUTPUT "${KREPLAY_EMBEDDED}"
  COMMAND "${CMAKE_COMMAND}" "-DCODE_OBJECTS=${KREPLAY_CODE_OBJECTS}" "-DOUTPUT=${KREPLAY_EMBEDDED}"
          -P "${KREPLAY_AMDGPU_DIR}/embed-code-objects.cmake"
  DEPENDS ${KREPLAY_CODE_OBJECTS} "${KREPLAY_AMDGPU_DIR}/embed-code-objects.cmake"
  COMMENT "Embedding the AMDGPU code objects"
  VERBATIM)
target_sources(kreplay_core PRIVATE "${KREPLAY_EMBEDDED}")

if(EXISTS "/opt/rocm/include/hsa/hsa.h")
  set_source_files_properties("${KREPLAY_HSA_DIR}/hsa-api-check.cpp" PROPERTIES INCLUDE_DIRECTORIES "/opt/rocm/include")
endif()

option(KREPLAY_BUILD_TESTS "Build the C++ layout tests of the hsa driver and its fake ROCr" OFF)
if(KREPLAY_BUILD_TESTS)
  file(GLOB KREPLAY_HSA_TEST_SOURCES CONFIGURE_DEPENDS "${KREPLAY_HSA_DIR}/test/*.cpp")
  list(FILTER KREPLAY_HSA_TEST_SOURCES EXCLUDE REGEX "fake-hsa-exports\\.cpp$")
  add_executable(kreplay-hsa-layout-test ${KREPLAY_HSA_TEST_SOURCES})
  set_target_properties(kreplay-hsa-layout-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  target_include_directories(kreplay-hsa-layout-test PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(kreplay-hsa-layout-test PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_compile_definitions(kreplay-hsa-layout-test PRIVATE
    KREPLAY_HSA_FIXTURES="${KREPLAY_HSA_DIR}/__fixtures__" KREPLAY_AMDGPU_DIR="${KREPLAY_AMDGPU_DIR}")
  target_link_libraries(kreplay-hsa-layout-test PRIVATE kreplay_core Threads::Threads)
  # The OpenCL C kernels compiled as C++ for the CPU emulation carry OpenCL pragmas.
  set_source_files_properties("${KREPLAY_HSA_DIR}/test/emulated-kernels.cpp" PROPERTIES COMPILE_OPTIONS -Wno-unknown-pragmas)

  add_library(kreplay-fake-hsa SHARED
    "${KREPLAY_HSA_DIR}/test/fake-hsa-exports.cpp" "${KREPLAY_HSA_DIR}/test/fake-hsa.cpp"
    "${KREPLAY_HSA_DIR}/test/fake-hsa-queues.cpp" "${KREPLAY_HSA_DIR}/test/kernel-emulator.cpp"
    "${KREPLAY_HSA_DIR}/test/emulated-kernels.cpp")
  set_target_properties(kreplay-fake-hsa PROPERTIES
    PREFIX "lib" OUTPUT_NAME "hsa-runtime64" SUFFIX ".so.1"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/fake-hsa")
  target_compile_options(kreplay-fake-hsa PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_link_libraries(kreplay-fake-hsa PRIVATE kreplay_core Threads::Threads)
endif()
