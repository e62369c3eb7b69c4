import { defineOperation } from '../operation';
import { page, pageQuery, pathId } from '../schemas/common';
import { alertRule, createAlertRuleBody, updateAlertRuleBody } from '../schemas/operations';
import { appParams, readOneErrors, writeErrors } from './common';

const alertRuleParams = appParams.extend({ ruleId: pathId });

export const alertRuleOperations = {
  listAlertRules: defineOperation({
    operationId: 'listAlertRules',
    method: 'GET',
    path: '/apps/{appId}/alert-rules',
    tag: 'Alert rules',
    summary: "List an app's alert rules with their state, newest first",
    access: 'principal',
    params: appParams,
    query: pageQuery,
    status: 200,
    response: page(alertRule),
    errors: readOneErrors,
  }),
  createAlertRule: defineOperation({
    operationId: 'createAlertRule',
    method: 'POST',
    path: '/apps/{appId}/alert-rules',
    tag: 'Alert rules',
    summary: 'Create an alert rule; each firing is an operational event and an issue',
    access: 'principal',
    params: appParams,
    body: createAlertRuleBody,
    status: 201,
    response: alertRule,
    errors: writeErrors,
  }),
  updateAlertRule: defineOperation({
    operationId: 'updateAlertRule',
    method: 'PATCH',
    path: '/apps/{appId}/alert-rules/{ruleId}',
    tag: 'Alert rules',
    summary: 'Change an alert rule',
    access: 'principal',
    params: alertRuleParams,
    body: updateAlertRuleBody,
    status: 200,
    response: alertRule,
    errors: writeErrors,
  }),
  deleteAlertRule: defineOperation({
    operationId: 'deleteAlertRule',
    method: 'DELETE',
    path: '/apps/{appId}/alert-rules/{ruleId}',
    tag: 'Alert rules',
    summary: 'Delete an alert rule',
    access: 'principal',
    params: alertRuleParams,
    status: 204,
    errors: readOneErrors,
  }),
};
