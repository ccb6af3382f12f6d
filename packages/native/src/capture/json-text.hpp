// Just enough JSON output for the capture records: escaped strings, hex, lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::capture {

/** `text` as a JSON string literal. */
std::string jsonString(const std::string& text);
/** `0x` and lowercase hex digits, as a JSON string literal. */
std::string jsonAddress(std::uint64_t value);
/** Bytes as one JSON string of lowercase hex digits, two per byte. */
std::string jsonHexBytes(const std::uint8_t* data, std::size_t size);
/** A 64-bit value as a JSON string of exactly 16 hex digits. */
std::string jsonHash(std::uint64_t value);
/** A JSON array of string literals. */
std::string jsonStringList(const std::vector<std::string>& items);

}  // namespace kreplay::capture
