// The hsa driver's map of what it allocated: interior lookups and host-to-GPU address translation.
#include "drivers/hsa/address-regions.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::hsa;

TEST("regions: interior addresses find their region; a locked host buffer translates to its GPU address") {
  AddressRegions regions;
  regions.insert(0x10000, {0x1000, false, 1, 0x10000});
  regions.insert(0x7000'0000, {0x2000, true, 0, 0x9000'0000});
  CHECK(!regions.find(0xffff).has_value());
  CHECK_EQ(regions.find(0x10000)->first, 0x10000u);
  CHECK_EQ(regions.find(0x10fff)->second.agent, 1u);
  CHECK(!regions.find(0x11000).has_value());
  CHECK(regions.find(0x7000'1234)->second.host);
  CHECK_EQ(regions.toDevice(0x7000'1234), 0x9000'1234u);
  CHECK_EQ(regions.toDevice(0x10010), 0x10010u);
  CHECK_EQ(regions.toDevice(0x5), 0x5u);  // unknown addresses pass through (e.g. 0 for an empty extent)
  CHECK_EQ(regions.remove(0x10000)->bytes, 0x1000u);
  CHECK(!regions.remove(0x10000).has_value());
  CHECK(!regions.find(0x10010).has_value());
  CHECK_EQ(regions.size(), 1u);
}
