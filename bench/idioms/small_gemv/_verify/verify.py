# Temporary: verify the contract cases against their torch expressions and time them (device).
import ctypes, os, re, subprocess, sys, json, concurrent.futures as cf
import torch, torch.nn.functional as F
HERE = os.path.dirname(os.path.abspath(__file__))
IDI = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, IDI)
import cases_contract as cc
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
OUT = os.environ.get('OUT', '/tmp')
BUILD = '/tmp/vbuild'; os.makedirs(BUILD, exist_ok=True)

def build(src, name):
    so = f'{BUILD}/{name}.so'
    r = subprocess.run(['nvcc', '-arch=sm_90', '-O3', '-shared', '-Xcompiler', '-fPIC', '-o', so, src], capture_output=True, text=True)
    return so, r.returncode, r.stderr[-2000:]

variants = [(c['name'], os.path.join(IDI, c['source']), c) for c in cc.CASES]
extra = {'bgemv_colmajor': os.path.join(HERE, 'bgemv_colmajor.ks.cu'), 'gemv_rows': os.path.join(HERE, 'gemv_rows.ks.cu')}
jobs = [(n, s) for n, s, _ in variants] + [(n + '_ks', s) for n, s in extra.items()]
with cf.ThreadPoolExecutor(16) as ex:
    built = dict(zip([j[0] for j in jobs], ex.map(lambda j: build(j[1], j[0]), jobs)))

def ceildiv(a, b): return (a + b - 1) // b
def parse(params):
    out = []
    for p in params.split(','):
        f = p.split(':'); m = re.match(r'(\w+)\[(.*)\]', f[1])
        out.append(dict(name=f[0], type=m.group(1) if m else f[1], ext=m.group(2) if m else None, role=f[2] if len(f) > 2 else None))
    return out
def wl(s):
    d = {}
    for e in s.split(','):
        k, v = e.split('='); d[k] = eval(v, {}, dict(d))
    return d

def launcher(so, case):
    lib = ctypes.CDLL(so)
    sym = subprocess.run(f"nm -D {so} | grep ' T ' | grep launch_{case['name']}", shell=True, capture_output=True, text=True).stdout.split()[-1]
    return getattr(lib, sym)

def setup(case, w, seed=1):
    g = torch.Generator(device='cuda').manual_seed(seed)
    ps = parse(case['params']); env = dict(w); bufs = {}
    for p in ps:
        if p['ext'] is not None:
            n = int(eval(p['ext'], {'ceildiv': ceildiv}, dict(w)))
            t = torch.rand(n, device='cuda', generator=g) * 2 - 1
            if p['role'] == 'out': t.fill_(float('nan'))
            bufs[p['name']] = t
    return ps, bufs

def call(fn, case, ps, bufs, w):
    args, types = [], []
    names = [p['name'] for p in ps]
    if case['name'] == 'bgemv_tmpl':  # launcher takes B too
        order = ['W', 'x', 'y', 'B', 'M', 'K']; ww = dict(w); ww['B'] = 4
    else:
        order = names; ww = w
    pd = {p['name']: p for p in ps}; pd['B'] = dict(name='B', type='i32', ext=None)
    for n in order:
        p = pd[n]
        if p['ext'] is not None: args.append(ctypes.c_void_p(bufs[n].data_ptr()))
        elif p['type'] == 'f32': args.append(ctypes.c_float(ww[n]))
        else: args.append(ctypes.c_int(int(ww[n])))
    fn(*args)

results = {}
for name, src, case in variants + [(n + '_ks', None, dict(next(c for c in cc.CASES if c['name'] == n), name=n)) for n in extra]:
    vname = name
    so, rc, err = built[vname]
    if rc: results[vname] = {'build_error': err}; print(vname, 'BUILD ERROR', err); continue
    fn = launcher(so, case)
    res = {}
    for wname in ['check', 'time']:
        w = wl(case[wname]); ps, bufs = setup(case, w)
        env = {k: v.clone() for k, v in bufs.items()}; env.update(w); env.update(torch=torch, F=F)
        if case['name'] == 'bgemv_tmpl': pass
        call(fn, case, ps, bufs, w); torch.cuda.synchronize()
        err = torch.cuda.synchronize() 
        ref = eval(case['torch'], env)
        if not isinstance(ref, tuple): ref = (ref,)
        outs = [bufs[p['name']] for p in ps if p['role'] in ('out', 'inout')]
        errs = []
        for o, r in zip(outs, ref):
            r = r.reshape(-1).float()
            if o.numel() != r.numel(): errs.append(f'numel {o.numel()} vs {r.numel()}'); continue
            nan = int(torch.isnan(o).sum())
            rel = float((o.double() - r.double()).norm() / r.double().norm())
            errs.append(dict(nan=nan, rel=rel))
        res[wname] = errs
        if wname == 'time':
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            def tm(f, reps=10):
                f(); torch.cuda.synchronize(); ts = []
                for _ in range(reps):
                    s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
                ts.sort(); return ts[len(ts) // 2]
            res['ms_kernel'] = tm(lambda: call(fn, case, ps, bufs, w))
            res['ms_torch'] = tm(lambda: eval(case['torch'], env))
        del bufs, env; torch.cuda.empty_cache()
    results[vname] = res
    print(vname, json.dumps(res), flush=True)
json.dump(results, open(os.path.join(OUT, 'verify.json'), 'w'), indent=1)
