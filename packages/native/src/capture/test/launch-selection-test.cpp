// Which launches the capture library captures: a kernel name matched whole (as ncu reads
// --kernel-name) or searched with regex:, on the function's, the demangled or the mangled name; the
// first launch of each kernel by default, else skip and count over the matching launches.
#include <cstdint>
#include <string>

#include "capture/inject/capture-session.hpp"
#include "drivers/hsa/test/test-harness.hpp"

using namespace kreplay::capture;

TEST("launch selection: a name matched whole, as ncu reads --kernel-name, on the function's name by default") {
  CaptureOptions options;
  options.kernelName = "apply";
  LaunchSelection function(options);
  CHECK(function.matches("_Z5applyIiEviT_"));  // void apply<int>(int, int)
  CHECK(function.matches("apply"));
  CHECK(!function.matches("_Z7applyToi"));  // applyTo(int): not the whole name
  options.kernelName = "app";
  LaunchSelection part(options);
  CHECK(!part.matches("_Z5applyIiEviT_"));
  CHECK(!part.matches("apply"));
}

TEST("launch selection: regex: searches the name, the base names which name") {
  CaptureOptions options;
  options.kernelName = "regex:^app";
  LaunchSelection searched(options);
  CHECK(searched.matches("_Z5applyIiEviT_"));
  CHECK(!searched.matches("_Z4scalePfi"));
  options.kernelName = "regex:^void apply<";
  CHECK(!LaunchSelection(options).matches("_Z5applyIiEviT_"));  // the function's name has no return type
  options.kernelNameBase = KernelNameBase::Demangled;
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "void apply<int>(int, int)";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelNameBase = KernelNameBase::Mangled;
  options.kernelName = "_Z5applyIiEviT_";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "apply";
  CHECK(!LaunchSelection(options).matches("_Z5applyIiEviT_"));
  options.kernelName = "regex:Z5app";
  CHECK(LaunchSelection(options).matches("_Z5applyIiEviT_"));
  CHECK_EQ(demangledName("_Z5applyIiEviT_"), std::string("void apply<int>(int, int)"));
  CHECK_EQ(demangledName("scale"), std::string("scale"));
  // Only a function's symbol is demangled: `b` alone would read as the type bool.
  CHECK_EQ(demangledName("b"), std::string("b"));
  CHECK_EQ(kernelName("i", KernelNameBase::Function), std::string("i"));
}

TEST("kernel names: the function's name drops return type, scope, template arguments and parameters") {
  CHECK_EQ(functionName("void apply<int>(int, int)"), std::string("apply"));
  CHECK_EQ(functionName("scale"), std::string("scale"));
  CHECK_EQ(functionName("scale(float*, int)"), std::string("scale"));
  CHECK_EQ(functionName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)"),
           std::string("vectorized_elementwise_kernel"));
  CHECK_EQ(functionName("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align1>("
                        "cutlass_80_tensorop_s1688gemm_64x64_16x6_nn_align1::Params)"),
           std::string("Kernel2"));
  CHECK_EQ(functionName("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::"
                        "AddFunctor<float> >(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::"
                        "{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >("
                        "at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1})"),
           std::string("elementwise_kernel"));
  CHECK_EQ(kernelName("_Z5applyIiEviT_", KernelNameBase::Function), std::string("apply"));
  CHECK_EQ(kernelName("_Z5applyIiEviT_", KernelNameBase::Mangled), std::string("_Z5applyIiEviT_"));
  CHECK(parseKernelNameBase("demangled") == KernelNameBase::Demangled);
  CHECK(!parseKernelNameBase("Function"));
}

TEST("launch selection: by default the first launch of each kernel, until one is captured") {
  LaunchSelection selection(CaptureOptions{});
  CHECK(selection.select("a"));
  CHECK(selection.select("a"));  // not captured yet (say, its stream was capturing): still wanted
  selection.markCaptured("a");
  CHECK(!selection.select("a"));
  CHECK(selection.select("b"));
  selection.markCaptured("b");
  CHECK(!selection.select("b"));
  CHECK(!selection.exhausted());
}

TEST("launch selection: skip and count over the matching launches, every launch") {
  CaptureOptions options;
  options.launchSkip = 2;
  options.launchCount = 3;
  LaunchSelection ranged(options);
  std::string picked;
  for (int i = 0; i < 8; ++i) picked += ranged.select(i % 2 == 0 ? "a" : "b") ? "1" : "0";
  CHECK_EQ(picked, std::string("00111000"));
  CHECK(ranged.exhausted());
  CaptureOptions every;
  every.everyLaunch = true;
  LaunchSelection all(every);
  all.markCaptured("a");
  CHECK(all.select("a") && all.select("a") && all.select("b"));
  CaptureOptions countOnly;
  countOnly.launchCount = 1;
  LaunchSelection one(countOnly);
  CHECK(one.select("a"));
  CHECK(!one.select("b"));
}

TEST("launch selection: whether a graph's kernel nodes hold a selected one, asked without counting them") {
  CaptureOptions options;
  options.kernelName = "a";
  options.launchSkip = 2;
  options.launchCount = 1;
  LaunchSelection ranged(options);
  CHECK(!ranged.selectsAnyOf({"a", "b", "a"}));  // the matching launches 0 and 1: skipped
  CHECK(ranged.selectsAnyOf({"b", "a", "a", "a"}));
  CHECK(!ranged.select("a"));  // nothing was counted: this is launch 0, skipped
  ranged.countLaunches({"a", "b"});  // launches 1 (b does not match)
  CHECK(ranged.selectsAnyOf({"a"}));
  ranged.countLaunches({"a"});  // launch 2 was seen, not captured
  CHECK(ranged.exhausted());
  CHECK(!ranged.selectsAnyOf({"a"}));
  LaunchSelection first(CaptureOptions{});
  CHECK(first.selectsAnyOf({"a", "a"}));
  first.countLaunches({"a", "a"});  // seen, not captured: still wanted
  CHECK(first.selectsAnyOf({"a"}));
  first.markCaptured("a");
  CHECK(!first.selectsAnyOf({"a", "a"}));
  CHECK(first.selectsAnyOf({"a", "b"}));
  CHECK(!first.selectsAnyOf({}));
}
