// Kernel graphs on the cuda driver: the steps as a CUDA graph (one node per step, each depending on
// the one before), instantiated once and launched on a queue's stream with cuGraphLaunch.
#pragma once

#include <memory>
#include <vector>

#include "core/kernel-graph.hpp"
#include "drivers/cuda/cuda-device.hpp"
#include "drivers/cuda/cuda-user-kernels.hpp"

namespace kreplay::cuda {

class CudaKernelGraph : public KernelGraph {
 public:
  /**
   * Builds and instantiates the graph in `device`'s context.
   * @throws OperationFailure `unsupported` when libcuda has no graph entry points or a step is a
   * built-in kernel; the CUDA error otherwise.
   */
  CudaKernelGraph(std::shared_ptr<CudaDevice> device, std::uint32_t agent, std::vector<GraphStep> steps,
                  const CudaUserKernels& kernels);
  ~CudaKernelGraph() override;

  CUgraphExec executable() const { return executable_; }

 private:
  void addNode(const GraphStep& step, const CudaUserKernels& kernels);

  std::shared_ptr<CudaDevice> device_;
  /** Kernels stay loaded while the graph holds their functions. */
  std::vector<std::shared_ptr<CudaUserKernel>> kernels_;
  CUgraph graph_ = nullptr;
  CUgraphExec executable_ = nullptr;
  CUgraphNode last_ = nullptr;
};

}  // namespace kreplay::cuda
