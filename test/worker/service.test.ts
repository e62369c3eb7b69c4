// The lifecycle contract of a worker's background parts (worker/service.ts): stop before start and a
// second stop are harmless, a tick never overlaps a run still going, and stop waits for that run.
import { describe, expect, it } from 'vitest';
import { PeriodicChore } from '../../worker/service';
import { databaseBackoffMs } from '../../worker/database-backoff';
import { ManualClock, turn } from '../support/manual-clock';

// Time is a ManualClock's: each test moves it, so none waits, and a chore timed by Node's own timers
// instead of the clock it was given never runs here, and fails the test.
describe('PeriodicChore', () => {
  it('tolerates stop before start and a second stop, and never starts after a stop', async () => {
    const clock = new ManualClock();
    let runs = 0;
    const chore = new PeriodicChore('test', 5, async () => void runs++, { clock });
    await chore.stop();
    await chore.stop();
    chore.start();
    expect(clock.pending).toBe(0);
    await clock.advance(1000);
    expect(runs).toBe(0);
  });

  it('runs at a fixed rate, skips ticks while a run is going, and stop waits for that run to end', async () => {
    const clock = new ManualClock();
    let running = 0;
    let most = 0;
    let runs = 0;
    const ends: (() => void)[] = [];
    const chore = new PeriodicChore(
      'slow',
      5,
      () => {
        runs++;
        running++;
        most = Math.max(most, running);
        return new Promise<void>((resolve) =>
          ends.push(() => {
            running--;
            resolve();
          }),
        );
      },
      { clock },
    );
    chore.start();
    await clock.advance(4);
    expect(runs).toBe(0);
    await clock.advance(1);
    expect(runs).toBe(1);
    // Ten ticks while the run goes on: all skipped, none piles up behind it.
    await clock.advance(50);
    expect(runs).toBe(1);
    ends.shift()!();
    await chore.whenIdle();
    // The next tick runs again, 5 ms after the one before it (fixed rate), not 5 ms after the run ended.
    await clock.advance(5);
    expect(runs).toBe(2);
    let stopped = false;
    const stopping = chore.stop().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    ends.shift()!();
    await stopping;
    expect(running).toBe(0);
    expect(most).toBe(1);
    await clock.advance(1000);
    expect(runs).toBe(2);
    expect(clock.pending).toBe(0);
  });

  it('runs once soon after the start when asked, and survives a failing run', async () => {
    const clock = new ManualClock();
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
      { firstAfterMs: 5, log: log as never, clock },
    );
    chore.start();
    await clock.advance(4);
    expect(runs).toBe(0);
    await clock.advance(1);
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
    // The failure is logged, and the next tick (10 s after the start) tries again.
    await clock.advance(9_994);
    expect(runs).toBe(1);
    await clock.advance(1);
    expect(runs).toBe(2);
    await chore.stop();
    expect(errors).toHaveLength(2);
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
