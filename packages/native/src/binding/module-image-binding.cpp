#include "binding/module-image-binding.hpp"

#include "binding/convert.hpp"
#include "capture/module-image.hpp"

namespace kreplay::binding {

namespace {

using capture::CubinInfo;
using capture::ModuleEntry;

Napi::Value optionalNumber(Napi::Env env, const std::optional<std::uint32_t>& value) {
  return value ? Napi::Number::New(env, *value) : env.Null();
}

Napi::Object cubinObject(Napi::Env env, const CubinInfo& cubin) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("architecture", cubin.architecture);
  out.Set("abiVersion", cubin.abiVersion);
  Napi::Array kernels = Napi::Array::New(env, cubin.kernels.size());
  for (std::size_t k = 0; k < cubin.kernels.size(); ++k) {
    const auto& kernel = cubin.kernels[k];
    Napi::Object entry = Napi::Object::New(env);
    entry.Set("name", kernel.name);
    Napi::Array parameters = Napi::Array::New(env, kernel.parameters.size());
    for (std::size_t p = 0; p < kernel.parameters.size(); ++p) {
      Napi::Object parameter = Napi::Object::New(env);
      parameter.Set("index", kernel.parameters[p].index);
      parameter.Set("offset", kernel.parameters[p].offset);
      parameter.Set("size", kernel.parameters[p].size);
      parameters.Set(static_cast<std::uint32_t>(p), parameter);
    }
    entry.Set("parameters", parameters);
    entry.Set("parameterBufferBytes", kernel.parameterBufferBytes);
    entry.Set("parameterBankOffset", optionalNumber(env, kernel.parameterBankOffset));
    entry.Set("registers", optionalNumber(env, kernel.registers));
    entry.Set("codeBytes", Napi::Number::New(env, static_cast<double>(kernel.codeBytes)));
    kernels.Set(static_cast<std::uint32_t>(k), entry);
  }
  out.Set("kernels", kernels);
  Napi::Array globals = Napi::Array::New(env, cubin.globals.size());
  for (std::size_t g = 0; g < cubin.globals.size(); ++g) {
    const auto& global = cubin.globals[g];
    Napi::Object entry = Napi::Object::New(env);
    entry.Set("name", global.name);
    entry.Set("section", global.section);
    entry.Set("constant", global.constant);
    entry.Set("offset", static_cast<double>(global.offset));
    entry.Set("size", static_cast<double>(global.size));
    globals.Set(static_cast<std::uint32_t>(g), entry);
  }
  out.Set("globals", globals);
  Napi::Array unknown = Napi::Array::New(env, cubin.unknownAttributes.size());
  for (std::size_t u = 0; u < cubin.unknownAttributes.size(); ++u)
    unknown.Set(static_cast<std::uint32_t>(u), cubin.unknownAttributes[u]);
  out.Set("unknownAttributes", unknown);
  return out;
}

Napi::Object entryObject(Napi::Env env, const ModuleEntry& entry) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("kind", entry.kind == capture::EntryKind::Ptx ? "ptx" : "cubin");
  out.Set("architecture", entry.architecture);
  out.Set("compression", capture::compressionName(entry.compression));
  out.Set("offset", static_cast<double>(entry.offset));
  out.Set("bytes", static_cast<double>(entry.bytes));
  out.Set("cubin", entry.cubin ? Napi::Value(cubinObject(env, *entry.cubin)) : env.Null());
  return out;
}

}  // namespace

Napi::Value readModuleImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireArguments(info, 1);
  std::size_t size = 0;
  const std::uint8_t* bytes = typedArrayBytes(info[0], size);
  capture::ModuleImageInfo image;
  try {
    image = capture::readModuleImage(bytes, size);
  } catch (const capture::ModuleImageError& error) {
    throw Napi::Error::New(env, error.what());
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("fatbin", image.fatbin);
  Napi::Array entries = Napi::Array::New(env, image.entries.size());
  for (std::size_t e = 0; e < image.entries.size(); ++e)
    entries.Set(static_cast<std::uint32_t>(e), entryObject(env, image.entries[e]));
  out.Set("entries", entries);
  return out;
}

}  // namespace kreplay::binding
