#include "capture/inject/capture-options.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace kreplay::capture {

namespace {

[[noreturn]] void refuse(const std::string& variable, const std::string& value, const std::string& expected) {
  throw CaptureOptionsError("[kreplay capture] " + variable + "=" + value + " is not " + expected +
                            ". Set it as `kreplay capture` documents, or unset it.");
}

/** The whole number >= 0 written in `text`, or nothing when it is not one. */
std::optional<std::uint64_t> wholeNumber(const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || *text == '-' || *text == '+') return std::nullopt;
  return value;
}

std::optional<std::uint64_t> readCount(const std::function<const char*(const char*)>& lookup,
                                       const char* name) {
  const char* text = lookup(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::optional<std::uint64_t> value = wholeNumber(text);
  if (!value) refuse(name, text, "a whole number >= 0");
  return value;
}

}  // namespace

std::vector<std::string> parseJsonStringArray(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  auto fail = [&]() -> void {
    throw CaptureOptionsError(
        "[kreplay capture] KREPLAY_CAPTURE_COMMAND=" + text +
        " is not a JSON array of strings. `kreplay capture` sets it; unset it or fix it.");
  };
  auto skipSpace = [&] {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
      ++at;
  };
  skipSpace();
  if (at >= text.size() || text[at] != '[') fail();
  ++at;
  skipSpace();
  if (at < text.size() && text[at] == ']') return out;
  while (true) {
    skipSpace();
    if (at >= text.size() || text[at] != '"') fail();
    ++at;
    std::string item;
    while (true) {
      if (at >= text.size()) fail();
      const char c = text[at++];
      if (c == '"') break;
      if (c != '\\') {
        item += c;
        continue;
      }
      if (at >= text.size()) fail();
      const char escaped = text[at++];
      switch (escaped) {
        case '"':
        case '\\':
        case '/':
          item += escaped;
          break;
        case 'b':
          item += '\b';
          break;
        case 'f':
          item += '\f';
          break;
        case 'n':
          item += '\n';
          break;
        case 'r':
          item += '\r';
          break;
        case 't':
          item += '\t';
          break;
        case 'u': {
          if (at + 4 > text.size()) fail();
          const unsigned long code = std::strtoul(text.substr(at, 4).c_str(), nullptr, 16);
          at += 4;
          // UTF-8 of a code point in the basic plane (surrogate pairs are kept as two units).
          if (code < 0x80) {
            item += static_cast<char>(code);
          } else if (code < 0x800) {
            item += static_cast<char>(0xc0 | (code >> 6));
            item += static_cast<char>(0x80 | (code & 0x3f));
          } else {
            item += static_cast<char>(0xe0 | (code >> 12));
            item += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            item += static_cast<char>(0x80 | (code & 0x3f));
          }
          break;
        }
        default:
          fail();
      }
    }
    out.push_back(std::move(item));
    skipSpace();
    if (at < text.size() && text[at] == ',') {
      ++at;
      continue;
    }
    if (at < text.size() && text[at] == ']') {
      ++at;
      skipSpace();
      if (at != text.size()) fail();
      return out;
    }
    fail();
  }
}

std::vector<std::string> processCommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] != '\0') continue;
    out.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  if (start < text.size()) out.push_back(text.substr(start));
  return out;
}

CaptureOptions readCaptureOptions(const std::function<const char*(const char*)>& lookup) {
  CaptureOptions options;
  const char* directory = lookup("KREPLAY_CAPTURE_DIR");
  if (directory == nullptr || *directory == '\0') {
    throw CaptureOptionsError(
        "[kreplay capture] KREPLAY_CAPTURE_DIR is not set: the capture library does not know where to write. "
        "Run the program through `kreplay capture -o DIR -- ...`, or set KREPLAY_CAPTURE_DIR.");
  }
  options.directory = directory;
  if (const char* name = lookup("KREPLAY_CAPTURE_KERNEL_NAME"); name != nullptr && *name != '\0')
    options.kernelName = name;
  if (const char* base = lookup("KREPLAY_CAPTURE_KERNEL_NAME_BASE"); base != nullptr && *base != '\0') {
    const std::optional<KernelNameBase> parsed = parseKernelNameBase(base);
    if (!parsed) refuse("KREPLAY_CAPTURE_KERNEL_NAME_BASE", base, "function, demangled or mangled");
    options.kernelNameBase = *parsed;
  }
  options.launchSkip = readCount(lookup, "KREPLAY_CAPTURE_LAUNCH_SKIP");
  options.launchCount = readCount(lookup, "KREPLAY_CAPTURE_LAUNCH_COUNT");
  if (const char* every = lookup("KREPLAY_CAPTURE_EVERY_LAUNCH"); every != nullptr && *every != '\0') {
    const std::string value = every;
    if (value == "1" || value == "true")
      options.everyLaunch = true;
    else if (value != "0" && value != "false")
      refuse("KREPLAY_CAPTURE_EVERY_LAUNCH", value, "1 or 0");
  }
  if (const char* start = lookup("KREPLAY_CAPTURE_PROFILE_FROM_START"); start != nullptr && *start != '\0') {
    const std::string value = start;
    if (value == "off" || value == "0")
      options.fromStart = false;
    else if (value != "on" && value != "1")
      refuse("KREPLAY_CAPTURE_PROFILE_FROM_START", value, "on or off");
  }
  if (const auto staging = readCount(lookup, "KREPLAY_CAPTURE_STAGING_BYTES")) {
    if (*staging < kSmallestStagingBytes)
      refuse("KREPLAY_CAPTURE_STAGING_BYTES", std::to_string(*staging), "a byte count of at least 65536 (one page)");
    options.stagingBytes = *staging;
  }
  if (const char* threads = lookup("KREPLAY_CAPTURE_WRITER_THREADS"); threads != nullptr && *threads != '\0') {
    if (std::string(threads) != "auto") {
      const std::optional<std::uint64_t> count = wholeNumber(threads);
      if (!count || *count < 1 || *count > kMostWriterThreads)
        refuse("KREPLAY_CAPTURE_WRITER_THREADS", threads, "auto or a whole number from 1 to 64");
      options.writerThreads = static_cast<unsigned>(*count);
    }
  }
  if (const char* command = lookup("KREPLAY_CAPTURE_COMMAND"); command != nullptr && *command != '\0') {
    options.command = parseJsonStringArray(command);
  } else {
    options.command = processCommandLine();
  }
  return options;
}

}  // namespace kreplay::capture
