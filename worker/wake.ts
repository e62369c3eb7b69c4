// Tells the loop when to look for work: a NOTIFY on `hookline_deliveries` (sent by a statement
// trigger when deliveries are inserted), a poll timer, and a timer for the next scheduled retry.
// A NOTIFY is only a latency hint: notifications are lost while the LISTEN connection is down, so
// the poll stays the guarantee.
import pg from 'pg';
import type { Logger } from '../lib/runtime/log';
import { CONNECTION_NAMES, connectionName, SILENT_CONNECTION_LIMITS } from '../lib/database/pg';
import { realClock, type Clock } from './clock';
import { databaseBackoffMs } from './database-backoff';

export const CHANNEL = 'hookline_deliveries';

// A LISTEN connection only receives, so one that went silent (no FIN, no RST: a NAT timeout, a
// failover) looks exactly like a quiet database. It is asked a question this often, and dropped and
// opened again when no answer comes within CHECK_TIMEOUT_MS. The poll keeps delivering meanwhile.
const CHECK_EVERY_MS = 5_000;
const CHECK_TIMEOUT_MS = 3_000;

export class Wake {
  private waiter: (() => void) | null = null;
  private signalled = false;
  private client: pg.Client | null = null;
  private stopped = false;
  /** Failed connects in a row, for the back-off (database-backoff.ts). */
  private failures = 0;
  private checkTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
    /** Times the loop's waits (clock.ts); the LISTEN connection's own checks and reconnects keep Node's. */
    private readonly clock: Clock = realClock,
  ) {}

  /** Whether the LISTEN connection is up (so the database is reachable, as far as we know). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Wakes the loop now (or the next time it waits). */
  signal(): void {
    this.signalled = true;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  /** Resolves on a signal or after `timeoutMs`, whichever is first. */
  wait(timeoutMs: number): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = this.clock.after(timeoutMs, () => {
        this.waiter = null;
        resolve();
      });
      this.waiter = () => {
        timer.cancel();
        this.signalled = false;
        resolve();
      };
    });
  }

  async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: connectionName(CONNECTION_NAMES.worker),
      ...SILENT_CONNECTION_LIMITS,
      connectionTimeoutMillis: CHECK_TIMEOUT_MS,
    });
    client.on('notification', () => this.signal());
    client.on('error', (error) => {
      this.log.warn('LISTEN connection lost; polling until it is back', { error });
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
      this.failures = 0;
      this.checkTimer ??= setInterval(() => void this.check(), CHECK_EVERY_MS);
      this.checkTimer.unref();
      // Deliveries may have been inserted while we were not listening.
      this.signal();
    } catch (error) {
      this.log.warn('LISTEN failed; polling until it works', { error });
      this.reconnect(client);
    }
  }

  /** Drops the LISTEN connection if it does not answer a query in time. */
  private async check(): Promise<void> {
    const client = this.client;
    if (!client || this.stopped) return;
    try {
      await client.query({ text: 'SELECT 1', query_timeout: CHECK_TIMEOUT_MS } as pg.QueryConfig);
    } catch (error) {
      if (this.client !== client) return;
      this.log.warn('LISTEN connection silent; opening a new one', { error });
      // end() would wait for the server to acknowledge; a silent connection never will.
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      this.reconnect(client);
    }
  }

  private reconnect(client: pg.Client): void {
    if (this.stopped || (this.client !== client && this.client !== null)) return;
    this.client = null;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    setTimeout(() => void this.listen(), databaseBackoffMs(++this.failures)).unref();
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.signal();
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
