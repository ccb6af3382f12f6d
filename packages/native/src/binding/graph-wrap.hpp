// NativeGraph: the native side of KernelGraph (a graph a driver made, launched by a queue).
#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "core/kernel-graph.hpp"

namespace kreplay::binding {

class GraphWrap : public Napi::ObjectWrap<GraphWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  /** A new NativeGraph object around `graph`. */
  static Napi::Object wrap(Napi::Env env, std::shared_ptr<KernelGraph> graph);
  /** The graph behind a NativeGraph object; throws a TypeError for anything else or a disposed one. */
  static std::shared_ptr<KernelGraph> unwrap(const Napi::Value& value);

  explicit GraphWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value dispose(const Napi::CallbackInfo& info);

  std::shared_ptr<KernelGraph> graph_;
};

/**
 * The steps TypeScript packed (graph-steps.ts): an array of `{ kind, kernel, args, shape, buffer,
 * address, bytes, value, source, destination }`, the fields of each kind.
 */
std::vector<GraphStep> toGraphSteps(const Napi::Value& value);

}  // namespace kreplay::binding
