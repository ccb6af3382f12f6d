#include "capture/inject/work-call-translation.hpp"

namespace kreplay::capture {

using namespace cupti;

namespace {

std::uintptr_t handle(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer);
}

template <class Value>
void memset(CaptureSession& session, const void* params) {
  const auto& p = *static_cast<const MemsetParams<Value>*>(params);
  session.memsetIssued(0, p.dstDevice, p.N * sizeof(Value), p.value, sizeof(Value));
}

template <class Value>
void memsetAsync(CaptureSession& session, const void* params) {
  const auto& p = *static_cast<const MemsetAsyncParams<Value>*>(params);
  session.memsetIssued(handle(p.hStream), p.dstDevice, p.N * sizeof(Value), p.value, sizeof(Value));
}

const std::vector<CallbackId> kUnbounded = {
    cbid::cuMemsetD2D8_v2,           cbid::cuMemsetD2D16_v2,         cbid::cuMemsetD2D32_v2,
    cbid::cuMemsetD2D8_v2_ptds,      cbid::cuMemsetD2D16_v2_ptds,    cbid::cuMemsetD2D32_v2_ptds,
    cbid::cuMemsetD2D8Async,         cbid::cuMemsetD2D16Async,       cbid::cuMemsetD2D32Async,
    cbid::cuMemsetD2D8Async_ptsz,    cbid::cuMemsetD2D16Async_ptsz,  cbid::cuMemsetD2D32Async_ptsz,
    cbid::cuMemcpyPeer,              cbid::cuMemcpyPeerAsync,        cbid::cuMemcpy3DPeer,
    cbid::cuMemcpy3DPeerAsync,       cbid::cuMemcpyPeer_ptds,        cbid::cuMemcpy3DPeer_ptds,
    cbid::cuMemcpyPeerAsync_ptsz,    cbid::cuMemcpy3DPeerAsync_ptsz, cbid::cuMemcpy2D_v2,
    cbid::cuMemcpy2DUnaligned_v2,    cbid::cuMemcpy2DAsync_v2,       cbid::cuMemcpy3D_v2,
    cbid::cuMemcpy3DAsync_v2,        cbid::cuMemcpy2D_v2_ptds,       cbid::cuMemcpy2DUnaligned_v2_ptds,
    cbid::cuMemcpy3D_v2_ptds,        cbid::cuMemcpy2DAsync_v2_ptsz,  cbid::cuMemcpy3DAsync_v2_ptsz,
    cbid::cuMemcpyBatchAsync,        cbid::cuMemcpyBatchAsync_ptsz,  cbid::cuMemcpy3DBatchAsync,
    cbid::cuMemcpy3DBatchAsync_ptsz, cbid::cuMemcpyBatchAsync_v2,    cbid::cuMemcpyBatchAsync_v2_ptsz,
    cbid::cuMemcpy3DBatchAsync_v2,   cbid::cuMemcpy3DBatchAsync_v2_ptsz,
    cbid::cuStreamWriteValue32,      cbid::cuStreamWriteValue32_ptsz, cbid::cuStreamWriteValue64,
    cbid::cuStreamWriteValue64_ptsz, cbid::cuStreamWriteValue32_v2, cbid::cuStreamWriteValue32_v2_ptsz,
    cbid::cuStreamWriteValue64_v2,   cbid::cuStreamWriteValue64_v2_ptsz,
    cbid::cuStreamBatchMemOp,        cbid::cuStreamBatchMemOp_ptsz,  cbid::cuStreamBatchMemOp_v2,
    cbid::cuStreamBatchMemOp_v2_ptsz};

bool unbounded(CallbackId id) {
  for (const CallbackId known : kUnbounded)
    if (known == id) return true;
  return false;
}

}  // namespace

const std::vector<CallbackId>& workCallbackIds() {
  static const std::vector<CallbackId> ids = [] {
    std::vector<CallbackId> all = {
        cbid::cuMemsetD8_v2,          cbid::cuMemsetD16_v2,          cbid::cuMemsetD32_v2,
        cbid::cuMemsetD8_v2_ptds,     cbid::cuMemsetD16_v2_ptds,     cbid::cuMemsetD32_v2_ptds,
        cbid::cuMemsetD8Async,        cbid::cuMemsetD16Async,        cbid::cuMemsetD32Async,
        cbid::cuMemsetD8Async_ptsz,   cbid::cuMemsetD16Async_ptsz,   cbid::cuMemsetD32Async_ptsz,
        cbid::cuMemcpy,               cbid::cuMemcpyAsync,           cbid::cuMemcpy_ptds,
        cbid::cuMemcpyAsync_ptsz,     cbid::cuMemcpyHtoD_v2,         cbid::cuMemcpyHtoDAsync_v2,
        cbid::cuMemcpyDtoH_v2,        cbid::cuMemcpyDtoHAsync_v2,    cbid::cuMemcpyDtoD_v2,
        cbid::cuMemcpyDtoDAsync_v2,   cbid::cuMemcpyHtoD_v2_ptds,    cbid::cuMemcpyDtoH_v2_ptds,
        cbid::cuMemcpyDtoD_v2_ptds,   cbid::cuMemcpyHtoDAsync_v2_ptsz, cbid::cuMemcpyDtoHAsync_v2_ptsz,
        cbid::cuMemcpyDtoDAsync_v2_ptsz, cbid::cuMemcpyAtoD_v2,      cbid::cuMemcpyAtoD_v2_ptds,
        cbid::cuLaunchHostFunc,       cbid::cuLaunchHostFunc_ptsz,   cbid::cuStreamAddCallback,
        cbid::cuStreamAddCallback_ptsz, cbid::cuEventRecord,         cbid::cuEventRecord_ptsz,
        cbid::cuEventRecordWithFlags, cbid::cuEventRecordWithFlags_ptsz, cbid::cuStreamWaitEvent,
        cbid::cuStreamWaitEvent_ptsz};
    all.insert(all.end(), kUnbounded.begin(), kUnbounded.end());
    return all;
  }();
  return ids;
}

