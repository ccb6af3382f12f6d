#include "binding/convert.hpp"

#include <string>

namespace kreplay::binding {

namespace {

const double* float64Data(const Napi::Value& value, std::size_t& length) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
    throw Napi::TypeError::New(value.Env(), "[native] [binding] expected a Float64Array.");
  }
  const auto array = value.As<Napi::Float64Array>();
  length = array.ElementLength();
  return array.Data();
}

}  // namespace

std::uint64_t toUint64(const Napi::Value& value) {
  if (!value.IsNumber()) throw Napi::TypeError::New(value.Env(), "[native] [binding] expected a number.");
  const double number = value.As<Napi::Number>().DoubleValue();
  return number > 0 ? static_cast<std::uint64_t>(number) : 0;
}

std::vector<Segment> toSegments(const Napi::Value& value) {
  std::size_t length = 0;
  const double* data = float64Data(value, length);
  std::vector<Segment> segments(length / 3);
  for (std::size_t index = 0; index < segments.size(); ++index) {
    segments[index] = {static_cast<std::uint64_t>(data[3 * index]),
                       static_cast<std::uint64_t>(data[3 * index + 1]),
                       static_cast<std::uint64_t>(data[3 * index + 2])};
  }
  return segments;
}

std::vector<Range> toRanges(const Napi::Value& value) {
  std::size_t length = 0;
  const double* data = float64Data(value, length);
  std::vector<Range> ranges(length / 2);
  for (std::size_t index = 0; index < ranges.size(); ++index) {
    ranges[index] = {static_cast<std::uint64_t>(data[2 * index]),
                     static_cast<std::uint64_t>(data[2 * index + 1])};
  }
  return ranges;
}

std::vector<std::uint64_t> toWords(const Napi::Value& value) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_biguint64_array) {
    throw Napi::TypeError::New(value.Env(), "[native] [binding] expected a BigUint64Array.");
  }
  const auto array = value.As<Napi::TypedArrayOf<std::uint64_t>>();
  return std::vector<std::uint64_t>(array.Data(), array.Data() + array.ElementLength());
}

std::uint8_t* typedArrayBytes(const Napi::Value& value, std::size_t& byteLength) {
  if (!value.IsTypedArray())
    throw Napi::TypeError::New(value.Env(), "[native] [binding] expected a typed array.");
  const auto array = value.As<Napi::TypedArray>();
  byteLength = array.ByteLength();
  return static_cast<std::uint8_t*>(array.ArrayBuffer().Data()) + array.ByteOffset();
}

void requireArguments(const Napi::CallbackInfo& info, std::size_t count) {
  if (info.Length() < count) {
    throw Napi::TypeError::New(info.Env(),
                               "[native] [binding] expected " + std::to_string(count) + " arguments.");
  }
}

}  // namespace kreplay::binding
