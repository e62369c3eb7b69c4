// Issue 22's soak criteria, written for 30 minutes and scaled to the run's length:
//   - 0 lost and 0 duplicated: the receiver answered every committed event exactly once, and every
//     one's result was recorded (succeeded; none dead or unfinished);
//   - latency: the p99 of every delivery recorded in the last 5 minutes within 1.5x of the p99 of
//     those recorded in minutes 5-10 (the 6th to the 10th minute);
//   - storage: Hookline's tables and indexes at the last minute within 1.2x of minute 15;
//   - no statement waited on a lock held by retention.
// A shorter run scales every window by minutes/30 (at least one minute each); retention is scaled
// the same way by the soak itself (minutes/3), so it still turns over three times.

export interface SoakWindows {
  /** Minutes (1-based, inclusive) whose p99 is the baseline: 6-10 of 30. */
  baseline: [number, number];
  /** The last minutes, judged against the baseline: 26-30 of 30. */
  last: [number, number];
  /** The minute whose size the last minute's is compared with: 15 of 30. */
  sizeAt: number;
  /** minutes / 30: 1 for the run. */
  scale: number;
}

export function soakWindows(minutes: number): SoakWindows {
  const scale = minutes / 30;
  const baselineFrom = Math.floor(5 * scale) + 1;
  const baselineTo = Math.max(baselineFrom, Math.round(10 * scale));
  const lastFrom = Math.max(baselineTo + 1, minutes - Math.max(1, Math.round(5 * scale)) + 1);
  return {
    baseline: [baselineFrom, baselineTo],
    last: [lastFrom, minutes],
    sizeAt: Math.min(minutes - 1, Math.max(1, Math.round(15 * scale))),
    scale,
  };
}

export interface SoakCriterion {
  criterion: string;
  measured: string;
  passed: boolean;
}

export interface SoakTotals {
  committed: number;
  receivedOnce: number;
  duplicates: number;
  recorded: number;
  dead: number;
  unfinished: number;
  p99Baseline: number;
  p99Last: number;
  bytesAtSizeMinute: number;
  bytesAtEnd: number;
  retentionLockWaits: number;
  otherLockWaits: number;
  deletedRows: number;
  /** Time partitions of messages at the end of each producing minute. */
  timePartitions: number[];
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export function judgeSoak(minutes: number, totals: SoakTotals): SoakCriterion[] {
  const windows = soakWindows(minutes);
  const lost = Math.max(0, totals.committed - Math.min(totals.receivedOnce, totals.recorded));
  const range = ([from, to]: [number, number]) => (from === to ? `minute ${from}` : `minutes ${from}-${to}`);
  const latencyRatio = totals.p99Last / totals.p99Baseline;
  const sizeRatio = totals.bytesAtEnd / totals.bytesAtSizeMinute;
  return [
    {
      criterion: '0 lost, 0 duplicated',
      measured:
        `${totals.committed.toLocaleString('en-US')} committed, ${totals.receivedOnce.toLocaleString('en-US')} received, ` +
        `${totals.recorded.toLocaleString('en-US')} recorded, ${totals.dead} dead, ${totals.unfinished} unfinished, ` +
        `${totals.duplicates} duplicate sends: ${lost} lost`,
      passed:
        lost === 0 &&
        totals.duplicates === 0 &&
        totals.receivedOnce === totals.committed &&
        totals.recorded === totals.committed &&
        totals.dead === 0 &&
        totals.unfinished === 0,
    },
    {
      criterion: `p99 of ${range(windows.last)} <= 1.5x p99 of ${range(windows.baseline)}`,
      measured: `${totals.p99Last} ms vs ${totals.p99Baseline} ms: ${latencyRatio.toFixed(2)}x`,
      passed: Number.isFinite(latencyRatio) && latencyRatio <= 1.5,
    },
    {
      criterion: `table size at minute ${minutes} <= 1.2x minute ${windows.sizeAt}`,
      measured:
        `${mb(totals.bytesAtEnd)} vs ${mb(totals.bytesAtSizeMinute)}: ${sizeRatio.toFixed(2)}x` +
        (totals.timePartitions.length > 0
          ? ` (${totals.timePartitions.at(-1)} time partitions at the end, at most ${Math.max(...totals.timePartitions)}; ` +
            `${totals.deletedRows} rows deleted)`
          : totals.deletedRows === 0
            ? ' (retention deleted nothing)'
            : ''),
      passed: Number.isFinite(sizeRatio) && sizeRatio <= 1.2,
    },
    {
      criterion: 'no Hookline or producer statement waited on retention',
      measured: `${totals.retentionLockWaits} waits on retention, ${totals.otherLockWaits} other lock waits (sampled every 100 ms)`,
      passed: totals.retentionLockWaits === 0,
    },
  ];
}
