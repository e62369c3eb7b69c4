import { z } from 'zod';
import { defineOperation } from '../operation';

export const openApiDocumentOperations = {
  getOpenApiDocument: defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    access: 'public',
    status: 200,
    response: z.record(z.string(), z.unknown()),
    errors: [],
  }),
};
