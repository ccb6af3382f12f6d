// Plain data shared by core, drivers and binding: ranges, segments, operation kinds and errors.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kreplay {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "kreplay assumes a little-endian host");

/** `bytes` from `source` to `destination`. */
struct Segment {
  std::uint64_t source;
  std::uint64_t destination;
  std::uint64_t bytes;
};

/** A byte range. */
struct Range {
  std::uint64_t address;
  std::uint64_t bytes;
};

/** What a fault can match. The numbering is shared with the binding and TypeScript. */
enum class OperationKind : int { Copy = 0, Hash = 1, ConditionalCopy = 2, Kernel = 3, Allocate = 4, Any = 5 };

/** The name TypeScript uses for an operation kind (`conditional-copy`, ...). */
const char* operationName(OperationKind kind);

/** The first failure of a queue, reported by its next synchronize. */
struct OperationError {
  std::string operation;
  std::string code;
  std::string message;
  /** Which work operation of its queue failed, counting from 0 at the queue's creation; -1 if unknown. */
  std::int64_t workIndex = -1;
};

/** Thrown by core operations that cannot complete (a bad page list, ...); queues record it. */
class OperationFailure : public std::runtime_error {
 public:
  OperationFailure(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

inline std::uint8_t* pointerOf(std::uint64_t address) {
  return reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(address));
}

inline std::uint64_t addressOf(const void* pointer) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pointer));
}

/** The double whose bits are `bits` (an f64 kernel argument). */
inline double doubleOf(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/** The float whose bits are the low 32 of `bits` (an f32 kernel argument). */
inline float floatOf(std::uint64_t bits) {
  const auto low = static_cast<std::uint32_t>(bits);
  float value;
  std::memcpy(&value, &low, sizeof value);
  return value;
}

inline std::uint64_t loadWord(const std::uint8_t* pointer) {
  std::uint64_t word;
  std::memcpy(&word, pointer, sizeof word);
  return word;
}

inline void storeWord(std::uint8_t* pointer, std::uint64_t word) {
  std::memcpy(pointer, &word, sizeof word);
}

inline std::uint32_t loadUint32(const std::uint8_t* pointer) {
  std::uint32_t value;
  std::memcpy(&value, pointer, sizeof value);
  return value;
}

inline void storeUint32(std::uint8_t* pointer, std::uint32_t value) {
  std::memcpy(pointer, &value, sizeof value);
}

}  // namespace kreplay
