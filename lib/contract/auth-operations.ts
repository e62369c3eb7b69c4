// The dashboard's sign-in routes (/api/auth/*). Not part of /api/v1 or its OpenAPI document: they
// exist for the browser, which then calls /api/v1 with the session cookie.
import { z } from 'zod';
import { defineOperation } from './operation';

export const authOperations = {
  signIn: defineOperation({
    operationId: 'signIn',
    method: 'POST',
    path: '/api/auth/sign-in',
    tag: 'Auth',
    summary: 'Sign in as the admin; sets the session cookie',
    access: 'public',
    body: z.strictObject({ email: z.string().min(1).max(320), password: z.string().min(1).max(1024) }),
    status: 204,
    errors: [400, 401, 403, 413, 415, 422, 429],
  }),
  signOut: defineOperation({
    operationId: 'signOut',
    method: 'POST',
    path: '/api/auth/sign-out',
    tag: 'Auth',
    summary: 'End the session and clear the cookie',
    access: 'public',
    status: 204,
    errors: [403],
  }),
  getSession: defineOperation({
    operationId: 'getSession',
    method: 'GET',
    path: '/api/auth/session',
    tag: 'Auth',
    summary: 'The signed-in admin',
    access: 'public',
    status: 200,
    response: z.object({ user: z.object({ id: z.string(), email: z.string() }) }),
    errors: [401],
  }),
};
