// The alert settings live in the database (hookline.operations_state, migration
// 20261126120000_alert_notifications) because what reads them runs there: the trigger on
// hookline.endpoints, hookline.emit_operational_event and the operations pass. Every worker writes them
// at start from its configuration; workers started with different values leave the last one's.
import type { Config } from '../../lib/runtime/env';
import type { Pool } from '../../lib/database/pg';

export interface AlertSettings {
  failingAfterFailures: number;
  failingAfterMs: number;
  recoveredAfterMs: number;
  minIntervalMs: number;
  /** 0: no reminders. */
  reminderIntervalMs: number;
  autoResolve: boolean;
  /** The dashboard's origin, for the links in operational payloads. */
  publicUrl: string;
}

export function alertSettingsFromConfig(config: Config): AlertSettings {
  // A server listening on every interface is reached on this machine at the loopback address.
  const host = ['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  return {
    failingAfterFailures: config.HOOKLINE_ALERT_FAILING_AFTER_FAILURES,
    failingAfterMs: config.HOOKLINE_ALERT_FAILING_AFTER,
    recoveredAfterMs: config.HOOKLINE_ALERT_RECOVERED_AFTER,
    minIntervalMs: config.HOOKLINE_ALERT_MIN_INTERVAL,
    reminderIntervalMs: config.HOOKLINE_ALERT_REMINDER_INTERVAL,
    autoResolve: config.HOOKLINE_ALERT_AUTO_RESOLVE,
    publicUrl: config.HOOKLINE_PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`,
  };
}

export async function configureAlerts(pool: Pool, settings: AlertSettings): Promise<void> {
  await pool.query(
    `UPDATE hookline.operations_state
        SET alert_failing_after_failures = $1,
            alert_failing_after_ms = $2,
            alert_recovered_after_ms = $3,
            alert_min_interval_ms = $4,
            alert_reminder_interval_ms = $5,
            alert_auto_resolve = $6,
            public_url = $7`,
    [
      settings.failingAfterFailures,
      Math.round(settings.failingAfterMs),
      Math.round(settings.recoveredAfterMs),
      Math.round(settings.minIntervalMs),
      Math.round(settings.reminderIntervalMs),
      settings.autoResolve,
      settings.publicUrl.replace(/\/+$/, ''),
    ],
  );
}
