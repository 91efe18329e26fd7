// Opens the /docs API reference in Debian's headless Chromium and checks that
// it renders from the OpenAPI document with nothing loaded from elsewhere:
//
//   node testdata/browser/docs.mjs <base-url>
//
// Checks: one section per operation of /api/v1/openapi.json (and every
// operation's path and method shown), every in-page link resolves, the page
// loads no other resource (its CSS is inlined, allowed by a CSP hash, and it
// has no script), no console errors (CSP violations show there), a working
// skip link, and the narrow (phone) layout. Screenshots go to ARTIFACTS_DIR
// (default ./artifacts): docs-1-top.png, docs-2-operation.png,
// docs-3-schema.png, docs-4-narrow.png. server/docs_browser_test.go runs it
// against a real payoutd. Exit status 0 means every check passed.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const base = (process.argv[2] || '').replace(/\/$/, '');
if (!base) {
  console.error('usage: node docs.mjs <base-url>');
  process.exit(2);
}
const artifacts = resolve(process.env.ARTIFACTS_DIR || 'artifacts');
mkdirSync(artifacts, { recursive: true });

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  console.log('ok   ' + what);
}

const spec = await (await fetch(base + '/api/v1/openapi.json')).json();
const ops = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) ops.push({ path, method: method.toUpperCase(), id: op.operationId });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems = [];
const requests = [];
// How long any one step may take before the run fails: a deadline, not a
// pace (each step goes on as soon as it can), long enough for a loaded
// machine where Chromium shares the CPU with everything else.
const stepDeadline = 120_000;
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  ctx.setDefaultTimeout(stepDeadline);
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));

  const res = await page.goto(base + '/docs');
  check(res.status() === 200, 'GET /docs answers 200');
  check(res.headers()['content-security-policy'].includes("default-src 'none'"), 'the page is served with a strict Content-Security-Policy');
  check(await page.evaluate(() => document.documentElement.lang === 'en'), 'the document declares its language');
  check((await page.locator('h1').first().innerText()).includes('reference'), 'the page has its h1');

  await page.screenshot({ path: join(artifacts, 'docs-1-top.png') });

  const shown = await page.evaluate(() => [...document.querySelectorAll('main section.op[id^="op-"]')].map((s) => ({
    id: s.id.slice(3),
    method: s.querySelector('h3 .m').textContent.trim(),
    path: s.querySelector('h3 .path').textContent.trim(),
  })));
  for (const op of ops) {
    const s = shown.find((x) => x.id === op.id);
    check(s && s.method === op.method && s.path === op.path, `${op.method} ${op.path} is shown (${op.id})`);
  }
  check(shown.length === ops.length + Object.keys(spec.webhooks || {}).length, `${ops.length} operations and the webhooks, nothing else`);
  const schemas = await page.locator('section.schema').count();
  check(schemas === Object.keys(spec.components.schemas).length, `all ${schemas} schemas are described`);

  const broken = await page.evaluate(() => [...document.querySelectorAll('a[href^="#"]')]
    .map((a) => a.getAttribute('href').slice(1)).filter((id) => !document.getElementById(id)));
  check(broken.length === 0, 'every in-page link has its target' + (broken.length ? ': missing ' + broken.slice(0, 5).join(', ') : ''));
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('table')].filter((t) => !t.querySelector('thead th')).length);
  check(unlabelled === 0, 'every table has column headers');

  // The skip link is the first stop of the keyboard and moves to the content.
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement.classList.contains('skip')), 'Tab reaches the skip link first');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => location.hash === '#main'), 'the skip link jumps to the content');

  // Shots of the viewport scrolled to each section: an element screenshot
  // makes Chromium lay out and paint the whole (very tall) page once more.
  for (const [sel, name] of [['#op-initiatePayment', 'docs-2-operation.png'], ['#schema-Payment', 'docs-3-schema.png']]) {
    await page.locator(sel).evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(artifacts, name) });
  }
  console.log('shot ' + join(artifacts, 'docs-{1-top,2-operation,3-schema}.png'));

  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
  narrow.setDefaultTimeout(stepDeadline);
  const phone = await narrow.newPage();
  phone.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  phone.on('request', (r) => requests.push(r.url()));
  await phone.goto(base + '/docs#op-confirmPayment');
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, 'no horizontal scrolling of the page on a phone-sized screen');
  const split = await phone.evaluate(() => [...document.querySelectorAll('table.params, table.fields')]
    .flatMap((t) => [...t.querySelectorAll('th code, td code, td .rule, td')])
    .filter((el) => {
      const cs = getComputedStyle(el);
      if (cs.overflowWrap === 'anywhere' || cs.wordBreak === 'break-all' || cs.wordBreak === 'break-word') return true;
      // A field name or a rule wrapped onto a second line.
      return (el.matches('th code') || el.classList.contains('rule')) && el.getClientRects().length > 1;
    })
    .slice(0, 5).map((el) => el.textContent.trim().slice(0, 40)));
  check(split.length === 0, 'parameter and field tables break no word on a phone' + (split.length ? ': ' + split.join(' | ') : ''));
  await phone.screenshot({ path: join(artifacts, 'docs-4-narrow.png') });
  console.log('shot ' + join(artifacts, 'docs-4-narrow.png'));

  const elsewhere = requests.filter((u) => !u.startsWith(base + '/docs'));
  check(elsewhere.length === 0, 'the page loads nothing but itself' + (elsewhere.length ? ': ' + elsewhere.join(', ') : ''));
  check(problems.length === 0, 'no console errors' + (problems.length ? ': ' + problems.join(' | ') : ''));
} finally {
  await browser.close();
}
