// What the per-resource operation files share: the path parameters of the resources others nest
// under, and the error statuses most operations can answer.
import { z } from 'zod';
import { pathId } from '../schemas/common';

export const appParams = z.object({ appId: pathId });
export const endpointParams = appParams.extend({ endpointId: pathId });

// 401, 403 (CSRF for cookie sessions) and 429 can happen on every authenticated operation.
export const readErrors = [400, 401, 403, 429];
export const readOneErrors = [401, 403, 404, 429];
export const writeErrors = [400, 401, 403, 404, 413, 415, 422, 429];
