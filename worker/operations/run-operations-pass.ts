// The operations pass: what no endpoint transition shows. Once per maintenance interval (a minute by
// default) one worker (a transaction-level advisory lock taken with try; the others skip) finds
// deliveries that went dead since the last pass and evaluates the alert rules, and records each finding
// as an operational event (hookline.emit_operational_event, migration 20261124130000_operational_events),
// which opens or touches an issue and becomes messages to the operational endpoints. Everything in one
// transaction: a crash before the commit repeats the pass, nothing is emitted twice.
// It also does what only the passing of time shows (migration 20261126120000_alert_notifications): an
// endpoint failing for HOOKLINE_ALERT_FAILING_AFTER with no success, one recovered (no failure for
// HOOKLINE_ALERT_RECOVERED_AFTER), an issue's change held back by HOOKLINE_ALERT_MIN_INTERVAL, and the
// reminders of issues that stay open. Endpoint transitions a row write shows (disabled, circuit,
// failing after so many failures in a row) are not here: a trigger on hookline.endpoints records them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from '../../lib/database/pg';
import { withTryLock } from '../advisory-lock';

const load = (name: string) => readFileSync(join(import.meta.dirname, 'sql', `${name}.sql`), 'utf8');
const sql = {
  findNewDeadDeliveries: load('find-new-dead-deliveries'),
  evaluateAlertRules: load('evaluate-alert-rules'),
  findEndpointAlertChanges: load('find-endpoint-alert-changes'),
  findDueIssueNotifications: load('find-due-issue-notifications'),
};

// Arbitrary, the same in every Hookline process, distinct from worker/maintenance.ts's.
const OPERATIONS_LOCK = 72_616_917_343;

// A delivery.dead event names at most this many of its deliveries; the issue keeps all of them.
const DEAD_IDS_PER_EVENT = 20;

export interface OperationsPassOptions {
  /**
   * How far before the previous pass dead deliveries are looked for again: a result is recorded up to
   * a flush plus an attempt's timeout (30 s at most by default) after its attempt started. 5 minutes.
   */
  deadLookbackSeconds?: number;
  /**
   * Operational events and issues' delivery links older than this are deleted (HOOKLINE_RETENTION, the
   * deliveries' own retention: a link to a deleted delivery leads nowhere); null or 0 keeps them.
   */
  retentionMs?: number | null;
}

// Rows per retention DELETE and pass: the pass stays short; a backlog goes over the next minutes.
const RETENTION_BATCH = 10_000;

export interface OperationsPassResult {
  deadEvents: number;
  deadDeliveries: number;
  alertsFired: string[];
  alertsResolved: string[];
  /** Endpoints that became failing by duration, and that recovered. */
  endpointsFailing: string[];
  endpointsRecovered: string[];
  /** Issue events sent for held-back changes and reminders (issue.resolved, issue.reopened, issue.reminder). */
  issueEvents: { issueId: string; type: string }[];
}

interface EndpointChange {
  id: string;
  app_id: string;
  consecutive_failures: number;
  last_error_class: string | null;
  circuit_state: string;
  failing_since: Date | null;
  last_failure_at: Date | null;
  alert_failing_since: Date | null;
  change: 'failing' | 'recovered';
}

interface DeadGroup {
  app_id: string;
  endpoint_id: string;
  error_class: string;
  delivery_ids: string[];
  last_status_code: number | null;
}

interface RuleRow {
  id: string;
  app_id: string;
  kind: 'success_rate_below' | 'oldest_waiting_above' | 'dead_per_hour_above';
  threshold: number;
  window_minutes: number;
  firing: boolean;
  description: string;
  value: number | null;
}

const EMIT = `SELECT hookline.emit_operational_event(
  app_id => $1, event_type => $2, data => $3::jsonb, endpoint_id => $4, issue_class => $5,
  issue_subject => $6, issue_title => $7, resolves_issue => $8, delivery_ids => $9::text[]) AS id`;

/** true: the condition holds; false: it does not; null: no evidence either way (state kept). */
export function ruleBreached(rule: Pick<RuleRow, 'kind' | 'threshold' | 'value'>): boolean | null {
  if (rule.value === null) return null;
  const value = Number(rule.value);
  return rule.kind === 'success_rate_below' ? value < rule.threshold : value > rule.threshold;
}

