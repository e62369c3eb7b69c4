import { route } from '@/lib/api/route';
import { getMessage } from '@/lib/messages/get-message';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getMessage, ({ params }) => getMessage(params));
