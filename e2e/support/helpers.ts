import { expect, type Page } from '@playwright/test';
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

export async function sendMessages(count: number, eventType = 'order.created', payload: Record<string, unknown> = {}) {
  const { appId } = e2eEnv();
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

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // Charts draw after ResizeObserver fires; let the page settle so the picture shows them.
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Reads a number shown in a stat card, e.g. "1,234" -> 1234. */
export async function statNumber(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  const value = Number(text.replace(/[^0-9.]/g, ''));
  expect(Number.isNaN(value)).toBe(false);
  return value;
}
