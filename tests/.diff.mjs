import { chromium } from '@playwright/test';
import fs from 'node:fs';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const ctx = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
await ctx.setExtraHTTPHeaders({ 'x-prerender': 'shell' });
const page = await ctx.newPage();
await page.goto('http://localhost:3000' + process.argv[2]);
await page.waitForSelector('html[data-app-ready="true"] main h1');
const client = await page.evaluate(() => document.getElementById('root').innerHTML);
// initial render, before effects: 
fs.writeFileSync('/tmp/client.html', client.replace(/></g, '>\n<'));
const pre = fs.readFileSync('../deploy/pages' + (process.argv[2] === '/' ? '/index.html' : process.argv[2] + '/index.html'), 'utf8');
const body = /<div id="?root"?>([\s\S]*)<\/div><noscript/.exec(pre)?.[1] ?? '';
fs.writeFileSync('/tmp/pre.html', body.replace(/></g, '>\n<'));
await browser.close();
