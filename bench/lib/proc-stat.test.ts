import { describe, expect, it } from 'vitest';
import { ownCpuSeconds, parseProcStat, readProcStat } from './proc-stat';

// A postgres backend's line (fields 1-17 matter); its name has a space and a parenthesis in it.
const LINE =
  '4242 (postgres: x (y)) S 4200 4200 4200 0 -1 4194560 1200 0 0 0 731 129 17 5 20 0 1 0 648747 ' +
  '3133440 380 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0';

describe('parseProcStat', () => {
  it('reads pid, name, parent and CPU ticks, with a name holding spaces and parentheses', () => {
    expect(parseProcStat(LINE)).toEqual({
      pid: 4242,
      comm: 'postgres: x (y)',
      state: 'S',
      ppid: 4200,
      utimeTicks: 731,
      stimeTicks: 129,
      cutimeTicks: 17,
      cstimeTicks: 5,
    });
  });

  it('adds user and system time and converts ticks to seconds', () => {
    expect(ownCpuSeconds(parseProcStat(LINE), 100)).toBeCloseTo(8.6, 10);
  });

  it('refuses a line that is not a stat line, or one cut short', () => {
    expect(() => parseProcStat('no parentheses here')).toThrow(/not a \/proc stat line/);
    expect(() => parseProcStat('12 (node) S 1 2 3')).toThrow(/field 14 missing/);
  });

  it('reads this process from /proc, and nothing for a pid that does not exist', async () => {
    const self = await readProcStat(process.pid);
    expect(self?.pid).toBe(process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(await readProcStat(2 ** 30)).toBeUndefined();
  });
});
