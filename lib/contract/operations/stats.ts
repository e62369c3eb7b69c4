import { defineOperation } from '../operation';
import { endpointStats, endpointStatsQuery, stats, statsQuery } from '../schemas/stats';
import { endpointParams, readErrors } from './common';

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
  getEndpointStats: defineOperation({
    operationId: 'getEndpointStats',
    method: 'GET',
    path: '/apps/{appId}/endpoints/{endpointId}/stats',
    tag: 'Stats',
    summary: "One endpoint's attempts, success rate and latency percentiles over a range (the last hour by default)",
    access: 'principal',
    params: endpointParams,
    query: endpointStatsQuery,
    status: 200,
    response: endpointStats,
    errors: [...readErrors, 404],
  }),
};
