import { chromium } from '@playwright/test';
import zlib from 'node:zlib';
const url = process.argv[2];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
});
const page = await browser.newPage();
const rows = [];
page.on('response', async (res) => {
  const type = res.request().resourceType();
  if (type !== 'script') return;
  const body = await res.body().catch(() => Buffer.alloc(0));
  rows.push({
    url: res.url().replace(/^https?:\/\/localhost/, ''),
    raw: body.length,
    gz: zlib.gzipSync(body, { level: 9 }).length,
  });
});
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(1500);
let total = 0;
for (const r of rows) {
  total += r.gz;
  console.log(String(r.gz).padStart(7), String(r.raw).padStart(8), r.url);
}
console.log('total gzip', total);
await browser.close();
