// Who is making the changes of the current request, and from where. The route wrapper
// (lib/http/route.ts) runs every handler inside `withAuditContext`, so a domain function records its
// audit row without each of its ~30 callers passing the actor along; a change made outside a request
// (a script, a test calling the domain directly) is recorded as the 'system' actor.
import { AsyncLocalStorage } from 'node:async_hooks';
import { SYSTEM_ACTOR, type AuditActor } from './audit-actor';

export interface AuditContext {
  actor: AuditActor;
  /** The client's address as this server saw it (or as a trusted proxy said); null when unknown. */
  remoteAddress: string | null;
}

const storage = new AsyncLocalStorage<AuditContext>();

export function withAuditContext<T>(context: AuditContext, run: () => T): T {
  return storage.run(context, run);
}

export function currentAuditContext(): AuditContext {
  return storage.getStore() ?? { actor: SYSTEM_ACTOR, remoteAddress: null };
}
