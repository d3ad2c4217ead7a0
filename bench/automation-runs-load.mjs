/**
 * The automation runs bench's load: run starts sent at a steady rate from a worker thread
 * (bench/automation-runs.ts, startLoad), so the requests' own work (fetch, its streams and
 * decompression) is not on the thread of the app it measures, as a real client's is not, and the
 * app and its floor get the same load. Each due request is sent at its time, without waiting for
 * the earlier ones.
 *
 * In: workerData { url, paths[], token, rate }. Out: one message { t0, offeredMs, accepted: ids,
 * latencies: ms[], refusals: [reason, n][], samples: string[] } when every request has answered.
 */
import { parentPort, workerData } from "node:worker_threads";

const { url, paths, bodies, token, rate } = workerData;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const latencies = [];
const accepted = [];
const refusals = new Map();
const samples = [];
const refuse = (reason, sample) => {
  refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
  if (samples.length < 3) samples.push(sample);
};
const sends = [];
const t0 = Date.now();
let next = 0;
while (next < paths.length) {
  const due = Math.min(paths.length, Math.floor(((Date.now() - t0) * rate) / 1000) + 1);
  for (; next < due; next++) {
    const sent = performance.now();
    sends.push(
      fetch(`${url}${paths[next]}`, {
        method: "POST",
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          "content-type": "application/json",
        },
        body: JSON.stringify(bodies[next]),
      })
        .then(async (res) => {
          latencies.push(performance.now() - sent);
          const body = await res.json();
          if (res.status === 201 && body.id) accepted.push(body.id);
          else refuse(`HTTP ${res.status}`, `start refused: ${res.status} ${JSON.stringify(body)}`);
        })
        .catch((e) => {
          const cause = e?.cause;
          refuse(
            String(cause ?? e).slice(0, 80),
            `start failed: ${String(e)}${cause ? ` (${String(cause)})` : ""}`,
          );
        }),
    );
  }
  await sleep(5);
}
await Promise.all(sends);
parentPort.postMessage({
  t0,
  offeredMs: Date.now() - t0,
  accepted,
  latencies,
  refusals: [...refusals],
  samples,
});
