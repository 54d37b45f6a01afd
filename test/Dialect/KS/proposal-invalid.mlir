// RUN: ks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#ks.proposal answers must be finding kinds (strings such as "no_reuse"), got "slow"}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = ["slow"], knobs = {}, claims = {}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal knob 'BK' must be a non-empty array<i64: ...> of allowed values}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {BK = array<i64>}, claims = {}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal knob 'BK' must be a non-empty array<i64: ...> of allowed values}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {BK = 8}, claims = {}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal claim 'bandwidth' is not one of shared_bytes, threads, registers}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {}, claims = {bandwidth = "1"}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal claim 'threads' must be a formula string}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {}, claims = {threads = 256}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal gain must be in [0, 1] (a fraction of the kernel's time), got 1.5}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {}, claims = {}, gain = 1.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal needs a non-empty 'agent' and 'schedule'}}
func.func @f() attributes {p = #ks.proposal<agent = "", schedule = "outer_product", answers = [], knobs = {}, claims = {}, gain = 0.5, rationale = "r">} { return }

// -----

// expected-error @+1 {{#ks.proposal needs a 'rationale'}}
func.func @f() attributes {p = #ks.proposal<agent = "memory", schedule = "outer_product", answers = [], knobs = {}, claims = {}, gain = 0.5, rationale = "">} { return }

// -----

// expected-error @+1 {{'func.func' op 'ks.proposals' must be an array of #ks.proposal}}
func.func @f() attributes {ks.proposals = [1]} { return }

// -----

// expected-error @+1 {{'func.func' op 'ks.predicted_time' must be a non-negative float (the predicted seconds)}}
func.func @f() attributes {ks.predicted_time = -1.0 : f64} { return }

// -----

// expected-error @+1 {{'func.func' op 'ks.floor_time' must be a positive float (the roofline floor's seconds)}}
func.func @f() attributes {ks.floor_time = 0.0 : f64} { return }
