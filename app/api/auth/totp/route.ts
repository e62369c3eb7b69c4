import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { startTotpEnrolment } from '@/lib/domain/auth/start-totp-enrolment';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const POST = route(authOperations.startTotpEnrolment, ({ principal }) =>
  startTotpEnrolment({ userId: signedInMember(principal).userId }),
);