export function describeRule(rule: Pick<RuleRow, 'kind' | 'threshold' | 'window_minutes'>): string {
  switch (rule.kind) {
    case 'success_rate_below':
      return `success rate below ${rule.threshold} % over ${rule.window_minutes} min`;
    case 'oldest_waiting_above':
      return `oldest waiting delivery older than ${rule.threshold} s`;
    case 'dead_per_hour_above':
      return `more than ${rule.threshold} dead deliveries per hour`;
  }
}

/** Runs the pass unless another worker is running it; null when skipped. */
export async function runOperationsPass(
  pool: Pool,
  options: OperationsPassOptions = {},
): Promise<OperationsPassResult | null> {
  const lookback = options.deadLookbackSeconds ?? 300;
  return withTryLock(pool, OPERATIONS_LOCK, 'transaction', async (query) => {
    const result: OperationsPassResult = {
      deadEvents: 0,
      deadDeliveries: 0,
      alertsFired: [],
      alertsResolved: [],
      endpointsFailing: [],
      endpointsRecovered: [],
      issueEvents: [],
    };

    const { rows: changes } = await query<EndpointChange>(sql.findEndpointAlertChanges);
    for (const endpoint of changes) {
      if (endpoint.change === 'failing') await markFailing(query, endpoint, result);
      else await markRecovered(query, endpoint, result);
    }

    const { rows: groups } = await query<DeadGroup>(sql.findNewDeadDeliveries, [lookback]);
    // The watermark is this transaction's start: everything recorded before it was visible above.
    await query('UPDATE hookline.operations_state SET dead_scanned_until = now()');
    for (const group of groups) {
      const data = {
        error_class: group.error_class,
        count: group.delivery_ids.length,
        delivery_ids: group.delivery_ids.slice(0, DEAD_IDS_PER_EVENT),
        last_status_code: group.last_status_code,
      };
      const title = `Deliveries dead (${group.error_class})`;
      await query(EMIT, [
        group.app_id,
        'delivery.dead',
        JSON.stringify(data),
        group.endpoint_id,
        group.error_class,
        null,
        title,
        false,
        group.delivery_ids,
      ]);
      result.deadEvents++;
      result.deadDeliveries += group.delivery_ids.length;
    }

    const { rows: rules } = await query<RuleRow>(sql.evaluateAlertRules);
    for (const rule of rules) {
      const value = rule.value === null ? null : Number(rule.value);
      const breached = ruleBreached(rule);
      const fires = breached === true && !rule.firing;
      const clears = breached === false && rule.firing;
      await query(
        `UPDATE hookline.alert_rules
            SET last_value = $2, last_evaluated_at = now(), firing = $3,
                fired_at = CASE WHEN $4 THEN now() ELSE fired_at END
          WHERE id = $1`,
        [rule.id, value, fires ? true : clears ? false : rule.firing, fires],
      );
      if (!fires && !clears) continue;
      const condition = describeRule(rule);
      const data = {
        alert_rule_id: rule.id,
        kind: rule.kind,
        threshold: rule.threshold,
        window_minutes: rule.window_minutes,
        value,
        condition,
        description: rule.description,
      };
      await query(EMIT, [
        rule.app_id,
        fires ? 'alert.fired' : 'alert.resolved',
        JSON.stringify(data),
        null,
        'alert',
        rule.id,
        `Alert: ${condition}`,
        clears,
        [],
      ]);
      (fires ? result.alertsFired : result.alertsResolved).push(rule.id);
    }
    // Last, so that a change made above (a recovery that resolved an issue) is judged with the rest.
    const { rows: due } = await query<{ id: string; event_type: string }>(sql.findDueIssueNotifications);
    for (const issue of due) {
      await query('SELECT hookline.emit_issue_event($1, $2)', [issue.id, issue.event_type]);
      result.issueEvents.push({ issueId: issue.id, type: issue.event_type });
    }
    if (options.retentionMs) {
      const seconds = options.retentionMs / 1000;
      await query(
        `DELETE FROM hookline.operational_events WHERE id IN (
           SELECT id FROM hookline.operational_events WHERE created_at < now() - make_interval(secs => $1)
            ORDER BY created_at LIMIT $2)`,
        [seconds, RETENTION_BATCH],
      );
      await query(
        `DELETE FROM hookline.issue_deliveries WHERE (issue_id, delivery_id) IN (
           SELECT issue_id, delivery_id FROM hookline.issue_deliveries WHERE detected_at < now() - make_interval(secs => $1)
            ORDER BY detected_at LIMIT $2)`,
        [seconds, RETENTION_BATCH],
      );
    }
    return result;
  });
}

