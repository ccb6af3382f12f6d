#include "capture/inject/blob-writer.hpp"

#include <algorithm>
#include <set>

#include "capture/capture-files.hpp"

namespace kreplay::capture {

unsigned writerThreadCount(unsigned requested) {
  if (requested > 0) return requested;
  const unsigned hardware = std::thread::hardware_concurrency();
  return std::clamp(hardware > 1 ? hardware - 1 : 1u, 1u, 8u);
}

BlobWriter::BlobWriter(CaptureWriter& folder, PinnedStaging& staging, BlobWriterOptions options)
    : folder_(folder), staging_(staging), options_(std::move(options)) {
  for (unsigned i = 0; i < std::max(1u, options_.threads); ++i) threads_.emplace_back([this] { work(); });
  committer_ = std::thread([this] { commitLoop(); });
}

BlobWriter::~BlobWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  tasksReady_.notify_all();
  progress_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  committer_.join();
  for (Task& task : tasks_)
    if (task.buffer != nullptr) staging_.release(task.buffer);
}

BlobWriter::Group& BlobWriter::openGroupLocked() {
  if (groups_.empty() || groups_.back().closed) {
    Group group;
    group.id = nextGroup_++;
    groups_.push_back(std::move(group));
  }
  return groups_.back();
}

BlobWriter::Group& BlobWriter::groupLocked(std::uint64_t id) {
  return groups_[static_cast<std::size_t>(id - groups_.front().id)];
}

void BlobWriter::enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.empty()) {
      if (task.buffer != nullptr) staging_.release(task.buffer);
      return;
    }
    Group& group = openGroupLocked();
    group.outstanding += 1;
    task.group = group.id;
    tasks_.push_back(std::move(task));
  }
  tasksReady_.notify_one();
}

void BlobWriter::addPages(std::uint8_t* buffer, std::vector<StagedPage> pages) {
  Task task;
  task.buffer = buffer;
  task.pages = std::move(pages);
  enqueue(std::move(task));
}

void BlobWriter::addBytes(std::shared_ptr<const std::vector<std::uint8_t>> bytes, BlobRef blob) {
  Task task;
  task.pages.push_back({0, bytes->size(), std::move(blob)});
  task.bytes = std::move(bytes);
  enqueue(std::move(task));
}

void BlobWriter::closeLocked(std::optional<PendingRecord> record) {
  Group& group = openGroupLocked();
  group.closed = true;
  if (record) pendingRecords_ += 1;
  group.record = std::move(record);
}

void BlobWriter::addRecord(PendingRecord record) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    progress_.wait(lock, [&] { return pendingRecords_ < options_.maxPendingRecords || !failure_.empty(); });
    if (!failure_.empty()) throw CaptureWriteError(failure_);
    closeLocked(std::move(record));
  }
  progress_.notify_all();
}

void BlobWriter::closeGroup() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (groups_.empty() || groups_.back().closed) return;
    closeLocked(std::nullopt);
  }
  progress_.notify_all();
}

void BlobWriter::drain() {
  closeGroup();
  std::unique_lock<std::mutex> lock(mutex_);
  progress_.wait(lock, [&] { return groups_.empty() || !failure_.empty(); });
  if (!failure_.empty()) throw CaptureWriteError(failure_);
}

std::string BlobWriter::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

std::uint64_t BlobWriter::committedLaunches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return committed_;
}

void BlobWriter::fail(const std::string& why) {
  std::deque<Task> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.empty()) failure_ = why;
    dropped.swap(tasks_);
  }
  for (Task& task : dropped)
    if (task.buffer != nullptr) staging_.release(task.buffer);
  staging_.stop(why);
  tasksReady_.notify_all();
  progress_.notify_all();
}

std::vector<BlobWriter::NewBlob> BlobWriter::writeBlobs(Task& task) {
  std::vector<NewBlob> written;
  const std::uint8_t* base = task.buffer != nullptr ? task.buffer : task.bytes->data();
  for (StagedPage& page : task.pages) {
    const std::uint8_t* data = base + page.offset;
    const std::string id = blobId(data, page.bytes);
    page.blob->id = id;
    const std::string prefix = id.substr(0, 2);
    const std::string folder = folder_.directory() + "/blobs/" + prefix;
    bool fresh = false, madeFolder = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fresh = known_.insert(id).second;
      madeFolder = madeFolders_.count(prefix) != 0;
    }
    if (!fresh) continue;
    if (!madeFolder) {
      makeDirectory(folder);
      std::lock_guard<std::mutex> lock(mutex_);
      madeFolders_.insert(prefix);
    }
    NewBlob blob{folder + "/" + temporaryName(id), folder + "/" + id, folder, page.bytes};
    writeFile(blob.temporary, data, page.bytes, false);
    written.push_back(std::move(blob));
  }
  return written;
}

