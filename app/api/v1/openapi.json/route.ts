import { route } from '@/lib/api/route';
import { buildOpenApiDocument } from '@/lib/openapi/build-openapi-document';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = route(operations.getOpenApiDocument, async () => (document ??= buildOpenApiDocument()));
