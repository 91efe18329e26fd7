// Drives the console (/console/) in Debian's headless Chromium as a
// freelancer would, and checks every page with axe-core:
//
//   node testdata/browser/console.mjs <base-url>
//
// Env: CONSOLE_LINK (a fresh sign-in link of a sandbox user whose KYC is
// APPROVED), CONSOLE_LINK_EXPIRED (an expired link), CONSOLE_LINK_OTHER (a
// link of a second user); ARTIFACTS_DIR (default ./artifacts) receives
// screenshots at 1280 and 375 px of every page and the downloaded FIRA;
// CHROMIUM (default /usr/bin/chromium). console_browser_test.go runs it
// against a real payoutd. It prints "result {json}" with the payout and FIRA
// it made; exit status 0 means every check passed.
//
// Nothing here assumes how fast the machine is: every action and
// navigation may take up to `patience`, and what happens in the background
// (a payout completing, a webhook delivered) is waited for by reloading
// until the page shows it, within that bound, never by a fixed sleep.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const base = (process.argv[2] || '').replace(/\/$/, '');
const links = { fresh: process.env.CONSOLE_LINK, expired: process.env.CONSOLE_LINK_EXPIRED, other: process.env.CONSOLE_LINK_OTHER };
if (!base || !links.fresh || !links.expired || !links.other) {
  console.error('usage: CONSOLE_LINK=… CONSOLE_LINK_EXPIRED=… CONSOLE_LINK_OTHER=… node console.mjs <base-url>');
  process.exit(2);
}
const artifacts = resolve(process.env.ARTIFACTS_DIR || 'artifacts');
mkdirSync(artifacts, { recursive: true });

const began = Date.now();
function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  console.log('ok   ' + what + ' (' + ((Date.now() - began) / 1000).toFixed(1) + ' s)');
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// patience bounds each action, navigation and background wait: generous,
// so a loaded machine is slow rather than failing.
const patience = 120_000;

// Console errors are where Content-Security-Policy violations show up.
const problems = [];
async function newPage() {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  ctx.setDefaultTimeout(patience);
  ctx.setDefaultNavigationTimeout(patience);
  const page = await ctx.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  return page;
}

const heading = (page) => page.locator('h1').first().innerText();

// navigate runs an action that loads another page and returns once that
// page has loaded, so what follows reads the new page, not the old one.
async function navigate(page, action) {
  await Promise.all([page.waitForNavigation(), action()]);
}

// reloadUntil reloads the page until cond (run in Node on the page) holds.
async function reloadUntil(page, what, cond) {
  const deadline = Date.now() + patience;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('check failed: gave up waiting for ' + what);
    await page.reload();
  }
}

// visit checks the page with axe-core (no serious or critical violation),
// checks that nothing is wider than a 375 px screen, and keeps screenshots
// at 1280 and 375 px.
async function visit(page, name) {
  const markup = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return {
      twice: ids.filter((id, i) => ids.indexOf(id) !== i),
      orphans: [...document.querySelectorAll('label[for]')].map((l) => l.htmlFor).filter((f) => !document.getElementById(f)),
    };
  });
  check(markup.twice.length === 0 && markup.orphans.length === 0,
    `${name}: ids are unique and every label names a control (${JSON.stringify(markup)})`);
  await page.evaluate(axeSource);
  const res = await page.evaluate(() => globalThis.axe.run(document, { resultTypes: ['violations'] }));
  const bad = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  check(bad.length === 0, `axe: no serious or critical violation on ${name}` +
    (bad.length ? ' ' + JSON.stringify(bad.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target) }))) : ''));
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(artifacts, `console-${name}-${width}.png`), fullPage: true });
    if (width === 375) {
      const wide = await page.evaluate(() => {
        const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 376 && !e.closest('.table-wrap'));
        return { width: document.documentElement.scrollWidth, over: over.slice(0, 3).map((e) => e.tagName + '.' + e.className) };
      });
      check(wide.width <= 375, `${name} fits 375 px (scrollWidth ${wide.width}${wide.over.length ? ', too wide: ' + wide.over.join(' ') : ''})`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// signIn opens a link and presses its Sign in button with the keyboard; a
// link refused on opening has no button, and the refusal stays shown.
async function signIn(page, link, name) {
  await page.goto(link);
  if (await heading(page) === 'Sign-in link refused') return;
  check(await heading(page) === 'Sign in to the console', 'a link opens the sign-in step');
  if (name) await visit(page, name);
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Sign in')) break;
  }
  await navigate(page, () => page.keyboard.press('Enter'));
}

