import { z } from 'zod';
import { defineOperation } from '../operation';
import { page, pathId } from '../schemas/common';
import { issue, issueCounts, issueDetail, listIssuesQuery } from '../schemas/operations';
import { readErrors, readOneErrors } from './common';

const issueParams = z.object({ issueId: pathId });

export const issueOperations = {
  listIssues: defineOperation({
    operationId: 'listIssues',
    method: 'GET',
    path: '/issues',
    tag: 'Issues',
    summary: 'Issues (one per endpoint and error class, or per alert rule), most recently seen first',
    access: 'principal',
    query: listIssuesQuery,
    status: 200,
    response: page(issue),
    errors: readErrors,
  }),
  countIssues: defineOperation({
    operationId: 'countIssues',
    method: 'GET',
    path: '/issues/counts',
    tag: 'Issues',
    summary: 'Issues per status (the dashboard nav shows the open count)',
    access: 'principal',
    query: z.object({ appId: pathId.optional() }),
    status: 200,
    response: issueCounts,
    errors: readErrors,
  }),
  getIssue: defineOperation({
    operationId: 'getIssue',
    method: 'GET',
    path: '/issues/{issueId}',
    tag: 'Issues',
    summary: 'An issue with its affected deliveries and events',
    access: 'principal',
    params: issueParams,
    status: 200,
    response: issueDetail,
    errors: readOneErrors,
  }),
  acknowledgeIssue: defineOperation({
    operationId: 'acknowledgeIssue',
    method: 'POST',
    path: '/issues/{issueId}/acknowledge',
    tag: 'Issues',
    summary: 'Acknowledge an open issue',
    access: 'principal',
    params: issueParams,
    status: 200,
    response: issue,
    errors: [...readOneErrors, 409],
  }),
  resolveIssue: defineOperation({
    operationId: 'resolveIssue',
    method: 'POST',
    path: '/issues/{issueId}/resolve',
    tag: 'Issues',
    summary: 'Resolve an issue; it reopens when the same thing happens again',
    access: 'principal',
    params: issueParams,
    status: 200,
    response: issue,
    errors: readOneErrors,
  }),
};
