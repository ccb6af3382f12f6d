// A MessagePack decoder for the AMDGPU metadata note (the subset of the format it uses, which is all
// of it but extension types and timestamps), strict about bounds: a malformed note is an error, never
// a read past the end. Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kreplay::hsa {

/** A code object (or its metadata) that cannot be read. */
class CodeObjectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MsgpackValue {
  enum class Type { Nil, Boolean, Integer, Float, String, Binary, Array, Map };

  Type type = Type::Nil;
  bool boolean = false;
  std::uint64_t integerBits = 0;  // two's complement when `negative`
  bool negative = false;
  double number = 0;
  std::string text;  // String and Binary
  std::vector<MsgpackValue> items;
  std::vector<std::pair<MsgpackValue, MsgpackValue>> entries;

  /** The value of a Map entry whose key is the string `key`, or null. */
  const MsgpackValue* find(const std::string& key) const;
  /** A non-negative Integer. @throws CodeObjectError naming `what` otherwise. */
  std::uint64_t asUnsigned(const char* what) const;
  /** @throws CodeObjectError naming `what` unless a String. */
  const std::string& asString(const char* what) const;
  /** @throws CodeObjectError naming `what` unless a Boolean. */
  bool asBoolean(const char* what) const;
};

/** Decodes exactly one value filling all `size` bytes. @throws CodeObjectError. */
MsgpackValue decodeMsgpack(const std::uint8_t* data, std::size_t size);

}  // namespace kreplay::hsa
