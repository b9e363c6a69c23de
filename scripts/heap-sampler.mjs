/**
 * Preloaded into a process (`node --import ./scripts/heap-sampler.mjs …`) to sample what it
 * allocates over windows chosen from outside: each SIGUSR2 starts V8's sampling heap profiler, the
 * next one stops it and writes `<HEAP_SAMPLER_DIR>/<n>.heapprofile` (n = 1, 2, …). Objects already
 * collected are kept in the profile, so it counts bytes allocated in the window, not bytes still live.
 * The interval is `HEAP_SAMPLER_INTERVAL_BYTES` (default 4096).
 */
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.HEAP_SAMPLER_DIR;
if (!dir) throw new Error('heap-sampler: HEAP_SAMPLER_DIR is not set');
const samplingInterval = Number(process.env.HEAP_SAMPLER_INTERVAL_BYTES ?? 4096);

const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

let sampling = false;
let windows = 0;
process.on('SIGUSR2', () => {
  const toggle = sampling
    ? post('HeapProfiler.stopSampling').then(({ profile }) => {
        windows += 1;
        writeFileSync(path.join(dir, `${windows}.heapprofile`), JSON.stringify(profile));
      })
    : post('HeapProfiler.startSampling', {
        samplingInterval,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }).then(() => writeFileSync(path.join(dir, `${windows + 1}.started`), ''));
  sampling = !sampling;
  toggle.catch((error) => process.stderr.write(`heap-sampler: ${error.stack}\n`));
});
