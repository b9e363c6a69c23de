import autocannon from 'autocannon';
import type { Recorder } from './metrics';

/**
 * HTTP load through autocannon, with every response recorded in the scenario's Recorder (so the
 * percentiles and the failure rate are computed the same way for every scenario, p(95) included,
 * which autocannon's own summary lacks).
 */

export const RESPONSE_TIMEOUT_SEC = 10;

export interface HttpLoadOptions {
  readonly baseUrl: string;
  /** The tag of every request, as in `http_req_duration{name:<name>}`. */
  readonly name: string;
  readonly connections: number;
  /** Requests per second over all connections (an open-model target); unset: as fast as possible. */
  readonly ratePerSec?: number;
  /**
   * Requests to make. A count rather than a duration, so the run waits for the responses to the
   * last requests instead of leaving them unmeasured; with the rate it sets the length of the run.
   */
  readonly requestCount: number;
  readonly requests: autocannon.Request[];
}

export interface HttpLoadSummary {
  /** Requests written to the wire. */
  readonly sent: number;
  readonly durationSec: number;
}

export function runHttpLoad(recorder: Recorder, options: HttpLoadOptions): Promise<HttpLoadSummary> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: Math.min(options.connections, options.requestCount),
        overallRate: options.ratePerSec,
        amount: options.requestCount,
        timeout: RESPONSE_TIMEOUT_SEC,
        requests: options.requests,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ sent: result.requests.sent, durationSec: result.duration });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      recorder.http(options.name, statusCode, responseTimeMs);
    });
    instance.on('reqError', () => recorder.http(options.name, 0, 0));
  });
}
