import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const paths = process.argv.slice(2);
for (const p of paths) {
  const page = await browser.newPage();
  const msgs = [];
  page.on('console', (m) => msgs.push(`${m.type()}: ${m.text().slice(0, 3000)}`));
  page.on('pageerror', (e) => msgs.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => { window.__h1 = document.querySelector('main h1'); window.__p = document.querySelector('main p'); });
  });
  await page.goto('http://localhost:3000' + p);
  await page.waitForSelector('html[data-app-ready="true"]', { timeout: 15000 });
  await page.waitForTimeout(500);
  const same = await page.evaluate(() => window.__h1 === document.querySelector('main h1') && window.__p === document.querySelector('main p'));
  console.log(p, 'same nodes:', same, msgs.filter(m => !m.startsWith('debug')).join(' | '));
  await page.close();
}
await browser.close();
