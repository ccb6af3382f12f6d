#include "drivers/hsa/msgpack-reader.hpp"

#include <cstring>

namespace kreplay::hsa {

namespace {

constexpr int kMaximumDepth = 32;

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  MsgpackValue value(int depth) {
    if (depth > kMaximumDepth) fail("nesting deeper than " + std::to_string(kMaximumDepth));
    const std::uint8_t lead = byte();
    MsgpackValue result;
    if (lead <= 0x7f) return integer(lead, false);
    if (lead >= 0xe0) return integer(static_cast<std::uint64_t>(static_cast<std::int8_t>(lead)), true);
    if ((lead & 0xf0) == 0x80) return map(lead & 0x0f, depth);
    if ((lead & 0xf0) == 0x90) return array(lead & 0x0f, depth);
    if ((lead & 0xe0) == 0xa0) return string(lead & 0x1f, MsgpackValue::Type::String);
    switch (lead) {
      case 0xc0:
        return result;
      case 0xc2:
      case 0xc3:
        result.type = MsgpackValue::Type::Boolean;
        result.boolean = lead == 0xc3;
        return result;
      case 0xc4:
        return string(unsignedOf(1), MsgpackValue::Type::Binary);
      case 0xc5:
        return string(unsignedOf(2), MsgpackValue::Type::Binary);
      case 0xc6:
        return string(unsignedOf(4), MsgpackValue::Type::Binary);
      case 0xca: {
        const auto bits = static_cast<std::uint32_t>(unsignedOf(4));
        float number;
        std::memcpy(&number, &bits, 4);
        return floating(number);
      }
      case 0xcb: {
        const std::uint64_t bits = unsignedOf(8);
        double number;
        std::memcpy(&number, &bits, 8);
        return floating(number);
      }
      case 0xcc:
        return integer(unsignedOf(1), false);
      case 0xcd:
        return integer(unsignedOf(2), false);
      case 0xce:
        return integer(unsignedOf(4), false);
      case 0xcf:
        return integer(unsignedOf(8), false);
      case 0xd0:
        return integer(static_cast<std::uint64_t>(static_cast<std::int8_t>(unsignedOf(1))), true);
      case 0xd1:
        return integer(static_cast<std::uint64_t>(static_cast<std::int16_t>(unsignedOf(2))), true);
      case 0xd2:
        return integer(static_cast<std::uint64_t>(static_cast<std::int32_t>(unsignedOf(4))), true);
      case 0xd3:
        return integer(unsignedOf(8), true);
      case 0xd9:
        return string(unsignedOf(1), MsgpackValue::Type::String);
      case 0xda:
        return string(unsignedOf(2), MsgpackValue::Type::String);
      case 0xdb:
        return string(unsignedOf(4), MsgpackValue::Type::String);
      case 0xdc:
        return array(unsignedOf(2), depth);
      case 0xdd:
        return array(unsignedOf(4), depth);
      case 0xde:
        return map(unsignedOf(2), depth);
      case 0xdf:
        return map(unsignedOf(4), depth);
    }
    fail("unsupported type byte 0x" + hex(lead));
  }

  bool atEnd() const { return position_ == size_; }
  std::size_t position() const { return position_; }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw CodeObjectError("malformed msgpack metadata at byte " + std::to_string(position_) + ": " + what);
  }

  static std::string hex(unsigned value) {
    const char* digits = "0123456789abcdef";
    return {digits[(value >> 4) & 15], digits[value & 15]};
  }

  void need(std::uint64_t bytes) const {
    if (bytes > size_ - position_) fail("truncated (" + std::to_string(bytes) + " more bytes needed)");
  }

  std::uint8_t byte() {
    need(1);
    return data_[position_++];
  }

  /** A big-endian unsigned integer of `bytes` bytes. */
  std::uint64_t unsignedOf(int bytes) {
    need(bytes);
    std::uint64_t value = 0;
    for (int index = 0; index < bytes; ++index) value = (value << 8) | data_[position_++];
    return value;
  }

  static MsgpackValue integer(std::uint64_t bits, bool isSigned) {
    MsgpackValue result;
    result.type = MsgpackValue::Type::Integer;
    result.integerBits = bits;
    result.negative = isSigned && static_cast<std::int64_t>(bits) < 0;
    return result;
  }

  static MsgpackValue floating(double number) {
    MsgpackValue result;
    result.type = MsgpackValue::Type::Float;
    result.number = number;
    return result;
  }

  MsgpackValue string(std::uint64_t length, MsgpackValue::Type type) {
    need(length);
    MsgpackValue result;
    result.type = type;
    result.text.assign(reinterpret_cast<const char*>(data_ + position_), length);
    position_ += length;
    return result;
  }

  MsgpackValue array(std::uint64_t count, int depth) {
    need(count);  // every element takes at least one byte
    MsgpackValue result;
    result.type = MsgpackValue::Type::Array;
    result.items.reserve(count);
    for (std::uint64_t index = 0; index < count; ++index) result.items.push_back(value(depth + 1));
    return result;
  }

  MsgpackValue map(std::uint64_t count, int depth) {
    need(2 * count);
    MsgpackValue result;
    result.type = MsgpackValue::Type::Map;
    result.entries.reserve(count);
    for (std::uint64_t index = 0; index < count; ++index) {
      MsgpackValue key = value(depth + 1);
      result.entries.emplace_back(std::move(key), value(depth + 1));
    }
    return result;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

}  // namespace

const MsgpackValue* MsgpackValue::find(const std::string& key) const {
  for (const auto& entry : entries) {
    if (entry.first.type == Type::String && entry.first.text == key) return &entry.second;
  }
  return nullptr;
}

std::uint64_t MsgpackValue::asUnsigned(const char* what) const {
  if (type != Type::Integer || negative)
    throw CodeObjectError(std::string(what) + " is not a non-negative integer");
  return integerBits;
}

const std::string& MsgpackValue::asString(const char* what) const {
  if (type != Type::String) throw CodeObjectError(std::string(what) + " is not a string");
  return text;
}

bool MsgpackValue::asBoolean(const char* what) const {
  if (type != Type::Boolean) throw CodeObjectError(std::string(what) + " is not a boolean");
  return boolean;
}

MsgpackValue decodeMsgpack(const std::uint8_t* data, std::size_t size) {
  Reader reader(data, size);
  MsgpackValue value = reader.value(0);
  if (!reader.atEnd())
    throw CodeObjectError("malformed msgpack metadata: " + std::to_string(size - reader.position()) +
                          " bytes after the value");
  return value;
}

}  // namespace kreplay::hsa
