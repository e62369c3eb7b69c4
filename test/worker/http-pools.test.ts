// HttpPools, the worker's HTTP client, against real receivers on loopback: what it hands back of a
// response, and its one deadline, which also covers the wait for a free connection (a request whose
// deadline passed while it waited is never written). The misbehaving receivers, through the whole
// worker, are in error-classes.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { DeadlineError, InvalidHeaderError } from '../../worker/classify-error';
import { HttpPools } from '../../worker/http-pools';
import { ManualClock } from '../support/manual-clock';
import { startReceiver, type Receiver } from '../support/receiver';

const pools = new HttpPools(
  { timeoutMs: 5_000, keepBytes: 8, drainBytes: 64 },
  { allowLoopback: true, allowPrivate: false },
);
const receivers: Receiver[] = [];

afterAll(async () => {
  await pools.destroy();
  for (const receiver of receivers) await receiver.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

describe('HttpPools.send', () => {
  it('returns the status, the headers flattened, and the first keepBytes of the body', async () => {
    const target = await receiver((_request, response) => {
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(201, { 'content-type': 'text/plain', 'x-kept': 'yes' });
      response.end('0123456789abcdef');
    });
    const response = await pools.send({
      poolKey: 'flattened',
      url: new URL(`${target.url}/hook?x=1`),
      connections: 1,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"n":1}',
    });
    expect(response).toMatchObject({ statusCode: 201, body: '01234567', truncated: true });
    expect(response.headers).toMatchObject({ 'x-kept': 'yes', 'set-cookie': 'a=1, b=2' });
    expect(target.requests).toMatchObject([
      { method: 'POST', path: '/hook?x=1', body: '{"n":1}', headers: { 'webhook-id': 'msg_1' } },
    ]);
  });

  it('sends no body for an empty one, with the method given', async () => {
    const target = await receiver();
    const response = await pools.send({
      poolKey: 'get',
      method: 'GET',
      url: new URL(`${target.url}/items`),
      connections: 1,
      headers: {},
      body: '',
    });
    expect(response).toMatchObject({ statusCode: 200, body: 'ok', truncated: false });
    expect(target.requests).toMatchObject([{ method: 'GET', path: '/items', body: '' }]);
    expect(target.requests[0]!.headers['content-length']).toBeUndefined();
  });

  it('a request whose deadline passes while it waits for the one connection fails with it, and is never written', async () => {
    // The first request holds the endpoint's only connection until its own deadline: the receiver
    // never answers it.
    const target = await receiver(() => new Promise<void>(() => {}));
    const send = (timeoutMs: number, id: string) =>
      pools.send({
        poolKey: 'one-connection',
        url: new URL(`${target.url}/hook`),
        connections: 1,
        headers: { 'webhook-id': id },
        body: '{}',
        timeoutMs,
      });
    const holding = send(1_000, 'first');
    await target.waitForRequests(1);
    const waiting = send(200, 'second');
    await expect(holding).rejects.toBeInstanceOf(DeadlineError);
    // It keeps its place in the queue until the connection is free (as its endpoint's slot stays
    // taken), then fails with its deadline instead of being written.
    await expect(waiting).rejects.toBeInstanceOf(DeadlineError);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.requests.map((request) => request.headers['webhook-id'])).toEqual(['first']);
  });

  it('refuses a header undici cannot send before the pool sees it, naming the header', async () => {
    const target = await receiver();
    const send = (city: string) =>
      pools.send({
        poolKey: 'unsendable-header',
        url: new URL(`${target.url}/hook`),
        connections: 1,
        headers: { 'x-city': city },
        body: '{}',
      });
    const refused = send('Łódź');
    await expect(refused).rejects.toBeInstanceOf(InvalidHeaderError);
    await expect(refused).rejects.toThrow('header "x-city" must not contain characters above U+00FF');
    expect(target.requests).toHaveLength(0);
    await expect(send('Lodz')).resolves.toMatchObject({ statusCode: 200 });
  });

  it('a request undici refuses to build does not leave the pool jammed: the next request is sent', async () => {
    // undici refuses a Transfer-Encoding header while building the request (the worker never sends one:
    // it is reserved), and that refusal left the endpoint's one connection marked busy for good.
    const target = await receiver();
    const send = (headers: Record<string, string>) =>
      pools.send({
        poolKey: 'refused-by-undici',
        url: new URL(`${target.url}/hook`),
        connections: 1,
        headers,
        body: '{}',
        timeoutMs: 500,
      });
    await expect(send({ 'transfer-encoding': 'chunked' })).rejects.toMatchObject({ code: 'UND_ERR_INVALID_ARG' });
    // Jammed, this one waited in undici's queue past its deadline and never settled.
    const next = send({ 'webhook-id': 'after' });
    const settledWithin2s = await Promise.race([
      next.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
    ]);
    expect(settledWithin2s).toBe(true);
    await expect(next).resolves.toMatchObject({ statusCode: 200 });
    expect(target.requests.map((request) => request.headers['webhook-id'])).toEqual(['after']);
  });

  it('takes a 1xx for no answer: the final status is the response', async () => {
    const target = await receiver((_request, response) => {
      response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      response.writeHead(202);
      response.end('accepted');
    });
    let headersSeen = 0;
    const response = await pools.send({
      poolKey: 'early-hints',
      url: new URL(`${target.url}/hook`),
      connections: 1,
      headers: {},
      body: '{}',
      onHeaders: () => headersSeen++,
    });
    expect(response).toMatchObject({ statusCode: 202, body: 'accepted' });
    expect(response.headers.link).toBeUndefined();
    expect(headersSeen).toBe(1);
  });
});

describe('idle pools', () => {
  it('closes and forgets a pool with nothing in flight for idleMs, and keeps one with a request in flight', async () => {
    const clock = new ManualClock();
    const idleMs = 60_000;
    const idling = new HttpPools(
      { timeoutMs: 5_000, keepBytes: 8, drainBytes: 64 },
      { allowLoopback: true, allowPrivate: false },
      undefined,
      { clock, idleMs },
    );
    try {
      const target = await receiver((request, response) => {
        // /hang is never answered: its request stays in flight until its own deadline.
        if (request.path !== '/hang') response.end('ok');
      });
      const send = (poolKey: string, path = '/hook', timeoutMs?: number) =>
        idling.send({
          poolKey,
          url: new URL(`${target.url}${path}`),
          connections: 1,
          headers: {},
          body: '{}',
          timeoutMs,
        });
      // Twenty endpoints, each delivered to once and then deleted (never sent to again).
      await Promise.all(Array.from({ length: 20 }, (_, i) => send(`ep_${i}`)));
      // Its deadline is real time, long enough to outlast the two sweeps below.
      const hanging = send('ep_busy', '/hang', 1_000);
      await target.waitForRequests(21);
      expect(idling.size).toBe(21);

      await clock.advance(idleMs);
      expect(idling.size).toBe(1);

      await clock.advance(idleMs / 2);
      await expect(hanging).rejects.toBeInstanceOf(DeadlineError);
      await clock.advance(idleMs / 2);
      // Idle for idleMs / 2 since its request settled (two idleMs since it was sent): kept.
      expect(idling.size).toBe(1);
      await clock.advance(idleMs);
      expect(idling.size).toBe(0);
      // Nothing keeps the sweep running once every pool is gone.
      expect(clock.pending).toBe(0);

      await expect(send('ep_0')).resolves.toMatchObject({ statusCode: 200 });
      expect(idling.size).toBe(1);
    } finally {
      await idling.destroy();
    }
  });
});
