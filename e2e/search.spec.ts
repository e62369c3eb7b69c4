// Search over any range (issue 23 item 10), in Chromium: a payload search on the messages page that
// answers after one slice of time a request (the e2e server's HOOKLINE_SEARCH_BUDGET_MS is 1), says
// how far back it searched, and goes on with "Continue searching" until the range is searched; and a
// replay by filter from the deliveries explorer during a search replays the matches only. The
// messages are written with ids of hours and days ago
// (as hookline.send would have then), which the API cannot do.
import { expect, test, type Page } from '@playwright/test';
import { createPool } from '../lib/database/pg';
import { e2eEnv } from './support/env';
import { createApp, listDeliveries, signIn } from './support/helpers';

const HOUR = 3_600_000;

async function messagesAgo(appId: string, rows: { hoursAgo: number; payload: unknown }[]): Promise<string[]> {
  const pool = createPool(e2eEnv().databaseUrl);
  try {
    const ids: string[] = [];
    for (const row of rows) {
      const at = new Date(Date.now() - row.hoursAgo * HOUR);
      const { rows: inserted } = await pool.query<{ id: string }>(
        // written_by NULL: history, fanned out already (the e2e server's worker would fan it out again).
        // Stored as uuid (the id's time, then random digits); the dashboard shows the public id.
        `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
         VALUES ((substr(hookline.id_at('', $2), 1, 12) || substr(hookline.new_id(''), 14))::uuid, $1, 'order.paid', $3, $2,
                 NULL)
         RETURNING hookline.public_id('msg', id) AS id`,
        [appId, at, JSON.stringify(row.payload)],
      );
      ids.push(inserted[0]!.id);
    }
    return ids;
  } finally {
    await pool.end();
  }
}

/** Clicks "Continue searching" until the search says it searched the whole range; returns the clicks. */
async function searchToTheEnd(page: Page): Promise<number> {
  const progress = page.getByTestId('search-progress');
  const more = progress.getByRole('button', { name: 'Continue searching' });
  let clicks = 0;
  for (let looks = 0; looks < 60; looks++) {
    // Between pages it reads "Searching…": wait for one of the two settled states.
    await expect(progress).toContainText(/Searched the whole range|Continue searching/);
    if ((await progress.textContent())!.includes('Searched the whole range')) return clicks;
    // The state read may be the one of a search the filters just replaced, and the new search can
    // reach the end of the range in its first page: then the button never comes back (a full run
    // waited two minutes for it). Look again instead.
    try {
      await more.click({ timeout: 5_000 });
      clicks++;
    } catch {
      continue;
    }
  }
  throw new Error('the search did not end within 60 looks');
}

test('a payload search over any range goes back page by page with "Continue searching"', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Search' });
  const [recent, older, oldest] = await messagesAgo(app.appId, [
    { hoursAgo: 1, payload: { customer: { name: 'Ada Lovelace' }, n: 1 } },
    { hoursAgo: 10, payload: { customer: { name: 'Ada Byron' }, n: 2 } },
    { hoursAgo: 72, payload: { customer: { name: 'ADA King' }, n: 3 } },
  ]);
  await messagesAgo(app.appId, [
    { hoursAgo: 2, payload: { customer: { name: 'Grace Hopper' } } },
    { hoursAgo: 30, payload: { customer: { name: 'Alan Turing' } } },
  ]);

  await signIn(page);
  await page.goto(`${env.baseUrl}/messages?appId=${app.appId}`);
  const rows = page.getByTestId('message-row');
  await expect(rows).toHaveCount(5);
  await page.getByLabel('Search payload').fill('ada');
  await page.getByLabel('Search payload').press('Enter');
  await expect(page).toHaveURL(/search=ada/);

  // The first request searched a slice of the last minutes: nothing yet, and how far it got.
  const progress = page.getByTestId('search-progress');
  await expect(progress).toContainText('Searched back to');
  // Days back, a slice a request: it takes several.
  expect(await searchToTheEnd(page)).toBeGreaterThan(2);
  // Every match once, newest first, and nothing else.
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(recent!);
  await expect(rows.nth(1)).toContainText(older!);
  await expect(rows.nth(2)).toContainText(oldest!);

  // A field that contains a value, with the other filters still applied (the event type here).
  await page.getByLabel('Search payload').fill('');
  await page.getByLabel('Search payload').press('Enter');
  await page.getByLabel('Payload field').fill('customer.name');
  await page.getByLabel('Payload field').press('Enter');
  await page.getByLabel('Field match').selectOption('contains');
  await page.getByLabel('Payload value').fill('hopper');
  await page.getByLabel('Payload value').press('Enter');
  await expect(page).toHaveURL(/payloadMatch=contains/);
  await searchToTheEnd(page);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Grace Hopper');
});

