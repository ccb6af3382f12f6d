#include "capture/test/measure-sha256.hpp"

#include <chrono>
#include <vector>

#include "capture/sha256.hpp"

namespace kreplay::capture::test {

int measureSha256(std::uint64_t mebibytes, std::ostream& out) {
  constexpr std::size_t kPage = 65536;
  std::vector<std::uint8_t> data(mebibytes << 20);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + (i >> 13));
  std::vector<Sha256Code> codes = {Sha256Code::Portable};
  if (sha256ShaNiSupported()) codes.push_back(Sha256Code::ShaNi);
  for (const Sha256Code code : codes) {
    std::size_t checksum = 0;
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t at = 0; at < data.size(); at += kPage) checksum += sha256Hex(data.data() + at, kPage, code)[0];
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out << (code == Sha256Code::ShaNi ? "sha-ni" : "portable") << "\t" << static_cast<double>(data.size()) / seconds / 1e6
        << " MB/s\t(" << mebibytes << " MiB in 64 KiB pages, one thread; checksum " << checksum << ")\n";
  }
  return 0;
}

}  // namespace kreplay::capture::test
