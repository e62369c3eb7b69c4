// A local OTLP/HTTP collector for the tracing scenario: takes the worker's span exports at POST
// /v1/traces, counts the spans, answers 200 and keeps nothing. It runs in the bench process, so what
// decoding costs is the bench's CPU, never the worker's that the scenario measures.
import { createServer } from 'node:http';

export interface OtlpSink {
  url: string;
  spans: number;
  exports: number;
  reset(): void;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const sink = { spans: 0, exports: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) sink.spans += scope.spans?.length ?? 0;
        sink.exports++;
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get spans() {
      return sink.spans;
    },
    get exports() {
      return sink.exports;
    },
    reset() {
      sink.spans = 0;
      sink.exports = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
