// Writes the audit row of one change, inside the transaction that makes the change: the row commits
// with it or not at all (migration 20261127120000_audit_events). The actor and address come from the
// request (./audit-context.ts).
import type { Prisma } from '../../generated/prisma/client';
import { currentAuditContext } from './audit-context';

type Fields = Record<string, unknown>;

export interface AuditChange {
  /** verb-noun in the past: 'endpoint.created', 'endpoint.secret_rotated', 'api_key.revoked', ... */
  action: string;
  resourceType: string;
  resourceId: string;
  /** The app the resource belongs to; null for deployment-wide resources (deployment keys, ...). */
  appId: string | null;
  /** The resource before the change (null when created) and after (null when deleted). */
  before?: Fields | null;
  after?: Fields | null;
  /** Also raises the operational event audit.sensitive_change, with this as its reason. */
  sensitive?: string;
}

/** The app_id of an operational event about the whole deployment (no app has this id). */
export const DEPLOYMENT = 'deployment';

// Never in a row, whatever a caller passes: signing secrets, key hashes, tokens, passwords.
const SECRET_FIELD = /secret|password|hash|token/i;

export async function recordAuditEvent(tx: Prisma.TransactionClient, change: AuditChange): Promise<string> {
  const { actor, remoteAddress } = currentAuditContext();
  const changes = changedFields(change.before ?? null, change.after ?? null);
  const row = await tx.auditEvent.create({
    data: {
      appId: change.appId,
      actorType: actor.type,
      actorId: actor.id,
      actorLabel: actor.label,
      action: change.action,
      resourceType: change.resourceType,
      resourceId: change.resourceId,
      changes: changes as Prisma.InputJsonValue,
      remoteAddress,
    },
    select: { id: true },
  });
  if (change.sensitive) {
    const data = {
      audit_event_id: row.id,
      action: change.action,
      resource_type: change.resourceType,
      resource_id: change.resourceId,
      actor_type: actor.type,
      actor_id: actor.id,
      actor_label: actor.label,
      remote_address: remoteAddress,
      reason: change.sensitive,
    };
    // A deployment-wide change belongs to no app. It must not be filed under the operations app:
    // events of that app are recorded but never sent (hookline.emit_operational_event keeps a failing
    // Slack hook from paging about itself). DEPLOYMENT reaches the deployment-wide operational
    // endpoints, and no app-scoped one.
    await tx.$queryRaw`SELECT hookline.emit_operational_event(${change.appId ?? DEPLOYMENT}, 'audit.sensitive_change',
                         ${JSON.stringify(change.appId ? data : { ...data, app_name: 'every app' })}::jsonb,
                         by_operator => true)`;
  }
  return row.id;
}

/**
 * {before, after} of the fields that differ (all fields for a creation or a deletion), as JSON values,
 * without secrets. Exported for the tests.
 */
export function changedFields(
  before: Fields | null,
  after: Fields | null,
): { before: Fields | null; after: Fields | null } {
  const b = toJson(before);
  const a = toJson(after);
  if (b === null || a === null) return { before: redact(b), after: redact(a) };
  const changedBefore: Fields = {};
  const changedAfter: Fields = {};
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (JSON.stringify(b[key]) === JSON.stringify(a[key])) continue;
    if (key in b) changedBefore[key] = b[key];
    if (key in a) changedAfter[key] = a[key];
  }
  return { before: redact(changedBefore), after: redact(changedAfter) };
}

// Said by the row itself (resource_id, created_at), or changed by every change.
const ROW_FIELDS = ['id', 'createdAt', 'updatedAt'];

function toJson(fields: Fields | null): Fields | null {
  if (fields === null) return null;
  const json = JSON.parse(
    JSON.stringify(fields, (key, value: unknown) => (SECRET_FIELD.test(key) ? undefined : value)),
  ) as Fields;
  for (const key of ROW_FIELDS) delete json[key];
  return json;
}

// An endpoint's custom headers often carry a receiver's credentials (Authorization, X-Api-Key): the log
// names the headers, never their values. Compared before this, so a changed value still shows as a change.
function redact(fields: Fields | null): Fields | null {
  if (fields === null || !isObject(fields.headers)) return fields;
  return { ...fields, headers: Object.fromEntries(Object.keys(fields.headers).map((name) => [name, '(hidden)'])) };
}

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
