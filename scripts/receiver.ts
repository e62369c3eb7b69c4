// `npm run receiver`: a webhook receiver on 127.0.0.1 for trying Hookline by hand (the README's REST
// walkthrough sends to it). It answers every request 204 and prints one line per request: method,
// path, webhook-id and the body's first 200 characters. It checks no signature: see the README's
// "Receiving webhooks" for that. `--port N` (default 4000); `--port 0` takes a free one.
import { createServer } from 'node:http';

const portArgument = process.argv.indexOf('--port');
const port = portArgument > 0 ? Number(process.argv[portArgument + 1]) : 4000;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, got ${process.argv[portArgument + 1]}`);
  process.exit(2);
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const id = request.headers['webhook-id'] ?? '-';
    console.log(`${request.method} ${request.url} webhook-id=${String(id)} ${body.slice(0, 200)}`);
    response.writeHead(204).end();
  });
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`Receiver listening on http://127.0.0.1:${bound} (answers 204 to everything; Ctrl-C stops it)`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
