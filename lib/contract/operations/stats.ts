import { defineOperation } from '../operation';
import { stats, statsQuery } from '../schemas/stats';
import { readErrors } from './common';

export const statsOperations = {
  getStats: defineOperation({
    operationId: 'getStats',
    method: 'GET',
    path: '/stats',
    tag: 'Stats',
    summary: 'Queue depth, throughput, success rate, latency percentiles and error breakdowns',
    access: 'principal',
    query: statsQuery,
    status: 200,
    response: stats,
    errors: [...readErrors, 404],
  }),
};
