// The lifecycle contract of a worker's background parts (worker/service.ts): stop before start and a
// second stop are harmless, a tick never overlaps a run still going, and stop waits for that run.
import { describe, expect, it } from 'vitest';
import { PeriodicChore } from '../../worker/service';
import { databaseBackoffMs } from '../../worker/database-backoff';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PeriodicChore', () => {
  it('tolerates stop before start and a second stop, and never starts after a stop', async () => {
    let runs = 0;
    const chore = new PeriodicChore('test', 5, async () => void runs++);
    await chore.stop();
    await chore.stop();
    chore.start();
    await sleep(30);
    expect(runs).toBe(0);
  });

  it('skips ticks while a run is going, and stop waits for that run to end', async () => {
    let running = 0;
    let most = 0;
    let finished = 0;
    const chore = new PeriodicChore('slow', 5, async () => {
      running++;
      most = Math.max(most, running);
      await sleep(40);
      running--;
      finished++;
    });
    chore.start();
    await sleep(60);
    await chore.stop();
    expect(most).toBe(1);
    // The run under way when stop() was called had finished by the time stop() returned.
    expect(running).toBe(0);
    expect(finished).toBeGreaterThanOrEqual(1);
    const after = finished;
    await sleep(30);
    expect(finished).toBe(after);
  });

  it('runs once soon after the start when asked, and survives a failing run', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const log = { warn: (_message: string, context: { error: unknown }) => errors.push(context.error) };
    const chore = new PeriodicChore(
      'flaky',
      10_000,
      async () => {
        runs++;
        throw new Error('database down');
      },
      { firstAfterMs: 5, log: log as never },
    );
    chore.start();
    await sleep(40);
    await chore.stop();
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
  });
});

describe('databaseBackoffMs', () => {
  it.each([
    [0, 5000, 0],
    [1, 5000, 100],
    [2, 5000, 200],
    [6, 5000, 3200],
    [7, 5000, 5000],
    [30, 5000, 5000],
    [4, 1000, 800],
    [5, 1000, 1000],
  ])('after %i failures (cap %i ms): %i ms', (failures, cap, expected) => {
    expect(databaseBackoffMs(failures, cap)).toBe(expected);
  });
});