/**
 * A message with `payload` a minute ago and one dead delivery of it to `endpointId`: history, fanned
 * out already (written_by NULL), so the e2e server's worker gives it no other delivery.
 */
async function deadDeliveries(appId: string, endpointId: string, payloads: unknown[]): Promise<string[]> {
  const pool = createPool(e2eEnv().databaseUrl);
  try {
    const ids: string[] = [];
    for (const payload of payloads) {
      const { rows } = await pool.query<{ id: string }>(
        `WITH m AS (
           INSERT INTO hookline.messages (app_id, event_type, payload, created_at, written_by)
           VALUES ($1, 'order.paid', $3, now() - interval '1 minute', NULL) RETURNING id, created_at)
         INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                next_attempt_at, last_attempt_at, last_status_code, last_error_class, created_at, updated_at)
         SELECT hookline.new_uuid(m.id), $1, m.id, $2, 'order.paid', 'dead', 2, now(), now(), 500, 'http_5xx',
                m.created_at, m.created_at
           FROM m RETURNING hookline.public_id('dlv', id) AS id`,
        [appId, endpointId, JSON.stringify(payload)],
      );
      ids.push(rows[0]!.id);
    }
    return ids;
  } finally {
    await pool.end();
  }
}

test('replay by filter during a payload search replays the matches, and only them', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Replay Search' });
  const [acme, acmeLabs, globex, initech] = await deadDeliveries(app.appId, app.endpointId, [
    { customer: { name: 'ACME Corp' } },
    { customer: { name: 'Acme Labs' } },
    { customer: { name: 'Globex' } },
    { customer: { name: 'Initech' } },
  ]);

  await signIn(page);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&search=acme`);
  await searchToTheEnd(page);
  const rows = page.getByTestId('delivery-row');
  await expect(rows).toHaveCount(2);

  // The count and the replay take the search: two of the four dead deliveries, named by the search.
  await page.getByTestId('replay-matching').click();
  const count = page.getByTestId('replay-matching-count');
  await expect(count).toContainText('2 deliveries (retrying or dead) match');
  await expect(count).toContainText('payload containing "acme"');
  await expect(page.getByTestId('confirm-replay-matching')).toHaveText('Replay 2');
  await page.getByTestId('confirm-replay-matching').click();
  await expect(page.getByTestId('job-progress-text')).toHaveText('Done: 2 deliveries replayed.');
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=dead')).map((row) => row.id).sort())
    .toEqual([globex, initech].sort());
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).map((row) => row.id).sort(), {
      timeout: 20_000,
    })
    .toEqual([acme, acmeLabs].sort());
});

test('a replay by filter over more matches than a count can read in its budget says "at least", and the job goes on', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Bounded Count' });
  // More dead deliveries matching the search than one page of the count (5,000): with the e2e server's
  // budget of 1 ms, the count stops after its first page and answers a lower bound.
  const pool = createPool(env.databaseUrl);
  try {
    await pool.query(
      `WITH m AS (
         INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
         SELECT (substr(hookline.id_at('', now() - interval '1 minute'), 1, 12) || substr(hookline.new_id(''), 14))::uuid,
                $1, 'order.paid',
                jsonb_build_object('customer', 'Bounded Co', 'n', g), now() - interval '1 minute', NULL
           FROM generate_series(1, 5050) AS g RETURNING id, created_at)
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
              next_attempt_at, last_attempt_at, last_status_code, last_error_class, created_at, updated_at)
       SELECT hookline.new_uuid(m.id), $1, m.id, $2, 'order.paid', 'dead', 2, now(), now(), 500, 'http_5xx',
              m.created_at, m.created_at
         FROM m`,
      [app.appId, app.endpointId],
    );
  } finally {
    await pool.end();
  }

  await signIn(page);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&search=bounded`);
  await expect(page.getByTestId('search-progress')).toContainText(/Searched the whole range|Continue searching/);
  await page.getByTestId('replay-matching').click();
  const count = page.getByTestId('replay-matching-count');
  await expect(count).toContainText(/^At least [\d,]+ deliver(y|ies) \(retrying or dead\) match/);
  await expect(count).toContainText('payload containing "bounded"');
  await expect(page.getByTestId('confirm-replay-matching')).toHaveText(/^Replay [\d,]+\+$/);
  await page.getByTestId('confirm-replay-matching').click();
  // The job's total is the count's lower bound, and says so; it replays on past it (20 rows a batch on
  // this server: a minute for all of them, so the test stops it here).
  await expect(page.getByTestId('job-progress-text')).toContainText('at least');
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await expect(page.getByTestId('job-progress-text')).toContainText(
    /^Cancelled after [\d,]+ deliver(y|ies) of at least/,
  );
});
