#include "drivers/cuda/cuda-graph.hpp"

#include "drivers/cuda/cuda-check.hpp"

namespace kreplay::cuda {

namespace {

constexpr unsigned kStaticSharedLimit = 48 * 1024;

}  // namespace

CudaKernelGraph::CudaKernelGraph(std::shared_ptr<CudaDevice> device, std::uint32_t agent,
                                 std::vector<GraphStep> steps, const CudaUserKernels& kernels)
    : KernelGraph(agent, std::move(steps)), device_(std::move(device)) {
  const CudaApi& api = device_->api();
  if (!api.hasGraphs()) {
    throw OperationFailure("unsupported", "this libcuda lacks the graph entry points (cuGraphCreate, cuGraphAddKernelNode, ...)");
  }
  for (const GraphStep& step : this->steps()) {
    if (step.kind == GraphStep::Kind::BuiltinKernel) {
      throw OperationFailure("unsupported", "the cuda driver puts no built-in kernels in graphs (only user kernels, memsets and copies)");
    }
  }
  device_->context()->makeCurrent();
  check(api, api.cuGraphCreate(&graph_, 0), "cuGraphCreate");
  try {
    for (const GraphStep& step : this->steps()) addNode(step, kernels);
    check(api, api.cuGraphInstantiateWithFlags(&executable_, graph_, 0), "cuGraphInstantiateWithFlags");
  } catch (...) {
    api.cuGraphDestroy(graph_);
    throw;
  }
}

CudaKernelGraph::~CudaKernelGraph() {
  if (!device_->context()->tryMakeCurrent()) return;
  const CudaApi& api = device_->api();
  if (executable_) api.cuGraphExecDestroy(executable_);
  if (graph_) api.cuGraphDestroy(graph_);
}

void CudaKernelGraph::addNode(const GraphStep& step, const CudaUserKernels& kernels) {
  const CudaApi& api = device_->api();
  const std::size_t dependencies = last_ ? 1 : 0;
  CUgraphNode node = nullptr;
  switch (step.kind) {
    case GraphStep::Kind::UserKernel: {
      std::shared_ptr<CudaUserKernel> kernel = kernels.get(step.userKernel);
      const CUfunction function = kernel->function(agent());
      kernels_.push_back(std::move(kernel));
      const LaunchShape& shape = step.shape;
      if (shape.cluster[0] != 0) throw OperationFailure("unsupported", "the cuda driver puts no cluster launches in graphs");
      if (shape.sharedBytes > kStaticSharedLimit) {
        check(api, api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(shape.sharedBytes)),
              "cuFuncSetAttribute");
      }
      // The node copies the parameters when it is added (as cuLaunchKernel does), as in userKernel().
      std::vector<std::uint64_t> words = step.arguments.words;
      std::vector<void*> parameters(words.size() + 1, nullptr);
      for (std::size_t index = 0; index < words.size(); ++index) parameters[index] = &words[index];
      std::vector<std::uint8_t> buffer = step.arguments.buffer;
      std::size_t bufferBytes = buffer.size();
      void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &bufferBytes,
                       CU_LAUNCH_PARAM_END};
      CUDA_KERNEL_NODE_PARAMS node_parameters{function,       shape.grid[0],  shape.grid[1],
                                              shape.grid[2],  shape.block[0], shape.block[1],
                                              shape.block[2], shape.sharedBytes,
                                              buffer.empty() ? parameters.data() : nullptr,
                                              buffer.empty() ? nullptr : extra};
      check(api, api.cuGraphAddKernelNode(&node, graph_, &last_, dependencies, &node_parameters), "cuGraphAddKernelNode");
      break;
    }
    case GraphStep::Kind::Memset: {
      if (step.range.bytes == 0) return;
      const CUDA_MEMSET_NODE_PARAMS parameters{step.range.address, 0, step.value, 1, step.range.bytes, 1};
      check(api, api.cuGraphAddMemsetNode(&node, graph_, &last_, dependencies, &parameters, device_->context()->handle()),
            "cuGraphAddMemsetNode");
      break;
    }
    case GraphStep::Kind::Copy: {
      if (step.segment.bytes == 0) return;
      CUDA_MEMCPY3D parameters{};
      parameters.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
      parameters.srcDevice = step.segment.source;
      parameters.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
      parameters.dstDevice = step.segment.destination;
      parameters.WidthInBytes = step.segment.bytes;
      parameters.Height = 1;
      parameters.Depth = 1;
      check(api, api.cuGraphAddMemcpyNode(&node, graph_, &last_, dependencies, &parameters, device_->context()->handle()),
            "cuGraphAddMemcpyNode");
      break;
    }
    case GraphStep::Kind::BuiltinKernel:
      throw OperationFailure("unsupported", "the cuda driver puts no built-in kernels in graphs");
  }
  last_ = node;
}

}  // namespace kreplay::cuda
