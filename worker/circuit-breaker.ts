// The per-endpoint circuit breaker: stop burning attempts on an endpoint that is down, probe it now
// and then, resume when it answers. Its parts, and where each lives:
//   settings and defaults  HOOKLINE_CIRCUIT_* in lib/runtime/env.ts (the defaults' one home), passed in here
//   state changes          hookline.circuit_after_attempts (migration 20261124150000_worker_rules),
//                          applied by every result flush (worker/sql/record-results.sql)
//   the probe              worker/sql/take-circuit-probe.sql: one worker flips open -> half_open
//   before sending         CircuitGate below, for every delivery a worker took
// The state lives in the endpoint's row, so every worker sees the same circuit. Invariants:
//   - a delivery is never sent while its endpoint's circuit is open and its wait has not ended;
//   - once the wait has ended, exactly one delivery (the probe) is sent per wait, by whichever worker
//     wins take-circuit-probe.sql; the others go back to wait out the probe's deadline;
//   - waiting never spends an attempt: held deliveries go back to the queue due when the wait ends.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { realClock, type Clock } from './clock';
import type { ClaimedDelivery, EndpointSettings } from './deliver';
import { statements } from './statements';

export interface CircuitSettings {
  /** Failed attempts in a row that open an endpoint's circuit. */
  failureThreshold: number;
  /** How long the circuit stays open the first time; doubled after each failed probe. */
  openBaseMs: number;
  openMaxMs: number;
}

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface GatedDelivery {
  delivery: ClaimedDelivery;
  endpoint: EndpointSettings;
  circuitState: CircuitState;
  circuitOpenUntil: Date | null;
}

export interface GateDecision {
  /** Closed circuits, and probes this worker won. */
  send: { delivery: ClaimedDelivery; endpoint: EndpointSettings }[];
  /** Back to the queue without spending an attempt, due when the circuit's wait ends. */
  wait: { id: string; dueAt: Date }[];
}

export class CircuitGate {
  constructor(
    private readonly pool: Pool,
    private readonly defaultTimeoutMs: number,
    private readonly log: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  async sort(deliveries: GatedDelivery[]): Promise<GateDecision> {
    const now = this.clock.now();
    const decision: GateDecision = { send: [], wait: [] };
    const dueForProbe = new Map<string, GatedDelivery[]>();
    for (const gated of deliveries) {
      if (gated.circuitState === 'closed') {
        decision.send.push(gated);
        continue;
      }
      const openUntil = gated.circuitOpenUntil?.getTime() ?? 0;
      if (openUntil > now) {
        // Open, or a probe is out: wait without spending an attempt.
        decision.wait.push({ id: gated.delivery.id, dueAt: new Date(openUntil) });
        continue;
      }
      const group = dueForProbe.get(gated.endpoint.id) ?? [];
      group.push(gated);
      dueForProbe.set(gated.endpoint.id, group);
    }
    for (const [endpointId, [first, ...rest]] of dueForProbe) {
      // The probe holds the circuit for its attempt's deadline; if its worker dies, the next probe
      // is due then.
      const probeMs = (first!.endpoint.timeoutMs ?? this.defaultTimeoutMs) + 1000;
      let won = false;
      try {
        won = (await statements.takeCircuitProbe.run(this.pool, { endpointId, probeMs })).rowCount === 1;
      } catch (error) {
        this.log.warn('taking the circuit probe failed', { error, endpointId });
      }
      const waiting = won ? rest : [first!, ...rest];
      if (won) {
        this.log.info('circuit half-open: sending one probe', { endpointId });
        decision.send.push(first!);
      }
      const dueAt = new Date(this.clock.now() + probeMs);
      for (const { delivery } of waiting) decision.wait.push({ id: delivery.id, dueAt });
    }
    return decision;
  }
}
