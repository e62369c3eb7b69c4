import { z } from 'zod';
import { timestamp, type ResponseBody } from './common';

export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  appId: z.string().nullable(),
  prefix: z.string().describe('The first characters of the key, to recognise it'),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  createdBy: z.string().nullable().describe('The member who created the key; null when a key or npm start did'),
});
export type ApiKey = ResponseBody<typeof apiKey>;

export const createApiKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  appId: z
    .string()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .describe('Limit the key to this app; omit for deployment-wide'),
});

export const createdApiKey = z.object({ apiKey, key: z.string().describe('The key; shown only in this response') });
export type CreatedApiKey = ResponseBody<typeof createdApiKey>;
