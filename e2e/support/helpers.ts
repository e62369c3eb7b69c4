import { expect, test, type Browser, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { e2eEnv } from './env';
import type { ReceiverMode } from './receiver';

const SCREENSHOT_DIR = resolve(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

export async function signIn(page: Page): Promise<void> {
  const env = e2eEnv();
  await page.goto(`${env.baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(env.adminEmail);
  await page.getByLabel('Password').fill(env.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/overview/);
}

/**
 * Asserts that a browser's session no longer opens the admin app. It checks from a fresh tab:
 * the page the session was revoked under may be redirecting itself to sign-in at this very
 * moment (its next poll got a 401), which would interrupt a navigation started on it.
 */
export async function expectSignedOut(page: Page, path = '/apps'): Promise<void> {
  const probe = await page.context().newPage();
  await probe.goto(`${e2eEnv().baseUrl}${path}`);
  await expect(probe).toHaveURL(/\/sign-in/);
  await probe.close();
}

/**
 * Invites a member through the API as the signed-in `page` (an owner), and answers the invitation's
 * link. Each spec invites members of its own: the owner's sign-in is shared by every spec.
 */
export async function inviteMember(
  page: Page,
  invitation: { email: string; role: string; appIds?: string[] },
): Promise<string> {
  const { url } = await page.evaluate(async (body) => {
    const response = await fetch('/api/v1/invitations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { url: string };
  }, invitation);
  return url;
}

/** Opens an invitation link in a fresh browser, chooses `password` and joins: the member's page, on the overview. */
export async function joinByInvitation(browser: Browser, url: string, password: string): Promise<Page> {
  const member = await (await browser.newContext()).newPage();
  await member.goto(url);
  await member.getByLabel('New password').fill(password);
  await member.getByLabel('Repeat password').fill(password);
  await member.getByRole('button', { name: 'Join' }).click();
  await member.waitForURL(/\/overview/);
  return member;
}

export async function setReceiverMode(mode: ReceiverMode): Promise<{ received: number }> {
  const response = await fetch(`${e2eEnv().receiverUrl}/__control?mode=${mode}`);
  return (await response.json()) as { received: number };
}

/** Calls the REST API with the starter key, as an integration would. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const env = e2eEnv();
  const response = await fetch(`${env.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface E2eApp {
  appId: string;
  appName: string;
  endpointId: string;
  endpointUrl: string;
}

/**
 * A new app with its own event types and one endpoint on the receiver. The tests share one server and
 * one database, so a test that counts rows creates the app they live in: another spec's endpoint or
 * messages can then never change its numbers, whatever order the specs run in.
 */
export async function createApp({
  name,
  eventTypes = ['order.created', 'order.paid'],
  endpointPath = `/hooks/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
}: {
  name: string;
  eventTypes?: string[];
  endpointPath?: string;
}): Promise<E2eApp> {
  const env = e2eEnv();
  const app = await api<{ id: string }>('POST', '/apps', { name });
  for (const eventType of eventTypes) await api('POST', `/apps/${app.id}/event-types`, { name: eventType });
  const endpointUrl = `${env.receiverUrl}${endpointPath}`;
  const endpoint = await api<{ id: string }>('POST', `/apps/${app.id}/endpoints`, { url: endpointUrl });
  return { appId: app.id, appName: name, endpointId: endpoint.id, endpointUrl };
}

export async function sendMessages(
  count: number,
  {
    appId = e2eEnv().appId,
    eventType = 'order.created',
    payload = {},
  }: { appId?: string; eventType?: string; payload?: Record<string, unknown> } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const message = await api<{ id: string }>('POST', `/apps/${appId}/messages`, {
      eventType,
      payload: { orderId: `ord_${Date.now()}_${i}`, ...payload },
    });
    ids.push(message.id);
  }
  return ids;
}

export interface DeliveryRow {
  id: string;
  messageId: string;
  endpointId: string;
  state: string;
  eventType: string;
  attemptCount: number;
}

/** The app's deliveries through the REST API; `query` is the list's filter, e.g. "state=dead". */
export async function listDeliveries(appId: string, query = ''): Promise<DeliveryRow[]> {
  return (await api<{ data: DeliveryRow[] }>('GET', `/apps/${appId}/deliveries?limit=250&${query}`)).data;
}

/** Saves a full-page picture under test-results/screenshots and attaches it to the HTML report. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // Charts draw after ResizeObserver fires; let the page settle so the picture shows them.
  await page.waitForLoadState('networkidle').catch(() => {});
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/**
 * The page body must not scroll sideways: wide content (tables, long ids, URLs) has to wrap or scroll
 * inside its own box. On failure the message names the elements that stick out, and by how much.
 */
export async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  // Charts take their width from a ResizeObserver, which fires after the viewport changes: checked at
  // once after setViewportSize, a 375 px portal page once still had its 1280 px-wide charts (568 px
  // sticking out). Asked again until the layout has settled, for up to 3 s.
  await expect(() => checkNoHorizontalOverflow(page, where)).toPass({ timeout: 3_000 });
}

async function checkNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  const result = await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const scrollsSideways = (element: Element) => {
      const overflowX = getComputedStyle(element).overflowX;
      return overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden';
    };
    const offenders: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= viewport + 1) continue;
      // Inside a scroller (a wide table's wrapper), sticking out is what the scroller is for.
      let parent = element.parentElement;
      let contained = false;
      while (parent && parent !== document.body) {
        if (scrollsSideways(parent)) {
          contained = true;
          break;
        }
        parent = parent.parentElement;
      }
      if (contained) continue;
      const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).split(' ').slice(0, 3).join('.')}`;
      offenders.push(`${label} "${(element.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(box.right)}`);
    }
    return { viewport, scrollWidth: document.documentElement.scrollWidth, offenders: offenders.slice(0, 8) };
  });
  expect(
    result.scrollWidth,
    `${where}: the page is ${result.scrollWidth}px wide in a ${result.viewport}px viewport; sticking out: ${result.offenders.join('; ')}`,
  ).toBeLessThanOrEqual(result.viewport);
}

/** Reads a number shown in a stat card, e.g. "1,234" -> 1234. */
export async function statNumber(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  const value = Number(text.replace(/[^0-9.]/g, ''));
  expect(Number.isNaN(value)).toBe(false);
  return value;
}