type Query = Pool['query'];

const utcMinute = (at: Date | null) => (at ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'a while');

function health(endpoint: EndpointChange) {
  return {
    consecutive_failures: endpoint.consecutive_failures,
    last_error_class: endpoint.last_error_class,
    circuit_state: endpoint.circuit_state,
    failing_since: endpoint.failing_since,
    last_failure_at: endpoint.last_failure_at,
  };
}

/** A streak with no success for HOOKLINE_ALERT_FAILING_AFTER: endpoint.failing, as the trigger does on a count. */
async function markFailing(query: Query, endpoint: EndpointChange, result: OperationsPassResult): Promise<void> {
  // Guarded: the trigger may have marked it since the read (a failure counted meanwhile).
  const { rowCount } = await query(
    `UPDATE hookline.endpoints SET alert_failing_since = now()
      WHERE id = $1 AND alert_failing_since IS NULL AND consecutive_failures > 0`,
    [endpoint.id],
  );
  if (!rowCount) return;
  const errorClass = endpoint.last_error_class ?? 'unknown';
  await query(EMIT, [
    endpoint.app_id,
    'endpoint.failing',
    JSON.stringify(health(endpoint)),
    endpoint.id,
    errorClass,
    null,
    `Failing: no success since ${utcMinute(endpoint.failing_since)} (${errorClass})`,
    false,
    [],
  ]);
  result.endpointsFailing.push(endpoint.id);
}

/**
 * No failure for HOOKLINE_ALERT_RECOVERED_AFTER: endpoint.recovered, one per unresolved issue of the
 * endpoint (each resolves its own issue, PagerDuty's incident of that dedup key), or with
 * HOOKLINE_ALERT_AUTO_RESOLVE off recorded on those issues, which stay open for an operator.
 */
async function markRecovered(query: Query, endpoint: EndpointChange, result: OperationsPassResult): Promise<void> {
  const { rowCount } = await query(
    `UPDATE hookline.endpoints SET alert_failing_since = NULL
      WHERE id = $1 AND alert_failing_since IS NOT NULL AND consecutive_failures = 0`,
    [endpoint.id],
  );
  if (!rowCount) return;
  const data = JSON.stringify({ ...health(endpoint), failing_since: endpoint.alert_failing_since });
  const { rows: issues } = await query<{ id: string; error_class: string; auto_resolve: boolean }>(
    `SELECT i.id, i.error_class, s.alert_auto_resolve AS auto_resolve
       FROM hookline.issues AS i CROSS JOIN hookline.operations_state AS s
      WHERE i.endpoint_id = $1 AND i.status <> 'resolved'
      ORDER BY i.id`,
    [endpoint.id],
  );
  if (issues.length === 0) {
    await query(EMIT, [endpoint.app_id, 'endpoint.recovered', data, endpoint.id, null, null, null, false, []]);
  }
  for (const issue of issues) {
    if (issue.auto_resolve) {
      await query(EMIT, [
        endpoint.app_id,
        'endpoint.recovered',
        data,
        endpoint.id,
        issue.error_class,
        null,
        null,
        true,
        [],
      ]);
    } else {
      await query(
        `SELECT hookline.emit_operational_event($1, 'endpoint.recovered', $2::jsonb, endpoint_id => $3, issue_id => $4)`,
        [endpoint.app_id, data, endpoint.id, issue.id],
      );
    }
  }
  result.endpointsRecovered.push(endpoint.id);
}
