#!/usr/bin/env python3
# Checks tune's extrapolation (docs/tune.md, "What is compared"): every file the 4 x 4 matrix wrote is
# simulated directly at its sizes above 64 MiB and compared with the time in report/index.json.
# usage: bench/tune/check_extrapolation.py CCFORGE OUTDIR   (OUTDIR as given to tune_matrix.sh)
import json, subprocess, sys, os
ccforge = sys.argv[1]; root = sys.argv[2]
worst = 0; n = 0
for m in ['dgx1', 'a100-2', 'h100-2', 'mi250-2']:
    d = json.load(open(f'{root}/{m}/report/index.json'))
    for c in d['collectives']:
        for w in c['windows']:
            sizes = [s for s in c['sizes'] if s['bytes'] > (64 << 20) and w['min_bytes'] <= s['bytes'] <= w['max_bytes']]
            if not sizes: continue
            f = f'{root}/{m}/{w["file"]}'
            out = subprocess.run([ccforge, 'simulate', f, m, '--sizes', ','.join(str(s['bytes']) for s in sizes), '--format', 'json'], capture_output=True, text=True)
            r = json.loads(out.stdout)['results']
            for s, x in zip(sizes, r):
                pred = s['time_us'][w['candidate'] - 1]
                err = abs(pred / x['time_us'] - 1) * 100
                worst = max(worst, err); n += 1
                if err > 0.5: print(m, w['file'], s['bytes'], round(pred, 1), round(x['time_us'], 1), f'{err:.2f}%')
print(f'{n} extrapolated (size, file) pairs checked, worst error {worst:.3f} %')
