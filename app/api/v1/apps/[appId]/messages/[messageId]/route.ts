import { route } from '@/lib/http/route';
import { getMessage } from '@/lib/domain/messages/get-message';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getMessage, ({ params }) => getMessage(params));
