//===- SharedRunTest.cpp - Inputs and reference outputs across workers ----===//

#include "kernelskill/Runtime/HostData.h"
#include "kernelskill/Runtime/SharedRun.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::ks::runtime;

namespace {

struct Fixture {
  LaunchSpec spec;
  ResolvedLaunch launch;
};

Fixture makeFixture() {
  Fixture f;
  std::string error;
  EXPECT_TRUE(parseParamList("x:f32[n]:in,acc:i32[n]:inout,y:f32[2*n]:out,n", f.spec.params, error))
      << error;
  f.spec.kernel = "k";
  f.spec.scalars["n"] = 1000;
  std::optional<ResolvedLaunch> r = resolve(f.spec, error);
  EXPECT_TRUE(r) << error;
  f.launch = *r;
  return f;
}

TEST(SharedRun, InputsAreTheSeededOnes) {
  Fixture f = makeFixture();
  SharedRun shared(f.spec, f.launch, 7);
  EXPECT_EQ(shared.inputs(), makeInputs(f.spec, f.launch, 7));
  EXPECT_EQ(shared.inputs()[0].size(), 4000u); // in
  EXPECT_EQ(shared.inputs()[1].size(), 4000u); // inout: starts from inputs too
  EXPECT_TRUE(shared.inputs()[2].empty());     // out
  EXPECT_NE(shared.inputs(), makeInputs(f.spec, f.launch, 8));
}

// A scratch buffer (a launcher's own intermediate) has no inputs and is no
// output: nothing of it is drawn, kept as a reference or compared.
TEST(SharedRun, ScratchIsNeitherInputNorOutput) {
  LaunchSpec spec;
  std::string error;
  ASSERT_TRUE(parseParamList("x:f32[n]:in,t:f32[n]:scratch,y:f32[n]:out,n", spec.params, error))
      << error;
  spec.kernel = "k";
  spec.scalars["n"] = 10;
  std::optional<ResolvedLaunch> r = resolve(spec, error);
  ASSERT_TRUE(r) << error;
  std::vector<std::vector<uint8_t>> inputs = makeInputs(spec, *r, 1);
  EXPECT_EQ(inputs[0].size(), 40u);
  EXPECT_TRUE(inputs[1].empty());
  EXPECT_FALSE(isOutput(spec.params[1]));
  EXPECT_TRUE(isOutput(spec.params[2]));
  SharedRun shared(spec, *r, 1);
  EXPECT_TRUE(shared.reference(1, /*poisonB=*/false).empty());
}

TEST(SharedRun, AForkedWorkersReferenceReachesTheLaterOnes) {
  Fixture f = makeFixture();
  SharedRun shared(f.spec, f.launch, 1);
  EXPECT_FALSE(shared.hasReference());
  std::vector<std::vector<uint8_t>> a(4), b(4);
  a[1].assign(4000, 0x11);
  b[1].assign(4000, 0x22);
  a[2].assign(8000, 0x33);
  b[2].assign(8000, 0x44);
  // As ks-bench's workers do: the child stores, the parent (the next
  // worker's parent) sees it.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    shared.storeReference(a, b);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(shared.hasReference());
  EXPECT_TRUE(shared.reference(0, false).empty()); // `in`: not an output
  std::span<const uint8_t> inoutA = shared.reference(1, false), yB = shared.reference(2, true);
  EXPECT_EQ(std::vector<uint8_t>(inoutA.begin(), inoutA.end()), a[1]);
  EXPECT_EQ(std::vector<uint8_t>(yB.begin(), yB.end()), b[2]);
}

TEST(SharedRun, OutputsOfTheWrongSizeAreNotKept) {
  Fixture f = makeFixture();
  SharedRun shared(f.spec, f.launch, 1);
  std::vector<std::vector<uint8_t>> a(4), b(4);
  a[1].assign(4000, 1);
  b[1].assign(4000, 2);
  a[2].assign(10, 3); // not y's 8000 bytes
  b[2].assign(8000, 4);
  shared.storeReference(a, b);
  EXPECT_FALSE(shared.hasReference());
}

} // namespace
