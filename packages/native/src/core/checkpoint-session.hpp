// A checkpoint of the memory of one queue's context (the CUPTI Checkpoint API on the cuda driver):
// save, restore and release run in the queue's order, after the work enqueued before them.
#pragma once

#include <functional>
#include <optional>

#include "core/types.hpp"

namespace kreplay {

class CheckpointSession {
 public:
  /**
   * Called on a queue thread once the step ran: its failure (or none), and the milliseconds the step
   * itself took on the host clock (not counting the wait for earlier work).
   */
  using Done = std::function<void(std::optional<OperationError>, double milliseconds)>;

  virtual ~CheckpointSession() = default;
  /** Saves every allocation of the context (replacing an earlier save). */
  virtual void save(Done done) = 0;
  /** Puts the memory back as the last save found it. */
  virtual void restore(Done done) = 0;
  /** Frees what the checkpoint holds; the session can save again afterwards. */
  virtual void release(Done done) = 0;
};

}  // namespace kreplay
