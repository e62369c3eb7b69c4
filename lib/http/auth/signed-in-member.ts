import type { Principal } from '../../domain/auth/principal';
import { HttpError } from '../http-error';

type Member = Extract<Principal, { kind: 'admin' }>;

/** The member behind a request to a 'self' operation (permissions.ts refuses keys before this). */
export function signedInMember(principal: Principal): Member {
  if (principal.kind !== 'admin') throw new HttpError('forbidden', 'Only a signed-in member has an account here');
  return principal;
}
