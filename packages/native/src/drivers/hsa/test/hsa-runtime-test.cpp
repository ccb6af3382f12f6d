// The dlopen'd runtime: status names, the compile-time header check, and, when ROCr is installed on
// this machine (e.g. Debian's libhsa-runtime64-1), that every entry point resolves and that hsa_init
// through the declared signature answers with a status the driver can name.
#include <unistd.h>

#include "drivers/hsa/hsa-api.hpp"
#include "drivers/hsa/hsa-runtime.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

TEST("runtime: status codes are named like the headers name them") {
  CHECK_EQ(statusName(HSA_STATUS_SUCCESS), "HSA_STATUS_SUCCESS");
  CHECK_EQ(statusName(HSA_STATUS_ERROR_OUT_OF_RESOURCES), "HSA_STATUS_ERROR_OUT_OF_RESOURCES");
  CHECK_EQ(statusName(static_cast<hsa_status_t>(41)), "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION");
  CHECK_EQ(statusName(static_cast<hsa_status_t>(0x1234)), "HSA status 0x1234");
}

TEST("runtime: hsa-api.hpp was compared with ROCr's headers at build time") {
  const std::string note = headerCheck();
  if (note.rfind("checked", 0) != 0) throw kreplay::hsa::test::Skip(note);
}

TEST("runtime: an installed libhsa-runtime64.so.1 exports every entry point the driver declares") {
  std::string error;
  const HsaRuntime* runtime = HsaRuntime::load(error);
  if (!runtime) throw kreplay::hsa::test::Skip("libhsa-runtime64.so.1 is not installed here");
  std::string missing;
  for (const auto& name : runtime->missing()) missing += " " + name;
  CHECK_EQ(missing, "");
  if (access("/dev/kfd", F_OK) == 0) return;  // a real GPU machine: the driver's own tests cover it
  const hsa_status_t status = runtime->api().hsa_init();
  if (status == HSA_STATUS_SUCCESS) runtime->api().hsa_shut_down();
  CHECK(status != HSA_STATUS_SUCCESS);  // no kernel driver
  CHECK(runtime->describe(status).rfind("HSA_STATUS_ERROR", 0) == 0);
}
