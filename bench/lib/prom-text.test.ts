import { describe, expect, it } from 'vitest';
import { parsePromText, promByLabel, promSum } from './prom-text';

const SCRAPE = `# HELP updown_event_loop_delay_seconds Event-loop delay
# TYPE updown_event_loop_delay_seconds gauge
updown_event_loop_delay_seconds{quantile="0.5",service="updown"} 0.00105
updown_event_loop_delay_seconds{quantile="0.99",service="updown"} 0.0123
updown_event_loop_delay_seconds{quantile="1",service="updown"} 0.048
updown_gc_pause_seconds_total{kind="minor",service="updown"} 0.25
updown_gc_pause_seconds_total{kind="major",service="updown"} 1.5e-1
updown_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/trades/place",status_code="201"} 40
updown_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/trades/place",status_code="409"} 2
odd_label{path="a \\"quoted\\", b"} 1
process_start_time_seconds 1700000000 1700000000000
`;

describe('parsePromText', () => {
  const samples = parsePromText(SCRAPE);

  it('reads names, labels (escapes included) and values, skipping comments', () => {
    expect(samples).toHaveLength(9);
    expect(samples[0]).toEqual({
      name: 'updown_event_loop_delay_seconds',
      labels: { quantile: '0.5', service: 'updown' },
      value: 0.00105,
    });
    expect(samples.find((s) => s.name === 'odd_label')?.labels).toEqual({ path: 'a "quoted", b' });
    expect(samples.at(-1)).toEqual({ name: 'process_start_time_seconds', labels: {}, value: 1_700_000_000 });
  });

  it('sums the series matching some labels, and groups by one label', () => {
    expect(promSum(samples, 'updown_event_loop_delay_seconds', { quantile: '0.99' })).toBe(0.0123);
    expect(
      promSum(samples, 'updown_http_request_duration_seconds_bucket', {
        route: '/api/trades/place',
        le: '+Inf',
      }),
    ).toBe(42);
    expect(promSum(samples, 'absent_metric')).toBe(0);
    expect(promByLabel(samples, 'updown_gc_pause_seconds_total', 'kind')).toEqual({
      minor: 0.25,
      major: 0.15,
    });
  });
});
