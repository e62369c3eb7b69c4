import { z } from 'zod';
import { defineOperation } from '../operation';
import { apiKey, createApiKeyBody, createdApiKey } from '../schemas/api-keys';
import { page, pageQuery, pathId } from '../schemas/common';
import { readErrors, readOneErrors, writeErrors } from './common';

const apiKeyParams = z.object({ keyId: pathId });

export const apiKeyOperations = {
  listApiKeys: defineOperation({
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'List API keys (never the keys themselves)',
    access: 'deployment',
    query: pageQuery,
    status: 200,
    response: page(apiKey),
    errors: readErrors,
  }),
  createApiKey: defineOperation({
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'Create an API key; the key is in this response only',
    access: 'deployment',
    body: createApiKeyBody,
    status: 201,
    response: createdApiKey,
    errors: writeErrors,
  }),
  revokeApiKey: defineOperation({
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/api-keys/{keyId}',
    tag: 'API keys',
    summary: 'Revoke an API key (effective immediately)',
    access: 'deployment',
    params: apiKeyParams,
    status: 200,
    response: apiKey,
    errors: readOneErrors,
  }),
};
