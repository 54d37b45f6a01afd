# lit configuration of the KernelSkill tests.
#
# Features:
#   ptxas         ptxas was found (PATH, $CUDA_HOME/bin, the toolkit found at
#                 build time, /usr/local/cuda/bin): tests that assemble PTX.
#   cuda-toolkit  ks-opt was built with the CUDA toolkit headers.
#   gpu           an NVIDIA GPU answers nvidia-smi: tests that run on a GPU.
#   ks-bench      ks-bench was built (CUDA toolkit and SQLite): its
#                 command-line tests.
#   host-cxx      a C++20 host compiler (KS_CXX, else g++): tests that run
#                 exported CUDA on the CPU (tools/ks-emulate).
# Tests that REQUIRE a missing feature show as UNSUPPORTED in the summary.
#
# Substitutions besides the features': %ks_src_root (the source tree),
# %examples, %python, %ks_bin (the built tools' folder), %ks_emulate and
# %ks_launch_trace (tools/ks-emulate).

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "KernelSkill"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".cu"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ks_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.ks_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)
for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "HOME", "XDG_CACHE_HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The agent driver remembers compiled candidates in the tuning database:
# the tests' own, never the user's.
config.environment["KS_TUNING_DB"] = os.path.join(config.test_exec_root, "tuning.db")
config.substitutions.append(("%ks_src_root", config.ks_src_root))
config.substitutions.append(("%examples", os.path.join(config.ks_src_root, "examples")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%ks_bin", config.ks_tools_dir))
config.substitutions.append(
    ("%ks_emulate", os.path.join(config.ks_src_root, "tools", "ks-emulate", "ks-emulate.py")))
config.substitutions.append(
    ("%ks_launch_trace", os.path.join(config.ks_src_root, "tools", "ks-emulate", "ks-launch-trace.py")))

host_cxx = os.environ.get("KS_CXX") or shutil.which("g++")
if host_cxx:
    config.available_features.add("host-cxx")
    config.environment["KS_CXX"] = host_cxx
else:
    lit_config.note("no host C++ compiler: exported CUDA is not run on the CPU")


def find_ptxas():
    found = shutil.which("ptxas")
    if found:
        return found
    roots = [os.environ.get(v, "") for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")]
    roots += [config.ks_cuda_toolkit_dir, "/usr/local/cuda"]
    for root in roots:
        candidate = os.path.join(root, "bin", "ptxas") if root else ""
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("ptxas not found: tests that assemble PTX are UNSUPPORTED")

nvcc = shutil.which("nvcc") or (
    os.path.join(os.path.dirname(ptxas), "nvcc") if ptxas else None)
if nvcc and os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
else:
    lit_config.note("nvcc not found: exported CUDA is not compiled")

if config.ks_have_cuda_toolkit:
    config.available_features.add("cuda-toolkit")

# ks-bench is built only with the CUDA toolkit and SQLite (tools/CMakeLists.txt).
if os.access(os.path.join(config.ks_tools_dir, "ks-bench"), os.X_OK):
    config.available_features.add("ks-bench")
else:
    lit_config.note("ks-bench not built: its command-line tests are UNSUPPORTED")


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if have_gpu():
    config.available_features.add("gpu")
else:
    lit_config.note("no GPU found: tests that need one (REQUIRES: gpu) are UNSUPPORTED")
