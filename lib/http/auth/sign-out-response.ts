import { assertSameOrigin, isSecureRequest } from './authenticate-request';
import { clearedSessionCookie, readSessionCookie } from './session-cookie';
import { signOut } from '../../domain/auth/sign-out';

export async function signOutResponse(request: Request) {
  const token = readSessionCookie(request.headers.get('cookie'));
  if (token) {
    assertSameOrigin(request);
    await signOut(token);
  }
  return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(isSecureRequest(request)) } });
}
