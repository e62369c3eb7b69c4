// SIGTERM/SIGINT: the first signal drains (finish or release in-flight work, flush, exit 0); a
// second one forces (release in-flight work so another worker sends it, flush, exit 0). A stop that
// could not write every result (the database did not answer before the deadline) exits 1: the
// deliveries were sent and will be sent again, which a supervisor should hear about.
import type { Logger } from '../lib/runtime/log';

export interface Stoppable {
  /** Resolves with how many results were never written (0: a clean stop). */
  stop(options: { force?: boolean; deadlineMs?: number }): Promise<{ unwritten: number }>;
}

export function stopOnSignals(
  targets: Stoppable[],
  log: Logger,
  options: { deadlineMs: number; onStopped: (exitCode: number) => void },
) {
  let stopping = false;
  const stopAll = (stopOptions: { force?: boolean; deadlineMs?: number }) =>
    Promise.all(targets.map((target) => target.stop(stopOptions))).then(
      (summaries) => (summaries.some((summary) => summary.unwritten > 0) ? 1 : 0),
      (error: unknown) => {
        log.error('error while stopping', { error });
        return 1;
      },
    );
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn('second signal: forcing stop', { signal });
      void stopAll({ force: true }).then(options.onStopped);
      return;
    }
    stopping = true;
    log.info('stopping', { signal });
    void stopAll({ deadlineMs: options.deadlineMs }).then(options.onStopped);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
