import { chromium } from '@playwright/test';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
});
const page = await browser.newPage();
await page.goto('http://localhost:3000/#services');
for (let i = 0; i < 8; i++) {
  console.log(
    await page.evaluate(() => [
      window.scrollY,
      document.getElementById('services')?.getBoundingClientRect().top,
      document.documentElement.dataset.appReady,
    ]),
  );
  await page.waitForTimeout(300);
}
await browser.close();
