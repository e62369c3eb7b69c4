import { defineOperation } from '../operation';
import { app, createAppBody, listAppsQuery, updateAppBody } from '../schemas/apps';
import { page } from '../schemas/common';
import { appParams, readErrors, readOneErrors, writeErrors } from './common';

export const appOperations = {
  listApps: defineOperation({
    operationId: 'listApps',
    method: 'GET',
    path: '/apps',
    tag: 'Apps',
    summary: 'List apps (an app-limited key sees only its own)',
    access: 'principal',
    query: listAppsQuery,
    status: 200,
    response: page(app),
    errors: readErrors,
  }),
  createApp: defineOperation({
    operationId: 'createApp',
    method: 'POST',
    path: '/apps',
    tag: 'Apps',
    summary: 'Create an app',
    access: 'deployment',
    body: createAppBody,
    status: 201,
    response: app,
    errors: writeErrors,
  }),
  getApp: defineOperation({
    operationId: 'getApp',
    method: 'GET',
    path: '/apps/{appId}',
    tag: 'Apps',
    summary: 'Get an app',
    access: 'principal',
    params: appParams,
    status: 200,
    response: app,
    errors: readOneErrors,
  }),
  updateApp: defineOperation({
    operationId: 'updateApp',
    method: 'PATCH',
    path: '/apps/{appId}',
    tag: 'Apps',
    summary:
      "Rename an app, change its endpoints' default retry schedule and timeout, or set the origins allowed to embed its customer portal",
    access: 'principal',
    params: appParams,
    body: updateAppBody,
    status: 200,
    response: app,
    errors: writeErrors,
  }),
  deleteApp: defineOperation({
    operationId: 'deleteApp',
    method: 'DELETE',
    path: '/apps/{appId}',
    tag: 'Apps',
    summary: 'Delete an app and everything it owns',
    access: 'deployment',
    params: appParams,
    status: 204,
    errors: [...readOneErrors, 409],
  }),
};
