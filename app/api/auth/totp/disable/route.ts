import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { disableTotp } from '@/lib/domain/auth/disable-totp';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const POST = route(authOperations.disableTotp, ({ principal, body }) =>
  disableTotp({ userId: signedInMember(principal).userId, code: body.code }),
);
