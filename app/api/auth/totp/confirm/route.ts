import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { confirmTotp } from '@/lib/domain/auth/confirm-totp';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const POST = route(authOperations.confirmTotp, ({ principal, body }) =>
  confirmTotp({ userId: signedInMember(principal).userId, code: body.code }),
);