void BlobWriter::work() {
  while (true) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      tasksReady_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    std::vector<NewBlob> written;
    std::string error;
    try {
      if (options_.beforeWrite && task.buffer != nullptr) options_.beforeWrite();
      written = writeBlobs(task);
    } catch (const std::exception& failure) {
      error = failure.what();
    }
    if (task.buffer != nullptr) staging_.release(task.buffer);  // before a failure is said: nothing holds it
    if (!error.empty()) fail(error);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!groups_.empty() && task.group >= groups_.front().id) {
        Group& group = groupLocked(task.group);
        group.outstanding -= 1;
        for (NewBlob& blob : written) group.blobs.push_back(std::move(blob));
      }
    }
    progress_.notify_all();
  }
}

void BlobWriter::commitLoop() {
  while (true) {
    std::vector<Group*> ready;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      auto isReady = [&] {
        return !groups_.empty() && groups_.front().closed && groups_.front().outstanding == 0;
      };
      progress_.wait(lock, [&] { return stopping_ || !failure_.empty() || isReady(); });
      if (!failure_.empty() || !isReady()) return;
      // Every group ready now, in order: one round of syncs for all of them. References into a deque
      // stay valid while other threads append.
      for (Group& group : groups_) {
        if (!group.closed || group.outstanding != 0) break;
        ready.push_back(&group);
      }
    }
    try {
      commit(ready);
    } catch (const std::exception& error) {
      fail(error.what());
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const Group* group : ready) {
        if (group->record) {
          pendingRecords_ -= 1;
          committed_ += 1;
        }
        groups_.pop_front();
      }
    }
    progress_.notify_all();
  }
}

void BlobWriter::commit(std::vector<Group*>& groups) {
  struct Record {
    std::string temporary;
    std::string final;
    std::string sequenceBreak;
  };
  std::vector<NewBlob> blobs;
  std::vector<Record> records;
  const std::string launches = folder_.directory() + "/launches";
  for (Group* group : groups) {
    for (NewBlob& blob : group->blobs) blobs.push_back(std::move(blob));
    if (!group->record) continue;
    PendingRecord& pending = *group->record;
    RecordFields& fields = pending.fields;
    auto idOf = [&](const BlobRef& blob) {
      if (!blob || blob->id.empty()) {
        throw CaptureWriteError("[native] [capture] the record of launch " + std::to_string(fields.sequence) +
                                " names a blob that was never written; this is a bug in the capture library.");
      }
      return blob->id;
    };
    fields.moduleBlob = idOf(pending.module);
    for (std::size_t r = 0; r < fields.memory.size(); ++r) {
      fields.memory[r].pagesBefore.clear();
      for (const BlobRef& page : pending.pages[r]) fields.memory[r].pagesBefore.push_back(idOf(page));
    }
    const std::string text = launchRecordJson(fields);
    const std::string name = sequenceName(fields.sequence) + ".json";
    Record record{launches + "/" + temporaryName(name), launches + "/" + name,
                  fields.place.follows ? std::string() : fields.place.sequenceBreak};
    writeFile(record.temporary, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), false);
    records.push_back(std::move(record));
  }
  // 1. Every new file durable: blobs and records under their temporary names.
  if (blobs.size() + records.size() >= options_.syncFileSystemFrom) {
    syncFileSystem(folder_.directory());
  } else {
    for (const NewBlob& blob : blobs) syncFile(blob.temporary);
    for (const Record& record : records) syncFile(record.temporary);
  }
  // 2. The blobs in place, their folders synced; 3. only then the records.
  std::set<std::string> folders;
  for (const NewBlob& blob : blobs) {
    renameFile(blob.temporary, blob.final);
    if (options_.afterRename) options_.afterRename(blob.final);
    folders.insert(blob.folder);
  }
  for (const std::string& folder : folders) syncDirectory(folder);
  for (const NewBlob& blob : blobs) folder_.blobStored(blob.bytes);
  for (const Record& record : records) {
    renameFile(record.temporary, record.final);
    if (options_.afterRename) options_.afterRename(record.final);
  }
  if (!records.empty()) syncDirectory(launches);
  for (const Record& record : records) folder_.launchCommitted(record.sequenceBreak);
  if (!blobs.empty() || !records.empty()) folder_.rewriteManifest();
}

}  // namespace kreplay::capture
