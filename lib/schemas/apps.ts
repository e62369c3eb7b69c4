import { z } from 'zod';
import { timestamp } from './common';

export const app = z.object({ id: z.string(), name: z.string(), createdAt: timestamp, updatedAt: timestamp });

export const createAppBody = z.strictObject({ name: z.string().trim().min(1).max(200) });
export const updateAppBody = z.strictObject({ name: z.string().trim().min(1).max(200) });
