# The capture subsystem's build steps, included by CMakeLists.txt after kreplay_core is defined:
# - src/capture/*.cpp (the module-image reader, the capture folder writer) join kreplay_core;
# - kreplay-capture-test, their C++ tests and the writer of the crash-case capture, run by
#   src/capture/capture-layout.test.ts and src/capture-folder.test.ts (KREPLAY_BUILD_TESTS=OFF skips it).
set(KREPLAY_CAPTURE_DIR "${CMAKE_CURRENT_SOURCE_DIR}/src/capture")
file(GLOB KREPLAY_CAPTURE_SOURCES CONFIGURE_DEPENDS "${KREPLAY_CAPTURE_DIR}/*.cpp")
target_sources(kreplay_core PRIVATE ${KREPLAY_CAPTURE_SOURCES})

if(KREPLAY_BUILD_TESTS)
  file(GLOB KREPLAY_CAPTURE_TEST_SOURCES CONFIGURE_DEPENDS "${KREPLAY_CAPTURE_DIR}/test/*.cpp")
  add_executable(kreplay-capture-test ${KREPLAY_CAPTURE_TEST_SOURCES})
  set_target_properties(kreplay-capture-test PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  target_include_directories(kreplay-capture-test PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src")
  target_compile_options(kreplay-capture-test PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_link_libraries(kreplay-capture-test PRIVATE kreplay_core Threads::Threads)
endif()
