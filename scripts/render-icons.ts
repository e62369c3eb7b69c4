// Renders the raster icons in public/ from the hand-written public/logo.svg with the Chromium the
// browser tests use: PNGs for home screens and the web manifest, and favicon.ico (one 32 px PNG
// inside an ICO header) for browsers that ask for /favicon.ico whatever the page says.
// Run after changing the logo: node --import tsx scripts/render-icons.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const PUBLIC = resolve(import.meta.dirname, '..', 'public');
const SIZES: [string, number][] = [
  ['apple-touch-icon.png', 180],
  ['icon-192.png', 192],
  ['icon-512.png', 512],
];

const svg = await readFile(join(PUBLIC, 'logo.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const render = async (size: number) => {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`,
    );
    const png = await page.screenshot({ omitBackground: true });
    await page.close();
    return png;
  };
  for (const [name, size] of SIZES) await writeFile(join(PUBLIC, name), await render(size));
  const png = await render(32);
  // ICONDIR (6 bytes) + one ICONDIRENTRY (16 bytes), then the PNG itself.
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(32, 6);
  header.writeUInt8(32, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  await writeFile(join(PUBLIC, 'favicon.ico'), Buffer.concat([header, png]));
} finally {
  await browser.close();
}
