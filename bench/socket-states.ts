// Samples the kernel's TCP table (/proc/net/tcp and tcp6) for sockets to or from one port: the
// pg_net benchmark's failure was >1,000 sockets in TIME_WAIT (state 06) and ephemeral ports running
// out, so the peak TIME_WAIT count while delivering is the number that shows it does not recur.
import { readFile } from 'node:fs/promises';

const TIME_WAIT = '06';
const ESTABLISHED = '01';

export interface SocketSample {
  timeWait: number;
  /** The TIME_WAIT sockets themselves ("local remote" addresses), to tell new ones from old. */
  timeWaitSockets: Set<string>;
  /** Established connections whose local end is the port (the server side only). */
  established: number;
}

export async function sampleSockets(port: number): Promise<SocketSample> {
  const sample: SocketSample = { timeWait: 0, timeWaitSockets: new Set(), established: 0 };
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4) continue;
      const localPort = parseInt(fields[1]!.split(':')[1]!, 16);
      const remotePort = parseInt(fields[2]!.split(':')[1]!, 16);
      if (localPort !== port && remotePort !== port) continue;
      if (fields[3] === TIME_WAIT) {
        sample.timeWait++;
        sample.timeWaitSockets.add(`${fields[1]} ${fields[2]}`);
      } else if (fields[3] === ESTABLISHED && localPort === port) sample.established++;
    }
  }
  return sample;
}

export interface SocketWatch {
  stop(): Promise<{ peakTimeWait: number; peakEstablished: number; samples: number }>;
}

/**
 * Samples every `intervalMs` until stopped and keeps the peaks. TIME_WAIT counts only sockets that
 * were not already there when the watch began: a socket lingers 60 s after it closed, so one case
 * would otherwise be charged with the connections the previous case closed when its workers stopped.
 */
export function watchSockets(port: number, intervalMs = 100): SocketWatch {
  let before: Set<string> | null = null;
  const newTimeWait = (sample: SocketSample) =>
    [...sample.timeWaitSockets].filter((socket) => !before!.has(socket)).length;
  let peakTimeWait = 0;
  let peakEstablished = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const sample = await sampleSockets(port);
      before ??= sample.timeWaitSockets;
      samples++;
      peakTimeWait = Math.max(peakTimeWait, newTimeWait(sample));
      peakEstablished = Math.max(peakEstablished, sample.established);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const last = await sampleSockets(port);
      return {
        peakTimeWait: Math.max(peakTimeWait, before ? newTimeWait(last) : 0),
        peakEstablished: Math.max(peakEstablished, last.established),
        samples: samples + 1,
      };
    },
  };
}