bool applyWorkCall(CaptureSession& session, CallbackId id, const void* params) {
  switch (id) {
    case cbid::cuMemsetD8_v2:
    case cbid::cuMemsetD8_v2_ptds:
      memset<unsigned char>(session, params);
      return true;
    case cbid::cuMemsetD16_v2:
    case cbid::cuMemsetD16_v2_ptds:
      memset<unsigned short>(session, params);
      return true;
    case cbid::cuMemsetD32_v2:
    case cbid::cuMemsetD32_v2_ptds:
      memset<unsigned>(session, params);
      return true;
    case cbid::cuMemsetD8Async:
    case cbid::cuMemsetD8Async_ptsz:
      memsetAsync<unsigned char>(session, params);
      return true;
    case cbid::cuMemsetD16Async:
    case cbid::cuMemsetD16Async_ptsz:
      memsetAsync<unsigned short>(session, params);
      return true;
    case cbid::cuMemsetD32Async:
    case cbid::cuMemsetD32Async_ptsz:
      memsetAsync<unsigned>(session, params);
      return true;
    case cbid::cuMemcpy:
    case cbid::cuMemcpy_ptds:
    case cbid::cuMemcpyHtoD_v2:
    case cbid::cuMemcpyHtoD_v2_ptds:
    case cbid::cuMemcpyDtoH_v2:
    case cbid::cuMemcpyDtoH_v2_ptds:
    case cbid::cuMemcpyDtoD_v2:
    case cbid::cuMemcpyDtoD_v2_ptds: {
      const auto& p = *static_cast<const LinearCopyParams*>(params);
      session.copyIssued(0, p.destination, p.source, p.ByteCount);
      return true;
    }
    case cbid::cuMemcpyAsync:
    case cbid::cuMemcpyAsync_ptsz:
    case cbid::cuMemcpyHtoDAsync_v2:
    case cbid::cuMemcpyHtoDAsync_v2_ptsz:
    case cbid::cuMemcpyDtoHAsync_v2:
    case cbid::cuMemcpyDtoHAsync_v2_ptsz:
    case cbid::cuMemcpyDtoDAsync_v2:
    case cbid::cuMemcpyDtoDAsync_v2_ptsz: {
      const auto& p = *static_cast<const LinearCopyAsyncParams*>(params);
      session.copyIssued(handle(p.hStream), p.destination, p.source, p.ByteCount);
      return true;
    }
    case cbid::cuMemcpyAtoD_v2:
    case cbid::cuMemcpyAtoD_v2_ptds: {  // from an array the capture does not track: an upload
      const auto& p = *static_cast<const MemcpyAtoDParams*>(params);
      session.copyIssued(0, p.dstDevice, 0, p.ByteCount);
      return true;
    }
    case cbid::cuLaunchHostFunc:
    case cbid::cuLaunchHostFunc_ptsz:
    case cbid::cuStreamAddCallback:
    case cbid::cuStreamAddCallback_ptsz:
      session.hostFunctionIssued(handle(static_cast<const StreamFirstParams*>(params)->hStream));
      return true;
    case cbid::cuEventRecord:
    case cbid::cuEventRecord_ptsz:
    case cbid::cuEventRecordWithFlags:
    case cbid::cuEventRecordWithFlags_ptsz: {
      const auto& p = *static_cast<const EventRecordParams*>(params);
      session.eventRecorded(handle(p.hEvent), handle(p.hStream));
      return true;
    }
    case cbid::cuStreamWaitEvent:
    case cbid::cuStreamWaitEvent_ptsz: {
      const auto& p = *static_cast<const StreamWaitEventParams*>(params);
      session.eventWaited(handle(p.hStream), handle(p.hEvent));
      return true;
    }
    default:
      if (!unbounded(id)) return false;
      session.unboundedWriteIssued();
      return true;
  }
}

}  // namespace kreplay::capture
