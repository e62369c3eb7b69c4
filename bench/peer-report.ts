// Issue 22's comparison table: the graphile-worker peer beside Hookline's numbers from the same run
// (its pg_net case with the hookline.send trigger, and its drain of the same size with one worker).
import { table } from './report';
import type { Summary } from './repeat';
import type { PeerResult } from './graphile-peer';
import { drainLabel, formatCount, type CaseResult } from './scenarios';

const fmt = (value: number | undefined, digits = 0) =>
  value === undefined || !Number.isFinite(value)
    ? '-'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });

export function peerTable(
  peers: Summary<PeerResult>[],
  cases: Summary<CaseResult>[],
  options: { peerEvents: number; clients: number; transactions: number },
): string {
  const live = cases.find((c) => c.name === 'pg_net (hookline.send)')?.median;
  const drainName = drainLabel({ events: options.peerEvents, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 });
  const drain = cases.find((c) => c.name === drainName)?.median;
  const rows: string[][] = [
    [
      `pgbench ${options.clients} x ${formatCount(options.transactions)}, to_jsonb(NEW)`,
      `producer TPS (no trigger ${fmt(live?.producer?.tpsWithoutTrigger)})`,
      'pgbench start → last delivery',
      `drain ${formatCount(options.peerEvents)}, one worker /s`,
      'CPU µs/delivery',
      'WAL B/event',
      'dup sends',
    ],
    ...peers.map(({ median: p }) => [
      p.name,
      `${fmt(p.producerTps)} (${fmt(p.percentOfNoTrigger, 1)} %)`,
      `${fmt(p.startToLastCompletedMs / 1000, 1)} s`,
      fmt(p.drainPerSecond),
      fmt(p.cpuMicrosPerDelivery),
      fmt(p.walBytesPerEvent),
      fmt(p.duplicates),
    ]),
    [
      'Hookline',
      `${fmt(live?.producer?.tpsWithTrigger)} (${fmt(live?.producer?.percentOfNoTrigger, 1)} %)`,
      live?.startToLastRecordedMs === undefined ? '-' : `${fmt(live.startToLastRecordedMs / 1000, 1)} s`,
      fmt(drain?.deliveriesPerSecond),
      fmt(drain?.cpuMicrosPerDelivery),
      fmt(drain?.walBytesPerEvent),
      fmt((live?.duplicates ?? 0) + (drain?.duplicates ?? 0)),
    ],
  ];
  return (
    `Peer, same run${peers[0] && peers[0].runs.length > 1 ? ` (medians of ${peers[0].runs.length})` : ''}: a delivery ` +
    `counts when its result is recorded (Hookline) or its job row is deleted (graphile-worker); CPU is the ` +
    `worker process and every PostgreSQL process over the drain; WAL end to end over the drain, queueing included.\n` +
    table(rows)
  );
}
