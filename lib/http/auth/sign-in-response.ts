import { getApiSettings } from '../../runtime/api-settings';
import { takeToken } from '../rate-limit';
import { HttpError, rateLimited } from '../http-error';
import { assertSameOrigin, isSecureRequest } from './authenticate-request';
import { clientInfo } from './client-info';
import { sessionCookie } from './session-cookie';
import { signIn } from '../../domain/auth/sign-in';

// Guesses per second per email. argon2id already costs ~60 ms per try; this caps a guesser at a few
// tries a second without making a mistyped password wait. The same bucket covers the TOTP code, so
// its 10^6 values cannot be walked faster than passwords.
const SIGN_IN_ATTEMPTS_PER_SECOND = 3;

/** Signs in and answers 204 with the session cookie. Refuses cross-site posts (login CSRF). */
export async function signInResponse(
  request: Request,
  { email, password, code }: { email: string; password: string; code?: string },
) {
  if (!getApiSettings().passwordSignIn) {
    throw new HttpError(
      'password_sign_in_disabled',
      'Password sign-in is turned off here (HOOKLINE_PASSWORD_SIGN_IN=false); sign in with SSO',
    );
  }
  if (request.headers.get('origin') !== null) assertSameOrigin(request);
  const wait = await takeToken(`sign-in:${email.trim().toLowerCase()}`, SIGN_IN_ATTEMPTS_PER_SECOND);
  if (wait > 0) {
    throw rateLimited('Too many sign-in attempts; wait a moment', wait);
  }
  const ttlHours = getApiSettings().sessionTtlHours;
  const { token } = await signIn({ email, password, code, ttlHours, ...clientInfo(request) });
  return withSessionCookie(request, token, ttlHours);
}

export function withSessionCookie(request: Request, token: string, ttlHours: number): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Set-Cookie': sessionCookie(token, ttlHours * 3600, isSecureRequest(request)),
      'Cache-Control': 'no-store',
    },
  });
}