const istToday = new Date(Date.now() + 330 * 60 * 1000).toISOString().slice(0, 10);
const result = {};
try {
  const page = await newPage();
  await signIn(page, links.fresh, 'signin');
  check(new URL(page.url()).pathname === '/console/', 'signing in lands on Home');
  check(await heading(page) === 'Home', 'Home is shown');
  check((await page.locator('.mode').innerText()).includes('SANDBOX'), 'the banner says SANDBOX');
  check(await page.locator('ol.bars svg.bar').count() === 12, 'Home draws twelve monthly bars');
  await visit(page, 'home');

  // A payout through the form: one step to say what, one to confirm.
  await navigate(page, () => page.getByRole('link', { name: 'New payout', exact: true }).first().click());
  check(await heading(page) === 'New payout', 'New payout opens');
  await page.getByLabel('Amount').fill('250.00');
  await page.getByLabel('Destination address').fill('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ');
  await page.getByLabel('Client name').fill('Acme Inc');
  await page.getByLabel('Client country').fill('US');
  await page.getByLabel('Purpose code').fill('P0802');
  await page.getByLabel('Invoice reference').fill('INV-CONSOLE-1');
  await page.getByLabel('Memo').fill('x'.repeat(300));
  await navigate(page, () => page.getByRole('button', { name: 'Continue to confirm' }).click());
  check((await page.locator('#memo-error').innerText()).includes('256'),
    'a memo over 256 characters gets the API\'s message next to the field');
  await visit(page, 'payout-new-errors');
  await page.getByLabel('Memo').fill('Console invoice');
  await navigate(page, () => page.getByRole('button', { name: 'Continue to confirm' }).click());
  check(await heading(page) === 'Confirm payout', 'the confirmation step shows what will be sent');
  check((await page.locator('main').innerText()).includes('INR estimate'), 'the confirmation shows an INR estimate');
  await visit(page, 'payout-confirm');
  await navigate(page, () => page.getByRole('button', { name: /^Confirm and send/ }).click());
  const payoutID = new URL(page.url()).pathname.split('/').pop();
  check(payoutID.startsWith('pay_'), 'confirming leads to the payout ' + payoutID);
  result.payout = payoutID;
  await reloadUntil(page, 'the payout to complete', async () => (await page.locator('main .badge').first().innerText()) === 'COMPLETED');
  check(true, 'the payout reaches COMPLETED');
  check((await page.locator('.timeline li').count()) >= 5, 'the timeline lists each status from the audit log');
  await visit(page, 'payout');

  // Its FIRA, as a PDF download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download FIRA PDF' }).click()]);
  const pdfPath = join(artifacts, 'console-fira.pdf');
  await download.saveAs(pdfPath);
  check(readFileSync(pdfPath).subarray(0, 5).toString() === '%PDF-', 'the FIRA downloads as a PDF');
  result.fira = download.suggestedFilename().replace(/^FIRA-/, '').replace(/\.pdf$/, '');

  await navigate(page, () => page.getByRole('link', { name: 'Payouts', exact: true }).click());
  check(await page.locator(`a[href="/console/payouts/${payoutID}"]`).count() === 1, 'the payout is listed');
  await visit(page, 'payouts');
  await navigate(page, () => page.getByRole('link', { name: 'FIRAs', exact: true }).click());
  await visit(page, 'firas');
  await navigate(page, () => page.locator('table a.mono').first().click());
  check((await heading(page)).startsWith('FIRA fira_'), 'a FIRA opens');
  await visit(page, 'fira');

  // Settings: a webhook endpoint (its deliveries are looked at below) and an
  // API key, each secret shown once.
  await navigate(page, () => page.getByRole('link', { name: 'Settings', exact: true }).click());
  await visit(page, 'settings');
  await page.getByLabel('URL', { exact: true }).fill(base + '/console/webhook-sink');
  await page.getByLabel(/^Description/).fill('browser test');
  await navigate(page, () => page.getByRole('button', { name: 'Add endpoint' }).click());
  check((await page.locator('#secret').innerText()).startsWith('whsec_'), 'a new webhook endpoint\'s secret is shown once');
  await page.getByLabel(/^Label/).fill('browser-test');
  await page.getByRole('checkbox', { name: 'payments:read' }).check();
  await navigate(page, () => page.getByRole('button', { name: 'Create key' }).click());
  check((await page.locator('#secret').innerText()).startsWith('sk_sandbox_'), 'a new API key\'s secret is shown once');
  check((await page.locator('.table-wrap[aria-label="API keys table"]').innerText()).includes('browser-test'), 'the key carries its label');

  // A challan: first with a wrong BSR code, then right.
  await navigate(page, () => page.getByRole('link', { name: 'Tax', exact: true }).click());
  check((await heading(page)).startsWith('Tax: '), 'Tax opens');
  await visit(page, 'tax');
  await page.getByLabel('Amount (₹)').fill('1000');
  await page.getByLabel('Paid on').fill(istToday);
  await page.getByLabel('BSR code').fill('12');
  await page.getByLabel('Challan serial').fill('00017');
  await navigate(page, () => page.getByRole('button', { name: 'Record challan' }).click());
  const bsrError = (await page.locator('#bsrCode-error').textContent().catch(() => '(none: ' + page.url() + ')')).replace(/\s+/g, ' ').trim();
  check(bsrError === 'Error: must be the 7-digit BSR code on the challan',
    'a wrong BSR code is refused with the API\'s message next to it (' + bsrError + ')');
  await visit(page, 'tax-errors');
  await page.getByLabel('BSR code').fill('0510002');
  await navigate(page, () => page.getByRole('button', { name: 'Record challan' }).click());
  check((await page.locator('.flash').innerText()) === 'Challan recorded.', 'the challan is recorded');
  check((await page.locator('#challans').locator('..').innerText()).includes('0510002 / 00017'), 'the challan is listed');

  // Home now shows the receipt, the tax paid and the year's figures.
  await navigate(page, () => page.getByRole('link', { name: 'Home', exact: true }).click());
  const home = await page.locator('main').innerText();
  check(home.includes('1 reconciled receipt(s)') && home.includes('₹1,000.00'), 'Home shows the receipt and the challan');
  await visit(page, 'home-after');

  // The challan's event reached the webhook endpoint: its deliveries page.
  await navigate(page, () => page.getByRole('link', { name: 'Settings', exact: true }).click());
  await navigate(page, () => page.getByRole('link', { name: base + '/console/webhook-sink' }).click());
  check(await heading(page) === 'Webhook endpoint', 'an endpoint opens with its deliveries');
  await reloadUntil(page, 'a delivery to the webhook endpoint',
    async () => (await page.locator('.table-wrap[aria-label="Deliveries table"]').innerText()).includes('tax.payment.recorded'));
  check((await page.locator('.table-wrap[aria-label="Deliveries table"]').innerText()).includes('404'), 'a delivery shows its status and response');
  await visit(page, 'webhook');

  // A page that does not exist.
  const missing = await page.goto(base + '/console/no-such-page');
  check(missing.status() === 404 && await heading(page) === 'Page not found', 'an unknown address is a Not found page');
  await visit(page, 'not-found');

  // A form without its CSRF token does nothing.
  const forged = await page.context().request.post(base + '/console/tax/payments', {
    form: { fy: '', kind: 'advance', amount: '5', paidOn: istToday, bsrCode: '0510002', challanSerial: '00018' }, maxRedirects: 0,
  });
  check(forged.status() === 403, 'a POST without the CSRF token is refused (' + forged.status() + ')');

  await navigate(page, () => page.getByRole('button', { name: 'Sign out' }).click());
  check(await heading(page) === 'You are signed out', 'signing out says so');
  await page.goto(base + '/console/');
  check(await heading(page) === 'Sign in to the console', 'after signing out the console asks for a link');

  // A used link and an expired one are refused.
  await signIn(page, links.fresh);
  check(await heading(page) === 'Sign-in link refused', 'a used link is refused');
  check((await page.locator('main').innerText()).includes('already used'), 'the refusal says the link was used');
  await visit(page, 'signin-refused');
  await signIn(page, links.expired);
  check((await page.locator('main').innerText()).includes('expired'), 'an expired link is refused as expired');

  // A second user sees none of the first user's data.
  const other = await newPage();
  await signIn(other, links.other);
  check(await heading(other) === 'Home', 'the second user signs in');
  await other.goto(base + '/console/payouts');
  check((await other.locator('main').innerText()).includes('No payouts match.'), 'the second user lists no payouts');
  const res = await other.goto(base + '/console/payouts/' + payoutID);
  check(res.status() === 404, 'the first user\'s payout is not found for the second');
  const pdf = await other.context().request.get(base + '/console/firas/' + result.fira + '/pdf');
  check(pdf.status() === 404, 'the first user\'s FIRA PDF is not found for the second');
  await other.goto(base + '/console/firas');
  check((await other.locator('main').innerText()).includes('No FIRA yet'), 'the second user lists no FIRA');
  await other.goto(base + '/console/tax');
  check(!(await other.locator('main').innerText()).includes('00017'), 'the second user sees no challan of the first');

  check(problems.length === 0, 'no console errors (CSP violations, script errors): ' + JSON.stringify(problems));
  console.log('result ' + JSON.stringify(result));
  writeFileSync(join(artifacts, 'console-result.json'), JSON.stringify(result));
} finally {
  await browser.close();
}
