//===- Isolation.cpp - Run a job in a worker process ----------------------===//
//
// A kernel that faults (illegal address, misaligned access) leaves its CUDA
// context unusable for the rest of the process, and a kernel can hang. Each
// job therefore runs in a forked child that reports its JSON result through a
// pipe; the parent never initializes CUDA, so forking is safe.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Bench.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::ks::runtime;
using json = nlohmann::json;

json mlir::ks::runtime::runIsolated(const std::string &label, const BenchOptions &options,
                                    const std::function<json()> &job) {
  if (!options.isolate)
    return job();
  int fds[2];
  if (pipe(fds) != 0)
    return {{"status", "error"}, {"error", std::string("pipe: ") + std::strerror(errno)}};
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    return {{"status", "error"}, {"error", std::string("fork: ") + std::strerror(errno)}};
  if (pid == 0) {
    close(fds[0]);
    std::string text = job().dump(-1, ' ', false, json::error_handler_t::replace);
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0)
        _exit(3);
      done += size_t(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(int64_t(options.timeoutSeconds * 1000));
  bool timedOut = false;
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, int(std::min<int64_t>(left, 1000)));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n <= 0)
      break; // EOF: the worker finished (or died)
    text.append(buffer, size_t(n));
  }
  close(fds[0]);
  if (timedOut)
    kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timedOut)
    return {{"status", "error"},
            {"error", label + ": worker timed out after " +
                          std::to_string(int(options.timeoutSeconds)) + " s and was killed"}};
  if (WIFSIGNALED(status))
    return {{"status", "error"},
            {"error", label + ": worker died from signal " + std::to_string(WTERMSIG(status)) +
                          " (" + strsignal(WTERMSIG(status)) + ")"}};
  json result = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || result.is_discarded())
    return {{"status", "error"},
            {"error", label + ": worker exited with status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          " without a result"}};
  return result;
}
