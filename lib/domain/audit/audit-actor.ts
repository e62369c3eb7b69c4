// Who the audit log says made a change. The ONE place that turns the caller (lib/domain/auth/principal.ts)
// into an audit actor, so every row keeps the same columns (actor_type, actor_id, actor_label). A
// signed-in member is actor_type 'admin' (the name the single admin user had), labelled by email.
import type { Principal } from '../auth/principal';

export interface AuditActor {
  type: 'admin' | 'api_key' | 'portal' | 'system';
  /** The user's, API key's or portal session's id; null for 'system'. */
  id: string | null;
  /** What a person recognises: the user's email; for keys and portal sessions the id says enough. */
  label: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, label: null };

export function auditActorOf(principal: Principal | null): AuditActor {
  if (!principal) return SYSTEM_ACTOR;
  switch (principal.kind) {
    case 'admin':
      return { type: 'admin', id: principal.userId, label: principal.email };
    case 'api_key':
      return { type: 'api_key', id: principal.keyId, label: null };
    case 'portal':
      return { type: 'portal', id: principal.sessionId, label: `portal session for ${principal.appId}` };
  }
}
