import { route } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/contract/openapi/build-openapi-document';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = route(operations.getOpenApiDocument, async () => (document ??= buildOpenApiDocument()));
