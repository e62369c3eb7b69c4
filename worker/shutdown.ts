// SIGTERM/SIGINT: the first signal drains (finish or release in-flight work, flush, exit 0); a
// second one forces (release in-flight work so another worker sends it, flush, exit 0).
import type { Logger } from '../lib/runtime/log';

export interface Stoppable {
  stop(options: { force?: boolean; deadlineMs?: number }): Promise<void>;
}

export function stopOnSignals(
  targets: Stoppable[],
  log: Logger,
  options: { deadlineMs: number; onStopped: () => void },
) {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn('second signal: forcing stop', { signal });
      void Promise.all(targets.map((target) => target.stop({ force: true }))).finally(options.onStopped);
      return;
    }
    stopping = true;
    log.info('stopping', { signal });
    void Promise.all(targets.map((target) => target.stop({ deadlineMs: options.deadlineMs })))
      .catch((error: unknown) => log.error('error while stopping', { error }))
      .finally(options.onStopped);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
