// ks-emulate: the host emulation (ks_cuda_host.h) provides what cuda_pipeline.h would.
#include "ks_cuda_host.h"
