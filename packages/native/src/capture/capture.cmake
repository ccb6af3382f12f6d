# The capture subsystem's build steps, included by CMakeLists.txt after kreplay_core is defined:
# - src/capture/*.cpp (the module-image reader, the capture folder writer) join kreplay_core;
# - src/capture/inject/ (the capture session, without CUPTI) is kreplay_capture_session, and with its
#   CUPTI glue and libcuda access the shared library libkreplay-capture.so, which programs load through
#   CUDA_INJECTION64_PATH: built next to kreplay.node on every build (no Node.js inside);
# - kreplay-capture-test, their C++ tests and the writers of the crash-case and session captures, run
#   by src/capture/capture-layout.test.ts, capture-folder.test.ts and capture-session.test.ts, and
#   build/tests/fake-cupti/libcupti.so (a libcupti and libcuda stand-in), which capture-injection.test.ts runs the glue over (with
#   CUPTI's profiler host API for a fake chip, which cupti-metric-catalog.test.ts lists metrics
#   through), and build/tests/collective-library/libnccl-kreplay-fixture.so (a stand-in for NCCL's library
#   holding a module image and launching kernels from its code, capture-collective-injection.test.ts)
#   (KREPLAY_BUILD_TESTS=OFF skips them).
set(KREPLAY_CAPTURE_DIR "${CMAKE_CURRENT_SOURCE_DIR}/src/capture")
file(GLOB KREPLAY_CAPTURE_SOURCES CONFIGURE_DEPENDS "${KREPLAY_CAPTURE_DIR}/*.cpp")
target_sources(kreplay_core PRIVATE ${KREPLAY_CAPTURE_SOURCES})

set(KREPLAY_CAPTURE_GLUE_SOURCES
  "${KREPLAY_CAPTURE_DIR}/inject/cupti-capture-glue.cpp"
  "${KREPLAY_CAPTURE_DIR}/inject/cuda-driver-calls.cpp"
  "${KREPLAY_CAPTURE_DIR}/inject/cuda-memory-access.cpp"
  "${KREPLAY_CAPTURE_DIR}/inject/cuda-page-hasher.cpp"
  "${KREPLAY_CAPTURE_DIR}/inject/cuda-graphs.cpp"
  "${KREPLAY_CAPTURE_DIR}/inject/cuda-graph-nodes.cpp")
file(GLOB KREPLAY_CAPTURE_SESSION_SOURCES CONFIGURE_DEPENDS "${KREPLAY_CAPTURE_DIR}/inject/*.cpp")
list(REMOVE_ITEM KREPLAY_CAPTURE_SESSION_SOURCES ${KREPLAY_CAPTURE_GLUE_SOURCES})
add_library(kreplay_capture_session STATIC ${KREPLAY_CAPTURE_SESSION_SOURCES})
target_compile_options(kreplay_capture_session PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
target_link_libraries(kreplay_capture_session PUBLIC kreplay_core)

add_library(kreplay_capture_glue OBJECT ${KREPLAY_CAPTURE_GLUE_SOURCES})  # also linked by src/portable/portable.cmake
target_compile_options(kreplay_capture_glue PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
target_link_libraries(kreplay_capture_glue PRIVATE kreplay_capture_session kreplay_core)
add_library(kreplay-capture SHARED $<TARGET_OBJECTS:kreplay_capture_glue>)
target_link_libraries(kreplay-capture PRIVATE kreplay_capture_session kreplay_core Threads::Threads ${CMAKE_DL_LIBS})
# Only InitializeInjection is exported (inject/kreplay-capture.exports); nothing is left undefined.
set(KREPLAY_CAPTURE_EXPORTS "${KREPLAY_CAPTURE_DIR}/inject/kreplay-capture.exports")
target_link_options(kreplay-capture PRIVATE "LINKER:--no-undefined" "LINKER:--exclude-libs,ALL"
  "LINKER:--version-script=${KREPLAY_CAPTURE_EXPORTS}")
set_property(TARGET kreplay-capture APPEND PROPERTY LINK_DEPENDS "${KREPLAY_CAPTURE_EXPORTS}")
if(NOT CMAKE_LIBRARY_OUTPUT_DIRECTORY)
  set_target_properties(kreplay-capture PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/Release")
endif()

if(KREPLAY_BUILD_TESTS)
  file(GLOB KREPLAY_CAPTURE_TEST_SOURCES CONFIGURE_DEPENDS "${KREPLAY_CAPTURE_DIR}/test/*.cpp")
  add_executable(kreplay-capture-test ${KREPLAY_CAPTURE_TEST_SOURCES})
  set_target_properties(kreplay-capture-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  target_include_directories(kreplay-capture-test PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(kreplay-capture-test PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_link_libraries(kreplay-capture-test PRIVATE kreplay_capture_session kreplay_core Threads::Threads ${CMAKE_DL_LIBS})

  # A libcupti.so (and libcuda) stand-in over host memory, for the glue's test without a GPU.
  # Its cuLaunchKernel computes the capture's page-hash kernel with core's pageHash.
  add_library(kreplay-fake-cupti SHARED "${KREPLAY_CAPTURE_DIR}/test/fake-cupti/fake-cupti.cpp"
    "${KREPLAY_CAPTURE_DIR}/test/fake-cupti/fake-cupti-profiler-host.cpp"
    "${CMAKE_CURRENT_SOURCE_DIR}/src/core/page-hash.cpp")
  set_target_properties(kreplay-fake-cupti PROPERTIES OUTPUT_NAME cupti
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/fake-cupti")
  target_include_directories(kreplay-fake-cupti PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(kreplay-fake-cupti PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})

  # A stand-in for NCCL's libnccl.so.2: a shared object whose memory holds a module image, and whose
  # code calls the cuLaunchKernel loaded in the process.
  add_library(kreplay-collective-library-fixture SHARED
    "${KREPLAY_CAPTURE_DIR}/test/collective-library-fixture/collective-library-fixture.cpp")
  set_target_properties(kreplay-collective-library-fixture PROPERTIES OUTPUT_NAME nccl-kreplay-fixture
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/collective-library")
  target_compile_options(kreplay-collective-library-fixture PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_link_libraries(kreplay-collective-library-fixture PRIVATE ${CMAKE_DL_LIBS})
endif()
