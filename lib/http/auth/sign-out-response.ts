import { assertSameOrigin, isSecureRequest } from './authenticate-request';
import { clearedSessionCookie, readSessionCookie } from './session-cookie';
import { signOut } from '../../domain/auth/sign-out';
import { revokeSessions } from '../../domain/auth/revoke-sessions';

export async function signOutResponse(request: Request) {
  const token = readSessionCookie(request.headers.get('cookie'));
  if (token) {
    assertSameOrigin(request);
    await signOut(token);
  }
  return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(isSecureRequest(request)) } });
}

/** Ends every session of the member, this one included, and clears this browser's cookie. */
export async function signOutEverywhereResponse(request: Request, userId: string) {
  await revokeSessions({ userId });
  return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(isSecureRequest(request)) } });
}
