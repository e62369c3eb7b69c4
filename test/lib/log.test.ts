// lib/runtime/log.ts (pino) and lib/runtime/redact-secrets.ts: the JSON line shape callers and tests rely on, the
// process-wide level, and secrets removed by field name and by their look inside any string.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, setLogLevel } from '../../lib/runtime/log';
import { REDACTED, redactString, redactValue } from '../../lib/runtime/redact-secrets';

const API_KEY = 'hl_Ab3dEf7h' + 'Q'.repeat(35) + '-_x1z4w5e6r';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/+bD0Wd8nGA=';

function capture() {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines, raw: () => raw };
}

afterEach(() => setLogLevel('info'));

describe('createLogger', () => {
  it('writes one JSON object per line: level, ISO time, msg, the base fields, the child fields, the call fields', () => {
    const { stream, lines } = capture();
    const log = createLogger({ component: 'flush' }, stream);
    log.child({ workerId: 'w-1' }).info('flushed', { results: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'flushed', component: 'flush', workerId: 'w-1', results: 3 });
    expect(new Date(lines[0]!.time as string).toISOString()).toBe(lines[0]!.time);
  });

  it("writes each key once: a child's field replaces its parent's", () => {
    const { stream, raw } = capture();
    createLogger({ component: 'start' }, stream).child({ component: 'worker' }).info('worker started');
    expect(raw().match(/"component"/g)).toHaveLength(1);
    expect(JSON.parse(raw())).toMatchObject({ component: 'worker' });
  });

  it('follows setLogLevel for loggers created before it, and drops what is below the level', () => {
    const { stream, lines } = capture();
    const log = createLogger({}, stream);
    log.debug('not yet');
    setLogLevel('debug');
    log.debug('now');
    setLogLevel('error');
    log.warn('dropped');
    log.error('kept');
    expect(lines.map((line) => line.msg)).toEqual(['now', 'kept']);
  });

  it('logs errors as name, message and code, as before', () => {
    const { stream, lines } = capture();
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    createLogger({}, stream).error('claim failed; retrying', { error });
    expect(lines[0]!.error).toEqual({
      name: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
      code: 'ECONNREFUSED',
    });
  });

  it('writes no secret, whether in the message, a field named for it, a string, an error message or a child binding', () => {
    const { stream, raw } = capture();
    const log = createLogger({ databaseUrl: 'postgresql://hookline:pg-pa55word@db:5432/hookline' }, stream);
    log.child({ secret: SECRET }).error(`request with Bearer ${API_KEY} failed`, {
      password: 'correct horse battery staple',
      adminPassword: 'correct horse battery staple',
      headers: { authorization: `Bearer ${API_KEY}`, cookie: 'hookline_session=sessiontoken-abcdef0123456789' },
      note: `cookie was hookline_session=sessiontoken-abcdef0123456789; key ${API_KEY}`,
      error: new Error(`duplicate row ("ep_1", "${SECRET}") for key ${API_KEY}`, {
        cause: new Error('password=pg-pa55word'),
      }),
      stack: `Error: insert failed: {"secret":"${SECRET}"}\n    at createEndpoint`,
      rows: [{ signingSecrets: [SECRET] }],
    });
    const written = raw();
    for (const secret of [API_KEY, SECRET, 'pg-pa55word', 'correct horse', 'sessiontoken-abcdef0123456789']) {
      expect(written).not.toContain(secret);
    }
    // What is not secret stays readable, so the line is still worth having.
    expect(written).toContain('duplicate row (\\"ep_1\\"');
    expect(written).toContain('hl_Ab3dEf7h'); // the prefix shown in every key list
    expect(written).toContain('postgresql://hookline:[redacted]@db:5432/hookline');
  });
});

describe('redactString', () => {
  it.each([
    [`Authorization: Bearer ${API_KEY}`, `Authorization: Bearer ${REDACTED}`],
    [`key=${API_KEY}`, `key=hl_Ab3dEf7h${REDACTED}`],
    [`secret ${SECRET} rotated`, `secret whsec_${REDACTED} rotated`],
    ['postgres://u:p%40ss@h:5432/d?sslmode=require', `postgres://u:${REDACTED}@h:5432/d?sslmode=require`],
    ['host=db user=app password=hunter2 dbname=x', `host=db user=app password=${REDACTED} dbname=x`],
    ['{"password":"hunter2","name":"ok"}', `{"password":"${REDACTED}","name":"ok"}`],
    ['?access_token=abc123&page=2', `?access_token=${REDACTED}&page=2`],
    ['Set-Cookie: hookline_session=tok_123; Path=/', `Set-Cookie: hookline_session=${REDACTED}; Path=/`],
    ['nothing secret: 42 deliveries, hl_ and whsec_ alone', 'nothing secret: 42 deliveries, hl_ and whsec_ alone'],
  ])('%s', (input, expected) => {
    expect(redactString(input)).toBe(expected);
  });
});

describe('redactValue', () => {
  it('keeps numbers, booleans and nulls under secret-sounding names (counts, flags), and cuts cycles', () => {
    const cyclic: Record<string, unknown> = { tokens: 5, apiKeyCreated: true, password: null };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toEqual({ tokens: 5, apiKeyCreated: true, password: null, self: '[circular]' });
  });
});

describe('customer portal tokens', () => {
  const TOKEN = 'hlp_' + 'Zx9'.repeat(14) + 'q';

  it('are redacted in a portal URL, a Cookie header and free text', () => {
    for (const text of [
      `GET /portal/open?token=${TOKEN} 303`,
      `https://hooks.example.com/portal/open?token=${TOKEN}&x=1`,
      `cookie: hookline_portal=${TOKEN}; hookline_session=abc`,
      `the session ${TOKEN} expired`,
    ]) {
      const redacted = redactString(text);
      expect(redacted, text).not.toContain(TOKEN.slice(4));
      expect(redacted).toContain(REDACTED);
    }
  });

  it('are redacted in a logged line', () => {
    const { stream, raw } = capture();
    createLogger({}, stream).info(`opened portal ${TOKEN}`, {
      url: `/portal/open?token=${TOKEN}`,
      headers: { cookie: `hookline_portal=${TOKEN}` },
    });
    expect(raw()).not.toContain(TOKEN.slice(4));
  });
});
