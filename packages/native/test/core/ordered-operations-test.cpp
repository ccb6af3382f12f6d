// Checks core/ordered-operations.hpp, the skeleton the host and hsa queues share: operations come out
// in the order pushed, work (and only work) is numbered, a fence's ticket waits for what was pushed
// before it, runIfIdle runs only when every pushed operation completed, and a stopped queue refuses
// new operations but hands out what it holds.
// Built and run by src/ordered-operations.test.ts; prints what failed and exits 1.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "core/ordered-operations.hpp"
#include "expect.hpp"

using kreplay::test::expect;

namespace {

struct Operation {
  int id;
  bool work;
  std::int64_t workIndex = -1;
};

}  // namespace

int main() {
  kreplay::OrderedOperations<Operation> operations;
  expect(operations.ticket() == 0, "nothing pushed: ticket 0");
  expect(operations.runIfIdle([] {}), "nothing pushed: idle");
  expect(operations.push({1, true}) && operations.push({2, false}) && operations.push({3, true}), "push before stop");
  const std::uint64_t ticket = operations.ticket();
  expect(ticket == 3, "the ticket counts every push");
  bool ran = false;
  expect(!operations.runIfIdle([&] { ran = true; }) && !ran, "not idle while operations wait: run is not called");

  std::atomic<bool> fenced{false};
  auto owner = std::make_shared<int>(0);
  std::function<void()> waitForPushed = operations.fence(owner);
  expect(owner.use_count() == 2, "a fence keeps its owner alive");
  std::thread fence([&] {
    waitForPushed();
    fenced = true;
  });
  std::vector<Operation> taken;
  for (int index = 0; index < 3; ++index) {
    auto operation = operations.take();
    expect(operation.has_value(), "take hands out what was pushed");
    if (operation) taken.push_back(*operation);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    expect(!fenced, "a fence waits until its ticket's operations completed");
    operations.completeOne();
  }
  fence.join();
  expect(fenced, "the fence returns once they completed");
  expect(taken.size() == 3 && taken[0].id == 1 && taken[1].id == 2 && taken[2].id == 3, "taken in the order pushed");
  expect(taken.size() == 3 && taken[0].workIndex == 0 && taken[1].workIndex == -1 && taken[2].workIndex == 1,
         "work is numbered 0, 1, ... and control operations are not");
  expect(operations.runIfIdle([&] { ran = true; }) && ran, "idle once every operation completed: run is called");

  expect(operations.push({4, true}), "push after draining");
  operations.stop();
  expect(!operations.push({5, true}), "a stopped queue refuses new operations");
  auto last = operations.take();
  expect(last.has_value() && last->id == 4 && last->workIndex == 2, "a stopped queue still hands out what it holds");
  expect(!operations.take().has_value(), "then take returns nothing instead of waiting");
  operations.completeOne();
  expect(operations.ticket() == 4, "a refused push takes no ticket");

  // A taker blocked on an empty queue wakes when it is stopped.
  kreplay::OrderedOperations<Operation> empty;
  std::thread taker([&] { expect(!empty.take().has_value(), "stop wakes a waiting take with nothing"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  empty.stop();
  taker.join();
  return kreplay::test::exitStatus();
}
