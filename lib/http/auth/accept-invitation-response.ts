import { getApiSettings } from '../../runtime/api-settings';
import { takeToken } from '../rate-limit';
import { HttpError, rateLimited } from '../http-error';
import { assertSameOrigin } from './authenticate-request';
import { clientInfo } from './client-info';
import { withSessionCookie } from './sign-in-response';
import { openSession } from '../../domain/auth/open-session';
import { acceptInvitation } from '../../domain/members/accept-invitation';

// Tokens are 32 random bytes, so guessing is hopeless; the limit (for every caller together) only keeps
// a flood of accepts, each paying ~60 ms and 64 MB of argon2id, from taking the machine.
const ACCEPTS_PER_SECOND = 10;

/** Accepts an invitation (a new member with the password chosen now) and signs it in. */
export async function acceptInvitationResponse(request: Request, body: { token: string; password: string }) {
  // With SSO only, a password would open nothing: the invitation is accepted at the first SSO sign-in
  // with its email (lib/domain/auth/sso/finish-sso-sign-in.ts), and the link stays open for it.
  if (!getApiSettings().passwordSignIn) {
    throw new HttpError(
      'password_sign_in_disabled',
      'Password sign-in is turned off here; sign in with SSO using the invited email to join',
    );
  }
  if (request.headers.get('origin') !== null) assertSameOrigin(request);
  const wait = await takeToken('accept-invitation', ACCEPTS_PER_SECOND);
  if (wait > 0) throw rateLimited('Too many attempts; wait a moment', wait);
  const { userId } = await acceptInvitation(body);
  const ttlHours = getApiSettings().sessionTtlHours;
  const { token } = await openSession({ userId, ttlHours, ...clientInfo(request) });
  return withSessionCookie(request, token, ttlHours);
}
