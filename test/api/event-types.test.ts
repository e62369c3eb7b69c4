// /api/v1/apps/{appId}/event-types: create, list, get, change, delete, with the errors each can answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
let appId: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'event types');
});

const schema = { type: 'object', properties: { amount: { type: 'integer' } }, required: ['amount'] };

describe('POST /apps/{appId}/event-types', () => {
  it('creates an event type with a description, a JSON Schema and the archived flag', async () => {
    const response = await call('POST', `/v1/apps/${appId}/event-types`, {
      key: ctx.adminKey,
      body: { name: 'invoice.paid', description: 'An invoice was paid', schema },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      appId,
      name: 'invoice.paid',
      description: 'An invoice was paid',
      schema,
      archived: false,
    });
    const { rows } = await ctx.db.pool.query('SELECT schema FROM hookline.event_types WHERE id = $1', [
      response.body.id,
    ]);
    expect(rows[0].schema).toEqual(schema);
  });

  it('answers 409 for a name the app already has, and allows it in another app', async () => {
    await createEventType(ctx.db.pool, appId, 'user.created');
    expectError(
      await call('POST', `/v1/apps/${appId}/event-types`, { key: ctx.adminKey, body: { name: 'user.created' } }),
      409,
      'event_type_exists',
    );
    const otherApp = await createApp(ctx.db.pool, 'other');
    expect(
      (await call('POST', `/v1/apps/${otherApp}/event-types`, { key: ctx.adminKey, body: { name: 'user.created' } }))
        .status,
    ).toBe(201);
  });

  it.each([
    ['a name with a space', { name: 'invoice paid' }, 'name'],
    ['a name starting with a dot', { name: '.hidden' }, 'name'],
    ['a name of 129 characters', { name: 'a'.repeat(129) }, 'name'],
    ['a schema that is not an object', { name: 'ok.name', schema: 'object' }, 'schema'],
    ['a description of 2001 characters', { name: 'ok.name', description: 'd'.repeat(2001) }, 'description'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const before = await countRows(ctx.db.pool, 'event_types');
    expectError(
      await call('POST', `/v1/apps/${appId}/event-types`, { key: ctx.adminKey, body }),
      422,
      'validation_failed',
      field,
    );
    expect(await countRows(ctx.db.pool, 'event_types')).toBe(before);
  });

  it('answers 404 for an unknown app', async () => {
    expectError(
      await call('POST', '/v1/apps/app_unknown/event-types', { key: ctx.adminKey, body: { name: 'x.y' } }),
      404,
      'not_found',
    );
  });
});

describe('GET /apps/{appId}/event-types[/{name}]', () => {
  it('lists archived event types unless includeArchived=false', async () => {
    const app = await createApp(ctx.db.pool, 'listing');
    await createEventType(ctx.db.pool, app, 'live.one');
    await createEventType(ctx.db.pool, app, 'old.one', true);
    const names = async (query: Record<string, string>) =>
      (await call('GET', `/v1/apps/${app}/event-types`, { key: ctx.adminKey, query })).body.data
        .map((type: { name: string }) => type.name)
        .sort();
    expect(await names({})).toEqual(['live.one', 'old.one']);
    expect(await names({ includeArchived: 'true' })).toEqual(['live.one', 'old.one']);
    expect(await names({ includeArchived: 'false' })).toEqual(['live.one']);
    expectError(
      await call('GET', `/v1/apps/${app}/event-types`, { key: ctx.adminKey, query: { includeArchived: 'yes' } }),
      400,
      'invalid_query',
      'includeArchived',
    );
  });

  it('lists only the names containing ?name=, in any case, with _ and % taken literally', async () => {
    const app = await createApp(ctx.db.pool, 'name filter');
    for (const name of ['invoice.paid', 'Invoice.Voided', 'order_paid', 'orderXpaid', 'user.created'])
      await createEventType(ctx.db.pool, app, name);
    const names = async (name: string) =>
      (await call('GET', `/v1/apps/${app}/event-types`, { key: ctx.adminKey, query: { name } })).body.data
        .map((type: { name: string }) => type.name)
        .sort();
    expect(await names('invoice')).toEqual(['Invoice.Voided', 'invoice.paid']);
    expect(await names('PAID')).toEqual(['invoice.paid', 'orderXpaid', 'order_paid']);
    expect(await names('r_p')).toEqual(['order_paid']);
    expect(await names('%')).toEqual([]);
    // The other app of this file has a user.created too: only this app's is listed.
    expect(await names('user')).toEqual(['user.created']);
    expectError(
      await call('GET', `/v1/apps/${app}/event-types`, { key: ctx.adminKey, query: { name: 'a'.repeat(129) } }),
      400,
      'invalid_query',
      'name',
    );
  });

  it('gets one event type by name, and answers 404 for an unknown name or app', async () => {
    await createEventType(ctx.db.pool, appId, 'order.shipped');
    const response = await call('GET', `/v1/apps/${appId}/event-types/order.shipped`, { key: ctx.adminKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'order.shipped', schema: null, archived: false });
    expectError(await call('GET', `/v1/apps/${appId}/event-types/order.lost`, { key: ctx.adminKey }), 404, 'not_found');
    expectError(await call('GET', '/v1/apps/app_unknown/event-types', { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('PATCH /apps/{appId}/event-types/{name}', () => {
  it('changes the description, the schema and the archived flag; archived types cannot be sent', async () => {
    await createEventType(ctx.db.pool, appId, 'refund.issued');
    const path = `/v1/apps/${appId}/event-types/refund.issued`;
    const changed = await call('PATCH', path, {
      key: ctx.adminKey,
      body: { description: 'Money back', schema, archived: true },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ description: 'Money back', schema, archived: true });

    const send = await call('POST', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      body: { eventType: 'refund.issued', payload: {} },
    });
    expectError(send, 422, 'validation_failed', 'eventType');
    expect(send.body.error.message).toContain('archived');

    // Fields left out stay as they are; schema: null removes the schema.
    const unarchived = await call('PATCH', path, { key: ctx.adminKey, body: { archived: false, schema: null } });
    expect(unarchived.body).toMatchObject({ description: 'Money back', schema: null, archived: false });
  });

  it('answers 404 for an unknown event type and 422 for an unknown field, changing nothing', async () => {
    await createEventType(ctx.db.pool, appId, 'untouched');
    const before = (await ctx.db.pool.query(`SELECT t::text FROM hookline.event_types t WHERE name = 'untouched'`))
      .rows;
    expectError(
      await call('PATCH', `/v1/apps/${appId}/event-types/never.made`, {
        key: ctx.adminKey,
        body: { description: 'x' },
      }),
      404,
      'not_found',
    );
    expectError(
      await call('PATCH', `/v1/apps/${appId}/event-types/untouched`, { key: ctx.adminKey, body: { name: 'renamed' } }),
      422,
      'validation_failed',
    );
    expect(
      (await ctx.db.pool.query(`SELECT t::text FROM hookline.event_types t WHERE name = 'untouched'`)).rows,
    ).toEqual(before);
  });
});

describe('DELETE /apps/{appId}/event-types/{name}', () => {
  it('deletes the event type: recorded messages keep its name, new sends are refused', async () => {
    await createEventType(ctx.db.pool, appId, 'to.delete');
    await createEndpoint(ctx.db.pool, appId, 'https://example.com/delete');
    const sent = await call('POST', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      body: { eventType: 'to.delete', payload: { a: 1 } },
    });
    expect(sent.status).toBe(202);

    const response = await call('DELETE', `/v1/apps/${appId}/event-types/to.delete`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(204);
    expect(await countRows(ctx.db.pool, 'event_types', `app_id = $1 AND name = 'to.delete'`, [appId])).toBe(0);
    expect(
      (await call('GET', `/v1/apps/${appId}/messages/${sent.body.id}`, { key: ctx.adminKey })).body.eventType,
    ).toBe('to.delete');
    expectError(
      await call('POST', `/v1/apps/${appId}/messages`, {
        key: ctx.adminKey,
        body: { eventType: 'to.delete', payload: {} },
      }),
      422,
      'validation_failed',
      'eventType',
    );
    expectError(
      await call('DELETE', `/v1/apps/${appId}/event-types/to.delete`, { key: ctx.adminKey }),
      404,
      'not_found',
    );
  });
});
