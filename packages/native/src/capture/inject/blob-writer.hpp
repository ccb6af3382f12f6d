// The capture's background writer: threads that take staged pages (in pinned staging buffers) and
// module images, name each by SHA-256 (its blob id), write the new ones to temporary files and free
// the buffer; and a committer that, in the order launches were handed over, makes their blobs durable
// (one syncfs, or one fdatasync per blob, for all launches ready at once), renames them into place,
// syncs their folders, and only then renames each launch's record into place (FORMAT.md's crash-safety
// contract). Work is grouped by launch: the pages staged before a launch, then its record (or
// nothing, when the launch did not run). The staging pool bounds the bytes in flight, and at most
// maxPendingRecords records wait: the program waits when the writer falls behind; nothing is dropped.
// The first failure stops everything and is kept, naming the file.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "capture/capture-writer.hpp"
#include "capture/inject/blob-slot.hpp"
#include "capture/inject/pinned-staging.hpp"

namespace kreplay::capture {

/** One page in a staging buffer, and the slot its blob id goes to. */
struct StagedPage {
  std::size_t offset = 0;
  std::size_t bytes = 0;
  BlobRef blob;
};

/** A launch's record whose blob ids the writer fills in: the module's, and each page's before. */
struct PendingRecord {
  RecordFields fields;  ///< memory[].pagesBefore and moduleBlob are filled in at commit
  BlobRef module;
  std::vector<std::vector<BlobRef>> pages;  ///< per range of fields.memory, one per page
};

struct BlobWriterOptions {
  unsigned threads = 1;
  std::size_t maxPendingRecords = 64;
  /** From this many new files in one commit, one syncfs makes them durable instead of one fdatasync each. */
  std::size_t syncFileSystemFrom = 64;
  /** Called by a writer thread before it writes a batch of pages (tests hold the writer back with it). */
  std::function<void()> beforeWrite;
  /** Called with each file's final path once it is renamed into place (tests check the order). */
  std::function<void(const std::string&)> afterRename;
};

class BlobWriter {
 public:
  BlobWriter(CaptureWriter& folder, PinnedStaging& staging, BlobWriterOptions options);
  /** Stops the threads; what was not committed is not (a capture that was not drained stays incomplete). */
  ~BlobWriter();
  BlobWriter(const BlobWriter&) = delete;
  BlobWriter& operator=(const BlobWriter&) = delete;

  /** Pages of the current launch in a staging buffer from `staging`, released once they are written. */
  void addPages(std::uint8_t* buffer, std::vector<StagedPage> pages);
  /** Bytes of the current launch stored as one blob (a module image). */
  void addBytes(std::shared_ptr<const std::vector<std::uint8_t>> bytes, BlobRef blob);
  /**
   * The current launch's record, committed after its blobs and every earlier launch's. Waits while
   * maxPendingRecords records wait. Throws CaptureWriteError once the writer failed.
   */
  void addRecord(PendingRecord record);
  /** The current launch has no record (it did not run); its blobs are still stored. */
  void closeGroup();
  /** Waits until everything handed over is committed. Throws CaptureWriteError once the writer failed. */
  void drain();
  /** The first failure (naming the file), or empty. */
  std::string failure() const;
  std::uint64_t committedLaunches() const;

 private:
  struct NewBlob {
    std::string temporary;
    std::string final;
    std::string folder;
    std::uint64_t bytes = 0;
  };
  struct Group {
    std::uint64_t id = 0;
    std::size_t outstanding = 0;
    bool closed = false;
    std::optional<PendingRecord> record;
    std::vector<NewBlob> blobs;
  };
  struct Task {
    std::uint64_t group = 0;
    std::uint8_t* buffer = nullptr;
    std::shared_ptr<const std::vector<std::uint8_t>> bytes;
    std::vector<StagedPage> pages;
  };

  Group& openGroupLocked();
  Group& groupLocked(std::uint64_t id);
  void closeLocked(std::optional<PendingRecord> record);
  void enqueue(Task task);
  void work();
  void commitLoop();
  std::vector<NewBlob> writeBlobs(Task& task);
  void commit(std::vector<Group*>& groups);
  void fail(const std::string& why);

  CaptureWriter& folder_;
  PinnedStaging& staging_;
  BlobWriterOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable tasksReady_;
  std::condition_variable progress_;
  std::deque<Group> groups_;
  std::uint64_t nextGroup_ = 0;
  std::deque<Task> tasks_;
  std::unordered_set<std::string> known_;        ///< blob ids written or being written
  std::unordered_set<std::string> madeFolders_;  ///< blobs/<2 hex> folders made
  std::size_t pendingRecords_ = 0;
  std::uint64_t committed_ = 0;
  std::string failure_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::thread committer_;
};

/** Writer threads for `requested` (0: auto, min(8, hardware threads - 1), at least 1). */
unsigned writerThreadCount(unsigned requested);

}  // namespace kreplay::capture
