// /livez and /readyz, for the web server (scripts/start.ts) and each worker's metrics server
// (worker/metrics.ts). Live: the process runs and answers (restart it if not). Ready: it can do its
// work: the database answers within a second and its schema is the one this code knows
// (./schema-version.ts); a load balancer or an orchestrator sends it traffic only then.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeMismatch, readSchemaStatus, type SchemaStatus } from './schema-version';

export interface Readiness {
  ready: boolean;
  database: { ok: boolean; error?: string };
  schema: (SchemaStatus & { ok: boolean; problem?: string }) | null;
  /** Why the process itself is not ready (starting, draining), besides the database. */
  process?: string;
}

interface Queryable {
  query<Row extends object>(text: string): Promise<{ rows: Row[] }>;
}

const CHECK_TIMEOUT_MS = 1000;

export async function checkReadiness(db: Queryable): Promise<Readiness> {
  try {
    const schema = await withTimeout(readSchemaStatus(db), CHECK_TIMEOUT_MS);
    const problem = describeMismatch(schema);
    return {
      ready: problem === null,
      database: { ok: true },
      schema: { ...schema, ok: problem === null, ...(problem ? { problem } : {}) },
    };
  } catch (error) {
    return { ready: false, database: { ok: false, error: (error as Error).message || String(error) }, schema: null };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface HealthProbes {
  /** null: live; else why not (e.g. "stopped"). */
  live: () => string | null;
  ready: () => Promise<Readiness>;
}

export const HEALTH_PATHS = new Set(['/livez', '/readyz']);

/** Answers GET /livez or /readyz with 200 or 503 and a small JSON body; false for any other path. */
export function answerHealthProbe(request: IncomingMessage, response: ServerResponse, probes: HealthProbes): boolean {
  const path = (request.url ?? '').split('?')[0]!;
  if (!HEALTH_PATHS.has(path)) return false;
  const send = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  };
  if (path === '/livez') {
    const problem = probes.live();
    send(problem ? 503 : 200, problem ? { status: 'down', problem } : { status: 'live' });
    return true;
  }
  probes.ready().then(
    (readiness) => send(readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not_ready', ...readiness }),
    (error: unknown) => send(503, { status: 'not_ready', error: (error as Error).message }),
  );
  return true;
}
