// RUN: not ks-opt %s --ks-perf-profiler="format=xml" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ks-opt %s --ks-perf-profiler="format=text report=%t.missing-dir/report.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// The resources come from #ks.resources (ks-collect-resources): no ptxas option.
// RUN: not ks-opt %s --ks-perf-profiler="ptxas=never" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not ks-opt %s --ks-perf-profiler="workload=N=big" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORKLOAD
// RUN: not ks-opt %s --ks-perf-profiler="measurements=%t.missing" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"kernel": 1}' > %t.bad.json
// RUN: not ks-opt %s --ks-perf-profiler="measurements=%t.bad.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: printf '{"results": {}}\nnot json\n' > %t.bad.jsonl
// RUN: not ks-opt %s --ks-perf-profiler="measurements=%t.bad.jsonl" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINE

// FORMAT: --format option: unknown value 'xml'; valid choices: none, text, json
// REPORT: error: ks-perf-profiler: cannot write the report to '{{.*}}.missing-dir/report.txt': No such file or directory
// PTXAS: no such option ptxas
// WORKLOAD: error: ks-perf-profiler: workload entry 'N=big' is not NAME=INTEGER
// MISSING: error: ks-perf-profiler: cannot read measurements '{{.*}}.missing': No such file or directory
// SHAPE: error: ks-perf-profiler: measurements '{{.*}}' are neither ks-bench --json output ("variants") nor `ks-bench db export` lines ("results")
// LINE: error: ks-perf-profiler: measurements '{{.*}}' line 2: {{.*}}
module {}
