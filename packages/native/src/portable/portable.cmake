# The prebuild's files (KREPLAY_PORTABLE=ON, set by scripts/prebuild.mjs): portable/kreplay.node and
# portable/libkreplay-capture.so, linked from the objects of kreplay.node and libkreplay-capture.so, so
# that they load on any Linux with glibc 2.28 or newer, whatever libstdc++ it has (or none):
# - libstdc++ and libgcc are linked in and their symbols kept inside (--exclude-libs), and the files
#   are stripped: they need no GLIBCXX_, CXXABI_ or GCC_ version and no libstdc++.so or libgcc_s.so;
# - the glibc of the build machine (Debian 12: 2.36) gives some functions a default version above
#   2.28; glibc-compat.cpp provides each of them under --wrap (glibc-compat-symbols.cmake lists them,
#   as measured with objdump -T), calling what glibc 2.28 has;
# - libpthread.so.0 and libdl.so.2 are needed explicitly: on glibc < 2.34 the old versions of
#   pthread_* and dl* live there (on newer glibc they are stubs, and libc.so.6 answers).
# scripts/prebuild.mjs checks the outcome with objdump -T (scripts/prebuild-symbols.mjs) and refuses
# a file that needs more.
include("${CMAKE_CURRENT_LIST_DIR}/glibc-compat-symbols.cmake")
set(KREPLAY_PORTABLE_LINK_OPTIONS -static-libstdc++ -static-libgcc -s "LINKER:--exclude-libs,ALL")
foreach(symbol IN LISTS KREPLAY_GLIBC_COMPAT_WRAPPED)
  list(APPEND KREPLAY_PORTABLE_LINK_OPTIONS "LINKER:--wrap=${symbol}")
endforeach()

add_library(kreplay-portable SHARED $<TARGET_OBJECTS:kreplay_binding> "${CMAKE_CURRENT_LIST_DIR}/glibc-compat.cpp")
set_target_properties(kreplay-portable PROPERTIES PREFIX "" OUTPUT_NAME kreplay SUFFIX ".node")
target_link_libraries(kreplay-portable PRIVATE kreplay_core)

add_library(kreplay-capture-portable SHARED $<TARGET_OBJECTS:kreplay_capture_glue> "${CMAKE_CURRENT_LIST_DIR}/glibc-compat.cpp")
set_target_properties(kreplay-capture-portable PROPERTIES OUTPUT_NAME kreplay-capture)
target_link_libraries(kreplay-capture-portable PRIVATE kreplay_capture_session kreplay_core)
target_link_options(kreplay-capture-portable PRIVATE "LINKER:--no-undefined")
# The same exports as the files they twin (CMakeLists.txt, capture.cmake).
target_link_options(kreplay-portable PRIVATE "LINKER:--version-script=${KREPLAY_NODE_EXPORTS}")
target_link_options(kreplay-capture-portable PRIVATE "LINKER:--version-script=${KREPLAY_CAPTURE_EXPORTS}")

foreach(target IN ITEMS kreplay-portable kreplay-capture-portable)
  set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/portable")
  target_compile_options(${target} PRIVATE ${KREPLAY_WARNINGS} ${KREPLAY_FLAGS})
  target_link_options(${target} PRIVATE ${KREPLAY_PORTABLE_LINK_OPTIONS})
  # Threads and dl after everything else; libpthread.so.0 and libdl.so.2 kept NEEDED (see above).
  target_link_libraries(${target} PRIVATE Threads::Threads ${CMAKE_DL_LIBS} "-Wl,--no-as-needed" "-l:libpthread.so.0" "-l:libdl.so.2")
endforeach()
